package exact

import (
	"context"
	"fmt"
	"strings"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The copies model under a shared decay memory (docs/models.md §4.16, "A decay memory"): each
// remembered card is forgotten independently with probability q at every hand-over, the cards
// seen in the turn included, and with a capacity m the survivors beyond m are forgotten one at a
// time uniformly among the surviving cards remembered before the turn (as the engine plays it,
// §4.14). A turn flips at most two cards and the mover takes a pair known whole first, so at the
// start of a turn a face still has at most one remembered card: the state of faces of
// CopiesState describes the game. The forgetting is a binomial draw per class of half-known faces
// by cards on the table (old cards), one draw per card seen in the turn, and the two cards of the
// face whose pair the turn left known whole (its old card Y and the card just seen B): if both
// survive the next seat takes that pair first, with one the face is half-known, with neither
// unknown.
//
// A hand-over may forget any number of cards, so the states of one number of pairs refer to each
// other in cycles: the solver takes the strongly connected components of the states a game
// reaches, successors first, and solves each as one system of linear equations, the optimum by
// policy iteration (copiesMemSolver.solveGroup, shared with the handover-uniform memory).

// isCopiesDecay reports whether m is the copies model under a shared decay memory (k >= 2 copies
// of a face; k = 2 is the standard game, which the tests compare against §4.14's decay model).
func isCopiesDecay(m Model) bool {
	return m.Memory.Forget == rules.ForgetDecay && m.Variant.CopiesOf() >= rules.DefaultCopies
}

// IsCopiesDecay reports whether m has more than two copies of a face and a decay memory: the
// copies model under that memory (docs/models.md §4.16, "A decay memory"): the expected values,
// each choice's values, the score distribution and solitaire's distribution of the number of
// turns (copiesdecaydist.go).
func IsCopiesDecay(m Model) bool {
	return isCopiesDecay(m) && m.Variant.CopiesOf() != rules.DefaultCopies
}

// checkCopiesDecay reports whether the copies model under a decay memory can solve mu in m: shared
// memory, no singletons, sequential flips; two players under every pass rule, with or without a
// turn limit (copiesdecaylimit.go), optimal, safe, daring or best-response to one of them; three
// to eight seats under every pass rule without a turn limit, every seat for itself or a policy
// per seat (copiesmemseats.go, solved over the strongly connected components); or solitaire under
// pass rule never without a turn limit (copiesdecaysolo.go).
func checkCopiesDecay(m Model, mu Lineup) error {
	if err := checkCopiesDecayModel(m); err != nil {
		return err
	}
	k := m.Variant.CopiesOf()
	switch {
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("copies %d: a policy given as a table has no exact model", k)
	case mu.Players >= 3:
		return checkCopiesMemSeats(m, mu) // copiesmemseats.go
	case mu.Players == 1 && !mu.PerSeat && m.Variant.TurnLimit > 0:
		return checkCopiesMemLimit(m, mu) // copiesmemlimit.go
	case mu.Players == 1 && !mu.PerSeat:
		return checkCopiesMemSolo(m, mu) // copiesmemsolo.go
	case mu.Players != 2 || mu.PerSeat:
		return fmt.Errorf("copies %d with %s: one or two players have an exact model, not %d (perfect memory: 1 to %d)", k, m.Memory, mu.Players, rules.MaxPlayers)
	}
	return checkCopiesMemPolicies(m, mu) // copiesmem.go
}

// checkCopiesDecayModel reports whether the copies model under a decay memory solves the model m,
// whatever the lineup: shared memory, with or without a fixed capacity, every pass rule, no
// singletons, with or without a turn limit, sequential flips, a decay probability the exact model
// takes.
func checkCopiesDecayModel(m Model) error {
	k := m.Variant.CopiesOf()
	switch {
	case m.Memory.Scope != rules.ScopeShared:
		return fmt.Errorf("copies %d: a private decay memory forgets at its own seat's turns, which no state of faces describes (only a shared one has an exact model)", k)
	case m.Memory.Fluctuation > 0:
		return fmt.Errorf("copies %d: a fluctuating capacity has no exact model with copies of a face (a fixed decay capacity has)", k)
	case m.Singletons != 0:
		return fmt.Errorf("copies %d: singletons have no exact model", k)
	case m.Variant.Flips == rules.FlipsBlind:
		return fmt.Errorf("copies %d with %s: blind flips have no exact model (perfect memory only)", k, m.Memory)
	}
	if err := m.Memory.Validate(); err != nil {
		return err
	}
	if _, err := DecayRate(m.Memory); err != nil {
		return err
	}
	return m.Choices.Validate()
}

// copiesDecaySolver solves the copies model under a decay memory: it builds the states and
// outcomes, and solves them with the handover-uniform solver's systems.
type copiesDecaySolver[T any] struct {
	*copiesMemSolver[T]
	q, keep T
	pmf     [][]T // pmf[o][a]: probability that a of o cards survive the decay
}

func newCopiesDecaySolver[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (*copiesDecaySolver[T], error) {
	if err := checkCopiesDecay(m, mu); err != nil {
		return nil, err
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return nil, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	if h := st.Remembered(); m.Memory.Capacity > 0 && h > m.Memory.Capacity {
		return nil, fmt.Errorf("%v: %d remembered cards, more than the capacity %d", st, h, m.Memory.Capacity)
	}
	q, err := DecayRate(m.Memory)
	if err != nil {
		return nil, err
	}
	return newCopiesDecaySolverAt(ctx, f, m, mu, st, q.Num().Int64(), q.Denom().Int64())
}

// newCopiesDecaySolverAt is newCopiesDecaySolver with the decay probability qNum/qDen in place of
// the memory's (the tests take q = 0, which the memory refuses), the model and state checked.
func newCopiesDecaySolverAt[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState, qNum, qDen int64) (*copiesDecaySolver[T], error) {
	s := &copiesDecaySolver[T]{copiesMemSolver: &copiesMemSolver[T]{ctx: ctx, f: f, m: m, mu: mu,
		capacity: m.Memory.Capacity, at: map[string]int{}, zero: f.FromInt(0), one: f.FromInt(1)}}
	s.q = f.FromFrac(qNum, qDen)
	s.keep = f.Sub(s.one, s.q)
	s.pmf = [][]T{{s.one}}
	for o := 1; o <= st.faces()+2; o++ {
		prev, row := s.pmf[o-1], make([]T, o+1)
		for a := range row {
			v := s.zero
			if a < o {
				v = f.Mul(prev[a], s.q)
			}
			if a > 0 {
				v = f.Add(v, f.Mul(prev[a-1], s.keep))
			}
			row[a] = v
		}
		s.pmf = append(s.pmf, row)
	}
	if err := s.explore(st.vec().key()); err != nil {
		return nil, err
	}
	return s, nil
}

// cdOutcome is an outcome of a turn before its probability is merged with others of the same
// result.
type cdOutcome[T any] struct {
	o cmOutcome
	p T
}

// explore adds the cells of every state a game from start reaches, with their outcomes.
func (s *copiesDecaySolver[T]) explore(start string) error {
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
				var outs []cdOutcome[T]
				switch {
				case ch == rules.Pass && copiesPassLegal(v, s.m):
					outs = s.passOutcomes(v, l) // copiesdecaypass.go
				case copiesLegal(v, ch, s.m.Choices):
					outs = s.outcomes(v, ch)
				default:
					continue
				}
				c.legal[ch] = true
				for _, o := range outs {
					j, ok := s.at[o.o.next]
					if !ok {
						j = len(s.at)
						s.at[o.o.next] = j
						queue = append(queue, o.o.next)
					}
					o.o.to = j
					c.outs[ch] = append(c.outs[ch], o.o)
					c.probs[ch] = append(c.probs[ch], o.p)
				}
			}
		}
		s.cells = append(s.cells, c)
	}
	return nil
}

// outcomes returns the outcomes of the legal choice ch in v, as the engine plays it card by card
// (§5.2), the hand-over's forgetting included, those of the same result merged.
func (s *copiesDecaySolver[T]) outcomes(v copiesVec, ch rules.Choice) []cdOutcome[T] {
	f := s.f
	var out []cdOutcome[T]
	at := map[cmOutcome]int{}
	add := func(o cmOutcome, p T) {
		if f.IsZero(p) {
			return
		}
		if i, ok := at[o]; ok {
			out[i].p = f.Add(out[i].p, p)
			return
		}
		at[o] = len(out)
		out = append(out, cdOutcome[T]{o: o, p: p})
	}
	u := int64(unknownCards(v))
	hit := func(num, den int64, next string) {
		add(cmOutcome{keep: true, next: next}, f.FromFrac(num, den))
	}
	// lucky is hit for daring's second card matching its first, an unknown card (solitaire counts
	// them).
	lucky := func(num, den int64, next string) {
		add(cmOutcome{keep: true, lucky: true, next: next}, f.FromFrac(num, den))
	}
	// miss adds the outcomes of a turn that hands over with weight num/den: w is the state after
	// the flips, every card seen or remembered as a half-known face, without the face of class b
	// (before the turn; -1 for none) whose pair the turn left known whole; fresh lists the
	// classes of the cards first seen in the turn, in w.
	miss := func(num, den int64, w copiesVec, b int, fresh ...int) {
		old := make([]int, len(v)/2) // old remembered cards by class, b's excluded
		for i := range old {
			old[i] = v[2*i+1]
		}
		if b >= 0 {
			old[b/2]--
		}
		s.decay(add, f.FromFrac(num, den), w.clone(), old, fresh, b)
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
		hit(int64(r-1), u, v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1}))
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
				miss(num, u, v.with(copiesMove{cl2, -1}), cl2)
				continue
			}
			fr := copiesClass(r2, 1)
			miss(num, u, v.with(copiesMove{cl2, -1}, copiesMove{fr, 1}), -1, fr)
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
			hit(cards, u, v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1}))
			continue
		}
		fr := copiesClass(r, 1)
		first := []copiesMove{{cl, -1}, {fr, 1}}
		if safe {
			miss(cards, u, v.with(first...), -1, fr)
			continue
		}
		den := u * (u - 1)
		lucky(cards*int64(r-1), den, v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1}))
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
				miss(num, den, v.with(append(first, copiesMove{cl2, -1})...), cl2, fr)
				continue
			}
			fr2 := copiesClass(r2, 1)
			miss(num, den, v.with(append(first, copiesMove{cl2, -1}, copiesMove{fr2, 1})...), -1, fr, fr2)
		}
	}
	return out
}

// decay adds the outcomes of a hand-over with probability p so far: the binomial survival of the
// old cards of each class (old[i] of class 2i+1 in w), of each fresh card (its class in fresh),
// and, when b >= 0, of the old card Y and the fresh card B of the face of class b known whole
// (not in w); then the capacity.
func (s *copiesDecaySolver[T]) decay(add func(cmOutcome, T), p T, w copiesVec, old []int, fresh []int, b int) {
	f := s.f
	surv := make([]int, len(old))
	var byClass func(i int, p T, w copiesVec)
	byClass = func(i int, p T, w copiesVec) {
		if i == len(old) {
			s.decayFresh(add, p, w, surv, fresh, b, 0)
			return
		}
		o := old[i]
		for a := 0; a <= o; a++ {
			w2 := w.clone()
			w2[2*i+1] -= o - a
			w2[2*i] += o - a
			surv[i] = a
			byClass(i+1, f.Mul(p, s.pmf[o][a]), w2)
		}
	}
	byClass(0, p, w)
}

// decayFresh draws the survival of the fresh cards from the j-th on, then of Y and B.
func (s *copiesDecaySolver[T]) decayFresh(add func(cmOutcome, T), p T, w copiesVec, surv []int, fresh []int, b, j int) {
	f := s.f
	if j < len(fresh) {
		s.decayFresh(add, f.Mul(p, s.keep), w, surv, fresh, b, j+1)
		w2 := w.clone()
		w2[fresh[j]]--
		w2[fresh[j]-1]++
		s.decayFresh(add, f.Mul(p, s.q), w2, surv, fresh, b, j+1)
		return
	}
	if b < 0 {
		s.overflow(add, p, w, append([]int(nil), surv...), b, false, false)
		return
	}
	for yb := range 4 {
		y, bb := yb&1 == 1, yb&2 == 2
		py := s.q
		if y {
			py = s.keep
		}
		pb := s.q
		if bb {
			pb = s.keep
		}
		s.overflow(add, f.Mul(p, f.Mul(py, pb)), w, append([]int(nil), surv...), b, y, bb)
	}
}

// overflow forgets the survivors beyond the capacity one at a time, uniformly among the old
// survivors (surv[i] of class 2i+1, and Y when y), then adds the outcome.
func (s *copiesDecaySolver[T]) overflow(add func(cmOutcome, T), p T, w copiesVec, surv []int, b int, y, bb bool) {
	f := s.f
	pool := 0
	for _, a := range surv {
		pool += a
	}
	if y {
		pool++
	}
	if s.capacity > 0 && remembered(w)+btoi(y)+btoi(bb) > s.capacity {
		if y {
			s.overflow(add, f.Mul(p, f.FromFrac(1, int64(pool))), w, surv, b, false, bb)
		}
		for i, a := range surv {
			if a == 0 {
				continue
			}
			w2 := w.clone()
			w2[2*i+1]--
			w2[2*i]++
			surv2 := append([]int(nil), surv...)
			surv2[i]--
			s.overflow(add, f.Mul(p, f.FromFrac(int64(a), int64(pool))), w2, surv2, b, y, bb)
		}
		return
	}
	o := cmOutcome{}
	if b >= 0 {
		w = w.clone()
		r := b&^1 + 2
		switch {
		case y && bb:
			o.handed = 1
			if t := taken(r); t >= 0 {
				w[t]++
			}
		case y || bb:
			w[b]++
		default:
			w[b-1]++
		}
	}
	o.next = w.key()
	add(o, p)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// solve computes the values: the optimum's self-play where a role reads it, then the lineup's two
// roles.
func (s *copiesDecaySolver[T]) solve() error {
	if s.mu.Players == 1 {
		return s.solveSoloIn(s.components()) // copiesmemsolo.go
	}
	if s.mu.Players >= 3 {
		return s.solveSeats(s.components()) // copiesmemseats.go
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
	groups := s.components()
	run := func(roles int, kinds [2]cmChooser, self bool) error {
		for _, g := range groups {
			if err := s.solveGroup(g, roles, kinds, pol, self); err != nil {
				return err
			}
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	}
	if needOpt {
		if err := run(1, [2]cmChooser{cmMax}, true); err != nil {
			return err
		}
	}
	return run(2, kinds, false)
}

// components returns the strongly connected components of the cells' outcome graph, each after
// every component it leads to (Tarjan's algorithm, iterative).
func (s *copiesDecaySolver[T]) components() [][]int {
	n := len(s.cells)
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	succ := func(i int) []int {
		var out []int
		for _, outs := range s.cells[i].outs {
			for _, o := range outs {
				out = append(out, o.to)
			}
		}
		return out
	}
	var groups [][]int
	var stack []int
	next := 0
	type frame struct {
		v    int
		succ []int
		k    int
	}
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{v: root, succ: succ(root)}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(call) > 0 {
			fr := &call[len(call)-1]
			if fr.k < len(fr.succ) {
				w := fr.succ[fr.k]
				fr.k++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{v: w, succ: succ(w)})
				case on[w]:
					low[fr.v] = min(low[fr.v], index[w])
				}
				continue
			}
			v := fr.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var g []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					g = append(g, w)
					if w == v {
						break
					}
				}
				groups = append(groups, g)
			}
		}
	}
	return groups
}

// evaluateCopiesDecay is EvaluateCopies under a decay memory.
func evaluateCopiesDecay[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Result[T], error) {
	if m.Variant.TurnLimit > 0 {
		return evaluateCopiesMemLimit(ctx, f, m, mu, st) // copiesmemlimit.go
	}
	s, err := newCopiesDecaySolver(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	if err := s.solve(); err != nil {
		return Result[T]{}, err
	}
	return s.result(st), nil
}

// copiesDecayChoiceValues is CopiesChoiceValues under a decay memory.
func copiesDecayChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Choices[T], error) {
	if unknownCards(st.vec()) == 0 {
		return Choices[T]{}, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	if m.Variant.TurnLimit > 0 {
		return copiesMemLimitChoiceValues(ctx, f, m, mu, st) // copiesmemlimit.go
	}
	s, err := newCopiesDecaySolver(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	if err := s.solve(); err != nil {
		return Choices[T]{}, err
	}
	if mu.Players == 1 {
		return s.soloChoices(st), nil // copiesmemsolo.go
	}
	if mu.Players >= 3 {
		return s.seatsChoices(st), nil // copiesmemseats.go
	}
	c := s.cells[0]
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

// CopiesDecayPolicyTable returns the choices of seat 0's policy of mu (optimal, or best-response
// to the other seat's optimal, safe or daring) in the copies model under a shared decay memory m
// (docs/models.md §4.16, "A decay memory"), two seats, under every pass rule (with seat 0's
// choice just after a pass), or three to eight seats under every pass rule (with seat 0's choice
// at every pass streak; optimal every seat's own optimum, best-response the replying seat's
// choice, the other seats playing mu.Opponent), in
// every state of faces a game of the given number of pairs reaches
// from its start: the table the engine plays optimal
// and best-response from. A game of fewer pairs (a multiple of k/2) starts in a state the larger
// game reaches, so the table covers it too. Each choice is the first of the best in the order of
// rules.Choices, as CopiesChoiceValues marks it.
func CopiesDecayPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) (*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if !isCopiesDecay(m) {
		return nil, fmt.Errorf("copies %d with %s: not the copies model under a decay memory (see CopiesPolicyTable)", k, m.Memory)
	}
	if p := mu.Policy; p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
		return nil, fmt.Errorf("copies %d with %s: a table of policy %s (allowed: optimal, best-response)", k, m.Memory, p)
	}
	if mu.Players < 2 {
		return nil, fmt.Errorf("copies %d with %s: a table for %d players (allowed: 2 to %d; solitaire's values are solved, not its table)", k, m.Memory, mu.Players, rules.MaxPlayers)
	}
	if l := m.Variant.TurnLimit; l > 0 {
		return nil, fmt.Errorf("copies %d with %s, turn limit %d: the choices have a layer per number of turns left (see CopiesDecayPolicyTurnTables)", k, m.Memory, l)
	}
	start, err := StartCopiesState(pairs, k)
	if err != nil {
		return nil, err
	}
	s, err := newCopiesDecaySolver(ctx, f, m, mu, start)
	if err != nil {
		return nil, err
	}
	if err := s.solve(); err != nil {
		return nil, err
	}
	tab := rules.NewCopiesTable(k)
	for _, c := range s.cells {
		if c.stalemate || unknownCards(c.v) == 0 {
			continue
		}
		ch := c.ch[0]
		if mu.Players >= 3 {
			ch = s.seatsPolicyChoice(c) // copiesmemseats.go
		}
		if err := setMemChoiceSeats(tab, m, mu.Players, c, ch); err != nil { // copiesmempass.go
			return nil, err
		}
	}
	return tab, nil
}
