package exact

import (
	"context"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSelfWinRowCheck is one profile's check of the row of n pairs at the standings where every
// seat has as many pairs (a cycle of its own): every state after the draw's vector by one step
// from the vectors before the draw, and the mover's score of each choice made once.
type fluctSelfWinRowCheck struct {
	// choice[node] is the profile's choice and score[node][ch] the mover's score of choice ch made
	// once in the state after the draw nodes[node], every later turn following the profile.
	nodes  []fluctNode
	choice []rules.Choice
	score  []map[rules.Choice]float64
}

// checkFluctSelfWinRow runs the sweep of the win objective of p seats under model m up to n pairs
// (keepFirst: without the preferBetter step) and checks, by a one-step expansion from its vectors
// before the draw, that the profile it selects in the row of n pairs at even standings is an
// equilibrium there (no choice made once gives a state's mover more) and that its vectors before
// the draw are the capacities' average of the profile's one-step vectors.
func checkFluctSelfWinRow(t *testing.T, m Model, p, n int, keepFirst bool) fluctSelfWinRowCheck {
	t.Helper()
	f := field.Float{}
	x, err := buildFluctSelfWin(f, m, p, n, true)
	if err != nil {
		t.Fatal(err)
	}
	x.keepFirst = keepFirst
	if err := x.run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	even := make([]int, p)
	vi := int(x.w.place[n][rules.StandingsIndex(even, n)])
	if vi != 0 || x.w.rotation(n)[0] != 0 {
		t.Fatalf("even standings at place %d, turned to %d: not a cycle of its own", vi, x.w.rotation(n)[0])
	}
	nodes, _, before := x.s.rowLayout(n)
	z := x.w.nv * p
	res := fluctSelfWinRowCheck{nodes: nodes, choice: make([]rules.Choice, len(nodes)), score: make([]map[rules.Choice]float64, len(nodes))}
	profile := make([][]float64, len(nodes))
	for i, nd := range nodes {
		st := rules.State{N: n, J: n - nd.k}
		res.choice[i] = x.choice[n][nd.c][nd.k][vi]
		res.score[i] = map[rules.Choice]float64{}
		for _, ch := range rules.Choices() {
			if !m.Legal(st, ch) || ch == rules.Pass {
				continue
			}
			acc := make([]float64, z)
			for _, o := range x.s.outcomes(n, nd.k, nd.c, ch) {
				pr := f.FromFrac(o.Prob.Num, o.Prob.Den)
				if k2 := sameRow(o, n); k2 >= 0 {
					// The next seat's turn before its draw, at the same even standings.
					src := x.cur[0][k2][vi]
					x.w.addTurned(acc, pr, false, 0, func(v int) []float64 { return src[v*p : (v+1)*p] })
					continue
				}
				x.addLeaving(st, winPos{vi: vi}, o, pr, acc)
			}
			res.score[i][ch] = acc[swScore*p]
			if ch == res.choice[i] {
				profile[i] = acc
			}
		}
		for ch, v := range res.score[i] {
			if v > res.score[i][res.choice[i]]+1e-12 {
				t.Errorf("%s, %d seats, keepFirst %t: %v with capacity %d drawn: %s once gives the mover %.9f, the profile's %s %.9f", m.Memory, p, keepFirst, st, nd.c, ch, v, res.choice[i], res.score[i][res.choice[i]])
			}
		}
	}
	for k, refs := range before {
		for e := range z {
			sum := 0.0
			for _, rf := range refs {
				sum += rf.p * profile[rf.at][e]
			}
			if got := x.cur[0][k][vi][e]; math.Abs(got-sum) > 1e-12 {
				t.Errorf("%s, %d seats, keepFirst %t: %d pairs, %d known before the draw: entry %d is %.12f, one step of the profile %.12f", m.Memory, p, keepFirst, n, k, e, got, sum)
			}
		}
	}
	return res
}

// TestFluctSelfWinTakesTheMoversBetterEquilibrium checks the selection of the win objective at
// three seats under lru(3, σ 1) in the smallest deal where it matters, seven pairs at even
// standings: there both the profile policy iteration ends in and the one the solver selects are
// equilibria (by a one-step expansion from each one's vectors), they differ, and in every state
// after the draw where they differ the solver's choice gives that state's mover more.
func TestFluctSelfWinTakesTheMoversBetterEquilibrium(t *testing.T) {
	if testing.Short() {
		t.Skip("two sweeps of seven pairs: about 2 s")
	}
	m := Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}}
	const p, n = 3, 7
	sel := checkFluctSelfWinRow(t, m, p, n, false)
	first := checkFluctSelfWinRow(t, m, p, n, true)
	differ := 0
	for i, nd := range sel.nodes {
		a, b := sel.choice[i], first.choice[i]
		if a == b {
			continue
		}
		differ++
		if sel.score[i][a] <= first.score[i][b] {
			t.Errorf("%d pairs, %d known, capacity %d: the solver plays %s, the mover's score %.9f; the other equilibrium's %s gives it %.9f", n, nd.k, nd.c, a, sel.score[i][a], b, first.score[i][b])
		}
	}
	if differ == 0 {
		t.Fatal("the two selections play the same profile: the case no longer tells them apart")
	}
}
