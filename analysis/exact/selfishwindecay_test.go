package exact_test

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

// decayWinCase is a decay memory played at card level and the solver's model of it.
type decayWinCase struct {
	card  cardMemory
	model exact.Model
}

// decayWinCases are the decay memories of the win objective's checks: q = 1/2 and 1/10, without
// a capacity and (not under -short) with capacity 2.
func decayWinCases() []decayWinCase {
	var out []decayWinCase
	for _, q := range []struct {
		dec float64
		rat *big.Rat
	}{{0.5, big.NewRat(1, 2)}, {0.1, big.NewRat(1, 10)}} {
		for _, capacity := range []int{0, 2} {
			out = append(out, decayWinCase{
				card:  cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: q.rat},
				model: exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q.dec}},
			})
		}
	}
	return out
}

// TestSelfWinDecayCardLevel plays every seat win-optimal, lineups mixing win-optimal with fixed
// policies and the decay optimum of every seat for itself, and a win-best-response seat, card by
// card under decay forgetting (q = 1/2 and 1/10) at three seats, from the full deal of 2 and 3
// pairs with no pairs taken and with uneven pairs so far: every seat's P(most pairs), P(alone
// with the most), P(tied) and expected pairs at every position reached are the card-level values
// of that play (value iteration over the positions), and no win-optimal mover gains by a
// one-step deviation.
func TestSelfWinDecayCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, W, W},
		{B, rules.PolicySafe, rules.PolicyDaring},
		{W, B, W},
	}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}}
	sizes := []int{2, 3}
	cases := decayWinCases()
	if testing.Short() {
		// Every seat win-optimal at 3 pairs (at 2 pairs of three seats the first pair taken
		// decides the game, whatever the standings), the mixed lineups at 2.
		cases = []decayWinCase{cases[0], cases[2]}
	}
	total := 0
	for _, c := range cases {
		for _, n := range sizes {
			for _, seats := range lineups {
				for _, start := range starts {
					every := seats[1] == W && seats[2] == W && seats[0] == W
					if testing.Short() && (every != (n == 3) || !every && start[1] == 1 || every && (start[1] == 1) != (c == cases[0])) {
						continue
					}
					t.Run(fmt.Sprintf("%v/n=%d/%v/%v", c.card, n, seats, start), func(t *testing.T) {
						total += checkWinCardLevelModel(t, c.card, c.model, exact.SeatLineup(seats...), n, start)
					})
				}
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// TestSelfWinDecayScoresSumToOne checks every count state and standings of three and four seats
// under decay: the scores add up to 1 exactly, and the mover's choice is among its best choices
// wherever the profile is an equilibrium in pure choices (SelfWinGaps).
func TestSelfWinDecayScoresSumToOne(t *testing.T) {
	ctx := context.Background()
	sizes := []struct{ players, maxN int }{{3, 4}, {4, 3}}
	cases := decayWinCases()
	if testing.Short() {
		sizes, cases = []struct{ players, maxN int }{{3, 3}, {4, 2}}, cases[:1]
	}
	for _, c := range cases {
		m := c.model
		for _, sz := range sizes {
			gaps, err := exact.SelfWinGaps[*big.Rat](ctx, field.Rat{}, m, sz.players, sz.maxN)
			if err != nil {
				t.Fatal(err)
			}
			gap := map[string]bool{}
			for _, g := range gaps {
				gap[fmt.Sprint(g.State, g.Deficits)] = true
			}
			cells := selfWinCells[*big.Rat](t, field.Rat{}, m, sz.players, sz.maxN)
			if len(cells) == 0 {
				t.Fatalf("%v, %d seats: no cells", m.Memory, sz.players)
			}
			for key, c := range cells {
				sum := new(big.Rat)
				for _, x := range c.Score {
					sum.Add(sum, x)
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%v, %d seats, %s: scores %s sum to %s", m.Memory, sz.players, key, ratsString(c.Score), sum.RatString())
				}
				in := false
				for _, b := range c.Best {
					in = in || b == c.Choice
				}
				if !in && !gap[key] {
					t.Errorf("%v, %d seats, %s: choice %v is not among the best %v and no gap is listed", m.Memory, sz.players, key, c.Choice, c.Best)
				}
			}
		}
	}
}

// TestSelfWinDecayTwoSeatsIsTheWinObjective checks that the sweep at two seats under decay gives
// the two-player win objective's P(win) + P(draw)/2 under decay (the lead sweep) at every lead.
func TestSelfWinDecayTwoSeatsIsTheWinObjective(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	maxN := 5
	cases := decayWinCases()
	if testing.Short() {
		maxN, cases = 4, cases[:2]
	}
	for _, dc := range cases {
		m := dc.model
		want := map[string]*big.Rat{}
		err := exact.WinTable[*big.Rat](ctx, field.Rat{}, m, mu, maxN, func(c *exact.WinCell[*big.Rat]) error {
			st := c.State.Counts()
			d := []int{max(-c.State.Lead, 0), max(c.State.Lead, 0)}
			for i := range d {
				d[i] = min(d[i], st.N+1)
			}
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
				t.Errorf("%v, %v deficits %v: score %s, two-player objective %s", m.Memory, c.State, c.Deficits, c.Score[0].RatString(), w.RatString())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared < len(want)/2 {
			t.Errorf("%v: compared %d of %d cells", m.Memory, compared, len(want))
		}
	}
}

// TestSelfWinDecayFloatAgrees checks that float64 gives exact rationals' scores and choices at
// three seats under decay.
func TestSelfWinDecayFloatAgrees(t *testing.T) {
	maxN := 4
	cases := decayWinCases()
	if testing.Short() {
		maxN, cases = 3, cases[:2]
	}
	for _, c := range cases {
		m := c.model
		exactCells := selfWinCells[*big.Rat](t, field.Rat{}, m, 3, maxN)
		for key, g := range selfWinCells[float64](t, field.Float{}, m, 3, maxN) {
			w := exactCells[key]
			for s := range g.Score {
				x, _ := w.Score[s].Float64()
				if math.Abs(g.Score[s]-x) > 1e-12 {
					t.Errorf("%v, %s: seat %d float64 %v, exact %v", m.Memory, key, s, g.Score[s], x)
				}
			}
			if g.Choice != w.Choice {
				t.Errorf("%v, %s: float64 chooses %v, exact %v", m.Memory, key, g.Choice, w.Choice)
			}
		}
	}
}
