package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesPassTwoPlayerOptimalTwoCopiesIsTheStandardModel checks that the two-player optimum's
// choices at three and four seats (Lineup.TwoPlayerOptimal) with two copies of a face under pass
// rules two-known and always give the standard game's values exactly (selfishpass.go without a
// turn limit, limitpassseats.go with one, which reads the two-player optimum's choice just after a
// pass at every streak of one pass or more), every seat optimal and beside safe: in every state
// up to 4 pairs, without a limit and with 1 to 5 turns left (with -short: 3 seats all optimal under
// always, 1 to 3 turns left): the lineup's value, every seat's pairs, the policy's choice and
// every choice's pairs by seat.
func TestCopiesPassTwoPlayerOptimalTwoCopiesIsTheStandardModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs, maxLimit := testSize(3, 4, 4), testSize(3, 3, 5)
	o := rules.PolicyOptimal
	lineups := []Lineup{
		{Players: 3, Policy: o, Opponent: o, TwoPlayerOptimal: true},
		{Players: 4, Policy: o, Opponent: o, TwoPlayerOptimal: true},
		SeatLineup(o, rules.PolicySafe, o),
	}
	lineups[2].TwoPlayerOptimal = true
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for i, mu := range lineups {
			if testing.Short() && (pass != rules.PassAlways || i > 0) {
				continue // at (4, 3) with 3 turns left the choice just after a pass differs
			}
			for limit := 0; limit <= maxLimit; limit++ {
				m := Model{Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				name := fmt.Sprintf("pass %s, turn limit %d, %s (two-player optimum)", pass, limit, lineupName(mu))
				for n := 1; n <= maxPairs; n++ {
					for j := 0; j <= n; j++ {
						st := CopiesState{Unknown: []int{j}, Half: []int{n - j}}
						rs := rules.State{N: n, J: j}
						got, err := CopiesChoiceValues(ctx, f, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want, err := ChoiceValues(ctx, f, m, mu, rs)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if d := sameResult(got.Value, want.Value); d != "" {
							t.Errorf("%s in %v: %s", name, rs, d)
						}
						if got.PolicyChoice != want.PolicyChoice {
							t.Errorf("%s in %v: the policy plays %s, want %s", name, rs, got.PolicyChoice, want.PolicyChoice)
						}
						if len(got.Values) != len(want.Values) {
							t.Errorf("%s in %v: %d legal choices, want %d", name, rs, len(got.Values), len(want.Values))
							continue
						}
						for i, w := range want.Values {
							g := got.Values[i]
							if g.Choice != w.Choice {
								t.Errorf("%s in %v: choice %s, want %s", name, rs, g.Choice, w.Choice)
								continue
							}
							for s := range w.PairsBySeat {
								if g.PairsBySeat[s].Cmp(w.PairsBySeat[s]) != 0 {
									t.Errorf("%s in %v: %s: seat %d %v, want %v", name, rs, g.Choice, s, g.PairsBySeat[s], w.PairsBySeat[s])
								}
							}
						}
					}
				}
			}
		}
	}
}
