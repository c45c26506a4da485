package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

func perfectLRUConfig(rules string) string {
	return `seed: 3
games: 60
rules: ` + rules + `
players:
  - {name: perfect, policy: optimal, choices: [daring, safe]}
  - {name: lru, policy: safe, choices: [daring, safe], memory: {capacity: 3, forget: lru, scope: private}}
  - {name: perfect-daring, policy: daring, choices: [daring, safe]}
`
}

// A perfect memory against a private lru memory is the unequal model with a perfect memory
// (capacity 0) in either seat order, in the standard game without singletons only; two perfect
// memories are the shared model's.
func TestPerfectAgainstLRUIsUnequal(t *testing.T) {
	for _, tc := range []struct {
		rules string
		want  bool
	}{
		{"{pairs: 6}", true},
		{"{pairs: 6, flips: blind}", false},
		{"{pairs: 6, turn_limit: 20}", false},
		{"{pairs: 6, singletons: 1}", false},
	} {
		tr, err := parse(t, perfectLRUConfig(tc.rules))
		if err != nil {
			t.Fatal(err)
		}
		for _, seats := range [][]int{{0, 1}, {1, 0}, {2, 1}} {
			u, ok := tr.UnequalModel(6, seats)
			if ok != tc.want {
				t.Errorf("%s, seats %v: unequal model %v, want %v", tc.rules, seats, ok, tc.want)
				continue
			}
			perfectSeat := 0
			if seats[0] == 1 {
				perfectSeat = 1
			}
			if ok && (u.Capacity[perfectSeat] != 0 || u.Capacity[1-perfectSeat] != 3) {
				t.Errorf("%s, seats %v: capacities %v", tc.rules, seats, u.Capacity)
			}
		}
		if _, ok := tr.UnequalModel(6, []int{0, 2}); ok {
			t.Errorf("%s: two perfect memories have an unequal model", tc.rules)
		}
	}
}

// The report gives a perfect memory against lru the unequal model's exact values.
func TestPerfectAgainstLRUHasExactValues(t *testing.T) {
	r := runReport(t, perfectLRUConfig("{pairs: [5]}"))
	u := exact.Unequal{Choices: rules.NewChoiceSet(rules.Daring, rules.Safe), Capacity: [2]int{0, 3},
		Policy: [2]rules.Policy{rules.PolicyOptimal, rules.PolicySafe}}
	res, err := exact.EvaluateUnequal(context.Background(), field.Rat{}, u, 5)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range r.Matchups {
		if strings.Join(m.Players, ",") != "perfect,lru" {
			continue
		}
		found = true
		if m.ExactPairs[0] == nil || *m.ExactPairs[0] != res.ExpectedPairs[0].RatString() {
			t.Errorf("perfect vs lru: exact %v, the unequal model %s", m.ExactPairs[0], res.ExpectedPairs[0].RatString())
		}
	}
	if !found {
		t.Error("no matchup perfect vs lru")
	}
}
