package exact_test

// The win objective at three or more seats under decay forgetting with singletons and under blind
// flips with decay forgetting (docs/models.md §4.7, "Win objective", §4.14, §4.17): card-level
// play (every deal of the cards not remembered, each remembered card forgotten with probability q
// at a hand-over, then the capacity's excess), and identities: the scores add up to 1, float64
// agrees with exact, two seats give the two-player win objective, q = 1e-9 gives perfect memory's
// values where no tie of choices is broken apart by q's effect.

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

// TestSelfWinDecaySinglesCardLevel plays every seat win-optimal and win-optimal beside safe and
// daring card by card under decay forgetting with one singleton (q = 1/2, no capacity) at three
// seats from the full deal of 2 pairs (-short: 1 pair, every seat win-optimal), with no pairs
// taken and with uneven pairs so far: every seat's values at every position reached are the
// card-level values of that play, and no win-optimal mover gains by a one-step deviation.
func TestSelfWinDecaySinglesCardLevel(t *testing.T) {
	W := rules.PolicyWinOptimal
	lineups := [][]rules.Policy{{W, W, W}, {W, rules.PolicySafe, rules.PolicyDaring}}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}}
	sizes := []int{2}
	var cases []decayWinCase
	for _, q := range []*big.Rat{big.NewRat(1, 2), big.NewRat(1, 10)} {
		for _, capacity := range []int{0, 3} {
			dec, _ := q.Float64()
			cases = append(cases, decayWinCase{
				card:  cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: q},
				model: exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: dec}, Singletons: 1},
			})
		}
	}
	if testing.Short() {
		cases, sizes, lineups, starts = cases[:1], []int{1}, lineups[:1], starts[1:]
	} else {
		cases = cases[:1]
	}
	total := 0
	for _, c := range cases {
		for _, n := range sizes {
			for _, seats := range lineups {
				for _, start := range starts {
					t.Run(fmt.Sprintf("%v/n=%d/%v/%v", c.card, n, seats, start), func(t *testing.T) {
						total += checkWinCardLevelModel(t, c.card, c.model, exact.SeatLineup(seats...), n, start)
					})
				}
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// TestSelfWinBlindDecayCardLevel plays every seat win-optimal card by card under blind flips with
// decay forgetting (q = 1/4, no capacity and capacity 3) at three seats from the full deal of 2
// pairs (-short: 1 pair, no capacity, seat 0 a pair ahead), as
// TestSelfWinDecaySinglesCardLevel does.
func TestSelfWinBlindDecayCardLevel(t *testing.T) {
	W := rules.PolicyWinOptimal
	sizes := []int{2}
	caps := []int{0, 3}
	starts := [][]int{{0, 0, 0}, {1, 0, 0}}
	if testing.Short() {
		sizes, caps, starts = []int{1}, caps[:1], starts[1:]
	}
	total := 0
	for _, capacity := range caps {
		m := cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: big.NewRat(1, 4)}
		model := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.25}, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		for _, n := range sizes {
			for _, start := range starts {
				t.Run(fmt.Sprintf("%v/n=%d/%v", m, n, start), func(t *testing.T) {
					total += checkWinCardLevelModel(t, m, model, exact.SeatLineup(W, W, W), n, start)
				})
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// decaySinglesWinModels are the models of the identities: decay with singletons (q = 1/5, no
// capacity and capacity 3; 1 and 2 singletons) and blind flips with decay (q = 1/5, no capacity).
func decaySinglesWinModels() []exact.Model {
	return []exact.Model{
		{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}, Singletons: 1},
		{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}, Singletons: 2},
		{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}, Variant: rules.Variant{Flips: rules.FlipsBlind}},
	}
}

// TestSelfWinDecaySinglesScoresSumToOne checks every count state and standings of three seats up
// to 2 pairs (and four at 1 pair), one singleton without a capacity and blind flips, under decay with singletons and blind flips with decay: the scores add up
// to 1 exactly, and float64 gives the exact scores and choices (-short: the first model, 1
// pair).
func TestSelfWinDecaySinglesScoresSumToOne(t *testing.T) {
	sizes := []struct{ players, maxN int }{{3, 2}, {4, 1}}
	models := decaySinglesWinModels()
	models = []exact.Model{models[0], models[2]}
	if testing.Short() {
		sizes, models = []struct{ players, maxN int }{{3, 1}}, models[:1]
	}
	for _, m := range models {
		for _, sz := range sizes {
			cells := selfWinCells[*big.Rat](t, field.Rat{}, m, sz.players, sz.maxN)
			floats := selfWinCells[float64](t, field.Float{}, m, sz.players, sz.maxN)
			if len(cells) == 0 || len(cells) != len(floats) {
				t.Fatalf("%+v, %d seats: %d exact cells, %d float64", m, sz.players, len(cells), len(floats))
			}
			for key, c := range cells {
				sum := new(big.Rat)
				for _, x := range c.Score {
					sum.Add(sum, x)
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%+v, %d seats, %s: scores %s sum to %s", m, sz.players, key, ratsString(c.Score), sum.RatString())
				}
				g := floats[key]
				for s := range g.Score {
					if x, _ := c.Score[s].Float64(); math.Abs(g.Score[s]-x) > 1e-12 {
						t.Errorf("%+v, %s: seat %d float64 %v, exact %v", m, key, s, g.Score[s], x)
					}
				}
				if g.Choice != c.Choice {
					t.Errorf("%+v, %s: float64 chooses %v, exact %v", m, key, g.Choice, c.Choice)
				}
			}
		}
	}
}

// TestSelfWinDecaySinglesTwoSeatsIsTheWinObjective checks that the sweep at two seats under decay
// with singletons and under blind flips with decay gives the two-player win objective's P(win) +
// P(draw)/2 (the lead sweep) at every lead (-short: the first model, 2 pairs).
func TestSelfWinDecaySinglesTwoSeatsIsTheWinObjective(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	maxN, models := 3, decaySinglesWinModels()
	if testing.Short() {
		maxN, models = 2, models[:1]
	}
	for _, m := range models {
		want := map[string]*big.Rat{}
		err := exact.WinTable[*big.Rat](ctx, field.Rat{}, m, mu, maxN, func(c *exact.WinCell[*big.Rat]) error {
			st := c.State.Counts()
			d := []int{min(max(-c.State.Lead, 0), st.N+1), min(max(c.State.Lead, 0), st.N+1)}
			want[fmt.Sprint(st, d)] = new(big.Rat).Set(c.Value)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		err = exact.SelfWinTableTwoSeats[*big.Rat](ctx, field.Rat{}, m, maxN, func(c *exact.SelfWinCell[*big.Rat]) error {
			w, ok := want[fmt.Sprint(c.State, c.Deficits)]
			if !ok {
				return nil
			}
			compared++
			if c.Score[0].Cmp(w) != 0 {
				t.Errorf("%+v, %v deficits %v: score %s, two-player objective %s", m, c.State, c.Deficits, c.Score[0].RatString(), w.RatString())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared < len(want)/2 {
			t.Errorf("%+v: compared %d of %d cells", m, compared, len(want))
		}
	}
}

// TestSelfWinDecaySinglesNearPerfectMemory checks that q = 1e-9 gives, within 1e-6, perfect
// memory's values of every seat at three seats from full deals whose choices tie nowhere q's
// effect could break them apart: singletons (2, 3 and 4 pairs and 1 singleton; -short: 2), and
// blind flips from deals with every pair half-known.
func TestSelfWinDecaySinglesNearPerfectMemory(t *testing.T) {
	ctx := context.Background()
	blind := rules.Variant{Flips: rules.FlipsBlind}
	cases := []struct {
		model exact.Model
		st    rules.State
	}{
		{exact.Model{Singletons: 1}, rules.State{N: 2, J: 2, S: 1, F: 1}},
		{exact.Model{Singletons: 1}, rules.State{N: 3, J: 3, S: 1, F: 1}},
		{exact.Model{Singletons: 1}, rules.State{N: 4, J: 4, S: 1, F: 1}},
		{exact.Model{Variant: blind}, rules.State{N: 3, J: 0}},
		{exact.Model{Variant: blind}, rules.State{N: 4, J: 0}},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, tc := range cases {
		tiny := tc.model
		tiny.Memory = rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}
		x, err := exact.EvaluateSelfWin[float64](ctx, field.Float{}, tiny, 3, tc.st, nil)
		if err != nil {
			t.Fatal(err)
		}
		y, err := exact.EvaluateSelfWin[float64](ctx, field.Float{}, tc.model, 3, tc.st, nil)
		if err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			if math.Abs(x.Score[s]-y.Score[s]) > 1e-6 || math.Abs(x.Pairs[s]-y.Pairs[s]) > 1e-6 {
				t.Errorf("%+v, %v, seat %d: q = 1e-9 scores %v (pairs %v), perfect memory %v (%v)", tc.model, tc.st, s, x.Score[s], x.Pairs[s], y.Score[s], y.Pairs[s])
			}
		}
	}
}
