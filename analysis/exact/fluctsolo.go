package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Solitaire under a fluctuating capacity (docs/models.md §4.4, §4.8): one player, pass rule
// never, a shared lru or handover-uniform memory whose capacity is drawn at the start of every
// turn, a turn that only takes a pair known whole included. The states are those of the
// two-seat model, (n, k) before the draw and (n, k, c) after it, and a turn from (n, k, c) has
// the outcomes of the fixed capacity c (a turn without a pair is a hand-over to the player
// itself, which under handover-uniform keeps c cards). A turn costs one, and a turn that leaves
// a pair known whole one more: the next turn, which draws a capacity too, takes it. The states
// of one n refer to each other (a forgotten card) and are solved as one system; optimal
// minimises the expected turns by policy iteration over the choices at every (n, k, c), the
// first of the fewest in the order of rules.Choices (every choice takes a pair with a positive
// probability, so every policy ends the game).

// validateFluctSolo reports whether solitaire under the fluctuating capacity of m solves mu:
// pass rule never, sequential flips without a turn limit, and optimal, safe, daring or parity.
func validateFluctSolo(m Model, mu Lineup) error {
	switch {
	case m.Pass != rules.PassNever:
		return fmt.Errorf("pass rule %s: solitaire has nobody to hand a pass to (allowed: never)", m.Pass)
	case m.Variant.Flips == rules.FlipsBlind:
		return fmt.Errorf("flips blind: solitaire under a fluctuating capacity is solved with sequential flips (allowed: sequential)")
	case m.Variant.TurnLimit > 0:
		return fmt.Errorf("turn limit %d: solitaire under a fluctuating capacity is solved without a turn limit", m.Variant.TurnLimit)
	}
	if err := m.Validate(); err != nil {
		return err
	}
	if mu.PerSeat || mu.Table != nil || mu.OpponentTable != nil {
		return fmt.Errorf("a fluctuating capacity's solitaire is solved for optimal, safe, daring and parity, not for a policy per seat or given as a table")
	}
	switch mu.Policy {
	case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity:
		return mu.Policy.CheckChoices(m.Choices)
	}
	return fmt.Errorf("policy %s: solitaire under a fluctuating capacity is solved for optimal, safe, daring and parity (allowed: optimal, safe, daring, parity)", mu.Policy)
}

// fluctSolo solves solitaire under a fluctuating capacity row by row.
type fluctSolo[T any] struct {
	s   *fluctSweep[T] // the memory's draws: rowNodes, drawn, before
	pol rules.Policy
	// prev holds the expected turns (prev[0]) and lucky matches (prev[1]) before the draw in the
	// last row solved, by known cards.
	prev [2][]T
	// choice[n][c][k] is the policy's choice in (n, k) with capacity c drawn.
	choice [][][]rules.Choice
	// The last row solved: its unknowns, their index, its solution and the row before it.
	nodes   []fluctNode
	pos     map[fluctNode]int
	caps    []fluctCap
	x       [][]T
	rowPrev [2][]T
}

func newFluctSolo[T any](f field.Field[T], m Model, mu Lineup) (*fluctSolo[T], error) {
	if err := validateFluctSolo(m, mu); err != nil {
		return nil, err
	}
	s := &fluctSweep[T]{f: f, m: m, maxK: fluctMaxKnown(m.Memory), zero: f.FromInt(0), br: -1}
	return &fluctSolo[T]{s: s, pol: mu.Policy}, nil
}

// drawEq returns the equation of the expected turns and lucky matches before the draw in
// (n, k): their average over the capacities drawn.
func (o *fluctSolo[T]) drawEq(k int) decayEq[T] {
	f := o.s.f
	e := decayEq[T]{a: []T{o.s.zero, o.s.zero}}
	for _, cp := range o.caps {
		e.to = append(e.to, o.pos[fluctNode{k: o.s.drawn(k, cp.c), c: cp.c}])
		e.coef = append(e.coef, f.FromFrac(cp.p.Num, cp.p.Den))
	}
	e.merge(f)
	return e
}

// choiceEq returns the equation of the expected turns and lucky matches in (n, k) with capacity
// c drawn, making choice ch: an outcome that stays in the row refers to the unknown of its state
// before the next draw, one that leaves it reads the previous row, after the draws of the turns
// that take the pairs the turn left known whole.
func (o *fluctSolo[T]) choiceEq(n, k, c int, ch rules.Choice) decayEq[T] {
	s := o.s
	f := s.f
	mc := s.m
	mc.Memory.Capacity, mc.Memory.Fluctuation = c, 0
	e := decayEq[T]{a: []T{s.zero, s.zero}}
	for _, out := range mc.Outcomes(rules.State{N: n, J: n - k}, ch, nil) {
		p := f.FromFrac(out.Prob.Num, out.Prob.Den)
		// A pair left known whole costs the next turn, which takes it.
		e.a[0] = f.Add(e.a[0], f.Mul(p, f.FromInt(int64(1+out.NextGain))))
		if out.Event == EventLucky {
			e.a[1] = f.Add(e.a[1], p)
		}
		if k2 := sameRow(out, n); k2 >= 0 {
			e.to = append(e.to, o.pos[fluctNode{k: k2}])
			e.coef = append(e.coef, p)
			continue
		}
		k2, draws := out.Next.N-out.Next.J, out.NextGain
		if out.Continue {
			draws = 0
		}
		for i := range 2 {
			e.a[i] = f.Add(e.a[i], f.Mul(p, s.before(o.rowPrev[i], out.Next.N, k2, draws)))
		}
	}
	e.merge(f)
	return e
}

// row solves the row of n pairs.
func (o *fluctSolo[T]) row(n int) error {
	s := o.s
	o.nodes, o.caps = s.rowNodes(n)
	o.pos = make(map[fluctNode]int, len(o.nodes))
	for i, nd := range o.nodes {
		o.pos[nd] = i
	}
	o.rowPrev = o.prev
	legal := func(i int, y rules.Choice) bool {
		nd := o.nodes[i]
		return nd.c > 0 && y != rules.Pass && s.m.Legal(rules.State{N: n, J: n - nd.k}, y)
	}
	optimal := o.pol == rules.PolicyOptimal
	ch := make([]rules.Choice, len(o.nodes))
	for i, nd := range o.nodes {
		if nd.c == 0 {
			continue
		}
		st := rules.State{N: n, J: n - nd.k}
		if optimal {
			for _, y := range rules.Choices() {
				if legal(i, y) {
					ch[i] = y
					break
				}
			}
			continue
		}
		ch[i] = o.pol.Decide(st)
		if !legal(i, ch[i]) {
			return fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", o.pol, ch[i], st)
		}
	}
	eq := func(i int, y rules.Choice) decayEq[T] {
		nd := o.nodes[i]
		if nd.c == 0 {
			return o.drawEq(nd.k)
		}
		return o.choiceEq(n, nd.k, nd.c, y)
	}
	x, err := solveSoloGroup(s.f, ch, optimal, legal, eq)
	if err != nil {
		return fmt.Errorf("solitaire, %s, %d pairs: %w", s.m.Memory, n, err)
	}
	o.x = x
	byCap := make([][]rules.Choice, o.caps[len(o.caps)-1].c+1)
	K := min(n, s.maxK)
	for i, nd := range o.nodes {
		if nd.c == 0 {
			continue
		}
		if byCap[nd.c] == nil {
			byCap[nd.c] = make([]rules.Choice, K+1)
		}
		byCap[nd.c][nd.k] = ch[i]
	}
	o.choice = append(o.choice, byCap)
	for i := range 2 {
		o.prev[i] = make([]T, K+1)
		for k := range o.prev[i] {
			o.prev[i][k] = x[o.pos[fluctNode{k: k}]][i]
		}
	}
	return nil
}

// run solves every row up to maxPairs.
func (o *fluctSolo[T]) run(ctx context.Context, maxPairs int) error {
	zeros := []T{o.s.zero}
	o.prev = [2][]T{zeros, zeros}
	o.choice = [][][]rules.Choice{nil}
	for n := 1; n <= maxPairs; n++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("solver stopped at %d pairs: %w", n, err)
		}
		if err := o.row(n); err != nil {
			return err
		}
	}
	return nil
}

// evaluateFluctSolo is Evaluate for solitaire under a fluctuating capacity: the expected turns
// and lucky matches from st before the draw.
func evaluateFluctSolo[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	o, err := newFluctSolo(f, m, mu)
	if err != nil {
		return Result[T]{}, err
	}
	k, err := fluctKnown(st, o.s.maxK)
	if err != nil {
		return Result[T]{}, err
	}
	if err := o.run(ctx, st.N); err != nil {
		return Result[T]{}, err
	}
	res := Result[T]{State: st, Players: 1, ExpectedTurns: o.s.zero, ExpectedLucky: o.s.zero}
	if st.N > 0 {
		res.ExpectedTurns, res.ExpectedLucky = o.prev[0][k], o.prev[1][k]
	}
	return res, nil
}

// fluctSoloChoiceValues is FluctChoiceValues for solitaire: every legal choice's expected turns
// and lucky matches in st with capacity c drawn, the policy played afterwards; the best the
// fewest turns.
func fluctSoloChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], error) {
	var out Choices[T]
	o, err := newFluctSolo(f, m, mu)
	if err != nil {
		return out, err
	}
	k, err := o.s.checkDrawn(st, c)
	if err != nil {
		return out, err
	}
	if err := o.run(ctx, st.N); err != nil {
		return out, err
	}
	cn := min(c, fluctTop(m, st.N))
	out.State, out.PolicyChoice = st, o.choice[st.N][cn][k]
	for _, ch := range rules.Choices() {
		if ch == rules.Pass || !m.Legal(st, ch) {
			continue
		}
		e := o.choiceEq(st.N, k, cn, ch)
		v := ChoiceValue[T]{Choice: ch, Turns: evalCol(f, &e, o.x, 0), Lucky: evalCol(f, &e, o.x, 1)}
		out.Values = append(out.Values, v)
		if ch == out.PolicyChoice {
			out.Value = Result[T]{State: st, Players: 1, ExpectedTurns: v.Turns, ExpectedLucky: v.Lucky}
		}
	}
	markBestUnlimited(f, &out, 1)
	return out, nil
}

// evalCol returns component i of equation e's value at the solution x.
func evalCol[T any](f field.Field[T], e *decayEq[T], x [][]T, i int) T {
	v := e.a[i]
	for t, l := range e.to {
		v = f.Add(v, f.Mul(e.coef[t], x[l][i]))
	}
	return v
}

// FluctSoloTable returns solitaire's optimum under the fluctuating capacity of model m in every
// state of at most maxPairs pairs and every capacity drawn: a table with a layer per capacity
// (rules.NewCapacityChoiceTable), as FluctTable's, each choice the first of the fewest expected
// turns in the order daring, safe, known-first.
func FluctSoloTable[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int) (*rules.ChoiceTable, error) {
	o, err := newFluctSolo(f, m, Lineup{Players: 1, Policy: rules.PolicyOptimal})
	if err != nil {
		return nil, err
	}
	if err := o.run(ctx, maxPairs); err != nil {
		return nil, err
	}
	return capacityLayers(m, maxPairs, o.s.lru(), o.choice, nil)
}

// estimateFluctSolo is Estimate for solitaire under a fluctuating capacity: one role's unknowns,
// half of the two-seat self-play's, so a quarter of its elimination work (estimateFluct), for
// every call.
func estimateFluctSolo[T any](f field.Field[T], m Model, mu Lineup, pairs int, _ Call) (Cost, error) {
	if err := validateFluctSolo(m, mu); err != nil {
		return Cost{}, err
	}
	c, err := estimateFluct(f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, pairs, CallEvaluate)
	c.Ops /= 4
	return c, err
}
