package exact

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The copies model under a shared handover-uniform memory of capacity m (docs/models.md §4.16,
// "A handover-uniform memory"). At the start of a turn a face still has at most one remembered
// card (the mover takes a pair known whole first), so the state of faces of CopiesState
// describes the game, with at most m remembered cards. Forgetting at a hand-over draws, without
// replacement, among the cards remembered before the turn: one per half-known face, so the draw
// is a multivariate hypergeometric one over the classes of faces by cards on the table, plus the
// face whose pair the turn left known whole (its old card forgotten, nobody takes the pair).
//
// A turn that hands the move over keeps or raises the remembered cards (it flips at least one
// unknown card and forgets at most as many as it saw), so within the states of one number of
// pairs, H < m only leads to more remembered cards, and H = m to H = m: those states refer to
// each other in cycles, and are solved as one system of linear equations per number of pairs,
// the optimum by policy iteration (as decay's rows, §4.14). Every other state is solved from the
// states it leads to.
//
// Under pass rules two-known and always (copiesmempass.go) a pass shows no card and forgets
// nothing: it hands the same state of faces to the other seat with the flag "a pass was just
// made" set, a cell of its own, and a pass with the flag set ends the game in a stalemate, lead 0.
// The flagged cell is solved before the unflagged one of the same state (or with it, in the
// system of its number of pairs at a full memory).

// isCopiesMem reports whether m is the copies model under a shared handover-uniform memory of
// fixed capacity (copiesmem.go), rather than the perfect-memory copies model (copies.go).
func isCopiesMem(m Model) bool {
	return m.Memory.Forget == rules.ForgetHandoverUniform && m.Variant.CopiesOf() >= rules.DefaultCopies
}

// checkCopiesMem reports whether the copies model under a handover-uniform memory can solve mu in
// m: two players, shared memory of a fixed capacity, any pass rule, no singletons, with or without
// a turn limit (one player without one), sequential flips, and optimal, safe, daring or best-response to one of them.
func checkCopiesMem(m Model, mu Lineup) error {
	if err := checkCopiesMemModel(m); err != nil {
		return err
	}
	k := m.Variant.CopiesOf()
	switch {
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("copies %d: a policy given as a table has no exact model", k)
	case m.Variant.TurnLimit > 0 && mu.Players == 1:
		return checkCopiesMemLimit(m, mu) // copiesmemlimit.go
	case mu.Players == 1:
		return checkCopiesMemSolo(m, mu) // copiesmemsolo.go
	case mu.Players >= 3:
		return checkCopiesMemSeats(m, mu) // copiesmemseats.go
	case mu.Players != 2 || mu.PerSeat:
		return fmt.Errorf("copies %d with %s: one or two players have an exact model, not %d (perfect memory: 1 to %d)", k, m.Memory, mu.Players, rules.MaxPlayers)
	}
	return checkCopiesMemPolicies(m, mu)
}

// checkCopiesMemPolicies reports whether the two seats of mu play policies the copies models
// under a limited memory solve: optimal, safe or daring, and seat 0 best-response to one of them.
func checkCopiesMemPolicies(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	for _, p := range []rules.Policy{mu.Policy, mu.Opponent} {
		switch p {
		case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring:
		case rules.PolicyBestResponse:
			if p == mu.Opponent {
				return fmt.Errorf("copies %d with %s: best-response is seat 0's policy, answering optimal, safe or daring", k, m.Memory)
			}
		default:
			return fmt.Errorf("policy %s with copies %d and %s has no exact model (allowed: optimal, safe, daring, best-response)", p, k, m.Memory)
		}
	}
	if mu.Policy == rules.PolicyBestResponse {
		if err := mu.Policy.CheckReply(mu.Opponent, true, mu.Players); err != nil {
			return err
		}
	}
	return nil
}

// checkCopiesMemModel reports whether the copies model under a handover-uniform memory solves the
// model m, whatever the lineup: shared memory of a fixed capacity, any pass rule, no singletons,
// with or without a turn limit (copiesmemlimit.go), sequential flips.
func checkCopiesMemModel(m Model) error {
	k := m.Variant.CopiesOf()
	switch {
	case m.Memory.Scope != rules.ScopeShared:
		return fmt.Errorf("copies %d: a private %s memory forgets at its own seat's turns, which no state of faces describes (only a shared one has an exact model)", k, m.Memory.Forget)
	case m.Memory.Fluctuation > 0:
		return fmt.Errorf("copies %d: a fluctuating capacity has no exact model with copies of a face (a fixed handover-uniform capacity has)", k)
	case m.Singletons != 0:
		return fmt.Errorf("copies %d: singletons have no exact model", k)
	case m.Variant.Flips == rules.FlipsBlind:
		return fmt.Errorf("copies %d with %s: blind flips have no exact model (perfect memory only)", k, m.Memory)
	}
	if err := m.Memory.Validate(); err != nil {
		return err
	}
	return m.Choices.Validate()
}

// cmOutcome is one outcome of a turn under the handover-uniform copies model: with probability
// num/den the turn ends in cell to. keep says that the mover took a pair and moves again;
// otherwise the other seat moves, first taking the handed pairs (0 or 1) the turn left known whole.
type cmOutcome struct {
	num, den int64
	next     string
	to       int
	handed   int
	keep     bool
	lucky    bool // daring's second card matched a first card of an unknown face
}

// cmCell is one state of the model, with the outcomes of its legal choices and its values.
type cmCell[T any] struct {
	v        copiesVec
	pairs, h int
	// stalemate marks the cell of the game ended in a stalemate, lead 0.
	stalemate bool
	// streak is the pass streak (at two seats 1 just after the other seat's pass, when a pass now
	// is a stalemate), left the pairs a stalemate cell shares at three or more seats
	// (copiesmempass.go).
	streak, left int
	legal        [rules.NumChoices]bool
	outs         [rules.NumChoices][]cmOutcome
	probs        [rules.NumChoices][]T

	// solo is solitaire's expected turns and lucky matches from the cell, soloChoice the choice
	// (copiesmemsolo.go).
	solo       [2]T
	soloChoice rules.Choice

	// mseats holds the values at three or more seats (copiesmemseats.go).
	mseats cmSeatVals[T]

	leadVals[T]
}

// after reports whether the previous seat has just passed (at two seats a pass now is a
// stalemate).
func (c *cmCell[T]) after() bool { return c.streak > 0 }

// copiesMemSolver solves the copies model under a handover-uniform memory over the states a game
// from one state reaches.
type copiesMemSolver[T any] struct {
	ctx       context.Context
	f         field.Field[T]
	m         Model
	mu        Lineup
	capacity  int
	cells     []*cmCell[T]
	at        map[string]int
	zero, one T
}

// cmMaxStates bounds the states a solve visits.
const cmMaxStates = CopiesStateLimit

func newCopiesMemSolver[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (*copiesMemSolver[T], error) {
	if err := checkCopiesMem(m, mu); err != nil {
		return nil, err
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return nil, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	if h := st.Remembered(); h > m.Memory.Capacity {
		return nil, fmt.Errorf("%v: %d remembered cards, more than the capacity %d", st, h, m.Memory.Capacity)
	}
	s := &copiesMemSolver[T]{ctx: ctx, f: f, m: m, mu: mu, capacity: m.Memory.Capacity, at: map[string]int{},
		zero: f.FromInt(0), one: f.FromInt(1)}
	if err := s.explore(st.vec().key()); err != nil {
		return nil, err
	}
	return s, nil
}

// explore adds the cells of every state a game from start reaches, with their outcomes.
func (s *copiesMemSolver[T]) explore(start string) error {
	queue := []string{start}
	s.at[start] = 0
	for len(queue) > 0 {
		if len(s.cells)%1024 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		if len(s.cells) >= cmMaxStates {
			return fmt.Errorf("copies with %s: more than %d states", s.m.Memory, cmMaxStates)
		}
		key := queue[0]
		queue = queue[1:]
		if strings.HasPrefix(key, cmStalemateKey) {
			s.cells = append(s.cells, cmStalemateCell[T](key))
			continue
		}
		v, l := cmStreakOfKey(key)
		c := &cmCell[T]{v: v, pairs: v.state().Pairs(), h: remembered(v), streak: l}
		if unknownCards(v) > 0 {
			for _, ch := range rules.Choices() {
				switch {
				case ch == rules.Pass && copiesPassLegal(v, s.m):
					c.outs[ch] = cmPassOutcomes(v, l, s.mu.Players)
				case copiesLegal(v, ch, s.m.Choices):
					c.outs[ch] = s.outcomes(v, ch)
				default:
					continue
				}
				c.legal[ch] = true
				for i := range c.outs[ch] {
					o := &c.outs[ch][i]
					j, ok := s.at[o.next]
					if !ok {
						j = len(s.at)
						s.at[o.next] = j
						queue = append(queue, o.next)
					}
					o.to = j
					c.probs[ch] = append(c.probs[ch], s.f.FromFrac(o.num, o.den))
				}
			}
		}
		s.cells = append(s.cells, c)
	}
	return nil
}

// outcomes returns the outcomes of the legal choice ch in v, as the engine plays it card by card
// (§5.2), the hand-over's forgetting included.
func (s *copiesMemSolver[T]) outcomes(v copiesVec, ch rules.Choice) []cmOutcome {
	var out []cmOutcome
	h := remembered(v)
	u := int64(unknownCards(v))
	// miss adds the outcomes of a turn that hands over with weight num/den: w is the state after
	// the flips without the face b (its class before the turn, -1 for none) whose pair the turn
	// left known whole; seen is the number of cards the turn stored.
	miss := func(num, den int64, w copiesVec, b, seen int) {
		old := make([]int, len(v)/2) // old remembered cards by class of r, b's excluded
		for i := range old {
			old[i] = v[2*i+1]
		}
		if b >= 0 {
			old[b/2]--
		}
		x := max(0, h+seen-s.capacity)
		s.forget(&out, num, den, w.clone(), old, b, h, x)
	}
	if ch == rules.KnownFirst {
		cl := -1
		for c := len(v) - 1; c >= 1; c -= 2 {
			if v[c] > 0 {
				cl = c
				break
			}
		}
		r := cl&^1 + 2
		out = append(out, cmOutcome{num: int64(r - 1), den: u, keep: true,
			next: v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1})})
		for cl2, a2 := range v {
			if cl2 == cl {
				a2--
			}
			if a2 <= 0 {
				continue
			}
			r2, b2 := cl2&^1+2, cl2&1
			num := int64(a2 * (r2 - b2))
			if b2 == 1 {
				miss(num, u, v.with(copiesMove{cl2, -1}), cl2, 1)
				continue
			}
			miss(num, u, v.with(copiesMove{cl2, -1}, copiesMove{copiesClass(r2, 1), 1}), -1, 1)
		}
		return out
	}
	safe := ch == rules.Safe
	for cl, a := range v {
		if a == 0 {
			continue
		}
		r, b := cl&^1+2, cl&1
		cards := int64(a * (r - b))
		if b == 1 {
			out = append(out, cmOutcome{num: cards, den: u, keep: true,
				next: v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1})})
			continue
		}
		first := []copiesMove{{cl, -1}, {copiesClass(r, 1), 1}}
		if safe {
			miss(cards, u, v.with(first...), -1, 1)
			continue
		}
		den := u * (u - 1)
		out = append(out, cmOutcome{num: cards * int64(r-1), den: den, keep: true, lucky: true,
			next: v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1})})
		for cl2, a2 := range v {
			if cl2 == cl {
				a2--
			}
			if a2 <= 0 {
				continue
			}
			r2, b2 := cl2&^1+2, cl2&1
			num := cards * int64(a2*(r2-b2))
			if b2 == 1 {
				miss(num, den, v.with(append(first, copiesMove{cl2, -1})...), cl2, 2)
				continue
			}
			miss(num, den, v.with(append(first, copiesMove{cl2, -1}, copiesMove{copiesClass(r2, 1), 1})...), -1, 2)
		}
	}
	return out
}

// forget appends the outcomes of forgetting x more cards, one at a time uniformly among the
// pool old cards remembered before the turn: old[i] of them the lone remembered card of a
// half-known face of 2(i+1) cards (in w as such), and, when b >= 0, the old card of the face of
// class b whose pair the turn left known whole (not in w). Forgetting b's old card leaves that
// face half-known through the card just seen, and nobody takes its pair; otherwise the next seat
// takes it first.
func (s *copiesMemSolver[T]) forget(out *[]cmOutcome, num, den int64, w copiesVec, old []int, b, pool, x int) {
	if x == 0 {
		o := cmOutcome{num: num, den: den}
		if b >= 0 {
			o.handed = 1
			r := b&^1 + 2
			if t := taken(r); t >= 0 {
				w[t]++
			}
		}
		o.next = w.key()
		g := gcd64(o.num, o.den)
		o.num, o.den = o.num/g, o.den/g
		*out = append(*out, o)
		return
	}
	if b >= 0 {
		w2 := w.clone()
		w2[b]++ // half-known again, through the card just seen
		s.forget(out, num, den*int64(pool), w2, old, -1, pool-1, x-1)
	}
	for i, a := range old {
		if a == 0 {
			continue
		}
		w2 := w.clone()
		w2[2*i+1]--
		w2[2*i]++
		old2 := append([]int(nil), old...)
		old2[i]--
		s.forget(out, num*int64(a), den*int64(pool), w2, old2, b, pool-1, x-1)
	}
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

func (v copiesVec) clone() copiesVec { return append(copiesVec(nil), v...) }

// with returns v with the moves applied (a move to class -1, a face that left the table, dropped).
func (v copiesVec) with(moves ...copiesMove) copiesVec {
	w := v.clone()
	for _, m := range moves {
		if m.class >= 0 {
			w[m.class] += m.delta
		}
	}
	return w
}

// cmChooser says how a role chooses: a fixed policy's choice, the optimum's (read off the
// solved self-play), or the largest lead (a maximiser).
type cmChooser int

const (
	cmFixed cmChooser = iota
	cmOptimal
	cmMax
)

// solve computes the values: the optimum's self-play where a role reads it, then the lineup's two
// roles.
func (s *copiesMemSolver[T]) solve() error {
	if s.mu.Players == 1 {
		return s.solveSolo() // copiesmemsolo.go
	}
	if s.mu.Players >= 3 {
		return s.solveSeats(s.groups()) // copiesmemseats.go
	}
	pol := [2]rules.Policy{s.mu.Policy, s.mu.Opponent}
	needOpt := false
	var kinds [2]cmChooser
	for r, p := range pol {
		switch p {
		case rules.PolicyOptimal:
			kinds[r], needOpt = cmOptimal, true
		case rules.PolicyBestResponse:
			kinds[r] = cmMax
		}
	}
	if needOpt {
		if err := s.run(1, [2]cmChooser{cmMax}, pol, true); err != nil {
			return err
		}
	}
	return s.run(2, kinds, pol, false)
}

// run solves the values of roles roles (1: both seats play role 0's way, the self-play optimum
// when it maximises; 2: seat 0's policy and the other seat's), storing them in opt (self) or val.
func (s *copiesMemSolver[T]) run(roles int, kinds [2]cmChooser, pol [2]rules.Policy, self bool) error {
	for _, g := range s.groups() {
		if err := s.solveGroup(g, roles, kinds, pol, self); err != nil {
			return err
		}
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// groups returns the cells in the order they are solved: by number of pairs, then by remembered
// cards from the most, a flagged cell before the unflagged one of its state; the cells of one
// number of pairs at a full memory form one group, solved as a system, every other cell a group
// of its own.
func (s *copiesMemSolver[T]) groups() [][]int {
	order := make([]int, len(s.cells))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ca, cb := s.cells[order[a]], s.cells[order[b]]
		if ca.pairs != cb.pairs {
			return ca.pairs < cb.pairs
		}
		if ca.h != cb.h {
			return ca.h > cb.h
		}
		return ca.streak > cb.streak // a flagged cell before the unflagged one it follows
	})
	var out [][]int
	for i := 0; i < len(order); {
		j := i + 1
		c := s.cells[order[i]]
		if c.h == s.capacity {
			for j < len(order) && s.cells[order[j]].pairs == c.pairs && s.cells[order[j]].h == s.capacity {
				j++
			}
		}
		out = append(out, order[i:j])
		i = j
	}
	return out
}

// choiceValue returns the lead of role r's mover making ch in c, every state it leads to solved.
func (s *copiesMemSolver[T]) choiceValue(c *cmCell[T], r, roles int, ch rules.Choice, self bool) T {
	f := s.f
	sum := s.zero
	for i, o := range c.outs[ch] {
		x := leadAfter(f, &s.cells[o.to].leadVals, r, roles, self, o.keep, o.handed)
		sum = f.Add(sum, f.Mul(c.probs[ch][i], x))
	}
	return sum
}

// fixedChoiceOf returns a fixed policy's choice in c: safe where it is legal, else daring.
func fixedChoiceOf[T any](c *cmCell[T], p rules.Policy) rules.Choice {
	if p == rules.PolicySafe && c.legal[rules.Safe] {
		return rules.Safe
	}
	return rules.Daring
}

// solveGroup solves the cells of idx, which refer to each other only (when more than one, or one
// that refers to itself) and otherwise to solved cells.
func (s *copiesMemSolver[T]) solveGroup(idx []int, roles int, kinds [2]cmChooser, pol [2]rules.Policy, self bool) error {
	f := s.f
	if len(idx) == 1 && !s.refersTo(idx[0], idx[0]) {
		c := s.cells[idx[0]]
		for r := range roles {
			if c.pairs == 0 || c.stalemate {
				c.setLead(r, self, s.zero, rules.Daring)
				continue
			}
			if kinds[r] == cmMax {
				var ch rules.Choice
				var best T
				have := false
				for _, x := range rules.Choices() {
					if !c.legal[x] {
						continue
					}
					if v := s.choiceValue(c, r, roles, x, self); !have || f.Cmp(v, best) > 0 {
						ch, best, have = x, v, true
					}
				}
				c.setLead(r, self, best, ch)
				continue
			}
			ch := s.pick(c, r, kinds, pol)
			c.setLead(r, self, s.choiceValue(c, r, roles, ch, self), ch)
		}
		return nil
	}
	ch := make([]rules.Choice, len(idx)*roles)
	for k, i := range idx {
		for r := range roles {
			ch[k*roles+r] = s.pick(s.cells[i], r, kinds, pol)
		}
	}
	arcs := func(k int, x rules.Choice, visit func(p T, to int, keep bool, handed int)) {
		c := s.cells[idx[k]]
		for i, o := range c.outs[x] {
			visit(c.probs[x][i], o.to, o.keep, o.handed)
		}
	}
	x, err := solveLeadGroup(f, idx, roles, ch, func(r int) bool { return kinds[r] == cmMax },
		func(k int, y rules.Choice) bool { return s.cells[idx[k]].legal[y] }, arcs,
		func(to, r int) T { return s.cells[to].lead(r, self) })
	if err != nil {
		return fmt.Errorf("copies with %s: %w", s.m.Memory, err)
	}
	storeLeadGroup(f, idx, roles, self, x, ch, func(r int) bool { return kinds[r] == cmMax },
		func(i int) *leadVals[T] { return &s.cells[i].leadVals },
		func(i int, y rules.Choice) bool { return s.cells[i].legal[y] },
		func(i, r int, y rules.Choice) T { return s.choiceValue(s.cells[i], r, roles, y, self) })
	return nil
}

// pick returns role r's fixed choice in c, or for a maximiser the choice policy iteration starts
// from.
func (s *copiesMemSolver[T]) pick(c *cmCell[T], r int, kinds [2]cmChooser, pol [2]rules.Policy) rules.Choice {
	switch kinds[r] {
	case cmOptimal:
		return c.optChoice
	case cmMax:
		return rules.Daring // where policy iteration starts
	}
	return fixedChoiceOf(c, pol[r])
}

// refersTo reports whether cell i has an outcome leading to cell j.
func (s *copiesMemSolver[T]) refersTo(i, j int) bool {
	for _, outs := range s.cells[i].outs {
		for _, o := range outs {
			if o.to == j {
				return true
			}
		}
	}
	return false
}

// evaluateCopiesMem is EvaluateCopies under a handover-uniform memory.
func evaluateCopiesMem[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Result[T], error) {
	if m.Variant.TurnLimit > 0 {
		return evaluateCopiesMemLimit(ctx, f, m, mu, st) // copiesmemlimit.go
	}
	s, err := newCopiesMemSolver(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	if err := s.solve(); err != nil {
		return Result[T]{}, err
	}
	return s.result(st), nil
}

// result reads the lineup's value from the start cell.
func (s *copiesMemSolver[T]) result(st CopiesState) Result[T] {
	f := s.f
	n := f.FromInt(int64(st.Pairs()))
	if s.mu.Players == 1 {
		c := s.cells[0]
		return Result[T]{State: st.RulesState(), Players: 1, ExpectedTurns: c.solo[0], ExpectedLucky: c.solo[1]}
	}
	if s.mu.Players >= 3 {
		return s.seatsResult(st) // copiesmemseats.go
	}
	res := Result[T]{State: st.RulesState(), Players: 2, ExpectedLead: s.cells[0].val[0]}
	res.ExpectedPairs = pairsFromLead(f, n, res.ExpectedLead)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	return res
}

// copiesMemChoiceValues is CopiesChoiceValues under a handover-uniform memory.
func copiesMemChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Choices[T], error) {
	if unknownCards(st.vec()) == 0 {
		return Choices[T]{}, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	if m.Variant.TurnLimit > 0 {
		return copiesMemLimitChoiceValues(ctx, f, m, mu, st) // copiesmemlimit.go
	}
	s, err := newCopiesMemSolver(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	if err := s.solve(); err != nil {
		return Choices[T]{}, err
	}
	c := s.cells[0]
	if mu.Players == 1 {
		return s.soloChoices(st), nil // copiesmemsolo.go
	}
	if mu.Players >= 3 {
		return s.seatsChoices(st), nil // copiesmemseats.go
	}
	n := f.FromInt(int64(st.Pairs()))
	out := Choices[T]{State: st.RulesState(), Value: s.result(st), PolicyChoice: c.ch[0]}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		cv := ChoiceValue[T]{Choice: ch, Lead: s.choiceValue(c, 0, 2, ch, false)}
		cv.Pairs = pairsFromLead(f, n, cv.Lead)
		cv.PairsBySeat = []T{cv.Pairs, f.Sub(n, cv.Pairs)}
		out.Values = append(out.Values, cv)
	}
	markBestUnlimited(f, &out, 2)
	return out, nil
}
