package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctLimitLineups are the two-seat matchups the identities below check.
var fluctLimitLineups = [][2]rules.Policy{
	{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicySafe},
	{rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyBestResponse, rules.PolicyDaring},
	{rules.PolicyOptimal, rules.PolicyBestResponse},
}

// TestFluctLimitWithoutFluctuationIsTheLimitModel checks that the sweep of a fluctuating capacity
// under a turn limit, run with σ = 0 (every turn draws the base capacity), gives exactly the
// values of the fixed-capacity limit model (limit.go), a second method: lead and pairs of every
// matchup, lru and handover-uniform, pass rules never and two-known.
func TestFluctLimitWithoutFluctuationIsTheLimitModel(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	minN, maxN, limits := 1, 6, []int{1, 2, 3, 5, 8}
	if testing.Short() {
		minN, maxN, limits = 4, 4, []int{4}
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			for _, limit := range limits {
				m := Model{Memory: rules.Memory{Capacity: 3, Forget: forget}, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for _, lu := range fluctLimitLineups {
					mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
					s, err := newFluctLimitSweep(f, m, mu, maxN)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.run(ctx); err != nil {
						t.Fatal(err)
					}
					for n := minN; n <= maxN; n++ {
						for k := 0; k <= min(n, 3); k++ {
							st := rules.State{N: n, J: n - k}
							want, err := Evaluate(ctx, f, m, mu, st)
							if err != nil {
								t.Fatal(err)
							}
							c := s.cell(n, k, limit)
							got := c.opt[0]
							if s.needRoles {
								got = c.role[0][0]
							}
							pairs := new(big.Rat).Quo(new(big.Rat).Add(got.total, got.lead), big.NewRat(2, 1))
							if got.lead.Cmp(want.ExpectedLead) != 0 || pairs.Cmp(want.ExpectedPairs) != 0 {
								t.Errorf("%s %s limit %d %s-%s %v: fluct sweep lead %s pairs %s, limit model %s, %s", m.Memory, pass, limit, lu[0], lu[1], st,
									got.lead.RatString(), pairs.RatString(), want.ExpectedLead.RatString(), want.ExpectedPairs.RatString())
							}
						}
					}
				}
			}
		}
	}
}

// TestFluctLimitBeyondTheGameIsTheFluctModel checks that a turn limit the game almost never
// reaches gives the values of the fluctuating capacity without a limit (fluct.go, solved as a
// system of equations per row): lead and pairs within the probability that the game lasts longer
// (a forgotten card makes the game's length unbounded), and seats' pairs that add up to the deal.
// The matchups' values are unique (the optimum's self-play, fixed policies and best replies).
func TestFluctLimitBeyondTheGameIsTheFluctModel(t *testing.T) {
	ctx := context.Background()
	f := field.Float{}
	maxN, limit := 6, 400
	if testing.Short() {
		maxN, limit = 4, 100
	}
	for _, mem := range []rules.Memory{
		{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, {Capacity: 3, Forget: rules.ForgetHandoverUniform, Fluctuation: 1},
		{Capacity: 2, Forget: rules.ForgetLRU, Fluctuation: 2},
	} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			for _, lu := range [][2]rules.Policy{
				{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyBestResponse, rules.PolicySafe},
			} {
				mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
				name := fmt.Sprintf("%s %s %s-%s", mem, pass, lu[0], lu[1])
				free := Model{Memory: mem, Pass: pass}
				limited := free
				limited.Variant.TurnLimit = limit
				for n := 1; n <= maxN; n++ {
					st := rules.State{N: n, J: n}
					want, err := Evaluate(ctx, f, free, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got, err := Evaluate(ctx, f, limited, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if math.Abs(got.ExpectedLead-want.ExpectedLead) > 1e-9 || math.Abs(got.ExpectedPairs-want.ExpectedPairs) > 1e-9 {
						t.Errorf("%s n=%d: limit %d lead %.12f pairs %.12f, no limit %.12f %.12f", name, n, limit, got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
					}
					if sum := got.PairsBySeat[0] + got.PairsBySeat[1]; math.Abs(sum-float64(n)) > 1e-9 {
						t.Errorf("%s n=%d: seats' pairs add up to %.12f", name, n, sum)
					}
				}
			}
		}
	}
}

// TestFluctLimitExactAndFloatAgree checks the exact and the float64 solve against each other,
// every seat's pairs within the deal, and that a longer limit credits no fewer pairs to fixed
// policies.
func TestFluctLimitExactAndFloatAgree(t *testing.T) {
	ctx := context.Background()
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}
	pairs, limits := 5, 6
	if testing.Short() {
		pairs, limits = 4, 4
	}
	for _, lu := range fluctLimitLineups {
		mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
		prev := -1.0
		for limit := 1; limit <= limits; limit++ {
			m := Model{Memory: mem, Variant: rules.Variant{TurnLimit: limit}}
			st := rules.State{N: pairs, J: pairs}
			x, err := Evaluate(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			y, err := Evaluate(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			xl, _ := x.ExpectedLead.Float64()
			xp, _ := x.ExpectedPairs.Float64()
			if math.Abs(xl-y.ExpectedLead) > 1e-12 || math.Abs(xp-y.ExpectedPairs) > 1e-12 {
				t.Errorf("%s-%s limit %d: exact %s %s, float64 %.15f %.15f", lu[0], lu[1], limit, x.ExpectedLead.RatString(), x.ExpectedPairs.RatString(), y.ExpectedLead, y.ExpectedPairs)
			}
			sum := y.PairsBySeat[0] + y.PairsBySeat[1]
			if y.PairsBySeat[0] < -1e-12 || y.PairsBySeat[1] < -1e-12 || sum > float64(pairs)+1e-12 {
				t.Errorf("%s-%s limit %d: seats' pairs %v", lu[0], lu[1], limit, y.PairsBySeat)
			}
			if lu[0].Fixed() && lu[1].Fixed() && sum < prev-1e-12 {
				t.Errorf("%s-%s limit %d: %.12f pairs credited, fewer than %.12f with a turn fewer", lu[0], lu[1], limit, sum, prev)
			}
			prev = sum
		}
	}
}
