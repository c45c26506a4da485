package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective in the copies model (docs/models.md §4.13, §4.16), two players, with or without
// a turn limit (the turns left in the state as the other objectives have them). A policy that plays to win reads the mover's lead so far d (its pairs minus the other
// seat's), so a state of faces carries its values at every lead. A state of n pairs keeps the
// leads -(n+1) .. n+1: a lead with |d| > n is decided (the winner is known whatever is played),
// and a lead beyond is read at the nearest. No state refers to itself, so the memoised recursion
// solves it as the other objectives: a turn that keeps the move leads to lead d+1 of the next
// state, a hand-over to the next seat's lead -d (-d+g when it first takes the g pairs left known
// whole), with the values mirrored.

// copiesWinCell holds the values of one state of faces at every lead, indexed by d + D.
type copiesWinCell[T any] struct {
	// D is the largest lead kept: the state's pairs plus one.
	D int
	// wo is P(win) - P(loss) of the mover when both seats play win-optimal, woC its choice.
	wo  []T
	woC []rules.Choice
	// ch[r] is role r's choice in the matchup; u[r], draw[r] and lead[r] the mover's
	// P(win) - P(loss), P(draw) and expected lead of the pairs left when role r moves.
	ch            [2][]rules.Choice
	u, draw, lead [2][]T
	// total[r] is, under a turn limit, the pairs both seats take by the limit when role r moves
	// (without a limit, every pair left).
	total [2][]T
	// afterPass holds, under a pass rule, the values just after a pass by the other seat
	// (copieswinpass.go): the cell itself where the mover may not pass, nil under pass never and
	// where no card is left to turn.
	afterPass *copiesWinCell[T]
}

// at returns the index of lead d, clamped to -D .. D.
func (w *copiesWinCell[T]) at(d int) int { return min(max(d, -w.D), w.D) + w.D }

// playsToWinCopies reports whether a role of the two-player lineup mu plays to win.
func (mu Lineup) playsToWinCopies() bool {
	return mu.Players == 2 && !mu.PerSeat && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin())
}

// checkCopiesWin reports whether the copies model m solves the lineup mu, in which a role plays to
// win.
func checkCopiesWin(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	switch {
	case mu.Players != 2 || mu.PerSeat:
		return fmt.Errorf("copies %d: the policies that play to win are solved for two players, one policy a role (win-optimal at three or more seats has no exact model under copies)", k)
	case mu.Policy == rules.PolicyWinBestResponse && mu.Opponent == rules.PolicyWinBestResponse:
		return fmt.Errorf("copies %d: win-best-response answers a policy, not another win-best-response", k)
	}
	for _, p := range []rules.Policy{mu.Policy, mu.Opponent} {
		switch p {
		case rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse:
		default:
			return fmt.Errorf("policy %s with copies %d has no exact model (allowed beside a policy that plays to win: win-optimal, win-best-response, optimal, best-response, safe, daring)", p, k)
		}
	}
	return nil
}

// finalWin returns P(win) - P(loss) and P(draw) of a game that ends with lead d.
func (s *copiesSolver[T]) finalWin(d int) (T, T) {
	switch {
	case d > 0:
		return s.one, s.zero
	case d < 0:
		return s.f.Sub(s.zero, s.one), s.zero
	}
	return s.zero, s.one
}

// newWinCell returns the win values of a state of n pairs, its slices made and every lead set
// to the decided values of the end of the game (the values of the empty table, and of the
// leads with |d| > n).
func (s *copiesSolver[T]) newWinCell(n int) *copiesWinCell[T] {
	D := n + 1
	w := &copiesWinCell[T]{D: D}
	size := 2*D + 1
	w.wo, w.woC = make([]T, size), make([]rules.Choice, size)
	for r := range 2 {
		w.ch[r] = make([]rules.Choice, size)
		w.u[r], w.draw[r], w.lead[r], w.total[r] = make([]T, size), make([]T, size), make([]T, size), make([]T, size)
	}
	for i := range size {
		u, dr := s.finalWin(i - D)
		w.wo[i], w.woC[i] = u, rules.Daring
		for r := range 2 {
			w.ch[r][i], w.u[r][i], w.draw[r][i], w.lead[r][i], w.total[r][i] = rules.Daring, u, dr, s.zero, s.zero
		}
	}
	return w
}

// winValues computes the win values of c, a state of n pairs whose outcomes are prepared, at
// every lead. At a decided lead (|d| > n) the policies that play to win take the first legal
// choice, daring, and only the expected lead is left to compute.
func (s *copiesSolver[T]) winValues(c *copiesCell[T], n int) {
	if s.m.Pass != rules.PassNever {
		s.winValuesPass(c, n) // copieswinpass.go
		return
	}
	c.win = s.newWinCell(n)
	w := c.win
	for d := -w.D; d <= w.D; d++ {
		i := w.at(d)
		if d < -n || d > n {
			for r := range 2 {
				ch := rules.Daring
				if !s.pol[r].PlaysToWin() {
					ch = s.winRoleChoice(c, r, d)
				}
				w.ch[r][i] = ch
				_, _, w.lead[r][i] = s.winRoleValues(c, r, ch, d)
				w.total[r][i] = s.winTotal(c, r, ch, d)
			}
			continue
		}
		if s.needWinOpt {
			w.woC[i], _ = s.best(c, false, func(ch rules.Choice) T {
				return s.winOf(c, ch, d, func(x *copiesWinCell[T], _ bool, j int) T { return x.wo[j] })
			})
			w.wo[i] = s.winOf(c, w.woC[i], d, func(x *copiesWinCell[T], _ bool, j int) T { return x.wo[j] })
		}
		for r := range 2 {
			ch := s.winRoleChoice(c, r, d)
			w.ch[r][i] = ch
			w.u[r][i], w.draw[r][i], w.lead[r][i] = s.winRoleValues(c, r, ch, d)
			w.total[r][i] = s.winTotal(c, r, ch, d)
		}
	}
}

// winRoleChoice returns role r's choice in c at lead d.
func (s *copiesSolver[T]) winRoleChoice(c *copiesCell[T], r, d int) rules.Choice {
	switch p := s.pol[r]; p {
	case rules.PolicyWinOptimal:
		return c.win.woC[c.win.at(d)]
	case rules.PolicyWinBestResponse:
		ch, _ := s.best(c, false, func(ch rules.Choice) T {
			return s.winOf(c, ch, d, roleVal(r, func(x *copiesWinCell[T], r, j int) T { return x.u[r][j] }))
		})
		return ch
	case rules.PolicyBestResponse:
		ch, _ := s.best(c, false, func(ch rules.Choice) T {
			_, _, l := s.winRoleValues(c, r, ch, d)
			return l
		})
		return ch
	case rules.PolicyOptimal:
		return c.optChoice
	default:
		return fixedChoice(c, p)
	}
}

// roleVal reads role r's value (keep) or the other role's (a hand-over) with get.
func roleVal[T any](r int, get func(x *copiesWinCell[T], r, j int) T) func(x *copiesWinCell[T], next bool, j int) T {
	return func(x *copiesWinCell[T], next bool, j int) T {
		if next {
			return get(x, 1-r, j)
		}
		return get(x, r, j)
	}
}

// winOf returns the mover's P(win) - P(loss) after choice ch in c at lead d, reading the value of
// the mover's role (keep) or of the next seat's at a lead index from val.
func (s *copiesSolver[T]) winOf(c *copiesCell[T], ch rules.Choice, d int, val func(x *copiesWinCell[T], next bool, j int) T) T {
	f := s.f
	sum := s.zero
	for k, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		x := nx.win
		var v T
		if o.keep {
			v = val(x, false, x.at(d+1))
		} else {
			// The next seat takes the g pairs handed to it first.
			v = f.Sub(s.zero, val(x, true, x.at(g-d)))
		}
		sum = f.Add(sum, f.Mul(c.probs[ch][k], v))
	}
	return sum
}

// winRoleValues returns the mover's P(win) - P(loss), P(draw) and expected lead of the pairs left
// after choice ch of role r in c at lead d, the matchup played afterwards.
func (s *copiesSolver[T]) winRoleValues(c *copiesCell[T], r int, ch rules.Choice, d int) (T, T, T) {
	f := s.f
	u, dr, l := s.zero, s.zero, s.zero
	for k, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		x, p := nx.win, c.probs[ch][k]
		var a, b, e T
		if o.keep {
			j := x.at(d + 1)
			a, b, e = x.u[r][j], x.draw[r][j], f.Add(s.one, x.lead[r][j])
		} else {
			j := x.at(g - d)
			a, b, e = f.Sub(s.zero, x.u[1-r][j]), x.draw[1-r][j], f.Sub(s.zero, x.lead[1-r][j])
			e = f.Sub(e, f.FromInt(int64(g)))
		}
		u, dr, l = f.Add(u, f.Mul(p, a)), f.Add(dr, f.Mul(p, b)), f.Add(l, f.Mul(p, e))
	}
	return u, dr, l
}

// winTotal returns, under a turn limit, the pairs both seats take by the limit after choice ch
// of role r in c at lead d, the matchup played afterwards (without a limit, zero: every pair
// left is taken).
func (s *copiesSolver[T]) winTotal(c *copiesCell[T], r int, ch rules.Choice, d int) T {
	if s.limit == 0 {
		return s.zero
	}
	f := s.f
	sum := s.zero
	for k, o := range c.outs[ch] {
		nx, g := s.next(c, o)
		x := nx.win
		var e T
		if o.keep {
			e = f.Add(s.one, x.total[r][x.at(d+1)])
		} else {
			e = f.Add(x.total[1-r][x.at(g-d)], f.FromInt(int64(g)))
		}
		sum = f.Add(sum, f.Mul(c.probs[ch][k], e))
	}
	return sum
}

// winPairs returns seat 0's expected pairs and both seats' from n pairs on the table, seat 0's
// expected lead and, under a turn limit, the pairs both take by the limit.
func (s *copiesSolver[T]) winPairs(n, lead, total T) (T, []T) {
	f := s.f
	if s.limit == 0 {
		p := pairsFromLead(f, n, lead)
		return p, []T{p, f.Sub(n, p)}
	}
	two := f.FromInt(2)
	p := f.Div(f.Add(total, lead), two)
	return p, []T{p, f.Div(f.Sub(total, lead), two)}
}

// winWDL returns the probabilities to win, draw and lose of P(win) - P(loss) u and P(draw) dr.
func winWDL[T any](f field.Field[T], u, dr T) WDL[T] {
	two := f.FromInt(2)
	rest := f.Sub(f.FromInt(1), dr)
	return WDL[T]{Win: f.Div(f.Add(rest, u), two), Draw: dr, Loss: f.Div(f.Sub(rest, u), two)}
}

// CopiesWinChoiceValues is WinChoiceValues in the copies model (docs/models.md §4.13, §4.16): for
// every legal choice of the mover (seat 0) in state st at its lead so far lead, the probabilities
// that it wins, draws and loses and its score P(win) + P(draw)/2, the choice made now and lineup
// mu played afterwards (two players, a role playing to win; under a turn limit, the turns left in
// st are the limit). Value is the
// lineup's own. State is st.RulesState() with the lead.
func CopiesWinChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState, lead int) (WinChoices[T], error) {
	_, out, err := CopiesWinValues(ctx, f, m, mu, st, lead)
	return out, err
}

// CopiesWinValues returns, from one solve, what CopiesChoiceValues and CopiesWinChoiceValues give
// for a two-player lineup of the copies model in which a role plays to win, in state st at seat
// 0's lead so far lead: every legal choice's expected pairs and lead of the pairs left, with the
// lineup's own (Choices.Value; EvaluateCopies gives it at lead 0), and every choice's
// probabilities to win, draw and lose.
func CopiesWinValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState, lead int) (Choices[T], WinChoices[T], error) {
	var cs Choices[T]
	var out WinChoices[T]
	if mu.Players != 2 || mu.PerSeat {
		return cs, out, fmt.Errorf("players %d: win, draw and loss are computed for 2 players, one policy a role", mu.Players)
	}
	if err := st.Validate(); err != nil {
		return cs, out, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return cs, out, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	v := st.vec()
	if unknownCards(v) == 0 {
		return cs, out, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	if err := checkCopiesWin(m, mu); err != nil {
		return cs, out, err
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return cs, out, err
	}
	c, err := s.get(v.key(), s.limit)
	if err != nil {
		return cs, out, err
	}
	here := *c // with the outcomes, which the solved cell no longer holds
	if err := s.prepare(&here, v); err != nil {
		return cs, out, err
	}
	w := c.win
	i := w.at(lead)
	state := st.RulesState()
	state.Lead = lead
	out = WinChoices[T]{State: state, Value: winWDL(f, w.u[0][i], w.draw[0][i]), PolicyChoice: w.ch[0][i]}
	half, n := f.FromFrac(1, 2), f.FromInt(int64(st.Pairs()))
	res := s.result(st, c)
	res.ExpectedLead = w.lead[0][i]
	res.ExpectedPairs, res.PairsBySeat = s.winPairs(n, w.lead[0][i], w.total[0][i])
	cs = Choices[T]{State: st.RulesState(), Value: res, PolicyChoice: w.ch[0][i]}
	for _, ch := range rules.Choices() {
		if !here.legal[ch] {
			continue
		}
		u, dr, l := s.winChoiceValue(&here, 0, ch, lead, false)
		if lead > st.Pairs() || -lead > st.Pairs() {
			u, dr = s.finalWin(lead)
		}
		p := winWDL(f, u, dr)
		out.Values = append(out.Values, WinChoiceValue[T]{Choice: ch, Win: p.Win, Draw: p.Draw, Loss: p.Loss,
			Score: f.Add(p.Win, f.Mul(half, p.Draw))})
		pairs, bySeat := s.winPairs(n, l, s.winPassTotal(&here, 0, ch, lead, false))
		cs.Values = append(cs.Values, ChoiceValue[T]{Choice: ch, Lead: l, Pairs: pairs, PairsBySeat: bySeat})
	}
	out.markBest(f)
	if s.limit > 0 {
		markBest(f, &cs, 2)
	} else {
		markBestUnlimited(f, &cs, 2)
	}
	return cs, out, nil
}

// CopiesWinPolicyTable returns the choices of seat 0's policy of mu, which plays to win
// (win-optimal, or win-best-response to the other seat's), in the copies model m (two players),
// in every state a game of the given number of pairs reaches from its start, at
// every lead: the table the engine plays a policy that plays to win from under k copies of a
// face (rules.NewCopiesLeadTable). Under a turn limit the choices depend on the turns left:
// CopiesWinPolicyTurnTables gives them.
func CopiesWinPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) (*rules.CopiesTable, error) {
	if m.Variant.TurnLimit > 0 {
		return nil, fmt.Errorf("copies %d, turn limit %d: the choices depend on the turns left (see CopiesWinPolicyTurnTables)", m.Variant.CopiesOf(), m.Variant.TurnLimit)
	}
	layers, err := copiesWinLayers(ctx, f, m, mu, pairs)
	if err != nil {
		return nil, err
	}
	return layers[0], nil
}

// CopiesWinPolicyTurnTables is CopiesWinPolicyTable under the turn limit T of m: layers[t-1]
// holds the choices with t turns left, t = 1 .. T, in every state and at every lead a game of at
// most the given number of pairs reaches with t turns left from its start (every deal size, each
// starting with T turns left).
func CopiesWinPolicyTurnTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("copies %d: no turn limit, so the choices have no layer per number of turns left (see CopiesWinPolicyTable)", m.Variant.CopiesOf())
	}
	return copiesWinLayers(ctx, f, m, mu, pairs)
}

// copiesWinLayers returns the tables of CopiesWinPolicyTable, one without a turn limit and one per
// number of turns left under a limit (layers[t-1] with t turns left).
func copiesWinLayers[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if !mu.Policy.PlaysToWin() || mu.PerSeat {
		return nil, fmt.Errorf("copies %d: a table to win of policy %s (allowed: win-optimal, win-best-response)", k, mu.Policy)
	}
	if _, err := StartCopiesState(pairs, k); err != nil {
		return nil, err
	}
	if err := checkCopiesWin(m, mu); err != nil {
		return nil, err
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return nil, err
	}
	if err := s.solveStarts(pairs); err != nil {
		return nil, err
	}
	return s.fillLayers(rules.NewCopiesLeadTable, func(tab *rules.CopiesTable, v copiesVec, c *copiesCell[T]) error {
		w := c.win
		for d := -w.D; d <= w.D; d++ {
			if err := tab.SetLead(v, d, w.ch[0][w.at(d)]); err != nil {
				return err
			}
			if a := w.afterPass; a != nil {
				// Under a pass rule seat 0's choice just after a pass, too.
				if err := tab.SetLeadAfterPass(v, d, a.ch[0][a.at(d)]); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// CopiesWinCells returns the number of values a table to win of the copies model holds for
// deals of the given pairs and copies of a face under a turn limit (0: none): the cells of
// CopiesCells times the leads a state keeps, at most 2·pairs + 3; or -1 beyond 2^62.
func CopiesWinCells(pairs, copies, limit int) int64 {
	s := CopiesCells(pairs, copies, limit)
	if s < 0 || s > (1<<62)/int64(2*pairs+3) {
		return -1
	}
	return s * int64(2*pairs+3)
}

// winDistribution is CopiesDistribution of a lineup in which a role plays to win: the choices of
// both roles at every lead come from the backward recursion from st, and the probability of
// every position (state, seat to move, each seat's pairs, and under a pass rule whether the other
// seat has just passed) then follows forwards. Every turn but a pass takes a pair or turns up a
// card that was unknown, so a position is carried once all that lead to it are: in decreasing
// order of pairs on the table, then of unknown cards, then without a pass just made before just
// after one. A stalemate shares the pairs left, so seat 0's share may be a half pair.
func (s *copiesSolver[T]) winDistribution(st CopiesState) (ScoreDistribution[T], error) {
	f, n := s.f, st.Pairs()
	start := st.vec().key()
	if _, err := s.get(start, 0); err != nil {
		return ScoreDistribution[T]{}, err
	}
	d := ScoreDistribution[T]{State: st.RulesState(), Prob: s.zeros(2*n + 1), Win: s.zero, Draw: s.zero, Loss: s.zero}
	// end records a game that ends with seat 0's share h0, in half pairs, and its lead.
	end := func(p T, h0, lead int) {
		d.Prob[h0] = f.Add(d.Prob[h0], p)
		d.addResult(f, p, lead)
	}
	if unknownCards(st.vec()) == 0 {
		end(s.one, 0, 0)
		return d, nil
	}
	// buckets[k] holds the positions of k = pairs·(2n+1) + unknown cards.
	potential := func(v copiesVec) int {
		return v.state().Pairs()*(2*n+1) + unknownCards(v)
	}
	top := potential(st.vec())
	buckets := make([]map[copiesPos]T, top+1)
	add := func(at copiesPos, p T) {
		k := potential(vecOfKey(at.key))
		if buckets[k] == nil {
			buckets[k] = map[copiesPos]T{}
		}
		if q, ok := buckets[k][at]; ok {
			p = f.Add(q, p)
		}
		buckets[k][at] = p
	}
	add(copiesPos{key: start}, s.one)
	for k := top; k >= 0; k-- {
		select {
		case <-s.ctx.Done():
			return d, fmt.Errorf("solver stopped: %w", s.ctx.Err())
		default:
		}
		// A pass leads to the same state, just after a pass, in the same bucket: the positions
		// without a pass just made first, then those just after one (whose pass ends the game).
		for _, passed := range []bool{false, true} {
			for _, at := range sortedPositions(buckets[k]) {
				if at.passed == passed {
					s.winStep(at, buckets[k][at], add, end)
				}
			}
		}
		buckets[k] = nil
	}
	return d, nil
}

// winStep carries probability p of position at over the turn its mover plays, at its lead, to
// the positions it leads to (add) or to the end of the game (end: seat 0's share in half pairs
// and its lead).
func (s *copiesSolver[T]) winStep(at copiesPos, p T, add func(copiesPos, T), end func(T, int, int)) {
	f := s.f
	v := vecOfKey(at.key)
	w := s.memo[copiesAt{at.key, 0}].winAt(at.passed)
	lead := at.a0 - at.a1
	if at.seat == 1 {
		lead = -lead
	}
	ch := w.ch[at.seat][w.at(lead)] // seat 0 plays role 0's policy, seat 1 role 1's
	if ch == rules.Pass {
		s.passStep(at, p, v, add, end) // copieswinpass.go
		return
	}
	for _, o := range s.outcomes(v, ch) {
		q := f.Mul(p, f.FromFrac(o.num, o.den))
		next := at
		next.key, next.passed = o.next, false
		got := [2]*int{&next.a0, &next.a1}
		switch {
		case o.keep:
			*got[at.seat]++
		default:
			next.seat = 1 - at.seat
			*got[next.seat] += o.handed
		}
		if unknownCards(vecOfKey(o.next)) == 0 {
			end(q, 2*next.a0, next.a0-next.a1)
			continue
		}
		add(next, q)
	}
}
