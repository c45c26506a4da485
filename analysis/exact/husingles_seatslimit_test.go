package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestHandoverSingletonsSeatsLimitIdentities checks the model at three and four seats under a turn
// limit against identities: a capacity of 2n+s never forgets, so every seat's values and each
// choice's equal perfect-memory singletons' under the same limit; float64 agrees with exact
// rationals; a limit long enough that it almost never binds gives the values of the model without
// a limit (husingles_seats.go) to within 1e-6; and the table's choice with t turns left is the
// first best of ChoiceValues solved from that state with the limit t.
func TestHandoverSingletonsSeatsLimitIdentities(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		pairs, singles, players, limit int
		pass                           rules.PassRule
		seats                          []rules.Policy
		short                          bool
	}
	cases := []tc{
		{2, 1, 3, 4, rules.PassNever, nil, true},
		{3, 1, 3, 6, rules.PassAlways, nil, false},
		{3, 2, 4, 5, rules.PassTwoKnown, nil, false},
		{3, 1, 3, 5, rules.PassNever, []rules.Policy{rules.PolicyBestResponse, rules.PolicySafe, rules.PolicyOptimal}, false},
		{2, 2, 4, 6, rules.PassAlways, []rules.Policy{rules.PolicyDaring, rules.PolicyOptimal, rules.PolicyParity, rules.PolicyBestResponse}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(fmt.Sprintf("%d+%ds/p%d/T%d/%s/%v", c.pairs, c.singles, c.players, c.limit, c.pass, c.seats), func(t *testing.T) {
			mu := Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			if c.seats != nil {
				mu = SeatLineup(c.seats...)
			}
			capacity := 2*c.pairs + c.singles
			m := husModel(c.singles, capacity)
			m.Pass, m.Variant.TurnLimit = c.pass, c.limit
			perfect := Model{Singletons: c.singles, Pass: c.pass, Variant: rules.Variant{TurnLimit: c.limit}}
			for j := 0; j <= c.pairs; j++ {
				for f := 0; f <= c.singles; f++ {
					st := rules.State{N: c.pairs, J: j, S: c.singles, F: f}
					got, err := ChoiceValues(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatalf("%v: %v", st, err)
					}
					want, err := ChoiceValues(ctx, field.Rat{}, perfect, mu, st)
					if err != nil {
						t.Fatalf("%v, perfect memory: %v", st, err)
					}
					fl, err := ChoiceValues(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatalf("%v, float64: %v", st, err)
					}
					for s := range c.players {
						if got.Value.PairsBySeat[s].Cmp(want.Value.PairsBySeat[s]) != 0 {
							t.Errorf("%v seat %d: capacity %d %v, perfect memory %v", st, s, capacity, got.Value.PairsBySeat[s], want.Value.PairsBySeat[s])
						}
						x, _ := got.Value.PairsBySeat[s].Float64()
						if math.Abs(x-fl.Value.PairsBySeat[s]) > 1e-12 {
							t.Errorf("%v seat %d: exact %v, float64 %v", st, s, x, fl.Value.PairsBySeat[s])
						}
					}
					if len(got.Values) != len(want.Values) {
						t.Fatalf("%v: %d choices, perfect memory %d", st, len(got.Values), len(want.Values))
					}
					for i, v := range got.Values {
						w := want.Values[i]
						if v.Choice != w.Choice || v.Pairs.Cmp(w.Pairs) != 0 || v.Best != w.Best {
							t.Errorf("%v %s: %v (best %v), perfect memory %s %v (best %v)", st, v.Choice, v.Pairs, v.Best, w.Choice, w.Pairs, w.Best)
						}
					}
				}
			}
			// The table by turns left against ChoiceValues from each state with t turns left.
			small := husModel(c.singles, 3)
			small.Pass = c.pass
			if p := mu.SeatPolicies()[0]; p == rules.PolicyOptimal || p == rules.PolicyBestResponse {
				small.Variant.TurnLimit = c.limit
				tab, err := PolicyTable(ctx, field.Float{}, small, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				for u := 1; u <= c.limit; u++ {
					mt := small
					mt.Variant.TurnLimit = u
					for j := 0; j <= c.pairs; j++ {
						for f := 0; f <= c.singles; f++ {
							st := rules.State{N: c.pairs, J: j, S: c.singles, F: f}
							if st.Known() > 3 {
								continue
							}
							cv, err := ChoiceValues(ctx, field.Float{}, mt, mu, st)
							if err != nil {
								t.Fatal(err)
							}
							var got rules.Choice
							var ok bool
							if c.pass == rules.PassNever {
								got, ok = tab.LookupTurnsLeft(st, false, u)
							} else {
								got, ok = tab.LookupTurnsLeftPasses(st, 0, u)
							}
							if !ok || got != cv.PolicyChoice || !cv.Values[choiceIndex(cv, got)].Best {
								t.Errorf("%v t=%d: table %v (%v), ChoiceValues' choice %v, best %v", st, u, got, ok, cv.PolicyChoice, cv.Best)
							}
						}
					}
				}
			}
			// A long limit approaches the model without one.
			if testing.Short() {
				return
			}
			long := small
			long.Variant.TurnLimit = 400
			none := small
			none.Variant.TurnLimit = 0
			st := rules.State{N: c.pairs, J: c.pairs, S: c.singles, F: c.singles}
			a, err := Evaluate(ctx, field.Float{}, long, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Evaluate(ctx, field.Float{}, none, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for s := range c.players {
				if math.Abs(a.PairsBySeat[s]-b.PairsBySeat[s]) > 1e-6 {
					t.Errorf("seat %d: limit 400 %v, no limit %v", s, a.PairsBySeat[s], b.PairsBySeat[s])
				}
			}
		})
	}
}

// choiceIndex returns the index of ch in cv.Values.
func choiceIndex[T any](cv Choices[T], ch rules.Choice) int {
	for i, v := range cv.Values {
		if v.Choice == ch {
			return i
		}
	}
	return 0
}
