package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A turn limit (docs/models.md §1.7, §4.18) adds to the state the turns left, t. Every turn uses
// one, including a pass and a turn that takes a pair known whole, so a turn always leads to a state
// with fewer turns left: the values follow by backward induction over t, layer by layer, with no
// self-reference left to solve (a forgotten card or a pass leads to the same count state with one
// turn fewer). With t = 0 the game is over and the pairs left count for nobody.

// limitCell holds the values of one state with t turns left.
type limitCell[T any] struct {
	// opt is the two-player optimum's lead for the mover, without and with a pass just made;
	// optTotal the pairs both seats are credited with (a stalemate's share included); optChoice the
	// optimum's choice.
	opt, optTotal [2]T
	optChoice     [2]rules.Choice
	// lead and total are the same for role r (0: Policy, 1: Opponent) to move, lead[r][flag], and
	// choice the role's choice.
	lead, total [2][2]T
	choice      [2][2]rules.Choice
	// seats[m][s] is seat s's expected pairs with seat m to move (three or more seats, or a policy
	// per seat).
	seats [][]T
	// self is every seat's expected pairs in order from the mover, every seat for itself, and
	// selfChoice the mover's choice.
	self       []T
	selfChoice rules.Choice
	// reply is the choice of the seat that plays best-response beside three or more seats
	// (limitreply.go).
	reply rules.Choice
	// leads holds the values at every lead, where a role plays to win (limitwin.go).
	leads *limitLeads[T]
	// streaks holds the values at every pass streak, three or more seats under a pass rule
	// (limitpassseats.go); self, selfChoice, seats and reply are those of streak 0.
	streaks *limitStreaks[T]
	// solo is, with one player, the expected pairs taken, turns played and lucky matches, and
	// soloChoice the player's choice.
	solo       [3]T
	soloChoice rules.Choice
}

// limitState is what a state's turn can do, the same at every t: its legal choices and their
// outcomes.
type limitState[T any] struct {
	legal [rules.NumChoices]bool
	outs  [rules.NumChoices][]Outcome
	probs [rules.NumChoices][]T
}

// limitSweep computes a matchup's values in every state with at most maxN pairs and every number
// of turns left up to limit.
type limitSweep[T any] struct {
	f      field.Field[T]
	m      Model
	mu     Lineup
	pol    [2]rules.Policy
	limit  int
	maxN   int
	stride int // states per n: (maxN + 1) * (S + 1)

	needOpt, needRoles, needSeats, needSelf, needSolo bool
	// needLeads asks for the values at every lead -D .. D (limitwin.go).
	needLeads bool
	D         int
	half      T

	// tab holds the tables of role 0 (seat 0) and role 1 (the other seats), nil for a role that
	// plays a policy (limittable.go); pols is every seat's policy, policyTable for a table.
	tab  [2]*rules.ChoiceTable
	pols []rules.Policy

	states []limitState[T]
	valid  []bool
	// layers holds the values of the last four numbers of turns left, layer t at t % 4: a turn
	// hands over at most two pairs known whole, each taken in a turn of its own.
	layers [4][]limitCell[T]
	zero   T
	zeros  []T
	ints   []T
	// hand, under decay forgetting, gives the turns' outcomes and a pass's successors
	// (limitdecay.go); nil otherwise.
	hand *decayHand[T]
	// visit, when not nil, is called with every state and number of turns left once computed.
	visit func(st rules.State, t int, c *limitCell[T]) error
}

// validateLimit reports whether the matchup is solved under the model's turn limit: every
// matchup Lineup.Validate accepts (two players with optimal, fixed policies, best-response and the
// policies that play to win; one player; three or more players with optimal or fixed policies,
// pass rule never), a seat's policy given as a table included (limittable.go).
func (mu Lineup) validateLimit(m Model) error {
	if err := mu.Validate(m); err != nil {
		return err
	}
	if k := m.Variant.CopiesOf(); k != rules.DefaultCopies {
		return fmt.Errorf("copies %d, turn limit %d: the copies model gives the values, the choices' values, the engine's table and the distribution (EvaluateCopies, CopiesChoiceValues, CopiesPolicyTurnTables, CopiesDistribution), not this computation", k, m.Variant.TurnLimit)
	}
	return nil
}

func newLimitSweep[T any](f field.Field[T], m Model, mu Lineup, st rules.State) (*limitSweep[T], error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := mu.validateLimit(m); err != nil {
		return nil, err
	}
	if st.S != m.Singletons {
		return nil, fmt.Errorf("state has %d singletons, the model %d", st.S, m.Singletons)
	}
	if err := st.Validate(m.Memory); err != nil {
		return nil, err
	}
	if err := mu.checkTables(m, st); err != nil {
		return nil, err
	}
	s := &limitSweep[T]{f: f, m: m, mu: mu, pol: mu.roles(), limit: m.Variant.TurnLimit, maxN: st.N,
		zero: f.FromInt(0), half: f.FromFrac(1, 2), D: st.N + 1, tab: [2]*rules.ChoiceTable{mu.Table, mu.OpponentTable}}
	s.pols = s.seatPolicies()
	for i := range 4 {
		s.ints = append(s.ints, f.FromInt(int64(i)))
	}
	s.zeros = make([]T, max(mu.Players, 1))
	for i := range s.zeros {
		s.zeros[i] = s.zero
	}
	switch {
	case mu.Players == 1:
		s.needSolo = true
	case mu.Players >= 3 || mu.PerSeat:
		s.needSeats = !isSelfish(mu)
		s.needSelf = mu.playsOptimal() && !mu.TwoPlayerOptimal
		s.needOpt = mu.playsOptimal() && mu.TwoPlayerOptimal
	default:
		s.needOpt = mu.playsOptimal()
		s.needLeads = mu.playsToWin()
		s.needRoles = !isSelfPlay(mu) && !s.needLeads
	}
	return s, nil
}

// index numbers state st among the sweep's states.
func (s *limitSweep[T]) index(st rules.State) int {
	return st.N*s.stride + st.J*(s.m.Singletons+1) + st.F
}

// cell returns the values of st with t turns left, t >= 1.
func (s *limitSweep[T]) cell(st rules.State, t int) *limitCell[T] {
	return &s.layers[t%4][s.index(st)]
}

// run computes every layer up to the limit.
func (s *limitSweep[T]) run(ctx context.Context) error {
	S := s.m.Singletons
	s.stride = (s.maxN + 1) * (S + 1)
	size := (s.maxN + 1) * s.stride
	s.states = make([]limitState[T], size)
	s.valid = make([]bool, size)
	if s.m.isDecay() {
		if err := s.prepareDecay(); err != nil {
			return err
		}
	}
	var order []rules.State
	for n := 0; n <= s.maxN; n++ {
		for j := 0; j <= n; j++ {
			for fu := 0; fu <= S; fu++ {
				st := rules.State{N: n, J: j, S: S, F: fu}
				if !s.m.Memory.Holds(st.Known()) || st.Validate(s.m.Memory) != nil {
					continue
				}
				s.valid[s.index(st)] = true
				order = append(order, st)
				if n > 0 {
					s.prepareState(st)
				}
			}
		}
	}
	for i := range s.layers {
		s.layers[i] = make([]limitCell[T], size)
	}
	for t := 1; t <= s.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return err
		}
		for _, st := range order {
			c := s.cell(st, t)
			*c = limitCell[T]{}
			if st.N > 0 {
				s.state(st, t, c)
			}
			if s.visit != nil {
				if err := s.visit(st, t, c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// prepareState computes the legal choices of st and their outcomes.
func (s *limitSweep[T]) prepareState(st rules.State) {
	ls := &s.states[s.index(st)]
	for _, ch := range rules.Choices() {
		ls.legal[ch] = s.m.Legal(st, ch)
		if !ls.legal[ch] {
			continue
		}
		if s.hand != nil && s.m.Variant.Flips == rules.FlipsBlind {
			ls.outs[ch], ls.probs[ch] = blindDecayOutcomes(s.hand, st, ch, nil, nil) // blinddecay.go
			continue
		}
		if s.hand != nil && st.S > 0 {
			ls.outs[ch], ls.probs[ch] = decaySinglesOutcomes(s.hand, st, ch, nil, nil) // decaysingles.go
			continue
		}
		if s.hand != nil {
			ls.outs[ch], ls.probs[ch] = decayOutcomes(s.hand, st, ch, nil, nil)
			continue
		}
		ls.outs[ch] = s.m.Outcomes(st, ch, nil)
		for _, o := range ls.outs[ch] {
			ls.probs[ch] = append(ls.probs[ch], s.f.FromFrac(o.Prob.Num, o.Prob.Den))
		}
	}
}

// state computes the values of st (n >= 1) with t >= 1 turns left.
func (s *limitSweep[T]) state(st rules.State, t int, c *limitCell[T]) {
	if s.needOpt {
		s.optimal(st, t, c)
	}
	if s.needRoles {
		s.roles(st, t, c)
	}
	if s.needLeads {
		s.byLead(st, t, c)
	}
	if s.needSelf {
		s.selfish(st, t, c)
	}
	if s.needSeats {
		s.multi(st, t, c)
	}
	if s.needSolo {
		s.solitaire(st, t, c)
	}
}

// next calls visit for every outcome of choice ch in st with t turns left, with its probability,
// the pairs the mover takes, whether it keeps the move, the pairs the next seat takes first (a pair
// left known whole costs a turn; those the limit leaves no turn for are not taken), and the
// successor's values (nil when no turn is left).
func (s *limitSweep[T]) next(st rules.State, t int, ch rules.Choice, visit func(p T, o Outcome, gain int, succ *limitCell[T])) {
	ls := &s.states[s.index(st)]
	for i, o := range ls.outs[ch] {
		rest, gain := t-1, o.MoverGain
		if !o.Continue {
			gain = min(o.NextGain, t-1)
			rest = t - 1 - gain
		}
		var succ *limitCell[T]
		if rest > 0 && o.Next.N > 0 {
			succ = s.cell(o.Next, rest)
		}
		visit(ls.probs[ch][i], o, gain, succ)
	}
}

// pairSum returns the lead and the total credited pairs of choice ch (not a pass) in st with t
// turns left, for the mover; get reads a successor's lead and total for the seat to move there,
// the mover (own) or the other seat.
func (s *limitSweep[T]) pairSum(st rules.State, t int, ch rules.Choice, get func(c *limitCell[T], own bool) (T, T)) (lead, total T) {
	f := s.f
	lead, total = s.zero, s.zero
	s.next(st, t, ch, func(p T, o Outcome, gain int, succ *limitCell[T]) {
		l, tt := s.zero, s.zero
		if succ != nil {
			l, tt = get(succ, o.Continue)
		}
		g := s.ints[gain]
		tt = f.Add(g, tt)
		if o.Continue {
			l = f.Add(g, l)
		} else {
			l = f.Sub(s.zero, f.Add(g, l))
		}
		lead = f.Add(lead, f.Mul(p, l))
		total = f.Add(total, f.Mul(p, tt))
	})
	return lead, total
}

// passSum returns the lead and the total credited pairs of a pass in st with t turns left: with a
// pass just made, a stalemate (lead 0, the n pairs shared); otherwise the other seat moves in st
// with t - 1 turns left, a pass just made, read by get (under decay forgetting in each state the
// pass's hand-over leaves).
func (s *limitSweep[T]) passSum(st rules.State, t, flag int, get func(c *limitCell[T]) (T, T)) (T, T) {
	if flag == 1 {
		return s.zero, s.f.FromInt(int64(st.N))
	}
	if t == 1 {
		return s.zero, s.zero
	}
	l, tt := s.passPairs(st, t, get)
	return s.f.Sub(s.zero, l), tt
}

// optimal computes the two-player optimum in st with t turns left: the mover maximises its lead,
// the first best choice in the order daring, safe, known-first, pass.
func (s *limitSweep[T]) optimal(st rules.State, t int, c *limitCell[T]) {
	ls := &s.states[s.index(st)]
	get := func(n *limitCell[T], own bool) (T, T) { return n.opt[0], n.optTotal[0] }
	var lead, total [rules.NumChoices]T
	for _, ch := range rules.Choices() {
		if ls.legal[ch] && ch != rules.Pass {
			lead[ch], total[ch] = s.pairSum(st, t, ch, get)
		}
	}
	for flag := range 2 {
		if ls.legal[rules.Pass] {
			lead[rules.Pass], total[rules.Pass] = s.passSum(st, t, flag, func(n *limitCell[T]) (T, T) { return n.opt[1], n.optTotal[1] })
		}
		ch := s.best(ls, lead)
		c.opt[flag], c.optTotal[flag], c.optChoice[flag] = lead[ch], total[ch], ch
	}
}

// best returns the first legal choice of largest value in the order daring, safe, known-first,
// pass.
func (s *limitSweep[T]) best(ls *limitState[T], v [rules.NumChoices]T) rules.Choice {
	best, have := rules.Daring, false
	for _, ch := range rules.Choices() {
		if ls.legal[ch] && (!have || s.f.Cmp(v[ch], v[best]) > 0) {
			best, have = ch, true
		}
	}
	return best
}

// roles computes the leads of the matchup's two roles in st with t turns left: a fixed policy
// plays its choice, optimal the optimum's, best-response the choice of largest lead against the
// other role.
func (s *limitSweep[T]) roles(st rules.State, t int, c *limitCell[T]) {
	ls := &s.states[s.index(st)]
	for r := range 2 {
		get := func(n *limitCell[T], own bool) (T, T) {
			if own {
				return n.lead[r][0], n.total[r][0]
			}
			return n.lead[1-r][0], n.total[1-r][0]
		}
		pass := func(n *limitCell[T]) (T, T) { return n.lead[1-r][1], n.total[1-r][1] }
		for flag := range 2 {
			var lead, total [rules.NumChoices]T
			var ch rules.Choice
			switch p := s.pol[r]; p {
			case rules.PolicyOptimal:
				ch = c.optChoice[flag]
			case rules.PolicyBestResponse:
				for _, x := range rules.Choices() {
					if !ls.legal[x] {
						continue
					}
					if x == rules.Pass {
						lead[x], total[x] = s.passSum(st, t, flag, pass)
					} else {
						lead[x], total[x] = s.pairSum(st, t, x, get)
					}
				}
				ch = s.best(ls, lead)
				c.lead[r][flag], c.total[r][flag], c.choice[r][flag] = lead[ch], total[ch], ch
				continue
			default:
				ch = s.fixedChoice(r, p, st, flag)
			}
			c.choice[r][flag] = ch
			if ch == rules.Pass {
				c.lead[r][flag], c.total[r][flag] = s.passSum(st, t, flag, pass)
			} else {
				c.lead[r][flag], c.total[r][flag] = s.pairSum(st, t, ch, get)
			}
		}
	}
}

// vectorSum returns every seat's expected pairs after choice ch of the mover in st with t turns
// left: get reads a successor's vector for the seat to move there (the mover, or the next seat)
// and the seats are numbered as the caller's vectors, the mover m and the next seat nx.
func (s *limitSweep[T]) vectorSum(st rules.State, t int, ch rules.Choice, m, nx int, get func(c *limitCell[T], own bool) []T,
	shift func(v []T, own bool) []T) []T {
	f := s.f
	out := make([]T, len(s.zeros))
	copy(out, s.zeros)
	s.next(st, t, ch, func(p T, o Outcome, gain int, succ *limitCell[T]) {
		v := s.zeros
		if succ != nil {
			v = get(succ, o.Continue)
		}
		v = shift(v, o.Continue)
		who := nx
		if o.Continue {
			who = m
		}
		for i := range out {
			x := v[i]
			if i == who {
				x = f.Add(x, s.ints[gain])
			}
			out[i] = f.Add(out[i], f.Mul(p, x))
		}
	})
	return out
}

// fromMover returns a successor's seat vector seen from the mover: as it is when the mover keeps
// the move (own), and after a hand-over the next seat's vector, in order from it, rotated by one.
func (s *limitSweep[T]) fromMover(v []T, own bool) []T {
	if own {
		return v
	}
	p := s.mu.Players
	out := make([]T, p)
	for i := range out {
		out[i] = v[(i+p-1)%p]
	}
	return out
}

// selfish computes the optimum of every seat for itself in st with t turns left: the mover makes
// the first choice of largest expected pairs for itself.
func (s *limitSweep[T]) selfish(st rules.State, t int, c *limitCell[T]) {
	if s.streaked() {
		s.selfishPass(st, t, c)
		return
	}
	ls := &s.states[s.index(st)]
	get := func(n *limitCell[T], own bool) []T { return n.self }
	rot := s.fromMover
	var val [rules.NumChoices][]T
	var first [rules.NumChoices]T
	for _, ch := range rules.Choices() {
		if ls.legal[ch] && ch != rules.Pass {
			val[ch] = s.vectorSum(st, t, ch, 0, 1, get, rot)
			first[ch] = val[ch][0]
		}
	}
	var legal limitState[T]
	legal.legal = ls.legal
	legal.legal[rules.Pass] = false
	ch := s.best(&legal, first)
	c.self, c.selfChoice = val[ch], ch
}

// multi computes every seat's expected pairs with each seat to move, each playing its policy
// (optimal: the optimum of every seat for itself, or the two-player optimum's choice;
// best-response: its best choice, replyChoice).
func (s *limitSweep[T]) multi(st rules.State, t int, c *limitCell[T]) {
	if s.streaked() {
		s.multiPass(st, t, c)
		return
	}
	p := s.mu.Players
	pols := s.pols
	c.seats = make([][]T, p)
	same := func(v []T, own bool) []T { return v }
	r := s.mu.replySeat()
	if r >= 0 {
		c.reply = s.replyChoice(st, t, r)
	}
	for m := range p {
		nx := (m + 1) % p
		ch := rules.Daring
		switch {
		case m == r:
			ch = c.reply
		case pols[m] != rules.PolicyOptimal:
			ch = s.fixedChoice(m, pols[m], st, 0)
		case s.mu.TwoPlayerOptimal:
			ch = c.optChoice[0]
		default:
			ch = c.selfChoice
		}
		get := func(n *limitCell[T], own bool) []T {
			if own {
				return n.seats[m]
			}
			return n.seats[nx]
		}
		c.seats[m] = s.vectorSum(st, t, ch, m, nx, get, same)
	}
}

// solitaire computes, for one player, the expected pairs taken within the limit, the turns played
// and the lucky matches. The optimal policy maximises the pairs taken and, among the choices that
// do, minimises the expected turns (the first such choice in the order daring, safe, known-first),
// so that a limit the game does not reach changes nothing.
func (s *limitSweep[T]) solitaire(st rules.State, t int, c *limitCell[T]) {
	f := s.f
	ls := &s.states[s.index(st)]
	if s.pol[0] != rules.PolicyOptimal {
		c.soloChoice = s.fixedChoice(0, s.pol[0], st, 0)
		c.solo = s.soloSum(st, t, c.soloChoice)
		return
	}
	var vals [rules.NumChoices][3]T
	var pairs [rules.NumChoices]T
	var legal limitState[T]
	legal.legal = ls.legal
	legal.legal[rules.Pass] = false
	for _, ch := range rules.Choices() {
		if legal.legal[ch] {
			vals[ch] = s.soloSum(st, t, ch)
			pairs[ch] = vals[ch][0]
		}
	}
	best := s.best(&legal, pairs)
	for _, ch := range rules.Choices() {
		if legal.legal[ch] && f.Cmp(pairs[ch], pairs[best]) == 0 && f.Cmp(vals[ch][1], vals[best][1]) < 0 {
			best = ch
		}
	}
	c.solo, c.soloChoice = vals[best], best
}

// soloSum returns, for one player, the expected pairs taken, turns played and lucky matches
// after choice ch (not a pass) in st with t turns left, the policy played afterwards.
func (s *limitSweep[T]) soloSum(st rules.State, t int, ch rules.Choice) [3]T {
	f := s.f
	v := [3]T{s.zero, s.zero, s.zero}
	s.next(st, t, ch, func(p T, o Outcome, gain int, succ *limitCell[T]) {
		x := [3]T{s.ints[gain], s.ints[1], s.zero}
		if !o.Continue {
			x[1] = f.Add(x[1], s.ints[gain]) // each pair left known whole is a turn
		}
		if o.Event == EventLucky {
			x[2] = s.ints[1]
		}
		if succ != nil {
			for i := range x {
				x[i] = f.Add(x[i], succ.solo[i])
			}
		}
		for i := range v {
			v[i] = f.Add(v[i], f.Mul(p, x[i]))
		}
	})
	return v
}

// evaluateLimit is Evaluate under a turn limit: the values of the matchup from st with the
// model's turn limit as the turns left.
func evaluateLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	if err := s.run(ctx); err != nil {
		return Result[T]{}, err
	}
	return s.result(st, s.limit), nil
}

// result reads the values of st with t turns left off a sweep that has computed that layer.
func (s *limitSweep[T]) result(st rules.State, t int) Result[T] {
	f := s.f
	res := Result[T]{State: st, Players: s.mu.Players}
	if st.N == 0 || t == 0 {
		res.ExpectedPairs, res.ExpectedLead, res.ExpectedTurns, res.ExpectedLucky = s.zero, s.zero, s.zero, s.zero
		res.PairsBySeat = append([]T(nil), s.zeros...)
		return res
	}
	c := s.cell(st, t)
	two := f.FromInt(2)
	byLead := func(lead, total T) {
		res.ExpectedLead = lead
		res.ExpectedPairs = f.Div(f.Add(total, lead), two)
		res.PairsBySeat = []T{res.ExpectedPairs, f.Div(f.Sub(total, lead), two)}
	}
	switch {
	case s.needSolo:
		res.ExpectedPairs, res.ExpectedTurns, res.ExpectedLucky = c.solo[0], c.solo[1], c.solo[2]
		res.PairsBySeat = []T{c.solo[0]}
	case s.needSeats:
		res.PairsBySeat = c.seats[0]
		res.ExpectedPairs = c.seats[0][0]
	case s.needSelf:
		res.PairsBySeat = c.self
		res.ExpectedPairs = c.self[0]
	case s.needLeads:
		v := s.leadAt(c, 0, 0, st.Lead)
		byLead(v.lead, v.total)
	case s.needRoles:
		byLead(c.lead[0][0], c.total[0][0])
	default:
		byLead(c.opt[0], c.optTotal[0])
	}
	return res
}

// estimateLimit is Estimate under a turn limit: a layer of the limit sweep does about the work of
// the sweep without the limit, in exact rationals about 12 times as much (its fractions grow with
// the turns left; measured on memsim solve --pairs 26 and 52 --turn-limit 2N, 10 and 14 times),
// in float64 about 1.5 times, and four layers of every deal size are held at once. A best reply at
// three or more seats is costed as optimal in its seat (limitCostLineup).
func estimateLimit[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if call == CallDistribution && mu.Players >= 3 {
		return limitSeatsDistCost(f, m, mu, pairs) // limitseatsdist.go
	}
	if call == CallDistribution {
		return estimateLimitDistribution(f, m, mu, pairs)
	}
	if call != CallEvaluate && call != CallWinDrawLoss && call != CallPolicyTable && call != CallTable {
		return Cost{}, fmt.Errorf("turn limit %d: under a turn limit the solver gives a matchup's values, its win, draw and loss probabilities, its choices' values and its players' tables, not this computation", m.Variant.TurnLimit)
	}
	if err := m.Validate(); err != nil {
		return Cost{}, err
	}
	if err := mu.validateLimit(m); err != nil {
		return Cost{}, err
	}
	base := m
	base.Variant.TurnLimit = 0
	c, err := estimate(f, base, limitCostLineup(mu), pairs, call)
	cellBytes, weight := 100.0, 1.5
	if _, exact := f.Exact(f.FromInt(0)); exact {
		cellBytes, weight = 400, 12
	}
	c.Ops *= weight * float64(m.Variant.TurnLimit)
	c.Bytes += 4 * SweepStates(base, mu, pairs) * cellBytes
	return c, err
}

// limitPolicyTable is PolicyTable under a turn limit: seat 0's choice in every state with at most
// maxPairs pairs and every number of turns left up to the limit (rules.NewTurnChoiceTable).
func limitPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if mu.Players >= 1 && mu.Policy.Fixed() && !mu.PerSeat && mu.Table == nil {
		if err := mu.validateLimit(m); err != nil {
			return nil, err
		}
		return rules.FixedChoiceTable(mu.Policy, maxPairs, m.Singletons)
	}
	s, err := newLimitSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return nil, err
	}
	layers := make([]*rules.ChoiceTable, m.Variant.TurnLimit)
	maxLead := -1
	if s.needLeads {
		maxLead = maxPairs
	}
	for i := range layers {
		if s.streakTable() {
			layers[i], err = rules.NewPassChoiceTable(maxPairs, m.Singletons, mu.Players)
		} else {
			layers[i], err = rules.NewLeadChoiceTable(maxPairs, m.Singletons, maxLead)
		}
		if err != nil {
			return nil, err
		}
	}
	s.visit = func(st rules.State, t int, c *limitCell[T]) error {
		if st.N == 0 {
			return nil
		}
		if s.needLeads {
			for flag := range 2 {
				for d := -maxLead; d <= maxLead; d++ {
					at := st
					at.Lead = d
					layers[t-1].Set(at, flag == 1, c.leads.choice[0][flag][s.li(d)])
				}
			}
			return nil
		}
		if s.streakTable() {
			s.setStreaks(layers[t-1], st, c)
			return nil
		}
		for flag := range 2 {
			var ch rules.Choice
			switch {
			case s.needSolo:
				ch = c.soloChoice
			case s.needSeats && s.mu.replySeat() == 0:
				ch = c.reply
			case s.needSelf:
				ch = c.selfChoice
			case s.needRoles && mu.Policy != rules.PolicyOptimal:
				ch = c.choice[0][flag]
			default:
				ch = c.optChoice[flag]
			}
			layers[t-1].Set(st, flag == 1, ch)
		}
		return nil
	}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return rules.NewTurnChoiceTable(layers)
}

// stoppedAtTurnsLeft returns an error naming the layer of t turns left when ctx is done, for the
// sweeps over turns left to call once a layer.
func stoppedAtTurnsLeft(ctx context.Context, t int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("solver stopped at %d turns left: %w", t, err)
	}
	return nil
}

// makeTurnLayers allocates the three layers of turns left that a sweep over fluctuating
// capacities keeps (layer t at t % 3), each a row per deal size n up to maxN of known(n)+1 cells.
func makeTurnLayers[C any](layers *[3][][]C, maxN int, known func(n int) int) {
	for i := range layers {
		layers[i] = make([][]C, maxN+1)
		for n := range layers[i] {
			layers[i][n] = make([]C, known(n)+1)
		}
	}
}
