package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A fluctuating capacity at three to eight seats (docs/models.md §4.4, §4.7): the shared memory's
// capacity is drawn at the start of every turn as at two seats (fluct.go), and every seat plays
// for itself (optimal: the mover maximises its own expected pairs) or a fixed policy of its own.
//
// The mover's choice is made after the draw, in (n, k, c). A row's unknowns are the vectors of
// the states after the draw, every seat's expected pairs in order from the mover; a state before
// the draw is the average over the capacities of the states after it, which the equations refer
// to directly. With every seat for itself the row is selfishdecay.go's row of p unknowns per state
// (a state being an (n, k, c)), solved by the same policy iteration: the same tie rule and the
// same profile of smallest gain where there is no equilibrium in pure choices (FluctSelfishGaps
// lists those states). An equilibrium reached is then moved to one that gives a state's mover more
// where there is one (preferBetter), as selfish.go takes at a fixed capacity. With a policy per seat the row's unknowns
// are every seat's expected pairs with each seat to move, one linear system for the seats' fixed
// choices (an optimal seat plays the optimum of every seat for itself).

// FluctSelfishRationalLimit is FluctRationalLimit at three or more seats: tables and tournaments'
// exact values are exact rationals up to it, float64 beyond (lru(5) with σ = 2, every seat for
// itself: 0.8 s for 12 pairs at 3 seats in exact rationals, 24 s at 8 seats, and the numbers grow
// with the deal).
const FluctSelfishRationalLimit = 12

// FluctSelfishGap is a state after the draw, with capacity Capacity drawn, in which the optimum
// of every seat for itself under a fluctuating capacity has no stationary equilibrium in pure
// choices: the choice it makes and the most a deviation gains the mover.
type FluctSelfishGap[T any] struct {
	State    rules.State
	Capacity int
	// Passes is the pass streak (0 under pass rule never).
	Passes int
	Choice rules.Choice
	Gain   T
}

// validateFluctSeats reports whether the matchup of three or more seats is solved under a
// fluctuating capacity: every seat optimal, safe, daring or parity, or a policy per seat among
// them (a fixed policy chooses by its rule in the state after the draw), best-response at one.
func validateFluctSeats(m Model, mu Lineup) error {
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
	case mu.Players < 2 || mu.Players > rules.MaxPlayers:
		return fmt.Errorf("players %d: a fluctuating capacity is solved for 2 to %d players", mu.Players, rules.MaxPlayers)
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("a fluctuating capacity is solved for optimal, safe, daring and parity, not for a policy given as a table")
	}
	replies := 0
	for i := range mu.Players {
		if fluctSeatPolicy(mu, i) == rules.PolicyBestResponse {
			replies++
		}
	}
	if replies > 1 && mu.Players > 2 {
		return fmt.Errorf("policy best-response: with %d players one seat replies to the others, not %d (replies to each other would be an equilibrium of their own)", mu.Players, replies)
	}
	for i := range mu.Players {
		p := fluctSeatPolicy(mu, i)
		if p == rules.PolicyBestResponse && mu.Players > 2 {
			continue
		}
		if p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("seat %d: policy %s: a fluctuating capacity is solved for optimal, safe, daring and parity, and at 3 or more seats best-response at one seat (allowed: optimal, safe, daring, parity, best-response)", i, p)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// fluctSeatPolicy returns the policy of seat t (0: the mover in the evaluated state).
func fluctSeatPolicy(mu Lineup, t int) rules.Policy {
	if mu.PerSeat {
		return mu.Seats[t]
	}
	return mu.roles()[min(t, 1)]
}

// fluctSeats solves a fluctuating capacity at three or more seats row by row.
type fluctSeats[T any] struct {
	f    field.Field[T]
	m    Model
	mu   Lineup
	p    int
	maxK int
	// needSelf: some seat plays optimal; needMulti: not every seat does.
	needSelf, needMulti bool
	// self[k] is every seat's expected pairs, in order from the mover, in (n, k) before the draw
	// (every seat for itself); seats[k][t][i] seat i's with seat t to move (a policy per seat).
	// prevSelf and prevSeats are the previous row's, prevSelf2 and prevSeats2 the row before it
	// (under blind flips a turn can hand the next seat two pairs known whole, fluctblind.go).
	self, prevSelf, prevSelf2    [][]T
	seats, prevSeats, prevSeats2 [][][]T
	// streakSelf[l][k] and streakSeats[l][k] are self[k] and seats[k] at pass streak l under a
	// pass rule; lastNodes and lastSol the states after the draw and the solution of the last row
	// of every seat for itself solved under a pass rule.
	streakSelf  [][][]T
	streakSeats [][][][]T
	lastNodes   []fluctNode
	lastSol     *selfRowSolution[T]
	// keepLast asks the rows to keep, in lastRow and lastSol, the last row of every seat for
	// itself and its solution, and in lastMulti the solution of the last row of a policy per seat
	// (FluctSeatsChoiceValues reads every choice's equation in them).
	keepLast  bool
	lastRow   *selfRow[T]
	lastMulti [][]T
	// reply is the seat that plays best-response (-1: none); replyProf its choices in the last
	// row when keepLast, at position i*L + l for state i after the draw and streak l of L
	// (fluctselfishreply.go).
	reply     int
	replyProf []rules.Choice
	// replyChoice[n][l][c][k] is the reply's choice in (n, k) with capacity c drawn at pass
	// streak l (l = 0 only under pass rule never).
	replyChoice [][][][]rules.Choice
	// choice[n][c][k] is the optimum's choice in (n, k) with capacity c drawn (at pass streak 0);
	// under a pass rule streakChoice[n][l][c][k] is its choice at pass streak l.
	choice       [][][]rules.Choice
	streakChoice [][][][]rules.Choice
	// gaps collects the states without an equilibrium in pure choices, when not nil.
	gaps *[]FluctSelfishGap[T]
	// two, when not nil, is the two-player optimum whose choices the optimal seats make
	// (Lineup.TwoPlayerOptimal, fluctseatstwo.go).
	two  *twoPlayerSeats[T]
	zero T
}

func newFluctSeats[T any](f field.Field[T], m Model, mu Lineup) (*fluctSeats[T], error) {
	if err := validateFluctSeats(m, mu); err != nil {
		return nil, err
	}
	s := &fluctSeats[T]{f: f, m: m, mu: mu, p: mu.Players, maxK: fluctMaxKnown(m.Memory), zero: f.FromInt(0), reply: mu.replySeat()}
	for t := range mu.Players {
		if fluctSeatPolicy(mu, t) == rules.PolicyOptimal {
			s.needSelf = true
		} else {
			s.needMulti = true
		}
	}
	if mu.TwoPlayerOptimal && s.needSelf {
		// The optimal seats make the two-player optimum's choices: a policy per seat.
		s.needSelf, s.needMulti = false, true
		var err error
		if s.two, err = newTwoPlayerSeats(f, m); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *fluctSeats[T]) lru() bool { return s.m.Memory.Forget == rules.ForgetLRU }

// fluctRef is a reference to an unknown of a row (a state after the draw) with its weight.
type fluctRef[T any] struct {
	at int
	p  T
}

// rowLayout numbers the states after the draw of a row of n pairs, by known cards then capacity
// (so that a turn, which adds at most two known cards, refers to nearby unknowns), and returns
// their (k, c), the capacities, and for every k the references of the state before the draw.
func (s *fluctSeats[T]) rowLayout(n int) ([]fluctNode, []fluctCap, [][]fluctRef[T]) {
	caps := fluctCapsTo(s.m.Memory, fluctTop(s.m, n))
	K := min(n, s.maxK)
	var nodes []fluctNode
	pos := map[fluctNode]int{}
	for k := 0; k <= K; k++ {
		for _, cp := range caps {
			if s.lru() && k > cp.c {
				continue
			}
			pos[fluctNode{k: k, c: cp.c}] = len(nodes)
			nodes = append(nodes, fluctNode{k: k, c: cp.c})
		}
	}
	before := make([][]fluctRef[T], K+1)
	for k := range before {
		for _, cp := range caps {
			k2 := k
			if s.lru() {
				k2 = min(k, cp.c)
			}
			before[k] = append(before[k], fluctRef[T]{at: pos[fluctNode{k: k2, c: cp.c}], p: s.f.FromFrac(cp.p.Num, cp.p.Den)})
		}
	}
	return nodes, caps, before
}

// prevVec returns an earlier row's vector vals[k] (k known cards before the draw, n1 pairs),
// after draws turns that each take a pair known whole and draw a capacity first: under lru each
// forgets beyond the capacity drawn (fluctSweep.before).
func (s *fluctSeats[T]) prevVec(vals [][]T, n1, k, draws int) []T {
	if draws == 0 || !s.lru() {
		return vals[k]
	}
	f := s.f
	out := make([]T, s.p)
	for i := range out {
		out[i] = s.zero
	}
	for _, cp := range fluctCaps(s.m.Memory, max(n1, 1)) { // a row of no pairs draws too
		pc := f.FromFrac(cp.p.Num, cp.p.Den)
		for i, v := range s.prevVec(vals, n1, min(k, cp.c), draws-1) {
			out[i] = f.Add(out[i], f.Mul(pc, v))
		}
	}
	return out
}

// prevSelfOf returns the values of every seat for itself in the earlier row of n1 pairs, read
// from the row of n: the previous row, or under blind flips the one before it.
func (s *fluctSeats[T]) prevSelfOf(n, n1 int) [][]T {
	if n1 == n-2 {
		return s.prevSelf2
	}
	return s.prevSelf
}

// outcomes returns the outcomes of choice ch in (n, k) with capacity c drawn: §4.4's model of
// capacity c.
func (s *fluctSeats[T]) outcomes(n, k, c int, ch rules.Choice) []Outcome {
	mc := s.m
	mc.Memory.Capacity, mc.Memory.Fluctuation = c, 0
	return mc.Outcomes(rules.State{N: n, J: n - k}, ch, nil)
}

// selfEquation returns the equation of the mover's vector in (n, k) with capacity c drawn, making
// choice ch, every seat for itself: outcomes that leave the row read the previous row (turned by
// one seat when the next seat moves), those that stay refer to the states after the next draw.
func (s *fluctSeats[T]) selfEquation(n, k, c int, ch rules.Choice, before [][]fluctRef[T]) *selfEq[T] {
	f, p := s.f, s.p
	e := &selfEq[T]{a: make([]T, p)}
	for i := range e.a {
		e.a[i] = s.zero
	}
	for _, o := range s.outcomes(n, k, c, ch) {
		pr := f.FromFrac(o.Prob.Num, o.Prob.Den)
		if k2 := sameRow(o, n); k2 >= 0 {
			for _, r := range before[k2] {
				e.to = append(e.to, r.at)
				e.coef = append(e.coef, f.Mul(pr, r.p))
			}
			continue
		}
		k2 := o.Next.N - o.Next.J
		if o.Continue {
			succ := s.prevVec(s.prevSelf, n-1, k2, 0)
			for t := range e.a {
				v := succ[t]
				if t == 0 {
					v = f.Add(v, f.FromInt(int64(o.MoverGain)))
				}
				e.a[t] = f.Add(e.a[t], f.Mul(pr, v))
			}
			continue
		}
		// The next seat takes the pairs it is handed known whole (one under sequential flips,
		// up to two under blind flips), each turn drawing a capacity.
		succ := s.prevVec(s.prevSelfOf(n, o.Next.N), o.Next.N, k2, o.NextGain)
		for t := range e.a {
			v := succ[(t+p-1)%p]
			if t == 0 {
				v = f.Add(v, f.FromInt(int64(o.MoverGain)))
			}
			if t == 1 {
				v = f.Add(v, f.FromInt(int64(o.NextGain)))
			}
			e.a[t] = f.Add(e.a[t], f.Mul(pr, v))
		}
	}
	m := decayEq[T]{to: e.to, coef: e.coef}
	m.merge(f)
	e.to, e.coef = m.to, m.coef
	return e
}

// selfRow solves the row of n pairs for every seat for itself.
func (s *fluctSeats[T]) selfRow(n int) error {
	f, p := s.f, s.p
	nodes, caps, before := s.rowLayout(n)
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], len(nodes))}
	for i, nd := range nodes {
		for _, ch := range rules.Choices() {
			if ch != rules.Pass && s.m.Legal(rules.State{N: n, J: n - nd.k}, ch) {
				r.eqs[i][ch] = s.selfEquation(n, nd.k, nd.c, ch, before)
			}
		}
	}
	sol, err := r.solve(f)
	if err == nil {
		sol, err = r.preferBetter(f, sol)
	}
	if err != nil {
		return fmt.Errorf("%d pairs, every seat for itself: %w", n, err)
	}
	if s.keepLast {
		s.lastNodes, s.lastRow, s.lastSol = nodes, r, sol
	}
	byCap := make([][]rules.Choice, caps[len(caps)-1].c+1)
	for i, nd := range nodes {
		if byCap[nd.c] == nil {
			byCap[nd.c] = make([]rules.Choice, len(before))
		}
		byCap[nd.c][nd.k] = sol.ch[i]
		if s.gaps != nil && f.Cmp(sol.gain[i], s.zero) > 0 {
			*s.gaps = append(*s.gaps, FluctSelfishGap[T]{State: rules.State{N: n, J: n - nd.k}, Capacity: nd.c, Choice: sol.ch[i], Gain: sol.gain[i]})
		}
	}
	s.choice = append(s.choice, byCap)
	s.self = make([][]T, len(before))
	for k, refs := range before {
		vec := make([]T, p)
		for t := range vec {
			vec[t] = s.zero
			for _, rf := range refs {
				vec[t] = f.Add(vec[t], f.Mul(rf.p, sol.x[rf.at*p+t][0]))
			}
		}
		s.self[k] = vec
	}
	return nil
}

// seatChoice returns seat t's choice in (n, k) with capacity c drawn.
func (s *fluctSeats[T]) seatChoice(t, n, k, c int) (rules.Choice, error) {
	st := rules.State{N: n, J: n - k}
	pol := fluctSeatPolicy(s.mu, t)
	ch := s.choiceOf(pol, st, n, k, c)
	if !s.m.Legal(st, ch) {
		return 0, fmt.Errorf("seat %d: policy %s chooses %s in %v, which the model does not allow", t, pol, ch, st)
	}
	return ch, nil
}

func (s *fluctSeats[T]) choiceOf(pol rules.Policy, st rules.State, n, k, c int) rules.Choice {
	if pol == rules.PolicyOptimal && s.two != nil {
		return s.two.choice(n, k, c, 0)
	}
	if pol == rules.PolicyOptimal {
		return s.choice[n][c][k]
	}
	return pol.Decide(st)
}

// multiRow solves the row of n pairs for a policy per seat: unknown i*p + t holds every seat's
// expected pairs (by seat) in state i after the draw with seat t to move.
func (s *fluctSeats[T]) multiRow(n int) error {
	f, p := s.f, s.p
	nodes, _, before := s.rowLayout(n)
	eqs := make([]decayEq[T], p*len(nodes))
	for i, nd := range nodes {
		for t := range p {
			ch, err := s.seatChoice(t, n, nd.k, nd.c)
			if err != nil {
				return err
			}
			next := (t + 1) % p
			e := s.seatTurnEq(n, nd, t, ch, before, func(at int) int { return at*p + next })
			e.merge(f)
			eqs[i*p+t] = e
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("%d pairs: %w", n, err)
	}
	if s.keepLast {
		s.lastMulti = x
	}
	s.seats = make([][][]T, len(before))
	for k, refs := range before {
		s.seats[k] = make([][]T, p)
		for t := range p {
			vec := make([]T, p)
			for l := range vec {
				vec[l] = s.zero
				for _, rf := range refs {
					vec[l] = f.Add(vec[l], f.Mul(rf.p, x[rf.at*p+t][l]))
				}
			}
			s.seats[k][t] = vec
		}
	}
	return nil
}

// seatTurnEq returns the equation, not merged, of every seat's expected pairs (by seat) in the
// row's state nd after the draw with seat t to move making choice ch other than a pass: outcomes
// that stay in the row refer to the next seat's unknowns of the states after its draw, ref(at);
// those that leave it read the previous row.
func (s *fluctSeats[T]) seatTurnEq(n int, nd fluctNode, t int, ch rules.Choice, before [][]fluctRef[T], ref func(at int) int) decayEq[T] {
	f := s.f
	e := decayEq[T]{a: s.zeroVec()}
	s.turnOutcomes(&e, n, nd, t, ch, before, ref, func(pr T, o Outcome, k2, mover, draws int) {
		succ := s.prevSeatVec(n, o.Next.N, k2, mover, draws)
		for l := range e.a {
			v := succ[l]
			if g := turnGain(o, l, t, s.p); g != 0 {
				v = f.Add(v, f.FromInt(int64(g)))
			}
			e.a[l] = f.Add(e.a[l], f.Mul(pr, v))
		}
	})
	return e
}

// seatChoiceEq returns the equation, not merged, of every seat's expected pairs in row n's state
// nd after the draw with seat t to move at pass streak l making choice ch: a pass at the last
// streak is the stalemate, any other pass refers to the next seat's unknowns at streak l+1 of the
// states it leaves, ref(at, l+1), and any other choice is seatTurnEq's, referring to ref(at, 0).
func (s *fluctSeats[T]) seatChoiceEq(n int, nd fluctNode, t, l int, ch rules.Choice, before [][]fluctRef[T], ref func(at, l int) int) decayEq[T] {
	switch {
	case ch == rules.Pass && l == s.p-1:
		return decayEq[T]{a: s.stalemate(n)}
	case ch == rules.Pass:
		e := decayEq[T]{a: s.zeroVec()}
		to, coef := passRefs(nd.k, nd.c, before)
		for j, at := range to {
			e.to = append(e.to, ref(at, l+1))
			e.coef = append(e.coef, coef[j])
		}
		return e
	}
	return s.seatTurnEq(n, nd, t, ch, before, func(at int) int { return ref(at, 0) })
}

// turnOutcomes walks the outcomes of seat t's choice ch (not a pass) in row n's state nd after
// the draw: those that stay in the row add to e a reference to the next seat's unknowns of the
// states after its draw, ref(at); for each that leaves it, to the row of o.Next.N pairs (n - 1,
// or n - 2 under blind flips), leave gets its probability, that row's known cards k2, the seat
// that moves there and how many more capacities are drawn before its turn (the next seat takes
// the pairs it was handed known whole, a turn and a draw each, then moves again after a draw).
func (s *fluctSeats[T]) turnOutcomes(e *decayEq[T], n int, nd fluctNode, t int, ch rules.Choice, before [][]fluctRef[T], ref func(at int) int, leave func(pr T, o Outcome, k2, mover, draws int)) {
	f := s.f
	next := (t + 1) % s.p
	for _, o := range s.outcomes(n, nd.k, nd.c, ch) {
		pr := f.FromFrac(o.Prob.Num, o.Prob.Den)
		if k2 := sameRow(o, n); k2 >= 0 {
			for _, r := range before[k2] {
				e.to = append(e.to, ref(r.at))
				e.coef = append(e.coef, f.Mul(pr, r.p))
			}
			continue
		}
		mover, draws := next, o.NextGain
		if o.Continue {
			mover, draws = t, 0
		}
		leave(pr, o, o.Next.N-o.Next.J, mover, draws)
	}
}

// turnGain returns the pairs seat b takes in outcome o of seat t's turn at p seats: the mover's
// gain, and the next seat's when the turn hands over.
func turnGain(o Outcome, b, t, p int) int {
	g := 0
	if b == t {
		g += o.MoverGain
	}
	if b == (t+1)%p && !o.Continue {
		g += o.NextGain
	}
	return g
}

// prevSeatVec returns every seat's expected pairs in an earlier row's (n1, k) before the draw
// with seat t to move, read from the row of n (n1 = n - 1, or n - 2 under blind flips), after
// draws more draws as in prevVec.
func (s *fluctSeats[T]) prevSeatVec(n, n1, k, t, draws int) []T {
	rows := s.prevSeats
	if n1 == n-2 {
		rows = s.prevSeats2
	}
	vals := make([][]T, len(rows))
	for i := range rows {
		vals[i] = rows[i][t]
	}
	return s.prevVec(vals, n1, k, draws)
}

// run solves every row up to maxPairs, calling visit, when not nil, after each.
func (s *fluctSeats[T]) run(ctx context.Context, maxPairs int, visit func(n int) error) error {
	zeros := make([]T, s.p)
	for i := range zeros {
		zeros[i] = s.zero
	}
	s.prevSelf = [][]T{zeros}
	s.prevSeats = [][][]T{make([][]T, s.p)}
	for t := range s.p {
		s.prevSeats[0][t] = zeros
	}
	s.prevSelf2, s.prevSeats2 = s.prevSelf, s.prevSeats
	s.choice = [][][]rules.Choice{nil}
	s.streakChoice = [][][][]rules.Choice{nil}
	s.replyChoice = [][][][]rules.Choice{nil}
	done := ctx.Done()
	for n := 1; n <= maxPairs; n++ {
		select {
		case <-done:
			return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		if err := s.row(n); err != nil {
			return err
		}
		s.prevSelf2, s.prevSeats2 = s.prevSelf, s.prevSeats
		s.prevSelf, s.prevSeats = s.self, s.seats
		if visit != nil {
			if err := visit(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// row solves the row of n pairs: the optimum of every seat for itself, then a policy per seat,
// under pass rule never or, at every pass streak, under a pass rule (fluctselfishpass.go).
func (s *fluctSeats[T]) row(n int) error {
	if s.two != nil {
		if err := s.two.upTo(n); err != nil {
			return err
		}
	}
	self, multi := s.selfRow, s.multiRow
	if s.passes() {
		self, multi = s.selfPassRow, s.multiPassRow
	}
	if s.needSelf {
		if err := self(n); err != nil {
			return err
		}
	}
	switch {
	case s.needMulti && s.reply >= 0:
		return s.replyRow(n, s.reply)
	case s.needMulti:
		return multi(n)
	}
	return nil
}

// evaluateFluctSeats is Evaluate under a fluctuating capacity at three or more seats.
func evaluateFluctSeats[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	s, err := newFluctSeats(f, m, mu)
	if err != nil {
		return Result[T]{}, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return Result[T]{}, err
	}
	if err := s.run(ctx, st.N, nil); err != nil {
		return Result[T]{}, err
	}
	res := Result[T]{State: st, Players: s.p}
	switch {
	case st.N == 0:
		res.PairsBySeat = make([]T, s.p)
		for i := range res.PairsBySeat {
			res.PairsBySeat[i] = s.zero
		}
	case s.needMulti:
		res.PairsBySeat = append([]T(nil), s.prevSeats[k][0]...)
	default:
		res.PairsBySeat = append([]T(nil), s.prevSelf[k]...)
	}
	res.ExpectedPairs = res.PairsBySeat[0]
	return res, nil
}

// FluctSelfishGaps lists, in order of n, then known cards, then capacity, the states after the
// draw with at most maxPairs pairs of model m (a fluctuating capacity) in which the optimum of
// players seats (3 to 8) has no stationary equilibrium in pure choices.
func FluctSelfishGaps[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) ([]FluctSelfishGap[T], error) {
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	s, err := newFluctSeats(f, m, mu)
	if err != nil {
		return nil, err
	}
	gaps := []FluctSelfishGap[T]{}
	s.gaps = &gaps
	if err := s.run(ctx, maxPairs, nil); err != nil {
		return nil, err
	}
	return gaps, nil
}

// FluctSelfishTable returns the choices of the optimum of every seat for itself at players seats
// (3 to 8) under the fluctuating capacity of model m, in every state of at most maxPairs pairs and
// every capacity drawn: a table with a layer per capacity, as FluctTable's. Under a pass rule every
// layer holds the choices at every pass streak (rules.NewPassChoiceTable, read by
// LookupCapacityPasses).
func FluctSelfishTable[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) (*rules.ChoiceTable, error) {
	if IsFluctSingles(m) {
		return fluctSinglesSeatsTable(ctx, f, m, Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, maxPairs) // fluctsingles_seats.go
	}
	s, err := newFluctSeats(f, m, Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, maxPairs, nil); err != nil {
		return nil, err
	}
	if s.passes() {
		return s.streakLayers(maxPairs)
	}
	return capacityLayers(m, maxPairs, s.lru(), s.choice, nil)
}

// capacityLayers returns the table of a layer per capacity of the choices choice[n][c][k] (c
// merged from n + 1 up), from max(2, m - σ) to the largest capacity that binds in a deal of
// maxPairs pairs. after, when not nil, holds the choices just after a pass by the other seat,
// laid out as choice.
func capacityLayers(m Model, maxPairs int, lru bool, choice, after [][][]rules.Choice) (*rules.ChoiceTable, error) {
	lo := fluctCaps(m.Memory, max(maxPairs, 1))[0].c
	hi := max(lo, min(fluctMaxKnown(m.Memory), fluctTop(m, maxPairs)))
	layers := make([]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		t, err := rules.NewChoiceTable(maxPairs, 0)
		if err != nil {
			return nil, err
		}
		for n := 1; n <= maxPairs; n++ {
			cn := min(c, fluctTop(m, n)) // the capacities of a row are merged from n + 1 up (fluctTop)
			byCap := choice[n]
			if cn >= len(byCap) || byCap[cn] == nil {
				continue
			}
			for k, ch := range byCap[cn] {
				if !lru || k <= cn {
					t.Set(rules.State{N: n, J: n - k}, false, ch)
					if after != nil {
						t.Set(rules.State{N: n, J: n - k}, true, after[n][cn][k])
					}
				}
			}
		}
		layers[i] = t
	}
	return rules.NewCapacityChoiceTable(lo, layers)
}

// estimateFluctSeats is Estimate under a fluctuating capacity at three or more seats: a curve
// fitted to measured solves of 3 seats of lru(5) with σ = 2, every seat for itself (memsim solve
// --players 3 --memory 5 --forget lru --fluctuation 2: exact rationals 0.8 s for 12 pairs, 6.7 s
// for 30; float64 0.24 s for 100, 1.3 s for 800), scaled with the seats (8 seats: 24 s for 12 pairs
// in exact rationals, 0.8 s for 100 in float64) and with a row's states after the draw against
// that memory's 40, and by 1.5 for a lineup with a fixed policy (a second system per row); under a
// pass rule as fluctStreakCost says.
func estimateFluctSeats[T any](f field.Field[T], m Model, mu Lineup, pairs int) (Cost, error) {
	if err := validateFluctSeats(m, mu); err != nil {
		return Cost{}, err
	}
	p := float64(mu.Players) / 3
	k := float64(min(int64(pairs), int64(m.Memory.Capacity)+int64(m.Memory.Fluctuation)) + 1)
	caps := float64(min(2*int64(m.Memory.Fluctuation)+1, int64(pairs)+1))
	states := k * caps / 40
	multi := 1.0
	for t := range mu.Players {
		if fluctSeatPolicy(mu, t) != rules.PolicyOptimal || mu.TwoPlayerOptimal {
			multi = 1.5
		}
	}
	if mu.replySeat() >= 0 {
		multi = 4 // a few systems per row, the reply's policy iteration
	}
	n := float64(pairs)
	unknowns := float64(mu.Players) * k * caps
	var seconds, bytes float64
	if _, isFloat := any(f).(field.Float); isFloat {
		seconds = 0.0017 * n * math.Pow(p, 1.2) * states
		bytes = baseBytes + unknowns*unknowns*8
	} else {
		seconds = 0.85 * math.Pow(n/12, 2.2) * math.Pow(p, 3.4) * math.Pow(states, 1.5)
		bytes = baseBytes + gcHeadroom*unknowns*unknowns*(ratBytes+8*n)
	}
	if m.Pass != rules.PassNever {
		seconds, bytes = fluctStreakCost(f, mu.Players, seconds, bytes)
	}
	return Cost{Ops: seconds * multi * OpsPerSecond, Bytes: bytes}, nil
}

// preferBetter moves the row's equilibrium sol, state by state in the row's order, to another
// equilibrium that gives the state's mover more, as §4.7 takes at a fixed capacity the
// equilibrium of a state that gives its mover the most: a choice c' is tried at state i when, the
// other states' vectors held, every seat playing c' there is an equilibrium of the state and gives
// the mover more; the row is then solved again by policy iteration from the profile with c' at i,
// kept when it ends in an equilibrium of the row that gives i's mover more.
func (r *selfRow[T]) preferBetter(f field.Field[T], sol *selfRowSolution[T]) (*selfRowSolution[T], error) {
	zero := f.FromInt(0)
	if f.Cmp(sol.eps, zero) != 0 {
		return sol, nil
	}
	for i := range r.eqs {
		for _, c := range rules.Choices() {
			if r.eqs[i][c] == nil || c == sol.ch[i] {
				continue
			}
			v, ok := r.localEquilibrium(f, i, c, sol.x)
			if !ok || f.Cmp(v, sol.x[i*r.p][0]) <= 0 {
				continue
			}
			ch := append([]rules.Choice(nil), sol.ch...)
			ch[i] = c
			next, settled, err := r.iterate(f, ch, selfDecayIterations)
			if err != nil {
				return nil, err
			}
			if settled && f.Cmp(next.x[i*r.p][0], sol.x[i*r.p][0]) > 0 {
				sol = next
			}
		}
	}
	return sol, nil
}

// localEquilibrium returns the mover's value at state i when every seat plays c there, the other
// states' vectors held at x, and whether no choice made once there then gives the mover more.
func (r *selfRow[T]) localEquilibrium(f field.Field[T], i int, c rules.Choice, x [][]T) (T, bool) {
	p := r.p
	one := f.FromInt(1)
	// split returns the choice's vector a (the other states' references read in x) and the
	// probability b of handing state i itself to the next seat.
	split := func(e *selfEq[T]) ([]T, T) {
		a := append([]T(nil), e.a...)
		b := f.FromInt(0)
		for t, j := range e.to {
			if j == i {
				b = f.Add(b, e.coef[t])
				continue
			}
			for s := range a {
				a[s] = f.Add(a[s], f.Mul(e.coef[t], x[j*p+(s+p-1)%p][0]))
			}
		}
		return a, b
	}
	a, b := split(r.eqs[i][c])
	// v = a + b rot(v): v_0 = (a_0 + b a_{p-1} + ... + b^{p-1} a_1) / (1 - b^p), and the last seat's
	// v_{p-1} = (a_{p-1} + b a_{p-2} + ... + b^{p-1} a_0) / (1 - b^p).
	seat := func(s int) T {
		v, pw := f.FromInt(0), one
		for t := range p {
			v = f.Add(v, f.Mul(pw, a[(s-t+p)%p]))
			pw = f.Mul(pw, b)
		}
		return f.Div(v, f.Sub(one, pw))
	}
	v0, last := seat(0), seat(p-1)
	for _, d := range rules.Choices() {
		if r.eqs[i][d] == nil || d == c {
			continue
		}
		ad, bd := split(r.eqs[i][d])
		if f.Cmp(f.Add(ad[0], f.Mul(bd, last)), v0) > 0 {
			return v0, false
		}
	}
	return v0, true
}
