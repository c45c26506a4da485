package exact_test

import (
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// The estimate of every seat's distribution for a lineup that plays to win at three or more seats
// holds the seats' tables (at least one win-optimal table's cost), grows with the pairs and the
// seats, and refuses what the forward pass refuses.
func TestEstimateWinSeatsDistribution(t *testing.T) {
	win := func(p int) exact.Lineup {
		return exact.Lineup{Players: p, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	}
	dist := exact.Options{Call: exact.CallDistribution, Float: true}
	for _, m := range []exact.Model{{}, {Pass: rules.PassAlways}, {Singletons: 1}} {
		table, err := exact.Estimate(m, win(3), 10, exact.Options{Call: exact.CallPolicyTable, Float: true})
		if err != nil {
			t.Fatal(err)
		}
		c10, err := exact.Estimate(m, win(3), 10, dist)
		if err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		c20, _ := exact.Estimate(m, win(3), 20, dist)
		c4, _ := exact.Estimate(m, win(4), 10, dist)
		if c10.Ops <= table.Ops || c20.Ops <= c10.Ops || c4.Ops <= c10.Ops || c10.Bytes <= 0 {
			t.Errorf("%+v: table %g ops, 3 seats 10 pairs %g, 20 pairs %g, 4 seats %g: want each more than the one before", m, table.Ops, c10.Ops, c20.Ops, c4.Ops)
		}
	}
	for _, m := range []exact.Model{
		{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}},
		{Variant: rules.Variant{TurnLimit: 5}},
		{Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetLRU, Fluctuation: 1}},
	} {
		if _, err := exact.Estimate(m, win(3), 6, dist); err == nil {
			t.Errorf("%+v: no error", m)
		}
	}
}
