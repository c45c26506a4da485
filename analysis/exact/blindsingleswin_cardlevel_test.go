package exact_test

// The win objective under blind flips with singletons and perfect memory at two seats
// (docs/models.md §4.13, §4.17, "Singletons"), checked card by card: every deal's turns are played
// with blindCardTurn (every card at every unremembered position, the safe move's remembered card a
// half-known pair's before a seen singleton), the seats' choices read from the solver's tables,
// and the values of that play found by value iteration over the card-level positions (winGraph).

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

// blindSinglesWinModel is blind flips with s singletons, perfect memory and pass rule never.
func blindSinglesWinModel(s int) exact.Model {
	return exact.Model{Pass: rules.PassNever, Singletons: s, Variant: rules.Variant{Flips: rules.FlipsBlind}}
}

// TestBlindSinglesWinTwoSeatsCardLevel plays win-optimal against itself and win-best-response
// against safe and daring card by card under blind flips with singletons and perfect memory.
func TestBlindSinglesWinTwoSeatsCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := []exact.Lineup{
		{Players: 2, Policy: W, Opponent: W},
		{Players: 2, Policy: B, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: B},
	}
	sizes := [][2]int{{2, 1}, {2, 2}, {3, 1}}
	if testing.Short() {
		sizes, lineups = sizes[:1], lineups[:1]
	}
	total := 0
	for _, ns := range sizes {
		for _, mu := range lineups {
			st := rules.State{N: ns[0], J: ns[0], S: ns[1], F: ns[1]}
			total += checkBlindWinTwoSeatsFrom(t, cardMemory{}, blindSinglesWinModel(ns[1]), mu, st)
		}
	}
	t.Logf("%d values compared", total)
}

// TestBlindSinglesWinIdentities checks blind flips with singletons to win against identities,
// under every pass rule: P(win) + P(draw) + P(loss) = 1; the score distribution's mean is the
// expected pairs Evaluate gives and its win/draw/loss are WinDrawLoss's; float64 agrees with exact.
func TestBlindSinglesWinIdentities(t *testing.T) {
	ctx := context.Background()
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := []exact.Lineup{{Players: 2, Policy: W, Opponent: W}, {Players: 2, Policy: B, Opponent: rules.PolicyDaring}}
	passes := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	sizes := [][2]int{{3, 1}, {4, 2}}
	if testing.Short() {
		sizes, lineups, passes = sizes[:1], lineups[:1], passes[2:]
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	for _, pass := range passes {
		for _, ns := range sizes {
			for _, mu := range lineups {
				m := exact.Model{Pass: pass, Singletons: ns[1], Variant: rules.Variant{Flips: rules.FlipsBlind}}
				st := rules.State{N: ns[0], J: ns[0], S: ns[1], F: ns[1]}
				name := fmt.Sprintf("%s %v %s/%s", pass, ns, mu.Policy, mu.Opponent)
				x, err := exact.WinDrawLoss[float64](ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				q, err := exact.WinDrawLoss[*big.Rat](ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				d, err := exact.Distribution[float64](ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				r, err := exact.Evaluate[float64](ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				w := x[0]
				if !near(w.Win+w.Draw+w.Loss, 1) {
					t.Errorf("%s: P(win)+P(draw)+P(loss) = %v", name, w.Win+w.Draw+w.Loss)
				}
				fw, _ := q[0].Win.Float64()
				fd, _ := q[0].Draw.Float64()
				if !near(fw, w.Win) || !near(fd, w.Draw) {
					t.Errorf("%s: float64 %v, exact win %v draw %v", name, w, fw, fd)
				}
				if !near(d.Win, w.Win) || !near(d.Draw, w.Draw) || !near(d.Loss, w.Loss) {
					t.Errorf("%s: distribution's win/draw/loss %v %v %v, WinDrawLoss %v", name, d.Win, d.Draw, d.Loss, w)
				}
				mean := 0.0
				for i, p := range d.Prob {
					mean += p * float64(i) / 2
				}
				if !near(mean, r.ExpectedPairs) {
					t.Errorf("%s: distribution's mean %v, expected pairs %v", name, mean, r.ExpectedPairs)
				}
			}
		}
	}
}
