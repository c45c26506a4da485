package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective with every seat for itself at three or more seats (docs/models.md §4.7, "Win
// objective"). Every seat's score is P(it ends with the most pairs), a k-way tie for the most
// giving each of the k seats 1/k, so the scores of a game sum to 1. The mover maximises its own
// score, and so does every seat when it moves; the values of a state are vectors of p scores in
// order from the mover. They depend on the count state and on the standings, every seat's
// deficit to the most pairs so far (rules.Deficits: p numbers, one of them 0, each capped at
// n + 1, beyond which a seat can no longer reach the most). With perfect memory and pass rule
// never no state refers to itself, so the values are plain backward induction: the mover takes
// the first choice with the largest own score in the order daring, safe, known-first, the
// subgame-perfect equilibrium of the game. Under lru and handover-uniform a forgotten card links
// the standings of a count state in cycles, each solved for a selected stationary equilibrium
// (selfishwinlimited.go; under a pass rule with the pass streak, selfishwinlimitedpass.go).

// selfWinVectors are the vectors a sweep of the win objective keeps per state and standings:
// the scores, and, for an evaluation, every seat's expected pairs still to take and its
// probabilities of ending alone with the most (win) and tied for the most (draw).
const (
	swScore = iota
	swPairs
	swWin
	swDraw
	swVectors
)

// selfWinCell holds one count state's values at every standings, numbered by their place vi in
// selfWin.valid:
// vals[(i*nv + v)*p + s] is seat s's entry of vector v, and choice[i] the mover's choice.
type selfWinCell[T any] struct {
	vals   []T
	choice []rules.Choice
}

// selfWin sweeps the count states of a perfect-memory model by increasing n, each at every
// standings of its seats.
type selfWin[T any] struct {
	f field.Field[T]
	// ctx, when not nil, stops a sweep between the cycles of a row (eachCycle) as well as
	// between rows: a row at many seats holds many standings.
	ctx      context.Context
	m        Model
	p        int
	nv       int // vectors kept: 1 (scores) or swVectors (an evaluation)
	maxPairs int
	stride   int
	// rows holds the cells of the last two deal sizes, n at n % 2, or of the last three under
	// blind flips (a turn can then hand the next seat two pairs known whole), n at n % 3.
	rows [3][]selfWinCell[T]
	// valid[n] lists the standings with n pairs left (at least one deficit 0), each p digits, and
	// place[n][rules.StandingsIndex(d, n)] is the place of d in valid[n].
	valid [][][]int
	place [][]int32

	legal     [rules.NumChoices]bool
	outs      [rules.NumChoices][]Outcome
	probs     [rules.NumChoices][]T
	zero, one T
	shares    []T // shares[k] = 1/k
	ints      []T // small integers: the pairs an outcome takes
	// choiceScore holds, after a state's standings are computed, each legal choice's score vector
	// for the last standings swept (choiceScores asks for it).
	choiceScore [rules.NumChoices][]T
	keepChoices bool
	// follow, when not nil, is the choice of every seat in each count state (a policy that
	// ignores the standings), in place of the mover's largest score; followed is its choice in
	// the state being swept.
	follow   *rules.ChoiceTable
	followed rules.Choice
	// seatTab, when not nil, is a lineup that mixes win-optimal with other policies
	// (selfishwinmixed.go): seatTab[q] is the table seat q follows, nil where it plays
	// win-optimal. The state then holds the mover's seat q (nq = p of them; otherwise nq = 1).
	seatTab []*rules.ChoiceTable
	nq, q   int
	// acc holds each choice's vectors while a standings is computed.
	acc [rules.NumChoices][]T
	// succ[k][vi] is the successor's standings index of standings vi of row succN after an
	// outcome of kind k (outcomeKind).
	succ  [8][]int
	succN int
	// pass, under a pass rule other than never, holds the pass streak levels of the state being
	// swept (selfishwinpass.go).
	pass *selfWinPass[T]
	// gaps, when not nil, collects the positions without an equilibrium in pure choices under
	// limited memory (selfishwinlimited.go).
	gaps *[]SelfWinGap[T]
	// decay, under decay forgetting, gives the hand-overs' outcomes; each row of n pairs is then
	// solved at once (selfishwindecay.go).
	decay *decayHand[T]
	// decayPass, under decay forgetting and a pass rule, holds the pass levels of every count
	// state of the last row solved, by decayPlace (selfishwindecaypass.go); pass points to the
	// one of the state being visited.
	decayPass []*selfWinPass[T]
}

// checkSelfWin reports whether model m and p seats have the win objective of every seat for itself.
func checkSelfWin(m Model, p int) error {
	if p < 3 || p > rules.MaxPlayers {
		return fmt.Errorf("players %d: the win objective of every seat for itself needs 3 to %d seats (2 seats: the two-player win objective)", p, rules.MaxPlayers)
	}
	return checkSelfWinModel(m, p)
}

// checkSelfWinModel reports whether model m has the win objective of every seat for itself.
func checkSelfWinModel(m Model, p int) error {
	switch {
	case m.Memory.Scope != rules.ScopeShared && !m.Memory.Perfect():
		return fmt.Errorf("memory %s: the win objective at %d seats is solved with a shared memory", m.Memory, p)
	case m.Variant.TurnLimit > 0 && checkSelfWinLimitMemory(m.Memory, p) != nil:
		return checkSelfWinLimitMemory(m.Memory, p)
	case m.Memory.Fluctuation > 0:
		return fmt.Errorf("memory %s: the win objective at %d seats under a fluctuating capacity gives the values, not this computation (exact.FluctSelfWinTables has its choices)", m.Memory, p)
	case m.Variant.TurnLimit > 0 && m.Variant.CopiesOf() == rules.DefaultCopies:
		return fmt.Errorf("turn limit %d: the win objective at %d seats under a turn limit gives values, choices' values and the engine's tables (a layer per turn left), not a table of every state", m.Variant.TurnLimit, p)
	case !m.Variant.Standard() && !blindOnly(m.Variant):
		return fmt.Errorf("variant %s: the win objective at %d seats with copies of a face is the copies model's computation (exact.EvaluateCopiesSelfWin, CopiesSelfWinPolicyTable), not this one", m.Variant, p)
	}
	return m.Validate()
}

// newSelfWin returns a sweep of the win objective of p seats (the callers check p: two seats
// give the two-player win objective, which tests compare) up to maxPairs pairs; eval keeps every
// vector of an evaluation besides the scores.
func newSelfWin[T any](f field.Field[T], m Model, p, maxPairs int, eval bool) (*selfWin[T], error) {
	if err := checkSelfWinModel(m, p); err != nil {
		return nil, err
	}
	return buildSelfWin(f, m, p, maxPairs, eval)
}

// buildSelfWin is newSelfWin without the check of the model (the sweep under a turn limit,
// selfishwinlimit.go, checks its own).
func buildSelfWin[T any](f field.Field[T], m Model, p, maxPairs int, eval bool) (*selfWin[T], error) {
	if maxPairs < 0 {
		return nil, fmt.Errorf("pairs %d: must not be negative", maxPairs)
	}
	w := &selfWin[T]{f: f, m: m, p: p, nv: 1, nq: 1, succN: -1, maxPairs: maxPairs, stride: m.Singletons + 1, zero: f.FromInt(0), one: f.FromInt(1)}
	if eval {
		w.nv = swVectors
	}
	for i := range 3 {
		w.ints = append(w.ints, f.FromInt(int64(i)))
	}
	w.shares = []T{w.zero}
	for k := 1; k <= p; k++ {
		w.shares = append(w.shares, f.FromFrac(1, int64(k)))
	}
	if m.Pass != rules.PassNever {
		w.pass = &selfWinPass[T]{}
	}
	if m.isDecay() {
		h, err := newDecayHand(f, m.Memory, maxPairs)
		if err != nil {
			return nil, err
		}
		w.decay = h
	}
	w.valid, w.place = make([][][]int, maxPairs+1), make([][]int32, maxPairs+1)
	for n := range w.valid {
		w.valid[n] = validStandings(p, n)
		w.place[n] = make([]int32, rules.StandingsCount(p, n))
		for vi, d := range w.valid[n] {
			w.place[n][rules.StandingsIndex(d, n)] = int32(vi)
		}
	}
	return w, nil
}

// allocRows makes the rows of cells (two, or three under blind flips): every count state for
// each mover's seat.
func (w *selfWin[T]) allocRows() {
	for r := range w.rows {
		w.rows[r] = nil
		if r < 2 || w.m.Variant.Flips == rules.FlipsBlind {
			w.rows[r] = make([]selfWinCell[T], w.nq*(w.maxPairs+1)*w.stride)
		}
	}
}

// row returns the row that holds the count states with n pairs.
func (w *selfWin[T]) row(n int) int {
	if w.m.Variant.Flips == rules.FlipsBlind {
		return n % 3
	}
	return n & 1
}

// validStandings lists the standings of p seats with n pairs left: deficits 0 .. n + 1, at least
// one 0, in order of their index.
func validStandings(p, n int) [][]int {
	var out [][]int
	d := make([]int, p)
	for i := range rules.StandingsCount(p, n) {
		x, zero := i, false
		for s := range d {
			d[s] = x % (n + 2)
			x /= n + 2
			zero = zero || d[s] == 0
		}
		if zero {
			out = append(out, append([]int(nil), d...))
		}
	}
	return out
}

// at returns the cell of count state (n, j, f) with the current mover's seat w.q.
func (w *selfWin[T]) at(n, j, fu int) *selfWinCell[T] {
	return w.atSeat(n, j, fu, w.q)
}

// atSeat returns the cell of count state (n, j, f) with seat q to move.
func (w *selfWin[T]) atSeat(n, j, fu, q int) *selfWinCell[T] {
	return &w.rows[w.row(n)][(q*(w.maxPairs+1)+j)*w.stride+fu]
}

// seat makes seat q the mover of count state st (whose outcomes are set): in a mixed lineup,
// it follows its table, or none when it plays win-optimal.
func (w *selfWin[T]) seat(st rules.State, q int) {
	w.q = q
	if w.seatTab != nil {
		w.follow = w.seatTab[q]
	}
	if w.follow != nil {
		w.followed, _ = w.follow.Lookup(st, false)
	}
}

// run sweeps every count state with at most maxPairs pairs in dependency order, calling visit
// (when not nil) after each.
func (w *selfWin[T]) run(ctx context.Context, visit func(st rules.State) error) error {
	w.ctx = ctx
	done := ctx.Done()
	prog := progressOf(ctx)
	s := w.m.Singletons
	w.allocRows()
	for n := 0; n <= w.maxPairs; n++ {
		rowDone := w.decay != nil && n > 0
		if rowDone {
			if err := w.decayRow(n); err != nil { // selfishwindecay.go
				return fmt.Errorf("%d pairs: %w", n, err)
			}
		}
		for j := 0; j <= n; j++ {
			select {
			case <-done:
				return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
			default:
			}
			for fu := 0; fu <= s; fu++ {
				st := rules.State{N: n, J: j, S: s, F: fu}
				if !w.m.Memory.Holds(st.Known()) {
					continue
				}
				if rowDone {
					w.outcomes(st)
					if w.decayPass != nil {
						w.pass = w.decayPass[w.decayPlace(st)]
					}
				} else if err := w.state(st); err != nil {
					return fmt.Errorf("%d pairs, %d unknown: %w", n, j, err)
				}
				if visit != nil {
					if err := visit(st); err != nil {
						return err
					}
				}
			}
		}
		prog.add(float64(w.nq) * selfWinRowOps(w.p, n, s))
	}
	return nil
}

// alloc makes a cell's slices for n pairs, once per row.
func (w *selfWin[T]) alloc(c *selfWinCell[T], n int) {
	k := len(w.valid[n])
	if len(c.choice) != k {
		c.vals, c.choice = make([]T, k*w.nv*w.p), make([]rules.Choice, k)
	}
}

// vec returns vector v of standings index i in c.
func (w *selfWin[T]) vec(c *selfWinCell[T], i, v int) []T {
	o := (i*w.nv + v) * w.p
	return c.vals[o : o+w.p]
}

// terminal sets the values of the end of the game: the seats level with the most share the score.
func (w *selfWin[T]) terminal(c *selfWinCell[T]) {
	for i, d := range w.valid[0] {
		top := 0
		for _, x := range d {
			if x == 0 {
				top++
			}
		}
		for v := range w.nv {
			out := w.vec(c, i, v)
			for s, x := range d {
				out[s] = w.zero
				if x != 0 {
					continue
				}
				switch v {
				case swScore:
					out[s] = w.shares[top]
				case swWin:
					if top == 1 {
						out[s] = w.one
					}
				case swDraw:
					if top > 1 {
						out[s] = w.one
					}
				}
			}
		}
		c.choice[i] = rules.Daring
	}
}

// state computes the count state st at every standings, with each mover's seat.
func (w *selfWin[T]) state(st rules.State) error {
	if st.N > 0 {
		w.outcomes(st)
		if w.pass != nil && w.refersToItself(st) {
			return w.stateCyclesPass(st) // selfishwinlimitedpass.go
		}
		if w.pass != nil {
			w.statePass(st) // selfishwinpass.go
			return nil
		}
		if w.refersToItself(st) {
			return w.stateCycles(st) // selfishwinlimited.go
		}
	}
	for q := range w.nq {
		w.seat(st, q)
		c := w.at(st.N, st.J, st.F)
		w.alloc(c, st.N)
		if st.N == 0 {
			w.terminal(c)
			continue
		}
		for vi := range w.valid[st.N] {
			w.standings(st, c, vi)
		}
	}
	return nil
}

// outcomes sets the legal choices of st and their outcomes, and the choice of the policy followed
// (seat 0's in a mixed lineup).
func (w *selfWin[T]) outcomes(st rules.State) {
	w.seat(st, 0)
	if w.decay != nil {
		w.decayOutcomesOf(st) // selfishwindecay.go
		return
	}
	for _, ch := range rules.Choices() {
		w.legal[ch] = w.m.Legal(st, ch)
		w.outs[ch], w.probs[ch] = w.outs[ch][:0], w.probs[ch][:0]
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		w.outs[ch] = w.m.Outcomes(st, ch, w.outs[ch])
		for _, o := range w.outs[ch] {
			w.probs[ch] = append(w.probs[ch], w.f.FromFrac(o.Prob.Num, o.Prob.Den))
		}
	}
}

// outcomeKind numbers how an outcome moves the standings: whether the mover continues, the pairs
// taken (by the mover, or by the next seat first) and the pairs the outcome removes.
func outcomeKind(st rules.State, o Outcome) int {
	k := (st.N - o.Next.N) * 2
	if o.Continue {
		return 4 + k + o.MoverGain&1
	}
	return k + o.NextGain&1
}

// successor returns the place in the outcome's successor of the standings w.valid[n][vi]
// of a state with n pairs, for an outcome of kind k (outcomeKind), computed once per row.
func (w *selfWin[T]) successor(n, vi int, o Outcome, k int) int {
	if w.succN != n {
		w.succN = n
		for i := range w.succ {
			w.succ[i] = w.succ[i][:0]
		}
	}
	if len(w.succ[k]) == 0 {
		d := make([]int, w.p)
		for _, v := range w.valid[n] {
			// The seats' pairs relative to the most, after the outcome, in order from the seat
			// that moves next.
			for s := range d {
				d[s] = -v[s]
			}
			rot := 0
			if o.Continue {
				d[0] += o.MoverGain
			} else {
				d[1] += o.NextGain
				rot = 1
			}
			if rot == 1 {
				first := d[0]
				copy(d, d[1:])
				d[w.p-1] = first
			}
			rules.Deficits(d, d, o.Next.N)
			w.succ[k] = append(w.succ[k], int(w.place[o.Next.N][rules.StandingsIndex(d, o.Next.N)]))
		}
	}
	return w.succ[k][vi]
}

// standings computes the values of st at the standings w.valid[st.N][vi]: every legal choice's
// vectors, the mover taking the first with the largest own score.
func (w *selfWin[T]) standings(st rules.State, c *selfWinCell[T], vi int) {
	f, p := w.f, w.p
	i := vi
	var best []T
	bestCh := rules.Daring
	followed := w.followedAt(st, vi)
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass || (w.follow != nil && !w.keepChoices && ch != followed) {
			continue
		}
		acc := w.acc[ch]
		if len(acc) != w.nv*p {
			acc = make([]T, w.nv*p)
			w.acc[ch] = acc
		}
		w.accumulate(st, vi, ch, acc)
		if w.keepChoices {
			w.choiceScore[ch] = acc[:p]
		}
		switch {
		case w.follow != nil:
			if ch == followed {
				best, bestCh = acc, ch
			}
		case best == nil || f.Cmp(acc[0], best[0]) > 0:
			best, bestCh = acc, ch
		}
	}
	copy(c.vals[i*w.nv*p:(i+1)*w.nv*p], best)
	c.choice[i] = bestCh
}

// accumulate writes into acc (nv·p entries) the vectors of choice ch (not a pass) made by the
// mover, seat w.q, in st at the standings w.valid[st.N][vi], each successor read at its own values.
func (w *selfWin[T]) accumulate(st rules.State, vi int, ch rules.Choice, acc []T) {
	for k := range acc {
		acc[k] = w.zero
	}
	for k, o := range w.outs[ch] {
		w.addOutcome(st, vi, o, w.probs[ch][k], acc)
	}
}

// addOutcome adds to acc (nv·p entries) outcome o of a choice made by the mover, seat w.q, in st
// at the standings w.valid[st.N][vi], of probability pr: its successor's vectors, turned to the
// mover's seat, with the pairs the outcome takes.
func (w *selfWin[T]) addOutcome(st rules.State, vi int, o Outcome, pr T, acc []T) {
	si := w.successor(st.N, vi, o, outcomeKind(st, o))
	q := w.q
	if !o.Continue {
		q = (w.q + 1) % w.nq
	}
	sc := w.atSeat(o.Next.N, o.Next.J, o.Next.F, q)
	gain := o.NextGain
	if o.Continue {
		gain = o.MoverGain
	}
	w.addTurned(acc, pr, o.Continue, gain, func(v int) []T { return w.vec(sc, si, v) })
}

// addTurned adds to acc (nv·p entries, from the mover's seat) pr times the successor's vectors
// src(v) (p entries each, from the seat that moves there): turned by a seat when the turn hands
// over (goOn false), with the pairs gain the outcome takes added to the pairs of the seat that
// takes them (the mover when it goes on, the next seat when the turn hands over).
func (w *selfWin[T]) addTurned(acc []T, pr T, goOn bool, gain int, src func(v int) []T) {
	f, p := w.f, w.p
	rot, taker := 1, 1
	if goOn {
		rot, taker = 0, 0
	}
	for v := range w.nv {
		vec := src(v)
		for s := range p {
			x := vec[(s+p-rot)%p]
			if v == swPairs && s == taker && gain != 0 {
				x = f.Add(x, w.ints[gain])
			}
			acc[v*p+s] = f.Add(acc[v*p+s], f.Mul(pr, x))
		}
	}
}

// selfWinRowOps is the work of the row of count states with n pairs: every count state at every
// standings index, a unit per seat.
func selfWinRowOps(p, n, s int) float64 {
	return float64(n+1) * float64(s+1) * float64(rules.StandingsCount(p, n)) * float64(p)
}

// SelfWinValues are every seat's values under the win objective of every seat for itself, seat
// 0 (the mover) first: Score its P(most pairs at the end), a tie for the most shared equally
// (summing to 1); Win its probability of ending alone with the most, Draw tied for the most;
// Pairs its expected pairs of those still on the table.
type SelfWinValues[T any] struct {
	Score, Win, Draw, Pairs []T
}

// SelfWinResult is the value of the win objective of every seat for itself from one state.
type SelfWinResult[T any] struct {
	State rules.State
	// Standings gives every seat's pairs so far, the mover (seat 0) first.
	Standings []int
	// SelfWinValues are the values with every seat playing the objective.
	SelfWinValues[T]
	// Choice is the mover's choice; Legal says which choices are open, and Choices gives the
	// values of each legal one made now, the objective played afterwards (nil for the others).
	Choice  rules.Choice
	Legal   [rules.NumChoices]bool
	Choices [rules.NumChoices]*SelfWinValues[T]
}

// valuesOf returns the vectors of an evaluation held in vals (swVectors vectors of p entries).
func valuesOf[T any](vals []T, p int) *SelfWinValues[T] {
	vec := func(v int) []T { return append([]T(nil), vals[v*p:(v+1)*p]...) }
	return &SelfWinValues[T]{Score: vec(swScore), Win: vec(swWin), Draw: vec(swDraw), Pairs: vec(swPairs)}
}

// EvaluateSelfWin returns the values of the win objective of every seat for itself at players
// seats (3 to 8) in model m (perfect memory under every pass rule, lru and handover-uniform under
// pass rule never, and a fluctuating capacity under every pass rule, whose result holds the values
// only: the mover's choice depends on the capacity drawn; the standard game) from state st,
// seat s (in order from the mover) having taken standings[s] pairs so far (nil: none yet).
func EvaluateSelfWin[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int) (SelfWinResult[T], error) {
	if m.Memory.Fluctuation > 0 {
		return evaluateFluctSelfWin(ctx, f, m, players, st, standings) // fluctselfwin.go
	}
	if m.Variant.TurnLimit > 0 && m.Variant.CopiesOf() == rules.DefaultCopies && players >= 3 && players <= rules.MaxPlayers {
		return evaluateSelfWinLimit(ctx, f, m, players, st, standings, nil, nil) // selfishwinlimit.go
	}
	if err := checkSelfWin(m, players); err != nil {
		return SelfWinResult[T]{}, err
	}
	return evaluateSelfWin(ctx, f, m, players, st, standings, nil, nil)
}

// EvaluateStandings returns, for a lineup of three or more seats, every seat's values from state
// st (under blind flips with perfect memory from any state: the copies model solves the start of
// a game, the count states the others), seat s (in order from the mover) having taken standings[s] pairs so far (nil: none yet):
// with every seat playing win-optimal, EvaluateSelfWin itself; otherwise each seat plays its own
// policy, one of win-optimal (maximising its own P(most pairs) against the others' play; at one
// seat, win-best-response the same), optimal (the optimum of every seat for itself in expected pairs, §4.7), safe, daring or parity,
// and Score is every seat's P(most pairs) under that play. Choice is the mover's.
func EvaluateStandings[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	if isCopiesSelfWin(m, mu) && !(blindOnly(m.Variant) && st.J != st.N) {
		return evaluateCopiesSelfWinStart(ctx, f, m, mu, st, standings) // copiesselfwin.go
	}
	if mu.Players < 3 || mu.Table != nil || mu.OpponentTable != nil || mu.TwoPlayerOptimal {
		return res, fmt.Errorf("players %d: every seat's standings are solved for 3 to %d seats, each playing win-optimal, optimal, safe, daring or parity", mu.Players, rules.MaxPlayers)
	}
	if m.Memory.Fluctuation > 0 {
		if err := checkFluctSelfWin(m, mu); err != nil {
			return res, err
		}
		return evaluateFluctSelfWinLineupAt(ctx, f, m, mu, st, standings) // fluctselfwinmixed.go
	}
	pol := mu.SeatPolicies()
	same := true
	for i, p := range pol {
		if !p.PlaysToWin() && p != rules.PolicyOptimal && !p.Fixed() {
			return res, fmt.Errorf("seat %d: policy %s: every seat's standings are solved for win-optimal, win-best-response, optimal, safe, daring or parity", i, p)
		}
		same = same && p == pol[0]
	}
	if m.Variant.TurnLimit > 0 && m.Variant.CopiesOf() == rules.DefaultCopies {
		if err := mu.Validate(m); err != nil {
			return res, err
		}
		return evaluateStandingsLimit(ctx, f, m, mu, st, standings) // selfishwinlimit.go
	}
	if everyWinOptimal(mu) && !winReplyLimited(m, mu) {
		return EvaluateSelfWin(ctx, f, m, mu.Players, st, standings)
	}
	if err := checkSelfWin(m, mu.Players); err != nil {
		return res, err
	}
	if err := mu.Validate(m); err != nil {
		return res, err
	}
	if st.N < 1 {
		return res, fmt.Errorf("pairs %d: must be at least 1", st.N)
	}
	if !same || winReplyLimited(m, mu) {
		seats, err := mixedSeatTables(ctx, f, m, mu, st.N)
		if err != nil {
			return res, err
		}
		return evaluateSelfWin(ctx, f, m, mu.Players, st, standings, nil, seats)
	}
	tab, err := PolicyTable(ctx, f, m, mu, st.N)
	if err != nil {
		return res, err
	}
	return evaluateSelfWin(ctx, f, m, mu.Players, st, standings, tab, nil)
}

// evaluateSelfWin is EvaluateSelfWin without the check of the number of seats, every seat
// following the table follow when it is not nil, or seat q the table seats[q] when seats is not
// nil (nil where it plays win-optimal; selfishwinmixed.go).
func evaluateSelfWin[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int, follow *rules.ChoiceTable, seats []*rules.ChoiceTable) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	standings, err := checkStart(m, players, st, standings)
	if err != nil {
		return res, err
	}
	w, err := newSelfWin(f, m, players, st.N, true)
	if err != nil {
		return res, err
	}
	w.follow = follow
	if seats != nil {
		w.seatTab, w.nq = seats, players
	}
	if err := w.run(ctx, nil); err != nil {
		return res, err
	}
	w.q = 0 // seat 0 moves in st
	d := make([]int, players)
	rules.Deficits(d, standings, st.N)
	c, i := w.at(st.N, st.J, st.F), int(w.place[st.N][rules.StandingsIndex(d, st.N)])
	res = SelfWinResult[T]{State: st, Standings: append([]int(nil), standings...), Choice: c.choice[i]}
	res.SelfWinValues = *valuesOf(c.vals[i*w.nv*players:(i+1)*w.nv*players], players)
	if st.N == 0 {
		return res, nil
	}
	// Every legal choice's values: the state's standings once more, keeping every choice's.
	w.outcomes(st)
	if w.pass != nil {
		w.evaluatePassChoices(st, i, &res) // selfishwinpass.go
		return res, nil
	}
	w.choiceScores(st, i)
	res.Legal = w.legal
	for _, ch := range rules.Choices() {
		if w.legal[ch] && ch != rules.Pass {
			res.Choices[ch] = valuesOf(w.acc[ch], players)
		}
	}
	return res, nil
}

// SelfWinCell is one state of the table of the win objective of every seat for itself: a count
// state at one standings.
type SelfWinCell[T any] struct {
	State rules.State
	// Deficits are the standings: every seat's deficit to the most pairs, in order from the mover.
	Deficits []int
	// Passes is the pass streak, the seats that passed in a row just before (0 under pass rule
	// never).
	Passes int
	// Score is every seat's score (P(most pairs), ties shared) in order from the mover, every seat
	// playing the objective; Choice is the mover's choice, Best every choice as good for it.
	Score  []T
	Choice rules.Choice
	Best   []rules.Choice
	// Legal says which choices are open; ChoiceScore gives each legal choice's score for the
	// mover, the choice made here and the objective played afterwards.
	Legal       [rules.NumChoices]bool
	ChoiceScore [rules.NumChoices]T
}

// SelfWinTable computes the table of the win objective of every seat for itself at players seats
// in model m, for every state with at most maxPairs pairs and at least one pair and every
// standings (rules.Deficits), calling visit for each in order of n, then j, then f, then the
// standings index. The cell passed to visit is reused.
func SelfWinTable[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int, visit func(*SelfWinCell[T]) error) error {
	if maxPairs < 1 {
		return fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if err := checkSelfWin(m, players); err != nil {
		return err
	}
	return selfWinTable(ctx, f, m, players, maxPairs, visit)
}

// selfWinTable is SelfWinTable without the checks of the number of seats and pairs.
func selfWinTable[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int, visit func(*SelfWinCell[T]) error) error {
	w, err := newSelfWin(f, m, players, maxPairs, false)
	if err != nil {
		return err
	}
	w.keepChoices = true
	var sc SelfWinCell[T]
	return w.run(ctx, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		if w.pass != nil {
			return w.visitPass(st, &sc, visit) // selfishwinpass.go
		}
		c := w.at(st.N, st.J, st.F)
		for vi, d := range w.valid[st.N] {
			// Read every choice's score once more (the sweep kept the mover's only).
			w.choiceScores(st, vi)
			i := vi
			sc.State, sc.Deficits, sc.Legal = st, d, w.legal
			sc.Score, sc.Choice = w.vec(c, i, swScore), c.choice[i]
			sc.Best = sc.Best[:0]
			for _, ch := range rules.Choices() {
				if !w.legal[ch] || ch == rules.Pass {
					continue
				}
				sc.ChoiceScore[ch] = w.choiceScore[ch][0]
				if f.Cmp(sc.ChoiceScore[ch], sc.Score[0]) == 0 {
					sc.Best = append(sc.Best, ch)
				}
			}
			if err := visit(&sc); err != nil {
				return err
			}
		}
		return nil
	})
}

// SelfWinPolicyTable writes out the choices of the win objective of every seat for itself at
// players seats in model m for every state with at most maxPairs pairs and every standings, for
// a card-level player.
func SelfWinPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) (*rules.ChoiceTable, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if m.Variant.TurnLimit > 0 && m.Variant.CopiesOf() == rules.DefaultCopies && players >= 3 && players <= rules.MaxPlayers {
		return selfWinLimitPolicyTable(ctx, f, m, Lineup{Players: players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, maxPairs)
	}
	if err := checkSelfWin(m, players); err != nil {
		return nil, err
	}
	w, err := newSelfWin(f, m, players, maxPairs, false)
	if err != nil {
		return nil, err
	}
	return w.standingsTable(ctx, players, maxPairs, m.Singletons)
}

// standingsTable runs the sweep and writes out seat 0's choice, seat 0 to move, in every state
// with at most maxPairs pairs (and singletons singletons) and every standings.
func (w *selfWin[T]) standingsTable(ctx context.Context, players, maxPairs, singletons int) (*rules.ChoiceTable, error) {
	t, err := rules.NewStandingsTable(players, maxPairs, singletons)
	if w.pass != nil {
		t, err = rules.NewStandingsPassTable(players, maxPairs, singletons)
	}
	if err != nil {
		return nil, err
	}
	err = w.run(ctx, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		if w.pass != nil {
			w.setPassChoices(t, st) // selfishwinpass.go
			return nil
		}
		c := w.atSeat(st.N, st.J, st.F, 0)
		for vi, d := range w.valid[st.N] {
			t.Set(st, d, c.choice[vi])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rules.NewStandingsChoiceTable(t)
}

// SelfWinRationalLimit is the largest deal size for which memsim solves the win objective at
// three or more seats in exact rationals when it needs a whole table or a tournament's exact
// values: the standings multiply the count states by about p·(n + 2)^(p-1), so larger tables are
// computed in float64, and tournaments report exact values of such matchups up to this size.
const SelfWinRationalLimit = 8

// SelfWinTableOps bounds the work of a table of the win objective at three or more seats that a
// player can play (SelfWinTableLimit): about a second in float64, the table of three seats up to
// 41 pairs, four up to 17, five up to 9.
const SelfWinTableOps = 2.5e7

// SelfWinTableLimit returns the largest deal size a player of win-optimal at players seats (3 or
// more) can play: the largest whose table's work (EstimateSelfWin) is at most SelfWinTableOps.
func SelfWinTableLimit(players int) int {
	n := 0
	for n < WinTableLimit && selfWinOps(players, n+1, 0, false, false) <= SelfWinTableOps {
		n++
	}
	return n
}

// isSelfWin reports whether a lineup of three or more seats plays the win objective of every
// seat for itself: a seat plays to win (every seat win-optimal, or a mixed lineup,
// selfishwinmixed.go).
func isSelfWin(mu Lineup) bool {
	if mu.Players < 3 {
		return false
	}
	for _, p := range mu.SeatPolicies() {
		if p.PlaysToWin() {
			return true
		}
	}
	return false
}

// validateSelfWin is Lineup.Validate for a lineup of three or more seats in which a seat plays
// to win: every seat plays win-optimal (one may play win-best-response, the same play), or the
// lineup mixes win-optimal, or one seat of win-best-response, with optimal and fixed policies
// (validateMixedSeats), in a model the win objective of every seat for itself covers.
func (mu Lineup) validateSelfWin(m Model) error {
	if isCopiesSelfWin(m, mu) {
		return checkCopiesSelfWin(m, mu) // copiesselfwin.go
	}
	if err := mu.checkWinReply(); err != nil {
		return err
	}
	mixed := selfWinMixed(mu)
	switch {
	case !mixed && !everyWinOptimal(mu):
		return fmt.Errorf("policies %s and %s: with %d players a policy that plays to win is solved with every seat playing win-optimal", mu.Policy, mu.Opponent, mu.Players)
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("win-optimal with %d players is not combined with tables", mu.Players)
	case mu.TwoPlayerOptimal:
		return fmt.Errorf("win-optimal with %d players has no two-player table to play", mu.Players)
	}
	if err := m.Choices.Validate(); err != nil {
		return err
	}
	if mixed {
		if err := mu.validateMixedSeats(m); err != nil {
			return err
		}
	} else if err := mu.Policy.CheckChoices(m.Choices); err != nil {
		return err
	}
	if isSelfWinLimit(m, mu) {
		return checkSelfWinLimitModel(m, mu.Players) // selfishwinlimit.go
	}
	return checkSelfWinModel(m, mu.Players)
}

// evaluateSelfWinLineup is Evaluate for a lineup of win-optimal at three or more seats, from no
// pairs taken yet.
func evaluateSelfWinLineup[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if isCopiesSelfWin(m, mu) {
		return evaluateCopiesSelfWinLineup(ctx, f, m, mu, st) // copiesselfwin.go
	}
	if err := mu.Validate(m); err != nil {
		return Result[T]{}, err
	}
	if isSelfWinLimit(m, mu) {
		r, err := evaluateStandingsLimit(ctx, f, m, mu, st.Counts(), nil) // selfishwinlimit.go
		if err != nil {
			return Result[T]{}, err
		}
		return Result[T]{State: st, Players: mu.Players, ExpectedPairs: r.Pairs[0], PairsBySeat: r.Pairs, ScoreBySeat: r.Score}, nil
	}
	var seats []*rules.ChoiceTable
	if selfWinMixed(mu) || winReplyLimited(m, mu) {
		var err error
		if seats, err = mixedSeatTables(ctx, f, m, mu, st.N); err != nil {
			return Result[T]{}, err
		}
	}
	r, err := evaluateSelfWin(ctx, f, m, mu.Players, st.Counts(), nil, nil, seats)
	if err != nil {
		return Result[T]{}, err
	}
	return Result[T]{State: st, Players: mu.Players, ExpectedPairs: r.Pairs[0], PairsBySeat: r.Pairs, ScoreBySeat: r.Score}, nil
}

// selfWinOps returns the estimated operations of a sweep of the win objective at p seats up to n
// pairs with s singletons (see Estimate): every count state at every standings, each legal
// choice's outcomes times the vectors kept, weighted in exact rationals by the size of the
// numbers. Over float64 and exact runs of 3 and 4 seats (8 to 40 pairs) it is 0.8 to 1.6 times
// the CPU time measured.
func selfWinOps(p, n, s int, exact, eval bool) float64 {
	vectors := 1.0
	if eval {
		vectors = swVectors
	}
	ops := 0.0
	for k := 0; k <= n; k++ {
		standings := float64(rules.StandingsCount(p, k) - rules.StandingsCount(p, k-1))
		w := 1.0
		if exact {
			w = selfWinRational * float64(k+1)
		}
		ops += float64(k+1) * float64(s+1) * standings * (opsSelfWin + vectors*float64(p)*opsSelfWinEntry) * w
	}
	return ops
}

// The work of one standings of a state of the win objective at three or more seats, measured
// (see Estimate; docs/performance.md, "The win objective at three or more seats"): a base, and
// one entry of a vector (every choice's outcomes), in float64; exact rationals weigh an operation
// of a state of n pairs selfWinRational·(n + 1) times (the fractions grow with n).
const (
	opsSelfWin      = 5
	opsSelfWinEntry = 1.5
	selfWinRational = 9
)

// estimateSelfWin returns the cost of a call for a lineup of win-optimal at three or more seats.
func estimateSelfWin[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if err := mu.Validate(m); err != nil {
		return Cost{}, err
	}
	_, exact := any(f).(field.Rat)
	var eval bool
	switch call {
	case CallEvaluate:
		eval = true
	case CallPolicyTable:
	default:
		return Cost{}, fmt.Errorf("players %d: win-optimal at three or more seats gives values and tables, not this computation", mu.Players)
	}
	c := Cost{Ops: selfWinOps(mu.Players, pairs, m.Singletons, exact, eval)}
	decayLimit := m.isDecay() && m.Variant.TurnLimit > 0
	switch {
	case decayLimit:
		// Times the limit below.
		c.Ops = selfWinDecayLimitOps(mu.Players, pairs, 1, exact, eval) // selfishwinlimitdecay.go
	case m.isDecay():
		c.Ops = selfWinDecayOps(mu.Players, pairs, exact, eval) // selfishwindecay.go
	}
	switch {
	case m.Pass != rules.PassNever && m.isDecay() && !decayLimit:
		c.Ops *= selfWinDecayPassWork(mu.Players, exact) // selfishwindecaypass.go
	case m.Pass != rules.PassNever:
		c.Ops *= selfWinPassWork // selfishwinpass.go
	}
	// Two rows of values (three under blind flips): every count state at every standings, p
	// entries per vector.
	rows := 2.0
	if m.Variant.Flips == rules.FlipsBlind {
		rows = 3
	}
	vectors := 1.0
	if eval {
		vectors = swVectors
	}
	value := float64(floatBytes)
	if exact {
		value = pointerBytes + ratBytes + 2*8*float64(pairs+1)/8
	}
	// The standings of the last row, and the index of every row's standings (int32 each).
	standings := float64(rules.StandingsCount(mu.Players, pairs) - rules.StandingsCount(mu.Players, pairs-1))
	live := rows*float64(pairs+1)*float64(m.Singletons+1)*standings*(1+vectors*float64(mu.Players)*value) +
		4*float64(pairs+1)*float64(rules.StandingsCount(mu.Players, pairs))
	if call == CallPolicyTable {
		live += selfWinTableBytes(mu.Players, pairs, m.Singletons)
	}
	if l := m.Variant.TurnLimit; l > 0 {
		// Under a turn limit (selfishwinlimit.go) every layer of turns left sweeps every count
		// state, four layers of every deal size held at once, and the table has a layer per turn
		// left.
		c.Ops *= float64(l)
		live *= 2 * float64(pairs+1)
		if call == CallPolicyTable {
			live += float64(l-1) * selfWinTableBytes(mu.Players, pairs, m.Singletons)
		}
	}
	c.Bytes = baseBytes + gcHeadroom*live
	return c, nil
}

// selfWinTableBytes returns the bytes of a standings table (rules.StandingsTable).
func selfWinTableBytes(p, n, s int) float64 {
	b := 0.0
	for k := 0; k <= n; k++ {
		b += float64(k+1) * float64(s+1) * float64(rules.StandingsCount(p, k))
	}
	return b
}

// checkStandings returns standings, the pairs each of players seats has taken so far, in order
// from the mover (none taken when nil), or why they are not.
func checkStandings(players int, standings []int) ([]int, error) {
	if standings == nil {
		return make([]int, players), nil
	}
	if len(standings) != players {
		return nil, fmt.Errorf("standings %v: need one count of pairs per seat, %d", standings, players)
	}
	for s, v := range standings {
		if v < 0 {
			return nil, fmt.Errorf("standings %v: seat %d has a negative count of pairs", standings, s)
		}
	}
	return standings, nil
}

// checkStart checks a start of the win objective at players seats in model m: count state st
// with standings (checkStandings), which it returns.
func checkStart(m Model, players int, st rules.State, standings []int) ([]int, error) {
	standings, err := checkStandings(players, standings)
	if err != nil {
		return nil, err
	}
	if st.S != m.Singletons {
		return nil, fmt.Errorf("state has %d singletons, the model %d", st.S, m.Singletons)
	}
	if err := st.Validate(m.Memory); err != nil {
		return nil, err
	}
	return standings, nil
}
