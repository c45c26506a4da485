package exact

import "memsim/sim/rules"

// The copies model under pass rules two-known and always at three to eight seats (docs/models.md
// §4.7, "Pass rules"; §4.16). As in the standard game (selfishpass.go) the values of a state of
// faces depend on the pass streak k = 0 .. p-1, the number of seats that passed in a row just
// before this turn: a pass at k < p-1 hands the same state of faces to the next seat at k+1, a
// pass at k = p-1 ends the game in a stalemate that gives every seat its share (1/p) of the pairs
// left, and every other turn takes a pair or turns up a card that was not remembered, leading to
// another state at streak 0 (after a pair, to the mover again). The streak levels of a state are
// therefore solved from k = p-1 down to 0, each from the level above and from the states after it
// at streak 0, which the memoised recursion has solved first: backward induction, exact in
// rationals and in float64 on the same path. Under a turn limit a pass uses a turn too: it hands
// the state with one turn fewer (c.passNext, solved first) to the next seat at k+1, and with no
// turn left the game ends, the pairs left counting for nobody.

// copiesStreak holds the values of one state of the copies model at every pass streak, three or
// more seats under a pass rule; level 0 is also the cell's self, selfChoice and seats.
type copiesStreak[T any] struct {
	// self[k] is every seat's expected pairs, in order from the mover, at streak k, every seat
	// playing its own optimum; choice[k] the mover's choice there.
	self   [][]T
	choice []rules.Choice
	// seats[k][t] is every seat's expected pairs (seat 0 first) with seat t to move at streak k,
	// every seat playing its own policy; reply[k] the replying seat's choice there.
	seats [][][]T
	reply []rules.Choice
	// pairs is the pairs left in the state, which a stalemate shares.
	pairs int
}

// streaks reports whether the solver's states carry the pass streak: three or more seats under
// a pass rule.
func (s *copiesSolver[T]) streaks() bool {
	return s.m.Pass != rules.PassNever && s.mu.Players >= 3
}

// stalemate returns every seat's share of the pairs left in a stalemate of the state of c.
func (s *copiesSolver[T]) stalemate(c *copiesCell[T]) []T {
	f, p := s.f, s.mu.Players
	share := f.Div(f.FromInt(int64(c.streak.pairs)), f.FromInt(int64(p)))
	v := make([]T, p)
	for i := range v {
		v[i] = share
	}
	return v
}

// rotate returns the vector w, in order from the next seat, in order from the mover.
func (s *copiesSolver[T]) rotate(w []T) []T {
	p := s.mu.Players
	v := make([]T, p)
	for i := range v {
		v[i] = w[(i-1+p)%p]
	}
	return v
}

// selfPassVec returns every seat's expected pairs, in order from the mover, when the mover passes
// in c at streak k, every seat playing its own optimum: the stalemate at the last streak, the
// next seat's vector at streak k+1 otherwise.
func (s *copiesSolver[T]) selfPassVec(c *copiesCell[T], k int) []T {
	switch nx := c.passNext; {
	case k == s.mu.Players-1:
		return s.stalemate(c)
	case nx.streak == nil:
		return s.zeros(s.mu.Players) // the limit ends the game: the pairs left count for nobody
	default:
		return s.rotate(nx.streak.self[k+1])
	}
}

// selfishStreak computes the optimum of every seat for itself in c at every pass streak, from the
// last down: at each streak the mover takes the first choice, in the order daring, safe,
// known-first, pass, with the most expected pairs for itself. The choices other than the pass
// lead to other states at streak 0 and are worth the same at every streak.
func (s *copiesSolver[T]) selfishStreak(c *copiesCell[T]) {
	f, p := s.f, s.mu.Players
	var vecs [rules.NumChoices][]T
	top := rules.Choice(rules.NumChoices)
	for _, ch := range rules.Choices() {
		if !c.legal[ch] || ch == rules.Pass {
			continue
		}
		vecs[ch] = s.vecAfter(c, ch, func(x *copiesCell[T]) []T { return x.self })
		if top == rules.NumChoices || f.Cmp(vecs[ch][0], vecs[top][0]) > 0 {
			top = ch
		}
	}
	st := c.streak
	st.self, st.choice = make([][]T, p), make([]rules.Choice, p)
	for k := p - 1; k >= 0; k-- {
		best, choice := vecs[top], top
		if c.legal[rules.Pass] {
			if v := s.selfPassVec(c, k); f.Cmp(v[0], best[0]) > 0 {
				best, choice = v, rules.Pass
			}
		}
		st.self[k], st.choice[k] = best, choice
	}
	c.self, c.selfChoice = st.self[0], st.choice[0]
}

// seatsAt returns every seat's expected pairs (seat 0 first) when seat t makes choice ch in c at
// streak k, the levels above solved: a pass at the last streak is the stalemate, another pass
// hands the state to the next seat at the next streak, and every other choice leads to states at
// streak 0.
func (s *copiesSolver[T]) seatsAt(c *copiesCell[T], t, k int, ch rules.Choice) []T {
	p := s.mu.Players
	switch {
	case ch == rules.Pass && k == p-1:
		return s.stalemate(c)
	case ch == rules.Pass && c.passNext.streak == nil:
		return s.zeros(p) // the limit ends the game: the pairs left count for nobody
	case ch == rules.Pass:
		return c.passNext.streak.seats[k+1][(t+1)%p]
	}
	return s.seatsAfter(c, t, ch)
}

// seatChoiceAt returns the choice of seat t's policy in c at streak k: the replying seat's first
// choice with the most expected pairs for itself, the optimum of every seat for itself at that
// streak, or a fixed policy's choice (which never passes). The two-player optimum's choices
// (Lineup.TwoPlayerOptimal) are its choice after no pass at streak 0 and its choice just after a
// pass at every longer streak: a pass leaves the state of faces as it is (with one turn fewer
// under a turn limit), and the engine's table player reads a two-player table so.
func (s *copiesSolver[T]) seatChoiceAt(c *copiesCell[T], t, k int) rules.Choice {
	switch p := s.pol[t]; {
	case p == rules.PolicyBestResponse && s.mu.replySeat() == t:
		return c.streak.reply[k]
	case p == rules.PolicyOptimal && s.mu.TwoPlayerOptimal && k > 0:
		return c.optAfterChoice
	case p == rules.PolicyOptimal && s.mu.TwoPlayerOptimal:
		return c.optChoice
	case p == rules.PolicyOptimal:
		return c.streak.choice[k]
	default:
		return fixedChoice(c, p)
	}
}

// perSeatStreak computes every seat's expected pairs with each seat to move in c at every pass
// streak, from the last down, every seat playing its own policy.
func (s *copiesSolver[T]) perSeatStreak(c *copiesCell[T]) {
	f, p := s.f, s.mu.Players
	st := c.streak
	st.seats, st.reply = make([][][]T, p), make([]rules.Choice, p)
	r := s.mu.replySeat()
	for k := p - 1; k >= 0; k-- {
		st.seats[k] = make([][]T, p)
		if r >= 0 {
			best := rules.Daring
			var top T
			for _, ch := range rules.Choices() {
				if !c.legal[ch] {
					continue
				}
				if v := s.seatsAt(c, r, k, ch)[r]; ch == rules.Daring || f.Cmp(v, top) > 0 {
					best, top = ch, v
				}
			}
			st.reply[k] = best
		}
		for t := range p {
			st.seats[k][t] = s.seatsAt(c, t, k, s.seatChoiceAt(c, t, k))
		}
	}
	c.seats = st.seats[0]
	if r >= 0 {
		c.brChoice[0] = st.reply[0]
	}
}

// passSeatsValue returns every seat's expected pairs, in order from seat 0, when seat 0 passes in
// c at streak 0, every seat playing the lineup's policy afterwards (three or more seats).
func (s *copiesSolver[T]) passSeatsValue(c *copiesCell[T]) []T {
	if s.needSeats {
		return s.seatsAt(c, 0, 0, rules.Pass)
	}
	return s.selfPassVec(c, 0)
}

// tableChoiceAt returns seat 0's choice in c at pass streak k as CopiesPolicyTable writes it at
// three or more seats under a pass rule.
func (s *copiesSolver[T]) tableChoiceAt(c *copiesCell[T], k int) rules.Choice {
	if s.needSeats {
		return s.seatChoiceAt(c, 0, k)
	}
	return c.streak.choice[k]
}
