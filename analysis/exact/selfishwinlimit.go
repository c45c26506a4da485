package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective at three to eight seats under a turn limit in the standard game
// (docs/models.md §4.7, §4.13, §4.18): the state of the sweep of selfishwin.go, a count state at
// every standings (and in a mixed lineup the mover's seat), gains the turns left t. Every turn
// uses one; a pair the turn leaves known whole is taken by the next seat first, a turn each, only
// while one is left (limitSweep.next); with no turn left, or no pair, the game is over and the
// standings decide, a tie for the most shared, the pairs left counting for nobody. Every step goes
// to fewer turns left, so the values are backward induction over t, layer by layer, with no
// self-reference: the mover takes the first choice with the largest own score in the order
// daring, safe, known-first, a seat that follows a table (a fixed policy, or the optimum of every
// seat for itself under the same limit) the table's choice with t turns left.

// selfWinLimitState is what a count state's turn can do, the same at every t: its legal choices
// and their outcomes.
type selfWinLimitState[T any] struct {
	legal [rules.NumChoices]bool
	outs  [rules.NumChoices][]Outcome
	probs [rules.NumChoices][]T
}

// selfWinLimit sweeps the win objective at p seats under a turn limit: the values of every count
// state with at most maxPairs pairs, at every standings and mover's seat, for t = 1 .. limit turns
// left.
type selfWinLimit[T any] struct {
	w      *selfWin[T]
	limit  int
	stride int // count states per n: (maxPairs + 1) * (S + 1)
	states []selfWinLimitState[T]
	valid  []bool
	// streaks is the number of pass streaks a state tells apart: p under a pass rule other than
	// never (selfishwinlimitpass.go), 1 otherwise.
	streaks int
	// layers holds the cells of the last four numbers of turns left, layer t at t % 4 (a turn
	// hands over at most two pairs known whole, each taken in a turn of its own):
	// layers[t%4][(k*nq+q)*len(states)+index(st)] at pass streak k.
	layers [4][]selfWinCell[T]
	// end holds the standings after an outcome that ends the game, in order from the mover.
	end []int
	// scratch holds the buffers of the pass streaks (selfishwinlimitpass.go), nil under pass
	// rule never.
	scratch *limitPassScratch[T]
}

// checkSelfWinLimitModel reports whether model m has the win objective at p seats under a turn
// limit: the standard game's two copies of a face with a turn limit, every pass rule; perfect
// memory under sequential or blind flips, or a shared lru or handover-uniform memory of a fixed
// capacity under sequential flips (selfishwinlimitedlimit.go).
func checkSelfWinLimitModel(m Model, p int) error {
	if err := checkSelfWinLimitMemory(m.Memory, p); err != nil {
		return err
	}
	switch {
	case m.Variant.CopiesOf() != rules.DefaultCopies:
		return fmt.Errorf("copies %d: the win objective at %d seats under a turn limit by the count state covers two copies of a face (the copies model solves more)", m.Variant.CopiesOf(), p)
	case m.Variant.TurnLimit <= 0:
		return fmt.Errorf("turn limit %d: the win objective at %d seats without a turn limit is selfishwin.go's", m.Variant.TurnLimit, p)
	}
	return m.Validate()
}

// isSelfWinLimit reports whether lineup mu in model m is the win objective at three or more seats
// under a turn limit in the standard game (two copies of a face), which this file solves.
func isSelfWinLimit(m Model, mu Lineup) bool {
	return isSelfWin(mu) && m.Variant.CopiesOf() == rules.DefaultCopies && m.Variant.TurnLimit > 0
}

// newSelfWinLimit returns a sweep of the win objective of p seats under m's turn limit up to
// maxPairs pairs; eval keeps every vector of an evaluation besides the scores.
func newSelfWinLimit[T any](f field.Field[T], m Model, p, maxPairs int, eval bool) (*selfWinLimit[T], error) {
	if err := checkSelfWinLimitModel(m, p); err != nil {
		return nil, err
	}
	w, err := buildSelfWin(f, m, p, maxPairs, eval)
	if err != nil {
		return nil, err
	}
	l := &selfWinLimit[T]{w: w, limit: m.Variant.TurnLimit, streaks: 1, end: make([]int, p)}
	if m.Pass != rules.PassNever {
		l.streaks = p
	}
	return l, nil
}

// index numbers count state st among the sweep's states.
func (l *selfWinLimit[T]) index(st rules.State) int {
	return st.N*l.stride + st.J*(l.w.m.Singletons+1) + st.F
}

// cell returns the cell of count state st with seat q to move and t >= 1 turns left, after no
// pass.
func (l *selfWinLimit[T]) cell(st rules.State, q, t int) *selfWinCell[T] {
	return l.cellAt(st, q, 0, t)
}

// cellAt returns the cell of count state st with seat q to move at pass streak k and t >= 1
// turns left.
func (l *selfWinLimit[T]) cellAt(st rules.State, q, k, t int) *selfWinCell[T] {
	return &l.layers[t%4][(k*l.w.nq+q)*len(l.states)+l.index(st)]
}

// seat makes seat q the mover of st with t turns left: in a mixed lineup it follows its table (or
// none when it plays to win), read in the layer of the turns left.
func (l *selfWinLimit[T]) seat(st rules.State, q, t int) {
	w := l.w
	w.q = q
	if w.seatTab != nil {
		w.follow = w.seatTab[q]
	}
	if w.follow != nil {
		w.followed, _ = w.follow.LookupTurnsLeft(st, false, t)
	}
}

// use makes st's legal choices and outcomes those the selfWin methods read.
func (l *selfWinLimit[T]) use(st rules.State) {
	ls := &l.states[l.index(st)]
	l.w.legal, l.w.outs, l.w.probs = ls.legal, ls.outs, ls.probs
}

// run computes every layer up to the limit, calling visit (when not nil) with every count state
// of at least one pair and every number of turns left once computed.
func (l *selfWinLimit[T]) run(ctx context.Context, visit func(st rules.State, t int) error) error {
	w := l.w
	S := w.m.Singletons
	l.stride = (w.maxPairs + 1) * (S + 1)
	size := (w.maxPairs + 1) * l.stride
	l.states = make([]selfWinLimitState[T], size)
	l.valid = make([]bool, size)
	var order []rules.State
	for n := 1; n <= w.maxPairs; n++ {
		for j := 0; j <= n; j++ {
			for fu := 0; fu <= S; fu++ {
				st := rules.State{N: n, J: j, S: S, F: fu}
				if st.Validate(w.m.Memory) != nil {
					continue
				}
				l.valid[l.index(st)] = true
				order = append(order, st)
				ls := &l.states[l.index(st)]
				for _, ch := range rules.Choices() {
					ls.legal[ch] = w.m.Legal(st, ch)
					if w.decay != nil && ls.legal[ch] {
						// Under decay a pass's hand-over forgets too (selfishwinlimitdecay.go).
						ls.outs[ch], ls.probs[ch] = decayTurn(w.decay, w.m, st, ch, nil, nil) // selfishwindecaysingles.go
						continue
					}
					if !ls.legal[ch] || ch == rules.Pass {
						continue
					}
					ls.outs[ch] = w.m.Outcomes(st, ch, nil)
					for _, o := range ls.outs[ch] {
						ls.probs[ch] = append(ls.probs[ch], w.f.FromFrac(o.Prob.Num, o.Prob.Den))
					}
				}
			}
		}
	}
	for i := range l.layers {
		l.layers[i] = make([]selfWinCell[T], l.streaks*w.nq*size)
	}
	if l.streaks > 1 {
		l.allocStreaks() // selfishwinlimitpass.go
	}
	prog := progressOf(ctx)
	for t := 1; t <= l.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return err
		}
		for _, st := range order {
			l.use(st)
			if l.streaks > 1 {
				l.streaksOf(st, t) // selfishwinlimitpass.go
				if visit != nil {
					if err := visit(st, t); err != nil {
						return err
					}
				}
				continue
			}
			for q := range w.nq {
				l.seat(st, q, t)
				c := l.cell(st, q, t)
				w.alloc(c, st.N)
				for vi := range w.valid[st.N] {
					l.standings(st, t, c, vi)
				}
			}
			if visit != nil {
				if err := visit(st, t); err != nil {
					return err
				}
			}
		}
		for n := 1; n <= w.maxPairs; n++ {
			prog.add(float64(w.nq) * selfWinRowOps(w.p, n, S))
		}
	}
	return nil
}

// standings computes the values of st with t turns left at the standings w.valid[st.N][vi]: every
// legal choice's vectors, the mover taking the first with the largest own score (or its table's
// choice).
func (l *selfWinLimit[T]) standings(st rules.State, t int, c *selfWinCell[T], vi int) {
	w := l.w
	f, p := w.f, w.p
	var best []T
	bestCh := rules.Daring
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass || (w.follow != nil && !w.keepChoices && ch != w.followed) {
			continue
		}
		acc := w.acc[ch]
		if len(acc) != w.nv*p {
			acc = make([]T, w.nv*p)
			w.acc[ch] = acc
		}
		l.accumulate(st, t, vi, ch, acc)
		if w.keepChoices {
			w.choiceScore[ch] = acc[:p]
		}
		switch {
		case w.follow != nil:
			if ch == w.followed {
				best, bestCh = acc, ch
			}
		case best == nil || f.Cmp(acc[0], best[0]) > 0:
			best, bestCh = acc, ch
		}
	}
	copy(c.vals[vi*w.nv*p:(vi+1)*w.nv*p], best)
	c.choice[vi] = bestCh
}

// accumulate writes into acc (nv·p entries) the vectors of choice ch (not a pass) made by the
// mover, seat w.q, in st with t turns left at the standings w.valid[st.N][vi]. An outcome uses a
// turn, and a pair it leaves known whole a turn of the next seat each, taken only while a turn is
// left; with none left, or no pair, the standings after it decide.
func (l *selfWinLimit[T]) accumulate(st rules.State, t, vi int, ch rules.Choice, acc []T) {
	w := l.w
	for k := range acc {
		acc[k] = w.zero
	}
	for k, o := range w.outs[ch] {
		pr := w.probs[ch][k]
		rest, gain := t-1, o.MoverGain
		if !o.Continue {
			gain = min(o.NextGain, t-1)
			rest = t - 1 - gain
		}
		if rest == 0 || o.Next.N == 0 {
			l.ending(st.N, vi, o.Continue, gain, pr, acc)
			continue
		}
		si := w.successor(st.N, vi, o, outcomeKind(st, o))
		q := w.q
		if !o.Continue {
			q = (w.q + 1) % w.nq
		}
		sc := l.cell(o.Next, q, rest)
		w.addTurned(acc, pr, o.Continue, gain, func(v int) []T { return w.vec(sc, si, v) })
	}
}

// ending adds to acc, with probability pr, the vectors of a game that ends after an outcome from
// the standings w.valid[n][vi] (in order from the mover) in which the mover (cont) or the next
// seat took gain pairs: the seats level with the most share the score. A deficit held capped at
// n + 1 stays below the most, as no seat takes more than the n pairs left.
func (l *selfWinLimit[T]) ending(n, vi int, cont bool, gain int, pr T, acc []T) {
	w := l.w
	f, p := w.f, w.p
	e := l.end
	taker := 1
	if cont {
		taker = 0
	}
	most := -(n + 2)
	for s, d := range w.valid[n][vi] {
		e[s] = -d
		if s == taker {
			e[s] += gain
		}
		most = max(most, e[s])
	}
	top := 0
	for _, x := range e {
		if x == most {
			top++
		}
	}
	for v := range w.nv {
		for s := range p {
			var x T
			switch {
			case v == swPairs && s == taker && gain > 0:
				x = w.ints[gain]
			case v == swPairs || e[s] != most:
				continue
			case v == swScore:
				x = w.shares[top]
			case v == swWin && top == 1, v == swDraw && top > 1:
				x = w.one
			default:
				continue
			}
			acc[v*p+s] = f.Add(acc[v*p+s], f.Mul(pr, x))
		}
	}
}

// evaluateSelfWinLimit is evaluateSelfWin under the model's turn limit: the values from st with
// the limit as the turns left (under a pass rule, after no pass), seat s (in order from the mover) having taken standings[s] pairs
// so far, every seat following follow when it is not nil, or seat q seats[q] when seats is not nil
// (nil where it plays to win); the tables are read in the layer of the turns left.
func evaluateSelfWinLimit[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int, follow *rules.ChoiceTable, seats []*rules.ChoiceTable) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	standings, err := checkStart(m, players, st, standings)
	if err != nil {
		return res, err
	}
	l, err := newSelfWinLimit(f, m, players, st.N, true)
	if err != nil {
		return res, err
	}
	w := l.w
	w.follow = follow
	if seats != nil {
		w.seatTab, w.nq = seats, players
	}
	if err := l.run(ctx, nil); err != nil {
		return res, err
	}
	d := make([]int, players)
	rules.Deficits(d, standings, st.N)
	vi := int(w.place[st.N][rules.StandingsIndex(d, st.N)])
	res = SelfWinResult[T]{State: st, Standings: append([]int(nil), standings...), Choice: rules.Daring}
	if st.N == 0 {
		// The game is over: the standings decide.
		vals := make([]T, w.nv*players)
		for i := range vals {
			vals[i] = w.zero
		}
		l.ending(0, vi, true, 0, w.one, vals)
		res.SelfWinValues = *valuesOf(vals, players)
		return res, nil
	}
	t := l.limit
	c := l.cell(st, 0, t)
	res.Choice = c.choice[vi]
	res.SelfWinValues = *valuesOf(c.vals[vi*w.nv*players:(vi+1)*w.nv*players], players)
	// Every legal choice's values: the state's standings once more, keeping every choice's.
	l.use(st)
	l.seat(st, 0, t)
	if l.streaks > 1 {
		// Under a pass rule: every choice made at streak 0, a pass among them when legal.
		l.moveVectors(st, t, vi)
		l.passVector(st, 0, 0, t, vi, l.scratch.pass)
		res.Legal = w.legal
		for _, ch := range rules.Choices() {
			switch {
			case !w.legal[ch]:
			case ch == rules.Pass:
				res.Choices[ch] = valuesOf(l.scratch.pass, players)
			default:
				res.Choices[ch] = valuesOf(l.scratch.moves[ch], players)
			}
		}
		return res, nil
	}
	w.keepChoices = true
	scratch := &selfWinCell[T]{}
	w.alloc(scratch, st.N)
	l.standings(st, t, scratch, vi)
	res.Legal = w.legal
	res.Legal[rules.Pass] = false
	for _, ch := range rules.Choices() {
		if w.legal[ch] && ch != rules.Pass {
			res.Choices[ch] = valuesOf(w.acc[ch], players)
		}
	}
	return res, nil
}

// limitSeatTables returns the tables the seats of lineup mu follow under m's turn limit: nil at a
// seat that plays to win, the optimum of every seat for itself under the limit (a layer per turn
// left) or a fixed policy's choices elsewhere; and whether the lineup mixes policies (otherwise
// follow, when not nil, is the one table every seat follows).
func limitSeatTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (follow *rules.ChoiceTable, seats []*rules.ChoiceTable, err error) {
	if selfWinMixed(mu) {
		seats, err = mixedSeatTables(ctx, f, m, mu, maxPairs)
		return nil, seats, err
	}
	if !isSelfWin(mu) {
		follow, err = PolicyTable(ctx, f, m, mu, max(maxPairs, 1))
	}
	return follow, nil, err
}

// evaluateStandingsLimit is EvaluateStandings under a turn limit in the standard game.
func evaluateStandingsLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (SelfWinResult[T], error) {
	if err := checkSelfWinLimitModel(m, mu.Players); err != nil {
		return SelfWinResult[T]{}, err
	}
	if isSelfWin(mu) {
		if err := mu.Validate(m); err != nil {
			return SelfWinResult[T]{}, err
		}
	}
	follow, seats, err := limitSeatTables(ctx, f, m, mu, st.N)
	if err != nil {
		return SelfWinResult[T]{}, err
	}
	return evaluateSelfWinLimit(ctx, f, m, mu.Players, st, standings, follow, seats)
}

// selfWinLimitPolicyTable writes out seat 0's choices in lineup mu (a seat plays to win) under
// m's turn limit at every count state with at most maxPairs pairs and every standings, seat 0 to
// move, a layer per number of turns left (rules.NewTurnChoiceTable of standings tables, under a
// pass rule a choice per pass streak in each): its own table when seat 0 follows one.
func selfWinLimitPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if err := mu.Validate(m); err != nil {
		return nil, err
	}
	_, seats, err := limitSeatTables(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	if seats != nil && seats[0] != nil {
		return seats[0], nil
	}
	l, err := newSelfWinLimit(f, m, mu.Players, maxPairs, false)
	if err != nil {
		return nil, err
	}
	if seats != nil {
		l.w.seatTab, l.w.nq = seats, mu.Players
	}
	tabs := make([]*rules.StandingsTable, l.limit)
	for i := range tabs {
		if l.streaks > 1 {
			tabs[i], err = rules.NewStandingsPassTable(mu.Players, maxPairs, m.Singletons)
		} else {
			tabs[i], err = rules.NewStandingsTable(mu.Players, maxPairs, m.Singletons)
		}
		if err != nil {
			return nil, err
		}
	}
	err = l.run(ctx, func(st rules.State, t int) error {
		for k := range l.streaks {
			c := l.cellAt(st, 0, k, t)
			for vi, d := range l.w.valid[st.N] {
				tabs[t-1].SetPasses(st, d, k, c.choice[vi])
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	layers := make([]*rules.ChoiceTable, len(tabs))
	for i, tab := range tabs {
		if layers[i], err = rules.NewStandingsChoiceTable(tab); err != nil {
			return nil, err
		}
	}
	return rules.NewTurnChoiceTable(layers)
}

// SelfWinLimitTableLimit returns the largest deal size a player of win-optimal at players seats
// (3 or more) can play under a turn limit of limit turns (mixed: beside other policies, a sweep
// per mover's seat): the largest whose table's work, that of the table without a limit once per
// turn left, is at most SelfWinTableOps.
func SelfWinLimitTableLimit(players, limit int, mixed bool) int {
	seats := 1.0
	if mixed {
		seats = float64(players)
	}
	n := 0
	for n < WinTableLimit && seats*float64(max(limit, 1))*selfWinOps(players, n+1, 0, false, false) <= SelfWinTableOps {
		n++
	}
	return n
}
