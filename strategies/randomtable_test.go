package strategies

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
)

// randomLeadTable is a choice table of n pairs whose choice in every state, at every lead up to
// maxLead (-1: no lead), before and after a lucky first card, is drawn from rng among the legal
// ones.
func randomLeadTable(t *testing.T, rng *rand.Rand, pass rules.PassRule, n, maxLead int) *rules.ChoiceTable {
	t.Helper()
	table, err := rules.NewLeadChoiceTable(n, 0, maxLead)
	if err != nil {
		t.Fatal(err)
	}
	order := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass}
	for nn := 1; nn <= n; nn++ {
		for j := 0; j <= nn; j++ {
			for d := -max(maxLead, 0); d <= max(maxLead, 0); d++ {
				st := rules.State{N: nn, J: j, Lead: d}
				var legal []rules.Choice
				for _, c := range order {
					if rules.Legal(st, c, pass) {
						legal = append(legal, c)
					}
				}
				for _, after := range []bool{false, true} {
					table.Set(st, after, legal[rng.IntN(len(legal))])
				}
			}
		}
	}
	return table
}

// TestRandomTableMatchesTheEngine plays a table of random choices (with and without the lead in
// its states) against safe, game after game in the engine, and compares seat 0's mean pairs with
// the solver's exact value of that lineup.
func TestRandomTableMatchesTheEngine(t *testing.T) {
	const n, deals = 6, 20000
	rng := rand.New(rand.NewPCG(5, 6))
	for _, maxLead := range []int{-1, 2} {
		pass := rules.PassTwoKnown
		table := randomLeadTable(t, rng, pass, n, maxLead)
		safe, err := rules.FixedChoiceTable(rules.PolicySafe, n, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := exact.Evaluate(context.Background(), field.Float{}, exact.Model{Pass: pass},
			exact.Lineup{Players: 2, Table: table, Opponent: rules.PolicySafe}, rules.State{N: n, J: n})
		if err != nil {
			t.Fatal(err)
		}
		game, err := sim.NewGame(sim.Setup{Pairs: n, Pass: pass, Players: []sim.Player{
			{Name: "table", Table: table}, {Name: "safe", Table: safe},
		}})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq float64
		for d := range uint64(deals) {
			if err := game.Play(sim.GameID{Seed: 7, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
				t.Fatal(err)
			}
			// Shares are in units of 1/2 pair.
			x := float64(game.Outcome().Share[0]) / 2
			sum, sumSq = sum+x, sumSq+x*x
		}
		mean := sum / deals
		se := math.Sqrt((sumSq/deals - mean*mean) / deals)
		if math.Abs(mean-want.ExpectedPairs) > 4.5*se {
			t.Errorf("lead-max %d: the engine's table player makes %.4f ± %.4f pairs, the exact value %.4f",
				maxLead, mean, se, want.ExpectedPairs)
		}
	}
}
