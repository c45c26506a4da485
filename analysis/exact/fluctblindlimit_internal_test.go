package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctBlindLimitWithoutFluctuationIsTheBlindLimitModel checks, in exact rationals, that the
// sweeps of a fluctuating capacity under blind flips and a turn limit, run with σ = 0 (every turn
// draws the base capacity), give exactly the values of the fixed capacity's blind limit models
// (a second method): for the pair objective the lead and pairs of every matchup (fluctlimit.go
// against limit.go), and for the policies that play to win both roles' win, draw and loss
// probabilities at every lead (fluctlimitwin.go against limitwin.go); lru and handover-uniform,
// pass rules never and two-known; lru to 3 pairs, handover-uniform to 5.
func TestFluctBlindLimitWithoutFluctuationIsTheBlindLimitModel(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	blind := func(limit int) rules.Variant { return rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit} }
	maxN, limits, passes := 5, []int{2, 5}, []rules.PassRule{rules.PassNever, rules.PassTwoKnown}
	winNs, leads := []int{3}, []int{-1, 1}
	lineups, winLineups := fluctLimitLineups, fluctLimitWinLineups
	if testing.Short() {
		maxN, limits, passes, winNs, leads = 2, []int{2}, passes[:1], []int{2}, []int{0}
		lineups, winLineups = lineups[:1], winLineups[:1]
	}
	for _, forget := range []rules.Forgetting{rules.ForgetHandoverUniform} {
		for _, pass := range passes {
			for _, limit := range limits {
				m := Model{Memory: rules.Memory{Capacity: 3, Forget: forget}, Pass: pass, Variant: blind(limit)}
				for _, lu := range lineups {
					mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
					s, err := newFluctLimitSweep(f, m, mu, maxN)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.run(ctx); err != nil {
						t.Fatal(err)
					}
					for n := 1; n <= maxN; n++ {
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
								t.Errorf("%s %s limit %d %s-%s %v: fluct sweep lead %s pairs %s, blind limit model %s, %s", m.Memory, pass, limit, lu[0], lu[1], st,
									got.lead.RatString(), pairs.RatString(), want.ExpectedLead.RatString(), want.ExpectedPairs.RatString())
							}
						}
					}
				}
				for _, lu := range winLineups {
					mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
					for _, n := range winNs {
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
							for r := range 2 {
								w := wdlOf(f, got[r].u, got[r].v)
								if w.Win.Cmp(want[r].Win) != 0 || w.Draw.Cmp(want[r].Draw) != 0 || w.Loss.Cmp(want[r].Loss) != 0 {
									t.Errorf("%s role %d: fluct sweep win %s draw %s loss %s, blind limit model %s %s %s", name, r,
										w.Win.RatString(), w.Draw.RatString(), w.Loss.RatString(), want[r].Win.RatString(), want[r].Draw.RatString(), want[r].Loss.RatString())
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFluctBlindLimitBeyondTheGameIsTheBlindFluctModel checks that a turn limit the game almost
// never reaches gives the values of the fluctuating capacity under blind flips without a limit
// (fluctblind.go, solved as a system of equations per row): lead and pairs within 1e-9, and seats'
// pairs that add up to the deal; lru and handover-uniform, pass rules never and always.
func TestFluctBlindLimitBeyondTheGameIsTheBlindFluctModel(t *testing.T) {
	ctx := context.Background()
	f := field.Float{}
	maxN, limit := 5, 300
	mems := []rules.Memory{
		{Capacity: 3, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, {Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 2},
	}
	passes := []rules.PassRule{rules.PassNever, rules.PassAlways}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyBestResponse, rules.PolicySafe},
	}
	if testing.Short() {
		maxN, limit, mems, passes, lineups = 3, 100, mems[:1], passes[:1], lineups[:2]
	}
	for _, mem := range mems {
		for _, pass := range passes {
			for _, lu := range lineups {
				mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
				name := fmt.Sprintf("%s %s %s-%s", mem, pass, lu[0], lu[1])
				free := Model{Memory: mem, Pass: pass, Variant: rules.Variant{Flips: rules.FlipsBlind}}
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

// TestFluctBlindLimitExactAndFloatAgree checks the exact and the float64 solves of a fluctuating
// capacity under blind flips and a turn limit against each other: lead and pairs of the pair
// objective's matchups, and win, draw and loss of the policies that play to win.
func TestFluctBlindLimitExactAndFloatAgree(t *testing.T) {
	ctx := context.Background()
	pairs, limits := 4, []int{3, 6}
	lineups, winLineups := fluctLimitLineups, fluctLimitWinLineups
	if testing.Short() {
		pairs, limits, lineups, winLineups = 2, []int{3}, lineups[:1], winLineups[:1]
	}
	for _, forget := range []rules.Forgetting{rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
		for _, limit := range limits {
			m := Model{Memory: mem, Pass: rules.PassTwoKnown, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
			st := rules.State{N: pairs, J: pairs}
			for _, lu := range lineups {
				mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
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
					t.Errorf("%s %s-%s limit %d: exact %s %s, float64 %.15f %.15f", mem, lu[0], lu[1], limit, x.ExpectedLead.RatString(), x.ExpectedPairs.RatString(), y.ExpectedLead, y.ExpectedPairs)
				}
			}
			for _, lu := range winLineups {
				mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
				x, err := WinDrawLoss(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				y, err := WinDrawLoss(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for r := range 2 {
					xw, _ := x[r].Win.Float64()
					xd, _ := x[r].Draw.Float64()
					if math.Abs(xw-y[r].Win) > 1e-12 || math.Abs(xd-y[r].Draw) > 1e-12 {
						t.Errorf("%s %s-%s limit %d role %d: exact win %s draw %s, float64 %.15f %.15f", mem, lu[0], lu[1], limit, r, x[r].Win.RatString(), x[r].Draw.RatString(), y[r].Win, y[r].Draw)
					}
				}
			}
		}
	}
}

// TestFluctBlindLimitRefusesLRU checks that a fluctuating lru capacity under blind flips and a turn
// limit is refused in one line, for the pair objective and to win, and that the score distribution
// under blind flips and a turn limit is refused for handover-uniform forgetting too.
func TestFluctBlindLimitRefusesLRU(t *testing.T) {
	ctx := context.Background()
	st := rules.State{N: 3, J: 3}
	lru := Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 5}}
	hu := lru
	hu.Memory.Forget = rules.ForgetHandoverUniform
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"lru", func() error {
			_, err := Evaluate(ctx, field.Float{}, lru, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st)
			return err
		}(), "has no exact model"},
		{"lru to win", func() error {
			_, err := WinDrawLoss(ctx, field.Float{}, lru, Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, st)
			return err
		}(), "has no exact model"},
		{"handover-uniform distribution", func() error {
			_, err := Distribution(ctx, field.Float{}, hu, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st)
			return err
		}(), "not the score distribution"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) || strings.Contains(c.err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line saying %q", c.name, c.err, c.want)
		}
	}
}
