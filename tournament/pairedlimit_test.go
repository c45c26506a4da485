package tournament_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// pairedLimit is a paired tournament under a turn limit that leaves pairs on the table in most
// games.
const pairedLimit = `name: paired-limit
seed: 5
games: 1000
paired: true
rules: {pairs: [8], turn_limit: 10}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
`

// Under a turn limit the pairs left count for nobody, and a pairing's advantage is a quarter of
// the first player's lead over the second in a deal's two games: its raw and luck-adjusted
// intervals cover the exact advantage, worked out from the exact pairs of both seats in both seat
// orders.
func TestPairingAdvantageUnderATurnLimitIsHalfTheLead(t *testing.T) {
	ctx := context.Background()
	cfg, err := configs.Parse("paired-limit.yaml", []byte(pairedLimit), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(ctx, tournament.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	run, err := tr.Report(ctx, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Pairings) != 1 || len(run.Matchups) != 2 {
		t.Fatalf("%d pairings, %d matchups", len(run.Pairings), len(run.Matchups))
	}
	// The exact advantage of the first player (optimal): its lead over safe in each seat order.
	want, left := new(big.Rat), new(big.Rat)
	for _, mu := range run.Matchups {
		first := 0
		if mu.Players[0] != "optimal" {
			first = 1
		}
		var v [2]*big.Rat
		for s := range 2 {
			if mu.ExactPairs[s] == nil {
				t.Fatalf("%v: no exact pairs", mu.Players)
			}
			var ok bool
			if v[s], ok = new(big.Rat).SetString(*mu.ExactPairs[s]); !ok {
				t.Fatalf("exact pairs %q", *mu.ExactPairs[s])
			}
		}
		want.Add(want, new(big.Rat).Sub(v[first], v[1-first]))
		left.Add(left, new(big.Rat).Sub(big.NewRat(8, 1), new(big.Rat).Add(v[0], v[1])))
	}
	want.Quo(want, big.NewRat(4, 1))
	w, _ := want.Float64()
	if l, _ := left.Float64(); l < 1 {
		t.Fatalf("%.3f pairs left per two games: the limit hardly binds", l)
	}
	p := run.Pairings[0]
	if p.CI95[0] > w || w > p.CI95[1] {
		t.Errorf("raw advantage %.4f [%.4f, %.4f] misses the exact %.4f", p.MeanAdvantage, p.CI95[0], p.CI95[1], w)
	}
	if p.LuckAdjusted == nil {
		t.Fatal("no luck-adjusted advantage")
	}
	if l := p.LuckAdjusted; l.CI95[0] > w || w > l.CI95[1] {
		t.Errorf("adjusted advantage %.4f [%.4f, %.4f] misses the exact %.4f", l.MeanAdvantage, l.CI95[0], l.CI95[1], w)
	}
}
