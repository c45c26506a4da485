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
// subgame-perfect equilibrium of the game.

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
	f        field.Field[T]
	m        Model
	p        int
	nv       int // vectors kept: 1 (scores) or swVectors (an evaluation)
	maxPairs int
	stride   int
	rows     [2][]selfWinCell[T]
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
	// acc holds each choice's vectors while a standings is computed.
	acc [rules.NumChoices][]T
	// succ[k][vi] is the successor's standings index of standings vi of row succN after an
	// outcome of kind k (outcomeKind).
	succ  [8][]int
	succN int
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
	case !m.Memory.Perfect():
		return fmt.Errorf("memory %s: the win objective at %d seats is solved with perfect memory only (a forgotten card makes a state refer to itself at every standings, whose equilibria would need selecting)", m.Memory, p)
	case m.Pass != rules.PassNever:
		return fmt.Errorf("pass rule %s: the win objective at %d seats is solved under pass rule never only", m.Pass, p)
	case !m.Variant.Standard():
		return fmt.Errorf("variant %s: the win objective at %d seats is solved for the standard game only", m.Variant, p)
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
	if maxPairs < 0 {
		return nil, fmt.Errorf("pairs %d: must not be negative", maxPairs)
	}
	w := &selfWin[T]{f: f, m: m, p: p, nv: 1, succN: -1, maxPairs: maxPairs, stride: m.Singletons + 1, zero: f.FromInt(0), one: f.FromInt(1)}
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
	w.valid, w.place = make([][][]int, maxPairs+1), make([][]int32, maxPairs+1)
	for n := range w.valid {
		w.valid[n] = validStandings(p, n)
		w.place[n] = make([]int32, rules.StandingsCount(p, n))
		for vi, d := range w.valid[n] {
			w.place[n][rules.StandingsIndex(d, n)] = int32(vi)
		}
	}
	for r := range w.rows {
		w.rows[r] = make([]selfWinCell[T], (maxPairs+1)*w.stride)
	}
	return w, nil
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

func (w *selfWin[T]) at(n, j, fu int) *selfWinCell[T] {
	return &w.rows[n&1][j*w.stride+fu]
}

// run sweeps every count state with at most maxPairs pairs in dependency order, calling visit
// (when not nil) after each.
func (w *selfWin[T]) run(ctx context.Context, visit func(st rules.State) error) error {
	done := ctx.Done()
	prog := progressOf(ctx)
	s := w.m.Singletons
	for n := 0; n <= w.maxPairs; n++ {
		for j := 0; j <= n; j++ {
			select {
			case <-done:
				return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
			default:
			}
			for fu := 0; fu <= s; fu++ {
				st := rules.State{N: n, J: j, S: s, F: fu}
				w.state(st)
				if visit != nil {
					if err := visit(st); err != nil {
						return err
					}
				}
			}
		}
		prog.add(selfWinRowOps(w.p, n, s))
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

// state computes the count state st at every standings.
func (w *selfWin[T]) state(st rules.State) {
	c := w.at(st.N, st.J, st.F)
	w.alloc(c, st.N)
	if st.N == 0 {
		w.terminal(c)
		return
	}
	for _, ch := range rules.Choices() {
		w.legal[ch] = w.m.Legal(st, ch)
		w.outs[ch], w.probs[ch] = w.outs[ch][:0], w.probs[ch][:0]
		if !w.legal[ch] {
			continue
		}
		w.outs[ch] = w.m.Outcomes(st, ch, w.outs[ch])
		for _, o := range w.outs[ch] {
			w.probs[ch] = append(w.probs[ch], w.f.FromFrac(o.Prob.Num, o.Prob.Den))
		}
	}
	for vi := range w.valid[st.N] {
		w.standings(st, c, vi)
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
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		acc := w.acc[ch]
		if len(acc) != w.nv*p {
			acc = make([]T, w.nv*p)
			w.acc[ch] = acc
		}
		for k := range acc {
			acc[k] = w.zero
		}
		for k, o := range w.outs[ch] {
			pr := w.probs[ch][k]
			sc := w.at(o.Next.N, o.Next.J, o.Next.F)
			si := w.successor(st.N, vi, o, outcomeKind(st, o))
			rot := 0
			if !o.Continue {
				rot = 1
			}
			for v := range w.nv {
				src := w.vec(sc, si, v)
				for s := range p {
					x := src[(s+p-rot)%p]
					if v == swPairs {
						switch {
						case s == 0 && o.Continue:
							x = f.Add(x, w.ints[o.MoverGain])
						case s == 1 && !o.Continue:
							x = f.Add(x, w.ints[o.NextGain])
						}
					}
					acc[v*p+s] = f.Add(acc[v*p+s], f.Mul(pr, x))
				}
			}
		}
		if w.keepChoices {
			w.choiceScore[ch] = acc[:p]
		}
		if best == nil || f.Cmp(acc[0], best[0]) > 0 {
			best, bestCh = acc, ch
		}
	}
	copy(c.vals[i*w.nv*p:(i+1)*w.nv*p], best)
	c.choice[i] = bestCh
}

// selfWinRowOps is the work of the row of count states with n pairs: every count state at every
// standings index, a unit per seat.
func selfWinRowOps(p, n, s int) float64 {
	return float64(n+1) * float64(s+1) * float64(rules.StandingsCount(p, n)) * float64(p)
}

// SelfWinResult is the value of the win objective of every seat for itself from one state.
type SelfWinResult[T any] struct {
	State rules.State
	// Standings gives every seat's pairs so far, the mover (seat 0) first.
	Standings []int
	// Score gives every seat's P(most pairs at the end), a tie for the most shared equally
	// (summing to 1); Win its probability of ending alone with the most, Draw tied for the most;
	// Pairs its expected pairs of those still on the table. Seat 0 moves first.
	Score, Win, Draw, Pairs []T
	// Choice is the mover's choice.
	Choice rules.Choice
}

// EvaluateSelfWin returns the values of the win objective of every seat for itself at players
// seats (3 to 8) in model m (perfect memory, pass rule never, the standard game) from state st,
// seat s (in order from the mover) having taken standings[s] pairs so far (nil: none yet).
func EvaluateSelfWin[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int) (SelfWinResult[T], error) {
	if err := checkSelfWin(m, players); err != nil {
		return SelfWinResult[T]{}, err
	}
	return evaluateSelfWin(ctx, f, m, players, st, standings)
}

// evaluateSelfWin is EvaluateSelfWin without the check of the number of seats.
func evaluateSelfWin[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	if standings == nil {
		standings = make([]int, players)
	}
	switch {
	case len(standings) != players:
		return res, fmt.Errorf("standings %v: need one count of pairs per seat, %d", standings, players)
	case st.S != m.Singletons:
		return res, fmt.Errorf("state has %d singletons, the model %d", st.S, m.Singletons)
	}
	for s, v := range standings {
		if v < 0 {
			return res, fmt.Errorf("standings %v: seat %d has a negative count of pairs", standings, s)
		}
	}
	if err := st.Validate(m.Memory); err != nil {
		return res, err
	}
	w, err := newSelfWin(f, m, players, st.N, true)
	if err != nil {
		return res, err
	}
	if err := w.run(ctx, nil); err != nil {
		return res, err
	}
	d := make([]int, players)
	rules.Deficits(d, standings, st.N)
	c, i := w.at(st.N, st.J, st.F), int(w.place[st.N][rules.StandingsIndex(d, st.N)])
	res = SelfWinResult[T]{State: st, Standings: append([]int(nil), standings...), Choice: c.choice[i]}
	for v, dst := range []*[]T{&res.Score, &res.Pairs, &res.Win, &res.Draw} {
		*dst = append([]T(nil), w.vec(c, i, []int{swScore, swPairs, swWin, swDraw}[v])...)
	}
	return res, nil
}

// SelfWinCell is one state of the table of the win objective of every seat for itself: a count
// state at one standings.
type SelfWinCell[T any] struct {
	State rules.State
	// Deficits are the standings: every seat's deficit to the most pairs, in order from the mover.
	Deficits []int
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
		c := w.at(st.N, st.J, st.F)
		for vi, d := range w.valid[st.N] {
			// Sweep the standings once more to read every choice's score (the sweep kept the
			// best only).
			w.standings(st, c, vi)
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
	if err := checkSelfWin(m, players); err != nil {
		return nil, err
	}
	w, err := newSelfWin(f, m, players, maxPairs, false)
	if err != nil {
		return nil, err
	}
	t, err := rules.NewStandingsTable(players, maxPairs, m.Singletons)
	if err != nil {
		return nil, err
	}
	err = w.run(ctx, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		c := w.at(st.N, st.J, st.F)
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
