package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective of every seat for itself at three to eight seats under a fluctuating capacity
// (docs/models.md §4.4, §4.7 "Win objective", §4.13), every seat playing win-optimal, pass rule
// never. A position is a state after the draw (n, k, c) at a standings (rules.Deficits, as at a
// fixed capacity, selfishwin.go); the value before the draw is the average over the capacities
// drawn (fluctselfish.go's row layout). A turn that hands the move over without a pair stays in
// the row of n pairs, with the known cards it leaves and the standings seen from the next seat;
// every other outcome leaves the row for the previous one, already solved. So the positions of a
// row fall into groups, one per cycle of the standings under the rotation to the next seat
// (selfishwinlimited.go's cycles), each holding every state after the draw of the row at each
// standings of the cycle. A group is solved as a row of every seat for itself
// (selfishdecay.go): policy iteration on the scores with the one-step deviation test, the first
// choice in the order daring, safe, known-first among equals, the profile of the smallest
// largest gain where no profile in pure choices is an equilibrium (FluctSelfWinGaps lists those
// positions), and an equilibrium then moved, position by position, to one that gives the
// position's mover more (preferBetter). The chosen profile then gives every vector (scores,
// wins, draws, pairs) by one linear solve of the group.

// FluctSelfWinGap is a position of the win objective at three or more seats under a fluctuating
// capacity in which the profile selected is not an equilibrium in pure choices: at count state
// State with capacity Capacity drawn after Passes seats passed in a row (0 under pass rule never)
// and Deficits the standings in order from the mover, the
// mover plays Choice, and a choice made once instead would give it Gain more score.
type FluctSelfWinGap[T any] struct {
	State    rules.State
	Capacity int
	Passes   int
	Deficits []int
	Choice   rules.Choice
	Gain     T
}

// fluctSelfWin sweeps the win objective at three or more seats under a fluctuating capacity row
// by row.
type fluctSelfWin[T any] struct {
	f field.Field[T]
	p int
	// w holds the standings of every row, their successors and the values at the end of a game;
	// s the row layout (states after the draw) and the outcomes of a capacity drawn.
	w *selfWin[T]
	s *fluctSeats[T]
	// nq is the number of movers' seats a position tells apart: 1 with every seat playing
	// win-optimal, p in a lineup whose seats follow tables (fluctselfwinmixed.go), where
	// follow(q, st, c, vi) gives seat q's choice in st with capacity c drawn at standings vi and
	// whether it follows one (false: it plays to win).
	nq     int
	follow func(q int, st rules.State, c, vi, l int) (rules.Choice, bool)
	// nl is the number of pass streaks a position tells apart: p under a pass rule
	// (fluctselfwinpass.go), 1 under pass rule never.
	nl int
	// prev[q][k][vi] and cur[q][k][vi] are the vectors (w.nv·p entries, as a selfWinCell's)
	// before the draw with k known cards at standings vi and seat q to move, of the previous row
	// and the row being solved, at pass streak 0; streaks[l] holds cur's at pass streak l.
	prev, cur [][][][]T
	streaks   [][][][][]T
	// choice[n][c][k][(l·nq + q)·nvalid + vi] is the mover's choice in (n, k) with capacity c
	// drawn at standings vi and pass streak l, seat q to move (nvalid the row's standings).
	choice [][][][]rules.Choice
	gaps   *[]FluctSelfWinGap[T]
	// keepFirst keeps the equilibrium policy iteration ends in, without the preferBetter step
	// (a test compares the two selections).
	keepFirst bool
}

// checkFluctSelfWin reports whether the win objective of lineup mu (three or more seats, a seat
// playing to win) is solved under the fluctuating capacity of model m: every seat win-optimal,
// or win-optimal (win-best-response at one seat) beside optimal, safe, daring and parity
// (fluctselfwinmixed.go).
func checkFluctSelfWin(m Model, mu Lineup) error {
	if err := refuseFluctSingles(m, mu); err != nil { // fluctsingles.go
		return err
	}
	if err := refuseFluctBlind(m, mu); err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return err
	}
	switch {
	case mu.Players < 3 || mu.Players > rules.MaxPlayers:
		return fmt.Errorf("players %d: the win objective of every seat for itself needs 3 to %d seats (2 seats: the two-player win objective)", mu.Players, rules.MaxPlayers)
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("win-optimal with %d players is not combined with tables", mu.Players)
	case mu.TwoPlayerOptimal:
		return fmt.Errorf("win-optimal with %d players has no two-player table to play", mu.Players)
	case m.Variant.TurnLimit > 0 || !m.Variant.Standard():
		return fmt.Errorf("variant %s: the win objective at %d seats under a fluctuating capacity is solved for the standard game only", m.Variant, mu.Players)
	}
	return mu.validateMixedSeats(m) // win-optimal, or win-best-response at one seat, beside optimal, safe, daring, parity
}

// newFluctSelfWin returns the sweep of p seats up to maxPairs pairs; eval keeps every vector of an
// evaluation besides the scores.
func newFluctSelfWin[T any](f field.Field[T], m Model, p, maxPairs int, eval bool) (*fluctSelfWin[T], error) {
	if err := checkFluctSelfWin(m, winLineup(p)); err != nil {
		return nil, err
	}
	return buildFluctSelfWin(f, m, p, maxPairs, eval)
}

// buildFluctSelfWin is newFluctSelfWin without the check of the model and the seats (tests
// compare two seats with the two-seat win objective, and no fluctuation with a fixed capacity).
func buildFluctSelfWin[T any](f field.Field[T], m Model, p, maxPairs int, eval bool) (*fluctSelfWin[T], error) {
	w, err := buildSelfWin(f, m, p, maxPairs, eval)
	if err != nil {
		return nil, err
	}
	s := &fluctSeats[T]{f: f, m: m, p: p, maxK: fluctMaxKnown(m.Memory), zero: f.FromInt(0)}
	nl := 1
	if m.Pass != rules.PassNever {
		nl = p
	}
	return &fluctSelfWin[T]{f: f, p: p, w: w, s: s, nq: 1, nl: nl}, nil
}

// winLineup returns the lineup of p seats all playing win-optimal.
func winLineup(p int) Lineup {
	return Lineup{Players: p, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
}

// run solves every row up to the sweep's maxPairs, calling visit, when not nil, after each.
func (x *fluctSelfWin[T]) run(ctx context.Context, visit func(n int) error) error {
	w := x.w
	w.ctx = ctx
	end := &selfWinCell[T]{}
	w.alloc(end, 0)
	w.terminal(end)
	z := w.nv * x.p
	x.cur = make([][][][]T, x.nq)
	for q := range x.cur {
		x.cur[q] = [][][]T{make([][]T, len(w.valid[0]))}
		for vi := range w.valid[0] {
			x.cur[q][0][vi] = end.vals[vi*z : (vi+1)*z]
		}
	}
	x.choice = [][][][]rules.Choice{nil}
	done := ctx.Done()
	prog := progressOf(ctx)
	for n := 1; n <= w.maxPairs; n++ {
		select {
		case <-done:
			return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		x.prev = x.cur
		if err := x.row(n); err != nil {
			return err
		}
		prog.add(float64(x.nq*x.nl*x.nl) * selfWinRowOps(x.p, n, 0) * float64(len(fluctCaps(w.m.Memory, n))))
		if visit != nil {
			if err := visit(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// fluctOuts are the outcomes of one state after the draw, by choice, with their probabilities.
type fluctOuts[T any] struct {
	outs  [rules.NumChoices][]Outcome
	probs [rules.NumChoices][]T
	legal [rules.NumChoices]bool
}

// row solves the row of n pairs, cycle by cycle of its standings.
func (x *fluctSelfWin[T]) row(n int) error {
	w, f := x.w, x.f
	nodes, caps, before := x.s.rowLayout(n)
	nvalid := len(w.valid[n])
	outs := make([]fluctOuts[T], len(nodes))
	for i, nd := range nodes {
		st := rules.State{N: n, J: n - nd.k}
		for _, ch := range rules.Choices() {
			if !w.m.Legal(st, ch) {
				continue
			}
			outs[i].legal[ch] = true
			if ch == rules.Pass {
				continue // a pass's ends are the cycle's (fluctselfwinpass.go)
			}
			outs[i].outs[ch] = x.s.outcomes(n, nd.k, nd.c, ch)
			for _, o := range outs[i].outs[ch] {
				outs[i].probs[ch] = append(outs[i].probs[ch], f.FromFrac(o.Prob.Num, o.Prob.Den))
			}
		}
	}
	x.streaks = make([][][][][]T, x.nl)
	for l := range x.streaks {
		x.streaks[l] = make([][][][]T, x.nq)
		for q := range x.streaks[l] {
			x.streaks[l][q] = make([][][]T, len(before))
			for k := range x.streaks[l][q] {
				x.streaks[l][q][k] = make([][]T, nvalid)
			}
		}
	}
	x.cur = x.streaks[0]
	byCap := make([][][]rules.Choice, caps[len(caps)-1].c+1)
	for _, nd := range nodes {
		if byCap[nd.c] == nil {
			byCap[nd.c] = make([][]rules.Choice, len(before))
		}
		byCap[nd.c][nd.k] = make([]rules.Choice, x.nl*x.nq*nvalid)
	}
	x.choice = append(x.choice, byCap)
	return w.eachCycle(nvalid, w.rotation(n), func(cyc []winPos) error {
		if err := x.cycle(n, nodes, before, outs, cyc); err != nil {
			return fmt.Errorf("%d pairs, standings %v: %w", n, w.valid[n][cyc[0].vi], err)
		}
		return nil
	})
}

// cycle solves the group of the states after the draw of the row of n pairs at the standings
// (and movers' seats) of cycle cyc and every pass streak: position (l·L + kc)·len(nodes) + i is
// state nodes[i] at standings cyc[kc].vi with seat cyc[kc].q to move at pass streak l, and a turn
// that hands the move over without a pair leads from cyc[kc] to cyc[kc+1], at streak 0, or at
// streak l+1 after a pass (fluctselfwinpass.go). A seat that follows a table has its one choice.
func (x *fluctSelfWin[T]) cycle(n int, nodes []fluctNode, before [][]fluctRef[T], outs []fluctOuts[T], cyc []winPos) error {
	w, f, p := x.w, x.f, x.p
	L, N, z := len(cyc), len(nodes), w.nv*x.p
	pos := func(l, kc, i int) int { return (l*L+kc%L)*N + i }
	as := make([][rules.NumChoices][]T, x.nl*L*N)
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], x.nl*L*N)}
	for kc, ps := range cyc {
		// The vectors of each choice but a pass collected from the outcomes that leave the row and
		// the equation's links, alike at every streak.
		var turns [][rules.NumChoices]*selfEq[T]
		var stale []T
		for l := range x.nl {
			for i, nd := range nodes {
				st := rules.State{N: n, J: n - nd.k}
				at := pos(l, kc, i)
				var fixed rules.Choice
				follows := false
				if x.follow != nil {
					fixed, follows = x.follow(ps.q, st, nd.c, ps.vi, l)
					if follows && !outs[i].legal[fixed] {
						return fmt.Errorf("seat %d: its table chooses %s in %v with capacity %d drawn at pass streak %d, which the model does not allow", ps.q, fixed, st, nd.c, l)
					}
				}
				for _, ch := range rules.Choices() {
					if !outs[i].legal[ch] || follows && ch != fixed {
						continue
					}
					if ch == rules.Pass {
						if stale == nil {
							stale = make([]T, z)
							w.stalemateVec(n, w.valid[n][ps.vi], stale)
						}
						as[at][ch], r.eqs[at][ch] = x.passEq(l, nd, before, stale, func(at2 int) int { return pos(l+1, kc+1, at2) })
						continue
					}
					if turns == nil {
						turns = make([][rules.NumChoices]*selfEq[T], N)
					}
					if turns[i][ch] == nil {
						acc := make([]T, z)
						for v := range acc {
							acc[v] = w.zero
						}
						e := decayEq[T]{}
						for oi, o := range outs[i].outs[ch] {
							pr := outs[i].probs[ch][oi]
							if k2 := sameRow(o, n); k2 >= 0 {
								for _, rf := range before[k2] {
									e.to = append(e.to, pos(0, kc+1, rf.at))
									e.coef = append(e.coef, f.Mul(pr, rf.p))
								}
								continue
							}
							x.addLeaving(st, ps, o, pr, acc)
						}
						e.merge(f)
						turns[i][ch] = &selfEq[T]{a: acc, to: e.to, coef: e.coef}
					}
					e := turns[i][ch]
					as[at][ch] = e.a
					r.eqs[at][ch] = &selfEq[T]{a: e.a[:p], to: e.to, coef: e.coef}
				}
			}
		}
	}
	sol, err := r.solve(f)
	if err == nil && !x.keepFirst {
		sol, err = r.preferBetter(f, sol)
	}
	if err != nil {
		return err
	}
	eqs := r.vectorSystem(sol.ch, as, w.nv)
	xs, err := solveRow(f, eqs)
	if err != nil {
		return err
	}
	byCap := x.choice[n]
	nvalid := len(w.valid[n])
	for l := range x.nl {
		for kc, ps := range cyc {
			for k, refs := range before {
				vec := make([]T, z)
				for v := range w.nv {
					for s := range p {
						sum := w.zero
						for _, rf := range refs {
							sum = f.Add(sum, f.Mul(rf.p, xs[pos(l, kc, rf.at)*p+s][v]))
						}
						vec[v*p+s] = sum
					}
				}
				x.streaks[l][ps.q][k][ps.vi] = vec
			}
			for i, nd := range nodes {
				at := pos(l, kc, i)
				byCap[nd.c][nd.k][(l*x.nq+ps.q)*nvalid+ps.vi] = sol.ch[at]
				if x.gaps != nil && f.Cmp(sol.gain[at], w.zero) > 0 {
					*x.gaps = append(*x.gaps, FluctSelfWinGap[T]{State: rules.State{N: n, J: n - nd.k}, Capacity: nd.c, Passes: l,
						Deficits: append([]int(nil), w.valid[n][ps.vi]...), Choice: sol.ch[at], Gain: sol.gain[at]})
				}
			}
		}
	}
	return nil
}

// addLeaving adds to acc (nv·p entries) outcome o, of probability pr, of a choice made in st at
// position ps (standings and mover's seat) that leaves the row: the previous row's vectors before
// the draw at its known cards, standings and mover's seat (a pair known whole, taken first by the
// next seat, draws a second capacity), turned to the mover's seat, with the pairs the outcome
// takes.
func (x *fluctSelfWin[T]) addLeaving(st rules.State, ps winPos, o Outcome, pr T, acc []T) {
	w := x.w
	si := w.successor(st.N, ps.vi, o, outcomeKind(st, o))
	k2 := o.Next.N - o.Next.J
	q := ps.q
	if !o.Continue {
		q = (q + 1) % x.nq
	}
	src := x.prevVec(q, o.Next.N, k2, si, !o.Continue && o.NextGain > 0)
	gain := o.NextGain
	if o.Continue {
		gain = o.MoverGain
	}
	w.addTurned(acc, pr, o.Continue, gain, func(v int) []T { return src[v*w.p : (v+1)*w.p] })
}

// prevVec returns the previous row's (n1 pairs) vectors before the draw with k known cards at
// standings si, seat q to move; twice asks for a turn that first takes a pair known whole, so
// that a second capacity is drawn (under lru both forget), as fluctSeats.prevVec.
func (x *fluctSelfWin[T]) prevVec(q, n1, k, si int, twice bool) []T {
	prev := x.prev[q]
	if !twice || !x.s.lru() {
		return prev[k][si]
	}
	f := x.f
	out := make([]T, len(prev[k][si]))
	for i := range out {
		out[i] = x.w.zero
	}
	for _, cp := range fluctCaps(x.w.m.Memory, n1) {
		pc := f.FromFrac(cp.p.Num, cp.p.Den)
		for i, v := range prev[min(k, cp.c)][si] {
			out[i] = f.Add(out[i], f.Mul(pc, v))
		}
	}
	return out
}

// evaluateFluctSelfWin returns the values of the win objective at players seats under a
// fluctuating capacity from state st before the draw, seat s (in order from the mover) having
// taken standings[s] pairs so far (nil: none yet). The mover's choice depends on the capacity
// drawn, so the result gives the values only (Legal is all false).
func evaluateFluctSelfWin[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	if err := checkFluctSelfWin(m, winLineup(players)); err != nil {
		return res, err
	}
	standings, err := checkStandings(players, standings)
	if err != nil {
		return res, err
	}
	x, err := buildFluctSelfWin(f, m, players, st.N, true)
	if err != nil {
		return res, err
	}
	return x.evaluate(ctx, st, standings)
}

// evaluate runs the sweep and reads the vectors of st before the draw at standings.
func (x *fluctSelfWin[T]) evaluate(ctx context.Context, st rules.State, standings []int) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	k, err := fluctKnown(st, x.s.maxK)
	if err != nil {
		return res, err
	}
	if err := x.run(ctx, nil); err != nil {
		return res, err
	}
	d := make([]int, x.p)
	rules.Deficits(d, standings, st.N)
	vi := int(x.w.place[st.N][rules.StandingsIndex(d, st.N)])
	res = SelfWinResult[T]{State: st, Standings: append([]int(nil), standings...)}
	res.SelfWinValues = *valuesOf(x.cur[0][k][vi], x.p)
	return res, nil
}

// evaluateFluctSelfWinLineup is Evaluate for a lineup of a win objective at three or more seats
// under a fluctuating capacity, from no pairs taken yet.
func evaluateFluctSelfWinLineup[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if err := checkFluctSelfWin(m, mu); err != nil {
		return Result[T]{}, err
	}
	r, err := evaluateFluctSelfWinLineupAt(ctx, f, m, mu, st, nil)
	if err != nil {
		return Result[T]{}, err
	}
	return Result[T]{State: st, Players: mu.Players, ExpectedPairs: r.Pairs[0], PairsBySeat: r.Pairs, ScoreBySeat: r.Score}, nil
}

// FluctSelfWinGaps lists, in order of n, then the cycles of the standings, then known cards and
// capacity, the positions with at most maxPairs pairs in which the win objective of every seat
// for itself at players seats (3 to 8) under the fluctuating capacity of model m selects no
// equilibrium in pure choices.
func FluctSelfWinGaps[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) ([]FluctSelfWinGap[T], error) {
	x, err := newFluctSelfWin(f, m, players, maxPairs, false)
	if err != nil {
		return nil, err
	}
	gaps := []FluctSelfWinGap[T]{}
	x.gaps = &gaps
	if err := x.run(ctx, nil); err != nil {
		return nil, err
	}
	return gaps, nil
}

// FluctSelfWinTables returns the choices of the win objective of every seat for itself at
// players seats (3 to 8) under the fluctuating capacity of model m, in every state of at most
// maxPairs pairs (at least 1) and every standings: layers[i] holds those with capacity lo + i
// drawn, from max(2, M - σ) to the largest capacity that binds in a deal of maxPairs pairs (a
// larger capacity reads the last layer), each read with the seats' pairs so far
// (rules.StandingsTable.Lookup) at the state the mover sees after the draw.
func FluctSelfWinTables[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) (lo int, layers []*rules.StandingsTable, err error) {
	if maxPairs < 1 {
		return 0, nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	x, err := newFluctSelfWin(f, m, players, maxPairs, false)
	if err != nil {
		return 0, nil, err
	}
	if err := x.run(ctx, nil); err != nil {
		return 0, nil, err
	}
	return x.layers(maxPairs)
}

// layers writes out seat 0's choices, seat 0 to move, in every state of at most maxPairs pairs and
// every standings, a table per capacity drawn (FluctSelfWinTables), after the sweep has run.
func (x *fluctSelfWin[T]) layers(maxPairs int) (lo int, layers []*rules.StandingsTable, err error) {
	lo = fluctCaps(x.w.m.Memory, maxPairs)[0].c
	hi := max(lo, min(x.s.maxK, maxPairs+1))
	layers = make([]*rules.StandingsTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		newTable := rules.NewStandingsTable
		if x.passLevels() {
			newTable = rules.NewStandingsPassTable
		}
		t, err := newTable(x.p, maxPairs, 0)
		if err != nil {
			return 0, nil, err
		}
		for n := 1; n <= maxPairs; n++ {
			cn := min(c, n+1) // the capacities of a row are merged from n + 1 up
			byCap := x.choice[n]
			if cn >= len(byCap) || byCap[cn] == nil {
				continue
			}
			for k, chs := range byCap[cn] {
				if chs == nil {
					continue
				}
				nvalid := len(x.w.valid[n])
				for l := range x.nl {
					for vi, d := range x.w.valid[n] {
						// Seat 0 to move: the first nvalid of the streak's.
						t.SetPasses(rules.State{N: n, J: n - k}, d, l, chs[l*x.nq*nvalid+vi])
					}
				}
			}
		}
		layers[i] = t
	}
	return lo, layers, nil
}

// estimateFluctSelfWin returns the cost of a call for a lineup of win-optimal at three or more
// seats under a fluctuating capacity: the sweep of the same lineup at a fixed capacity
// (estimateSelfWin) times the states after the draw of a row (known cards by capacities), each
// group of a cycle of standings a system of that many positions.
func estimateFluctSelfWin[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if err := checkFluctSelfWin(m, mu); err != nil {
		return Cost{}, err
	}
	if call != CallEvaluate {
		return Cost{}, fmt.Errorf("players %d: win-optimal under a fluctuating capacity gives values, not this computation", mu.Players)
	}
	_, exact := any(f).(field.Rat)
	k := float64(min(int64(pairs), int64(fluctMaxKnown(m.Memory))) + 1)
	caps := float64(min(2*int64(m.Memory.Fluctuation)+1, int64(pairs)+1))
	ops := selfWinOps(mu.Players, pairs, 0, exact, true) * caps
	// A group's linear solve: (k·caps·p)^2 per unknown of the group, a group per p standings.
	ops += selfWinOps(mu.Players, pairs, 0, exact, false) * k * caps * caps * float64(mu.Players)
	value := float64(floatBytes)
	if exact {
		value = pointerBytes + ratBytes + 2*8*float64(pairs+1)/8
	}
	standings := float64(rules.StandingsCount(mu.Players, pairs))
	live := 2 * k * standings * swVectors * float64(mu.Players) * value
	if m.Pass != rules.PassNever {
		// A pass rule: p streaks per position, so a group's solve has p times the unknowns
		// (p³ the work of its elimination) and a row p times the vectors.
		q := float64(mu.Players)
		ops, live = ops*q*q*q, live*q
	}
	c := Cost{Ops: ops, Bytes: baseBytes + gcHeadroom*live}
	if fluctWinFollows(mu) {
		// A position per mover's seat, after the tables the seats follow (each at most a sweep of
		// every seat win-optimal).
		q := float64(mu.Players)
		c = Cost{Ops: (q + 1) * ops, Bytes: baseBytes + gcHeadroom*live*q}
	}
	return c, nil
}
