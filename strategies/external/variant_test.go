package external_test

import (
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
)

// variantSetups are deals under every rule variant, alone and together.
var variantSetups = []struct {
	pairs, singletons int
	variant           rules.Variant
}{
	{6, 0, rules.Variant{Copies: 4}},
	{6, 1, rules.Variant{Copies: 6}},
	{5, 1, rules.Variant{Flips: rules.FlipsBlind}},
	{5, 0, rules.Variant{TurnLimit: 5}},
	{6, 0, rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 7}},
}

// TestProcessPlaysEveryVariant seats the Go client's Daring example player and a state-view player
// of choices, both declaring every variant, under each variant against a built-in player: every
// game is played to its end without a fault, the process's record of each game agreeing with
// every event and request (the client refuses a request whose blind flag or turn does not fit
// the game), and the limit ends games.
func TestProcessPlaysEveryVariant(t *testing.T) {
	limited := 0
	for _, vs := range variantSetups {
		for _, mode := range []string{"client-daring", "client-first-choice"} {
			limited += playVariant(t, mode, vs.pairs, vs.singletons, vs.variant)
		}
	}
	if limited == 0 {
		t.Error("no game ended at its turn limit: the test does not cover it")
	}
}

// playVariant plays 12 games of the test player of the given mode against a built-in player
// under the variant, and returns the number that ended at the turn limit.
func playVariant(t *testing.T, mode string, pairs, singletons int, variant rules.Variant) int {
	t.Helper()
	ext, log := newTestPlayer(t, mode, external.Command{Variant: variant})
	opponent := strategyPlayer("greedy", strategies.GreedyRandom{}.Flip)
	g, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singletons, Variant: variant,
		Players: []sim.Player{{Name: mode, NewStrategy: ext.Strategy}, opponent}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	limited, taken := 0, 0
	for d := range uint64(12) {
		if err := g.Play(sim.GameID{Seed: 3, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
			t.Fatalf("%s, %v: game %d: %v\n%s", mode, variant, d, err, log)
		}
		o := g.Outcome()
		if o.Fault != 0 {
			t.Fatalf("%s, %v: game %d: fault %v", mode, variant, d, o.Fault)
		}
		taken += o.Pairs[0]
		if o.Limited {
			limited++
		}
	}
	if taken == 0 {
		t.Errorf("%s, %v: the process took no pair in 12 games", mode, variant)
	}
	return limited
}

// TestProcessWithoutTheVariantIsRefused checks that a process that declares no variant is refused
// a variant game at its handshake, with an error naming the rule it lacks.
func TestProcessWithoutTheVariantIsRefused(t *testing.T) {
	for _, c := range []struct {
		variant rules.Variant
		rule    string
	}{
		{rules.Variant{Copies: 4}, `"copies"`},
		{rules.Variant{Flips: rules.FlipsBlind}, `"flips"`},
		{rules.Variant{TurnLimit: 9}, `"turn_limit"`},
	} {
		ext, _ := newTestPlayer(t, "greedy", external.Command{Variant: c.variant})
		g, err := sim.NewGame(sim.Setup{Pairs: 4, Variant: c.variant,
			Players: []sim.Player{{Name: "greedy-process", NewStrategy: ext.Strategy}, strategyPlayer("greedy", strategies.GreedyRandom{}.Flip)}})
		if err != nil {
			t.Fatal(err)
		}
		err = g.Play(sim.GameID{Seed: 1}, nil)
		g.Close()
		if err == nil || !strings.Contains(err.Error(), "does not declare the rule variant "+c.rule) || !strings.Contains(err.Error(), c.variant.String()) {
			t.Errorf("%v: error %v, want one naming the rule %s", c.variant, err, c.rule)
		}
	}
}
