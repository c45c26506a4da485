package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Singletons under a shared handover-uniform memory whose capacity fluctuates at three to eight
// seats (docs/models.md §4.4, "A fluctuating capacity" and "Singletons under a handover-uniform
// memory", and §4.7). The states after the draw and their turns are those of two seats
// (fluctsingles.go, each outcome expanded over the next turn's draw); the values are every seat's
// expected pairs in order from the mover, solved row by row as at a fixed capacity
// (husingles_seats.go): a hand-over that takes no pair leads to a state of the same row, moved by
// the next seat after its draw, so the row's states after the draw are one system (selfRow), the
// optimum of every seat for itself by its policy iteration with the one-step test and tie rule of
// §4.7, a lineup of fixed policies per seat (optimal seats playing the optimum's choices) in one
// solve, and a seat that plays best-response by policy iteration over its own choices only. Under
// the pass rules two-known and always a state after the draw is solved at every pass streak
// 0 .. p-1 (streakRow): a pass hands over, the hand-over forgetting the memory's excess over the
// capacity drawn, so it hands the next seat, at the next streak and after its own draw, the states
// that forgetting leaves; a pass at streak p-1 ends the game in a stalemate, every seat taking n/p.

// fssSolver solves singletons under a fluctuating handover-uniform capacity at three or more
// seats: vals[i] holds cell i's values, dev[i][l] every legal choice's values at pass streak l.
type fssSolver[T any] struct {
	*fsSolver[T]
	vals []*husSeatVals[T]
	dev  [][][rules.NumChoices][]T
}

// checkFluctSinglesSeats is checkFluctSingles at three to eight seats: the lineups
// checkHUSinglesSeats accepts at a fixed capacity, without a turn limit.
func checkFluctSinglesSeats(m Model, mu Lineup) error {
	if t := m.Variant.TurnLimit; t > 0 && mu.Players <= rules.MaxPlayers {
		return fmt.Errorf("singletons %d with %s at %d seats, turn limit %d: a fluctuating capacity with singletons is solved under a turn limit at two seats only", m.Singletons, m.Memory, mu.Players, t)
	}
	return checkHUSinglesSeats(m, mu) // husingles_seats.go
}

// fssStart checks st, a state before the draw, and returns the solver of every state up to st's
// pairs at mu.Players seats, solved.
func fssStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*fssSolver[T], error) {
	if err := fsCheckState(m, st); err != nil {
		return nil, err
	}
	return newFSSSolver(ctx, f, m, mu, max(st.N, 1))
}

// newFSSSolver returns the solver of every state of at most maxPairs pairs, solved.
func newFSSSolver[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*fssSolver[T], error) {
	base, err := newFSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	s := &fssSolver[T]{fsSolver: base}
	if err := s.solveSeats(); err != nil {
		return nil, err
	}
	return s, nil
}

// levels returns the pass streaks a state is solved at: 1 under pass rule never, else p.
func (s *fssSolver[T]) levels() int {
	return seatPassLevels(s.m, s.mu)
}

// solveSeats computes the values row by row: the optimum of every seat for itself where a seat
// plays it, then the lineup unless every seat plays that optimum.
func (s *fssSolver[T]) solveSeats() error {
	p, levels := s.mu.Players, s.levels()
	s.vals = make([]*husSeatVals[T], len(s.cells))
	s.dev = make([][][rules.NumChoices][]T, len(s.cells))
	return solveSeatRows(s.ctx, s.m, s.mu, s.rows, func(i int) {
		s.vals[i] = newHUSSeatVals(s.f, p, levels)
		s.dev[i] = make([][rules.NumChoices][]T, levels)
	}, s.selfRow, s.lineupRow)
}

// eq returns the equation of every seat's expected pairs (from the mover) in the row's cell i of
// n pairs making the legal choice ch: ref(to) is the row's state a hand-over (or a pass) to cell
// to of the row gives the next seat, vec(to, keep) the solved vector of a cell of fewer pairs
// moved by the mover (keep) or by the next seat, from its mover.
func (s *fssSolver[T]) eq(i int, ch rules.Choice, n int, ref func(to int) int, vec func(to int, keep bool) []T) *selfEq[T] {
	f, p := s.f, s.mu.Players
	e := decayEq[T]{a: make([]T, p)}
	for t := range e.a {
		e.a[t] = s.zero
	}
	for _, a := range s.cells[i].arcs[ch] {
		if !a.keep && s.cells[a.to].key.st.N == n {
			e.to = append(e.to, ref(a.to))
			e.coef = append(e.coef, a.p)
			continue
		}
		v := vec(a.to, a.keep)
		for t := range p {
			var x T
			if a.keep {
				x = v[t]
				if t == 0 {
					x = f.Add(x, s.one)
				}
			} else {
				// Seat t from the mover is seat t-1 from the next seat, who first takes the
				// handed pairs.
				x = v[(t+p-1)%p]
				if t == 1 && a.handed > 0 {
					x = f.Add(x, f.FromInt(int64(a.handed)))
				}
			}
			e.a[t] = f.Add(e.a[t], f.Mul(a.p, x))
		}
	}
	e.merge(f)
	return &selfEq[T]{a: e.a, to: e.to, coef: e.coef}
}

// row returns the row's system: state q is cell row[q/per] with seat q mod per to move, under a
// pass rule at every streak (streakRow: state q at streak l at q·p + l).
func (s *fssSolver[T]) row(n int, row []int, per int, ref func(t, to int) int, vec func(t, to int, keep bool) []T) *selfRow[T] {
	f, p := s.f, s.mu.Players
	share := f.Div(f.FromInt(int64(n)), f.FromInt(int64(p)))
	states := make([]streakEqs[T], len(row)*per)
	for k, i := range row {
		c := s.cells[i]
		for t := range per {
			st := &states[k*per+t]
			st.stalemate = make([]T, p)
			for u := range p {
				st.stalemate[u] = share
			}
			rf := func(to int) int { return ref(t, to) }
			vc := func(to int, keep bool) []T { return vec(t, to, keep) }
			for _, ch := range rules.Choices() {
				if !c.legal[ch] {
					continue
				}
				e := s.eq(i, ch, n, rf, vc)
				if ch == rules.Pass {
					st.pass = e
				} else {
					st.turn[ch] = e
				}
			}
		}
	}
	if s.m.Pass != rules.PassNever {
		return streakRow(f, p, states)
	}
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], len(states))}
	for q := range states {
		r.eqs[q] = states[q].turn
	}
	return r
}

// keepDev keeps, for cell i, every legal choice's values at every streak: the equations of
// positions first·levels + l of r read in the row's solution x.
func (s *fssSolver[T]) keepDev(i int, r *selfRow[T], first int, x [][]T) {
	for l := range s.levels() {
		for _, ch := range rules.Choices() {
			if e := r.eqs[first*s.levels()+l][ch]; e != nil {
				s.dev[i][l][ch] = eqVector(s.f, s.mu.Players, e, x)
			}
		}
	}
}

// selfRow solves the row of n pairs for the optimum of every seat for itself.
func (s *fssSolver[T]) selfRow(n int, row []int) error {
	p, levels := s.mu.Players, s.levels()
	pos := make(map[int]int, len(row))
	for k, i := range row {
		pos[i] = k
	}
	r := s.row(n, row, 1, func(_, to int) int { return pos[to] },
		func(_, to int, _ bool) []T { return s.vals[to].self[0] })
	sol, err := r.solve(s.f)
	if err != nil {
		return err
	}
	for k, i := range row {
		sv := s.vals[i]
		for l := range levels {
			q := k*levels + l
			sv.self[l] = vectorAt(sol.x, q, p)
			sv.selfCh[l], sv.selfGap[l] = sol.ch[q], sol.gain[q]
		}
		if isSelfish(s.mu) {
			s.keepDev(i, r, k, sol.x)
		}
	}
	return nil
}

// lineupRow solves the row of n pairs for the lineup, each seat to move: seat t in the row's k-th
// cell is state k·p + t, its choices its policy's (by its rule in the state after the draw; the
// optimum's at the streak for an optimal seat), or every legal one for a seat that plays
// best-response, chosen by policy iteration.
func (s *fssSolver[T]) lineupRow(n int, row []int) error {
	p, levels := s.mu.Players, s.levels()
	pol := s.mu.SeatPolicies()
	pos := make(map[int]int, len(row))
	for k, i := range row {
		pos[i] = k
	}
	full := s.row(n, row, p, func(t, to int) int { return pos[to]*p + (t+1)%p },
		func(t, to int, keep bool) []T {
			if keep {
				return s.vals[to].seats[0][t]
			}
			return s.vals[to].seats[0][(t+1)%p]
		})
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
					keep = s.vals[i].selfCh[l]
				default:
					keep = pl.Decide(c.key.st)
				}
				for ch := range r.eqs[q] {
					if rules.Choice(ch) != keep {
						r.eqs[q][ch] = nil
					}
				}
				if r.eqs[q][keep] == nil {
					return fmt.Errorf("%v with capacity %d: seat %d's policy %s makes %s, not legal there", c.key.st, c.key.c, t, pol[t], keep)
				}
			}
		}
	}
	sol, err := r.solve(s.f)
	if err != nil {
		return err
	}
	for k, i := range row {
		sv := s.vals[i]
		for t := range p {
			for l := range levels {
				q := (k*p+t)*levels + l
				sv.seats[l][t] = vectorAt(sol.x, q, p)
				sv.seatCh[l][t] = sol.ch[q]
			}
		}
		s.keepDev(i, full, k*p, sol.x)
	}
	return nil
}

// vector returns every seat's expected pairs (seat 0 first) in cell i at streak l, seat 0 to move.
func (s *fssSolver[T]) vector(i, l int) []T {
	if isSelfish(s.mu) {
		return s.vals[i].self[l]
	}
	return s.vals[i].seats[l][0]
}

// choice returns seat 0's choice in cell i at streak l.
func (s *fssSolver[T]) choice(i, l int) rules.Choice {
	if isSelfish(s.mu) {
		return s.vals[i].selfCh[l]
	}
	return s.vals[i].seatCh[l][0]
}

// evaluateFluctSinglesSeats is Evaluate at three or more seats: every seat's expected pairs in st
// before the draw, seat 0 to move.
func evaluateFluctSinglesSeats[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	s, err := fssStart(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	v := make([]T, mu.Players)
	for t := range v {
		v[t] = s.zero
	}
	for _, d := range s.draws[st] {
		for t, x := range s.vector(d.to, 0) {
			v[t] = f.Add(v[t], f.Mul(d.p, x))
		}
	}
	return Result[T]{State: st, Players: mu.Players, ExpectedPairs: v[0], PairsBySeat: v}, nil
}

// fluctSinglesSeatsChoiceValues is FluctSeatsChoiceValues for singletons under a fluctuating
// handover-uniform capacity: each legal choice of seat 0 in st with capacity c drawn, at pass
// streak passes, made once, the lineup played after.
func fluctSinglesSeatsChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c, passes int) (Choices[T], error) {
	p := mu.Players
	switch {
	case st.N < 1:
		return Choices[T]{}, fmt.Errorf("%v: no pair left, no choice to make", st)
	case passes < 0 || passes >= p:
		return Choices[T]{}, fmt.Errorf("pass streak %d: must be 0 to %d (the seats that passed in a row before the turn)", passes, p-1)
	case passes > 0 && m.Pass == rules.PassNever:
		return Choices[T]{}, fmt.Errorf("pass streak %d under pass rule never: no pass is ever made", passes)
	}
	if lo, hi := max(2, m.Memory.Capacity-m.Memory.Fluctuation), fluctMaxKnown(m.Memory); c < lo || c > hi {
		return Choices[T]{}, fmt.Errorf("capacity %d: %s draws %d to %d", c, m.Memory, lo, hi)
	}
	s, err := fssStart(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	i := s.at[fsKey{st: st, c: min(c, fsTop(m, st.N))}]
	v := s.vector(i, passes)
	out := Choices[T]{State: st, Value: Result[T]{State: st, Players: p, ExpectedPairs: v[0], PairsBySeat: append([]T(nil), v...)},
		PolicyChoice: s.choice(i, passes)}
	for _, ch := range rules.Choices() {
		if !s.cells[i].legal[ch] {
			continue
		}
		d := s.dev[i][passes][ch]
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Pairs: d[0], PairsBySeat: append([]T(nil), d...)})
	}
	markBestUnlimited(f, &out, p)
	return out, nil
}

// fluctSinglesSeatsTable is FluctSelfishTable (mu every seat for itself) and FluctSeatsReplyTable
// (best-response at seat 0) for singletons under a fluctuating handover-uniform capacity: a layer
// per capacity drawn, as fluctSinglesTable's, each holding seat 0's choice in every state of at
// most maxPairs pairs, under a pass rule at every pass streak (read by LookupCapacityPasses).
func fluctSinglesSeatsTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	s, err := newFSSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	levels := s.levels()
	lo := max(2, m.Memory.Capacity-m.Memory.Fluctuation)
	hi := max(lo, min(s.maxK, fsTop(m, maxPairs)))
	layers := make([]*rules.ChoiceTable, hi-lo+1)
	for li := range layers {
		c := lo + li
		var t *rules.ChoiceTable
		if levels > 1 {
			t, err = rules.NewPassChoiceTable(maxPairs, m.Singletons, levels)
		} else {
			t, err = rules.NewChoiceTable(maxPairs, m.Singletons)
		}
		if err != nil {
			return nil, err
		}
		for n := 1; n <= maxPairs; n++ {
			for _, i := range s.rows[n] {
				cell := s.cells[i]
				if cell.key.c != min(c, fsTop(m, n)) {
					continue
				}
				if levels == 1 {
					t.Set(cell.key.st, false, s.choice(i, 0))
					t.Set(cell.key.st, true, s.choice(i, 0))
					continue
				}
				for l := range levels {
					t.SetPasses(cell.key.st, l, s.choice(i, l))
				}
			}
		}
		layers[li] = t
	}
	return rules.NewCapacityChoiceTable(lo, layers)
}

// fluctSinglesSeatsDistErr is the refusal of a score distribution at three or more seats.
func fluctSinglesSeatsDistErr(m Model, players int) error {
	return fmt.Errorf("singletons %d with %s at %d seats: the solver gives the values, each choice's values after the draw and the tables, not the score distribution (two seats only)", m.Singletons, m.Memory, players)
}
