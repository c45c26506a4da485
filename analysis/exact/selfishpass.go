package exact

import (
	"memsim/sim/rules"
)

// Three or more seats under a pass rule (two-known or always), perfect memory (docs/models.md
// §4.7). The values of a state depend on the pass streak k = 0 .. p-1, the number of seats that
// passed in a row just before this turn: a pass at k < p-1 hands the same state to the next seat
// at k+1, a pass at k = p-1 ends the game in a stalemate (every seat n/p), and every other turn
// flips a card nobody remembers, so it leads to another state, at streak 0 (after a pair, to the
// mover again). The levels of one state are therefore solved from k = p-1 down to 0, each one
// from the level above and from the other states' level 0, which is all a sweep keeps of them.

// passStreak holds the levels of the current state of a sweep of three or more seats under a
// pass rule.
type passStreak[T any] struct {
	// self[k]: every seat's expected pairs, in order from the mover, at streak k, every seat
	// playing its own optimum; choice[k] the optimum's choice there, dev[k][c] each legal
	// choice's value to the mover made once at streak k, the optimum afterwards, and best[k][c]
	// whether no choice is worth more.
	self   [][]T
	choice []rules.Choice
	dev    [][rules.NumChoices]T
	best   [][rules.NumChoices]bool
	// seats[k][t]: every seat's expected pairs (seat 0 first) with seat t to move at streak k,
	// every seat playing the lineup's policy (multiPass).
	seats [][][]T
	// gap[k]: how much the best one-step deviation from choice[k] gains the mover (zero: an
	// equilibrium; a forgotten card can leave a streak without one, selfishlimitpass.go).
	gap []T
	// afterPass and seatsAfterPass, under decay forgetting (whose hand-over after a pass can
	// forget a card), are the values after a pass at streak 0 that rotate(self[1]) and
	// seats[1][1] are elsewhere: every seat's expected pairs, the mover's (seat 0's) first.
	afterPass, seatsAfterPass []T
	// reply[k] is the choice of the seat that plays best-response at streak k (selfishreply.go).
	reply []rules.Choice
}

// newPassStreak returns the levels of a sweep of p seats.
func newPassStreak[T any](p int) *passStreak[T] {
	return &passStreak[T]{
		self:   make([][]T, p),
		choice: make([]rules.Choice, p),
		dev:    make([][rules.NumChoices]T, p),
		best:   make([][rules.NumChoices]bool, p),
		seats:  make([][][]T, p),
		gap:    make([]T, p),
		reply:  make([]rules.Choice, p),
	}
}

// stalemate returns the vector of a game ended by a stalemate in st: n/p pairs to each seat.
func (w *sweep[T]) stalemate(st rules.State) []T {
	f := w.f
	p := w.mu.Players
	share := f.Div(f.FromInt(int64(st.N)), f.FromInt(int64(p)))
	v := make([]T, p)
	for s := range v {
		v[s] = share
	}
	return v
}

// selfishPass computes the state's vectors at every streak under the optimum of every seat for
// itself: at each streak the mover takes the first choice with the most expected pairs for
// itself in the order daring, safe, known-first, pass. Level 0 is the state's value (cell.self),
// and selfChoice, selfDev and optBest are those of level 0.
func (w *sweep[T]) selfishPass(st rules.State, c *cell[T]) {
	if !w.m.Memory.Perfect() {
		w.selfishLimitPass(st, c)
		return
	}
	f := w.f
	p := w.mu.Players
	s := w.streak
	var as [rules.NumChoices][]T
	top := rules.Choice(rules.NumChoices)
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		// With perfect memory no outcome comes back to st: the probability b is zero.
		as[ch], _ = w.selfSum(st, ch)
		if top == rules.NumChoices || f.Cmp(as[ch][0], as[top][0]) > 0 {
			top = ch
		}
	}
	for k := p - 1; k >= 0; k-- {
		best, choice := as[top], top
		for _, ch := range rules.Choices() {
			if w.legal[ch] && ch != rules.Pass {
				s.dev[k][ch] = as[ch][0]
			}
		}
		if w.legal[rules.Pass] {
			v := w.stalemate(st)
			if k < p-1 {
				v = w.rotate(s.self[k+1])
			}
			s.dev[k][rules.Pass] = v[0]
			if f.Cmp(v[0], best[0]) > 0 {
				best, choice = v, rules.Pass
			}
		}
		s.self[k], s.choice[k], s.gap[k] = best, choice, w.zero
		for _, ch := range rules.Choices() {
			s.best[k][ch] = w.legal[ch] && f.Cmp(s.dev[k][ch], best[0]) == 0
		}
	}
	c.self = s.self[0]
	w.selfChoice, w.selfGap = s.choice[0], w.zero
	w.selfDev, w.optBest = s.dev[0], s.best[0]
}

// streakChoice returns the optimal policy's choice in the current state at streak k: every
// seat's own optimum at the streak, or the two-player optimum's choice after no pass at streak 0
// and just after a pass at every longer streak, as the engine reads a two-player table
// (rules.ChoiceTable.LookupPasses). A pass leaves the state of these memories as it is, so the
// two-player optimum's choice just after a pass is its choice after none
// (TestTwoPlayerOptimumAfterPassIsItsChoiceWithoutPass).
func (w *sweep[T]) streakChoice(k int) rules.Choice {
	switch {
	case w.needSelf:
		return w.streak.choice[k]
	case k > 0:
		return w.optimalAfterPass()
	}
	return w.optChoice
}

// seatChoiceAt returns the choice of seat t in st at streak k: fixed policies never pass, a
// table is read at the streak (rules.ChoiceTable.LookupPasses).
func (w *sweep[T]) seatChoiceAt(t int, st rules.State, k int) rules.Choice {
	if w.mu.PerSeat {
		if p := w.mu.Seats[t]; p != rules.PolicyOptimal {
			return p.Decide(st)
		}
		return w.streakChoice(k)
	}
	r := min(t, 1)
	switch p := w.pol[r]; p {
	case policyTable:
		if c, ok := w.tab[r].LookupPasses(st, k); ok && w.legal[c] {
			return c
		}
		return w.firstLegal()
	case rules.PolicyOptimal:
		return w.streakChoice(k)
	default:
		return p.Decide(st)
	}
}

// seatSum returns every seat's expected pairs (seat 0 first) when seat t makes choice ch other
// than a pass in st, the lineup played afterwards: no outcome comes back to st (perfect memory),
// and the successors are read at streak 0.
func (w *sweep[T]) seatSum(st rules.State, t int, ch rules.Choice) []T {
	p := w.mu.Players
	next := (t + 1) % p
	vec := w.zeros(p)
	for i, o := range w.outs[ch] {
		pr := w.probs[ch][i]
		w.addOutcome(vec, pr, o, t, next)
	}
	return vec
}

// multiPass computes every seat's expected pairs with each seat to move at every streak, every
// seat playing the lineup's policy; level 0 is the state's value (cell.seats).
func (w *sweep[T]) multiPass(st rules.State, c *cell[T]) {
	if !w.m.Memory.Perfect() {
		w.multiLimitPass(st, c)
		return
	}
	p := w.mu.Players
	s := w.streak
	r := w.mu.replySeat()
	for k := p - 1; k >= 0; k-- {
		level := make([][]T, p)
		for t := range p {
			if t == r {
				level[t], s.reply[k] = w.replyLevel(st, k, r)
				continue
			}
			level[t] = w.levelSum(st, t, k, w.seatChoiceAt(t, st, k))
		}
		s.seats[k] = level
	}
	c.seats = s.seats[0]
	if r >= 0 {
		w.brChoice = [2]rules.Choice{s.reply[0], s.reply[0]}
	}
}

// levelSum returns every seat's expected pairs (seat 0 first) when seat t makes choice ch in st at
// streak k, the levels above solved: a pass at the last streak is a stalemate, another pass hands
// the state to the next seat at the next streak.
func (w *sweep[T]) levelSum(st rules.State, t, k int, ch rules.Choice) []T {
	p := w.mu.Players
	switch {
	case ch == rules.Pass && k == p-1:
		return w.stalemate(st)
	case ch == rules.Pass:
		return w.streak.seats[k+1][(t+1)%p]
	}
	return w.seatSum(st, t, ch)
}

// passChoiceValue returns every seat's expected pairs, in order from the mover (seat 0), in the
// last state st of a sweep under a pass rule after seat 0 passes at streak 0, the lineup played
// afterwards: the next seat moves in st at streak 1.
func (w *sweep[T]) passChoiceValue(st rules.State) []T {
	s := w.streak
	switch {
	case w.needSelf && !w.needMulti && s.afterPass != nil:
		return s.afterPass
	case w.needSelf && !w.needMulti:
		return w.rotate(s.self[1])
	case s.seatsAfterPass != nil:
		return s.seatsAfterPass
	}
	return s.seats[1][1]
}

// visitStreaks calls visit with the table cell of the last state st of a sweep of every seat for
// itself under a pass rule at every pass streak, from 0 up.
func (w *sweep[T]) visitStreaks(st rules.State, tc *TableCell[T], visit func(*TableCell[T]) error) error {
	s := w.streak
	for k := range s.self {
		tc.State, tc.Passes, tc.Value, tc.Legal, tc.Choice = st, k, s.self[k][0], w.legal, s.choice[k]
		tc.BySeat = s.self[k]
		tc.Best = tc.Best[:0]
		for _, ch := range rules.Choices() {
			if w.legal[ch] {
				tc.ChoiceValue[ch] = s.dev[k][ch]
			}
			if s.best[k][ch] {
				tc.Best = append(tc.Best, ch)
			}
		}
		tc.Code = CodeEqual
		if rules.HasDecision(st) && w.legal[rules.Safe] {
			switch w.f.Cmp(s.dev[k][rules.Daring], s.dev[k][rules.Safe]) {
			case 1:
				tc.Code = CodeDaring
			case -1:
				tc.Code = CodeSafe
			}
		}
		if err := visit(tc); err != nil {
			return err
		}
	}
	return nil
}
