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

// fluctLimitWinLineups are the two-seat lineups, a role playing to win, the identities below check.
var fluctLimitWinLineups = [][2]rules.Policy{
	{rules.PolicyWinOptimal, rules.PolicyWinOptimal}, {rules.PolicyWinBestResponse, rules.PolicySafe},
	{rules.PolicyWinBestResponse, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicyWinOptimal},
	{rules.PolicyWinOptimal, rules.PolicyDaring},
}

// TestFluctLimitWinWithoutFluctuationIsTheLimitWinModel checks that the sweep of a fluctuating
// capacity under a turn limit for the policies that play to win, run with σ = 0, gives exactly the
// fixed-capacity limit model's win, draw and loss probabilities and expected lead (limitwin.go, a
// second method), that win, draw and loss add up to 1, and that both roles' values hold at every
// lead: lru and handover-uniform, pass rules never and two-known.
func TestFluctLimitWinWithoutFluctuationIsTheLimitWinModel(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	ns, limits, leads := []int{2, 4}, []int{1, 3, 6}, []int{-1, 0, 2}
	if testing.Short() {
		ns, limits, leads = []int{2}, []int{3}, []int{0, 1}
	}
	one := big.NewRat(1, 1)
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			if testing.Short() && pass != rules.PassNever {
				continue
			}
			for _, limit := range limits {
				m := Model{Memory: rules.Memory{Capacity: 3, Forget: forget}, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for i, lu := range fluctLimitWinLineups {
					if testing.Short() && (i+int(forget)+int(pass))%3 != 0 {
						continue
					}
					mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
					for _, n := range ns {
						for _, lead := range leads {
							st := rules.State{N: n, J: n - 1, Lead: lead}
							name := fmt.Sprintf("%s %s limit %d %s-%s %v", m.Memory, pass, limit, lu[0], lu[1], st)
							got, err := fluctLimitWinFrom(ctx, f, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							want, err := limitWinDrawLoss(ctx, f, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							res, err := Evaluate(ctx, f, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							for r := range 2 {
								w := wdlOf(f, got[r].u, got[r].v)
								if w.Win.Cmp(want[r].Win) != 0 || w.Draw.Cmp(want[r].Draw) != 0 || w.Loss.Cmp(want[r].Loss) != 0 {
									t.Errorf("%s role %d: fluct sweep win %s draw %s loss %s, limit model %s %s %s", name, r,
										w.Win.RatString(), w.Draw.RatString(), w.Loss.RatString(), want[r].Win.RatString(), want[r].Draw.RatString(), want[r].Loss.RatString())
								}
								if s := new(big.Rat).Add(w.Win, new(big.Rat).Add(w.Draw, w.Loss)); s.Cmp(one) != 0 {
									t.Errorf("%s role %d: win, draw and loss add up to %s", name, r, s.RatString())
								}
							}
							// Without a fluctuation Evaluate is the fixed-capacity limit model's.
							if got[0].lead.Cmp(res.ExpectedLead) != 0 {
								t.Errorf("%s: fluct sweep lead %s, limit model %s", name, got[0].lead.RatString(), res.ExpectedLead.RatString())
							}
						}
					}
				}
			}
		}
	}
}

// TestFluctLimitWinBeyondTheGameIsTheFluctWinModel checks that a turn limit the game almost never
// reaches gives the fluctuating capacity's win model without a limit (fluctwin.go, solved as
// systems of equations by policy iteration): win, draw and loss probabilities and expected lead
// within 1e-9, and that a reply that plays to win scores at least what optimal, safe and daring
// score against the same opponent under the limit (their score distributions, fluctlimitdist.go).
func TestFluctLimitWinBeyondTheGameIsTheFluctWinModel(t *testing.T) {
	ctx := context.Background()
	f := field.Float{}
	n, limit := 3, 300
	if testing.Short() {
		n, limit = 2, 100
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			mem := rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}
			lim := Model{Memory: mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
			free := Model{Memory: mem, Pass: pass}
			for i, lu := range fluctLimitWinLineups {
				if testing.Short() && (i+int(forget)+int(pass))%3 != 0 {
					continue
				}
				mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
				st := rules.State{N: n, J: n, Lead: 1}
				name := fmt.Sprintf("%s %s %s-%s %v", mem, pass, lu[0], lu[1], st)
				got, err := WinDrawLoss(ctx, f, lim, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := WinDrawLoss(ctx, f, free, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for r := range 2 {
					if math.Abs(got[r].Win-want[r].Win) > 1e-9 || math.Abs(got[r].Draw-want[r].Draw) > 1e-9 || math.Abs(got[r].Loss-want[r].Loss) > 1e-9 {
						t.Errorf("%s role %d: limit %d win %.12f draw %.12f loss %.12f, without a limit %.12f %.12f %.12f", name, r, limit,
							got[r].Win, got[r].Draw, got[r].Loss, want[r].Win, want[r].Draw, want[r].Loss)
					}
				}
				gl, err := Evaluate(ctx, f, lim, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				wl, err := Evaluate(ctx, f, free, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if math.Abs(gl.ExpectedLead-wl.ExpectedLead) > 1e-9 {
					t.Errorf("%s: limit %d lead %.12f, without a limit %.12f", name, limit, gl.ExpectedLead, wl.ExpectedLead)
				}
				if lu[0] != rules.PolicyWinBestResponse {
					continue
				}
				score := got[0].Score(f)
				for _, p := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
					d, err := Distribution(ctx, f, lim, Lineup{Players: 2, Policy: p, Opponent: lu[1]}, st)
					if err != nil {
						t.Fatalf("%s: %s: %v", name, p, err)
					}
					if s := d.Win + d.Draw/2; s > score+1e-12 {
						t.Errorf("%s: %s scores %.12f, more than the win best response's %.12f", name, p, s, score)
					}
				}
			}
		}
	}
}
