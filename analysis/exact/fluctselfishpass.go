package exact

import (
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A fluctuating capacity at three to eight seats under the pass rules two-known and always
// (docs/models.md §4.4, §4.7). The state after the draw, (n, k, c), also holds the pass streak
// l = 0 .. p-1, the number of seats that passed in a row just before this turn; the draw keeps it.
// A pass draws a capacity too (under lru the draw forgets down to c before the mover passes) and
// shows no card, so the hand-over after it keeps min(k, c) known cards (handover-uniform forgets
// down to c there): a pass at streak l < p-1 hands the next seat (n, min(k, c)) before its draw
// at streak l+1, and a pass at l = p-1 ends the game in a stalemate, every seat adding n/p pairs.
// Every other turn hands the next seat (or the mover, after a pair) a state at streak 0. Each
// (state after the draw, streak) is a position of the row's system (streakRow, position i*p + l
// for the row's state i), solved by the same policy iteration, tie rule and preferBetter step as
// under pass rule never (fluctselfish.go). Outcomes that leave the row take a pair, so they are
// read at streak 0 in the previous row, as under pass rule never.

// FluctStreakRationalLimit is FluctSelfishRationalLimit under a pass rule other than never, whose
// rows have p positions (streaks) per state after the draw: tables and tournaments' exact values are
// exact rationals up to it, float64 beyond (lru(5) with σ = 2, pass rule always, every seat for
// itself: 7 s for 12 pairs at 3 seats in exact rationals, 83 s at 4 seats, against 0.7 s and 7 s
// under pass rule never; see fluctStreakCost).
const FluctStreakRationalLimit = 6

// passes reports whether the sweep solves a pass rule other than never.
func (s *fluctSeats[T]) passes() bool { return s.m.Pass != rules.PassNever }

// stalemate returns the vector of a game of n pairs left ended by a stalemate: n/p to every seat.
func (s *fluctSeats[T]) stalemate(n int) []T {
	f := s.f
	share := f.Div(f.FromInt(int64(n)), f.FromInt(int64(s.p)))
	v := make([]T, s.p)
	for i := range v {
		v[i] = share
	}
	return v
}

// passRefs returns the references of a pass made in (n, k) with capacity c drawn: the next seat's
// states after its draw from (n, min(k, c)), with their probabilities.
func passRefs[T any](k, c int, before [][]fluctRef[T]) ([]int, []T) {
	var to []int
	var coef []T
	for _, r := range before[min(k, c)] {
		to, coef = append(to, r.at), append(coef, r.p)
	}
	return to, coef
}

// selfPassRow solves the row of n pairs for every seat for itself under a pass rule, at every
// pass streak.
func (s *fluctSeats[T]) selfPassRow(n int) error {
	f, p := s.f, s.p
	nodes, caps, before := s.rowLayout(n)
	states := make([]streakEqs[T], len(nodes))
	for i, nd := range nodes {
		st := rules.State{N: n, J: n - nd.k}
		states[i].stalemate = s.stalemate(n)
		for _, ch := range rules.Choices() {
			switch {
			case !s.m.Legal(st, ch):
			case ch == rules.Pass:
				to, coef := passRefs(nd.k, nd.c, before)
				states[i].pass = &selfEq[T]{to: to, coef: coef}
			default:
				states[i].turn[ch] = s.selfEquation(n, nd.k, nd.c, ch, before)
			}
		}
	}
	r := streakRow(f, p, states)
	sol, err := r.solve(f)
	if err != nil {
		return fmt.Errorf("%d pairs, every seat for itself under pass rule %s: %w", n, s.m.Pass, err)
	}
	byStreak := make([][][]rules.Choice, p)
	for l := range p {
		byStreak[l] = make([][]rules.Choice, caps[len(caps)-1].c+1)
	}
	for i, nd := range nodes {
		for l := range p {
			pos := i*p + l
			if byStreak[l][nd.c] == nil {
				byStreak[l][nd.c] = make([]rules.Choice, len(before))
			}
			byStreak[l][nd.c][nd.k] = sol.ch[pos]
			if s.gaps != nil && f.Cmp(sol.gain[pos], s.zero) > 0 {
				*s.gaps = append(*s.gaps, FluctSelfishGap[T]{State: rules.State{N: n, J: n - nd.k}, Capacity: nd.c, Passes: l, Choice: sol.ch[pos], Gain: sol.gain[pos]})
			}
		}
	}
	s.lastNodes, s.lastSol = nodes, sol
	if s.keepLast {
		s.lastRow = r
	}
	s.choice = append(s.choice, byStreak[0])
	s.streakChoice = append(s.streakChoice, byStreak)
	s.streakSelf = make([][][]T, p)
	for l := range p {
		s.streakSelf[l] = make([][]T, len(before))
		for k, refs := range before {
			vec := s.zeroVec()
			for t := range vec {
				for _, rf := range refs {
					vec[t] = f.Add(vec[t], f.Mul(rf.p, sol.x[(rf.at*p+l)*p+t][0]))
				}
			}
			s.streakSelf[l][k] = vec
		}
	}
	s.self = s.streakSelf[0]
	return nil
}

// seatChoiceAt returns seat t's choice in (n, k) with capacity c drawn at pass streak l: an
// optimal seat reads the optimum's choice at the streak, a fixed policy never passes.
func (s *fluctSeats[T]) seatChoiceAt(t, n, k, c, l int) (rules.Choice, error) {
	if l == 0 || fluctSeatPolicy(s.mu, t) != rules.PolicyOptimal {
		return s.seatChoice(t, n, k, c)
	}
	st := rules.State{N: n, J: n - k}
	var ch rules.Choice
	if s.two != nil {
		ch = s.two.choice(n, k, c, l)
	} else {
		ch = s.streakChoice[n][l][c][k]
	}
	if !s.m.Legal(st, ch) {
		return 0, fmt.Errorf("seat %d: policy optimal chooses %s in %v at pass streak %d, which the model does not allow", t, ch, st, l)
	}
	return ch, nil
}

// multiPassRow solves the row of n pairs for a policy per seat under a pass rule: unknown
// (i*p + l)*p + t holds every seat's expected pairs (by seat) in state i after the draw at pass
// streak l with seat t to move.
func (s *fluctSeats[T]) multiPassRow(n int) error {
	f, p := s.f, s.p
	nodes, _, before := s.rowLayout(n)
	index := func(i, l, t int) int { return (i*p+l)*p + t }
	eqs := make([]decayEq[T], p*p*len(nodes))
	for i, nd := range nodes {
		for l := range p {
			for t := range p {
				ch, err := s.seatChoiceAt(t, n, nd.k, nd.c, l)
				if err != nil {
					return err
				}
				next := (t + 1) % p
				e := s.seatChoiceEq(n, nd, t, l, ch, before, func(at, l2 int) int { return index(at, l2, next) })
				e.merge(f)
				eqs[index(i, l, t)] = e
			}
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("%d pairs under pass rule %s: %w", n, s.m.Pass, err)
	}
	if s.keepLast {
		s.lastMulti = x
	}
	s.streakSeats = make([][][][]T, p)
	for l := range p {
		s.streakSeats[l] = make([][][]T, len(before))
		for k, refs := range before {
			s.streakSeats[l][k] = make([][]T, p)
			for t := range p {
				vec := s.zeroVec()
				for i := range vec {
					for _, rf := range refs {
						vec[i] = f.Add(vec[i], f.Mul(rf.p, x[index(rf.at, l, t)][i]))
					}
				}
				s.streakSeats[l][k][t] = vec
			}
		}
	}
	s.seats = s.streakSeats[0]
	return nil
}

// zeroVec returns a vector of p zeros.
func (s *fluctSeats[T]) zeroVec() []T {
	v := make([]T, s.p)
	for i := range v {
		v[i] = s.zero
	}
	return v
}

// streakLayers returns the optimum's table under a pass rule: a layer per capacity, as
// capacityLayers lays them out, each holding the choices at every pass streak.
func (s *fluctSeats[T]) streakLayers(maxPairs int) (*rules.ChoiceTable, error) {
	return s.streakLayersOf(maxPairs, s.streakChoice)
}

// streakLayersOf returns the table of the choices choice[n][l][c][k] at every pass streak l, laid
// out as streakLayers lays out the optimum's.
func (s *fluctSeats[T]) streakLayersOf(maxPairs int, choice [][][][]rules.Choice) (*rules.ChoiceTable, error) {
	lo := fluctCaps(s.m.Memory, max(maxPairs, 1))[0].c
	hi := max(lo, min(s.maxK, fluctTop(s.m, maxPairs)))
	layers := make([]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		t, err := rules.NewPassChoiceTable(maxPairs, 0, s.p)
		if err != nil {
			return nil, err
		}
		for n := 1; n <= maxPairs; n++ {
			cn := min(c, fluctTop(s.m, n)) // the capacities of a row are merged from the top up
			for l, byCap := range choice[n] {
				if cn >= len(byCap) || byCap[cn] == nil {
					continue
				}
				for k, ch := range byCap[cn] {
					if !s.lru() || k <= cn {
						t.SetPasses(rules.State{N: n, J: n - k}, l, ch)
					}
				}
			}
		}
		layers[i] = t
	}
	return rules.NewCapacityChoiceTable(lo, layers)
}

// fluctStreakCost scales the seconds and bytes of a solve of p seats under pass rule never to a
// pass rule: every state after the draw has p positions, so the system has p times the unknowns
// and the policy iteration more positions to settle (memsim solve --memory 5 --forget lru
// --fluctuation 2 --pass always --players P, a loaded machine: exact rationals at 12 pairs 7 s at
// 3 seats and 83 s at 4, against 0.7 s and 7 s under pass rule never, and 8 seats at 8 pairs more
// than 15 minutes; float64 2.4 s for 100 pairs at 3 seats against 0.1 s, 161 s for 30 pairs at 8
// seats against 0.17 s).
func fluctStreakCost[T any](f field.Field[T], p int, seconds, bytes float64) (float64, float64) {
	q := float64(p)
	if _, isFloat := any(f).(field.Float); isFloat {
		return seconds * math.Pow(q, 4) / 4, bytes * q * q
	}
	return seconds * math.Pow(q, 4) / 8, bytes * q * q
}
