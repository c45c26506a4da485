package configs_test

import (
	"fmt"

	"memsim/configs"
)

func ExampleParse() {
	opts := configs.Options{
		Policies: []string{"optimal", "parity", "best-response"},
		Opponents: func(policy string) []string {
			if policy == "best-response" {
				return []string{"optimal", "parity"}
			}
			return nil
		},
		MaxPairs: 500,
	}
	src := []byte(`games: 1000
rules: {pairs: [12, 26]}
players:
  - {name: optimal, policy: optimal}
  - {name: br, policy: best-response, opponent: parity}
  - {name: forgetful, policy: optimal, memory: {capacity: 7, forget: lru}}
`)
	t, err := configs.Parse("configs/classic.yaml", src, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Name, t.Seed, t.Games, t.Format, t.Paired, t.Rules.Pairs, t.Rules.Pass)
	for _, p := range t.Players {
		fmt.Printf("%s at %d:%d\n", p.Name, p.Pos.Line, p.Pos.Column)
	}

	_, err = configs.Parse("configs/bad.yaml", []byte("gmaes: 1000\n"), opts)
	fmt.Println(err)
	// Output:
	// classic 1 1000 round-robin false [12 26] never
	// optimal at 4:5
	// br at 5:5
	// forgetful at 6:5
	// configs/bad.yaml:1:1: unknown key "gmaes" (allowed: name, seed, games, workers, paired, luck_adjusted, format, rules, players, output, stop, records)
}
