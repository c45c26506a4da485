package tournament_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/tournament"
)

func fluctuationConfig(sigma string) string {
	return `seed: 11
games: 1500
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
