package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// seatsPassSearch is a card-level search of a game of p >= 3 seats under a pass rule with k copies
// of a face and perfect shared memory, independent of the state of faces: positions are those of
// passSearch (every card unseen, seen with its face, or taken), with the seat to move and the pass
// streak, the number of seats that passed in a row just before. The mover first takes every pair
// it has seen both cards of, then makes a choice card by card; a pass flips nothing and hands the
// same position to the next seat at the next streak, the p-th pass in a row ends the game with the
// pairs left shared equally, and every other turn resets the streak. Values are every seat's
// expected pairs, seat 0 first. Seats of optimal make the choice of the game in which every seat
// plays its own optimum (self), best-response maximises its own pairs against the others'
// policies, safe and daring make their fixed choices.
type seatsPassSearch struct {
	copies, faces, p int
	pass             rules.PassRule
	choices          rules.ChoiceSet
	pol              []rules.Policy
	self             *seatsPassSearch // every seat optimal; nil when this search is that one
	memo             map[string]seatsPassNode
}

// seatsPassNode is the value of a position: every seat's expected pairs, the mover's choice, each
// legal choice's vector (nil where illegal), and the position itself.
type seatsPassNode struct {
	vals         []*big.Rat
	choice       rules.Choice
	choiceVals   [rules.NumChoices][]*big.Rat
	at           pos
	mover, k     int
	madeAChoice  bool
	pairsOnTable int
}

func newSeatsPassSearch(copies, faces int, pass rules.PassRule, choices rules.ChoiceSet, pol []rules.Policy) *seatsPassSearch {
	s := &seatsPassSearch{copies: copies, faces: faces, p: len(pol), pass: pass, choices: choices, pol: pol, memo: map[string]seatsPassNode{}}
	all := true
	for _, x := range pol {
		all = all && x == rules.PolicyOptimal
	}
	if !all {
		opt := make([]rules.Policy, len(pol))
		for i := range opt {
			opt[i] = rules.PolicyOptimal
		}
		s.self = newSeatsPassSearch(copies, faces, pass, choices, opt)
	}
	return s
}

func (s *seatsPassSearch) zeros() []*big.Rat {
	v := make([]*big.Rat, s.p)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

// unseen returns the unseen copies of every face and their total.
func (s *seatsPassSearch) unseen(q pos) ([]int, int) {
	left := make([]int, s.faces)
	for i := range left {
		left[i] = s.copies
	}
	u := 0
	for _, x := range q {
		switch {
		case x >= cardTaken:
			left[x-cardTaken]--
		case x >= 0:
			left[x]--
		}
	}
	for _, a := range left {
		u += a
	}
	return left, u
}

// value returns the position's node with seat t to move at streak k.
func (s *seatsPassSearch) value(q pos, t, k int) seatsPassNode {
	key := fmt.Sprintf("%s|%d|%d", q.key(), t, k)
	if v, ok := s.memo[key]; ok {
		return v
	}
	n := seatsPassNode{at: q.clone(), mover: t, k: k}
	onTable := 0
	for _, x := range q {
		if x < cardTaken {
			onTable++
		}
	}
	n.pairsOnTable = onTable / 2
	switch a, b := q.seenPair(); {
	case onTable == 0:
		n.vals = s.zeros()
	case a >= 0: // a pair seen whole is taken first
		r := q.clone()
		r[a], r[b] = cardTaken+q[a], cardTaken+q[b]
		n.vals = s.plus(s.value(r, t, 0).vals, t, 1)
	default:
		s.choose(&n, q, t, k)
	}
	s.memo[key] = n
	return n
}

// plus returns v with x pairs added to seat t.
func (s *seatsPassSearch) plus(v []*big.Rat, t int, x int64) []*big.Rat {
	out := make([]*big.Rat, len(v))
	for i := range v {
		out[i] = new(big.Rat).Set(v[i])
	}
	out[t].Add(out[t], big.NewRat(x, 1))
	return out
}

// choose values every legal choice of seat t at streak k in q and makes its policy's choice.
func (s *seatsPassSearch) choose(n *seatsPassNode, q pos, t, k int) {
	n.madeAChoice = true
	seen := q.seen()
	for _, c := range rules.Choices() {
		legal := s.choices.Has(c)
		switch c {
		case rules.Safe, rules.KnownFirst:
			legal = legal && seen >= 1
		case rules.Pass:
			legal = legal && (s.pass == rules.PassAlways || (s.pass == rules.PassTwoKnown && seen >= 2))
		}
		if legal {
			n.choiceVals[c] = s.choiceVec(q, t, k, c, n.pairsOnTable)
		}
	}
	switch pol := s.pol[t]; {
	case pol == rules.PolicySafe && n.choiceVals[rules.Safe] != nil:
		n.choice = rules.Safe
	case pol == rules.PolicySafe || pol == rules.PolicyDaring:
		n.choice = rules.Daring
	case pol == rules.PolicyOptimal && s.self != nil:
		n.choice = s.self.value(q, t, k).choice
	default: // every seat's own optimum, or best-response: the first choice best for the mover
		for _, c := range rules.Choices() {
			if n.choiceVals[c] != nil && n.choiceVals[c][t].Cmp(n.choiceVals[n.choice][t]) > 0 {
				n.choice = c
			}
		}
	}
	n.vals = n.choiceVals[n.choice]
}

// choiceVec returns every seat's expected pairs after seat t's legal choice c in q at streak k,
// card by card.
func (s *seatsPassSearch) choiceVec(q pos, t, k int, c rules.Choice, pairs int) []*big.Rat {
	next := (t + 1) % s.p
	if c == rules.Pass {
		if k == s.p-1 { // the stalemate: the pairs left shared equally
			v := s.zeros()
			for i := range v {
				v[i].SetFrac64(int64(pairs), int64(s.p))
			}
			return v
		}
		return s.value(q, next, k+1).vals
	}
	sum := s.zeros()
	add := func(w *big.Rat, v []*big.Rat) {
		for i := range sum {
			sum[i].Add(sum[i], new(big.Rat).Mul(w, v[i]))
		}
	}
	flipUnseen := func(q pos, w *big.Rat, then func(q pos, i int, w *big.Rat)) {
		left, u := s.unseen(q)
		i := q.first(func(x int) bool { return x == cardUnseen })
		for f, a := range left {
			if a == 0 {
				continue
			}
			r := q.clone()
			r[i] = f
			then(r, i, new(big.Rat).Mul(w, big.NewRat(int64(a), int64(u))))
		}
	}
	take := func(q pos, a, b int, w *big.Rat) {
		q[a], q[b] = cardTaken+q[a], cardTaken+q[b]
		add(w, s.plus(s.value(q, t, 0).vals, t, 1))
	}
	miss := func(q pos, w *big.Rat) { add(w, s.value(q, next, 0).vals) }
	partner := func(q pos, i int) int {
		for j, x := range q {
			if j != i && x == q[i] {
				return j
			}
		}
		return i
	}
	second := func(q pos, i int, w *big.Rat) {
		flipUnseen(q, w, func(r pos, j int, w *big.Rat) {
			if r[j] == r[i] {
				take(r, i, j, w)
				return
			}
			miss(r, w)
		})
	}
	if c == rules.KnownFirst {
		best, most := -1, 0
		left, _ := s.unseen(q)
		for i, x := range q {
			if x >= 0 && x < cardTaken && left[x]+1 > most {
				best, most = i, left[x]+1
			}
		}
		second(q.clone(), best, big.NewRat(1, 1))
		return sum
	}
	flipUnseen(q, big.NewRat(1, 1), func(r pos, i int, w *big.Rat) {
		if j := partner(r, i); j != i {
			take(r, i, j, w)
			return
		}
		if c == rules.Safe {
			miss(r, w)
			return
		}
		second(r, i, w)
	})
	return sum
}

// vecOf returns the solver's state of faces of a position in which no face has two seen cards.
func (s *seatsPassSearch) vecOf(q pos) copiesVec {
	left, _ := s.unseen(q)
	onTable := make([]int, s.faces)
	seen := make([]bool, s.faces)
	for f := range onTable {
		onTable[f] = left[f]
	}
	for _, x := range q {
		if x >= 0 && x < cardTaken {
			onTable[x]++
			seen[x] = true
		}
	}
	return copiesVecOf(s.copies, onTable, seen)
}

// TestCopiesPassSeatsMatchesCardSearch compares the copies model at three seats (four without
// -short) under pass rules two-known and always with the card-level search, in every position the
// search reaches with a choice to make, at every pass streak and with every seat to move: every
// seat's expected pairs and the mover's choice, for every seat's own optimum and lineups of a
// policy per seat (optimal, best-response, safe, daring), from the start of two faces of four
// cards and three of two, and from states with seen cards of faces of two sizes. It also checks
// that the seats' values add up to the pairs on the table, that every legal choice's value from
// the start (CopiesChoiceValues) is the search's, and that some compared choice is a pass.
func TestCopiesPassSeatsMatchesCardSearch(t *testing.T) {
	type start struct {
		copies  int
		onTable []int
		seen    []bool
	}
	starts := []start{
		{4, []int{4, 4}, []bool{false, false}},
		{2, []int{2, 2, 2}, []bool{false, false, false}},
		{4, []int{4, 2}, []bool{true, true}},
		{4, []int{2, 4, 2}, []bool{true, true, false}},
	}
	seatCounts := []int{3}
	if !testing.Short() {
		starts = append(starts, start{6, []int{6, 4}, []bool{true, false}})
		seatCounts = append(seatCounts, 4)
	}
	lineups := func(p int) [][]rules.Policy {
		all := func(x rules.Policy) []rules.Policy {
			v := make([]rules.Policy, p)
			for i := range v {
				v[i] = x
			}
			return v
		}
		out := [][]rules.Policy{all(rules.PolicyOptimal)}
		mixed := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal}
		reply := append([]rules.Policy{rules.PolicySafe, rules.PolicyBestResponse}, all(rules.PolicyOptimal)[2:]...)
		reply2 := append([]rules.Policy{rules.PolicyBestResponse}, all(rules.PolicyDaring)[1:]...)
		reply3 := all(rules.PolicyOptimal) // every seat able to pass: the stalemate is reached
		reply3[1] = rules.PolicyBestResponse
		return append(out, mixed[:p], reply, reply2, reply3)
	}
	ctx := context.Background()
	passes, compared := 0, 0
	for _, p := range seatCounts {
		for pi, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for si, st := range starts {
				for li, pols := range lineups(p) {
					// Under -short each start and pass rule plays every other lineup, in turn.
					if testing.Short() && (pi+si+li)%2 != 0 {
						continue
					}
					m := Model{Variant: rules.Variant{Copies: st.copies}, Pass: pass}
					mu := SeatLineup(pols...)
					search := newSeatsPassSearch(st.copies, len(st.onTable), pass, m.Choices, pols)
					q := passStart(st.copies, st.onTable, st.seen)
					v := copiesVecOf(st.copies, st.onTable, st.seen)
					name := fmt.Sprintf("%d seats, pass %s, %s, %v", p, pass, v.state(), pols)
					want := search.value(q, 0, 0)
					solver, err := newCopiesSolver(ctx, field.Rat{}, m, mu)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if _, err := solver.get(v.key(), 0); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, n := range search.memo {
						if !n.madeAChoice {
							continue
						}
						c := solver.memo[copiesAt{search.vecOf(n.at).key(), 0}]
						where := fmt.Sprintf("%s: %v, seat %d to move at streak %d", name, search.vecOf(n.at).state(), n.mover, n.k)
						if c == nil || c.streak == nil {
							t.Fatalf("%s: not solved", where)
						}
						total := new(big.Rat)
						for i := range p {
							total.Add(total, n.vals[i])
							var got *big.Rat
							var what string
							if solver.needSeats {
								got, what = c.streak.seats[n.k][n.mover][i], fmt.Sprintf("seat %d", i)
							} else { // in order from the mover
								got, what = c.streak.self[n.k][(i-n.mover+p)%p], fmt.Sprintf("seat %d", i)
							}
							if got.Cmp(n.vals[i]) != 0 {
								t.Errorf("%s: %s expects %v, cards %v", where, what, got, n.vals[i])
							}
						}
						if total.Cmp(big.NewRat(int64(n.pairsOnTable), 1)) != 0 {
							t.Errorf("%s: the seats expect %v pairs in all, %d on the table", where, total, n.pairsOnTable)
						}
						got := c.streak.choice[n.k]
						if solver.needSeats {
							got = solver.seatChoiceAt(c, n.mover, n.k)
						}
						if got != n.choice {
							t.Errorf("%s: the mover chooses %s, cards %s", where, got, n.choice)
						}
						if n.choice == rules.Pass {
							passes++
						}
						compared++
					}
					cs, err := CopiesChoiceValues(ctx, field.Rat{}, m, mu, v.state())
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range p {
						if cs.Value.PairsBySeat[i].Cmp(want.vals[i]) != 0 {
							t.Errorf("%s: seat %d expects %v, cards %v", name, i, cs.Value.PairsBySeat[i], want.vals[i])
						}
					}
					for _, ch := range rules.Choices() {
						got, ok := cs.Of(ch)
						switch {
						case ok != (want.choiceVals[ch] != nil):
							t.Errorf("%s: %s legal %v, cards %v", name, ch, ok, want.choiceVals[ch] != nil)
						case ok:
							for i := range p {
								if got.PairsBySeat[i].Cmp(want.choiceVals[ch][i]) != 0 {
									t.Errorf("%s: after %s seat %d expects %v, cards %v", name, ch, i, got.PairsBySeat[i], want.choiceVals[ch][i])
								}
							}
						}
					}
					if cs.PolicyChoice != want.choice && pols[0] != rules.PolicySafe {
						t.Errorf("%s: seat 0 chooses %s, cards %s", name, cs.PolicyChoice, want.choice)
					}
				}
			}
		}
	}
	if passes == 0 || compared == 0 {
		t.Errorf("%d positions compared, %d of them with a pass chosen: want some of each", compared, passes)
	}
}
