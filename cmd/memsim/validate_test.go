package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/tournament"
)

// smallSuite has a tournament of every family of the embedded suite, on small deals (the README's
// example plays the embedded suite itself).
const smallSuite = `name: perfect
seed: 1
games: 400
rules: {pairs: [2, 3, 4], pass: two-known}
players: [{name: optimal, policy: optimal}, {name: parity, policy: parity}]
---
name: singletons
seed: 2
games: 400
rules: {pairs: [2, 3], singletons: 1}
players: [{name: optimal, policy: optimal}, {name: daring, policy: daring}]
---
name: handover
seed: 3
games: 400
rules: {pairs: [3, 4]}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 2, forget: handover-uniform}}
  - {name: safe, policy: safe, memory: {capacity: 2, forget: handover-uniform}}
---
name: lru
seed: 4
games: 400
rules: {pairs: [3, 4]}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 2, forget: lru}}
  - {name: daring, policy: daring, memory: {capacity: 2, forget: lru}}
---
name: solitaire
seed: 5
games: 400
rules: {pairs: [2, 3, 4], players_per_game: 1}
players: [{name: optimal, policy: optimal}, {name: safe, policy: safe}]
---
name: three
seed: 6
games: 400
rules: {pairs: [3, 4], players_per_game: 3}
players: [{name: daring, policy: daring}, {name: safe, policy: safe}, {name: parity-a, policy: parity}, {name: parity-b, policy: parity}]
---
name: win
seed: 7
games: 400
rules: {pairs: [3, 4]}
players: [{name: win, policy: win-optimal}, {name: optimal, policy: optimal}]
`

func TestValidateSuiteJSON(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(suite, []byte(smallSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runArgs(t, "validate", "--quiet", "--json", suite)
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	var res tournament.Validation
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	// Every check has every field, none dropped for being zero: df for a distribution check,
	// observed and expected for a mean check, null where they do not apply.
	var raw struct{ Checks []map[string]any }
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	for _, c := range raw.Checks {
		for _, k := range []string{"name", "family", "pass", "statistic", "df", "p_value", "p_holm", "rejected", "observed", "expected"} {
			if _, ok := c[k]; !ok {
				t.Fatalf("check %v has no %q", c["name"], k)
			}
		}
		dist := strings.HasSuffix(c["name"].(string), "/distribution")
		if (c["df"] != nil) != dist || (c["observed"] != nil) == dist || (c["expected"] != nil) == dist {
			t.Errorf("check %v: df %v, observed %v, expected %v", c["name"], c["df"], c["observed"], c["expected"])
		}
	}
	families := map[string]int{}
	for _, c := range res.Checks {
		families[c.Family]++
		if c.Rejected || !c.Pass || c.PHolm < c.PValue || c.PHolm > 1 {
			t.Errorf("%+v", c)
		}
	}
	for _, f := range []string{"perfect", "singletons", "handover-uniform", "lru", "solitaire", "multiplayer", "win"} {
		if families[f] == 0 {
			t.Errorf("no check of family %s", f)
		}
	}
	if res.Level != 0.01 || res.Games == 0 {
		t.Errorf("level %g, games %d", res.Level, res.Games)
	}
}

func TestValidateBadInput(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yaml")
	body := "name: a\nplayers: [{name: x, policy: safe}, {name: y, policy: daring}]\n---\nname: a\nplayers: [{name: x, policy: safe}, {name: y, policy: daring}]\n"
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--level", "0"}, "--level 0: must be between 0 and 1"},
		{[]string{"validate", "--level", "x"}, "--level \"x\": must be a number"},
		{[]string{"validate", suite}, "suite.yaml:4:1: document 2: duplicate name \"a\""},
		{[]string{"validate", "/no/such.yaml"}, "no such file"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, tt.args...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tt.args, code, stderr, tt.want)
		}
	}
}
