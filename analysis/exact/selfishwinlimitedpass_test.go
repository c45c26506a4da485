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

// limitedPassModels are the limited memories and pass rules the identities below run over.
func limitedPassModels() []exact.Model {
	var out []exact.Model
	for _, pr := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, m := range limitedWinModels() {
			m.Pass = pr
			out = append(out, m)
		}
	}
	return out
}

// TestSelfWinLimitedPassScoresSumToOne checks every count state, standings and pass streak of
// three and four seats under lru and handover-uniform and the pass rules two-known and always:
// the scores add up to 1 exactly, and the mover's choice is among its best choices (no one-step
// deviation gains) wherever SelfWinGaps lists no gap.
func TestSelfWinLimitedPassScoresSumToOne(t *testing.T) {
	ctx := context.Background()
	sizes := []struct{ players, maxN int }{{3, 5}, {4, 3}}
	models := limitedPassModels()
	if testing.Short() {
		sizes = []struct{ players, maxN int }{{3, 4}, {4, 2}}
		models = []exact.Model{models[1], models[4], models[6], models[11]}
	}
	for _, m := range models {
		for _, sz := range sizes {
			gaps, err := exact.SelfWinGaps[*big.Rat](ctx, field.Rat{}, m, sz.players, sz.maxN)
			if err != nil {
				t.Fatal(err)
			}
			gap := map[string]bool{}
			for _, g := range gaps {
				gap[fmt.Sprint(g.State, g.Deficits, g.Passes)] = true
			}
			streaks := map[int]int{}
			for key, c := range passWinCells[*big.Rat](t, field.Rat{}, m, sz.players, sz.maxN) {
				streaks[c.Passes]++
				sum := new(big.Rat)
				for _, x := range c.Score {
					sum.Add(sum, x)
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%v, %s, %d seats, %s: scores %s sum to %s", m.Memory, m.Pass, sz.players, key, ratsString(c.Score), sum.RatString())
				}
				in := false
				for _, b := range c.Best {
					in = in || b == c.Choice
				}
				if !in && !gap[key] {
					t.Errorf("%v, %s, %d seats, %s: choice %v is not among the best %v and no gap is listed", m.Memory, m.Pass, sz.players, key, c.Choice, c.Best)
				}
			}
			if len(streaks) != sz.players {
				t.Errorf("%v, %s, %d seats: cells at %d streaks", m.Memory, m.Pass, sz.players, len(streaks))
			}
		}
	}
}

// TestSelfWinLimitedPassLargeCapacityIsPerfect checks that a capacity of 2n gives perfect
// memory's table under the same pass rule exactly: every seat's score, every choice's score and
// the choice at every count state, standings and streak.
func TestSelfWinLimitedPassLargeCapacityIsPerfect(t *testing.T) {
	n := 5
	if testing.Short() {
		n = 3
	}
	for _, pr := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, players := range []int{3, 4} {
			maxN := n
			if players == 4 {
				maxN = n - 1
			}
			want := passWinCells[*big.Rat](t, field.Rat{}, exact.Model{Pass: pr}, players, maxN)
			for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
				m := exact.Model{Pass: pr, Memory: rules.Memory{Capacity: 2 * maxN, Forget: fg}}
				got := passWinCells[*big.Rat](t, field.Rat{}, m, players, maxN)
				if len(got) != len(want) {
					t.Fatalf("%v, %s, %d seats: %d cells, perfect memory %d", m.Memory, pr, players, len(got), len(want))
				}
				for key, w := range want {
					g := got[key]
					if ratsString(g.Score) != ratsString(w.Score) || g.Choice != w.Choice {
						t.Errorf("%v, %s, %d seats, %s: %s (%v), perfect memory %s (%v)", m.Memory, pr, players, key, ratsString(g.Score), g.Choice, ratsString(w.Score), w.Choice)
					}
					for ch, legal := range w.Legal {
						if legal && g.ChoiceScore[ch].Cmp(w.ChoiceScore[ch]) != 0 {
							t.Errorf("%v, %s, %d seats, %s: choice %v scores %s, perfect memory %s", m.Memory, pr, players, key, rules.Choice(ch), g.ChoiceScore[ch].RatString(), w.ChoiceScore[ch].RatString())
						}
					}
				}
			}
		}
	}
}

// TestSelfWinLimitedPassTwoSeatsIsTheWinObjective checks that the sweep at two seats under
// limited memory and a pass rule gives the two-player win objective's P(win) + P(draw)/2 under
// the same memory and pass rule at every lead, at streak 0 (the value of a zero-sum game,
// whichever equilibrium is selected).
func TestSelfWinLimitedPassTwoSeatsIsTheWinObjective(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	maxN, models := 6, limitedPassModels()
	if testing.Short() {
		maxN, models = 4, []exact.Model{models[1], models[4], models[6], models[11]}
	}
	for _, m := range models {
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
			if !ok || c.Passes != 0 {
				return nil
			}
			compared++
			if c.Score[0].Cmp(w) != 0 {
				t.Errorf("%v, %s, %v deficits %v: score %s, two-player objective %s", m.Memory, m.Pass, c.State, c.Deficits, c.Score[0].RatString(), w.RatString())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared < len(want)/2 {
			t.Errorf("%v, %s: compared %d of %d cells", m.Memory, m.Pass, compared, len(want))
		}
	}
}

// TestSelfWinLimitedPassFloatAgrees checks that float64 gives exact rationals' scores and choices
// at every streak.
func TestSelfWinLimitedPassFloatAgrees(t *testing.T) {
	models := limitedPassModels()
	if testing.Short() {
		models = []exact.Model{models[1], models[10]}
	}
	for _, m := range models {
		exactCells := passWinCells[*big.Rat](t, field.Rat{}, m, 3, 4)
		for key, g := range passWinCells[float64](t, field.Float{}, m, 3, 4) {
			w := exactCells[key]
			for s := range g.Score {
				x, _ := w.Score[s].Float64()
				if math.Abs(g.Score[s]-x) > 1e-12 {
					t.Errorf("%v, %s, %s: seat %d float64 %v, exact %v", m.Memory, m.Pass, key, s, g.Score[s], x)
				}
			}
			if g.Choice != w.Choice {
				t.Errorf("%v, %s, %s: float64 chooses %v, exact %v", m.Memory, m.Pass, key, g.Choice, w.Choice)
			}
		}
	}
}

// TestSelfWinLimitedPassReplyAtLeastWinOptimal checks that win-best-response against
// win-optimal at the other seats under a pass rule scores at least what win-optimal in its place
// does, and against safe at the others at least what safe in its place does.
func TestSelfWinLimitedPassReplyAtLeastWinOptimal(t *testing.T) {
	ctx := context.Background()
	W, B, S := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe
	all := limitedPassModels()
	st, starts, models := rules.State{N: 5, J: 5}, [][]int{{1, 0, 0}, {0, 0, 2}}, []exact.Model{all[1], all[4], all[6], all[11]}
	if testing.Short() {
		st, starts, models = rules.State{N: 3, J: 3}, starts[:1], []exact.Model{all[10]} // three pairs, one start, one model
	}
	for _, m := range models {
		for _, start := range starts {
			for _, c := range []struct{ reply, others []rules.Policy }{
				{[]rules.Policy{B, W, W}, []rules.Policy{W, W, W}},
				{[]rules.Policy{B, S, S}, []rules.Policy{S, S, S}},
			} {
				r, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.reply...), st, start)
				if err != nil {
					t.Fatal(err)
				}
				o, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.others...), st, start)
				if err != nil {
					t.Fatal(err)
				}
				if r.Score[0].Cmp(o.Score[0]) < 0 {
					t.Errorf("%v, %s, %v, %v: the reply scores %s, %v in its place %s", m.Memory, m.Pass, c.reply, start, r.Score[0].RatString(), c.others[0], o.Score[0].RatString())
				}
			}
		}
	}
}
