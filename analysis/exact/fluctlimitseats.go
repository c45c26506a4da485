package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A fluctuating capacity under a turn limit at three to eight seats (docs/models.md §4.4, §4.7,
// §4.18): the states of the two-seat model (fluctlimit.go), (n, k, t) before the draw and
// (n, k, c, t) after it, carry every seat's expected pairs, and under the pass rules two-known and
// always the pass streak l = 0 .. p-1 beside the turns left. Every turn uses a turn left, so every
// outcome reads a layer of fewer turns left, and the model is a backward induction with no system
// to solve: every seat for itself makes, at every (n, k, c, t, l), the first choice in the order
// daring, safe, known-first, pass that gives it the most pairs, the others playing the same
// optimum afterwards (the fixed-capacity limit model's rule, limit.go); a policy per seat plays
// its choice, optimal the optimum of every seat for itself and best-response at one seat its best
// choice against the others. A pass at streak l < p-1 hands the next seat (n, min(k, c)) before
// its draw at streak l+1 with a turn fewer; a pass at l = p-1 ends the game in a stalemate, every
// seat taking n/p pairs, whatever the turns left.

// flSeatsCell holds the values of (n, k) before the draw with t turns left: self[l] every seat's
// expected pairs in order from the mover at streak l, every seat for itself; seats[l][m] every
// seat's (seat 0 first) with seat m to move at streak l, each seat playing its policy.
type flSeatsCell[T any] struct {
	self  [][]T
	seats [][][]T
}

// flSeatsChoices are the choices of one layer of turns left: [n][c][k][l].
type flSeatsChoices [][][][]rules.Choice

// fluctLimitSeats solves a fluctuating capacity under a turn limit at three to eight seats.
type fluctLimitSeats[T any] struct {
	// base holds the model, the capacities of every row and every choice's outcomes after every
	// draw (fluctLimitSweep.prepare).
	base *fluctLimitSweep[T]
	f    field.Field[T]
	mu   Lineup
	p    int
	// levels is the number of pass streaks told apart: p under a pass rule, 1 under never.
	levels int
	// needSelf: some seat plays optimal; needMulti: not every seat does.
	needSelf, needMulti bool
	reply               int // the seat that plays best-response, -1: none
	zeros               []T
	share               []T // share[n]: a stalemate's n/p pairs
	layers              [3][][]flSeatsCell[T]
	// record, when set, keeps seat 0's choice of every layer (the reply's where seat 0 replies,
	// the optimum's otherwise) in kept[t-1].
	record bool
	kept   []flSeatsChoices
	// dist, when set, computes every seat's distribution alongside (fluctlimitseatsdist.go).
	dist *flSeatsDist[T]
}

// validateFluctLimitSeats reports whether the lineup is solved under a fluctuating capacity and a
// turn limit at three to eight seats: the lineups the model without the limit solves there.
func validateFluctLimitSeats(m Model, mu Lineup) error {
	base := m
	base.Variant.TurnLimit = 0
	if err := validateFluctSeats(base, mu); err != nil {
		return err
	}
	if isSelfWin(mu) {
		return fmt.Errorf("policy %s, turn limit %d: with %d players a fluctuating capacity under a turn limit is solved for optimal, safe, daring, parity and best-response at one seat, not for the policies that play to win", mu.Policy, m.Variant.TurnLimit, mu.Players)
	}
	return m.Variant.Validate()
}

func newFluctLimitSeats[T any](f field.Field[T], m Model, mu Lineup, maxN int) (*fluctLimitSeats[T], error) {
	if err := validateFluctLimitSeats(m, mu); err != nil {
		return nil, err
	}
	b := &fluctLimitSweep[T]{f: f, m: m, limit: m.Variant.TurnLimit, maxN: maxN, maxK: fluctMaxKnown(m.Memory),
		zero: f.FromInt(0), br: -1, keepRole: -1}
	for i := range 3 {
		b.ints = append(b.ints, f.FromInt(int64(i)))
	}
	s := &fluctLimitSeats[T]{base: b, f: f, mu: mu, p: mu.Players, levels: 1, reply: -1}
	if m.Pass != rules.PassNever {
		s.levels = s.p
	}
	optimal := 0
	for i := range s.p {
		switch fluctSeatPolicy(mu, i) {
		case rules.PolicyOptimal:
			optimal++
		case rules.PolicyBestResponse:
			s.reply = i
		}
	}
	s.needSelf = optimal > 0
	s.needMulti = optimal < s.p
	s.zeros = make([]T, s.p)
	for i := range s.zeros {
		s.zeros[i] = b.zero
	}
	for n := 0; n <= maxN; n++ {
		s.share = append(s.share, f.Div(f.FromInt(int64(n)), f.FromInt(int64(s.p))))
	}
	return s, nil
}

// cell returns the values of (n, k) before the draw with t >= 1 turns left.
func (s *fluctLimitSeats[T]) cell(n, k, t int) *flSeatsCell[T] { return &s.layers[t%3][n][k] }

// before returns get's vector in (n, k) before a draw with t turns left: zeros with no turn or no
// pair left. take asks for a turn that first takes a pair known whole, with its own draw (under
// lru it forgets down to the capacity drawn), so the rest is read a turn later.
func (s *fluctLimitSeats[T]) before(n, k, t int, take bool, get func(c *flSeatsCell[T]) []T) []T {
	if take {
		t--
	}
	if t <= 0 || n == 0 {
		return s.zeros
	}
	b := s.base
	if !take || !b.lru() {
		return get(s.cell(n, k, t))
	}
	out := append([]T(nil), s.zeros...)
	for i, cp := range b.caps[n] {
		addScaled(s.f, out, b.capP[n][i], get(s.cell(n, min(k, cp.c), t)))
	}
	return out
}

// addScaled adds p times v to out.
func addScaled[T any](f field.Field[T], out []T, p T, v []T) {
	for i := range out {
		out[i] = f.Add(out[i], f.Mul(p, v[i]))
	}
}

// vector returns every seat's expected pairs after choice ch of seat mv in (n, k) with capacity c
// drawn, t turns left, at streak l (a pass below the last streak; choiceVector adds the
// stalemate): own reads the vector of a successor with mv to move, other
// with the next seat to move, afterPass the next seat's at streak l+1. rot turns a vector read
// from the next seat into the caller's numbering (nil: the same numbering), and who numbers the
// seats taking pairs: mv, or the next seat nx.
func (s *fluctLimitSeats[T]) vector(n, k, c, t, l int, ch rules.Choice, mv, nx int, own, other, afterPass func(x *flSeatsCell[T]) []T, rot func([]T) []T) []T {
	b, f := s.base, s.f
	if rot == nil {
		rot = func(v []T) []T { return v }
	}
	if ch == rules.Pass {
		if t == 1 {
			return append([]T(nil), s.zeros...) // the pass used the last turn
		}
		return append([]T(nil), rot(s.before(n, passKept(k, c), t-1, false, afterPass))...)
	}
	out := append([]T(nil), s.zeros...)
	for i, o := range b.outs[n][c][k][ch] {
		k2 := o.Next.N - o.Next.J
		pr := b.probs[n][c][k][ch][i]
		var v []T
		who, g := mv, o.MoverGain
		if o.Continue {
			v = s.before(o.Next.N, k2, t-1, false, own)
		} else {
			who, g = nx, min(o.NextGain, t-1)
			v = rot(s.before(o.Next.N, k2, t-1, g > 0, other))
			if g < o.NextGain {
				v = s.zeros // no turn is left to take the pair known whole: the game is over
			}
		}
		addScaled(f, out, pr, v)
		out[who] = f.Add(out[who], f.Mul(pr, b.ints[g]))
	}
	return out
}

// stalemate returns every seat's share of a stalemate with n pairs left.
func (s *fluctLimitSeats[T]) stalemate(n int) []T {
	out := make([]T, s.p)
	for i := range out {
		out[i] = s.share[n]
	}
	return out
}

// choiceVector is vector with a stalemate at the last streak.
func (s *fluctLimitSeats[T]) choiceVector(n, k, c, t, l int, ch rules.Choice, mv, nx int, own, other, afterPass func(x *flSeatsCell[T]) []T, rot func([]T) []T) []T {
	if ch == rules.Pass && l == s.p-1 {
		return s.stalemate(n)
	}
	return s.vector(n, k, c, t, l, ch, mv, nx, own, other, afterPass, rot)
}

// legal returns the choices the model allows in (n, k): a pass only under a pass rule.
func (s *fluctLimitSeats[T]) legal(n, k int) [rules.NumChoices]bool {
	out := s.base.legal(n, k)
	if s.base.m.Pass == rules.PassNever {
		out[rules.Pass] = false
	}
	return out
}

// bestOf returns the first legal choice, in the order daring, safe, known-first, pass, whose
// vector gives seat who the most.
func (s *fluctLimitSeats[T]) bestOf(legal [rules.NumChoices]bool, v [rules.NumChoices][]T, who int) rules.Choice {
	best, have := rules.Daring, false
	for _, ch := range rules.Choices() {
		if legal[ch] && (!have || s.f.Cmp(v[ch][who], v[best][who]) > 0) {
			best, have = ch, true
		}
	}
	return best
}

// fromMover turns a successor's vector in order from the next seat into the mover's order.
func (s *fluctLimitSeats[T]) fromMover(v []T) []T {
	out := make([]T, s.p)
	for i := range out {
		out[i] = v[(i+s.p-1)%s.p]
	}
	return out
}

// selfVector returns every seat's pairs, in order from the mover, after choice ch in (n, k) with
// capacity c drawn, t turns left, streak l, every seat for itself afterwards.
func (s *fluctLimitSeats[T]) selfVector(n, k, c, t, l int, ch rules.Choice) []T {
	own := func(x *flSeatsCell[T]) []T { return x.self[0] }
	ap := func(x *flSeatsCell[T]) []T { return x.self[l+1] }
	return s.choiceVector(n, k, c, t, l, ch, 0, 1, own, own, ap, s.fromMover)
}

// seatsVector returns every seat's pairs (seat 0 first) after choice ch of seat mv in (n, k) with
// capacity c drawn, t turns left, streak l, every seat playing its policy afterwards.
func (s *fluctLimitSeats[T]) seatsVector(n, k, c, t, l int, ch rules.Choice, mv int) []T {
	nx := (mv + 1) % s.p
	own := func(x *flSeatsCell[T]) []T { return x.seats[0][mv] }
	other := func(x *flSeatsCell[T]) []T { return x.seats[0][nx] }
	ap := func(x *flSeatsCell[T]) []T { return x.seats[l+1][nx] }
	return s.choiceVector(n, k, c, t, l, ch, mv, nx, own, other, ap, nil)
}

// after computes the values of (n, k) with capacity c drawn and t turns left at every streak, and
// seat 0's choice at every streak (its reply where it plays best-response, every seat's own
// optimum otherwise).
func (s *fluctLimitSeats[T]) after(n, k, c, t int) (cell flSeatsCell[T], seat0 []rules.Choice, all [][]rules.Choice, err error) {
	legal := s.legal(n, k)
	st := rules.State{N: n, J: n - k}
	selfCh := make([]rules.Choice, s.levels)
	seat0 = make([]rules.Choice, s.levels)
	all = make([][]rules.Choice, s.levels)
	if s.needSelf {
		cell.self = make([][]T, s.levels)
		for l := range s.levels {
			var v [rules.NumChoices][]T
			for _, ch := range rules.Choices() {
				if legal[ch] {
					v[ch] = s.selfVector(n, k, c, t, l, ch)
				}
			}
			selfCh[l] = s.bestOf(legal, v, 0)
			cell.self[l] = v[selfCh[l]]
		}
		copy(seat0, selfCh)
	}
	if !s.needMulti {
		for l := range s.levels {
			all[l] = make([]rules.Choice, s.p)
			for m := range s.p {
				all[l][m] = selfCh[l]
			}
		}
		return cell, seat0, all, nil
	}
	cell.seats = make([][][]T, s.levels)
	for l := range s.levels {
		cell.seats[l] = make([][]T, s.p)
		all[l] = make([]rules.Choice, s.p)
		for mv := range s.p {
			var ch rules.Choice
			switch pol := fluctSeatPolicy(s.mu, mv); pol {
			case rules.PolicyOptimal:
				ch = selfCh[l]
			case rules.PolicyBestResponse:
				var v [rules.NumChoices][]T
				for _, x := range rules.Choices() {
					if legal[x] {
						v[x] = s.seatsVector(n, k, c, t, l, x, mv)
					}
				}
				ch = s.bestOf(legal, v, mv)
				cell.seats[l][mv] = v[ch]
				all[l][mv] = ch
				if mv == 0 {
					seat0[l] = ch
				}
				continue
			default:
				ch = pol.Decide(st)
				if !legal[ch] {
					return cell, nil, nil, fmt.Errorf("seat %d: policy %s chooses %s in %v, which the model does not allow", mv, pol, ch, st)
				}
			}
			all[l][mv] = ch
			cell.seats[l][mv] = s.seatsVector(n, k, c, t, l, ch, mv)
		}
	}
	return cell, seat0, all, nil
}

// run computes every layer of turns left up to the base's limit.
func (s *fluctLimitSeats[T]) run(ctx context.Context) error {
	b, f := s.base, s.f
	if err := b.prepare(); err != nil {
		return err
	}
	makeTurnLayers(&s.layers, b.maxN, b.known)
	for t := 1; t <= b.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return err
		}
		var kept flSeatsChoices
		if s.record {
			kept = make(flSeatsChoices, b.maxN+1)
		}
		for n := 1; n <= b.maxN; n++ {
			K := b.known(n)
			caps := b.caps[n]
			afterV := make([][]flSeatsCell[T], len(caps))
			if s.dist != nil {
				tops := make([]int, len(caps))
				for i, cp := range caps {
					tops[i] = K
					if b.lru() {
						tops[i] = min(K, cp.c)
					}
				}
				s.dist.row(n, tops)
			}
			if s.record {
				kept[n] = make([][][]rules.Choice, caps[len(caps)-1].c+1)
			}
			for i, cp := range caps {
				top := K
				if b.lru() {
					top = min(K, cp.c)
				}
				afterV[i] = make([]flSeatsCell[T], top+1)
				if s.record {
					kept[n][cp.c] = make([][]rules.Choice, top+1)
				}
				for k := 0; k <= top; k++ {
					cell, seat0, all, err := s.after(n, k, cp.c, t)
					if err != nil {
						return err
					}
					if s.dist != nil {
						s.dist.afterDraw(n, k, i, t, all)
					}
					afterV[i][k] = cell
					if s.record {
						kept[n][cp.c][k] = seat0
					}
				}
			}
			for k := 0; k <= K; k++ {
				var c flSeatsCell[T]
				if s.needSelf {
					c.self = make([][]T, s.levels)
				}
				if s.needMulti {
					c.seats = make([][][]T, s.levels)
				}
				for l := range s.levels {
					if s.needSelf {
						c.self[l] = append([]T(nil), s.zeros...)
					}
					if s.needMulti {
						c.seats[l] = make([][]T, s.p)
						for mv := range s.p {
							c.seats[l][mv] = append([]T(nil), s.zeros...)
						}
					}
					for i, cp := range caps {
						a := &afterV[i][b.drawn(k, cp.c)]
						p := b.capP[n][i]
						if s.needSelf {
							addScaled(f, c.self[l], p, a.self[l])
						}
						if s.needMulti {
							for mv := range s.p {
								addScaled(f, c.seats[l][mv], p, a.seats[l][mv])
							}
						}
					}
				}
				*s.cell(n, k, t) = c
				if s.dist != nil {
					s.dist.collect(n, k, t)
				}
			}
		}
		if s.record {
			s.kept = append(s.kept, kept)
		}
	}
	return nil
}

// value returns every seat's expected pairs, seat 0 first, with seat 0 to move in (n, k) before
// the draw with the limit's turns left, at streak 0.
func (s *fluctLimitSeats[T]) value(n, k int) []T {
	if n == 0 {
		return append([]T(nil), s.zeros...)
	}
	c := s.cell(n, k, s.base.limit)
	if s.needMulti {
		return append([]T(nil), c.seats[0][0]...)
	}
	return append([]T(nil), c.self[0]...)
}

// evaluateFluctLimitSeats is Evaluate under a fluctuating capacity and a turn limit at three to
// eight seats: every seat's expected pairs from st, before the draw, the turn limit the turns left.
func evaluateFluctLimitSeats[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	s, err := newFluctLimitSeats(f, m, mu, st.N)
	if err != nil {
		return Result[T]{}, err
	}
	k, err := fluctKnown(st, s.base.maxK)
	if err != nil {
		return Result[T]{}, err
	}
	if err := s.run(ctx); err != nil {
		return Result[T]{}, err
	}
	res := Result[T]{State: st, Players: s.p, PairsBySeat: s.value(st.N, k)}
	res.ExpectedPairs = res.PairsBySeat[0]
	return res, nil
}

// fluctLimitSeatsChoiceValues is FluctSeatsChoiceValues under a turn limit: each legal choice of
// seat 0 in st (the state after the draw) with capacity c drawn, the limit's turns left and
// passes seats having passed in a row, then the lineup played afterwards.
func fluctLimitSeatsChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c, passes int) (Choices[T], error) {
	var out Choices[T]
	s, err := newFluctLimitSeats(f, m, mu, st.N)
	if err != nil {
		return out, err
	}
	switch {
	case passes < 0 || passes >= s.p:
		return out, fmt.Errorf("pass streak %d: must be 0 to %d (the seats that passed in a row before the turn)", passes, s.p-1)
	case passes > 0 && s.levels == 1:
		return out, fmt.Errorf("pass streak %d under pass rule never: no pass is ever made", passes)
	case st.N < 1:
		return out, fmt.Errorf("%v: no pair left to choose for", st)
	}
	k, err := fluctDrawnKnown(m.Memory, s.base.maxK, st, c)
	if err != nil {
		return out, err
	}
	s.record = true
	if err := s.run(ctx); err != nil {
		return out, err
	}
	t := s.base.limit
	cn := min(c, st.N+1) // the capacities of a row are merged from n + 1 up
	cn = max(cn, s.base.caps[st.N][0].c)
	byCap := s.kept[t-1][st.N]
	if cn >= len(byCap) || byCap[cn] == nil || k >= len(byCap[cn]) {
		return out, fmt.Errorf("%v with capacity %d drawn: not a state of the model", st, c)
	}
	out.State = st
	out.PolicyChoice = byCap[cn][k][passes]
	legal := s.legal(st.N, k)
	for _, ch := range rules.Choices() {
		if !legal[ch] {
			continue
		}
		var vec []T
		if s.needMulti {
			vec = s.seatsVector(st.N, k, cn, t, passes, ch, 0)
		} else {
			vec = s.selfVector(st.N, k, cn, t, passes, ch)
		}
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Pairs: vec[0], PairsBySeat: vec})
		if ch == out.PolicyChoice {
			out.Value = Result[T]{State: st, Players: s.p, ExpectedPairs: vec[0], PairsBySeat: vec}
		}
	}
	markBestUnlimited(f, &out, s.p)
	return out, nil
}

// FluctLimitSeatsTables returns the choices of seat 0 of lineup mu at three to eight seats
// (optimal at every seat: every seat's own optimum; or best-response at seat 0 to optimal, safe,
// daring or parity at every other) under the fluctuating capacity and the turn limit of model m,
// in every state of at most maxPairs pairs: layers[c-lo][t-1] holds those with capacity c drawn
// and t turns left, capacities from lo = max(2, m - σ) to the largest that binds in a deal of
// maxPairs pairs (larger capacities read the last layer); under a pass rule each layer holds the
// choice at every pass streak (rules.NewPassChoiceTable).
func FluctLimitSeatsTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (lo int, layers [][]*rules.ChoiceTable, err error) {
	if maxPairs < 1 {
		return 0, nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if p := fluctSeatPolicy(mu, 0); p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
		return 0, nil, fmt.Errorf("policy %s: a fluctuating capacity under a turn limit has tables for optimal and best-response (a fixed policy needs none)", p)
	}
	s, err := newFluctLimitSeats(f, m, mu, maxPairs)
	if err != nil {
		return 0, nil, err
	}
	s.record = true
	if err := s.run(ctx); err != nil {
		return 0, nil, err
	}
	lo = fluctCaps(m.Memory, maxPairs)[0].c
	hi := max(lo, min(fluctMaxKnown(m.Memory), maxPairs+1))
	limit := s.base.limit
	layers = make([][]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		layers[i] = make([]*rules.ChoiceTable, limit)
		for t := range limit {
			var tab *rules.ChoiceTable
			if s.levels > 1 {
				tab, err = rules.NewPassChoiceTable(maxPairs, 0, s.p)
			} else {
				tab, err = rules.NewChoiceTable(maxPairs, 0)
			}
			if err != nil {
				return 0, nil, err
			}
			for n := 1; n <= maxPairs; n++ {
				cn := min(c, n+1) // the capacities of a row are merged from n + 1 up
				byCap := s.kept[t][n]
				if cn >= len(byCap) || byCap[cn] == nil {
					continue
				}
				for k, chs := range byCap[cn] {
					st := rules.State{N: n, J: n - k}
					if s.levels == 1 {
						tab.Set(st, false, chs[0])
						continue
					}
					for l, ch := range chs {
						tab.SetPasses(st, l, ch)
					}
				}
			}
			layers[i][t] = tab
		}
	}
	return lo, layers, nil
}
