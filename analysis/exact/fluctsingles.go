package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Singletons under a shared handover-uniform memory whose capacity fluctuates (docs/models.md
// §4.4, "A fluctuating capacity" and "Singletons under a handover-uniform memory"), two seats,
// every pass rule (two-known and always in fluctsingles_pass.go). Before every turn a capacity c = max(2, m + d), d uniform on -σ .. σ, is drawn
// and shown to the mover; handover-uniform forgetting forgets nothing at the draw, only at the
// hand-over, which keeps c cards, forgetting its excess one card at a time uniformly among the
// cards remembered before the turn (husOutcomes with capacity c). Forgetting draws among the
// kinds of remembered card, so the count state (n, j, s, f) before the draw still describes the
// game, with at most m + σ known cards; after the draw a state is (n, j, s, f, c).
//
// The unknowns of the model are the states after the draw: a state before it is the average of
// its capacities' (expanded into every turn's outcomes). As for a fixed capacity, the states of
// one number of pairs refer to each other through forgetting and to states of fewer pairs: each
// n is one system of linear equations (solveLeadGroup), the optimum and best-response by policy
// iteration over the choices at every (n, j, s, f, c). In a row of n pairs a capacity of
// n + s + 1 or more never binds (a turn ends with at most n + 1 pair cards and s singletons
// remembered), so the capacities of a row are merged into n + s + 1 from above.

// IsFluctSingles reports whether m has singletons under a handover-uniform memory whose capacity
// fluctuates in the game of two copies of a face: the model of fluctsingles.go.
func IsFluctSingles(m Model) bool {
	return m.Singletons > 0 && m.Memory.Forget == rules.ForgetHandoverUniform && m.Memory.Capacity > 0 &&
		m.Memory.Fluctuation > 0 && m.Variant.CopiesOf() == rules.DefaultCopies
}

// checkFluctSinglesModel reports whether the model of singletons under a fluctuating
// handover-uniform capacity solves m: a shared memory, sequential flips, every pass rule, with or
// without a turn limit (fluctsingles_limit.go).
func checkFluctSinglesModel(m Model) error {
	s := m.Singletons
	switch {
	case m.Memory.Scope != rules.ScopeShared:
		return fmt.Errorf("singletons %d: a private %s memory forgets at its own seat's turns, which no count state describes (only a shared one has an exact model)", s, m.Memory)
	case m.Variant.Flips == rules.FlipsBlind:
		return fmt.Errorf("blind flips with singletons and %s memory have no exact model (use perfect memory, pairs only, or the simulator)", m.Memory)
	}
	if err := m.Memory.Validate(); err != nil {
		return err
	}
	if err := m.Variant.Validate(); err != nil {
		return err
	}
	return m.Choices.Validate()
}

// checkFluctSingles reports whether the model of singletons under a fluctuating handover-uniform
// capacity solves mu in m: two players, optimal, safe, daring or parity, or seat 0's
// best-response to one of them.
func checkFluctSingles(m Model, mu Lineup) error {
	if err := checkFluctSinglesModel(m); err != nil {
		return err
	}
	s := m.Singletons
	switch {
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("singletons %d with %s: a policy given as a table has no exact model", s, m.Memory)
	case mu.Players >= 3:
		return checkFluctSinglesSeats(m, mu) // fluctsingles_seats.go
	case mu.Players != 2 || mu.PerSeat:
		return fmt.Errorf("players %d: a fluctuating capacity with singletons is solved for 2 to %d players, a policy per seat at 3 or more", mu.Players, rules.MaxPlayers)
	}
	for _, p := range []rules.Policy{mu.Policy, mu.Opponent} {
		switch p {
		case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity:
		case rules.PolicyBestResponse:
			if p == mu.Opponent {
				return fmt.Errorf("singletons %d with %s: best-response is seat 0's policy, answering optimal, safe, daring or parity", s, m.Memory)
			}
		default:
			return fmt.Errorf("policy %s with singletons %d and %s has no exact model (allowed: optimal, safe, daring, parity, best-response)", p, s, m.Memory)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return err
		}
	}
	if mu.Policy == rules.PolicyBestResponse {
		return mu.Policy.CheckReply(mu.Opponent, true, mu.Players)
	}
	return nil
}

// refuseFluctSingles refuses, in the fluctuating models of pairs only, a model with singletons:
// those are solved by fluctsingles.go alone, for what it computes.
func refuseFluctSingles(m Model, mu Lineup) error {
	if m.Singletons == 0 || m.Memory.Fluctuation == 0 {
		return nil
	}
	if !IsFluctSingles(m) {
		return fmt.Errorf("singletons with %s have no exact model: a fluctuating capacity takes singletons under handover-uniform forgetting only (use pairs only, or the simulator)", m.Memory)
	}
	if err := checkFluctSingles(m, mu); err != nil {
		return err
	}
	return fmt.Errorf("singletons %d with %s: the solver gives a matchup's values, each choice's values after the draw, the score distribution and the engine's tables of optimal and best-response, not this computation", m.Singletons, m.Memory)
}

// fsKey is a state after the draw of capacity c (c = 0 for a state of no pairs), just after a
// pass by the other seat or not (fluctsingles_pass.go).
type fsKey struct {
	st    rules.State
	c     int
	after bool
}

// fsArc is one outcome of a choice after the draw, expanded over the next turn's draw: with
// probability p the next turn is played in cell to.
type fsArc[T any] struct {
	p      T
	to     int
	keep   bool
	handed int
}

// fsCell is one state after the draw, with its legal choices' outcomes and its values.
type fsCell[T any] struct {
	key   fsKey
	legal [rules.NumChoices]bool
	arcs  [rules.NumChoices][]fsArc[T]

	leadVals[T]
}

// fsDraw is one capacity drawn before a turn: with probability p the turn is played in cell to.
type fsDraw[T any] struct {
	p  T
	to int
}

// fsSolver solves singletons under a fluctuating handover-uniform capacity over every state with
// at most maxPairs pairs.
type fsSolver[T any] struct {
	ctx   context.Context
	f     field.Field[T]
	m     Model
	mu    Lineup
	maxK  int
	cells []*fsCell[T]
	at    map[fsKey]int
	// draws[st]: the cells of the capacities drawn before a turn in st; drawsPass[st] the same
	// just after a pass, in the states where the mover may pass (fluctsingles_pass.go).
	draws     map[rules.State][]fsDraw[T]
	drawsPass map[rules.State][]fsDraw[T]
	rows      [][]int // rows[n]: the cells of n pairs
	// seats: three or more seats (fluctsingles_seats.go), where the pass streak is the row's and
	// no cell is just after a pass.
	seats     bool
	zero, one T
}

// fsTop returns the capacity into which the capacities of a row of n pairs are merged from above.
func fsTop(m Model, n int) int { return n + m.Singletons + 1 }

func newFSSolver[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*fsSolver[T], error) {
	if err := checkFluctSingles(m, mu); err != nil {
		return nil, err
	}
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs %d: must be at least 1", maxPairs)
	}
	s := &fsSolver[T]{ctx: ctx, f: f, m: m, mu: mu, maxK: fluctMaxKnown(m.Memory), at: map[fsKey]int{},
		draws: map[rules.State][]fsDraw[T]{}, drawsPass: map[rules.State][]fsDraw[T]{}, rows: make([][]int, maxPairs+1),
		seats: mu.Players >= 3, zero: f.FromInt(0), one: f.FromInt(1)}
	sn := m.Singletons
	for n := 0; n <= maxPairs; n++ {
		var caps []fluctCap
		if n > 0 {
			caps = fluctCapsTo(m.Memory, fsTop(m, n))
		}
		for j := 0; j <= n; j++ {
			for fu := 0; fu <= sn; fu++ {
				st := rules.State{N: n, J: j, S: sn, F: fu}
				if st.Known() > s.maxK {
					continue
				}
				if n == 0 {
					s.draws[st] = []fsDraw[T]{{p: s.one, to: s.add(fsKey{st: st})}}
					continue
				}
				for _, cp := range caps {
					s.draws[st] = append(s.draws[st], fsDraw[T]{p: f.FromFrac(cp.p.Num, cp.p.Den), to: s.add(fsKey{st: st, c: cp.c})})
				}
			}
		}
	}
	s.addPassCells()
	for _, c := range s.cells {
		st := c.key.st
		if st.N == 0 {
			continue
		}
		for _, ch := range rules.Choices() {
			if !m.Legal(st, ch) {
				continue
			}
			c.legal[ch] = true
			if ch == rules.Pass {
				s.addPassArcs(c) // fluctsingles_pass.go
				continue
			}
			for _, o := range husOutcomes(st, ch, c.key.c) {
				ds, ok := s.draws[o.next]
				if !ok {
					return nil, fmt.Errorf("%v %s with capacity %d: outcome %v is not a state of the model", st, ch, c.key.c, o.next)
				}
				p := f.FromFrac(o.num, o.den)
				for _, d := range ds {
					c.arcs[ch] = append(c.arcs[ch], fsArc[T]{p: f.Mul(p, d.p), to: d.to, keep: o.keep, handed: o.handed})
				}
			}
		}
	}
	return s, nil
}

// add appends the cell of key k to its row and returns its index.
func (s *fsSolver[T]) add(k fsKey) int {
	i := len(s.cells)
	s.at[k] = i
	s.rows[k.st.N] = append(s.rows[k.st.N], i)
	s.cells = append(s.cells, &fsCell[T]{key: k})
	return i
}

// solve computes the values, row by row: the optimum's self-play where a role reads it, then the
// lineup's two roles.
func (s *fsSolver[T]) solve() error {
	pol := [2]rules.Policy{s.mu.Policy, s.mu.Opponent}
	needOpt := false
	var kinds [2]husChooser
	for r, p := range pol {
		switch p {
		case rules.PolicyOptimal:
			kinds[r], needOpt = husOptimal, true
		case rules.PolicyBestResponse:
			kinds[r] = husMax
		}
	}
	selfPlay := kinds[0] == husOptimal && kinds[1] == husOptimal
	for n, row := range s.rows {
		if selfPlay {
			// Both seats play the optimum: the lineup's values are the self-play's.
			if err := s.solveRow(row, 1, [2]husChooser{husMax}, pol, true); err != nil {
				return fmt.Errorf("%d pairs: %w", n, err)
			}
			for _, i := range row {
				c := s.cells[i]
				c.val, c.ch = [2]T{c.opt, c.opt}, [2]rules.Choice{c.optChoice, c.optChoice}
			}
			continue
		}
		if needOpt {
			if err := s.solveRow(row, 1, [2]husChooser{husMax}, pol, true); err != nil {
				return fmt.Errorf("%d pairs: %w", n, err)
			}
		}
		if err := s.solveRow(row, 2, kinds, pol, false); err != nil {
			return fmt.Errorf("%d pairs: %w", n, err)
		}
		if err := s.ctx.Err(); err != nil {
			return fmt.Errorf("solver stopped at %d pairs: %w", n, err)
		}
	}
	return nil
}

// choiceValue returns the lead of role r's mover making ch in c, every cell it leads to solved.
func (s *fsSolver[T]) choiceValue(c *fsCell[T], r, roles int, ch rules.Choice, self bool) T {
	f := s.f
	sum := s.zero
	for _, a := range c.arcs[ch] {
		x := leadAfter(f, &s.cells[a.to].leadVals, r, roles, self, a.keep, a.handed)
		sum = f.Add(sum, f.Mul(a.p, x))
	}
	return sum
}

// before returns role r's lead before the draw in st (the optimum's in self-play).
func (s *fsSolver[T]) before(st rules.State, r int, self bool) T {
	v := s.zero
	for _, d := range s.draws[st] {
		v = s.f.Add(v, s.f.Mul(d.p, s.cells[d.to].lead(r, self)))
	}
	return v
}

// pick returns role r's fixed choice in c (by its rule in the state after the draw), or for a
// maximiser the choice policy iteration starts from.
func (s *fsSolver[T]) pick(c *fsCell[T], r int, kinds [2]husChooser, pol [2]rules.Policy) rules.Choice {
	switch kinds[r] {
	case husOptimal:
		return c.optChoice
	case husMax:
		return rules.Daring
	}
	return pol[r].Decide(c.key.st)
}

// solveRow solves the cells of one number of pairs, which refer to each other and to solved cells
// of fewer pairs: one system of linear equations, maximisers' choices by policy iteration.
func (s *fsSolver[T]) solveRow(idx []int, roles int, kinds [2]husChooser, pol [2]rules.Policy, self bool) error {
	f := s.f
	if len(idx) == 0 {
		return nil
	}
	if s.cells[idx[0]].key.st.N == 0 {
		for _, i := range idx {
			for r := range roles {
				s.cells[i].setLead(r, self, s.zero, rules.Daring)
			}
		}
		return nil
	}
	ch := make([]rules.Choice, len(idx)*roles)
	for k, i := range idx {
		for r := range roles {
			c := s.cells[i]
			ch[k*roles+r] = s.pick(c, r, kinds, pol)
			if !c.legal[ch[k*roles+r]] {
				return fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", pol[r], ch[k*roles+r], c.key.st)
			}
		}
	}
	arcs := func(k int, x rules.Choice, visit func(p T, to int, keep bool, handed int)) {
		for _, a := range s.cells[idx[k]].arcs[x] {
			visit(a.p, a.to, a.keep, a.handed)
		}
	}
	x, err := solveLeadGroup(f, idx, roles, ch, func(r int) bool { return kinds[r] == husMax },
		func(k int, y rules.Choice) bool { return s.cells[idx[k]].legal[y] }, arcs,
		func(to, r int) T { return s.cells[to].lead(r, self) })
	if err != nil {
		return fmt.Errorf("singletons with %s: %w", s.m.Memory, err)
	}
	storeLeadGroup(f, idx, roles, self, x, ch, func(r int) bool { return kinds[r] == husMax },
		func(i int) *leadVals[T] { return &s.cells[i].leadVals },
		func(i int, y rules.Choice) bool { return s.cells[i].legal[y] },
		func(i, r int, y rules.Choice) T { return s.choiceValue(s.cells[i], r, roles, y, self) })
	return nil
}

// fsStart checks st, a state before the draw, against m and returns the solver of every state up
// to st's pairs, solved.
func fsStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*fsSolver[T], error) {
	if err := fsCheckState(m, st); err != nil {
		return nil, err
	}
	s, err := newFSSolver(ctx, f, m, mu, max(st.N, 1))
	if err != nil {
		return nil, err
	}
	if err := s.solve(); err != nil {
		return nil, err
	}
	return s, nil
}

// fsCheckState checks st, a state before the draw, against m.
func fsCheckState(m Model, st rules.State) error {
	if st.S != m.Singletons {
		return fmt.Errorf("state has %d singletons, the model %d", st.S, m.Singletons)
	}
	if err := st.Validate(rules.Memory{}); err != nil {
		return err
	}
	if st.Lead != 0 {
		return fmt.Errorf("lead %d: singletons under %s are solved for the expected values, which do not read the lead", st.Lead, m.Memory)
	}
	if k, top := st.Known(), fluctMaxKnown(m.Memory); k > top {
		return fmt.Errorf("%d known cards (pairs' and singletons') exceed the largest capacity %d", k, top)
	}
	return nil
}

// evaluateFluctSingles is Evaluate for singletons under a fluctuating handover-uniform capacity:
// the lineup's values in st before the draw.
func evaluateFluctSingles[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if mu.Players >= 3 {
		return evaluateFluctSinglesSeats(ctx, f, m, mu, st) // fluctsingles_seats.go
	}
	if m.Variant.TurnLimit > 0 {
		return evaluateFluctSinglesLimit(ctx, f, m, mu, st) // fluctsingles_limit.go
	}
	s, err := fsStart(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	return fsResult(f, st, s.before(st, 0, false)), nil
}

func fsResult[T any](f field.Field[T], st rules.State, lead T) Result[T] {
	n := f.FromInt(int64(st.N))
	res := Result[T]{State: st, Players: 2, ExpectedLead: lead}
	res.ExpectedPairs = pairsFromLead(f, n, lead)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	return res
}

// fluctSinglesChoiceValues is FluctChoiceValues for singletons under a fluctuating
// handover-uniform capacity: each legal choice's values in st with capacity c drawn.
func fluctSinglesChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], error) {
	if mu.Players >= 3 {
		return fluctSinglesSeatsChoiceValues(ctx, f, m, mu, st, c, 0) // fluctsingles_seats.go
	}
	return fsChoiceValues(ctx, f, m, mu, st, c, false)
}

// fsChoiceValues returns each legal choice's values in st with capacity c drawn, just after a pass
// by the other seat (where the mover may pass) or not.
func fsChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int, after bool) (Choices[T], error) {
	if st.N < 1 {
		return Choices[T]{}, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	if lo, hi := max(2, m.Memory.Capacity-m.Memory.Fluctuation), fluctMaxKnown(m.Memory); c < lo || c > hi {
		return Choices[T]{}, fmt.Errorf("capacity %d: %s draws %d to %d", c, m.Memory, lo, hi)
	}
	if m.Variant.TurnLimit > 0 {
		return fsLimitChoiceValues(ctx, f, m, mu, st, c, after) // fluctsingles_limit.go
	}
	s, err := fsStart(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	key := fsKey{st: st, c: min(c, fsTop(m, st.N))}
	if _, ok := s.drawsPass[st]; ok && after {
		key.after = true
	}
	cell := s.cells[s.at[key]]
	n := f.FromInt(int64(st.N))
	out := Choices[T]{State: st, Value: fsResult(f, st, cell.val[0]), PolicyChoice: cell.ch[0]}
	for _, ch := range rules.Choices() {
		if !cell.legal[ch] {
			continue
		}
		cv := ChoiceValue[T]{Choice: ch, Lead: s.choiceValue(cell, 0, 2, ch, false)}
		cv.Pairs = pairsFromLead(f, n, cv.Lead)
		cv.PairsBySeat = []T{cv.Pairs, f.Sub(n, cv.Pairs)}
		out.Values = append(out.Values, cv)
	}
	markBestUnlimited(f, &out, 2)
	return out, nil
}

// fluctSinglesTable is FluctTable (optimal) and FluctReplyTable (best-response to opponent) for
// singletons under a fluctuating handover-uniform capacity: a layer per capacity drawn, from
// max(2, m - σ) to the largest that binds in a deal of maxPairs pairs (larger ones read the last
// layer), each holding seat 0's choice in every state of at most maxPairs pairs.
func fluctSinglesTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if t := m.Variant.TurnLimit; t > 0 {
		return nil, fmt.Errorf("singletons %d with %s, turn limit %d: the tables are a layer per turns left (FluctLimitTables), not one per capacity alone", m.Singletons, m.Memory, t)
	}
	s, err := newFSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	if err := s.solve(); err != nil {
		return nil, err
	}
	lo := max(2, m.Memory.Capacity-m.Memory.Fluctuation)
	hi := max(lo, min(s.maxK, fsTop(m, maxPairs)))
	layers := make([]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		t, err := rules.NewChoiceTable(maxPairs, m.Singletons)
		if err != nil {
			return nil, err
		}
		for n := 1; n <= maxPairs; n++ {
			for _, ci := range s.rows[n] {
				cell := s.cells[ci]
				if cell.key.c != min(c, fsTop(m, n)) {
					continue
				}
				s.fsTableSet(t, cell) // fluctsingles_pass.go
			}
		}
		layers[i] = t
	}
	return rules.NewCapacityChoiceTable(lo, layers)
}

// estimateFluctSingles is Estimate for singletons under a fluctuating handover-uniform capacity:
// rows of up to 2(m+σ+1)(s+1) unknowns per capacity drawn (both roles), solved a few times over
// (policy iteration), in exact rationals with numbers that grow with n.
func estimateFluctSingles[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if m.Variant.TurnLimit > 0 {
		return estimateFluctSinglesLimit(f, m, mu, pairs, call) // fluctsingles_limit.go
	}
	if call != CallEvaluate && call != CallPolicyTable && call != CallDistribution {
		return Cost{}, fmt.Errorf("singletons %d with %s: the solver gives a matchup's values, each choice's values after the draw, the score distribution and the engine's tables of optimal and best-response, not this computation", m.Singletons, m.Memory)
	}
	if err := checkFluctSingles(m, mu); err != nil {
		return Cost{}, err
	}
	if call == CallDistribution && mu.Players >= 3 {
		return Cost{}, fluctSinglesSeatsDistErr(m, mu.Players)
	}
	_, isFloat := any(f).(field.Float)
	maxK := fluctMaxKnown(m.Memory)
	var ops, most float64
	for n := 1; n <= pairs; n++ {
		caps := float64(len(fluctCapsTo(m.Memory, fsTop(m, n))))
		row := 2 * float64(min(n+m.Singletons, maxK)+1) * float64(m.Singletons+1) * caps
		switch p := float64(mu.Players); {
		case mu.Players >= 3 && isSelfish(mu) && m.Pass != rules.PassNever:
			row *= p * p / 2 // p unknowns per state, p pass streaks (fluctsingles_seats.go; measured)
		case mu.Players >= 3 && isSelfish(mu):
			row *= p / 2
		case mu.Players >= 3 && m.Pass != rules.PassNever:
			row *= p * p * p / 2 // and each seat to move
		case mu.Players >= 3:
			row *= p * p / 2
		case m.Pass != rules.PassNever:
			row *= 2 // the cells just after a pass (fluctsingles_pass.go)
		}
		w := 8 * row * row * caps // a row's arcs reach every capacity of the next turn
		if call == CallDistribution {
			w += 2 * row * row * caps * float64(n+1) // the row's two systems, a right-hand side per lead (fluctsinglesdist.go)
		}
		if !isFloat {
			w *= husRatWeight * float64(n)
		}
		ops += w
		most = max(most, row*row)
		if call == CallDistribution {
			most = max(most, row*row+2*row*float64(n+1))
		}
	}
	bytes := baseBytes + most*8
	if !isFloat {
		bytes = baseBytes + gcHeadroom*most*(ratBytes+8*float64(pairs))
	}
	return Cost{Ops: ops, Bytes: bytes}, nil
}
