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

// decayPassRules are the pass rules of the win objective's checks under decay.
var decayPassRules = []rules.PassRule{rules.PassTwoKnown, rules.PassAlways}

// withPass returns model m under pass rule rule.
func withPass(m exact.Model, rule rules.PassRule) exact.Model {
	m.Pass = rule
	return m
}

// TestSelfWinDecayPassCardLevel plays every seat win-optimal, lineups mixing win-optimal with
// fixed policies and the decay optimum of every seat for itself, and a win-best-response seat,
// card by card under decay forgetting (q = 1/2 and 1/10) and the pass rules two-known and always
// at three seats, from the full deal of 2 and 3 pairs with no pairs taken and with uneven pairs
// so far: a pass hands the table on through the decay hand-over, the third pass in a row ends
// the game with the pairs left shared. Every seat's P(most pairs), P(alone with the most),
// P(tied) and expected pairs at every position reached at streak 0, every seat's score and every
// legal choice's score to the mover at every streak (every seat win-optimal) are the card-level
// values of that play (value iteration), and no win-optimal mover gains by a one-step deviation
// but where SelfWinGaps lists the position.
func TestSelfWinDecayPassCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, W, W},
		{B, rules.PolicySafe, rules.PolicyDaring},
		{W, B, W},
	}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}}
	cases := decayWinCases()
	total := 0
	for ri, rule := range decayPassRules {
		for ci, c := range cases {
			for _, n := range []int{2, 3} {
				for li, seats := range lineups {
					for _, start := range starts {
						// The short form plays 2 pairs from no pairs taken without a capacity:
						// every seat win-optimal under always (q = 1/2), the win-best-response
						// seat beside safe and daring under two-known (q = 1/10).
						if testing.Short() && (n != 2 || start[1] == 1 ||
							!(li == 0 && ri == 1 && ci == 0 || li == 3 && ri == 0 && ci == 2)) {
							continue
						}
						t.Run(fmt.Sprintf("%s/%v/n=%d/%v/%v", rule, c.card, n, seats, start), func(t *testing.T) {
							total += checkPassWinCardLevelModel(t, c.card, withPass(c.model, rule), exact.SeatLineup(seats...), n, start)
						})
					}
				}
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// TestSelfWinDecayPassScoresSumToOne checks every count state, standings and pass streak of three
// and four seats under decay and the pass rules two-known and always: the scores add up to 1
// exactly, and the mover's choice is among its best choices wherever the profile is an
// equilibrium in pure choices (SelfWinGaps).
func TestSelfWinDecayPassScoresSumToOne(t *testing.T) {
	ctx := context.Background()
	sizes := []struct{ players, maxN int }{{3, 4}, {4, 3}}
	cases := decayWinCases()
	if testing.Short() {
		sizes, cases = []struct{ players, maxN int }{{3, 2}}, cases[:1]
	}
	for _, rule := range decayPassRules {
		passes := 0
		for _, c := range cases {
			m := withPass(c.model, rule)
			for _, sz := range sizes {
				gaps, err := exact.SelfWinGaps[*big.Rat](ctx, field.Rat{}, m, sz.players, sz.maxN)
				if err != nil {
					t.Fatal(err)
				}
				gap := map[string]bool{}
				for _, g := range gaps {
					gap[fmt.Sprint(g.State, g.Deficits, g.Passes)] = true
				}
				cells := passWinCells[*big.Rat](t, field.Rat{}, m, sz.players, sz.maxN)
				for key, c := range cells {
					sum := new(big.Rat)
					for _, x := range c.Score {
						sum.Add(sum, x)
					}
					if sum.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("%v, %s, %d seats, %s: scores %s sum to %s", m.Memory, rule, sz.players, key, ratsString(c.Score), sum.RatString())
					}
					in := false
					for _, b := range c.Best {
						in = in || b == c.Choice
					}
					if !in && !gap[key] {
						t.Errorf("%v, %s, %d seats, %s: choice %v is not among the best %v and no gap is listed", m.Memory, rule, sz.players, key, c.Choice, c.Best)
					}
					passes += btoi(c.Legal[rules.Pass] && c.Passes > 0)
				}
			}
		}
		if passes == 0 {
			t.Errorf("%s: no cell after a pass has a pass open", rule)
		}
	}
}

// TestSelfWinDecayPassTwoSeatsIsTheWinObjective checks that the sweep at two seats under decay
// and a pass rule gives the two-player win objective's P(win) + P(draw)/2 under decay and the
// same pass rule (the lead sweep) at every lead, with every legal choice's value (a pass's reads
// the streak after it), exactly.
func TestSelfWinDecayPassTwoSeatsIsTheWinObjective(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	maxN := 5
	cases := decayWinCases()
	if testing.Short() {
		maxN, cases = 4, cases[:2]
	}
	for _, rule := range decayPassRules {
		for _, dc := range cases {
			m := withPass(dc.model, rule)
			type want struct {
				value  *big.Rat
				legal  [rules.NumChoices]bool
				choice [rules.NumChoices]*big.Rat
			}
			wants := map[string]want{}
			err := exact.WinTable[*big.Rat](ctx, field.Rat{}, m, mu, maxN, func(c *exact.WinCell[*big.Rat]) error {
				st := c.State.Counts()
				d := []int{max(-c.State.Lead, 0), max(c.State.Lead, 0)}
				for i := range d {
					d[i] = min(d[i], st.N+1)
				}
				w := want{value: new(big.Rat).Set(c.Value), legal: c.Legal}
				for ch, v := range c.ChoiceValue {
					if c.Legal[ch] {
						w.choice[ch] = new(big.Rat).Set(v)
					}
				}
				wants[fmt.Sprint(st, d)] = w
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			compared, passes := 0, 0
			err = exact.SelfWinTableTwoSeats[*big.Rat](ctx, field.Rat{}, m, maxN, func(c *exact.SelfWinCell[*big.Rat]) error {
				w, ok := wants[fmt.Sprint(c.State, c.Deficits)]
				if !ok || c.Passes != 0 {
					return nil
				}
				compared++
				name := fmt.Sprintf("%v, %s, %v deficits %v", m.Memory, rule, c.State, c.Deficits)
				if c.Score[0].Cmp(w.value) != 0 {
					t.Errorf("%s: score %s, two-player objective %s", name, c.Score[0].RatString(), w.value.RatString())
				}
				if c.Legal != w.legal {
					t.Errorf("%s: legal %v, two-player objective %v", name, c.Legal, w.legal)
					return nil
				}
				for ch, v := range w.choice {
					if v == nil {
						continue
					}
					passes += btoi(ch == int(rules.Pass))
					if c.ChoiceScore[ch].Cmp(v) != 0 {
						t.Errorf("%s: choice %v's score %s, two-player objective %s", name, rules.Choice(ch), c.ChoiceScore[ch].RatString(), v.RatString())
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if compared < len(wants)/2 || passes == 0 {
				t.Errorf("%v, %s: compared %d of %d cells, %d with a pass", m.Memory, rule, compared, len(wants), passes)
			}
		}
	}
}

// TestSelfWinDecayPassFloatAgrees checks that float64 gives exact rationals' scores and choices
// at three seats under decay and the pass rules two-known and always, at every streak.
func TestSelfWinDecayPassFloatAgrees(t *testing.T) {
	maxN := 4
	cases := decayWinCases()
	if testing.Short() {
		maxN, cases = 2, cases[:1]
	}
	for _, rule := range decayPassRules {
		for _, c := range cases {
			m := withPass(c.model, rule)
			exactCells := passWinCells[*big.Rat](t, field.Rat{}, m, 3, maxN)
			floatCells := passWinCells[float64](t, field.Float{}, m, 3, maxN)
			if len(floatCells) != len(exactCells) {
				t.Fatalf("%v, %s: %d cells in float64, %d exact", m.Memory, rule, len(floatCells), len(exactCells))
			}
			for key, g := range floatCells {
				w := exactCells[key]
				for s := range g.Score {
					x, _ := w.Score[s].Float64()
					if math.Abs(g.Score[s]-x) > 1e-12 {
						t.Errorf("%v, %s, %s: seat %d float64 %v, exact %v", m.Memory, rule, key, s, g.Score[s], x)
					}
				}
				if g.Choice != w.Choice {
					t.Errorf("%v, %s, %s: float64 chooses %v, exact %v", m.Memory, rule, key, g.Choice, w.Choice)
				}
			}
		}
	}
}
