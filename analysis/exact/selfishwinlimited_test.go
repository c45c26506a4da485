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

// limitedWinModels are the limited memories the identities below run over.
func limitedWinModels() []exact.Model {
	var out []exact.Model
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, c := range []int{2, 3, 4} {
			out = append(out, exact.Model{Memory: rules.Memory{Capacity: c, Forget: fg}})
		}
	}
	return out
}

// selfWinCells returns the cells of the win objective's table keyed by state and standings,
// copied (the table reuses its cell).
func selfWinCells[T any](t *testing.T, f field.Field[T], m exact.Model, players, maxN int) map[string]exact.SelfWinCell[T] {
	t.Helper()
	out := map[string]exact.SelfWinCell[T]{}
	err := exact.SelfWinTable(context.Background(), f, m, players, maxN, func(c *exact.SelfWinCell[T]) error {
		cp := *c
		cp.Score = append([]T(nil), c.Score...)
		cp.Deficits = append([]int(nil), c.Deficits...)
		cp.Best = append([]rules.Choice(nil), c.Best...)
		out[fmt.Sprint(c.State, c.Deficits)] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("%v, %d seats: %v", m.Memory, players, err)
	}
	return out
}

// TestSelfWinLimitedScoresSumToOne checks every count state and standings of three and four
// seats under lru and handover-uniform: the scores add up to 1 exactly, and the mover's choice is
// among its best choices wherever the profile is an equilibrium in pure choices (SelfWinGaps).
func TestSelfWinLimitedScoresSumToOne(t *testing.T) {
	ctx := context.Background()
	sizes := []struct{ players, maxN int }{{3, 5}, {4, 3}}
	if testing.Short() {
		sizes = []struct{ players, maxN int }{{3, 4}, {4, 2}}
	}
	for _, m := range limitedWinModels() {
		for _, sz := range sizes {
			gaps, err := exact.SelfWinGaps[*big.Rat](ctx, field.Rat{}, m, sz.players, sz.maxN)
			if err != nil {
				t.Fatal(err)
			}
			gap := map[string]bool{}
			for _, g := range gaps {
				gap[fmt.Sprint(g.State, g.Deficits)] = true
			}
			for key, c := range selfWinCells[*big.Rat](t, field.Rat{}, m, sz.players, sz.maxN) {
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

// TestSelfWinLimitedLargeCapacityIsPerfect checks that a capacity of 2n gives perfect memory's
// table exactly: every seat's score and the choice in every count state and standings.
func TestSelfWinLimitedLargeCapacityIsPerfect(t *testing.T) {
	n := 5
	if testing.Short() {
		n = 4
	}
	for _, players := range []int{3, 4} {
		maxN := n
		if players == 4 {
			maxN = n - 2
		}
		want := selfWinCells[*big.Rat](t, field.Rat{}, exact.Model{}, players, maxN)
		for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			m := exact.Model{Memory: rules.Memory{Capacity: 2 * maxN, Forget: fg}}
			got := selfWinCells[*big.Rat](t, field.Rat{}, m, players, maxN)
			if len(got) != len(want) {
				t.Fatalf("%v, %d seats: %d cells, perfect memory %d", m.Memory, players, len(got), len(want))
			}
			for key, w := range want {
				g := got[key]
				if ratsString(g.Score) != ratsString(w.Score) || g.Choice != w.Choice {
					t.Errorf("%v, %d seats, %s: %s (%v), perfect memory %s (%v)", m.Memory, players, key, ratsString(g.Score), g.Choice, ratsString(w.Score), w.Choice)
				}
			}
		}
	}
}

// TestSelfWinLimitedTwoSeatsIsTheWinObjective checks that the sweep at two seats under limited
// memory gives the two-player win objective's P(win) + P(draw)/2 at every lead (the value of a
// zero-sum game, whichever equilibrium is selected).
func TestSelfWinLimitedTwoSeatsIsTheWinObjective(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	maxN := 6
	if testing.Short() {
		maxN = 4
	}
	for _, m := range limitedWinModels() {
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

// TestSelfWinLimitedFloatAgrees checks that float64 gives exact rationals' scores and choices.
func TestSelfWinLimitedFloatAgrees(t *testing.T) {
	for _, m := range limitedWinModels() {
		exactCells := selfWinCells[*big.Rat](t, field.Rat{}, m, 3, 4)
		for key, g := range selfWinCells[float64](t, field.Float{}, m, 3, 4) {
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

// TestSelfWinLimitedReplyAtLeastWinOptimal checks that win-best-response against win-optimal at
// the other seats scores at least what win-optimal in its place does, and against safe at the
// others at least what win-optimal and safe in its place do, from the full deal and uneven
// standings.
func TestSelfWinLimitedReplyAtLeastWinOptimal(t *testing.T) {
	ctx := context.Background()
	W, B, S := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe
	st, starts, models := rules.State{N: 5, J: 5}, [][]int{{0, 0, 0}, {1, 0, 0}, {0, 0, 2}}, limitedWinModels()
	if testing.Short() {
		st, starts, models = rules.State{N: 4, J: 4}, starts[1:2], []exact.Model{models[1], models[5]}
	}
	for mi, m := range models {
		for _, start := range starts {
			for ci, c := range []struct{ reply, others []rules.Policy }{
				{[]rules.Policy{B, W, W}, []rules.Policy{W, W, W}},
				{[]rules.Policy{B, S, S}, []rules.Policy{W, S, S}},
				{[]rules.Policy{B, S, S}, []rules.Policy{S, S, S}},
			} {
				if testing.Short() && (mi+ci)%2 != 0 {
					continue // the short form takes the comparisons in turn by model
				}
				r, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.reply...), st, start)
				if err != nil {
					t.Fatal(err)
				}
				o, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.others...), st, start)
				if err != nil {
					t.Fatal(err)
				}
				if r.Score[0].Cmp(o.Score[0]) < 0 {
					t.Errorf("%v, %v, %v: the reply scores %s, %v in its place %s", m.Memory, c.reply, start, r.Score[0].RatString(), c.others[0], o.Score[0].RatString())
				}
			}
		}
	}
}
