package exact_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctLimitSeatsLineups are the lineups at three and four seats the identities below check.
var fluctLimitSeatsLineups = [][]rules.Policy{
	{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
	{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring},
	{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicySafe},
	{rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicyOptimal},
	{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyParity},
	{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
}

// TestFluctLimitSeatsBeyondEveryGameIsNoLimit checks, in exact rationals, that with a capacity
// that never binds (m - σ >= n + 1, perfect memory) and a limit no game from the state reaches
// (every turn but a pass takes a pair or turns up a card never seen, at most 3n such turns, and at
// most p - 1 passes in a row between them), every lineup's values at three and four seats equal the
// fluctuating capacity's without a limit, under pass rules never and always; and that float64
// agrees with the exact values under a binding capacity and a short limit.
func TestFluctLimitSeatsBeyondEveryGameIsNoLimit(t *testing.T) {
	ctx := context.Background()
	sizes, lineups := []int{2, 3}, fluctLimitSeatsLineups
	forgets := []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	if testing.Short() {
		sizes, lineups, forgets = []int{2}, lineups[:3], forgets[:1]
	}
	for _, n := range sizes {
		for _, forget := range forgets {
			for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
				for _, seats := range lineups {
					p := len(seats)
					mu := exact.SeatLineup(seats...)
					mem := rules.Memory{Capacity: n + 2, Forget: forget, Fluctuation: 1}
					free := exact.Model{Memory: mem, Pass: pass}
					limited := free
					limited.Variant.TurnLimit = 3*n*p + p + 1
					st := rules.State{N: n, J: n - 1}
					name := fmt.Sprintf("n=%d/%s/%s/%v", n, forget, pass, seats)
					want, err := exact.Evaluate(ctx, field.Rat{}, free, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got, err := exact.Evaluate(ctx, field.Rat{}, limited, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range p {
						if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
							t.Errorf("%s: seat %d: limit %d %s, no limit %s", name, i, limited.Variant.TurnLimit,
								got.PairsBySeat[i].RatString(), want.PairsBySeat[i].RatString())
						}
					}
					// float64 against exact rationals, a binding capacity and a short limit.
					short := exact.Model{Memory: rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}, Pass: pass, Variant: rules.Variant{TurnLimit: 2*n + 1}}
					x, err := exact.Evaluate(ctx, field.Rat{}, short, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					y, err := exact.Evaluate(ctx, field.Float{}, short, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range p {
						v, _ := x.PairsBySeat[i].Float64()
						if d := v - y.PairsBySeat[i]; d > 1e-12 || d < -1e-12 {
							t.Errorf("%s: seat %d: float64 %.15f, exact %.15f", name, i, y.PairsBySeat[i], v)
						}
					}
				}
			}
		}
	}
}
