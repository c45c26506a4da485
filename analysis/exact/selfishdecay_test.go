package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat for itself under decay forgetting (docs/models.md §4.7, §4.14), checked against the
// card-level turns and against values derived without the decay rows.

// anyDecide returns the choice of a table in every state it covers, whatever the choice.
func anyDecide(t *testing.T, tab *rules.ChoiceTable) func(st rules.State) rules.Choice {
	return func(st rules.State) rules.Choice {
		c, ok := tab.Lookup(st, false)
		if !ok {
			t.Fatalf("table in %v: no choice", st)
		}
		return c
	}
}

// TestSelfishDecayIsEquilibriumCardLevel checks the optimum of every seat for itself under decay
// forgetting at three and four seats: value iteration on the card-level turns, every seat
// following the solver's table, gives the solver's vectors, and in every state no choice made
// once, the table followed afterwards, gives the mover more, except in the states SelfishGaps
// lists, by at most the gain it reports.
func TestSelfishDecayIsEquilibriumCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	for _, dc := range decayCases() {
		if dc.mem.Decay == 0.5 && testing.Short() {
			continue
		}
		chain, err := decayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem}
		for _, p := range []int{3, 4} {
			t.Run(fmt.Sprintf("%v/p=%d", dc.card, p), func(t *testing.T) {
				decide := anyDecide(t, selfishTable(t, model, p, maxN))
				gaps, err := exact.SelfishGaps(ctx, field.Float{}, model, p, maxN)
				if err != nil {
					t.Fatal(err)
				}
				gapAt := map[rules.State]float64{}
				for _, g := range gaps {
					gapAt[g.State] = g.Gain
				}
				v := chain.iterateSeats(p, decide)
				states := make([]rules.State, 0, len(v))
				for st := range v {
					states = append(states, st)
				}
				sort.Slice(states, func(a, b int) bool { return fmt.Sprint(states[a]) < fmt.Sprint(states[b]) })
				mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
				for _, st := range states {
					res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					for s := range p {
						if math.Abs(res.PairsBySeat[s]-v[st][s]) > 1e-9 {
							t.Errorf("%v seat %d: Evaluate %v, card-level value iteration %v", st, s, res.PairsBySeat[s], v[st][s])
						}
					}
					gain := 0.0
					for _, steps := range chain[st] {
						gain = math.Max(gain, chain.oneStep(steps, v, p)-v[st][0])
					}
					if math.Abs(gain-gapAt[st]) > 1e-9 {
						t.Errorf("%v: a choice made once gains the mover %v over the table's %v, SelfishGaps %v", st, gain, decide(st), gapAt[st])
					}
				}
			})
		}
	}
}

// selfishVectors returns every seat's expected pairs, in order from the mover, under the optimum
// of every seat for itself in every state of m with 1 to maxN pairs.
func selfishVectors[T any](t *testing.T, f field.Field[T], m exact.Model, p, maxN int) map[rules.State][]T {
	t.Helper()
	out := map[rules.State][]T{}
	err := exact.SelfishTable(context.Background(), f, m, p, maxN, func(c *exact.TableCell[T]) error {
		out[c.State] = append([]T(nil), c.BySeat...)
		return nil
	})
	if err != nil {
		t.Fatalf("%+v, %d players: %v", m, p, err)
	}
	return out
}

// TestSelfishDecayIdentities checks the optimum of every seat for itself under decay forgetting
// against values derived without the decay rows: the seats share the pairs left (exactly), a
// capacity of at least twice the pairs is no capacity (exactly), and q = 1e-9 is within 1e-6 of
// perfect memory's optimum.
func TestSelfishDecayIdentities(t *testing.T) {
	maxN := bySize(3, 5, 7)
	decay := func(q float64, capacity int) exact.Model {
		return exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: q, Capacity: capacity}}
	}
	for _, p := range []int{3, 4, rules.MaxPlayers} {
		for _, m := range []exact.Model{decay(0.1, 0), decay(0.1, 3)} {
			for st, v := range selfishVectors(t, field.Rat{}, m, p, maxN) {
				if s := idSum(v); s.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
					t.Errorf("%v, %d players, %v: seats sum to %s", m.Memory, p, st, s.RatString())
				}
			}
		}
		none := selfishVectors(t, field.Rat{}, decay(0.25, 0), p, maxN)
		wide := selfishVectors(t, field.Rat{}, decay(0.25, 2*maxN), p, maxN)
		for st, a := range none {
			for s := range p {
				if a[s].Cmp(wide[st][s]) != 0 {
					t.Errorf("%d players, %v seat %d: no capacity %s, capacity %d %s", p, st, s,
						a[s].RatString(), 2*maxN, wide[st][s].RatString())
				}
			}
		}
		tiny := selfishVectors(t, field.Float{}, decay(1e-9, 0), p, maxN)
		perfect := selfishVectors(t, field.Float{}, exact.Model{}, p, maxN)
		for st, want := range perfect {
			for s := range p {
				if math.Abs(tiny[st][s]-want[s]) > 1e-6 {
					t.Errorf("%d players, %v seat %d: q = 1e-9 %v, perfect memory %v", p, st, s, tiny[st][s], want[s])
				}
			}
		}
	}
}

// TestSelfishDecayLineups checks lineups that mix optimal with fixed policies under decay
// forgetting: every seat's pairs agree with value iteration on the card-level turns, each optimal
// seat following the table of every seat for itself.
func TestSelfishDecayLineups(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	o, sa, da := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lineups := [][]rules.Policy{{o, sa, da}, {da, o, o}, {o, da, sa, o}}
	dc := decayCase{
		card: cardMemory{capacity: 3, forget: rules.ForgetDecay, q: big.NewRat(1, 4)},
		mem:  rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.25},
	}
	chain, err := decayChain(dc.card, maxN)
	if err != nil {
		t.Fatal(err)
	}
	model := exact.Model{Memory: dc.mem}
	for _, pols := range lineups {
		p := len(pols)
		decide := anyDecide(t, selfishTable(t, model, p, maxN))
		want := chain.iterateLineup(pols, decide)
		mu := exact.SeatLineup(pols...)
		for st, w := range want {
			res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
			if err != nil {
				t.Fatalf("%v, %v: %v", pols, st, err)
			}
			for s := range p {
				if math.Abs(res.PairsBySeat[s]-w[s]) > 1e-9 {
					t.Errorf("%v, %v: pairs by seat %v, card level %v", pols, st, res.PairsBySeat, w)
					break
				}
			}
		}
	}
}

// iterateLineup returns every seat's expected pairs in every state of the chain with seat 0 to
// move, seat r playing pols[r] (optimal following decide), by iterating to a fixed point.
func (ch cardChain) iterateLineup(pols []rules.Policy, decide func(rules.State) rules.Choice) map[rules.State][]float64 {
	p := len(pols)
	// v[r][st][s]: seat s's expected pairs when seat r is to move in st.
	v := make([]map[rules.State][]float64, p)
	for r := range v {
		v[r] = map[rules.State][]float64{}
		for st := range ch {
			v[r][st] = make([]float64, p)
		}
	}
	get := func(r int, st rules.State) []float64 {
		if st.N == 0 {
			return make([]float64, p)
		}
		return v[r][st]
	}
	for range 1_000_000 {
		delta := 0.0
		for st := range ch {
			for r := range p {
				c := decide(st)
				if pols[r] != rules.PolicyOptimal {
					c = pols[r].Decide(st)
				}
				nv := make([]float64, p)
				for _, s := range ch[st][c] {
					mover, gain := r, s.key.moverGain
					if !s.key.cont {
						mover, gain = (r+1)%p, s.key.nextGain
					}
					next := get(mover, s.key.next)
					for i := range nv {
						x := next[i]
						if i == mover {
							x += float64(gain)
						}
						nv[i] += s.p * x
					}
				}
				for i := range nv {
					delta = math.Max(delta, math.Abs(nv[i]-v[r][st][i]))
				}
				v[r][st] = nv
			}
		}
		if delta < 1e-14 {
			return v[0]
		}
	}
	panic("value iteration did not converge")
}
