package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesCell holds the values of one state of the copies model.
type copiesCell[T any] struct {
	legal [rules.NumChoices]bool
	outs  [rules.NumChoices][]copiesOutcome
	probs [rules.NumChoices][]T

	opt       T // two-player lead of the mover when both play optimally
	optChoice rules.Choice
	optDev    [rules.NumChoices]T // each legal choice's lead, optimal play afterwards

	self       []T // every seat for itself: every seat's expected pairs from the mover
	selfChoice rules.Choice

	lead     [2]T // two players: the lead of the mover playing role 0's or role 1's policy
	brChoice [2]rules.Choice
	// total is, under a turn limit, the pairs both seats take by the limit with role 0's or role
	// 1's policy to move (without a limit, every pair on the table).
	total [2]T

	solo       [3]T // one player: expected turns, lucky matches and pairs taken
	soloChoice rules.Choice
	// soloDist is, when asked for (copiesSolver.soloTurns), solitaire's distribution of the
	// number of turns from the state (copiessolo.go).
	soloDist []T

	// t is the number of turns left under a turn limit (0 without one).
	t int
	// pairs is the pairs left in the state.
	pairs int

	seats [][]T // seats[t][i]: seat i's expected pairs when seat t is to move

	dist [2][]T // two players: each role's distribution of its lead, indexed by lead + maxPairs
	// distAfter is dist just after a pass by the other seat, under a pass rule (copiespass.go).
	distAfter [2][]T

	win *copiesWinCell[T] // two players, a role playing to win: the values at every lead (copieswin.go)

	// leadAfter and brAfter are, under a pass rule (copiespass.go), lead and brChoice just after a
	// pass by the other seat; where the mover may not pass, no pass can have been made in the
	// state, and they repeat lead and brChoice.
	leadAfter [2]T
	brAfter   [2]rules.Choice
	// totalAfter is, under a pass rule and a turn limit, total just after a pass by the other seat.
	totalAfter [2]T
	// optAfter and optAfterChoice are, under a pass rule, opt and optChoice just after a pass by
	// the other seat (under a turn limit they may differ from them).
	optAfter       T
	optAfterChoice rules.Choice
	// passNext is, where the mover may pass, the cell a pass leads to: the same state, with one
	// turn fewer under a turn limit (copiespass.go); the cell itself without a limit.
	passNext *copiesCell[T]

	// streak holds, at three or more seats under a pass rule, the values at every pass streak
	// (copiespassseats.go); nil elsewhere and in a state with no card left to turn.
	streak *copiesStreak[T]
	// sdist holds, when asked for, every seat's distribution with each seat to move at each pass
	// streak (copiesseatsdist.go); nil in a state with no card or no turn left.
	sdist [][]T
}

// copiesSolver solves the copies model by memoised recursion: every turn takes a pair or flips a
// card that was not remembered, so no state refers to itself.
type copiesSolver[T any] struct {
	ctx context.Context
	f   field.Field[T]
	m   Model
	mu  Lineup
	pol [rules.MaxPlayers]rules.Policy // every seat's policy

	needOpt, needSelf, needLead, needSolo, needSeats bool
	// needWin asks for the values at every lead of a two-player lineup in which a role plays to
	// win, needWinOpt for win-optimal's self-play among them (copieswin.go).
	needWin, needWinOpt bool
	// needDist asks for the distribution of the lead (two players), over leads -maxPairs ..
	// maxPairs.
	needDist bool
	maxPairs int
	// limit is the model's turn limit: the states carry the turns left (0: no limit).
	limit int
	// soloTurns, when positive, asks for solitaire's distribution of the number of turns, 0 ..
	// soloTurns - 1 (copiessolo.go).
	soloTurns int

	memo      map[copiesAt]*copiesCell[T]
	zero, one T
	// sdist, when not nil, asks for every seat's distribution at three or more seats
	// (copiesseatsdist.go).
	sdist *copiesSeatsDist[T]
}

// copiesAt is a state of the copies model, by its key, with t turns left under a turn limit (0
// without one).
type copiesAt struct {
	key string
	t   int
}

// checkCopies reports whether the copies model m can solve the matchup mu, under a turn limit too
// (copieslimit.go).
func checkCopies(m Model, mu Lineup) error {
	switch {
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("copies %d: a policy given as a table holds a choice per count state of the pairs game, which cannot describe a state of faces (a face's cards on the table and remembered), so it has no exact model", m.Variant.CopiesOf())
	case !m.Memory.Perfect():
		return fmt.Errorf("copies %d: only perfect memory has an exact model, not %s", m.Variant.CopiesOf(), m.Memory)
	case m.Singletons != 0:
		return fmt.Errorf("copies %d: singletons have no exact model", m.Variant.CopiesOf())
	case m.Pass != rules.PassNever:
		if err := checkCopiesPass(m, mu); err != nil {
			return err
		}
	}
	if err := mu.Validate(m); err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return err
	}
	if mu.playsToWinCopies() {
		return checkCopiesWin(m, mu)
	}
	seats := copiesSeats(mu)
	for _, p := range seats[:mu.Players] {
		switch p {
		case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse:
		default:
			return fmt.Errorf("policy %s with copies %d has no exact model (allowed: optimal, safe, daring, best-response; win-optimal and win-best-response with two players)", p, m.Variant.CopiesOf())
		}
	}
	if mu.Players == 2 && !mu.PerSeat && mu.Opponent == rules.PolicyParity {
		return fmt.Errorf("policy parity with copies %d has no exact model (allowed: optimal, safe, daring)", m.Variant.CopiesOf())
	}
	return nil
}

// copiesSeats returns every seat's policy.
func copiesSeats(mu Lineup) [rules.MaxPlayers]rules.Policy {
	if mu.PerSeat {
		return mu.Seats
	}
	var pol [rules.MaxPlayers]rules.Policy
	for i := range pol {
		pol[i] = mu.Opponent
	}
	pol[0] = mu.Policy
	return pol
}

func newCopiesSolver[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup) (*copiesSolver[T], error) {
	if err := checkCopies(m, mu); err != nil {
		return nil, err
	}
	s := &copiesSolver[T]{ctx: ctx, f: f, m: m, mu: mu, pol: copiesSeats(mu), memo: map[copiesAt]*copiesCell[T]{},
		zero: f.FromInt(0), one: f.FromInt(1), limit: m.Variant.TurnLimit}
	optimal := false
	for _, p := range s.pol[:mu.Players] {
		optimal = optimal || p == rules.PolicyOptimal || p == rules.PolicyBestResponse
	}
	switch {
	case mu.Players == 1:
		s.needSolo = true
	case mu.playsToWinCopies():
		s.needOpt, s.needWin = optimal, true
		s.needWinOpt = mu.Policy == rules.PolicyWinOptimal || mu.Opponent == rules.PolicyWinOptimal
	case mu.Players == 2 && !mu.PerSeat:
		s.needOpt, s.needLead = optimal, true
	case isSelfish(mu):
		s.needSelf = true
	default:
		s.needSeats = true
		s.needSelf = optimal && !mu.TwoPlayerOptimal
		s.needOpt = optimal && mu.TwoPlayerOptimal
	}
	return s, nil
}

// EvaluateCopies returns the value of the matchup from state st in the model m, whose variant has
// st.Copies() cards to a face (docs/models.md §4.16). Result.State is st.RulesState().
func EvaluateCopies[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Result[T], error) {
	if isCopiesMem(m) {
		return evaluateCopiesMem(ctx, f, m, mu, st) // copiesmem.go
	}
	if isCopiesDecay(m) {
		return evaluateCopiesDecay(ctx, f, m, mu, st) // copiesdecay.go
	}
	if err := st.Validate(); err != nil {
		return Result[T]{}, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return Result[T]{}, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return Result[T]{}, err
	}
	c, err := s.get(st.vec().key(), s.limit)
	if err != nil {
		return Result[T]{}, err
	}
	return s.result(st, c), nil
}

// result reads the matchup's value from the cell of st.
func (s *copiesSolver[T]) result(st CopiesState, c *copiesCell[T]) Result[T] {
	f := s.f
	res := Result[T]{State: st.RulesState(), Players: s.mu.Players}
	n := f.FromInt(int64(st.Pairs()))
	switch {
	case s.needSolo:
		res.ExpectedTurns, res.ExpectedLucky = c.solo[0], c.solo[1]
		if s.limit > 0 {
			res.ExpectedPairs, res.PairsBySeat = c.solo[2], []T{c.solo[2]}
		}
	case s.needWin:
		i := c.win.at(0)
		res.ExpectedLead = c.win.lead[0][i]
		res.ExpectedPairs, res.PairsBySeat = s.winPairs(n, c.win.lead[0][i], c.win.total[0][i])
	case s.needLead && s.limit > 0:
		two := f.FromInt(2)
		res.ExpectedLead = c.lead[0]
		res.ExpectedPairs = f.Div(f.Add(c.total[0], c.lead[0]), two)
		res.PairsBySeat = []T{res.ExpectedPairs, f.Div(f.Sub(c.total[0], c.lead[0]), two)}
	case s.needLead:
		res.ExpectedLead = c.lead[0]
		res.ExpectedPairs = pairsFromLead(f, n, c.lead[0])
		res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	case s.needSeats:
		res.PairsBySeat = c.seats[0]
		res.ExpectedPairs = c.seats[0][0]
	default:
		res.PairsBySeat = append([]T(nil), c.self...)
		res.ExpectedPairs = c.self[0]
	}
	return res
}

// get returns the cell of the state with that key and t turns left (0 without a limit), solving
// it (and the states it leads to) first.
func (s *copiesSolver[T]) get(key string, t int) (*copiesCell[T], error) {
	at := copiesAt{key, t}
	if c, ok := s.memo[at]; ok {
		return c, nil
	}
	select {
	case <-s.ctx.Done():
		return nil, fmt.Errorf("solver stopped: %w", s.ctx.Err())
	default:
	}
	v := vecOfKey(key)
	c := &copiesCell[T]{t: t, pairs: v.state().Pairs()}
	if unknownCards(v) == 0 || (s.limit > 0 && t == 0) {
		s.terminal(c)
		if s.soloTurns > 0 {
			c.soloDist = s.zeros(s.soloTurns)
			c.soloDist[0] = s.one
		}
		if s.needWin {
			c.win = s.newWinCell(v.state().Pairs()) // the lead so far is final
		}
		s.memo[at] = c
		return c, nil
	}
	if err := s.prepare(c, v); err != nil {
		return nil, err
	}
	if s.streaks() {
		c.streak = &copiesStreak[T]{pairs: v.state().Pairs()}
	}
	if s.needOpt {
		s.optimal(c)
	}
	if s.needSelf {
		s.selfish(c)
	}
	if s.needLead {
		s.leads(c)
	}
	if s.needSolo {
		s.solitaire(c)
		if s.soloTurns > 0 {
			s.soloTurnsDist(c) // copiessolo.go
		}
	}
	if s.needSeats {
		s.perSeat(c)
	}
	if s.needDist {
		s.distribution(c)
	}
	if s.needWin {
		s.winValues(c, v.state().Pairs())
	}
	if s.sdist != nil {
		s.seatsDist(c) // copiesseatsdist.go
	}
	c.outs, c.probs = [rules.NumChoices][]copiesOutcome{}, [rules.NumChoices][]T{} // read no more
	s.memo[at] = c
	return c, nil
}

// prepare sets the legal choices of c, the state v, and their outcomes, solving the states they
// lead to first.
func (s *copiesSolver[T]) prepare(c *copiesCell[T], v copiesVec) error {
	for _, ch := range rules.Choices() {
		if ch == rules.Pass {
			c.legal[ch] = copiesPassLegal(v, s.m) // a pass flips nothing: no outcomes
			if err := s.preparePass(c, v); err != nil {
				return err
			}
			continue
		}
		if c.legal[ch] = copiesLegal(v, ch, s.m.Choices); !c.legal[ch] {
			continue
		}
		c.outs[ch] = s.outcomes(v, ch)
		for _, o := range c.outs[ch] {
			t, _ := s.after(o, c.t)
			if _, err := s.get(o.next, t); err != nil {
				return err
			}
			c.probs[ch] = append(c.probs[ch], s.f.FromFrac(o.num, o.den))
		}
	}
	return nil
}

// after returns the turns left in an outcome's next state after a turn with t turns left, and
// the pairs the next seat takes first of those the turn left remembered whole (o.handed): under a
// turn limit each costs a turn of its own, and is not taken when none is left. Without a limit
// the turns left stay 0.
func (s *copiesSolver[T]) after(o copiesOutcome, t int) (int, int) {
	if s.limit == 0 {
		return 0, o.handed
	}
	g := min(o.handed, t-1)
	return t - 1 - g, g
}

// terminal sets the values of the empty table.
func (s *copiesSolver[T]) terminal(c *copiesCell[T]) {
	p := s.mu.Players
	c.opt, c.lead, c.total, c.solo = s.zero, [2]T{s.zero, s.zero}, [2]T{s.zero, s.zero}, [3]T{s.zero, s.zero, s.zero}
	c.leadAfter, c.totalAfter, c.optAfter = c.lead, c.total, s.zero
	c.self = s.zeros(p)
	c.seats = make([][]T, p)
	for t := range c.seats {
		c.seats[t] = s.zeros(p)
	}
	if s.needDist {
		for r := range c.dist {
			c.dist[r] = s.zeros(2*s.maxPairs + 1)
			c.dist[r][s.maxPairs] = s.one
		}
	}
}

func (s *copiesSolver[T]) zeros(p int) []T {
	z := make([]T, p)
	for i := range z {
		z[i] = s.zero
	}
	return z
}

// next returns the cell of an outcome's next state after a turn of c (solved before), and the
// pairs the next seat takes first of those the turn left remembered whole (see after).
func (s *copiesSolver[T]) next(c *copiesCell[T], o copiesOutcome) (*copiesCell[T], int) {
	t, g := s.after(o, c.t)
	return s.memo[copiesAt{o.next, t}], g
}

// leadOf returns the mover's lead after choice ch in c, reading the lead of the mover's role
// (keep) and of the next seat's role from val.
func (s *copiesSolver[T]) leadOf(c *copiesCell[T], ch rules.Choice, val func(x *copiesCell[T], next bool) T) T {
	f := s.f
	sum := s.zero
	for i, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		var x T
		if o.keep {
			x = f.Add(s.one, val(nx, false))
		} else {
			x = f.Sub(f.FromInt(int64(-g)), val(nx, true))
		}
		sum = f.Add(sum, f.Mul(c.probs[ch][i], x))
	}
	return sum
}

// totalOf returns, under a turn limit, the pairs both seats take by the limit after choice ch in
// c, reading those with the mover's role (keep) or the next seat's to move from val.
func (s *copiesSolver[T]) totalOf(c *copiesCell[T], ch rules.Choice, val func(x *copiesCell[T], next bool) T) T {
	f := s.f
	sum := s.zero
	for i, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		x := val(nx, !o.keep)
		if o.keep {
			g = 1
		}
		if g > 0 {
			x = f.Add(x, f.FromInt(int64(g)))
		}
		sum = f.Add(sum, f.Mul(c.probs[ch][i], x))
	}
	return sum
}

// best returns the first legal choice, in the order daring, safe, known-first, whose value is
// largest (smallest when less), and every legal choice's value.
func (s *copiesSolver[T]) best(c *copiesCell[T], less bool, value func(ch rules.Choice) T) (rules.Choice, [rules.NumChoices]T) {
	var vals [rules.NumChoices]T
	best := rules.Daring
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		vals[ch] = value(ch)
		cmp := s.f.Cmp(vals[ch], vals[best])
		if less {
			cmp = -cmp
		}
		if ch != rules.Daring && cmp > 0 {
			best = ch
		}
	}
	return best, vals
}

// optimal computes the two-player optimum: both seats maximise their lead.
func (s *copiesSolver[T]) optimal(c *copiesCell[T]) {
	if c.legal[rules.Pass] {
		s.optimalPass(c) // copiespass.go
		return
	}
	c.optChoice, c.optDev = s.best(c, false, func(ch rules.Choice) T {
		return s.leadOf(c, ch, func(x *copiesCell[T], _ bool) T { return x.opt })
	})
	c.opt = c.optDev[c.optChoice]
	c.optAfter, c.optAfterChoice = c.opt, c.optChoice // no pass can have been made here
}

// fixedChoice returns the choice of fixed policy p in c: safe where it is legal, else daring.
func fixedChoice[T any](c *copiesCell[T], p rules.Policy) rules.Choice {
	if p == rules.PolicySafe && c.legal[rules.Safe] {
		return rules.Safe
	}
	return rules.Daring
}

// leads computes the two roles' leads (two players): role 0 is seat 0's policy, role 1 the other
// seat's; after a hand-over the other role moves.
func (s *copiesSolver[T]) leads(c *copiesCell[T]) {
	if s.m.Pass != rules.PassNever {
		s.leadsPass(c) // copiespass.go
		return
	}
	for r := range 2 {
		val := func(x *copiesCell[T], next bool) T {
			if next {
				return x.lead[1-r]
			}
			return x.lead[r]
		}
		value := func(ch rules.Choice) T { return s.leadOf(c, ch, val) }
		var ch rules.Choice
		switch p := s.pol[r]; p {
		case rules.PolicyOptimal:
			ch = c.optChoice
		case rules.PolicyBestResponse:
			ch, _ = s.best(c, false, value)
		default:
			ch = fixedChoice(c, p)
		}
		c.brChoice[r] = ch
		c.lead[r] = value(ch)
		if s.limit > 0 {
			c.total[r] = s.totalOf(c, ch, func(x *copiesCell[T], next bool) T {
				if next {
					return x.total[1-r]
				}
				return x.total[r]
			})
		}
	}
}

// solitaire computes the expected turns and lucky matches of one player, and under a turn limit
// the pairs taken by then: optimal then takes the most pairs and, among the choices that do, the
// fewest turns (without a limit every choice takes every pair).
func (s *copiesSolver[T]) solitaire(c *copiesCell[T]) {
	f := s.f
	ch := fixedChoice(c, s.pol[0])
	if s.pol[0] != rules.PolicyOptimal {
		c.soloChoice, c.solo = ch, s.soloOf(c, ch)
		return
	}
	var best [3]T
	for _, x := range rules.Choices() {
		if !c.legal[x] {
			continue
		}
		v := s.soloOf(c, x)
		if x != rules.Daring {
			p := f.Cmp(v[2], best[2])
			if s.limit == 0 {
				p = 0
			}
			if p < 0 || (p == 0 && f.Cmp(v[0], best[0]) >= 0) {
				continue
			}
		}
		ch, best = x, v
	}
	c.soloChoice, c.solo = ch, best
}

// soloOf returns, for one player, the expected turns, lucky matches and pairs taken (under a
// turn limit) after choice ch in c, the policy played afterwards.
func (s *copiesSolver[T]) soloOf(c *copiesCell[T], ch rules.Choice) [3]T {
	f := s.f
	v := [3]T{s.zero, s.zero, s.zero}
	for i, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		x := [3]T{f.Add(s.one, nx.solo[0]), nx.solo[1], nx.solo[2]}
		if g > 0 {
			x[0] = f.Add(x[0], f.FromInt(int64(g))) // the turns that take the pairs known whole
		}
		if o.lucky {
			x[1] = f.Add(x[1], s.one)
		}
		if o.keep {
			g = 1
		}
		if g > 0 {
			x[2] = f.Add(x[2], f.FromInt(int64(g)))
		}
		for k := range v {
			v[k] = f.Add(v[k], f.Mul(c.probs[ch][i], x[k]))
		}
	}
	return v
}

// vecAfter returns every seat's expected pairs, in order from the mover, after choice ch in c,
// each state's vector read by vec (in order from its own mover).
func (s *copiesSolver[T]) vecAfter(c *copiesCell[T], ch rules.Choice, vec func(x *copiesCell[T]) []T) []T {
	f, p := s.f, s.mu.Players
	sum := s.zeros(p)
	for k, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		w := vec(nx)
		for i := range p {
			var x T
			switch {
			case o.keep:
				x = w[i]
				if i == 0 {
					x = f.Add(x, s.one)
				}
			default:
				x = w[(i-1+p)%p] // the next seat moves: seat i is its seat i-1
				if i == 1 && g > 0 {
					x = f.Add(x, f.FromInt(int64(g)))
				}
			}
			sum[i] = f.Add(sum[i], f.Mul(c.probs[ch][k], x))
		}
	}
	return sum
}

// selfish computes the optimum of every seat for itself (docs/models.md §4.7): the mover's first
// choice, in the order daring, safe, known-first, with the most expected pairs for itself.
func (s *copiesSolver[T]) selfish(c *copiesCell[T]) {
	if c.streak != nil {
		s.selfishStreak(c) // copiespassseats.go
		return
	}
	var vecs [rules.NumChoices][]T
	c.selfChoice, _ = s.best(c, false, func(ch rules.Choice) T {
		vecs[ch] = s.vecAfter(c, ch, func(x *copiesCell[T]) []T { return x.self })
		return vecs[ch][0]
	})
	c.self = vecs[c.selfChoice]
}

// perSeat computes every seat's expected pairs with each seat to move, every seat playing its
// own policy.
func (s *copiesSolver[T]) perSeat(c *copiesCell[T]) {
	if c.streak != nil {
		s.perSeatStreak(c) // copiespassseats.go
		return
	}
	p := s.mu.Players
	if r := s.mu.replySeat(); r >= 0 {
		c.brChoice[0] = s.replyChoice(c, r)
	}
	c.seats = make([][]T, p)
	for t := range p {
		c.seats[t] = s.seatsAfter(c, t, s.seatChoice(c, t))
	}
}

// seatChoice returns the choice of seat t's policy in c: the replying seat's best choice
// (replyChoice) where it plays best-response beside three or more seats.
func (s *copiesSolver[T]) seatChoice(c *copiesCell[T], t int) rules.Choice {
	if s.pol[t] == rules.PolicyBestResponse && s.mu.replySeat() == t {
		return c.brChoice[0]
	}
	if s.pol[t] != rules.PolicyOptimal {
		return fixedChoice(c, s.pol[t])
	}
	if s.mu.TwoPlayerOptimal {
		return c.optChoice
	}
	return c.selfChoice
}

// seatsAfter returns every seat's expected pairs after seat t's choice ch in c, every seat
// playing its own policy afterwards.
func (s *copiesSolver[T]) seatsAfter(c *copiesCell[T], t int, ch rules.Choice) []T {
	f, p := s.f, s.mu.Players
	sum := s.zeros(p)
	for k, o := range c.outs[ch] {
		x, g := s.next(c, o)
		mover := t
		if !o.keep {
			mover = (t + 1) % p
		}
		for i := range p {
			y := x.seats[mover][i]
			switch {
			case o.keep && i == t:
				y = f.Add(y, s.one)
			case !o.keep && g > 0 && i == mover:
				y = f.Add(y, f.FromInt(int64(g)))
			}
			sum[i] = f.Add(sum[i], f.Mul(c.probs[ch][k], y))
		}
	}
	return sum
}

// evaluateCopiesStart evaluates the copies model from the start of a game of st.N pairs.
func evaluateCopiesStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if st.J != st.N || st.S != 0 || st.F != 0 {
		return Result[T]{}, fmt.Errorf("copies %d: state %v: the count state (n, j) solves the start of a game only, (n, n); see EvaluateCopies", m.Variant.CopiesOf(), st)
	}
	if err := m.Validate(); err != nil {
		return Result[T]{}, err
	}
	start, err := StartCopiesState(st.N, m.Variant.CopiesOf())
	if err != nil {
		return Result[T]{}, err
	}
	return EvaluateCopies(ctx, f, m, mu, start)
}

// CopiesPolicyTable returns the choices of seat 0's policy of mu (optimal, or best-response to
// the other seat's) in the copies model m, in every state a game of the given number of pairs
// reaches from its start: the table the engine plays optimal and best-response from under k
// copies of a face. With one player it is the solitaire optimum, with three or more the optimum
// of every seat for itself. Under a turn limit the choices depend on the turns left:
// CopiesPolicyTurnTables gives them.
func CopiesPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) (*rules.CopiesTable, error) {
	if m.Variant.TurnLimit > 0 {
		return nil, fmt.Errorf("copies %d, turn limit %d: the choices depend on the turns left (see CopiesPolicyTurnTables)", m.Variant.CopiesOf(), m.Variant.TurnLimit)
	}
	layers, err := copiesPolicyLayers(ctx, f, m, mu, pairs)
	if err != nil {
		return nil, err
	}
	return layers[0], nil
}

// solveStarts solves the states a table of deals of up to pairs pairs needs: the start of the
// largest deal, which reaches the smaller ones, or under a turn limit the start of every deal
// size, which the smaller deals reach with every turn left.
func (s *copiesSolver[T]) solveStarts(pairs int) error {
	k := s.m.Variant.CopiesOf()
	first := pairs
	if s.limit > 0 {
		first = k / 2
	}
	for n := first; n <= pairs; n += k / 2 {
		start, err := StartCopiesState(n, k)
		if err != nil {
			return err
		}
		if _, err := s.get(start.vec().key(), s.limit); err != nil {
			return err
		}
	}
	return nil
}

// copiesPolicyLayers returns the tables of CopiesPolicyTable, one without a turn limit and one
// per number of turns left under a limit (layers[t-1] with t turns left), each holding the states
// a game reaches with that many turns left. Under a limit every deal size up to pairs is solved
// from its start, so that the tables cover the smaller deals too, which start with every turn
// left.
func copiesPolicyLayers[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if p := mu.Policy; p != rules.PolicyOptimal && p != rules.PolicyBestResponse || mu.PerSeat {
		return nil, fmt.Errorf("copies %d: a table of policy %s (allowed: optimal, best-response)", k, p)
	}
	if _, err := StartCopiesState(pairs, k); err != nil {
		return nil, err
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return nil, err
	}
	if err := s.solveStarts(pairs); err != nil {
		return nil, err
	}
	return s.fillLayers(rules.NewCopiesTable, func(tab *rules.CopiesTable, v copiesVec, c *copiesCell[T]) error {
		if c.streak != nil {
			// At three or more seats under a pass rule seat 0's choice at every pass streak.
			for k := 1; k < s.mu.Players; k++ {
				if err := tab.SetAfterPasses(v, k, s.tableChoiceAt(c, k)); err != nil {
					return err
				}
			}
			return tab.Set(v, s.tableChoiceAt(c, 0))
		}
		if s.m.Pass != rules.PassNever {
			// Under a pass rule (two players) seat 0's choice just after a pass, too.
			if err := tab.SetAfterPass(v, c.brAfter[0]); err != nil {
				return err
			}
		}
		return tab.Set(v, s.tableChoice(c))
	})
}

// fillLayers returns the tables of the solved states: one without a turn limit, or one per
// number of turns left under a limit (layers[t-1] with t turns left), each made by newTable and
// given, by set, every solved state with a card left to turn.
func (s *copiesSolver[T]) fillLayers(newTable func(copies int) *rules.CopiesTable, set func(tab *rules.CopiesTable, v copiesVec, c *copiesCell[T]) error) ([]*rules.CopiesTable, error) {
	layers := make([]*rules.CopiesTable, max(s.limit, 1))
	for i := range layers {
		layers[i] = newTable(s.m.Variant.CopiesOf())
	}
	for at, c := range s.memo {
		v := vecOfKey(at.key)
		if unknownCards(v) == 0 || (s.limit > 0 && at.t == 0) {
			continue
		}
		if err := set(layers[max(at.t, 1)-1], v, c); err != nil {
			return nil, err
		}
	}
	return layers, nil
}

// tableChoice returns seat 0's choice in c as CopiesPolicyTable writes it: the solitaire optimum
// with one player, every seat for itself with three or more, seat 0's role's with two.
func (s *copiesSolver[T]) tableChoice(c *copiesCell[T]) rules.Choice {
	switch {
	case s.needSolo:
		return c.soloChoice
	case s.needSelf && !s.needSeats:
		return c.selfChoice
	}
	return c.brChoice[0]
}

// distribution computes each role's distribution of its lead over the rest of the game (two
// players), each role making the choice leads found; under a pass rule also just after a pass by
// the other seat (distAfter), where a pass is the stalemate, lead 0 from here.
func (s *copiesSolver[T]) distribution(c *copiesCell[T]) {
	if s.m.Pass != rules.PassNever {
		for r := range 2 {
			c.distAfter[r] = s.distOf(c, r, c.brAfter[r], true)
		}
	}
	for r := range 2 {
		c.dist[r] = s.distOf(c, r, c.brChoice[r], false)
	}
}

// distOf returns role r's distribution of its lead after choice ch in c, the roles' policies
// played afterwards; afterPass says that the other seat has just passed.
func (s *copiesSolver[T]) distOf(c *copiesCell[T], r int, ch rules.Choice, afterPass bool) []T {
	f, m := s.f, s.maxPairs
	d := s.zeros(2*m + 1)
	switch {
	case ch == rules.Pass && afterPass:
		d[m] = s.one // the stalemate shares the pairs left: the lead stays
		return d
	case ch == rules.Pass:
		from := c.distAfter[1-r] // the other role answers in the same state, just after a pass
		for i := range d {
			d[i] = from[2*m-i]
		}
		return d
	}
	for k, o := range c.outs[ch] {
		x, _ := s.next(c, o)
		for i := range d {
			l := i - m // the mover's lead
			var j int  // its index in the next state's distribution
			var from []T
			switch {
			case o.keep:
				j, from = l-1, x.dist[r]
			default:
				j, from = -l-o.handed, x.dist[1-r]
			}
			if j < -m || j > m || f.IsZero(from[j+m]) {
				continue
			}
			d[i] = f.Add(d[i], f.Mul(c.probs[ch][k], from[j+m]))
		}
	}
	return d
}

// CopiesDistribution returns the exact distribution of seat 0's final share from st in a
// two-player matchup of the copies model m (Prob[i]: seat 0 collects i/2 of st's pairs; shares are
// whole pairs, as nothing is shared without passes). Under a turn limit (the turns left in st) the
// pairs left at the limit count for nobody, and Prob1 is seat 1's distribution
// (copieslimit.go). Under a shared handover-uniform or decay memory it is that model's
// (copiesmemdist.go, copiesdecaydist.go).
// ScoreDistribution.State is st.RulesState().
func CopiesDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if mu.Players != 2 || mu.PerSeat {
		return d, fmt.Errorf("players %d: the score distribution is computed for 2 players, each playing its role's policy", mu.Players)
	}
	if err := st.Validate(); err != nil {
		return d, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return d, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	if isCopiesMem(m) {
		return copiesMemDistribution(ctx, f, m, mu, st) // copiesmemdist.go
	}
	if isCopiesDecay(m) {
		return copiesDecayDistribution(ctx, f, m, mu, st) // copiesdecaydist.go
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return d, err
	}
	if s.limit > 0 {
		return s.limitDistribution(st)
	}
	if s.needWin {
		return s.winDistribution(st)
	}
	n := st.Pairs()
	s.needDist, s.maxPairs = true, n
	c, err := s.get(st.vec().key(), 0)
	if err != nil {
		return d, err
	}
	d.State = st.RulesState()
	d.Prob = c.dist[0]
	d.Win, d.Draw, d.Loss = s.zero, s.zero, s.zero
	for i, p := range d.Prob {
		d.addResult(f, p, i-n)
	}
	return d, nil
}

// copiesStartDistribution is CopiesDistribution from the start of a game of st.N pairs.
func copiesStartDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	if st.J != st.N || st.S != 0 || st.F != 0 || st.Lead != 0 {
		return ScoreDistribution[T]{}, fmt.Errorf("copies %d: state %v: the count state (n, j) solves the start of a game only, (n, n) at lead 0; see CopiesDistribution", m.Variant.CopiesOf(), st)
	}
	if err := m.Validate(); err != nil {
		return ScoreDistribution[T]{}, err
	}
	start, err := StartCopiesState(st.N, m.Variant.CopiesOf())
	if err != nil {
		return ScoreDistribution[T]{}, err
	}
	return CopiesDistribution(ctx, f, m, mu, start)
}
