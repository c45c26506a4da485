package exact_test

// A card-level check of the win objective at three seats under a fluctuating capacity
// (docs/models.md §4.4, §4.7 "Win objective"). A position is a table at card level (flGame of
// fluct_cardlevel_test.go: the cards still on it, the shared memory's cards in their recency
// order, a pair recognised under lru and not yet taken), every seat's pairs so far and the seat
// to move; every turn draws its capacity, M + d for d uniform in -σ .. σ (at least 2), and is
// played card by card. The movers' choices are read from the solver's tables of the capacity
// drawn at the position's count state and standings; the values of that play are found by value
// iteration over the card-level positions, and no count formula is used: the count state is only
// read off the table to look a choice up and to name the solver's value to compare.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fwPos is a card-level position: the table before the draw, every seat's pairs so far (by seat)
// and the seat to move; under a pass rule the pass streak (the seats that passed in a row just
// before) and whether a pass by every seat in a row ended the game in a stalemate.
type fwPos struct {
	g      *flGame
	pairs  []int
	mover  int
	streak int
	stale  bool
}

func (p fwPos) key() string {
	return fmt.Sprint(p.g.key(p.mover, 0), p.pairs, p.streak, p.stale)
}

// over reports whether the game has ended at p: every pair taken, or a stalemate.
func (p fwPos) over() bool { return p.stale || pairsLeft(p.g) == 0 }

// fwStep is one end of a turn: its probability and the position it leads to.
type fwStep struct {
	p  float64
	to int
}

// fwGraph holds the positions reachable from a start: steps[i][c-lo][ch] are the ends of a turn
// at position i with capacity c drawn and choice ch (a turn with no choice to make, a pair known
// whole taken first, has its steps under every legal choice alike). A pass, where the model's
// pass rule allows it, shows no card and hands the table over (handover-uniform forgetting down to
// the capacity drawn) at the next pass streak; the last seat's pass in a row ends the game.
type fwGraph struct {
	lru      bool
	m, sigma int
	lo       int
	players  int
	pos      []fwPos
	steps    [][]map[rules.Choice][]fwStep
	st       [][]rules.State // the state the mover sees after each capacity's draw
	index    map[string]int
}

func (gr *fwGraph) add(p fwPos) int {
	k := p.key()
	if i, ok := gr.index[k]; ok {
		return i
	}
	gr.index[k] = len(gr.pos)
	gr.pos = append(gr.pos, p)
	return len(gr.pos) - 1
}

func (gr *fwGraph) caps() []int {
	var out []int
	for d := -gr.sigma; d <= gr.sigma; d++ {
		out = append(out, max(2, gr.m+d))
	}
	return out
}

// wholePair reports whether a turn from g starts by taking a pair known whole: a pair recognised
// under lru, or both cards of a pair remembered.
func wholePair(g *flGame) bool {
	if len(g.pending) == 2 {
		return true
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			return true
		}
	}
	return false
}

func pairsLeft(g *flGame) int {
	n := 0
	for i := 0; i < len(g.present); i += 2 {
		if g.present[i] {
			n++
		}
	}
	return n
}

// build enumerates every position reachable from start under any choices.
func (gr *fwGraph) build(model exact.Model, start fwPos) {
	gr.index = map[string]int{}
	gr.add(start)
	for i := 0; i < len(gr.pos); i++ {
		p := gr.pos[i]
		var byCap []map[rules.Choice][]fwStep
		var sts []rules.State
		if !p.over() {
			for _, c := range gr.caps() {
				steps := map[rules.Choice][]fwStep{}
				g := p.g.clone()
				if gr.lru {
					for len(g.mem) > c {
						g.mem = g.mem[1:]
					}
				}
				for x := range g.old {
					g.old[x] = slices.Contains(g.mem, x)
				}
				n := pairsLeft(g)
				st := rules.State{N: n, J: n - len(g.mem)}
				if wholePair(g) {
					st = rules.State{N: -1} // a pair known whole is taken first: no choice
				}
				sts = append(sts, st)
				if st.N >= 0 && model.Legal(st, rules.Pass) {
					if p.streak == gr.players-1 {
						steps[rules.Pass] = []fwStep{{p: 1, to: gr.add(fwPos{g: g.clone(), pairs: p.pairs, mover: p.mover, streak: p.streak, stale: true})}}
					} else {
						gr.handOver(g.clone(), c, 1, func(q float64, h *flGame, _ bool, _ int) {
							next := fwPos{g: h, pairs: p.pairs, mover: (p.mover + 1) % gr.players, streak: p.streak + 1}
							steps[rules.Pass] = append(steps[rules.Pass], fwStep{p: q, to: gr.add(next)})
						})
					}
				}
				for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if st.N < 0 && ch != rules.Daring || st.N >= 0 && !model.Legal(st, ch) {
						continue
					}
					gr.turn(g.clone(), p, c, ch, func(q float64, h *flGame, cont bool, gain int) {
						next := fwPos{g: h, pairs: slices.Clone(p.pairs), mover: p.mover}
						if cont {
							next.pairs[p.mover] += gain
						} else {
							next.mover = (p.mover + 1) % gr.players
						}
						steps[ch] = append(steps[ch], fwStep{p: q, to: gr.add(next)})
					})
				}
				byCap = append(byCap, steps)
			}
		}
		gr.steps = append(gr.steps, byCap)
		gr.st = append(gr.st, sts)
	}
}

// turn plays a turn of choice ch with capacity c drawn from g (after the draw), calling emit for
// every end: its probability, the table, whether the mover keeps the move and the pair it takes.
func (gr *fwGraph) turn(g *flGame, p fwPos, c int, ch rules.Choice, emit func(q float64, h *flGame, cont bool, gain int)) {
	if len(g.pending) == 2 {
		g.take(g.pending[0], g.pending[1])
		emit(1, g, true, 1)
		return
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			emit(1, g, true, 1)
			return
		}
	}
	store := func(h *flGame, x int) {
		h.mem = append(h.mem, x)
		if gr.lru && len(h.mem) > c {
			h.mem = h.mem[1:]
		}
	}
	afterSecond := func(h *flGame, a, y int, q float64) {
		if y == a^1 {
			h.take(a, y)
			emit(q, h, true, 1)
			return
		}
		if gr.lru && slices.Contains(h.mem, y^1) {
			h.drop(y ^ 1)
			h.pending = []int{y ^ 1, y}
		} else {
			store(h, y)
		}
		gr.handOver(h, c, q, emit)
	}
	if ch == rules.KnownFirst {
		a := g.mem[0]
		g.touch(a)
		ys := g.unremembered(-1)
		for _, y := range ys {
			afterSecond(g.clone(), a, y, 1/float64(len(ys)))
		}
		return
	}
	xs := g.unremembered(-1)
	for _, x := range xs {
		q := 1 / float64(len(xs))
		h := g.clone()
		if slices.Contains(h.mem, x^1) {
			h.take(x, x^1)
			emit(q, h, true, 1)
			continue
		}
		store(h, x)
		if ch == rules.Safe && len(h.mem) >= 2 {
			for _, o := range h.mem {
				if o != x {
					h.touch(o)
					break
				}
			}
			gr.handOver(h, c, q, emit)
			continue
		}
		ys := h.unremembered(x)
		for _, y := range ys {
			afterSecond(h.clone(), x, y, q/float64(len(ys)))
		}
	}
}

// handOver hands the move to the next seat: handover-uniform forgets old cards uniformly, one at a
// time, until c remain.
func (gr *fwGraph) handOver(g *flGame, c int, q float64, emit func(q float64, h *flGame, cont bool, gain int)) {
	if !gr.lru && len(g.mem) > c {
		var olds []int
		for _, x := range g.mem {
			if g.old[x] {
				olds = append(olds, x)
			}
		}
		for _, x := range olds {
			h := g.clone()
			h.drop(x)
			h.old[x] = false
			gr.handOver(h, c, q/float64(len(olds)), emit)
		}
		return
	}
	emit(q, g, false, 0)
}

// fwVals are a position's values by seat: P(most pairs) with ties shared, P(alone with the most),
// P(tied for the most) and the pairs still to take (at a stalemate the pairs left shared alike).
type fwVals [4][]float64

// relative returns position i's pairs so far in order from its mover.
func (gr *fwGraph) relative(i int) []int {
	p := gr.pos[i]
	out := make([]int, gr.players)
	for s := range out {
		out[s] = p.pairs[(p.mover+s)%gr.players]
	}
	return out
}

// evaluate returns every position's values when the mover of position i with the capacity of
// index ci drawn plays choice(i, ci) (value iteration).
func (gr *fwGraph) evaluate(choice func(i, ci int) rules.Choice) ([]fwVals, error) {
	p := gr.players
	vals := make([]fwVals, len(gr.pos))
	for i := range vals {
		for v := range vals[i] {
			vals[i][v] = make([]float64, p)
		}
		if !gr.pos[i].over() {
			continue
		}
		for s := range p {
			vals[i][3][s] = float64(pairsLeft(gr.pos[i].g)) / float64(p)
		}
		pairs := gr.pos[i].pairs
		most, top := slices.Max(pairs), 0
		for _, x := range pairs {
			top += btoi(x == most)
		}
		for s, x := range pairs {
			if x == most {
				vals[i][0][s] = 1 / float64(top)
				vals[i][1][s] = float64(btoi(top == 1))
				vals[i][2][s] = float64(btoi(top > 1))
			}
		}
	}
	w := 1 / float64(2*gr.sigma+1)
	for range 1_000_000 {
		delta := 0.0
		for i := range gr.pos {
			if gr.pos[i].over() {
				continue
			}
			var nv fwVals
			for v := range nv {
				nv[v] = make([]float64, p)
			}
			for ci := range gr.steps[i] {
				c := choice(i, ci)
				steps, ok := gr.steps[i][ci][c]
				if !ok {
					return nil, fmt.Errorf("position %s (%v): choice %v is not legal", gr.pos[i].key(), gr.st[i][ci], c)
				}
				gr.add4(&nv, i, steps, vals, w)
			}
			for v := range nv {
				for t := range p {
					delta = math.Max(delta, math.Abs(nv[v][t]-vals[i][v][t]))
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

// add4 adds w times the values of steps from position i, read in vals, to out.
func (gr *fwGraph) add4(out *fwVals, i int, steps []fwStep, vals []fwVals, w float64) {
	for _, s := range steps {
		to := vals[s.to]
		for t := range gr.players {
			for v := range 3 {
				out[v][t] += w * s.p * to[v][t]
			}
			out[3][t] += w * s.p * (to[3][t] + float64(gr.pos[s.to].pairs[t]-gr.pos[i].pairs[t]))
		}
	}
}

// fwStart is a start of the card-level play: the shared memory's cards and every seat's pairs so
// far.
type fwStart struct {
	mem   []int
	pairs []int
}

// fwSolved returns the solver's values (float64) in st before the draw at pass streak l, seat s
// in order from the mover having taken rel[s] pairs so far.
type fwSolved func(st rules.State, rel []int, l int) (exact.SelfWinValues[float64], error)

// checkFluctSelfWinCardLevel plays every seat win-optimal card by card at players seats, n pairs,
// from each start, under the fluctuating capacity (M, σ) and pass rule of model, each mover
// reading the solver's table of the capacity drawn (lo, layers) at its count state, standings and
// pass streak: every position's scores, wins, draws and pairs by seat are compared with solved,
// the scores must add up to 1, and no choice made once with any capacity drawn may give the mover
// more score than the table's choice. It returns the number of seats' values compared.
func checkFluctSelfWinCardLevel(t *testing.T, model exact.Model, players, n int, starts []fwStart, lo int, layers []*rules.StandingsTable, solved fwSolved) int {
	t.Helper()
	mem := model.Memory
	total := 0
	// Many positions share a count state, standings and streak: each is solved once.
	type solvedKey struct {
		st     rules.State
		rel    string
		streak int
	}
	memo := map[solvedKey]exact.SelfWinValues[float64]{}
	solvedOnce := func(st rules.State, rel []int, streak int) (exact.SelfWinValues[float64], error) {
		k := solvedKey{st, fmt.Sprint(rel), streak}
		if res, ok := memo[k]; ok {
			return res, nil
		}
		res, err := solved(st, rel, streak)
		if err == nil {
			memo[k] = res
		}
		return res, err
	}
	for _, sp := range starts {
		name := fmt.Sprintf("%s/%s/%v/%v", mem, model.Pass, sp.mem, sp.pairs)
		gr := &fwGraph{lru: mem.Forget == rules.ForgetLRU, m: mem.Capacity, sigma: mem.Fluctuation, players: players}
		gr.build(model, fwPos{g: newFlDeal(n, sp.mem), pairs: sp.pairs})
		caps := gr.caps()
		choice := func(i, ci int) rules.Choice {
			if gr.st[i][ci].N < 0 {
				return rules.Daring // no choice to make
			}
			c := caps[ci]
			l := layers[min(max(c-lo, 0), len(layers)-1)]
			ch, ok := l.LookupPasses(gr.st[i][ci], gr.relative(i), gr.pos[i].streak)
			if !ok {
				t.Fatalf("%s: no choice in %v with capacity %d at standings %v, streak %d", name, gr.st[i][ci], c, gr.relative(i), gr.pos[i].streak)
			}
			return ch
		}
		vals, err := gr.evaluate(choice)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		const tol = 1e-9
		for i, pos := range gr.pos {
			if pos.over() {
				continue
			}
			nl := pairsLeft(pos.g)
			rel := gr.relative(i)
			// The one-step deviations, with every capacity drawn.
			for ci, byCh := range gr.steps[i] {
				var own fwVals
				for v := range own {
					own[v] = make([]float64, players)
				}
				gr.add4(&own, i, byCh[choice(i, ci)], vals, 1)
				for ch, steps := range byCh {
					var dev fwVals
					for v := range dev {
						dev[v] = make([]float64, players)
					}
					gr.add4(&dev, i, steps, vals, 1)
					if dev[0][pos.mover] > own[0][pos.mover]+tol {
						t.Errorf("%s: position %s (%v, capacity %d, standings %v, streak %d): %v once gives the mover %.12f, its choice %.12f",
							name, fmt.Sprint(pos.g.present, pos.g.mem, pos.g.pending), gr.st[i][ci], caps[ci], rel, pos.streak, ch, dev[0][pos.mover], own[0][pos.mover])
					}
				}
			}
			if wholePair(pos.g) {
				continue // the pair known whole is the previous turn's, taken first by this mover: no count state
			}
			st := rules.State{N: nl, J: nl - len(pos.g.mem)}
			res, err := solvedOnce(st, rel, pos.streak)
			if err != nil {
				t.Fatalf("%s: %v, standings %v, streak %d: %v", name, st, rel, pos.streak, err)
			}
			sum := 0.0
			for s := range players {
				seat := (pos.mover + s) % players
				got := []float64{res.Score[s], res.Win[s], res.Draw[s], res.Pairs[s]}
				for v := range got {
					if math.Abs(got[v]-vals[i][v][seat]) > tol {
						t.Errorf("%s: position %s (%v, standings %v, streak %d): seat %d's vector %d: solver %.12f, card level %.12f",
							name, fmt.Sprint(pos.g.present, pos.g.mem, pos.g.pending), st, rel, pos.streak, seat, v, got[v], vals[i][v][seat])
					}
				}
				sum += res.Score[s]
				total++
			}
			if math.Abs(sum-1) > tol {
				t.Errorf("%s: %v, standings %v, streak %d: scores add up to %.15f", name, st, rel, pos.streak, sum)
			}
		}
	}
	return total
}

// TestFluctSelfWinCardLevel plays every seat win-optimal card by card at three seats, three
// pairs, under lru and handover-uniform with σ = 1, from the full deal (no pairs taken, and
// uneven pairs so far) and from two cards known: every position's scores, wins, draws and pairs
// by seat are compared with the solver's (EvaluateStandings, float64), and no choice made once
// with any capacity drawn gives the mover more score than the solver's choice.
func TestFluctSelfWinCardLevel(t *testing.T) {
	ctx := context.Background()
	starts := []fwStart{{[]int{0, 2}, []int{0, 1, 0}}, {nil, []int{0, 0, 0}}}
	if testing.Short() {
		starts = starts[:1]
	}
	type memCase struct {
		fg   rules.Forgetting
		m, n int
	}
	cases := []memCase{{rules.ForgetLRU, 3, 3}, {rules.ForgetHandoverUniform, 3, 3}}
	if !testing.Short() {
		// Four pairs: a pair recognised under lru leaves three known cards to a capacity of 2
		// drawn for the turn that takes it.
		cases = append(cases, memCase{rules.ForgetLRU, 2, 3}, memCase{rules.ForgetHandoverUniform, 2, 3},
			memCase{rules.ForgetLRU, 3, 4})
	}
	const players, sigma = 3, 1
	total := 0
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.fg, Fluctuation: sigma}
		model := exact.Model{Memory: mem}
		lo, layers, err := exact.FluctSelfWinTables(ctx, field.Float{}, model, players, tc.n)
		if err != nil {
			t.Fatalf("%s: %v", mem, err)
		}
		solved := func(st rules.State, rel []int, _ int) (exact.SelfWinValues[float64], error) {
			res, err := exact.EvaluateStandings(ctx, field.Float{}, model, exact.SeatLineup(rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal), st, rel)
			return res.SelfWinValues, err
		}
		total += checkFluctSelfWinCardLevel(t, model, players, tc.n, starts, lo, layers, solved)
	}
	if total == 0 {
		t.Fatal("no value compared")
	}
	t.Logf("compared %d seats' values with card-level play", total)
}
