package strategies_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysSeatReplyUnderVariants builds best-response to a policy at three seats under k
// copies of a face (sequential and blind flips, with and without a turn limit) and under a turn
// limit in the standard game, seats it beside two players of that policy, plays every deal with
// the engine and compares every seat's mean pairs over the deals with the solver's values.
func TestEnginePlaysSeatReplyUnderVariants(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces    int
		v        rules.Variant
		opponent string
	}
	games := []game{
		{3, rules.Variant{Copies: 4}, "safe"},
		{3, rules.Variant{Copies: 4}, "optimal"},
		{3, rules.Variant{Copies: 4, TurnLimit: 4}, "daring"},
		{2, rules.Variant{Copies: 6, Flips: rules.FlipsBlind}, "safe"},
		{5, rules.Variant{TurnLimit: 4}, "safe"},
		{5, rules.Variant{TurnLimit: 6}, "optimal"},
	}
	for _, g := range games {
		copies := g.v.CopiesOf()
		pairs := g.faces * copies / 2
		t.Run(fmt.Sprintf("%v/%d pairs/%s", g.v, pairs, g.opponent), func(t *testing.T) {
			env := strategies.Env{MaxPairs: pairs, Players: 3, Variant: g.v, Tables: strategies.NewTables()}
			reply, err := strategies.Build(ctx, strategies.Spec{Name: "br", Policy: "best-response", Opponent: g.opponent}, env)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(reply.Table, "3-player best response to "+g.opponent) {
				t.Errorf("table %q, want the 3-player best response to %s", reply.Table, g.opponent)
			}
			other, err := strategies.Build(ctx, strategies.Spec{Name: g.opponent, Policy: g.opponent}, env)
			if err != nil {
				t.Fatal(err)
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: g.v, Players: []sim.Player{reply.Player, other.Player, other.Player}})
			if err != nil {
				t.Fatal(err)
			}
			sum, count := make([]int64, 3), int64(0)
			everyDeal(g.faces, copies, func(deal []int) {
				if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
					t.Fatal(err)
				}
				for s, p := range gm.Outcome().Pairs {
					sum[s] += int64(p)
				}
				count++
			})
			x, err := rules.ParsePolicy(g.opponent)
			if err != nil {
				t.Fatal(err)
			}
			mu := exact.Lineup{Players: 3, Policy: rules.PolicyBestResponse, Opponent: x}
			want, err := exact.Evaluate(ctx, field.Rat{}, exact.Model{Variant: g.v}, mu, rules.State{N: pairs, J: pairs})
			if err != nil {
				t.Fatal(err)
			}
			for s := range sum {
				if m := big.NewRat(sum[s], count); m.Cmp(want.PairsBySeat[s]) != 0 {
					t.Errorf("seat %d takes %v pairs on average over %d deals, the solver %v", s, m, count, want.PairsBySeat[s])
				}
			}
		})
	}
}
