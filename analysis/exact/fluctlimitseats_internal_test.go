package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctLimitSeatsWithoutFluctuationIsTheLimitModel checks that the sweep of a fluctuating
// capacity under a turn limit at three and four seats, run with σ = 0 (every turn draws the base
// capacity), gives exactly the values of the fixed-capacity limit model (limit.go,
// limitpassseats.go, a second method): every seat's pairs of every lineup from every state of
// the row, lru and handover-uniform, pass rules never and always.
func TestFluctLimitSeatsWithoutFluctuationIsTheLimitModel(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	o, s, d, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	lineups := [][]rules.Policy{{o, o, o}, {o, s, d}, {br, d, s}, {br, o, o}, {s, o, o, d}, {o, o, o, o}}
	n, limits := 3, []int{4}
	if testing.Short() {
		lineups = [][]rules.Policy{{o, o, o}, {br, d, s}, {s, o, o, d}}
	} else {
		n, limits = 5, []int{1, 3, 7, 12}
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			for _, limit := range limits {
				m := Model{Memory: rules.Memory{Capacity: 3, Forget: forget}, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for _, seats := range lineups {
					mu := SeatLineup(seats...)
					name := fmt.Sprintf("%s/%s/limit=%d/%v", m.Memory, pass, limit, seats)
					sw, err := newFluctLimitSeats(f, m, mu, n)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if err := sw.run(ctx); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for k := 0; k <= min(n, 3); k++ {
						want, err := Evaluate(ctx, f, m, mu, rules.State{N: n, J: n - k})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						got := sw.value(n, k)
						for i := range got {
							if got[i].Cmp(want.PairsBySeat[i]) != 0 {
								t.Errorf("%s (n=%d, k=%d): seat %d: fluct sweep %s, limit model %s", name, n, k, i, got[i].RatString(), want.PairsBySeat[i].RatString())
							}
						}
					}
				}
			}
		}
	}
}
