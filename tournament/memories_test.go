package tournament_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/tournament"
)

func fluctuationConfig(sigma string) string {
	return `seed: 11
games: 300
rules: {pairs: [5, 9]}
players:
  - {name: a, policy: optimal, memory: {capacity: 4, forget: lru, scope: private` + sigma + `}}
  - {name: b, policy: safe, memory: {capacity: 3, forget: handover-uniform, scope: private` + sigma + `}}
  - {name: c, policy: daring}
`
}

// tallies plays src on the given number of workers and returns every matchup's tallies.
func tallies(t *testing.T, src string, workers int) []string {
	t.Helper()
	tr, err := parse(t, src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := tr.Play(ctx, tournament.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	r, err := tr.Report(ctx, res)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range r.Matchups {
		out = append(out, fmt.Sprint(m.Pairs, m.Players, m.ShareCounts, m.Wins, m.MeanTurns))
	}
	return out
}

// A fluctuation of 0 is no fluctuation: the same games, bit for bit.
func TestFluctuationZeroIsNone(t *testing.T) {
	a, b := tallies(t, fluctuationConfig(""), 2), tallies(t, fluctuationConfig(", fluctuation: 0"), 2)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("fluctuation 0 plays other games:\n%v\n%v", a, b)
	}
}

// A fluctuating capacity is drawn from the game's own streams: the same games on any number of
// workers, and other games than a fixed capacity.
func TestFluctuationIsDeterministic(t *testing.T) {
	src := fluctuationConfig(", fluctuation: 2")
	one, two := tallies(t, src, 1), tallies(t, src, 2)
	if fmt.Sprint(one) != fmt.Sprint(two) {
		t.Errorf("one worker and two play other games:\n%v\n%v", one, two)
	}
	if fixed := tallies(t, fluctuationConfig(""), 2); fmt.Sprint(fixed) == fmt.Sprint(two) {
		t.Error("a fluctuating capacity plays the games of a fixed one")
	}
}

// A matchup of two private lru memories of different capacities has the exact values of the
// unequal model, one of equal capacities those of the shared lru memory of that capacity (the
// two memories see the same cards and forget nothing at random, so they always hold the same
// cards), and one whose seats have different choice sets has none.
func TestUnequalMatchupsHaveExactValues(t *testing.T) {
	r := runReport(t, `seed: 2
games: 200
rules: {pairs: [5]}
players:
  - {name: a, policy: optimal, choices: [daring, safe], memory: {capacity: 4, forget: lru, scope: private}}
  - {name: b, policy: safe, choices: [daring, safe], memory: {capacity: 2, forget: lru, scope: private}}
  - {name: c, policy: optimal, choices: [daring, safe], memory: {capacity: 4, forget: lru, scope: private}}
  - {name: d, policy: optimal, memory: {capacity: 2, forget: lru, scope: private}}
`)
	want := map[string]bool{"a,b": true, "b,a": true, "b,c": true, "c,b": true, "a,c": true, "c,a": true}
	for _, m := range r.Matchups {
		key := strings.Join(m.Players, ",")
		if got := m.ExactPairs[0] != nil; got != want[key] {
			t.Errorf("%s: exact value %v, want %v", key, got, want[key])
		}
	}
	u := exact.Unequal{Choices: rules.NewChoiceSet(rules.Daring, rules.Safe), Capacity: [2]int{4, 2},
		Policy: [2]rules.Policy{rules.PolicyOptimal, rules.PolicySafe}}
	res, err := exact.EvaluateUnequal(context.Background(), field.Rat{}, u, 5)
	if err != nil {
		t.Fatal(err)
	}
	// The unequal model's card-level turns with two equal capacities, a second method.
	u.Capacity, u.Policy = [2]int{4, 4}, [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}
	same, err := exact.EvaluateUnequal(context.Background(), field.Rat{}, u, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Matchups {
		switch key := strings.Join(m.Players, ","); {
		case key == "a,b" && *m.ExactPairs[0] != res.ExpectedPairs[0].RatString():
			t.Errorf("a vs b: exact %s, the unequal model %s", *m.ExactPairs[0], res.ExpectedPairs[0].RatString())
		case key == "a,c" && *m.ExactPairs[0] != same.ExpectedPairs[0].RatString():
			t.Errorf("a vs c: exact %s, two lru(4) memories %s", *m.ExactPairs[0], same.ExpectedPairs[0].RatString())
		}
	}
}
