package exact_test

// A card-level check of the win objective at three or more seats under limited shared memory
// (docs/models.md §4.7, "Win objective"). A position is a table at card level (cardWorld: the
// cards still on it and the shared memory's cards in their recency order, cardlevel_test.go),
// every seat's pairs so far and the seat to move; a turn is played card by card (cardTurn, which
// forgets card by card). The seats' choices are read from the solver's tables at the position's
// count state and standings, the values of that play are found by value iteration over the
// card-level positions, and no count formula is used: the count state is only read off the table
// to look a choice up and to name the solver's value to compare.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// winPos is a card-level position of the win objective: the table, every seat's pairs so far (by
// seat of the lineup) and the seat to move.
type winPos struct {
	w     *cardWorld
	pairs []int
	mover int
}

func (p winPos) key() string {
	var b strings.Builder
	for _, on := range p.w.present {
		b.WriteByte('0' + byte(btoi(on)))
	}
	fmt.Fprint(&b, p.w.mem, p.pairs, p.mover)
	return b.String()
}

// winStep is one end of a turn from a position: its probability and the position it leads to.
type winStep struct {
	p  float64
	to int
}

// winGraph holds the card-level positions reachable from a start, each with the steps of every
// legal choice.
type winGraph struct {
	players int
	pos     []winPos
	st      []rules.State
	steps   []map[rules.Choice][]winStep
	index   map[string]int
}

// buildWinGraph enumerates the positions reachable from start under any choices, each turn
// played card by card as model's flips say (cardTurn, or blindCardTurn under blind flips).
func buildWinGraph(m cardMemory, model exact.Model, start winPos) (*winGraph, error) {
	g := &winGraph{players: len(start.pairs), index: map[string]int{}}
	turn := cardTurn
	if model.Variant.Flips == rules.FlipsBlind {
		turn = blindCardTurn
	}
	add := func(p winPos) (int, error) {
		k := p.key()
		if i, ok := g.index[k]; ok {
			return i, nil
		}
		st, err := p.w.countState()
		if err != nil {
			return 0, err
		}
		g.index[k] = len(g.pos)
		g.pos, g.st = append(g.pos, p), append(g.st, st)
		g.steps = append(g.steps, nil)
		return len(g.pos) - 1, nil
	}
	if _, err := add(start); err != nil {
		return nil, err
	}
	for i := 0; i < len(g.pos); i++ {
		p, st := g.pos[i], g.st[i]
		steps := map[rules.Choice][]winStep{}
		if st.N > 0 {
			for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
				if !model.Legal(st, c) {
					continue
				}
				var err error
				turn(p.w, m, c, pickOldest, func(pr *big.Rat, w *cardWorld, cont bool, moverGain, nextGain int) {
					if err != nil {
						return
					}
					q := winPos{w: w, pairs: append([]int(nil), p.pairs...), mover: p.mover}
					q.pairs[p.mover] += moverGain
					if !cont {
						q.mover = (p.mover + 1) % g.players
						q.pairs[q.mover] += nextGain
					}
					var to int
					to, err = add(q)
					f, _ := pr.Float64()
					steps[c] = append(steps[c], winStep{p: f, to: to})
				})
				if err != nil {
					return nil, err
				}
			}
		}
		g.steps[i] = steps
	}
	return g, nil
}

// relative returns the pairs so far of position p in order from its mover.
func (g *winGraph) relative(i int) []int {
	p := g.pos[i]
	out := make([]int, g.players)
	for s := range out {
		out[s] = p.pairs[(p.mover+s)%g.players]
	}
	return out
}

// winVals are a position's values by seat of the lineup: P(most pairs) with ties shared, P(alone
// with the most), P(tied for the most) and the pairs still to take.
type winVals struct{ score, win, draw, pairs []float64 }

// evaluate returns every position's values when the mover of position i plays choice(i) there,
// or, where reply(i) is true, the choice that gives it the highest score (value iteration).
func (g *winGraph) evaluate(choice func(i int) rules.Choice, reply func(i int) bool) ([]winVals, error) {
	p := g.players
	vals := make([]winVals, len(g.pos))
	for i := range vals {
		v := winVals{make([]float64, p), make([]float64, p), make([]float64, p), make([]float64, p)}
		if g.st[i].N == 0 {
			most, top := -1, 0
			for _, x := range g.pos[i].pairs {
				most = max(most, x)
			}
			for _, x := range g.pos[i].pairs {
				top += btoi(x == most)
			}
			for s, x := range g.pos[i].pairs {
				if x == most {
					v.score[s] = 1 / float64(top)
					v.win[s] = float64(btoi(top == 1))
					v.draw[s] = float64(btoi(top > 1))
				}
			}
		}
		vals[i] = v
	}
	// next returns the values of choice c at position i, the others read at vals.
	next := func(i int, c rules.Choice) winVals {
		v := winVals{make([]float64, p), make([]float64, p), make([]float64, p), make([]float64, p)}
		mover := g.pos[i].mover
		for _, s := range g.steps[i][c] {
			to := vals[s.to]
			for t := range p {
				v.score[t] += s.p * to.score[t]
				v.win[t] += s.p * to.win[t]
				v.draw[t] += s.p * to.draw[t]
				v.pairs[t] += s.p * (to.pairs[t] + float64(g.pos[s.to].pairs[t]-g.pos[i].pairs[t]))
			}
		}
		_ = mover
		return v
	}
	for iter := 0; iter < 1_000_000; iter++ {
		delta := 0.0
		for i := range g.pos {
			if g.st[i].N == 0 {
				continue
			}
			var nv winVals
			if reply(i) {
				mover, have := g.pos[i].mover, false
				for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if g.steps[i][c] == nil {
						continue
					}
					if v := next(i, c); !have || v.score[mover] > nv.score[mover] {
						nv, have = v, true
					}
				}
			} else {
				c := choice(i)
				if g.steps[i][c] == nil {
					return nil, fmt.Errorf("position %s (%v): choice %v is not legal", g.pos[i].key(), g.st[i], c)
				}
				nv = next(i, c)
			}
			for t := range p {
				for _, d := range [][2]float64{{nv.score[t], vals[i].score[t]}, {nv.win[t], vals[i].win[t]}, {nv.draw[t], vals[i].draw[t]}, {nv.pairs[t], vals[i].pairs[t]}} {
					delta = math.Max(delta, math.Abs(d[0]-d[1]))
				}
			}
			vals[i] = nv
		}
		if delta < 1e-14 {
			return vals, nil
		}
	}
	return nil, fmt.Errorf("value iteration did not converge")
}

// seatTables returns, for every seat of lineup mu, the table it plays: the solver's table of
// seat 0 of the lineup seen from that seat (exact.RotateSeats).
func seatTables(t *testing.T, model exact.Model, mu exact.Lineup, maxN int) []*rules.ChoiceTable {
	t.Helper()
	out := make([]*rules.ChoiceTable, mu.Players)
	for k := range out {
		tab, err := exact.PolicyTable[float64](context.Background(), field.Float{}, model, exact.RotateSeats(mu, k), maxN)
		if err != nil {
			t.Fatalf("seat %d's table: %v", k, err)
		}
		out[k] = tab
	}
	return out
}

// lookup returns the choice of table tab at position i of g.
func (g *winGraph) lookup(t *testing.T, tab *rules.ChoiceTable, i int) rules.Choice {
	t.Helper()
	var c rules.Choice
	var ok bool
	if s := tab.Standings(); s != nil {
		c, ok = s.Lookup(g.st[i], g.relative(i))
	} else {
		c, ok = tab.Lookup(g.st[i], false)
	}
	if !ok {
		t.Fatalf("no choice in %v at standings %v", g.st[i], g.relative(i))
	}
	return c
}

// checkWinCardLevel plays lineup mu card by card from the full deal of n pairs with the pairs so
// far start (by seat) under memory m and compares every position reached with the solver's
// values (EvaluateStandings, float64); every win-optimal mover's choice must be a best reply
// there, a one-step deviation gaining it nothing; a win-best-response seat's score is compared
// with card-level value iteration maximising it.
func checkWinCardLevel(t *testing.T, m cardMemory, mu exact.Lineup, n int, start []int) int {
	t.Helper()
	return checkWinCardLevelModel(t, m, exact.Model{Pass: rules.PassNever, Memory: memoryOf(m)}, mu, n, start)
}

// checkWinCardLevelModel is checkWinCardLevel with the solver's model given (m played at card
// level, model its rules.Memory with pass rule never), from the full deal of n pairs and the
// model's singletons.
func checkWinCardLevelModel(t *testing.T, m cardMemory, model exact.Model, mu exact.Lineup, n int, start []int) int {
	t.Helper()
	ctx := context.Background()
	g, err := buildWinGraph(m, model, winPos{w: newCardWorld(rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}, nil), pairs: start})
	if err != nil {
		t.Fatal(err)
	}
	pol := mu.SeatPolicies()
	tabs := seatTables(t, model, mu, n)
	replySeat := -1
	for k, p := range pol {
		if p == rules.PolicyWinBestResponse {
			replySeat = k
		}
	}
	vals, err := g.evaluate(func(i int) rules.Choice { return g.lookup(t, tabs[g.pos[i].mover], i) },
		func(i int) bool { return g.pos[i].mover == replySeat })
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-9
	solved := map[string]exact.SelfWinResult[float64]{}
	compared := 0
	for i, pos := range g.pos {
		st := g.st[i]
		if st.N == 0 {
			continue
		}
		rel := g.relative(i)
		key := fmt.Sprint(st, rel, pos.mover)
		res, ok := solved[key]
		if !ok {
			res, err = exact.EvaluateStandings[float64](ctx, field.Float{}, model, exact.RotateSeats(mu, pos.mover), st, rel)
			if err != nil {
				t.Fatalf("EvaluateStandings(%v, %v, seat %d): %v", st, rel, pos.mover, err)
			}
			solved[key] = res
		}
		v := vals[i]
		for s := range mu.Players {
			seat := (pos.mover + s) % mu.Players
			if replySeat >= 0 && seat != replySeat {
				continue // ties of the reply move the others' values; its own score is compared
			}
			got := []float64{res.Score[s], res.Win[s], res.Draw[s], res.Pairs[s]}
			want := []float64{v.score[seat], v.win[seat], v.draw[seat], v.pairs[seat]}
			if replySeat >= 0 {
				got, want = got[:1], want[:1]
			}
			for x := range got {
				if math.Abs(got[x]-want[x]) > tol {
					t.Errorf("%v, %v, position %s (%v, standings %v, seat %d to move): seat %d's value %d solver %.12f, card level %.12f",
						m, pol, pos.key(), st, rel, pos.mover, seat, x, got[x], want[x])
				}
			}
			compared++
		}
		if pol[pos.mover] != rules.PolicyWinOptimal || replySeat >= 0 {
			continue
		}
		// The mover's choice gains nothing by a one-step deviation.
		own := v.score[pos.mover]
		for c, steps := range g.steps[i] {
			dev := 0.0
			for _, s := range steps {
				dev += s.p * vals[s.to].score[pos.mover]
			}
			if dev > own+tol {
				t.Errorf("%v, %v, position %s (%v, standings %v): deviating to %v gives the mover %.12f, its choice %.12f", m, pol, pos.key(), st, rel, c, dev, own)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no value compared")
	}
	return compared
}

// TestSelfWinLimitedCardLevel plays every seat win-optimal, lineups mixing win-optimal with
// fixed policies and optimal, and a win-best-response seat, card by card under lru and
// handover-uniform of capacity 2 and 3 at three seats (and four seats at two pairs), from the
// full deal with no pairs taken and with uneven pairs so far.
func TestSelfWinLimitedCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, W, W},
		{B, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, B, rules.PolicyOptimal},
		{W, B, W},
	}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}, {2, 0, 0}}
	n := 3
	if testing.Short() {
		n, starts = 3, starts[:2]
	}
	total := 0
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, capacity := range []int{2, 3} {
			m := cardMemory{capacity: capacity, forget: fg}
			for _, seats := range lineups {
				for _, start := range starts {
					if testing.Short() && len(start) > 0 && start[1] == 1 && seats[0] != W {
						continue
					}
					t.Run(fmt.Sprintf("%v/%v/%v", m, seats, start), func(t *testing.T) {
						total += checkWinCardLevel(t, m, exact.SeatLineup(seats...), n, start)
					})
				}
			}
			if !testing.Short() {
				t.Run(fmt.Sprintf("%v/4seats", m), func(t *testing.T) {
					total += checkWinCardLevel(t, m, exact.SeatLineup(W, W, W, W), 2, []int{0, 0, 1, 0})
				})
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}
