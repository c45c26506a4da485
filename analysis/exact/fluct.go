package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A fluctuating capacity (docs/models.md §2.2, §4.4): a shared lru or handover-uniform memory of
// base capacity m whose capacity is drawn at the start of every turn, max(2, m + d) with d uniform
// on -σ .. σ. Every seat uses the shared memory, so a capacity is drawn at every turn, a turn that
// only takes a pair known whole included. The mover sees the drawn capacity c before choosing.
//
// A state of the model is (n, k) before the draw (k = n - j known cards, at most m + σ), and
// (n, k, c) after it: under lru the cards beyond c are forgotten at once, so k <= c; under
// handover-uniform nothing is forgotten until the hand-over, which keeps c cards. A turn from
// (n, k, c) has the outcomes of §4.4's model of capacity c. A forgotten card leads back to a
// state of the same n with fewer known cards, so the states of one n refer to each other in
// cycles: they are solved together as a system of linear equations (decayrow.go's solveRow), the
// optimum by policy iteration over the choices at every (n, k, c).
//
// In a row of n pairs a capacity of n + 1 or more never binds (a turn stores at most two new
// cards, and a pair is left fully known only beside at most n - 1 half-known ones), so the
// capacities of a row are merged into n + 1 from above (n + 2 under blind flips with
// handover-uniform forgetting, fluctTop).

// FluctRationalLimit is the largest deal size for which memsim solves a fluctuating capacity in
// exact rationals when it needs a whole table or a tournament's exact values: every row is a
// system of equations solved by policy iteration, whose numbers grow with the deal (lru(5) with
// σ = 2, both seats optimal: about 0.4 s for 30 pairs, 1.3 s for 50, 4.5 s for 100; optimal
// against safe about nine times that), so larger tables and values are computed in float64.
const FluctRationalLimit = 30

// fluctCap is a capacity a turn can draw in a row and its probability.
type fluctCap struct {
	c int
	p Frac
}

// fluctCaps returns the distinct capacities a turn draws in a row of n pairs, with their
// probabilities, those of n + 1 or more merged into n + 1.
func fluctCaps(mem rules.Memory, n int) []fluctCap { return fluctCapsTo(mem, n+1) }

// fluctCapsTo returns the distinct capacities a turn draws, with their probabilities, those of
// top or more merged into top.
func fluctCapsTo(mem rules.Memory, top1 int) []fluctCap {
	m, s := int64(mem.Capacity), int64(mem.Fluctuation)
	total := 2*s + 1
	top := int64(top1)
	// count returns how many d in -σ .. σ give max(2, m + d) in [a, b] (b < 0: no upper bound).
	count := func(a, b int64) int64 {
		lo, hi := -s, s
		if a > 2 {
			lo = max(lo, a-m)
		}
		if b >= 0 {
			hi = min(hi, b-m)
		}
		return max(0, hi-lo+1)
	}
	var caps []fluctCap
	for c := int64(2); c <= top; c++ {
		var k int64
		if c == top {
			k = count(c, -1)
		} else {
			k = count(c, c)
		}
		if k > 0 {
			caps = append(caps, fluctCap{c: int(c), p: Frac{k, total}})
		}
	}
	return caps
}

// fluctMaxKnown returns the most cards a shared memory with a fluctuating capacity holds before
// a draw: the largest capacity, m + σ.
func fluctMaxKnown(mem rules.Memory) int {
	return int(min(int64(mem.Capacity)+int64(mem.Fluctuation), int64(rules.MaxFluctuation)))
}

// validateFluct reports whether a model with a fluctuating capacity is solved: a shared lru or
// handover-uniform memory, pairs only and the standard game (a pass rule other than never at two
// seats only, fluctpass.go).
func (m Model) validateFluct() error {
	mem := m.Memory
	switch {
	case mem.Scope != rules.ScopeShared:
		return fmt.Errorf("memory %s: a fluctuating capacity has an exact model with a shared memory only (private memories draw their capacities at their own seats' turns)", mem)
	case mem.Forget != rules.ForgetLRU && mem.Forget != rules.ForgetHandoverUniform:
		return fmt.Errorf("memory %s: only lru and handover-uniform forgetting take a fluctuating capacity", mem)
	case m.Singletons > 0:
		return fmt.Errorf("singletons with limited memory have no exact model (use perfect memory, or the simulator)")
	case m.Variant.Flips == rules.FlipsBlind:
		return m.validateFluctBlind() // fluctblind.go
	case m.Variant.TurnLimit > 0 && m.Variant.CopiesOf() == rules.DefaultCopies && m.Variant.Flips == rules.FlipsSequential:
		return fmt.Errorf("variant %s: a fluctuating capacity under a turn limit is solved for a matchup's values, each choice's values after the draw and its players' tables (optimal, safe, daring, parity, best-response; at two seats the score distribution too), not this computation", m.Variant)
	case !m.Variant.Standard():
		return fmt.Errorf("variant %s: a fluctuating capacity is solved in the standard game or under a turn limit only", m.Variant)
	}
	return m.Choices.Validate()
}

// validateFluct reports whether the matchup is solved under a fluctuating capacity: two players
// with optimal, safe, daring or parity (a fixed policy chooses by its rule in the state after the
// draw), or best-response to one of them, in a model Model.Validate accepts.
func validateFluct(m Model, mu Lineup) error {
	if err := refuseFluctSingles(m, mu); err != nil { // fluctsingles.go
		return err
	}
	if err := refuseFluctBlind(m, mu); err != nil {
		return err
	}
	if mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		return validateFluctWin(m, mu) // fluctwin.go
	}
	if err := m.Validate(); err != nil {
		return err
	}
	switch {
	case mu.Players != 2:
		return fmt.Errorf("players %d: a fluctuating capacity is solved for two players only", mu.Players)
	case mu.PerSeat:
		return fmt.Errorf("a fluctuating capacity is solved at two seats for optimal, safe, daring, parity and a policy given as a table, not for a policy per seat")
	case mu.leadTable():
		return fmt.Errorf("a fluctuating capacity is solved for a policy given as a table by count state, not for one that depends on the lead")
	}
	pol := mu.roles()
	for r, p := range pol {
		if p == rules.PolicyBestResponse && pol[1-r] != rules.PolicyBestResponse {
			continue // fluctbr.go: the best reply to the other role's policy
		}
		if p == policyTable {
			continue // read by count state whatever the capacity drawn (choiceAt)
		}
		if p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("policy %s: a fluctuating capacity is solved for optimal, safe, daring, parity and best-response to one of them (allowed: optimal, safe, daring, parity, best-response)", p)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return err
		}
	}
	return nil
}

// fluctRow holds the values of a row of n pairs: w[r][k] is the lead of role r (0: Policy,
// 1: Opponent; the optimum's in opt) to move in (n, k) before the draw.
type fluctRow[T any] struct {
	w   [2][]T
	opt []T
	// Under a pass rule (fluctpass.go), afterW and afterOpt are w and opt just after a pass by
	// the other seat.
	afterW   [2][]T
	afterOpt []T
}

// fluctSweep solves a fluctuating capacity row by row.
type fluctSweep[T any] struct {
	f    field.Field[T]
	m    Model
	pol  [2]rules.Policy
	maxK int
	// needOpt and needPair: the optimum is needed (as a role's policy, or for a table), the
	// matchup's values.
	needOpt, needPair bool
	prev              fluctRow[T]
	cur               fluctRow[T]
	// prev2 is the row of n - 2 pairs: under blind flips a turn can hand the next seat two pairs
	// known whole (fluctblind.go).
	prev2 fluctRow[T]
	// optChoice[n][c][k] is the optimum's choice in (n, k) with capacity c drawn.
	optChoice [][][]rules.Choice
	// br is the role that plays best-response (-1: none) and brChoice its choices as optChoice.
	br       int
	brChoice [][][]rules.Choice
	// Under a pass rule (fluctpass.go), optAfter and brAfter are the choices just after a pass
	// by the other seat, as optChoice and brChoice.
	optAfter, brAfter [][][]rules.Choice
	// tab[r] is the table role r plays when pol[r] is policyTable, read by count state (and just
	// after a pass) whatever the capacity drawn.
	tab  [2]*rules.ChoiceTable
	zero T
}

// fluctNode is an unknown of a row: before the draw (c = 0) or after it.
type fluctNode struct{ k, c int }

// rowNodes returns the unknowns of one role in a row of n pairs: the k before the draw, then
// (k, c) for every capacity drawn; and the capacities.
func (s *fluctSweep[T]) rowNodes(n int) ([]fluctNode, []fluctCap) {
	caps := fluctCapsTo(s.m.Memory, fluctTop(s.m, n))
	K := min(n, s.maxK)
	var nodes []fluctNode
	for k := 0; k <= K; k++ {
		nodes = append(nodes, fluctNode{k: k})
	}
	for _, cp := range caps {
		top := K
		if s.lru() {
			top = min(K, cp.c)
		}
		for k := 0; k <= top; k++ {
			nodes = append(nodes, fluctNode{k: k, c: cp.c})
		}
	}
	return nodes, caps
}

func (s *fluctSweep[T]) lru() bool { return s.m.Memory.Forget == rules.ForgetLRU }

// drawn returns the known cards after drawing capacity c with k known before.
func (s *fluctSweep[T]) drawn(k, c int) int {
	if s.lru() {
		return min(k, c)
	}
	return k
}

// before returns the lead of role r moving in (n1, k) before a draw, in a previous row, after
// draws turns that each take a pair known whole and draw a capacity first (under lru each
// forgets beyond it).
func (s *fluctSweep[T]) before(w []T, n1, k, draws int) T {
	if draws == 0 || !s.lru() {
		return w[k]
	}
	f := s.f
	v := s.zero
	for _, cp := range fluctCaps(s.m.Memory, max(n1, 1)) { // a row of no pairs draws too
		v = f.Add(v, f.Mul(f.FromFrac(cp.p.Num, cp.p.Den), s.before(w, n1, min(k, cp.c), draws-1)))
	}
	return v
}

// choiceEq returns the equation of the lead of role r in (n, k) with capacity c drawn, making
// choice ch: outcomes in the row refer to the other role's unknown index(k', other) before the
// draw, outcomes that leave it read prev (role r's and the other's values in row n-1) and, under
// blind flips, prevOther2 (the other's values in row n-2, after two pairs known whole).
func (s *fluctSweep[T]) choiceEq(n, k, c int, ch rules.Choice, prevOwn, prevOther, prevOther2 []T, other int, index func(k, role int) int) *decayEq[T] {
	f := s.f
	mc := s.m
	mc.Memory.Capacity, mc.Memory.Fluctuation = c, 0
	e := &decayEq[T]{a: []T{s.zero}}
	for _, o := range mc.Outcomes(rules.State{N: n, J: n - k}, ch, nil) {
		p := f.FromFrac(o.Prob.Num, o.Prob.Den)
		if k2 := sameRow(o, n); k2 >= 0 {
			e.to = append(e.to, index(k2, other))
			e.coef = append(e.coef, f.Sub(s.zero, p))
			continue
		}
		var v T
		k2 := o.Next.N - o.Next.J
		switch {
		case o.Continue:
			v = f.Add(f.FromInt(int64(o.MoverGain)), s.before(prevOwn, n-1, k2, 0))
		case o.Next.N == n-2:
			v = f.Sub(f.FromInt(int64(o.MoverGain-o.NextGain)), s.before(prevOther2, n-2, k2, o.NextGain))
		default:
			v = f.Sub(f.FromInt(int64(o.MoverGain-o.NextGain)), s.before(prevOther, n-1, k2, o.NextGain))
		}
		e.a[0] = f.Add(e.a[0], f.Mul(p, v))
	}
	e.merge(f)
	return e
}

// drawEq returns the equation of the lead before the draw in (n, k): the average over the
// capacities of the lead after it, at index(k', c).
func (s *fluctSweep[T]) drawEq(k int, caps []fluctCap, at func(k, c int) int) decayEq[T] {
	e := decayEq[T]{a: []T{s.zero}}
	for _, cp := range caps {
		e.to = append(e.to, at(s.drawn(k, cp.c), cp.c))
		e.coef = append(e.coef, s.f.FromFrac(cp.p.Num, cp.p.Den))
	}
	e.merge(s.f)
	return e
}

// row solves the row of n pairs.
func (s *fluctSweep[T]) row(n int) error {
	if s.passes() {
		return s.passRow(n)
	}
	nodes, caps := s.rowNodes(n)
	pos := make(map[fluctNode]int, len(nodes))
	for i, nd := range nodes {
		pos[nd] = i
	}
	N := len(nodes)
	if s.needOpt {
		at := func(k, c int) int { return pos[fluctNode{k: k, c: c}] }
		index := func(k, _ int) int { return at(k, 0) }
		sys := &choiceSys[T]{sign: 1}
		sys.fixed = make([]decayEq[T], N)
		for i, nd := range nodes {
			if nd.c == 0 {
				sys.fixed[i] = s.drawEq(nd.k, caps, at)
				continue
			}
			sys.at = append(sys.at, i)
			var eqs [rules.NumChoices]*decayEq[T]
			for _, ch := range rules.Choices() {
				if s.m.Legal(rules.State{N: n, J: n - nd.k}, ch) {
					eqs[ch] = s.choiceEq(n, nd.k, nd.c, ch, s.prev.opt, s.prev.opt, s.prev2.opt, 0, index)
				}
			}
			sys.eqs = append(sys.eqs, eqs)
		}
		ch, x, _, err := sys.solve(s.f)
		if err != nil {
			return fmt.Errorf("%d pairs: %w", n, err)
		}
		byCap := make([][]rules.Choice, caps[len(caps)-1].c+1)
		for t, i := range sys.at {
			nd := nodes[i]
			if byCap[nd.c] == nil {
				byCap[nd.c] = make([]rules.Choice, min(n, s.maxK)+1)
			}
			byCap[nd.c][nd.k] = ch[t]
		}
		s.optChoice = append(s.optChoice, byCap)
		s.cur.opt = make([]T, min(n, s.maxK)+1)
		for k := range s.cur.opt {
			s.cur.opt[k] = x[at(k, 0)][0]
		}
	}
	if !s.needPair {
		return nil
	}
	if s.br >= 0 {
		return s.replyRow(n, nodes, caps, pos)
	}
	// Both roles: role r's unknowns at r*N + node.
	index := func(k, role int) int { return role*N + pos[fluctNode{k: k}] }
	eqs := make([]decayEq[T], 2*N)
	for r := range 2 {
		at := func(k, c int) int { return r*N + pos[fluctNode{k: k, c: c}] }
		for i, nd := range nodes {
			if nd.c == 0 {
				eqs[r*N+i] = s.drawEq(nd.k, caps, at)
				continue
			}
			ch, err := s.choice(r, n, nd.k, nd.c)
			if err != nil {
				return err
			}
			eqs[r*N+i] = *s.choiceEq(n, nd.k, nd.c, ch, s.prev.w[r], s.prev.w[1-r], s.prev2.w[1-r], 1-r, index)
		}
	}
	x, err := solveRow(s.f, eqs)
	if err != nil {
		return fmt.Errorf("%d pairs: %w", n, err)
	}
	for r := range 2 {
		s.cur.w[r] = make([]T, min(n, s.maxK)+1)
		for k := range s.cur.w[r] {
			s.cur.w[r][k] = x[index(k, r)][0]
		}
	}
	return nil
}

// choice returns role r's choice in (n, k) with capacity c drawn.
func (s *fluctSweep[T]) choice(r, n, k, c int) (rules.Choice, error) {
	return s.choiceAt(r, n, k, c, 0)
}

// choiceAt returns role r's choice in (n, k) with capacity c drawn, just after a pass by the
// other seat when flag is 1.
func (s *fluctSweep[T]) choiceAt(r, n, k, c, flag int) (rules.Choice, error) {
	st := rules.State{N: n, J: n - k}
	var ch rules.Choice
	switch p := s.pol[r]; {
	case p == rules.PolicyOptimal && flag == 1:
		ch = s.optAfter[n][c][k]
	case p == rules.PolicyOptimal:
		ch = s.optChoice[n][c][k]
	case p == rules.PolicyBestResponse && flag == 1:
		ch = s.brAfter[n][c][k]
	case p == rules.PolicyBestResponse:
		ch = s.brChoice[n][c][k]
	case p == policyTable:
		var ok bool
		if ch, ok = s.tab[r].Lookup(st, flag == 1); !ok {
			return 0, fmt.Errorf("the table has no choice in %v (after a pass: %t)", st, flag == 1)
		}
	default:
		ch = p.Decide(st)
	}
	if !s.m.Legal(st, ch) {
		return 0, fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", s.pol[r], ch, st)
	}
	return ch, nil
}

// run solves every row up to maxPairs, calling visit, when not nil, after each.
func (s *fluctSweep[T]) run(ctx context.Context, maxPairs int, visit func(n int) error) error {
	zeros := []T{s.zero}
	s.prev = fluctRow[T]{w: [2][]T{zeros, zeros}, opt: zeros}
	s.prev2 = s.prev
	if s.needOpt {
		s.optChoice, s.optAfter = [][][]rules.Choice{nil}, [][][]rules.Choice{nil}
	}
	if s.br >= 0 {
		s.brChoice, s.brAfter = [][][]rules.Choice{nil}, [][][]rules.Choice{nil}
	}
	done := ctx.Done()
	for n := 1; n <= maxPairs; n++ {
		select {
		case <-done:
			return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		if err := s.row(n); err != nil {
			return err
		}
		s.prev2, s.prev, s.cur = s.prev, s.cur, fluctRow[T]{}
		if visit != nil {
			if err := visit(n); err != nil {
				return err
			}
		}
	}
	return nil
}

func newFluctSweep[T any](f field.Field[T], m Model, mu Lineup) (*fluctSweep[T], error) {
	if err := validateFluct(m, mu); err != nil {
		return nil, err
	}
	s := &fluctSweep[T]{f: f, m: m, pol: mu.roles(), maxK: fluctMaxKnown(m.Memory), zero: f.FromInt(0), tab: [2]*rules.ChoiceTable{mu.Table, mu.OpponentTable}}
	s.needOpt = s.pol[0] == rules.PolicyOptimal || s.pol[1] == rules.PolicyOptimal
	s.needPair = !isSelfPlay(mu)
	s.br = -1
	for r, p := range s.pol {
		if p == rules.PolicyBestResponse {
			s.br = r
		}
	}
	return s, nil
}

// evaluateFluct is Evaluate under a fluctuating capacity.
func evaluateFluct[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		return evaluateFluctWin(ctx, f, m, mu, st) // fluctwin.go
	}
	s, err := newFluctSweep(f, m, mu)
	if err != nil {
		return Result[T]{}, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return Result[T]{}, err
	}
	res := Result[T]{State: st, Players: 2}
	if err := s.run(ctx, st.N, nil); err != nil {
		return Result[T]{}, err
	}
	switch {
	case st.N == 0:
		res.ExpectedLead = s.zero
	case isSelfPlay(mu):
		res.ExpectedLead = s.prev.opt[k]
	default:
		res.ExpectedLead = s.prev.w[0][k]
	}
	n := f.FromInt(int64(st.N))
	res.ExpectedPairs = pairsFromLead(f, n, res.ExpectedLead)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	return res, nil
}

// FluctTable returns the optimum's choices under the fluctuating capacity of model m (two
// players) in every state of at most maxPairs pairs and every capacity drawn: a table with a
// layer per capacity (rules.NewCapacityChoiceTable), from max(2, m - σ) to the largest capacity
// that binds in a deal of maxPairs pairs; larger capacities read the last layer. Under a pass rule
// every layer also holds the choices just after a pass by the other seat.
func FluctTable[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int) (*rules.ChoiceTable, error) {
	if IsFluctSingles(m) {
		return fluctSinglesTable(ctx, f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, maxPairs) // fluctsingles.go
	}
	s, err := newFluctSweep(f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, maxPairs, nil); err != nil {
		return nil, err
	}
	return capacityLayers(s.m, maxPairs, s.lru(), s.optChoice, s.afterPass(s.optAfter))
}

// estimateFluct is Estimate under a fluctuating capacity, for the matchup's values: a curve
// fitted to measured solves of lru(5) with σ = 2 (exact rationals: 1.3 s for 50 pairs, 4.5 s for
// 100; float64: 0.9 s for 1000, both seats optimal), scaled by the square of a row's unknowns against that memory's.
func estimateFluct[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		return estimateFluctWin(f, m, mu, pairs, call) // fluctwin.go
	}
	if err := validateFluct(m, mu); err != nil {
		return Cost{}, err
	}
	k := float64(min(int64(pairs), int64(m.Memory.Capacity)+int64(m.Memory.Fluctuation)) + 1)
	caps := float64(min(2*int64(m.Memory.Fluctuation)+1, int64(pairs)+1) + 1)
	unknowns := 2 * k * caps
	if m.Pass != rules.PassNever {
		// Every unknown twice, without and with a pass just made (measured: 1.7 s for 60 pairs
		// against 0.7 under never, 8.7 s for the distribution of 12 pairs against 1.4).
		unknowns *= 2
	}
	scale := unknowns * unknowns / (96 * 96)
	if !isSelfPlay(mu) {
		scale *= 9 // both roles' system besides the optimum's (measured: 8 s for 40 pairs, optimal against safe)
	}
	n := float64(pairs)
	var seconds, bytes float64
	if _, isFloat := any(f).(field.Float); isFloat {
		seconds = 0.9 * n / 1000
		bytes = baseBytes + unknowns*unknowns*8
	} else {
		seconds = 4.5 * math.Pow(n/100, 1.8)
		bytes = baseBytes + gcHeadroom*unknowns*unknowns*(ratBytes+8*n)
	}
	if call == CallDistribution || call == CallWinDrawLoss {
		// WinDrawLoss reads the distribution under a fluctuating capacity, of both seat orders.
		seconds, bytes = fluctDistCost(f, n, seconds, bytes)
		if call == CallWinDrawLoss {
			seconds *= 2
		}
	}
	return Cost{Ops: seconds * scale * OpsPerSecond, Bytes: bytes}, nil
}

// fluctKnown checks a state of pairs only before the draw, st, against the most known cards a
// fluctuating capacity holds, maxK, and returns its known cards.
func fluctKnown(st rules.State, maxK int) (int, error) {
	if st.S != 0 || st.F != 0 {
		return 0, fmt.Errorf("state has %d singletons, the model 0", st.S)
	}
	if err := st.Validate(rules.Memory{}); err != nil {
		return 0, err
	}
	k := st.N - st.J
	if k > maxK {
		return 0, fmt.Errorf("%d known cards (n - j) exceed the largest capacity %d", k, maxK)
	}
	return k, nil
}
