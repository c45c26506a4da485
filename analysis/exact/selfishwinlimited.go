package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective at three or more seats under limited shared memory (lru and
// handover-uniform of a fixed capacity, pass rule never; docs/models.md §4.7, "Win objective").
// A forgotten card can hand the same count state to the next seat with no pair taken: the
// standings are then the same, seen from the next seat, and in a mixed lineup the next seat
// moves. So the positions of a count state, a standings and a mover's seat each, refer to each
// other along the rotation of the standings: from (standings d, seat q) to (d seen from the next
// seat, seat q + 1). That map is a permutation, so the positions of a count state fall into
// cycles of at most p positions (fewer where the standings repeat under the rotation, as
// (0, 0, 0) does with every seat playing win-optimal), each a small system of its own: every
// other outcome leaves the count state, for one already solved. A cycle is solved as a row of
// every seat for itself (selfishdecay.go, fluctselfish.go), its positions the row's states: the
// policy iteration on the scores with the one-step deviation test, the first choice in the order
// daring, safe, known-first among equals, the profile of the smallest largest gain where no
// profile in pure choices is an equilibrium, and an equilibrium then moved, position by position,
// to one that gives the position's mover more (preferBetter). Seats that follow a table (optimal,
// safe, daring, parity) have their one choice. The chosen profile then gives every vector of the
// positions (scores, wins, draws, pairs) by one linear solve of the cycle. Under the pass rules
// two-known and always a cycle holds every pass streak of its positions (selfishwinlimitedpass.go).

// SelfWinGap is a position of the win objective at three or more seats under limited memory in
// which the profile selected is not an equilibrium in pure choices: at count state State, with
// Deficits the standings in order from the mover and Seat the mover's seat of the lineup (0
// where every seat plays win-optimal) and Passes the pass streak, the mover plays Choice, and a choice made once instead
// would give it Gain more score.
type SelfWinGap[T any] struct {
	State    rules.State
	Deficits []int
	Seat     int
	// Passes is the pass streak of the position (0 under pass rule never).
	Passes int
	Choice rules.Choice
	Gain   T
}

// refersToItself reports whether a legal choice in st can hand st itself to the next seat (a
// forgotten card), the outcomes of st being set.
func (w *selfWin[T]) refersToItself(st rules.State) bool {
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		for _, o := range w.outs[ch] {
			if selfLoop(o, st) {
				return true
			}
		}
	}
	return false
}

// rotation returns, for the row of n pairs, the place of every standings seen from the next seat.
func (w *selfWin[T]) rotation(n int) []int {
	out := make([]int, len(w.valid[n]))
	d := make([]int, w.p)
	for vi, v := range w.valid[n] {
		for t := range d {
			d[t] = v[(t+1)%w.p]
		}
		out[vi] = int(w.place[n][rules.StandingsIndex(d, n)])
	}
	return out
}

// leaving writes into acc (nv·p entries) the vectors of choice ch made by the mover, seat w.q, in
// st at standings vi, collected from the outcomes that leave st, and returns the probability of
// handing st itself to the next seat.
func (w *selfWin[T]) leaving(st rules.State, vi int, ch rules.Choice, acc []T) T {
	f := w.f
	for k := range acc {
		acc[k] = w.zero
	}
	b := w.zero
	for k, o := range w.outs[ch] {
		pr := w.probs[ch][k]
		if selfLoop(o, st) {
			b = f.Add(b, pr)
			continue
		}
		w.addOutcome(st, vi, o, pr, acc)
	}
	return b
}

// winPos is a position of a count state: a standings and the mover's seat.
type winPos struct{ vi, q int }

// stateCycles computes the count state st (n >= 1, its outcomes set), some of whose outcomes hand
// st itself to the next seat, at every standings and mover's seat, cycle by cycle.
func (w *selfWin[T]) stateCycles(st rules.State) error {
	n := st.N
	nvalid := len(w.valid[n])
	for q := range w.nq {
		w.alloc(w.atSeat(n, st.J, st.F, q), n)
	}
	if err := w.eachCycle(nvalid, w.rotation(n), func(cyc []winPos) error { return w.solveCycle(st, cyc) }); err != nil {
		return err
	}
	w.seat(st, 0)
	return nil
}

// eachCycle calls solve with every cycle of the positions (standings index, mover's seat) of a
// count state with nvalid standings, a forgotten card leading from (vi, q) to (rot[vi], q+1).
func (w *selfWin[T]) eachCycle(nvalid int, rot []int, solve func(cyc []winPos) error) error {
	seen := make([]bool, w.nq*nvalid)
	var cyc []winPos
	for q0 := range w.nq {
		for vi0 := range nvalid {
			cyc = cyc[:0]
			for vi, q := vi0, q0; !seen[q*nvalid+vi]; vi, q = rot[vi], (q+1)%w.nq {
				seen[q*nvalid+vi] = true
				cyc = append(cyc, winPos{vi: vi, q: q})
			}
			if len(cyc) == 0 {
				continue
			}
			if w.ctx != nil {
				select {
				case <-w.ctx.Done():
					return fmt.Errorf("solver stopped: %w", w.ctx.Err())
				default:
				}
			}
			if err := solve(cyc); err != nil {
				return err
			}
		}
	}
	return nil
}

// solveCycle selects the choices of the positions cyc of st, each handing st to the next position
// when a card is forgotten, and writes their vectors and choices into the cells.
func (w *selfWin[T]) solveCycle(st rules.State, cyc []winPos) error {
	f, p, L := w.f, w.p, len(cyc)
	z := w.nv * p
	as := make([][rules.NumChoices][]T, L)
	bs := make([][rules.NumChoices]T, L)
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], L)}
	for k, ps := range cyc {
		w.seat(st, ps.q)
		followed := w.followedAt(st, ps.vi)
		for _, ch := range rules.Choices() {
			if !w.legal[ch] || ch == rules.Pass || (w.follow != nil && ch != followed) {
				continue
			}
			acc := make([]T, z)
			b := w.leaving(st, ps.vi, ch, acc)
			as[k][ch], bs[k][ch] = acc, b
			e := &selfEq[T]{a: acc[:p]}
			if !f.IsZero(b) {
				e.to, e.coef = []int{(k + 1) % L}, []T{b}
			}
			r.eqs[k][ch] = e
		}
	}
	sol, err := r.solve(f)
	if err == nil {
		sol, err = r.preferBetter(f, sol)
	}
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[st.N][cyc[0].vi], err)
	}
	// Every vector of the positions under the profile chosen: unknown k·p + s holds seat s's
	// entries (from the mover of position k) of the nv vectors.
	eqs := make([]decayEq[T], L*p)
	for k := range cyc {
		ch := sol.ch[k]
		for s := range p {
			a := make([]T, w.nv)
			for v := range w.nv {
				a[v] = as[k][ch][v*p+s]
			}
			e := decayEq[T]{a: a}
			if b := bs[k][ch]; !f.IsZero(b) {
				e.to, e.coef = []int{((k+1)%L)*p + (s+p-1)%p}, []T{b}
			}
			eqs[k*p+s] = e
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[st.N][cyc[0].vi], err)
	}
	for k, ps := range cyc {
		c := w.atSeat(st.N, st.J, st.F, ps.q)
		for v := range w.nv {
			out := w.vec(c, ps.vi, v)
			for s := range p {
				out[s] = x[k*p+s][v]
			}
		}
		c.choice[ps.vi] = sol.ch[k]
		w.noteGap(st, ps, 0, sol.ch[k], sol.gain[k])
	}
	return nil
}

// choiceScores computes every legal choice's vectors (but a pass's) made by the mover, seat w.q,
// in st at standings vi, every successor read at its values (st itself too, when a forgotten card
// hands it to the next seat): w.acc[ch] holds them and w.choiceScore[ch] the scores. The cells are
// left as they are.
func (w *selfWin[T]) choiceScores(st rules.State, vi int) {
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		acc := w.acc[ch]
		if len(acc) != w.nv*w.p {
			acc = make([]T, w.nv*w.p)
			w.acc[ch] = acc
		}
		w.accumulate(st, vi, ch, acc)
		w.choiceScore[ch] = acc[:w.p]
	}
}

// SelfWinGaps lists, in the order of the sweep (n, then j, then the positions' cycles, every
// pass streak of a cycle under a pass rule), the positions with at most maxPairs pairs in which
// the win objective of every seat for itself at players seats (3 to 8) in model m (limited
// memory) selects no equilibrium in pure choices. Perfect memory has none: only a forgotten card
// makes a position refer to others.
func SelfWinGaps[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) ([]SelfWinGap[T], error) {
	if err := checkSelfWin(m, players); err != nil {
		return nil, err
	}
	w, err := newSelfWin(f, m, players, maxPairs, false)
	if err != nil {
		return nil, err
	}
	gaps := []SelfWinGap[T]{}
	w.gaps = &gaps
	if err := w.run(ctx, nil); err != nil {
		return nil, err
	}
	return gaps, nil
}

// followedAt returns the choice of the table the mover follows (w.follow, not nil) in st at
// standings vi: a standings table (win-optimal at every seat, which a win-best-response seat
// answers under limited memory) is read at the standings, any other at the count state.
func (w *selfWin[T]) followedAt(st rules.State, vi int) rules.Choice {
	if w.follow == nil {
		return w.followed
	}
	s := w.follow.Standings()
	if s == nil {
		return w.followed
	}
	pairs := pairsOfDeficits(w.valid[st.N][vi])
	c, _ := s.Lookup(st, pairs)
	return c
}

// winReplyLimited reports whether lineup mu has one seat of win-best-response against win-optimal
// at every other seat under limited memory: there win-optimal is a selected stationary
// equilibrium, which may have none in pure choices (SelfWinGaps), so the reply is solved as a
// reply to the win-optimal table at the other seats (a mixed lineup whose other seats follow it)
// rather than taken to be win-optimal itself, as it is with perfect memory. Under a turn limit
// in the standard game the values are backward induction over the turns left, so the reply is
// win-optimal itself there too (selfishwinlimitedlimit.go).
func winReplyLimited(m Model, mu Lineup) bool {
	if m.Memory.Perfect() || mu.Players < 3 || !everyWinOptimal(mu) || isSelfWinLimit(m, mu) {
		return false
	}
	for _, p := range mu.SeatPolicies() {
		if p == rules.PolicyWinBestResponse {
			return true
		}
	}
	return false
}

// pairsOfDeficits returns seats' pairs whose deficits behind the most (rules.Deficits) are d: the
// seats with the most hold their deficit's largest, the others as many fewer; any standings with
// those deficits choose alike, as a standings table reads the deficits only.
func pairsOfDeficits(d []int) []int {
	top := 0
	for _, x := range d {
		top = max(top, x)
	}
	pairs := make([]int, len(d))
	for i, x := range d {
		pairs[i] = top - x
	}
	return pairs
}

// noteGap records, when the gaps are collected, the position ps in count state st at pass streak
// k where the mover's choice ch is no equilibrium: a deviation gains gain > 0.
func (w *selfWin[T]) noteGap(st rules.State, ps winPos, k int, ch rules.Choice, gain T) {
	if w.gaps != nil && w.f.Cmp(gain, w.zero) > 0 {
		*w.gaps = append(*w.gaps, SelfWinGap[T]{State: st, Deficits: append([]int(nil), w.valid[st.N][ps.vi]...),
			Seat: ps.q, Passes: k, Choice: ch, Gain: gain})
	}
}
