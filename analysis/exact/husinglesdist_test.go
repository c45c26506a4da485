package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// husCardLeadDists iterates, on one deal's card-level chain (husingles_cardlevel_test.go), the
// distribution of the mover's lead in the rest of the game for each role to move (index l + pairs
// for a lead of l): taking a pair shifts the mover's own distribution by its gain, handing over
// mirrors the next seat's, which first takes a pair known whole. It returns the distributions of
// the states with no pair known whole.
func (d *husDeal) husCardLeadDists(singles, capacity int, choose func(r int, st rules.State) rules.Choice) [2]map[husCardState][]float64 {
	size := 2*d.pairs + 1
	var states []husCardState
	for present := uint32(0); present < 1<<d.pairs; present++ {
		for mem := uint32(0); mem < 1<<d.cards; mem++ {
			st := husCardState{present, mem}
			ok := bitsOf(mem) <= capacity && d.fullPair(st) < 0
			for pos := range d.cards {
				if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
					ok = false
				}
			}
			if ok {
				states = append(states, st)
			}
		}
	}
	var dist [2]map[husCardState][]float64
	var edges [2]map[husCardState][]husEdge
	for r := range 2 {
		dist[r], edges[r] = map[husCardState][]float64{}, map[husCardState][]husEdge{}
		for _, st := range states {
			v := make([]float64, size)
			if st.present == 0 {
				v[d.pairs] = 1
			} else {
				edges[r][st] = d.turn(st, choose(r, d.counts(st, singles)), capacity)
			}
			dist[r][st] = v
		}
	}
	// start is role r's distribution from a state that may hold a pair known whole, and the
	// pairs that role takes first.
	start := func(r int, st husCardState) ([]float64, int) {
		if f := d.fullPair(st); f >= 0 {
			return dist[r][d.take(st, f)], 1
		}
		return dist[r][st], 0
	}
	for sweep := 0; sweep < 100000; sweep++ {
		change := 0.0
		for r := range 2 {
			for _, st := range states {
				if st.present == 0 {
					continue
				}
				nv := make([]float64, size)
				for _, e := range edges[r][st] {
					src, first := start(r, e.to)
					if e.keep {
						first += e.gain
					} else {
						src, first = start(1-r, e.to)
					}
					for i, p := range src {
						if p == 0 {
							continue
						}
						l := i - d.pairs + first
						if !e.keep {
							l = -l
						}
						nv[l+d.pairs] += e.p * p
					}
				}
				for i := range nv {
					change = math.Max(change, math.Abs(nv[i]-dist[r][st][i]))
				}
				dist[r][st] = nv
			}
		}
		if change < 1e-15 {
			break
		}
	}
	return dist
}

// husCardDistributions returns, for every count state of at most pairs pairs, role 0's card-level
// lead distribution (index l + pairs), averaged over every deal and every placement of the
// remembered cards that the count state describes.
func husCardDistributions(pairs, singles, capacity int, choose func(r int, st rules.State) rules.Choice) map[rules.State][]float64 {
	sum := map[rules.State][]float64{}
	cnt := map[rules.State]float64{}
	for _, d := range husDeals(pairs, singles) {
		dist := d.husCardLeadDists(singles, capacity, choose)
		for st, v := range dist[0] {
			cs := d.counts(st, singles)
			if sum[cs] == nil {
				sum[cs] = make([]float64, len(v))
			}
			for i, p := range v {
				sum[cs][i] += p
			}
			cnt[cs]++
		}
	}
	for st, v := range sum {
		for i := range v {
			v[i] /= cnt[st]
		}
	}
	return sum
}

// TestHandoverSingletonsDistributionMatchesCardPlay compares the score distribution of singletons
// under a handover-uniform memory (float64) in every count state with the lead distribution
// iterated on every deal's card-level chain, for the optimum, fixed policies and a best reply (the
// latter playing the solver's choices card by card, which TestHandoverSingletonsMatchCardPlay
// checks). In the states of the most pairs the exact distribution is the float64 one, sums to 1
// and has Evaluate's expected pairs for its mean, exactly.
func TestHandoverSingletonsDistributionMatchesCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity int
		short                    bool
	}
	cases := []tc{{2, 1, 2, true}, {2, 2, 3, false}, {3, 1, 2, false}, {3, 1, 3, false}}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyParity},
	}
	ctx := context.Background()
	compared := 0
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		m := husModel(c.singles, c.capacity)
		for _, mu := range lineups {
			t.Run(fmt.Sprintf("%d+%ds/m%d/%s-%s", c.pairs, c.singles, c.capacity, mu.Policy, mu.Opponent), func(t *testing.T) {
				s, err := newHUSSolver(ctx, field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				choose := func(r int, st rules.State) rules.Choice { return s.cells[s.at[st]].ch[r] }
				want := husCardDistributions(c.pairs, c.singles, c.capacity, choose)
				for _, cell := range s.cells {
					st := cell.st
					w, ok := want[st]
					if !ok {
						t.Fatalf("%v: no card-level placement", st)
					}
					fl, err := Distribution(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if len(fl.Prob) != 2*st.N+1 {
						t.Fatalf("%v: %d probabilities, want %d", st, len(fl.Prob), 2*st.N+1)
					}
					for i, p := range fl.Prob {
						l := i - st.N
						if math.Abs(p-w[l+c.pairs]) > 1e-9 {
							t.Errorf("%v: P(lead %d) = %v, card level %v", st, l, p, w[l+c.pairs])
						}
						compared++
					}
					if st.N < c.pairs || (testing.Short() && (st.J < st.N || st.F < st.S)) {
						continue
					}
					got, err := Distribution(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					res, err := Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					total, mean, wdl := new(big.Rat), new(big.Rat), new(big.Rat)
					for i, p := range got.Prob {
						total.Add(total, p)
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
						if g, _ := p.Float64(); math.Abs(g-fl.Prob[i]) > 1e-12 {
							t.Errorf("%v: P(lead %d) = %s exactly, %v in float64", st, i-st.N, p.RatString(), fl.Prob[i])
						}
					}
					wdl.Add(wdl, got.Win).Add(wdl, got.Draw).Add(wdl, got.Loss)
					if total.Cmp(big.NewRat(1, 1)) != 0 || wdl.Cmp(total) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
						t.Errorf("%v: the distribution sums to %s (win, draw and loss %s) with mean %s; Evaluate: %s pairs", st,
							total.RatString(), wdl.RatString(), mean.RatString(), res.ExpectedPairs.RatString())
					}
				}
			})
		}
	}
	if compared == 0 {
		t.Fatal("no probability compared")
	}
}

// TestHandoverSingletonsDistributionIdentities: a capacity of 2n + s never forgets, so the score
// distribution is perfect memory's with singletons; with no singletons it is the pairs-only
// handover-uniform model's; exactly, for fixed policies, the optimum and a best reply.
func TestHandoverSingletonsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	same := func(t *testing.T, what string, got, want ScoreDistribution[*big.Rat]) {
		t.Helper()
		if len(got.Prob) != len(want.Prob) {
			t.Fatalf("%s: %d probabilities, want %d", what, len(got.Prob), len(want.Prob))
		}
		for i, p := range got.Prob {
			if p.Cmp(want.Prob[i]) != 0 {
				t.Errorf("%s: P(share %d/2) = %s, want %s", what, i, p.RatString(), want.Prob[i].RatString())
			}
		}
		if got.Win.Cmp(want.Win) != 0 || got.Draw.Cmp(want.Draw) != 0 || got.Loss.Cmp(want.Loss) != 0 {
			t.Errorf("%s: win, draw, loss %s %s %s, want %s %s %s", what, got.Win.RatString(), got.Draw.RatString(),
				got.Loss.RatString(), want.Win.RatString(), want.Draw.RatString(), want.Loss.RatString())
		}
	}
	for _, mu := range husLineups {
		name := fmt.Sprintf("%s-%s", mu.Policy, mu.Opponent)
		// A capacity that never forgets.
		n, s := 3, 2
		st := rules.State{N: n, J: n - 1, S: s, F: s - 1}
		got, err := Distribution(ctx, field.Rat{}, husModel(s, 2*n+s), mu, st)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Distribution(ctx, field.Rat{}, Model{Singletons: s}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		same(t, name+" capacity 2n+s", got, want)
		// No singletons: the singletons solver against the pairs model's sweep.
		pairs := Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}}
		for _, st := range []rules.State{{N: 4, J: 4}, {N: 4, J: 2}} {
			got, err := husDistribution(ctx, field.Rat{}, pairs, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Distribution(ctx, field.Rat{}, pairs, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			same(t, fmt.Sprintf("%s %v no singletons", name, st), got, want)
		}
	}
}
