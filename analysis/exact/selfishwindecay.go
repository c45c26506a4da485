package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The win objective at three or more seats under decay forgetting (docs/models.md §4.7, "Win
// objective", §4.14), pass rule never. A hand-over under decay forgets each remembered card with
// probability q, so it hands the next seat a count state of the same size with any known count
// and no pair taken: the standings are the same, seen from the next seat, and in a mixed lineup
// the next seat moves. The positions of a row of n pairs (a known count, a standings and a
// mover's seat each) thus refer to each other from (j, d, q) to (j', d seen from the next seat,
// q + 1) for every j'. The rotation of the standings and seats splits them into cycles as under
// lru (selfishwinlimited.go); a cycle of L positions, taken at every known count of the row, is
// one block of L·(n + 1) states solved together as a row of every seat for itself: the policy
// iteration on the scores with the one-step deviation test, the first choice in the order daring,
// safe, known-first among equals, the profile of the smallest largest gain where no profile in
// pure choices is an equilibrium (SelfWinGaps lists those positions), and preferBetter. Every
// other outcome (a pair taken, or a pair fully known handed to the next seat, who takes it)
// leaves the row for one already solved. The chosen profile then gives every vector of the block
// (scores, wins, draws, pairs) by one linear solve.

// selfWinDecayState is one count state of a row under decay: its legal choices and their
// outcomes with their probabilities in the field.
type selfWinDecayState[T any] struct {
	st    rules.State
	legal [rules.NumChoices]bool
	outs  [rules.NumChoices][]Outcome
	probs [rules.NumChoices][]T
}

// decayOutcomesOf sets the legal choices of st and their outcomes under decay forgetting.
func (w *selfWin[T]) decayOutcomesOf(st rules.State) {
	for _, ch := range rules.Choices() {
		w.legal[ch] = w.m.Legal(st, ch)
		w.outs[ch], w.probs[ch] = w.outs[ch][:0], w.probs[ch][:0]
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		w.outs[ch], w.probs[ch] = decayTurn(w.decay, w.m, st, ch, w.outs[ch], w.probs[ch]) // selfishwindecaysingles.go
	}
}

// load makes ds the state whose outcomes w.legal, w.outs and w.probs hold.
func (w *selfWin[T]) load(ds *selfWinDecayState[T]) {
	w.legal, w.outs, w.probs = ds.legal, ds.outs, ds.probs
}

// decayRow computes every count state of the row of n pairs (n >= 1) under decay forgetting, at
// every standings and mover's seat, block by block.
func (w *selfWin[T]) decayRow(n int) error {
	var row []selfWinDecayState[T]
	// index[w.decayPlace(st)]: the place of count state st of n pairs in row, -1 where memory
	// cannot hold it.
	S := w.m.Singletons
	index := make([]int, (n+1)*(S+1))
	for x := range index {
		st := rules.State{N: n, J: x / (S + 1), S: S, F: x % (S + 1)}
		index[x] = -1
		if !w.m.Memory.Holds(st.Known()) {
			continue
		}
		index[x] = len(row)
		ds := selfWinDecayState[T]{st: st}
		w.decayOutcomesOf(st)
		ds.legal = w.legal
		for _, ch := range rules.Choices() {
			ds.outs[ch] = append([]Outcome(nil), w.outs[ch]...)
			ds.probs[ch] = append([]T(nil), w.probs[ch]...)
		}
		row = append(row, ds)
		for q := range w.nq {
			w.alloc(w.atSeat(n, st.J, st.F, q), n)
		}
	}
	solve := w.solveDecayBlock
	if w.pass != nil {
		w.decayPassLevels(n, row, index) // selfishwindecaypass.go
		solve = w.solveDecayBlockPass
	}
	err := w.eachCycle(len(w.valid[n]), w.rotation(n), func(cyc []winPos) error {
		return solve(n, row, index, cyc)
	})
	if err != nil {
		return err
	}
	w.seat(row[0].st, 0)
	return nil
}

// solveDecayBlock selects the choices of the positions cyc at every count state of row (n
// pairs), a hand-over with no pair taken leading from position k of the cycle at one known count
// to position k + 1 at another, and writes their vectors and choices into the cells.
func (w *selfWin[T]) solveDecayBlock(n int, row []selfWinDecayState[T], index []int, cyc []winPos) error {
	f, p, L, NS := w.f, w.p, len(cyc), len(row)
	z := w.nv * p
	// State t*L + k of the block is row[t] at position cyc[k].
	size := NS * L
	as := make([][rules.NumChoices][]T, size)
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], size)}
	for t := range row {
		ds := &row[t]
		w.load(ds)
		for k, ps := range cyc {
			w.seat(ds.st, ps.q)
			followed := w.followedAt(ds.st, ps.vi)
			i := t*L + k
			for _, ch := range rules.Choices() {
				if !w.legal[ch] || ch == rules.Pass || (w.follow != nil && ch != followed) {
					continue
				}
				acc := make([]T, z)
				for v := range acc {
					acc[v] = w.zero
				}
				e := decayEq[T]{}
				for x, o := range w.outs[ch] {
					pr := w.probs[ch][x]
					if !o.Continue && o.Next.N == n {
						e.to = append(e.to, index[w.decayPlace(o.Next)]*L+(k+1)%L)
						e.coef = append(e.coef, pr)
						continue
					}
					w.addOutcome(ds.st, ps.vi, o, pr, acc)
				}
				e.merge(f)
				as[i][ch] = acc
				r.eqs[i][ch] = &selfEq[T]{a: acc[:p], to: e.to, coef: e.coef}
			}
		}
	}
	sol, err := r.solve(f)
	if err == nil {
		sol, err = r.preferBetter(f, sol)
	}
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[n][cyc[0].vi], err)
	}
	eqs := r.vectorSystem(sol.ch, as, w.nv)
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[n][cyc[0].vi], err)
	}
	for t := range row {
		st := row[t].st
		for k, ps := range cyc {
			i := t*L + k
			c := w.atSeat(n, st.J, st.F, ps.q)
			for v := range w.nv {
				out := w.vec(c, ps.vi, v)
				for s := range p {
					out[s] = x[i*p+s][v]
				}
			}
			c.choice[ps.vi] = sol.ch[i]
			w.noteGap(st, ps, 0, sol.ch[i], sol.gain[i])
		}
	}
	return nil
}

// SelfWinDecayRationalLimit is SelfWinRationalLimit under decay forgetting: a block of a row holds
// every known count of the row, so the exact solution's numbers grow faster (memsim solve --table
// --pairs-max 5 --forget decay --q 0.2 --players 3 --policy win-optimal takes 1.7 s of CPU time, 6
// pairs 3.9 s).
const SelfWinDecayRationalLimit = 5

// SelfWinFluctRationalLimit is SelfWinRationalLimit under a fluctuating capacity: a group of a row
// holds every capacity drawn (memsim solve --pairs 5 --memory 5 --forget lru --fluctuation 2
// --players 3 --policy win-optimal --value-only takes 9.6 s of CPU time, 8 pairs about 210 s).
const SelfWinFluctRationalLimit = 5

// SelfWinDecayPassRationalLimit is SelfWinDecayRationalLimit under the pass rules two-known and
// always, whose blocks hold every pass streak (memsim solve --table --pairs-max 4 --forget decay
// --q 0.2 --players 3 --pass always --policy win-optimal takes 1.8 s of CPU time, 5 pairs 9.5 s).
const SelfWinDecayPassRationalLimit = 4

// SelfWinRationalLimitOf returns the largest deal size for which memsim solves the win objective
// at three or more seats in model m in exact rationals for a table or a tournament's exact
// values: SelfWinDecayRationalLimit under decay forgetting (SelfWinDecayPassRationalLimit under a
// pass rule; under a turn limit also at most SelfWinDecayLimitRationalWork / the limit), SelfWinFluctRationalLimit under a fluctuating capacity, SelfWinRationalLimit
// otherwise.
func SelfWinRationalLimitOf(m Model) int {
	switch {
	case m.isDecay() && m.Variant.TurnLimit > 0 && m.Pass != rules.PassNever:
		return min(SelfWinDecayPassRationalLimit, SelfWinDecayLimitRationalWork/m.Variant.TurnLimit)
	case m.isDecay() && m.Variant.TurnLimit > 0:
		return min(SelfWinDecayRationalLimit, SelfWinDecayLimitRationalWork/m.Variant.TurnLimit)
	case m.isDecay() && m.Pass != rules.PassNever:
		return SelfWinDecayPassRationalLimit
	case m.isDecay():
		return SelfWinDecayRationalLimit
	}
	if m.Memory.Fluctuation > 0 {
		return SelfWinFluctRationalLimit
	}
	return SelfWinRationalLimit
}

// SelfWinTableLimitOf returns the largest deal size a table of win-optimal at players seats (3
// or more) is built for in model m, every seat playing it or (mixed) beside other policies: the
// largest whose estimated work is at most SelfWinTableOps. The model picks the limit, the first
// case that holds:
//
//	fluctuating capacity, mixed           FluctSelfWinMixedTableLimit
//	fluctuating capacity                  FluctSelfWinTableLimit
//	decay forgetting and a turn limit     SelfWinDecayLimitTableLimit
//	decay forgetting                      SelfWinDecayTableLimit (a pass rule counts its streaks)
//	a turn limit in the game of pairs     SelfWinLimitTableLimit
//	otherwise, mixed                      SelfWinMixedTableLimit
//	otherwise                             SelfWinTableLimit
//
// Under k copies of a face the last two rows hold, with or without a turn limit (a table under
// copies is bounded besides by its values, CopiesSelfWinLimitCells).
func SelfWinTableLimitOf(m Model, players int, mixed bool) int {
	limit := m.Variant.TurnLimit
	switch {
	case m.Memory.Fluctuation > 0 && mixed:
		return FluctSelfWinMixedTableLimit(m, players)
	case m.Memory.Fluctuation > 0:
		return FluctSelfWinTableLimit(m, players)
	case m.isDecay() && limit > 0:
		return SelfWinDecayLimitTableLimit(players, limit, mixed)
	case m.isDecay():
		return SelfWinDecayTableLimit(m, players, mixed)
	case limit > 0 && m.Variant.CopiesOf() == rules.DefaultCopies:
		return SelfWinLimitTableLimit(players, limit, mixed)
	case mixed:
		return SelfWinMixedTableLimit(players)
	}
	return SelfWinTableLimit(players)
}

// SelfWinDecayTableLimit returns the largest deal size a player of win-optimal at players seats
// (3 or more) can play under decay forgetting in model m, every seat playing it or (mixed) beside
// other policies: the largest whose table's work is at most SelfWinTableOps.
func SelfWinDecayTableLimit(m Model, players int, mixed bool) int {
	k := 1.0
	if mixed {
		k = float64(players)
	}
	if m.Pass != rules.PassNever {
		k *= selfWinDecayPassWork(players, false)
	}
	n := 0
	for n < WinTableLimit && k*selfWinDecayOps(players, n+1, false, false) <= SelfWinTableOps {
		n++
	}
	return n
}

// selfWinDecayOps returns the estimated operations of a sweep of the win objective at p seats
// under decay up to n pairs (see Estimate): a row of k pairs is solved in blocks, a cycle of the
// standings' rotation at every known count, whose elimination costs about the square of its
// unknowns per standings: (k + 1)² p³ units per standings, measured (CPU time) at opsSelfWinDecay
// operations in float64 and opsSelfWinDecayRational in exact rationals (memsim solve --table
// --pairs-max N --forget decay --q 0.2 --players P --policy win-optimal [--float]: 3 seats and 12
// pairs take 1.4 s in float64, 5 seats and 4 pairs 1.1 s; 3 seats and 6 pairs 3.9 s exact).
func selfWinDecayOps(p, n int, exact, eval bool) float64 {
	vectors := 1.0
	if eval {
		vectors = swVectors
	}
	unit := float64(opsSelfWinDecay)
	if exact {
		unit = opsSelfWinDecayRational
	}
	ops := 0.0
	for k := 1; k <= n; k++ {
		standings := float64(rules.StandingsCount(p, k) - rules.StandingsCount(p, k-1))
		ops += standings * float64((k+1)*(k+1)) * float64(p*p*p) * unit * (1 + (vectors-1)/4)
	}
	return ops
}

// The work of a unit of selfWinDecayOps (see above).
const (
	opsSelfWinDecay         = 4
	opsSelfWinDecayRational = 150
)
