package exact

import (
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The copies model under a shared handover-uniform memory (copiesmem.go; docs/models.md §4.16,
// "A handover-uniform memory") at three to eight seats, every pass rule (docs/models.md §4.7; under
// two-known and always the cells carry the pass streak, copiesmempass.go, and a stalemate shares
// the pairs left).
// The states and turns are the two-seat model's; the values are vectors, every seat's expected
// pairs. The cells of one number of pairs at a full memory refer to each other through a
// forgotten card that hands the next seat a state of the group, as the states of a decay row do
// (§4.14), and each such group is solved as a row of every seat for itself (selfRow): policy
// iteration on the group with the one-step deviation test and the tie rule of §4.7, the profile
// of the smallest largest gain kept where none settles. Every other cell is solved from the cells
// it leads to, as a group of one. A lineup of a policy per seat (optimal reading the optimum of
// every seat for itself, safe, daring) is one linear system per group of every seat's expected
// pairs with each seat to move; a seat that plays best-response chooses by policy iteration on
// that system, the others' choices fixed.

// cmSeatVals holds a cell's values at three or more seats.
type cmSeatVals[T any] struct {
	// self is every seat's expected pairs in order from the mover, every seat for itself;
	// selfChoice the mover's choice there, selfGap what the best one-step deviation gains the
	// mover (zero at an equilibrium).
	self       []T
	selfChoice rules.Choice
	selfGap    T
	// seats[t] is every seat's expected pairs (seat 0 first) with seat t to move, every seat
	// playing its own policy; reply is the replying seat's choice.
	seats [][]T
	reply rules.Choice
}

// checkCopiesMemSeats reports whether the copies model under a handover-uniform memory solves
// the lineup mu of three to eight seats: every pass rule, no turn limit, every seat optimal,
// safe, daring or (at one seat) best-response.
func checkCopiesMemSeats(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	switch {
	case mu.Players > rules.MaxPlayers:
		return fmt.Errorf("players %d: must be between 1 and %d", mu.Players, rules.MaxPlayers)
	case m.Variant.TurnLimit > 0:
		return fmt.Errorf("copies %d with %s at %d seats: a turn limit has no exact model (two seats and solitaire have)", k, m.Memory, mu.Players)
	case mu.TwoPlayerOptimal:
		return fmt.Errorf("copies %d with %s at %d seats: optimal is every seat's own optimum, not the two-player optimum's choices", k, m.Memory, mu.Players)
	case mu.PerSeat && (mu.Table != nil || mu.OpponentTable != nil):
		return fmt.Errorf("a policy per seat is not combined with tables")
	}
	replies := 0
	for i, p := range mu.SeatPolicies() {
		switch p {
		case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring:
		case rules.PolicyBestResponse:
			replies++
		default:
			return fmt.Errorf("seat %d: policy %s with copies %d and %s has no exact model (allowed: optimal, safe, daring, best-response)", i, p, k, m.Memory)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	if replies > 1 {
		return fmt.Errorf("policy best-response: with %d players one seat replies to the others, not %d (replies to each other would be an equilibrium of their own)", mu.Players, replies)
	}
	return nil
}

// solveSeats computes the values at three or more seats: the optimum of every seat for itself
// where a seat plays optimal, then, unless every seat plays it, every seat's expected pairs with
// each seat to move; groups lists the cells in the order they are solved, each group referring to
// itself and to the groups before it only (the handover-uniform memory's groups, or the decay
// memory's strongly connected components, copiesdecay.go).
func (s *copiesMemSolver[T]) solveSeats(groups [][]int) error {
	pol := s.mu.SeatPolicies()
	needSelf, needSeats := false, false
	for _, p := range pol {
		needSelf = needSelf || p == rules.PolicyOptimal
		needSeats = needSeats || p != rules.PolicyOptimal
	}
	for _, g := range groups {
		if needSelf {
			if err := s.selfGroup(g); err != nil {
				return err
			}
		}
		if needSeats {
			if err := s.seatsGroup(g, pol); err != nil {
				return err
			}
		}
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// positions returns the group's cells with a choice to make, and each one's place among them.
func (s *copiesMemSolver[T]) positions(idx []int) ([]int, map[int]int) {
	var live []int
	pos := map[int]int{}
	for _, i := range idx {
		if c := s.cells[i]; c.pairs > 0 && !c.stalemate {
			pos[i] = len(live)
			live = append(live, i)
		}
	}
	return live, pos
}

// terminal gives the cells of idx without a choice to make their values: nothing more for
// anybody where no pair is left, every seat its share of the pairs left in a stalemate.
func (s *copiesMemSolver[T]) terminal(idx []int) {
	p := s.mu.Players
	for _, i := range idx {
		c := s.cells[i]
		if c.pairs > 0 && !c.stalemate {
			continue
		}
		share := s.f.Div(s.f.FromInt(int64(c.left)), s.f.FromInt(int64(p)))
		c.mseats.self = make([]T, p)
		c.mseats.seats = make([][]T, p)
		for t := range p {
			c.mseats.seats[t] = make([]T, p)
			for j := range p {
				c.mseats.seats[t][j] = share
			}
		}
		for j := range p {
			c.mseats.self[j] = share
		}
		c.mseats.selfGap = s.zero
	}
}

// selfEquation returns the equation of the mover's vector in c making ch: outcomes that leave the
// group read in their cells' vectors (turned by one seat when the next seat moves), those that
// hand the next seat a cell of the group (pos) kept as references.
func (s *copiesMemSolver[T]) selfEquation(c *cmCell[T], ch rules.Choice, pos map[int]int) (*selfEq[T], error) {
	f, p := s.f, s.mu.Players
	e := &selfEq[T]{a: make([]T, p)}
	for j := range e.a {
		e.a[j] = s.zero
	}
	for i, o := range c.outs[ch] {
		pr := c.probs[ch][i]
		k, inGroup := pos[o.to]
		if o.keep {
			if inGroup {
				return nil, fmt.Errorf("copies with %s: a pair taken leads to a state of the same number of pairs", s.m.Memory)
			}
			succ := s.cells[o.to].mseats.self
			e.a[0] = f.Add(e.a[0], pr)
			for j := range p {
				e.a[j] = f.Add(e.a[j], f.Mul(pr, succ[j]))
			}
			continue
		}
		if o.handed > 0 {
			e.a[1] = f.Add(e.a[1], f.Mul(pr, f.FromInt(int64(o.handed))))
		}
		if inGroup {
			e.to = append(e.to, k)
			e.coef = append(e.coef, pr)
			continue
		}
		succ := s.cells[o.to].mseats.self
		for j := range p {
			e.a[j] = f.Add(e.a[j], f.Mul(pr, succ[(j+p-1)%p]))
		}
	}
	m := decayEq[T]{to: e.to, coef: e.coef}
	m.merge(f)
	e.to, e.coef = m.to, m.coef
	return e, nil
}

// selfGroup solves the optimum of every seat for itself in the cells of idx.
func (s *copiesMemSolver[T]) selfGroup(idx []int) error {
	s.terminal(idx)
	live, pos := s.positions(idx)
	if len(live) == 0 {
		return nil
	}
	p := s.mu.Players
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], len(live))}
	for k, i := range live {
		c := s.cells[i]
		for _, ch := range rules.Choices() {
			if !c.legal[ch] {
				continue
			}
			e, err := s.selfEquation(c, ch, pos)
			if err != nil {
				return err
			}
			r.eqs[k][ch] = e
		}
	}
	sol, err := r.solve(s.f)
	if err != nil {
		return fmt.Errorf("copies with %s, every seat for itself: %w", s.m.Memory, err)
	}
	for k, i := range live {
		c := s.cells[i]
		c.mseats.self = make([]T, p)
		for j := range p {
			c.mseats.self[j] = sol.x[k*p+j][0]
		}
		c.mseats.selfChoice, c.mseats.selfGap = sol.ch[k], sol.gain[k]
	}
	return nil
}

// seatsEquation returns the equation of every seat's expected pairs (seat 0 first) with seat t to
// move in c making ch: unknown k·p + t is the vector of the group's k-th cell (pos) with seat t to
// move.
func (s *copiesMemSolver[T]) seatsEquation(c *cmCell[T], t int, ch rules.Choice, pos map[int]int) decayEq[T] {
	f, p := s.f, s.mu.Players
	e := decayEq[T]{a: make([]T, p)}
	for j := range e.a {
		e.a[j] = s.zero
	}
	for i, o := range c.outs[ch] {
		pr := c.probs[ch][i]
		mover := t
		if o.keep {
			e.a[t] = f.Add(e.a[t], pr)
		} else {
			mover = (t + 1) % p
			if o.handed > 0 {
				e.a[mover] = f.Add(e.a[mover], f.Mul(pr, f.FromInt(int64(o.handed))))
			}
		}
		if k, ok := pos[o.to]; ok {
			e.to = append(e.to, k*p+mover)
			e.coef = append(e.coef, pr)
			continue
		}
		succ := s.cells[o.to].mseats.seats[mover]
		for j := range p {
			e.a[j] = f.Add(e.a[j], f.Mul(pr, succ[j]))
		}
	}
	e.merge(f)
	return e
}

// seatChoice returns seat t's choice in c under its policy p (best-response's is solved apart).
func (s *copiesMemSolver[T]) seatChoice(c *cmCell[T], p rules.Policy) rules.Choice {
	if p == rules.PolicyOptimal {
		return c.mseats.selfChoice
	}
	return fixedChoiceOf(c, p)
}

// seatsGroup solves every seat's expected pairs with each seat to move in the cells of idx, every
// seat playing its policy pol[t]; the replying seat, if any, by policy iteration: its choices
// switched, every cell at once, to the first choice that gives it strictly more than its current
// one, until none does, then each replaced by the first of its best (the system solved again).
func (s *copiesMemSolver[T]) seatsGroup(idx []int, pol []rules.Policy) error {
	s.terminal(idx)
	live, pos := s.positions(idx)
	if len(live) == 0 {
		return nil
	}
	f, p := s.f, s.mu.Players
	br := s.mu.replySeat()
	ch := make([]rules.Choice, len(live))
	for k := range ch {
		ch[k] = rules.Daring
	}
	system := func() []decayEq[T] {
		eqs := make([]decayEq[T], len(live)*p)
		for k, i := range live {
			c := s.cells[i]
			for t := range p {
				y := ch[k]
				if t != br {
					y = s.seatChoice(c, pol[t])
				}
				eqs[k*p+t] = s.seatsEquation(c, t, y, pos)
			}
		}
		return eqs
	}
	// best returns, for cell k and the solution x, the replying seat's first choice of the most
	// expected pairs and whether it gives strictly more than ch[k].
	best := func(k int, x [][]T) (rules.Choice, bool) {
		c := s.cells[live[k]]
		var top T
		bc, have := ch[k], false
		var cur T
		for _, y := range rules.Choices() {
			if !c.legal[y] {
				continue
			}
			e := s.seatsEquation(c, br, y, pos)
			v := evalVec(f, &e, x)[br]
			if y == ch[k] {
				cur = v
			}
			if !have || f.Cmp(v, top) > 0 {
				bc, top, have = y, v, true
			}
		}
		return bc, f.Cmp(top, cur) > 0
	}
	var x [][]T
	for iter := 0; ; iter++ {
		if iter == decayIterations {
			return fmt.Errorf("copies with %s, best-response: policy iteration did not settle in %d steps", s.m.Memory, decayIterations)
		}
		var err error
		if x, err = solveRow(f, system()); err != nil {
			return fmt.Errorf("copies with %s: %w", s.m.Memory, err)
		}
		if br < 0 {
			break
		}
		changed := false
		next := append([]rules.Choice(nil), ch...)
		for k := range live {
			if y, better := best(k, x); better {
				next[k], changed = y, true
			}
		}
		ch = next
		if !changed {
			first := append([]rules.Choice(nil), ch...)
			for k := range live {
				first[k], _ = best(k, x)
			}
			if profileKey(first) != profileKey(ch) {
				ch = first
				if x, err = solveRow(f, system()); err != nil {
					return fmt.Errorf("copies with %s: %w", s.m.Memory, err)
				}
			}
			break
		}
	}
	for k, i := range live {
		c := s.cells[i]
		c.mseats.seats = make([][]T, p)
		for t := range p {
			c.mseats.seats[t] = x[k*p+t]
		}
		if br >= 0 {
			c.mseats.reply = ch[k]
		}
	}
	return nil
}

// evalVec returns the vector value of e in the solution x.
func evalVec[T any](f field.Field[T], e *decayEq[T], x [][]T) []T {
	out := append([]T(nil), e.a...)
	for i, u := range e.to {
		for j := range out {
			out[j] = f.Add(out[j], f.Mul(e.coef[i], x[u][j]))
		}
	}
	return out
}

// seatsChoiceVector returns every seat's expected pairs (seat 0 first) when seat 0 makes ch in c,
// every seat playing the lineup's policies afterwards, every cell solved.
func (s *copiesMemSolver[T]) seatsChoiceVector(c *cmCell[T], ch rules.Choice) []T {
	if s.seatsSelfish() {
		e, _ := s.selfEquation(c, ch, nil) // no reference: a pair taken cannot be in the group
		return e.a
	}
	e := s.seatsEquation(c, 0, ch, nil)
	return e.a
}

// seatsSelfish reports whether every seat plays optimal: the values are the optimum of every seat
// for itself.
func (s *copiesMemSolver[T]) seatsSelfish() bool {
	for _, p := range s.mu.SeatPolicies() {
		if p != rules.PolicyOptimal {
			return false
		}
	}
	return true
}

// seatsPolicyChoice returns seat 0's choice in c under the lineup.
func (s *copiesMemSolver[T]) seatsPolicyChoice(c *cmCell[T]) rules.Choice {
	pol := s.mu.SeatPolicies()
	if s.mu.replySeat() == 0 {
		return c.mseats.reply
	}
	return s.seatChoice(c, pol[0])
}

// seatsResult reads the lineup's value at three or more seats from the start cell.
func (s *copiesMemSolver[T]) seatsResult(st CopiesState) Result[T] {
	c := s.cells[0]
	res := Result[T]{State: st.RulesState(), Players: s.mu.Players}
	if s.seatsSelfish() {
		res.PairsBySeat = append([]T(nil), c.mseats.self...)
	} else {
		res.PairsBySeat = append([]T(nil), c.mseats.seats[0]...)
	}
	res.ExpectedPairs = res.PairsBySeat[0]
	return res
}

// seatsChoices is copiesMemChoiceValues at three or more seats, s solved.
func (s *copiesMemSolver[T]) seatsChoices(st CopiesState) Choices[T] {
	c := s.cells[0]
	out := Choices[T]{State: st.RulesState(), Value: s.seatsResult(st), PolicyChoice: s.seatsPolicyChoice(c)}
	if s.seatsSelfish() {
		out.PolicyChoice = c.mseats.selfChoice
	}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		cv := ChoiceValue[T]{Choice: ch, PairsBySeat: s.seatsChoiceVector(c, ch)}
		cv.Pairs = cv.PairsBySeat[0]
		out.Values = append(out.Values, cv)
	}
	markBestUnlimited(s.f, &out, s.mu.Players)
	return out
}
