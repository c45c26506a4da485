package exact

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSelfWinPosition is one state after the draw of a row in a profile's check: its known
// cards and capacity drawn, pass streak and standings, the profile's choice there and the mover's
// score of each choice made once, every later turn following the profile.
type fluctSelfWinPosition struct {
	node      fluctNode
	streak    int
	standings []int
	choice    rules.Choice
	score     map[rules.Choice]float64
}

// checkFluctSelfWinRow runs the sweep of the win objective of p seats under model m up to n pairs
// (keepFirst: without the preferBetter step) and checks, by a one-step expansion from its vectors
// before the draw, that the profile it selects in the row of n pairs (at even standings only, or
// at every standings) is an equilibrium there (no choice made once, a pass included, gives a
// state's mover more, or, where the solver lists no equilibrium in pure choices, the largest
// gain is the one it lists) and that its vectors before the draw are the capacities' average of the
// profile's one-step vectors, at every pass streak. A turn that hands over without a pair reads
// the next seat's vectors before its draw at the standings seen from it; a pass at streak l < p-1
// hands the next seat min(k, c) known cards (c the capacity drawn) at streak l+1, and at the last
// streak ends the game in a stalemate.
func checkFluctSelfWinRow(t *testing.T, m Model, p, n int, keepFirst, every bool) []fluctSelfWinPosition {
	t.Helper()
	f := field.Float{}
	x, err := buildFluctSelfWin(f, m, p, n, true)
	if err != nil {
		t.Fatal(err)
	}
	x.keepFirst = keepFirst
	gaps := []FluctSelfWinGap[float64]{}
	x.gaps = &gaps
	if err := x.run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	gain := map[string]float64{} // the positions without an equilibrium in pure choices
	for _, g := range gaps {
		gain[fmt.Sprint(g.State, g.Capacity, g.Passes, g.Deficits)] = g.Gain
	}
	nodes, _, before := x.s.rowLayout(n)
	nvalid := len(x.w.valid[n])
	rot := x.w.rotation(n)
	z := x.w.nv * p
	var out []fluctSelfWinPosition
	for vi, d := range x.w.valid[n] {
		if !every && slices.Max(d) != 0 {
			continue
		}
		stale := make([]float64, z)
		x.w.stalemateVec(n, d, stale)
		for l := range x.nl {
			profile := make([][]float64, len(nodes))
			for i, nd := range nodes {
				st := rules.State{N: n, J: n - nd.k}
				pos := fluctSelfWinPosition{node: nd, streak: l, standings: d, choice: x.choice[n][nd.c][nd.k][l*nvalid+vi], score: map[rules.Choice]float64{}}
				for _, ch := range rules.Choices() {
					if !m.Legal(st, ch) {
						continue
					}
					acc := make([]float64, z)
					switch {
					case ch == rules.Pass && l == x.nl-1:
						copy(acc, stale)
					case ch == rules.Pass:
						// The next seat's turn before its draw at the next streak, the known
						// cards forgotten down to the capacity drawn.
						src := x.streaks[l+1][0][min(nd.k, nd.c)][rot[vi]]
						x.w.addTurned(acc, 1, false, 0, func(v int) []float64 { return src[v*p : (v+1)*p] })
					default:
						for _, o := range x.s.outcomes(n, nd.k, nd.c, ch) {
							pr := f.FromFrac(o.Prob.Num, o.Prob.Den)
							if k2 := sameRow(o, n); k2 >= 0 {
								src := x.streaks[0][0][k2][rot[vi]]
								x.w.addTurned(acc, pr, false, 0, func(v int) []float64 { return src[v*p : (v+1)*p] })
								continue
							}
							x.addLeaving(st, winPos{vi: vi}, o, pr, acc)
						}
					}
					pos.score[ch] = acc[swScore*p]
					if ch == pos.choice {
						profile[i] = acc
					}
				}
				// A position without an equilibrium in pure choices: the profile's largest gain
				// there is the one the solver lists.
				slack, gap := gain[fmt.Sprint(st, nd.c, l, d)]
				most := 0.0
				for _, v := range pos.score {
					most = max(most, v-pos.score[pos.choice])
				}
				if gap && math.Abs(most-slack) > 1e-9 {
					t.Errorf("%s, pass %s, %d seats: %v with capacity %d drawn at streak %d, standings %v: the largest gain of a choice made once is %.9f, the solver lists %.9f", m.Memory, m.Pass, p, st, nd.c, l, d, most, slack)
				}
				for ch, v := range pos.score {
					if !gap && v > pos.score[pos.choice]+1e-12 {
						t.Errorf("%s, pass %s, %d seats, keepFirst %t: %v with capacity %d drawn at streak %d, standings %v: %s once gives the mover %.9f, the profile's %s %.9f",
							m.Memory, m.Pass, p, keepFirst, st, nd.c, l, d, ch, v, pos.choice, pos.score[pos.choice])
					}
				}
				out = append(out, pos)
			}
			for k, refs := range before {
				for e := range z {
					sum := 0.0
					for _, rf := range refs {
						sum += rf.p * profile[rf.at][e]
					}
					if got := x.streaks[l][0][k][vi][e]; math.Abs(got-sum) > 1e-12 {
						t.Errorf("%s, pass %s, %d seats, keepFirst %t: %d pairs, %d known before the draw at streak %d, standings %v: entry %d is %.12f, one step of the profile %.12f",
							m.Memory, m.Pass, p, keepFirst, n, k, l, d, e, got, sum)
					}
				}
			}
		}
	}
	return out
}

// TestFluctSelfWinTakesTheMoversBetterEquilibrium checks the selection of the win objective at
// three seats under lru(3, σ 1) in the smallest deal where it matters, seven pairs at even
// standings: there both the profile policy iteration ends in and the one the solver selects are
// equilibria (by a one-step expansion from each one's vectors), they differ, and in every state
// after the draw where they differ the solver's choice gives that state's mover more.
func TestFluctSelfWinTakesTheMoversBetterEquilibrium(t *testing.T) {
	if testing.Short() {
		t.Skip("two sweeps of seven pairs: about 0.6 s")
	}
	m := Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}}
	const p, n = 3, 7
	sel := checkFluctSelfWinRow(t, m, p, n, false, false)
	first := checkFluctSelfWinRow(t, m, p, n, true, false)
	differ := 0
	for i, pos := range sel {
		a, b := pos.choice, first[i].choice
		if a == b {
			continue
		}
		differ++
		if pos.score[a] <= first[i].score[b] {
			t.Errorf("%d pairs, %d known, capacity %d: the solver plays %s, the mover's score %.9f; the other equilibrium's %s gives it %.9f", n, pos.node.k, pos.node.c, a, pos.score[a], b, first[i].score[b])
		}
	}
	if differ == 0 {
		t.Fatal("the two selections play the same profile: the case no longer tells them apart")
	}
}

// TestFluctSelfWinPassHandsOverWhatTheCapacityKeeps checks, by a one-step expansion from the
// solver's vectors before the draw, the win objective at three seats under handover-uniform(2,
// σ 1) and pass rule always in the row of five pairs, at every standings and pass streak: a pass
// made with more known cards than the capacity drawn hands the next seat only as many as the
// capacity keeps. The smallest such row in which a state with more known cards than the capacity
// drawn passes before the last streak (so that the pass's hand-over enters the vectors) is five
// pairs.
func TestFluctSelfWinPassHandsOverWhatTheCapacityKeeps(t *testing.T) {
	m := Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, Pass: rules.PassAlways}
	const p, n = 3, 5
	passes := 0
	for _, pos := range checkFluctSelfWinRow(t, m, p, n, false, true) {
		if pos.choice == rules.Pass && pos.node.k > pos.node.c && pos.streak < p-1 {
			passes++
		}
	}
	if passes == 0 {
		t.Fatal("no state with more known cards than the capacity drawn passes before the last streak: the case does not tell min(k, c) known cards from k")
	}
}
