package strategies_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysCopiesWinTable builds win-optimal (against itself) and win-best-response to safe
// under copies, under sequential and blind flips, without and under a turn limit, plays every deal of small decks with the engine,
// and compares every seat's pairs, wins and draws over the deals with a card-by-card reference
// that reads the copies model's table to win at the mover's lead (and the turns left), exactly,
// and seat 0's wins and draws with the model's probabilities.
func TestEnginePlaysCopiesWinTable(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies, limit int
		policy, opponent     string
		flips                rules.Flips
	}
	var games []game
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		games = append(games, game{2, 4, 0, "win-optimal", "", flips}, game{3, 4, 0, "win-optimal", "", flips},
			game{2, 6, 0, "win-optimal", "", flips}, game{3, 4, 0, "win-best-response", "safe", flips},
			game{2, 4, 3, "win-optimal", "", flips}, game{3, 4, 4, "win-optimal", "", flips},
			game{3, 4, 5, "win-best-response", "safe", flips})
	}
	for _, g := range games {
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies, TurnLimit: g.limit, Flips: g.flips}
		name := fmt.Sprintf("%d faces of %d, %s flips, turn limit %d, %s %s", g.faces, g.copies, g.flips, g.limit, g.policy, g.opponent)
		env := strategies.Env{MaxPairs: pairs, Players: 2, Variant: v, Tables: strategies.NewTables()}
		build := func(policy, opponent string) sim.Player {
			b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return b.Player
		}
		other := g.opponent
		if other == "" {
			other = g.policy
		}
		seats := []sim.Player{build(g.policy, g.opponent), build(other, "")}
		model := exact.Model{Variant: v}
		p0, p1 := rules.PolicyWinOptimal, rules.PolicyWinOptimal
		if g.opponent == "safe" {
			p0, p1 = rules.PolicyWinBestResponse, rules.PolicySafe
		}
		mu := exact.Lineup{Players: 2, Policy: p0, Opponent: p1}
		var layers []*rules.CopiesTable
		var err error
		if g.limit == 0 {
			var ct *rules.CopiesTable
			ct, err = exact.CopiesWinPolicyTable(ctx, field.Rat{}, model, mu, pairs)
			layers = []*rules.CopiesTable{ct}
		} else {
			layers, err = exact.CopiesWinPolicyTurnTables(ctx, field.Rat{}, model, mu, pairs)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		choose := func(m copiesMove) rules.Choice {
			if m.seat == 1 && p1 == rules.PolicySafe {
				return safeOrDaring(p1, m.counts)
			}
			c, ok := layers[max(m.left, 1)-1].LookupLeadKey(rules.AppendCopiesKey(nil, m.counts), m.lead())
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v", name, m.counts)
			}
			return c
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: seats})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got, want [2][3]int64 // each seat's pairs, wins and draws
		tally := func(out *[2][3]int64, ps []int) {
			for s := range 2 {
				out[s][0] += int64(ps[s])
				switch d := ps[s] - ps[1-s]; {
				case d > 0:
					out[s][1]++
				case d == 0:
					out[s][2]++
				}
			}
		}
		count := int64(0)
		everyDeal(g.faces, g.copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			tally(&got, gm.Outcome().Pairs)
			ref := copiesRef{copies: g.copies, seats: 2, limit: g.limit, blind: g.flips == rules.FlipsBlind}
			tally(&want, refCopiesGame(deal, ref, choose).pairs)
			count++
		})
		if got != want {
			t.Errorf("%s: the engine's pairs, wins and draws by seat over %d deals %v, the reference %v", name, count, got, want)
		}
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		wc, err := exact.CopiesWinChoiceValues(ctx, field.Rat{}, model, mu, start, 0)
		if err != nil {
			t.Fatal(err)
		}
		if w, d := big.NewRat(got[0][1], count), big.NewRat(got[0][2], count); w.Cmp(wc.Value.Win) != 0 || d.Cmp(wc.Value.Draw) != 0 {
			t.Errorf("%s: seat 0 wins %v and draws %v of the deals, the copies model %v and %v", name, w, d, wc.Value.Win, wc.Value.Draw)
		}
	}
}
