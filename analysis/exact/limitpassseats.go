package exact

import "memsim/sim/rules"

// Three to eight seats under a pass rule (two-known, always) and a turn limit (docs/models.md §4.7,
// §4.18). The state gains the pass streak k = 0 .. p-1, the seats that passed in a row just before
// the turn, beside the turns left t. A pass uses a turn, as in the two-seat model (§1.7: passes
// count as turns): at k < p-1 it hands the same state to the next seat at streak k+1 with t-1
// turns left (none left: the game ends, the pairs left count for nobody); at k = p-1 it ends the
// game in a stalemate, n/p pairs to each seat, whatever the turns left (the engine ends the game
// at the p-th pass in a row before it looks at the limit). Every other turn leads to a state at
// streak 0 with fewer turns left. Every step goes to fewer turns left, so the streaks are solved
// by the same backward induction, with no self-reference.

// limitStreaks holds the values of one state with t turns left at every pass streak.
type limitStreaks[T any] struct {
	// self[k] is every seat's expected pairs in order from the mover at streak k, every seat for
	// itself, and choice[k] the mover's choice there.
	self   [][]T
	choice []rules.Choice
	// seats[k][m][s] is seat s's expected pairs with seat m to move at streak k, every seat
	// playing its policy, and reply[k] the choice of the seat that plays best-response there.
	seats [][][]T
	reply []rules.Choice
}

// streaked reports whether the sweep's values depend on the pass streak: three or more seats
// under a pass rule other than never.
func (s *limitSweep[T]) streaked() bool {
	return s.mu.Players >= 3 && s.m.Pass != rules.PassNever
}

// streaksOf returns c's streak levels, allocating them for p seats on first use.
func (s *limitSweep[T]) streaksOf(c *limitCell[T]) *limitStreaks[T] {
	if c.streaks == nil {
		p := s.mu.Players
		c.streaks = &limitStreaks[T]{
			self: make([][]T, p), choice: make([]rules.Choice, p),
			seats: make([][][]T, p), reply: make([]rules.Choice, p),
		}
	}
	return c.streaks
}

// stalemate returns every seat's share of a stalemate in st: n/p pairs.
func (s *limitSweep[T]) stalemate(st rules.State) []T {
	p := s.mu.Players
	share := s.f.Div(s.f.FromInt(int64(st.N)), s.f.FromInt(int64(p)))
	v := make([]T, p)
	for i := range v {
		v[i] = share
	}
	return v
}

// passVector returns every seat's expected pairs after a pass by seat m at streak k in st with t
// turns left: a stalemate at the last streak, nothing more when the pass used the last turn, and
// otherwise read, by get, off the same state with t-1 turns left at streak k+1 (the next seat to
// move; under decay forgetting each state the pass's hand-over leaves).
func (s *limitSweep[T]) passVector(st rules.State, t, k int, get func(l *limitStreaks[T]) []T) []T {
	switch {
	case k == s.mu.Players-1:
		return s.stalemate(st)
	case t == 1:
		return append([]T(nil), s.zeros...)
	}
	return s.passSeats(st, t, get)
}

// selfishPass computes the optimum of every seat for itself in st with t turns left at every
// streak: the mover makes the first choice, in the order daring, safe, known-first, pass, of
// largest expected pairs for itself. Streak 0 is the cell's self and selfChoice.
func (s *limitSweep[T]) selfishPass(st rules.State, t int, c *limitCell[T]) {
	ls := &s.states[s.index(st)]
	lv := s.streaksOf(c)
	get := func(n *limitCell[T], own bool) []T { return n.self }
	var val [rules.NumChoices][]T
	var first [rules.NumChoices]T
	for _, ch := range rules.Choices() {
		if ls.legal[ch] && ch != rules.Pass {
			val[ch] = s.vectorSum(st, t, ch, 0, 1, get, s.fromMover)
			first[ch] = val[ch][0]
		}
	}
	for k := range s.mu.Players {
		if ls.legal[rules.Pass] {
			val[rules.Pass] = s.passVector(st, t, k, func(l *limitStreaks[T]) []T { return s.fromMover(l.self[k+1], false) })
			first[rules.Pass] = val[rules.Pass][0]
		}
		ch := s.best(ls, first)
		lv.self[k], lv.choice[k] = val[ch], ch
	}
	c.self, c.selfChoice = lv.self[0], lv.choice[0]
}

// seatChoiceAt returns the choice of seat m, playing policy pol, in st at streak k: a fixed policy
// never passes, optimal plays every seat's own optimum at the streak or the two-player optimum's
// choice (after a pass or not), best-response its reply at the streak.
func (s *limitSweep[T]) seatChoiceAt(st rules.State, c *limitCell[T], m, r, k int, pol rules.Policy) rules.Choice {
	switch {
	case m == r:
		return c.streaks.reply[k]
	case pol != rules.PolicyOptimal:
		return s.fixedChoice(m, pol, st, k)
	case s.mu.TwoPlayerOptimal:
		return c.optChoice[min(k, 1)]
	}
	return c.streaks.choice[k]
}

// seatsVector returns every seat's expected pairs (seat 0 first) when seat m makes choice ch in st
// with t turns left at streak k, every seat playing its policy afterwards.
func (s *limitSweep[T]) seatsVector(st rules.State, t, k, m int, ch rules.Choice) []T {
	p := s.mu.Players
	nx := (m + 1) % p
	if ch == rules.Pass {
		return s.passVector(st, t, k, func(l *limitStreaks[T]) []T { return l.seats[k+1][nx] })
	}
	get := func(n *limitCell[T], own bool) []T {
		if own {
			return n.seats[m]
		}
		return n.seats[nx]
	}
	return s.vectorSum(st, t, ch, m, nx, get, func(v []T, own bool) []T { return v })
}

// multiPass computes every seat's expected pairs with each seat to move at every streak in st with
// t turns left, each seat playing its policy; streak 0 is the cell's seats (and reply).
func (s *limitSweep[T]) multiPass(st rules.State, t int, c *limitCell[T]) {
	ls := &s.states[s.index(st)]
	p := s.mu.Players
	pols := s.pols
	lv := s.streaksOf(c)
	r := s.mu.replySeat()
	for k := range p {
		if r >= 0 {
			var val [rules.NumChoices]T
			for _, ch := range rules.Choices() {
				if ls.legal[ch] {
					val[ch] = s.seatsVector(st, t, k, r, ch)[r]
				}
			}
			lv.reply[k] = s.best(ls, val)
		}
		lv.seats[k] = make([][]T, p)
		for m := range p {
			lv.seats[k][m] = s.seatsVector(st, t, k, m, s.seatChoiceAt(st, c, m, r, k, pols[m]))
		}
	}
	c.seats, c.reply = lv.seats[0], lv.reply[0]
}

// setStreaks records seat 0's choice in st at every pass streak, from the cell c of a layer, in
// that layer's table (rules.NewPassChoiceTable): its reply where it plays best-response, every
// seat's own optimum otherwise.
func (s *limitSweep[T]) setStreaks(layer *rules.ChoiceTable, st rules.State, c *limitCell[T]) {
	for k := range s.mu.Players {
		ch := c.streaks.choice[k]
		if s.needSeats && s.mu.replySeat() == 0 {
			ch = c.streaks.reply[k]
		}
		layer.SetPasses(st, k, ch)
	}
}

// streakTable reports whether seat 0's table under the limit tells the pass streaks apart: three
// or more seats under a pass rule, seat 0 playing its own optimum or best-response.
func (s *limitSweep[T]) streakTable() bool {
	return s.streaked() && (s.needSelf || s.mu.replySeat() == 0)
}
