package sim_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
)

// variantLuckCase is a game of a rule variant, every seat a table player with perfect memory,
// adjusted from the variant's luck table.
type variantLuckCase struct {
	name  string
	setup sim.Setup
	// selfPlay: every seat plays the reference, so every game's adjusted score is V(start).
	selfPlay bool
}

// variantTable returns the table of policy pol (optimal: the optimum the luck table's values
// assume) for games of n pairs and players seats under model m.
func variantTable(t *testing.T, m exact.Model, pol rules.Policy, players, n int) *rules.ChoiceTable {
	t.Helper()
	if pol.Fixed() {
		return fixedTable(t, pol, n, 0)
	}
	ctx := context.Background()
	mu := exact.Lineup{Players: players, Policy: pol, Opponent: pol}
	if m.Variant.CopiesOf() != rules.DefaultCopies && m.Variant.TurnLimit > 0 {
		layers, err := exact.CopiesPolicyTurnTables(ctx, field.Float{}, m, mu, n)
		if err != nil {
			t.Fatal(err)
		}
		tables := make([]*rules.ChoiceTable, len(layers))
		for i, ct := range layers {
			if tables[i], err = rules.NewCopiesChoiceTable(n, ct); err != nil {
				t.Fatal(err)
			}
		}
		tb, err := rules.NewTurnChoiceTable(tables)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		ct, err := exact.CopiesPolicyTable(ctx, field.Float{}, m, mu, n)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := rules.NewCopiesChoiceTable(n, ct)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	tb, err := exact.PolicyTable(ctx, field.Float{}, m, mu, n)
	if err != nil {
		t.Fatalf("exact.PolicyTable(%+v, n=%d): %v", m, n, err)
	}
	return tb
}

// variantLuckCases are small games of every variant with an exact model: copies, a turn limit
// (under pass rules never and always), blind flips (never and two-known), blind flips with a
// turn limit, and copies under blind flips, with and without a turn limit; two seats in several
// matchups and three seats. Under the race detector the games of three faces of four copies,
// whose deals take it seconds, are left to make test-long.
func variantLuckCases(t *testing.T) []variantLuckCase {
	type game struct {
		v    rules.Variant
		pass rules.PassRule
		n    int
	}
	games := []game{
		{rules.Variant{Copies: 4}, rules.PassNever, 4},
		{rules.Variant{Copies: 6}, rules.PassNever, 6},
		{rules.Variant{Copies: 4}, rules.PassNever, 6},
		{rules.Variant{TurnLimit: 3}, rules.PassNever, 4},
		{rules.Variant{TurnLimit: 6}, rules.PassAlways, 4},
		{rules.Variant{Flips: rules.FlipsBlind}, rules.PassNever, 4},
		{rules.Variant{Flips: rules.FlipsBlind}, rules.PassTwoKnown, 4},
		{rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 4}, rules.PassNever, 3},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, rules.PassNever, 4},
		{rules.Variant{Copies: 6, Flips: rules.FlipsBlind}, rules.PassNever, 6},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, rules.PassNever, 6},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 3}, rules.PassNever, 4},
	}
	var out []variantLuckCase
	for _, gm := range games {
		if raceEnabled && gm.v.Copies == 4 && gm.n == 6 {
			continue // 34,650 deals, each played four times: make test-long plays them
		}
		m := exact.Model{Pass: gm.pass, Variant: gm.v}
		for _, seats := range [][]rules.Policy{
			{rules.PolicyOptimal, rules.PolicyOptimal},
			{rules.PolicyOptimal, rules.PolicySafe},
			{rules.PolicySafe, rules.PolicyDaring},
			{rules.PolicyDaring, rules.PolicySafe, rules.PolicyDaring},
		} {
			if len(seats) > 2 && gm.pass != rules.PassNever {
				continue
			}
			setup := sim.Setup{Pairs: gm.n, Pass: gm.pass, Variant: gm.v, Luck: luckTable(t, m, len(seats), gm.n)}
			for i, p := range seats {
				setup.Players = append(setup.Players, tablePlayer(fmt.Sprint(i), rules.Memory{}, variantTable(t, m, p, len(seats), gm.n)))
			}
			out = append(out, variantLuckCase{name: fmt.Sprintf("%s/pass=%s/n=%d/%v", gm.v, gm.pass, gm.n, seats), setup: setup,
				selfPlay: len(seats) == 2 && seats[0] == rules.PolicyOptimal && seats[1] == rules.PolicyOptimal})
		}
	}
	return out
}

// TestVariantLuckSumsToZeroOverEveryDeal plays every deal of small games of the rule variants:
// every deal is equally likely, so the luck terms, each of mean zero given what came before,
// sum to zero over the deals, and every seat's adjusted scores add up to its raw scores. Optimal
// self-play leaves no variance in the adjusted score.
func TestVariantLuckSumsToZeroOverEveryDeal(t *testing.T) {
	for _, c := range variantLuckCases(t) {
		t.Run(c.name, func(t *testing.T) {
			g, err := sim.NewGame(c.setup)
			if err != nil {
				t.Fatal(err)
			}
			k := len(c.setup.Players)
			copies := c.setup.Variant.CopiesOf()
			var faces []int
			for f := range c.setup.Variant.Faces(c.setup.Pairs) {
				for range copies {
					faces = append(faces, f)
				}
			}
			raw, adj := make([]float64, k), make([]float64, k)
			lo, hi := math.Inf(1), math.Inf(-1)
			deals := 0
			multisetPermutations(faces, func(deal []int) {
				if err := g.PlayDeal(sim.GameID{Seed: 3, Index: uint64(deals)}, deal, nil); err != nil {
					t.Fatal(err)
				}
				o := g.Outcome()
				for i := range k {
					raw[i] += float64(o.Share[i]) / float64(k)
					adj[i] += o.Adjusted[i]
				}
				lo, hi = min(lo, o.Adjusted[0]), max(hi, o.Adjusted[0])
				deals++
			})
			for i := range k {
				if d := (adj[i] - raw[i]) / float64(deals); math.Abs(d) > 1e-9 {
					t.Errorf("seat %d: mean adjusted score %.12f, mean score %.12f over %d deals", i, adj[i]/float64(deals), raw[i]/float64(deals), deals)
				}
			}
			if c.selfPlay && hi-lo > 1e-9 {
				t.Errorf("optimal self-play: adjusted scores from %.15g to %.15g, want one value", lo, hi)
			}
		})
	}
}

// TestVariantLuckCutsTheVariance plays a few thousand games of larger deals of the variants, on
// the engine's own shuffles (deterministic seeds): the adjusted scores of seat 0 vary less than
// its scores, by a clear factor.
func TestVariantLuckCutsTheVariance(t *testing.T) {
	games := 3000
	if testing.Short() {
		games = 1000
	}
	for _, c := range []struct {
		v       rules.Variant
		n       int
		players [2]rules.Policy
	}{
		{rules.Variant{Copies: 4}, 12, [2]rules.Policy{rules.PolicyOptimal, rules.PolicySafe}},
		{rules.Variant{TurnLimit: 12}, 10, [2]rules.Policy{rules.PolicyOptimal, rules.PolicySafe}},
		{rules.Variant{Copies: 4, TurnLimit: 10}, 12, [2]rules.Policy{rules.PolicyOptimal, rules.PolicySafe}},
		{rules.Variant{Flips: rules.FlipsBlind}, 10, [2]rules.Policy{rules.PolicyDaring, rules.PolicySafe}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, 12, [2]rules.Policy{rules.PolicyOptimal, rules.PolicySafe}},
	} {
		t.Run(c.v.String(), func(t *testing.T) {
			m := exact.Model{Variant: c.v}
			setup := sim.Setup{Pairs: c.n, Variant: c.v, Luck: luckTable(t, m, 2, c.n)}
			for i, p := range c.players {
				setup.Players = append(setup.Players, tablePlayer(fmt.Sprint(i), rules.Memory{}, variantTable(t, m, p, 2, c.n)))
			}
			g, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			raw, adj := make([]float64, games), make([]float64, games)
			for i := range games {
				if err := g.Play(sim.GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: uint64(i)}, nil); err != nil {
					t.Fatal(err)
				}
				raw[i] = float64(g.Outcome().Share[0]) / 2
				adj[i] = g.Outcome().Adjusted[0]
			}
			_, vr := meanVar(raw)
			_, va := meanVar(adj)
			if !(va*4 < vr) {
				t.Errorf("variance of the adjusted score %.4f, of the score %.4f: less than a factor of 4 removed", va, vr)
			}
		})
	}
}

// TestVariantLuckSetupErrors checks that a variant's games are adjusted only by a table of the same
// variant, and only when every seat follows a table.
func TestVariantLuckSetupErrors(t *testing.T) {
	limit := rules.Variant{TurnLimit: 5}
	lt := luckTable(t, exact.Model{Variant: limit}, 2, 4)
	std := luckTable(t, exact.Model{}, 2, 4)
	daring := tablePlayer("d", rules.Memory{}, fixedTable(t, rules.PolicyDaring, 4, 0))
	strat := strategyPlayer("s", rules.Memory{}, unknownFirst)
	for _, c := range []struct {
		setup sim.Setup
		want  string
	}{
		{sim.Setup{Pairs: 4, Variant: limit, Luck: std, Players: []sim.Player{daring, daring}}, "luck table of standard, the game has turn limit 5"},
		{sim.Setup{Pairs: 4, Luck: lt, Players: []sim.Player{daring, daring}}, "luck table of turn limit 5, the game has standard"},
		{sim.Setup{Pairs: 4, Variant: rules.Variant{TurnLimit: 6}, Luck: lt, Players: []sim.Player{daring, daring}}, "luck table of turn limit 5, the game has turn limit 6"},
		{sim.Setup{Pairs: 4, Variant: limit, Luck: lt, Players: []sim.Player{daring, strat}}, "other games of turn limit 5 are not luck-adjusted"},
	} {
		_, err := sim.NewGame(c.setup)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.setup.Variant, err, c.want)
		}
	}
}
