package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Singletons under a shared handover-uniform memory at three to eight seats (docs/models.md §4.4,
// "Singletons under a handover-uniform memory", and §4.7). The turns are those of two seats
// (husOutcomes): a turn that takes a pair keeps the move, and one that hands it over, after any
// forgetting, hands the next seat the state it leaves (first taking the pair the turn left known
// whole, if any). The values are every seat's expected pairs in order from the mover. Within the
// row of n pairs a hand-over that takes no pair leads to a state of the same row, moved by the
// next seat, so the row is solved as one system (selfRow, as decay's rows at three or more seats,
// selfishdecay.go): the optimum of every seat for itself by its policy iteration with the one-step
// test and tie rule of §4.7, a lineup of fixed policies per seat (optimal seats playing the
// optimum's choices) in one solve, and a seat that plays best-response by policy iteration over
// its own choices only. Under the pass rules two-known and always a state is solved at every pass
// streak 0 .. p-1 (streakRow, selfishdecaypass.go): a pass forgets nothing (the memory holds no
// more than its capacity and the pass shows no card), so it hands the next seat the same state at
// the next streak, and a pass at streak p-1 ends the game in a stalemate, every seat taking n/p.

// husSeatVals holds a cell's values at three or more seats, for each pass streak l (one level
// under pass rule never): every seat's expected pairs in order from the mover under the optimum
// of every seat for itself (self, selfCh its choice, selfGap how much the best one-step deviation
// gains the mover, zero at an equilibrium), and under the lineup with seat t to move (seats[l][t],
// seat t's choice seatCh[l][t]). dev[c] is every seat's expected pairs, seat 0 moving at streak
// 0 and making choice c once, the lineup (or the optimum of every seat for itself) played after.
type husSeatVals[T any] struct {
	self    [][]T
	selfCh  []rules.Choice
	selfGap []T
	seats   [][][]T
	seatCh  [][]rules.Choice
	dev     [rules.NumChoices][]T
}

// checkHUSinglesSeats is checkHUSingles at three to eight seats: the optimum of every seat for
// itself, a fixed policy or optimal per seat, or one seat's best-response to the others.
func checkHUSinglesSeats(m Model, mu Lineup) error {
	s := m.Singletons
	switch {
	case mu.Players > rules.MaxPlayers:
		return fmt.Errorf("players %d: must be between 1 and %d", mu.Players, rules.MaxPlayers)
	case mu.TwoPlayerOptimal && mu.playsOptimal():
		return fmt.Errorf("singletons %d with %s at %d seats: optimal is every seat's own optimum (§4.7), the two-player optimum's choices have no exact model there", s, m.Memory, mu.Players)
	case isSeatReply(mu):
		return mu.validateSeatReply(m)
	}
	for i, p := range mu.SeatPolicies() {
		if p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("seat %d: policy %s with singletons %d and %s at %d seats has no exact model (allowed: optimal, safe, daring, parity, best-response at one seat)", i, p, s, m.Memory, mu.Players)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// seatLevels returns the pass streaks a state is solved at: 1 under pass rule never, else p.
func (s *husSolver[T]) seatLevels() int {
	return seatPassLevels(s.m, s.mu)
}

// seatPassLevels returns the pass streaks a state of singletons under a limited memory at three or
// more seats is solved at: 1 under pass rule never, else the number of seats.
func seatPassLevels(m Model, mu Lineup) int {
	if m.Pass == rules.PassNever {
		return 1
	}
	return mu.Players
}

// solveSeats computes the values at three or more seats, row by row: the optimum of every seat for
// itself where a seat plays it, then the lineup unless every seat plays that optimum.
func (s *husSolver[T]) solveSeats() error {
	p, levels := s.mu.Players, s.seatLevels()
	return solveSeatRows(s.ctx, s.m, s.mu, s.rows, func(i int) { s.cells[i].seats = newHUSSeatVals(s.f, p, levels) },
		s.seatsSelfRow, s.seatsLineupRow)
}

// solveSeatRows solves a model of singletons under a limited memory at three or more seats row by
// row (rows[n] the cells of n pairs): reset(i) gives each cell of the row its zero values, then
// self solves the row's optimum of every seat for itself where a seat of mu plays it, and lineup
// the row's values of mu unless every seat plays that optimum.
func solveSeatRows(ctx context.Context, m Model, mu Lineup, rows [][]int, reset func(i int), self, lineup func(n int, row []int) error) error {
	needSelf, needMulti := mu.playsOptimal(), !isSelfish(mu)
	for n, row := range rows {
		for _, i := range row {
			reset(i)
		}
		if n == 0 {
			continue
		}
		if needSelf {
			if err := self(n, row); err != nil {
				return fmt.Errorf("singletons with %s at %d seats, every seat for itself: %w", m.Memory, mu.Players, err)
			}
		}
		if needMulti {
			if err := lineup(n, row); err != nil {
				return fmt.Errorf("singletons with %s at %d seats: %w", m.Memory, mu.Players, err)
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// newHUSSeatVals returns a cell's values with every vector zero (a cell of no pairs).
func newHUSSeatVals[T any](f field.Field[T], p, levels int) *husSeatVals[T] {
	zeros := func() []T {
		v := make([]T, p)
		for i := range v {
			v[i] = f.FromInt(0)
		}
		return v
	}
	sv := &husSeatVals[T]{self: make([][]T, levels), selfCh: make([]rules.Choice, levels), selfGap: make([]T, levels),
		seats: make([][][]T, levels), seatCh: make([][]rules.Choice, levels)}
	for l := range levels {
		sv.self[l], sv.selfGap[l] = zeros(), f.FromInt(0)
		sv.seats[l], sv.seatCh[l] = make([][]T, p), make([]rules.Choice, p)
		for t := range p {
			sv.seats[l][t] = zeros()
		}
	}
	return sv
}

// seatsEq returns the equation of every seat's expected pairs (from the mover) in the row's cell i
// of n pairs making the legal choice ch: ref(to) is the row's state a hand-over to cell to of the
// row gives the next seat (the same cell after a pass), vec(to, keep) the solved vector of a cell
// of fewer pairs moved by the mover (keep) or by the next seat, from its mover.
func (s *husSolver[T]) seatsEq(i int, ch rules.Choice, n int, ref func(to int) int, vec func(to int, keep bool) []T) *selfEq[T] {
	f := s.f
	p := s.mu.Players
	c := s.cells[i]
	e := decayEq[T]{a: make([]T, p)}
	for t := range e.a {
		e.a[t] = s.zero
	}
	if ch == rules.Pass {
		e.to, e.coef = []int{ref(i)}, []T{s.one}
		return &selfEq[T]{a: e.a, to: e.to, coef: e.coef}
	}
	for k, o := range c.outs[ch] {
		pr := c.probs[ch][k]
		if !o.keep && s.cells[o.to].st.N == n {
			e.to = append(e.to, ref(o.to))
			e.coef = append(e.coef, pr)
			continue
		}
		v := vec(o.to, o.keep)
		for t := range p {
			var x T
			if o.keep {
				x = v[t]
				if t == 0 {
					x = f.Add(x, s.one)
				}
			} else {
				// Seat t from the mover is seat t-1 from the next seat, who first takes the
				// handed pairs.
				x = v[(t+p-1)%p]
				if t == 1 && o.handed > 0 {
					x = f.Add(x, f.FromInt(int64(o.handed)))
				}
			}
			e.a[t] = f.Add(e.a[t], f.Mul(pr, x))
		}
	}
	e.merge(f)
	return &selfEq[T]{a: e.a, to: e.to, coef: e.coef}
}

// seatsRow returns the row of the states' equations: under pass rule never the turns' equations
// (state q at position q), else at every streak (streakRow: state q at streak l at q·p + l).
func (s *husSolver[T]) seatsRow(states []streakEqs[T]) *selfRow[T] {
	p := s.mu.Players
	if s.m.Pass != rules.PassNever {
		return streakRow(s.f, p, states)
	}
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], len(states))}
	for q := range states {
		r.eqs[q] = states[q].turn
	}
	return r
}

// stalemateVec returns every seat's pairs after a stalemate with n pairs left: n/p each.
func (s *husSolver[T]) stalemateVec(n int) []T {
	p := s.mu.Players
	share := s.f.Div(s.f.FromInt(int64(n)), s.f.FromInt(int64(p)))
	v := make([]T, p)
	for t := range v {
		v[t] = share
	}
	return v
}

// rowStates returns the equations of the row's states, state q being cell row[q/per] with the seat
// (q mod per) to move: ref and vec as for seatsEq, given the state's seat.
func (s *husSolver[T]) rowStates(n int, row []int, per int, ref func(t, to int) int, vec func(t, to int, keep bool) []T) []streakEqs[T] {
	states := make([]streakEqs[T], len(row)*per)
	for k, i := range row {
		c := s.cells[i]
		for t := range per {
			st := &states[k*per+t]
			st.stalemate = s.stalemateVec(n)
			rf := func(to int) int { return ref(t, to) }
			vc := func(to int, keep bool) []T { return vec(t, to, keep) }
			for _, ch := range rules.Choices() {
				if !c.legal[ch] {
					continue
				}
				e := s.seatsEq(i, ch, n, rf, vc)
				if ch == rules.Pass {
					st.pass = e
				} else {
					st.turn[ch] = e
				}
			}
		}
	}
	return states
}

// eqVector returns every seat's expected pairs (from the mover) of the row's equation e read in
// the row's solution x (p unknowns per position).
func eqVector[T any](f field.Field[T], p int, e *selfEq[T], x [][]T) []T {
	out := make([]T, p)
	for t := range p {
		out[t] = e.a[t]
		for i, q := range e.to {
			out[t] = f.Add(out[t], f.Mul(e.coef[i], x[q*p+(t+p-1)%p][0]))
		}
	}
	return out
}

// seatsSelfRow solves the row of n pairs for the optimum of every seat for itself.
func (s *husSolver[T]) seatsSelfRow(n int, row []int) error {
	f, p, levels := s.f, s.mu.Players, s.seatLevels()
	pos := make(map[int]int, len(row))
	for k, i := range row {
		pos[i] = k
	}
	states := s.rowStates(n, row, 1, func(_, to int) int { return pos[to] },
		func(_, to int, _ bool) []T { return s.cells[to].seats.self[0] })
	r := s.seatsRow(states)
	sol, err := r.solve(f)
	if err != nil {
		return err
	}
	for k, i := range row {
		sv := s.cells[i].seats
		for l := range levels {
			q := k*levels + l
			sv.self[l] = vectorAt(sol.x, q, p)
			sv.selfCh[l], sv.selfGap[l] = sol.ch[q], sol.gain[q]
		}
		if isSelfish(s.mu) {
			for _, ch := range rules.Choices() {
				if e := r.eqs[k*levels][ch]; e != nil {
					sv.dev[ch] = eqVector(f, p, e, sol.x)
				}
			}
		}
	}
	return nil
}

// vectorAt returns the p unknowns of position q of a row's solution x.
func vectorAt[T any](x [][]T, q, p int) []T {
	v := make([]T, p)
	for t := range v {
		v[t] = x[q*p+t][0]
	}
	return v
}

// seatsLineupRow solves the row of n pairs for the lineup, each seat to move: seat t in the row's
// k-th cell is state k·p + t, its choices its policy's (the optimum's at the streak for an optimal
// seat), or every legal one for a seat that plays best-response, chosen by policy iteration.
func (s *husSolver[T]) seatsLineupRow(n int, row []int) error {
	f, p, levels := s.f, s.mu.Players, s.seatLevels()
	pol := s.mu.SeatPolicies()
	pos := make(map[int]int, len(row))
	for k, i := range row {
		pos[i] = k
	}
	states := s.rowStates(n, row, p, func(t, to int) int { return pos[to]*p + (t+1)%p },
		func(t, to int, keep bool) []T {
			if keep {
				return s.cells[to].seats.seats[0][t]
			}
			return s.cells[to].seats.seats[0][(t+1)%p]
		})
	full := s.seatsRow(states)
	r := &selfRow[T]{p: p, eqs: append([][rules.NumChoices]*selfEq[T](nil), full.eqs...)}
	for k, i := range row {
		c := s.cells[i]
		for t := range p {
			for l := range levels {
				q := (k*p+t)*levels + l
				var keep rules.Choice
				switch pl := pol[t]; {
				case pl == rules.PolicyBestResponse:
					continue
				case pl == rules.PolicyOptimal:
					keep = c.seats.selfCh[l]
				default:
					keep = pl.Decide(c.st)
				}
				for ch := range r.eqs[q] {
					if rules.Choice(ch) != keep {
						r.eqs[q][ch] = nil
					}
				}
				if r.eqs[q][keep] == nil {
					return fmt.Errorf("%v: seat %d's policy %s makes %s, not legal there", c.st, t, pol[t], keep)
				}
			}
		}
	}
	sol, err := r.solve(f)
	if err != nil {
		return err
	}
	for k, i := range row {
		sv := s.cells[i].seats
		for t := range p {
			for l := range levels {
				q := (k*p+t)*levels + l
				sv.seats[l][t] = vectorAt(sol.x, q, p)
				sv.seatCh[l][t] = sol.ch[q]
			}
		}
		for _, ch := range rules.Choices() {
			if e := full.eqs[k*p*levels][ch]; e != nil {
				sv.dev[ch] = eqVector(f, p, e, sol.x)
			}
		}
	}
	return nil
}

// seatsVector returns every seat's expected pairs (seat 0 first) in cell c, seat 0 to move.
func (s *husSolver[T]) seatsVector(c *husCell[T]) []T {
	if isSelfish(s.mu) {
		return c.seats.self[0]
	}
	return c.seats.seats[0][0]
}

// seatsResult is Evaluate's result at three or more seats.
func (s *husSolver[T]) seatsResult(c *husCell[T]) Result[T] {
	v := s.seatsVector(c)
	return Result[T]{State: c.st, Players: s.mu.Players, ExpectedPairs: v[0], PairsBySeat: append([]T(nil), v...)}
}

// seatsChoice returns seat 0's choice in c at pass streak l.
func (s *husSolver[T]) seatsChoice(c *husCell[T], l int) rules.Choice {
	if isSelfish(s.mu) {
		return c.seats.selfCh[l]
	}
	return c.seats.seatCh[l][0]
}

// seatsChoices is ChoiceValues at three or more seats: each legal choice of seat 0 made once at
// streak 0, the lineup played after.
func (s *husSolver[T]) seatsChoices(c *husCell[T]) Choices[T] {
	out := Choices[T]{State: c.st, Value: s.seatsResult(c), PolicyChoice: s.seatsChoice(c, 0)}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		v := c.seats.dev[ch]
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Pairs: v[0], PairsBySeat: append([]T(nil), v...)})
	}
	markBestUnlimited(s.f, &out, s.mu.Players)
	return out
}

// seatsTable returns seat 0's table at three or more seats: its choice in every state, under a
// pass rule at every pass streak.
func (s *husSolver[T]) seatsTable(maxPairs int) (*rules.ChoiceTable, error) {
	levels := s.seatLevels()
	var t *rules.ChoiceTable
	var err error
	if levels > 1 {
		t, err = rules.NewPassChoiceTable(maxPairs, s.m.Singletons, levels)
	} else {
		t, err = rules.NewChoiceTable(maxPairs, s.m.Singletons)
	}
	if err != nil {
		return nil, err
	}
	for _, c := range s.cells {
		if c.st.N == 0 {
			continue
		}
		if levels == 1 {
			ch := s.seatsChoice(c, 0)
			t.Set(c.st, false, ch)
			t.Set(c.st, true, ch)
			continue
		}
		for l := range levels {
			t.SetPasses(c.st, l, s.seatsChoice(c, l))
		}
	}
	return t, nil
}

// HUSinglesSeatsGaps lists, for the optimum of every seat for itself with singletons under a
// handover-uniform memory at three or more seats, the states and pass streaks of at most maxPairs
// pairs where no choice is an equilibrium in pure choices, with how much the best one-step
// deviation gains the mover there (§4.7); it is empty where the optimum is an equilibrium
// everywhere.
func HUSinglesSeatsGaps[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) ([]SeatsGap[T], error) {
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	if players < 3 {
		return nil, fmt.Errorf("players %d: every seat for itself is solved at 3 to %d seats", players, rules.MaxPlayers)
	}
	s, err := newHUSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	if err := s.solve(); err != nil {
		return nil, err
	}
	var out []SeatsGap[T]
	for _, c := range s.cells {
		if c.st.N == 0 {
			continue
		}
		for l, g := range c.seats.selfGap {
			if f.Cmp(g, s.zero) > 0 {
				out = append(out, SeatsGap[T]{State: c.st, Streak: l, Gain: g})
			}
		}
	}
	return out, nil
}

// SeatsGap is a state and pass streak where the optimum of every seat for itself has no
// equilibrium in pure choices, and how much the best one-step deviation gains the mover there.
type SeatsGap[T any] struct {
	State  rules.State
	Streak int
	Gain   T
}
