package exact_test

// A card-level check of the win objective at three or more seats under limited shared memory and
// the pass rules two-known and always (docs/models.md §4.7, "Win objective"). A position is a
// table at card level (cardWorld: the cards on it and the shared memory's cards in their recency
// order), every seat's pairs so far, the seat to move and the seats that passed in a row just
// before (the streak); a turn is played card by card (cardTurn), a pass hands the table on as it
// is, and the last of p passes in a row ends the game, every seat adding an equal share of the
// pairs left. The seats' choices are read from the solver's tables at the position's count state,
// standings and streak; the values of that play are found by value iteration over the card-level
// positions, with no count formula.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// passWinNode is a card-level position under a pass rule; over marks the end of a game by a
// stalemate (its values are fixed).
type passWinNode struct {
	winPos
	streak int
	over   bool
}

func (p passWinNode) key() string {
	return fmt.Sprint(p.winPos.key(), "/", p.streak, p.over)
}

// passWinGraph holds the card-level positions reachable from a start under a pass rule, each
// with the steps of every legal choice.
type passWinGraph struct {
	players int
	node    []passWinNode
	st      []rules.State
	steps   []map[rules.Choice][]winStep
	index   map[string]int
}

// buildPassWinGraph enumerates the positions reachable from start under any choices, each turn
// played card by card as model's flips say (cardTurn, or blindCardTurn under blind flips).
func buildPassWinGraph(m cardMemory, model exact.Model, start winPos) (*passWinGraph, error) {
	g := &passWinGraph{players: len(start.pairs), index: map[string]int{}}
	turn := cardTurn
	if model.Variant.Flips == rules.FlipsBlind {
		turn = blindCardTurn
	}
	add := func(p passWinNode) (int, error) {
		k := p.key()
		if i, ok := g.index[k]; ok {
			return i, nil
		}
		st, err := p.w.countState()
		if err != nil {
			return 0, err
		}
		g.index[k] = len(g.node)
		g.node, g.st = append(g.node, p), append(g.st, st)
		g.steps = append(g.steps, nil)
		return len(g.node) - 1, nil
	}
	if _, err := add(passWinNode{winPos: start}); err != nil {
		return nil, err
	}
	for i := 0; i < len(g.node); i++ {
		p, st := g.node[i], g.st[i]
		steps := map[rules.Choice][]winStep{}
		if st.N > 0 && !p.over {
			for _, c := range rules.Choices() {
				if !model.Legal(st, c) {
					continue
				}
				if c == rules.Pass && p.streak == g.players-1 {
					to, err := add(passWinNode{winPos: p.winPos, streak: p.streak, over: true})
					if err != nil {
						return nil, err
					}
					steps[c] = []winStep{{p: 1, to: to}}
					continue
				}
				if c == rules.Pass {
					// The pass hands the table on; under decay the hand-over forgets.
					var err error
					passOn(p.w, m, func(pr *big.Rat, w *cardWorld) {
						if err != nil {
							return
						}
						var to int
						to, err = add(passWinNode{winPos: winPos{w: w, pairs: p.pairs, mover: (p.mover + 1) % g.players}, streak: p.streak + 1})
						f, _ := pr.Float64()
						steps[c] = append(steps[c], winStep{p: f, to: to})
					})
					if err != nil {
						return nil, err
					}
					continue
				}
				var err error
				turn(p.w, m, c, pickOldest, func(pr *big.Rat, w *cardWorld, cont bool, moverGain, nextGain int) {
					if err != nil {
						return
					}
					q := passWinNode{winPos: winPos{w: w, pairs: append([]int(nil), p.pairs...), mover: p.mover}}
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

// passOn enumerates the tables a pass on w hands the next seat: w itself, or under decay every
// way the hand-over forgets among the remembered cards (no pair can become known, as a pass shows
// no card).
func passOn(w *cardWorld, m cardMemory, emit func(p *big.Rat, w *cardWorld)) {
	if m.forget != rules.ForgetDecay {
		emit(big.NewRat(1, 1), w)
		return
	}
	w0 := w.clone()
	w0.old = make([]bool, len(w0.present))
	for _, x := range w0.mem {
		w0.old[x] = true
	}
	w0.pending = nil
	decayHandOver(w0, m, big.NewRat(1, 1), 0, func(p *big.Rat, w2 *cardWorld, cont bool, moverGain, nextGain int) {
		if cont || moverGain != 0 || nextGain != 0 {
			panic(fmt.Sprintf("a pass under decay took a pair: cont %v, +%d, +%d", cont, moverGain, nextGain))
		}
		emit(p, w2)
	})
}

// relative returns the pairs so far of position i in order from its mover.
func (g *passWinGraph) relative(i int) []int {
	p := g.node[i]
	out := make([]int, g.players)
	for s := range out {
		out[s] = p.pairs[(p.mover+s)%g.players]
	}
	return out
}

// final returns the values of a position where the game has ended: the seats with the most pairs
// share the score, and after a stalemate every seat takes an equal share of the pairs left.
func (g *passWinGraph) final(i int) winVals {
	p := g.players
	v := winVals{make([]float64, p), make([]float64, p), make([]float64, p), make([]float64, p)}
	most, top := -1, 0
	for _, x := range g.node[i].pairs {
		most = max(most, x)
	}
	for _, x := range g.node[i].pairs {
		top += btoi(x == most)
	}
	for s, x := range g.node[i].pairs {
		v.pairs[s] = float64(g.st[i].N) / float64(p)
		if x == most {
			v.score[s] = 1 / float64(top)
			v.win[s] = float64(btoi(top == 1))
			v.draw[s] = float64(btoi(top > 1))
		}
	}
	return v
}

// ended reports whether the game is over at position i.
func (g *passWinGraph) ended(i int) bool { return g.node[i].over || g.st[i].N == 0 }

// next returns the values of choice c at position i, every position read at vals.
func (g *passWinGraph) next(vals []winVals, i int, c rules.Choice) winVals {
	p := g.players
	v := winVals{make([]float64, p), make([]float64, p), make([]float64, p), make([]float64, p)}
	for _, s := range g.steps[i][c] {
		to := vals[s.to]
		for t := range p {
			v.score[t] += s.p * to.score[t]
			v.win[t] += s.p * to.win[t]
			v.draw[t] += s.p * to.draw[t]
			v.pairs[t] += s.p * (to.pairs[t] + float64(g.node[s.to].pairs[t]-g.node[i].pairs[t]))
		}
	}
	return v
}

// evaluate returns every position's values when the mover of position i plays choice(i) there,
// or, where reply(i) is true, the choice that gives it the highest score (value iteration).
func (g *passWinGraph) evaluate(choice func(i int) rules.Choice, reply func(i int) bool) ([]winVals, error) {
	p := g.players
	vals := make([]winVals, len(g.node))
	for i := range vals {
		if g.ended(i) {
			vals[i] = g.final(i)
			continue
		}
		vals[i] = winVals{make([]float64, p), make([]float64, p), make([]float64, p), make([]float64, p)}
	}
	for range 1_000_000 {
		delta := 0.0
		for i := range g.node {
			if g.ended(i) {
				continue
			}
			var nv winVals
			if reply(i) {
				mover, have := g.node[i].mover, false
				for _, c := range rules.Choices() {
					if g.steps[i][c] == nil {
						continue
					}
					if v := g.next(vals, i, c); !have || v.score[mover] > nv.score[mover] {
						nv, have = v, true
					}
				}
			} else {
				c := choice(i)
				if g.steps[i][c] == nil {
					return nil, fmt.Errorf("position %s (%v): choice %v is not legal", g.node[i].key(), g.st[i], c)
				}
				nv = g.next(vals, i, c)
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

// lookup returns the choice of table tab at position i of g, read at its streak.
func (g *passWinGraph) lookup(t *testing.T, tab *rules.ChoiceTable, i int) rules.Choice {
	t.Helper()
	var c rules.Choice
	var ok bool
	if s := tab.Standings(); s != nil {
		c, ok = s.LookupPasses(g.st[i], g.relative(i), g.node[i].streak)
	} else {
		c, ok = tab.LookupPasses(g.st[i], g.node[i].streak)
	}
	if !ok {
		t.Fatalf("no choice in %v at standings %v, streak %d", g.st[i], g.relative(i), g.node[i].streak)
	}
	return c
}

// passWinCells returns the cells of the win objective's table keyed by state, standings and
// streak, copied.
func passWinCells[T any](t *testing.T, f field.Field[T], m exact.Model, players, maxN int) map[string]exact.SelfWinCell[T] {
	t.Helper()
	out := map[string]exact.SelfWinCell[T]{}
	err := exact.SelfWinTable(context.Background(), f, m, players, maxN, func(c *exact.SelfWinCell[T]) error {
		cp := *c
		cp.Score = append([]T(nil), c.Score...)
		cp.Deficits = append([]int(nil), c.Deficits...)
		cp.Best = append([]rules.Choice(nil), c.Best...)
		out[fmt.Sprint(c.State, c.Deficits, c.Passes)] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("%v, %s, %d seats: %v", m.Memory, m.Pass, players, err)
	}
	return out
}

// checkPassWinCardLevel plays lineup mu card by card from the full deal of n pairs with the pairs
// so far start (by seat) under memory m and pass rule rule, and compares the positions reached
// with the solver: every seat's score, win, draw and expected pairs at streak 0 (EvaluateStandings,
// float64); where every seat plays win-optimal, every seat's score and every legal choice's score
// to the mover at every streak (SelfWinTable). Every win-optimal mover's choice must gain nothing
// by a one-step deviation but at the positions SelfWinGaps lists; a win-best-response seat's score
// is compared with card-level value iteration maximising it.
func checkPassWinCardLevel(t *testing.T, m cardMemory, rule rules.PassRule, mu exact.Lineup, n int, start []int) int {
	t.Helper()
	return checkPassWinCardLevelModel(t, m, exact.Model{Pass: rule, Memory: memoryOf(m)}, mu, n, start)
}

// checkPassWinCardLevelModel is checkPassWinCardLevel with the solver's model given (m played at
// card level, model its rules.Memory and pass rule).
func checkPassWinCardLevelModel(t *testing.T, m cardMemory, model exact.Model, mu exact.Lineup, n int, start []int) int {
	t.Helper()
	ctx := context.Background()
	rule := model.Pass
	g, err := buildPassWinGraph(m, model, winPos{w: newCardWorld(rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}, nil), pairs: start})
	if err != nil {
		t.Fatal(err)
	}
	pol := mu.SeatPolicies()
	tabs := seatTables(t, model, mu, n)
	replySeat, allWin := -1, true
	for k, p := range pol {
		if p == rules.PolicyWinBestResponse {
			replySeat = k
		}
		allWin = allWin && p == rules.PolicyWinOptimal
	}
	vals, err := g.evaluate(func(i int) rules.Choice { return g.lookup(t, tabs[g.node[i].mover], i) },
		func(i int) bool { return g.node[i].mover == replySeat })
	if err != nil {
		t.Fatal(err)
	}
	var cells map[string]exact.SelfWinCell[float64]
	gap := map[string]bool{}
	if allWin {
		cells = passWinCells[float64](t, field.Float{}, model, mu.Players, n)
		gaps, err := exact.SelfWinGaps[float64](ctx, field.Float{}, model, mu.Players, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range gaps {
			gap[fmt.Sprint(x.State, x.Deficits, x.Passes)] = true
		}
	}
	const tol = 1e-9
	solved := map[string]exact.SelfWinResult[float64]{}
	compared := 0
	for i, pos := range g.node {
		st := g.st[i]
		if g.ended(i) {
			continue
		}
		rel := g.relative(i)
		d := make([]int, mu.Players)
		rules.Deficits(d, rel, st.N)
		v := vals[i]
		name := fmt.Sprintf("%v, %s, %v, position %s (%v, standings %v, seat %d to move, streak %d)", m, rule, pol, pos.key(), st, rel, pos.mover, pos.streak)
		if pos.streak == 0 {
			key := fmt.Sprint(st, rel, pos.mover)
			res, ok := solved[key]
			if !ok {
				res, err = exact.EvaluateStandings[float64](ctx, field.Float{}, model, exact.RotateSeats(mu, pos.mover), st, rel)
				if err != nil {
					t.Fatalf("EvaluateStandings(%v, %v, seat %d): %v", st, rel, pos.mover, err)
				}
				solved[key] = res
			}
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
						t.Errorf("%s: seat %d's value %d solver %.12f, card level %.12f", name, seat, x, got[x], want[x])
					}
				}
				compared++
			}
		}
		ckey := fmt.Sprint(st, d, pos.streak)
		if cells != nil {
			c, ok := cells[ckey]
			if !ok {
				t.Fatalf("%s: no cell in the table", name)
			}
			for s := range mu.Players {
				if x := v.score[(pos.mover+s)%mu.Players]; math.Abs(c.Score[s]-x) > tol {
					t.Errorf("%s: seat %d's score, table %.12f, card level %.12f", name, s, c.Score[s], x)
				}
				compared++
			}
			for ch, steps := range g.steps[i] {
				if x := g.next(vals, i, ch).score[pos.mover]; math.Abs(c.ChoiceScore[ch]-x) > tol {
					t.Errorf("%s: choice %v's score, table %.12f, card level %.12f", name, ch, c.ChoiceScore[ch], x)
				}
				_ = steps
				compared++
			}
		}
		if pol[pos.mover] != rules.PolicyWinOptimal || replySeat >= 0 || gap[ckey] {
			continue
		}
		// The mover's choice gains nothing by a one-step deviation.
		own := v.score[pos.mover]
		for c := range g.steps[i] {
			if dev := g.next(vals, i, c).score[pos.mover]; dev > own+tol {
				t.Errorf("%s: deviating to %v gives the mover %.12f, its choice %.12f", name, c, dev, own)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no value compared")
	}
	return compared
}

// TestSelfWinLimitedPassCardLevel plays every seat win-optimal, lineups mixing win-optimal with
// fixed policies and optimal, and a win-best-response seat, card by card under lru and
// handover-uniform of capacity 2 and 3 and the pass rules two-known and always at three seats
// and three pairs, from the full deal with no pairs taken and with uneven pairs so far.
func TestSelfWinLimitedPassCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, W, W},
		{B, rules.PolicySafe, rules.PolicyDaring},
		{W, B, W},
	}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}}
	total := 0
	for ri, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for fi, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			for _, capacity := range []int{2, 3} {
				m := cardMemory{capacity: capacity, forget: fg}
				for li, seats := range lineups {
					for _, start := range starts {
						// The short form plays every seat win-optimal from no pairs taken in one
						// capacity per pass rule and forgetting rule (2 and 3 in turn), and each
						// other lineup in one model of capacity 3.
						if testing.Short() && (start[1] == 1 || li == 0 && capacity != 2+(ri+fi)%2 || li > 0 && (capacity == 2 || (li-1)%4 != 2*ri+fi)) {
							continue
						}
						t.Run(fmt.Sprintf("%s/%v/%v/%v", rule, m, seats, start), func(t *testing.T) {
							total += checkPassWinCardLevel(t, m, rule, exact.SeatLineup(seats...), 3, start)
						})
					}
				}
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// TestSelfWinLimitedPassCardLevelFourPairs plays every seat win-optimal card by card at three
// seats and four pairs under lru(3) and handover-uniform(2) and pass rule always, from uneven
// pairs so far, where seats pass before the last streak in count states that a forgotten card
// hands to themselves.
func TestSelfWinLimitedPassCardLevelFourPairs(t *testing.T) {
	if testing.Short() {
		t.Skip("the positions of four pairs take seconds")
	}
	W := rules.PolicyWinOptimal
	for _, m := range []cardMemory{{capacity: 3, forget: rules.ForgetLRU}, {capacity: 2, forget: rules.ForgetHandoverUniform}} {
		for _, start := range [][]int{{1, 1, 0}, {0, 2, 0}} {
			t.Run(fmt.Sprint(m, start), func(t *testing.T) {
				n := checkPassWinCardLevel(t, m, rules.PassAlways, exact.SeatLineup(W, W, W), 4, start)
				t.Logf("compared %d values with card-level play", n)
			})
		}
	}
}
