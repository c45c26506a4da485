package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/tournament"
)

func TestValidateSuiteJSON(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := runArgs(t, "validate", "--quiet", "--json", filepath.Join("testdata", "suite.yaml"))
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
		// A distribution check: seat 0's at two seats, every seat's ("/distribution seat S") at
		// more, solitaire's number of turns ("/distribution of turns").
		name := c["name"].(string)
		dist := strings.HasSuffix(name, "/distribution") || strings.Contains(name, "/distribution seat ") ||
			strings.HasSuffix(name, "/distribution of turns")
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
	// The command's help names every test the checks use.
	help, _, _ := runArgs(t, "help", "validate")
	help = strings.Join(strings.Fields(help), " ")
	named := map[string]string{"LR": "likelihood-ratio test", "z": "z test", "binomial": "binomial tests", "G": "G test"}
	used := map[string]bool{}
	for _, c := range res.Checks {
		used[c.Test] = true
	}
	for test := range used {
		if words, ok := named[test]; !ok || !strings.Contains(help, words) {
			t.Errorf("the checks use test %q, which the help of memsim validate does not name", test)
		}
	}
}

func TestValidateBadInput(t *testing.T) {
	t.Parallel()
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

// validate refuses a suite whose tournaments play too few games for its tests, naming the file,
// line and column of the games.
func TestValidateRefusesASuiteWithTooFewGames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yaml")
	body := "name: tiny\ngames: 5\nrules: {pairs: [3]}\nplayers: [{name: a, policy: optimal}, {name: b, policy: daring}]\n"
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "validate", "--quiet", suite)
	wantOneLineExit(t, "validate of a suite of 5 games", code, exitUsage, stderr, "memsim validate: "+suite+":2:8: games: 5 per matchup is too few to validate")
}

// validate refuses a suite in which no matchup has an exact model, which would check nothing: one
// line at the first tournament's players naming the matchups that lack one and what one needs,
// exit status 2, nothing on stdout, nothing played.
func TestValidateRefusesASuiteWithNothingToCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yaml")
	// Strategies that are no policy, then players with private handover-uniform memories, which forget at random and have no exact model.
	body := `name: strategies
games: 100
rules: {pairs: [3]}
players: [{name: greedy, policy: greedy-random}, {name: random, policy: random}]
---
name: private
games: 100
rules: {pairs: [3, 4]}
players:
  - {name: a, policy: optimal, memory: {capacity: 2, forget: handover-uniform, scope: private}}
  - {name: b, policy: daring, memory: {capacity: 2, forget: handover-uniform, scope: private}}
`
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", "--quiet", suite}, {"validate", "--json", suite}} {
		stdout, stderr, code := runArgs(t, args...)
		wantOneLineExit(t, strings.Join(args, " "), code, exitUsage, stderr,
			"memsim validate: "+suite+":4:10: nothing to validate: no matchup has an exact model "+
				"(greedy vs random at 3 pairs, random vs greedy at 3 pairs, a vs b at 3 pairs and 3 more); "+
				"an exact model needs every seat to play a table policy")
		if stdout != "" {
			t.Errorf("%v: stdout %q, want nothing", args, stdout)
		}
	}
}

// At the fewest games validate accepts (100), it rejects no check of win-lru-3 at 8 pairs, a
// tournament of the embedded suite whose luck-adjusted means vary little from game to game: the
// simulation agrees with the solver and the exit status is 0.
func TestValidateAtTheFewestGamesAgreesWithTheSolver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yaml")
	body := `name: win-lru-3
seed: 24
games: 4000
rules: {pairs: [8], pass: never}
players:
  - {name: win, policy: win-optimal, memory: {capacity: 3, forget: lru}}
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: lru}}
`
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runArgs(t, "validate", "--quiet", "--games", "100", suite)
	if code != exitOK || !strings.Contains(stdout, "no check rejected") {
		t.Errorf("validate --games 100: exit %d (a rejection of an exact value the engine meets):\n%s%s", code, stdout, stderr)
	}
}

// writeValidation counts checks in words: "1 check", "2 checks", "0 checks", with the families'
// counts in one column.
func TestWriteValidationCounts(t *testing.T) {
	t.Parallel()
	obs, exp := 2.5, 2.0
	one := &tournament.Validation{Games: 100, Level: 0.01, Checks: []tournament.Check{
		{Name: "t/n=3/a vs b/mean pairs seat 0", Family: "perfect", Test: "z", Statistic: 5, PValue: 1e-6, PHolm: 1e-6,
			Rejected: true, Observed: &obs, Expected: &exp},
	}}
	two := &tournament.Validation{Games: 200, Level: 0.01, Checks: []tournament.Check{
		{Name: "t/n=3/a vs b/mean pairs seat 0", Family: "lru", Test: "z", Pass: true, PValue: 0.5, PHolm: 0.5},
		{Name: "t/n=3/b vs a/mean pairs seat 0", Family: "lru", Test: "z", Pass: true, PValue: 0.5, PHolm: 0.5},
	}}
	for _, c := range []struct {
		res  *tournament.Validation
		want []string
	}{
		{one, []string{"1 check on 100 games, Holm-corrected at level 0.01\n", "  perfect               1 check,  1 rejected\n",
			"  lru                   0 checks, 0 rejected\n", "1 check rejected:\n  t/n=3/a vs b/mean pairs seat 0: statistic 5, p 1e-06, Holm p 1e-06 (observed 2.5000, exact 2.0000)\n"}},
		{two, []string{"2 checks on 200 games", "  lru                   2 checks, 0 rejected\n", "no check rejected"}},
	} {
		var buf strings.Builder
		writeValidation(&buf, c.res)
		for _, w := range c.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, buf.String())
			}
		}
	}
}
