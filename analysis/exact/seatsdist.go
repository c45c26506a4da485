package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats without a fluctuating capacity
// (docs/models.md §4.7): perfect memory (singletons too), limited memory of a fixed capacity
// (lru, handover-uniform) and decay forgetting (decayseatsdist.go), under every pass rule. The lineup's sweep of every seat's expected
// pairs (sweep.multi, sweep.multiPass) fixes every seat's choice in every state and pass streak,
// the replying seat's included; the game is then a Markov chain, and this sweep follows it state
// by state in the same order. A state's unknowns are, for each seat t to move (and each pass
// streak l under a pass rule), one vector of every seat's distribution of the pairs it takes from
// there on (seat s's distribution in block s): the same equations as the values', with vectors for
// right-hand sides. A pair taken shifts the taker's block by a pair; a stalemate gives every seat
// n/p pairs, so under a pass rule the distributions count in p-ths of a pair.

// seatsDistRows carries every seat's distribution of the states of a sweep (seatsDistSweep).
type seatsDistRows[T any] struct {
	// unit: shares count in 1/unit pairs; width: the length of a seat's block (unit*N + 1 for the
	// solved state's N pairs).
	unit, width int
	// rows[r][i][t] is the vector of the state at index i of row r (as sweep.rows) with seat t to
	// move, at pass streak 0.
	rows [3][][][]T
}

// CheckSeatsDistribution reports whether SeatsScoreDistribution solves lineup mu (three to eight
// seats) in model m: nil if it does, otherwise an error saying in one line what is refused and why.
func CheckSeatsDistribution(m Model, mu Lineup) error {
	switch {
	case mu.Players < 3 || mu.Players > rules.MaxPlayers:
		return fmt.Errorf("players %d: every seat's score distribution is computed for 3 to %d players", mu.Players, rules.MaxPlayers)
	case IsHUSingles(m):
		return checkHUSSeatsDistribution(m, mu) // husingles_seatsdist.go
	case m.Memory.Fluctuation > 0 && (isSelfWin(mu) || mu.playsToWin()):
		return fmt.Errorf("memory %s: every seat's score distribution at %d players with a policy that plays to win is solved with perfect memory, not under a fluctuating capacity", m.Memory, mu.Players)
	case m.fluctLimited():
		return checkFluctLimitSeatsDistribution(m, mu) // fluctlimitseatsdist.go
	case m.Memory.Fluctuation > 0 && IsFluctSingles(m):
		return fluctSinglesSeatsDistErr(m, mu.Players) // fluctsingles_seats.go
	case m.Memory.Fluctuation > 0:
		return validateFluctSeats(m, mu)
	}
	return checkSeatsDistribution(m, mu)
}

// checkSeatsDistribution is CheckSeatsDistribution without a fluctuating capacity.
func checkSeatsDistribution(m Model, mu Lineup) error {
	switch {
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("every seat's score distribution at %d players is solved for policies, not tables", mu.Players)
	case mu.TwoPlayerOptimal:
		return fmt.Errorf("every seat's score distribution at %d players is solved for every seat's own optimum, not the two-player optimum's choices", mu.Players)
	case isWinSeatsDist(mu):
		return checkWinSeatsDistribution(m, mu) // winseatsdist.go
	case mu.playsToWin():
		return fmt.Errorf("every seat's score distribution at %d players is solved for the pairs objective (optimal, safe, daring, parity, best-response), not for policies that play to win", mu.Players)
	case m.Variant.CopiesOf() != rules.DefaultCopies:
		return checkCopiesSeatsDistribution(m, mu) // copiesseatsdist.go
	case m.Variant.TurnLimit > 0:
		return checkLimitSeatsDistribution(m, mu) // limitseatsdist.go
	}
	return mu.Validate(m)
}

// seatsDistSweep returns every seat's distribution from st in model m (no fluctuating capacity),
// lineup mu of three to eight seats.
func seatsDistSweep[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	if err := checkSeatsDistribution(m, mu); err != nil {
		return out, err
	}
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return out, err
	}
	// The values fix every seat's choices: the replying seat's (brChoice, passStreak.reply) come
	// from them, the others' from the optimum's or their policies.
	w.needMulti = true
	d := &seatsDistRows[T]{unit: 1}
	if m.Pass != rules.PassNever {
		d.unit = mu.Players
	}
	d.width = d.unit*st.N + 1
	w.sdist = d
	if err := w.run(ctx, st.N, nil); err != nil {
		return out, err
	}
	v := d.at(w, st)[0]
	out = SeatsDistribution[T]{State: st, Players: mu.Players, Unit: d.unit, Prob: make([][]T, mu.Players)}
	for b := range mu.Players {
		out.Prob[b] = append([]T(nil), v[b*d.width:(b+1)*d.width]...)
	}
	return out, nil
}

// at returns the vectors of state st (seat t to move, pass streak 0), allocating the rows on
// first use.
func (d *seatsDistRows[T]) at(w *sweep[T], st rules.State) [][]T {
	r := w.row(st.N)
	if len(d.rows[r]) != len(w.rows[r]) {
		d.rows[r] = make([][][]T, len(w.rows[r]))
	}
	return d.rows[r][st.J*w.stride+st.F]
}

// set keeps the vectors of state st.
func (d *seatsDistRows[T]) set(w *sweep[T], st rules.State, v [][]T) {
	d.at(w, st)
	d.rows[w.row(st.N)][st.J*w.stride+st.F] = v
}

// seatsDist computes every seat's distribution in st with each seat to move, once the lineup's
// values (and so every seat's choices) of st are computed.
func (w *sweep[T]) seatsDist(st rules.State) {
	d := w.sdist
	p := w.mu.Players
	if st.N == 0 {
		v := make([][]T, p)
		for t := range p {
			v[t] = w.zeros(p * d.width)
			for b := range p {
				v[t][b*d.width] = w.one
			}
		}
		d.set(w, st, v)
		return
	}
	if w.streak == nil {
		d.set(w, st, w.seatsDistNever(st))
		return
	}
	d.set(w, st, w.seatsDistPass(st))
}

// seatsDistNever solves a state's vectors under pass rule never: seat t's turn leaves the state or
// comes back to it with the next seat to move (a forgotten card), a cycle solved in closed form.
func (w *sweep[T]) seatsDistNever(st rules.State) [][]T {
	return w.seatsCycle(st, w.mu.Players*w.sdist.width, w.addSeatsDist)
}

// seatsDistPass solves a state's vectors under a pass rule: unknown l*p + t is seat t to move at
// pass streak l. A pass at l < p-1 hands the state to the next seat at l+1, one at p-1 is the
// stalemate (n/p pairs to every seat, n units of 1/p); any other turn leaves the state at streak 0
// or comes back to it with the next seat to move at streak 0.
func (w *sweep[T]) seatsDistPass(st rules.State) [][]T {
	f := w.f
	p := w.mu.Players
	d := w.sdist
	r := w.mu.replySeat()
	eqs := make([]decayEq[T], p*p)
	for l := range p {
		for t := range p {
			var ch rules.Choice
			if t == r {
				ch = w.streak.reply[l]
			} else {
				ch = w.seatChoiceAt(t, st, l)
			}
			next := (t + 1) % p
			e := decayEq[T]{a: w.zeros(p * d.width)}
			switch {
			case ch == rules.Pass && l == p-1:
				for b := range p {
					e.a[b*d.width+st.N*d.unit/p] = w.one
				}
			case ch == rules.Pass:
				e.to, e.coef = []int{(l+1)*p + next}, []T{w.one}
			default:
				for i, o := range w.outs[ch] {
					pr := w.probs[ch][i]
					if selfLoop(o, st) {
						e.to, e.coef = append(e.to, next), append(e.coef, pr)
						continue
					}
					w.addSeatsDist(e.a, pr, o, t)
				}
				e.merge(f)
			}
			eqs[l*p+t] = e
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		// The same system as the values' (multiLimitPass), whose pivots are never zero: only a
		// broken invariant gets here.
		panic("exact: every seat's score distribution: " + err.Error())
	}
	return x[:p]
}

// addSeatsDist adds to vec pr times every seat's distribution after outcome o of seat t's turn
// (o leaves the state): the successor's vector with the seat that moves there, each seat's block
// shifted by the pairs it takes in o.
func (w *sweep[T]) addSeatsDist(vec []T, pr T, o Outcome, t int) {
	d := w.sdist
	p := w.mu.Players
	mover := (t + 1) % p
	if o.Continue {
		mover = t
	}
	src := d.at(w, o.Next)[mover]
	for b := range p {
		lo := b * d.width
		addShifted(w.f, vec[lo:lo+d.width], pr, src[lo:lo+d.width], turnGain(o, b, t, p)*d.unit)
	}
}

// seatsDistCost returns the cost of SeatsScoreDistribution without a fluctuating capacity up to
// pairs pairs: the lineup's values (their sweep's cost), then for every state p vectors per pass
// streak, each of every seat's distribution (p blocks of unit*pairs + 1 entries), whose entries
// every outcome adds once; an entry weighs seatsDistFloat seconds in float64, seatsDistRat times
// the deal size in exact rationals (the numbers grow with it). The memory holds two rows of those
// vectors and, under a pass rule, a state's system of p² of them (with what its elimination
// leaves to collect, about six times that). Measured on a loaded machine
// (memsim solve --players P --value-only --distribution, /usr/bin/time): 3 seats, perfect memory,
// exact rationals 0.10 s for 20 pairs and 1.4 s for 40, pass always 0.16 s for 12 and 0.97 s for
// 24, lru(4) 0.07 s for 24; float64 0.59 s for 200 pairs; 8 seats under pass always, float64
// 3.0 s and 245 MB for 40 pairs, exact rationals 10 s and 233 MB for 12. The estimate is 0.6 to
// 1.9 times those times, the memory 0.7 to 1.7 times.
func seatsDistCost[T any](f field.Field[T], m Model, mu Lineup, pairs int) (Cost, error) {
	if err := checkSeatsDistribution(m, mu); err != nil {
		return Cost{}, err
	}
	w, err := newSweep(f, m, mu, startOf(m, pairs))
	if err != nil {
		return Cost{}, err
	}
	w.needMulti = true
	c := w.cost(pairs)
	p := float64(mu.Players)
	unit, streaks := 1.0, 1.0
	if m.Pass != rules.PassNever {
		unit, streaks = p, p
	}
	width := unit*float64(pairs) + 1
	states := 0.0
	for n := 0; n <= pairs; n++ {
		states += w.rowStates(n)
	}
	entries := states * p * p * streaks * width
	seconds, entry := seatsDistFloat*entries, 8.0
	if w.exact() {
		seconds, entry = seatsDistRat*float64(pairs)*entries, w.valueBytes(pairs, true)
	}
	live := 2 * w.rowStates(pairs) * p * p * width * entry
	if m.Pass != rules.PassNever {
		// The elimination's right-hand sides and what it leaves to collect: about 6 systems.
		live += 6 * p * p * p * p * width * entry
	}
	if m.isDecay() {
		// A row is one system (decayseatsdist.go), whose elimination carries every right-hand
		// side along the band, as the values' rows do theirs: measured against the values'
		// estimate.
		k := decaySeatsDistFactor(m.Pass != rules.PassNever, w.exact())
		seconds = k * c.Ops / OpsPerSecond
		live *= math.Sqrt(k)
	}
	return Cost{Ops: c.Ops + seconds*OpsPerSecond, Bytes: c.Bytes + gcHeadroom*live}, nil
}

// decaySeatsDistFactor returns how many times the estimate of the lineup's values (their sweep's
// cost) every seat's distributions under decay forgetting take on top of them, measured on a loaded machine with
// q = 0.2, three seats, every seat for itself (memsim solve --players 3 --forget decay --q 0.2
// --pairs N [--pass always] --value-only [--float] [--distribution], /usr/bin/time): exact
// rationals 1.9 s for 12 pairs against 0.27 s without --distribution, 9.6 s for 16 against 1.1 s,
// under pass rule always 10 s for 12 against 0.56 s; float64 1.0 s for 60 pairs against 0.25 s,
// under pass rule always 0.88 s for 30 against 0.23 s. The estimate is 0.6 to 1.8 times those times.
func decaySeatsDistFactor(passes, exact bool) float64 {
	k := 1.0
	if exact {
		k = 6
	}
	if passes {
		k *= 2
	}
	return k
}

// The seconds of one entry of every seat's distributions (seatsDistCost): measured.
const (
	seatsDistFloat = 2e-8
	seatsDistRat   = 1.2e-7
)
