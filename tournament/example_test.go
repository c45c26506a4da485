package tournament_test

import (
	"context"
	"fmt"
	"strings"

	"memsim/configs"
	"memsim/tournament"
)

// A program runs a tournament from a configuration: parse it, lay it out, play it on the worker
// pool, and turn the tallies into report data (which report.WriteDir writes as a run folder).
func Example() {
	src := []byte(`name: example
seed: 7
paired: true
games: 20000
rules: {pairs: 8}
players:
  - {name: optimal, policy: optimal}
  - {name: daring, policy: daring}
`)
	ctx := context.Background()
	cfg, err := configs.Parse("example.yaml", src, tournament.ConfigOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := t.Play(ctx, tournament.Options{Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	run, err := t.Report(ctx, res)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range run.Matchups {
		fmt.Printf("%s: seat 0 collects %.3f pairs [%.3f, %.3f], exactly %s\n",
			strings.Join(m.Players, " vs "), m.MeanPairs[0], m.CI95[0][0], m.CI95[0][1], *m.ExactPairs[0])
	}
	p := run.Pairings[0]
	fmt.Printf("%s's advantage over %s: %.3f pairs per game\n", p.Players[0], p.Players[1], p.MeanAdvantage)
	// Output:
	// optimal vs daring: seat 0 collects 4.236 pairs [4.202, 4.270], exactly 956608/225225
	// daring vs optimal: seat 0 collects 3.421 pairs [3.388, 3.455], exactly 6941192/2027025
	// optimal's advantage over daring: 0.407 pairs per game
}
