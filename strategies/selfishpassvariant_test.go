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

// TestEnginePlaysSelfishPassUnderVariants builds optimal at tables of three and four seats under a
// pass rule with blind flips, a turn limit or both, seats it beside fixed policies, plays every
// deal with the engine and compares every seat's mean score (a stalemate's shares included) over
// the deals with the solver's values: optimal plays the table of every seat for itself at the pass
// streak (and, under a limit, in the layer of the turns left). With one turn left a seat that
// follows two passes passes too where it would play on after one (a stalemate shares the pairs
// the limit leaves to nobody): the lineups of three optimal seats reach such turns.
func TestEnginePlaysSelfishPassUnderVariants(t *testing.T) {
	ctx := context.Background()
	games := []struct {
		pairs int
		rule  rules.PassRule
		v     rules.Variant
		seats []string
	}{
		{4, rules.PassTwoKnown, rules.Variant{Flips: rules.FlipsBlind}, []string{"optimal", "optimal", "daring"}},
		{4, rules.PassAlways, rules.Variant{Flips: rules.FlipsBlind}, []string{"optimal", "safe", "optimal"}},
		{4, rules.PassTwoKnown, rules.Variant{TurnLimit: 4}, []string{"optimal", "optimal", "optimal"}},
		{4, rules.PassAlways, rules.Variant{TurnLimit: 6}, []string{"optimal", "optimal", "daring"}},
		{4, rules.PassAlways, rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 5}, []string{"optimal", "optimal", "optimal"}},
		{3, rules.PassAlways, rules.Variant{TurnLimit: 5}, []string{"optimal", "optimal", "optimal", "optimal"}},
		{3, rules.PassTwoKnown, rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 5}, []string{"daring", "optimal", "optimal", "optimal"}},
	}
	for _, g := range games {
		p := len(g.seats)
		t.Run(fmt.Sprintf("%d seats/%s/%v/%d pairs", p, g.rule, g.v, g.pairs), func(t *testing.T) {
			env := strategies.Env{MaxPairs: g.pairs, Players: p, Pass: g.rule, Variant: g.v, Tables: strategies.NewTables()}
			players := make([]sim.Player, p)
			pols := make([]rules.Policy, p)
			for s, name := range g.seats {
				b, err := strategies.Build(ctx, strategies.Spec{Name: name, Policy: name}, env)
				if err != nil {
					t.Fatal(err)
				}
				if want := fmt.Sprintf("%d-player optimal", p); name == "optimal" && !strings.Contains(b.Table, want) {
					t.Errorf("table %q, want the %s table", b.Table, want)
				}
				players[s] = b.Player
				if pols[s], err = rules.ParsePolicy(name); err != nil {
					t.Fatal(err)
				}
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Pass: g.rule, Variant: g.v, Players: players})
			if err != nil {
				t.Fatal(err)
			}
			sum, count := make([]int64, p), int64(0)
			everyDeal(g.pairs, 2, func(deal []int) {
				if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
					t.Fatal(err)
				}
				for s, share := range gm.Outcome().Share {
					sum[s] += int64(share)
				}
				count++
			})
			m := exact.Model{Pass: g.rule, Variant: g.v}
			want, err := exact.Evaluate(ctx, field.Rat{}, m, exact.SeatLineup(pols...), rules.State{N: g.pairs, J: g.pairs})
			if err != nil {
				t.Fatal(err)
			}
			for s := range sum {
				if got := big.NewRat(sum[s], count*int64(p)); got.Cmp(want.PairsBySeat[s]) != 0 {
					t.Errorf("seat %d scores %v pairs on average over %d deals, the solver %v", s, got, count, want.PairsBySeat[s])
				}
			}
		})
	}
}
