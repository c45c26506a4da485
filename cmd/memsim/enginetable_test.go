package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// parityScript is the Python parity example, for memsim engine table's tests.
func parityScript(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the Python example is not tabulated")
	}
	script, err := filepath.Abs("../../clients/python/examples/parity.py")
	if err != nil {
		t.Fatal(err)
	}
	return script
}

// TestEngineTableOfTheParityExample: the exact values memsim engine table prints for the Python
// parity example are the solver's values of the built-in parity policy, computed directly, and its
// table file holds parity's choice in every state.
func TestEngineTableOfTheParityExample(t *testing.T) {
	t.Parallel()
	script := parityScript(t)
	const pairs = 6
	out := filepath.Join(t.TempDir(), "parity.csv")
	stdout, stderr, code := runArgs(t, "engine", "table", "--pairs", "6", "--games", "20", "--against", "daring,optimal",
		"--json", "--out", out, "--", "python3", script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		States  int `json:"states"`
		Check   struct{ Games, Choices int64 }
		Against []struct {
			Opponent      string
			First, Second struct{ Pairs, Win, Draw, Loss exactNumber }
		}
		Best struct {
			First, Second exactNumber
		} `json:"best_response"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if want := 27; rep.States != want || rep.Check.Games != 20 || rep.Check.Choices == 0 { // sum of n+1 for n = 1..6
		t.Errorf("%d states, %d games, %d choices; want %d states, 20 games", rep.States, rep.Check.Games, rep.Check.Choices, want)
	}
	m := exact.Model{Pass: rules.PassNever, Choices: rules.FullChoices}
	st := rules.State{N: pairs, J: pairs}
	for _, a := range rep.Against {
		opp, err := rules.ParsePolicy(a.Opponent)
		if err != nil {
			t.Fatal(err)
		}
		first, err := exact.Evaluate(context.Background(), field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyParity, Opponent: opp}, st)
		if err != nil {
			t.Fatal(err)
		}
		wdl, err := exact.WinDrawLoss(context.Background(), field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyParity, Opponent: opp}, st)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.First.Pairs.Exact; got != first.ExpectedPairs.RatString() {
			t.Errorf("against %s, moving first: %s pairs, parity's %s", opp, got, first.ExpectedPairs.RatString())
		}
		if got := a.First.Win.Exact; got != wdl[0].Win.RatString() {
			t.Errorf("against %s, moving first: win %s, parity's %s", opp, got, wdl[0].Win.RatString())
		}
		if got := a.Second.Loss.Exact; got != wdl[1].Win.RatString() {
			t.Errorf("against %s, moving second: loss %s, parity's opponent wins %s", opp, got, wdl[1].Win.RatString())
		}
	}
	parity, err := rules.FixedChoiceTable(rules.PolicyParity, pairs, 0)
	if err != nil {
		t.Fatal(err)
	}
	br, err := exact.BestResponseTo(context.Background(), field.Rat{}, m, parity, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Best.First.Exact != br.Pairs[0].RatString() || rep.Best.Second.Exact != br.Pairs[1].RatString() {
		t.Errorf("best response %s, %s; to the parity table %s, %s", rep.Best.First.Exact, rep.Best.Second.Exact, br.Pairs[0].RatString(), br.Pairs[1].RatString())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 1+rep.States || lines[0] != "n,j,s,f,lead,after_pass,choice" {
		t.Fatalf("table file: %d lines, header %q", len(lines), lines[0])
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		n, err1 := strconv.Atoi(f[0])
		j, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("table file: %q", l)
		}
		if want := rules.PolicyParity.Decide(rules.State{N: n, J: j}).String(); f[6] != want || f[4] != "any" {
			t.Errorf("table file: %q, want parity's %s at any lead", l, want)
		}
	}
}

// TestEngineTableRefusesAPlayerThatIsNoFunctionOfTheState: with noise, the parity example's play
// depends on its random draws, and the check refuses its table, naming the state.
func TestEngineTableRefusesAPlayerThatIsNoFunctionOfTheState(t *testing.T) {
	t.Parallel()
	script := parityScript(t)
	stdout, stderr, code := runArgs(t, "engine", "table", "--pairs", "6", "--games", "20", "--against", "daring",
		"--option", "noise=0.5", "--", "python3", script)
	want := "the table is refused: on a sampled game in state (n="
	if code != exitError || !strings.Contains(stderr, want) || !strings.Contains(stderr, "the table holds") ||
		strings.Count(stderr, "\n") != 1 || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line containing %q", code, stdout, stderr, want)
	}
}

// TestEngineTableNeedsPositions: a player that declares no positions is not tabulated.
func TestEngineTableNeedsPositions(t *testing.T) {
	t.Parallel()
	args := append([]string{"engine", "table", "--pairs", "4", "--"}, checkPlayer(t, "daring")...)
	_, stderr, code := runArgs(t, args...)
	if code != exitError || !strings.Contains(stderr, "declares no positions at its handshake") {
		t.Errorf("exit %d, stderr %q; want exit 1, no positions", code, stderr)
	}
}

// TestEngineTableBadFlags: each bad flag gets one line naming it and what it allows, exit 2.
func TestEngineTableBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "the player's command"},
		{[]string{"--pairs", "0", "--", "x"}, "--pairs 0: must be from 1 to 200"},
		{[]string{"--singletons", "-1", "--", "x"}, "--singletons -1: must be from 0 to 200"},
		{[]string{"--pass", "sometimes", "--", "x"}, `--pass "sometimes": unknown pass rule (allowed: never, two-known, always)`},
		{[]string{"--choices", "safe", "--", "x"}, `--choices "safe":`},
		{[]string{"--against", "daring,bold", "--", "x"}, `--against "daring,bold": "bold" is not a built-in policy to evaluate against (allowed: daring, safe, parity, optimal, win-optimal)`},
		{[]string{"--against", "daring,daring", "--", "x"}, "daring is given twice"},
		{[]string{"--choices", "daring", "--against", "safe", "--", "x"}, `--against "safe":`},
		{[]string{"--games", "3", "--", "x"}, "--games 3: must be an even number from 2 to"},
		{[]string{"--batch", "0", "--", "x"}, "--batch 0: must be between 1 and 4096"},
		{[]string{"--option", "noise", "--", "x"}, `--option "noise": must be NAME=VALUE`},
		{[]string{"--", "no-such-program-memsim"}, "no-such-program-memsim"},
	} {
		_, stderr, code := runArgs(t, append([]string{"engine", "table"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("memsim engine table %v: exit %d, %q; want exit 2 and one line containing %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestEngineTableOfAPlayerWrittenFromTheDocs tabulates the example player written from
// docs/protocol.md alone, with no memsim code (clients/python/examples/standalone_player.py):
// memsim engine table accepts its table after the check, and the table holds, state by state,
// the policy the player describes: daring when j is odd or fewer than threshold cards are known,
// else safe.
func TestEngineTableOfAPlayerWrittenFromTheDocs(t *testing.T) {
	t.Parallel()
	parityScript(t) // skips without python3
	script, err := filepath.Abs("../../clients/python/examples/standalone_player.py")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "standalone.csv")
	_, stderr, code := runArgs(t, "engine", "table", "--pairs", "6", "--games", "20", "--against", "parity",
		"--option", "threshold=3", "--out", out, "--", "python3", script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, row := range rows[1:] {
		var n, j, s, f int
		var lead, after, choice string
		if _, err := fmt.Sscanf(strings.ReplaceAll(row, ",", " "), "%d %d %d %d %s %s %s", &n, &j, &s, &f, &lead, &after, &choice); err != nil {
			t.Fatalf("row %q: %v", row, err)
		}
		want := "safe"
		if j%2 == 1 || n-j+s-f < 3 {
			want = "daring"
		}
		if choice != want {
			t.Errorf("state (n=%d, j=%d): the table holds %s, the player's policy %s", n, j, choice, want)
		}
	}
	if len(rows) != 28 { // a header and the 27 states of 1 to 6 pairs
		t.Errorf("%d rows, want 28", len(rows))
	}
}

// TestEngineTableOfTheParityExampleUnderATurnLimit: under --turn-limit the check's games are
// played under the limit and the exact values are the solver's values of the built-in parity
// policy under the limit (each seat's pairs taken by it, which need not add up to the deal), the
// best response's too.
func TestEngineTableOfTheParityExampleUnderATurnLimit(t *testing.T) {
	t.Parallel()
	// The example declares no variant; this player is the example declaring turn_limit.
	example := parityScript(t)
	script := filepath.Join(t.TempDir(), "parity_limit.py")
	src := fmt.Sprintf("import sys\nsys.path.insert(0, %q)\nimport parity\n\n"+
		"class ParityLimit(parity.Parity):\n    variants = (\"turn_limit\",)\n\nParityLimit().run()\n", filepath.Dir(example))
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pairs, limit := 5, 6
	if testing.Short() {
		pairs, limit = 4, 5 // a limit that still cuts some games short
	}
	stdout, stderr, code := runArgs(t, "engine", "table", "--pairs", strconv.Itoa(pairs), "--turn-limit", strconv.Itoa(limit),
		"--games", "20", "--against", "daring,optimal", "--json", "--", "python3", script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Rules struct {
			TurnLimit int `json:"turn_limit"`
		}
		Check   struct{ Games int64 }
		Against []struct {
			Opponent      string
			First, Second struct{ Pairs, Win exactNumber }
		}
		Best struct{ First, Second exactNumber } `json:"best_response"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Rules.TurnLimit != limit || rep.Check.Games != 20 || len(rep.Against) != 2 {
		t.Fatalf("turn limit %d, %d games, %d opponents; want %d, 20, 2", rep.Rules.TurnLimit, rep.Check.Games, len(rep.Against), limit)
	}
	ctx := context.Background()
	m := exact.Model{Pass: rules.PassNever, Choices: rules.FullChoices, Variant: rules.Variant{TurnLimit: limit}}
	st := rules.State{N: pairs, J: pairs}
	eval := func(mu exact.Lineup) exact.Result[*big.Rat] {
		res, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	par := rules.PolicyParity
	for _, a := range rep.Against {
		opp, err := rules.ParsePolicy(a.Opponent)
		if err != nil {
			t.Fatal(err)
		}
		first := eval(exact.Lineup{Players: 2, Policy: par, Opponent: opp})
		second := eval(exact.Lineup{Players: 2, Policy: opp, Opponent: par})
		if got, want := a.First.Pairs.Exact, first.ExpectedPairs.RatString(); got != want {
			t.Errorf("against %s, moving first: %s pairs, parity's %s", opp, got, want)
		}
		if got, want := a.Second.Pairs.Exact, second.PairsBySeat[1].RatString(); got != want {
			t.Errorf("against %s, moving second: %s pairs, parity's %s", opp, got, want)
		}
		wdl, err := exact.WinDrawLoss(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: par, Opponent: opp}, st)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := a.First.Win.Exact, wdl[0].Win.RatString(); got != want {
			t.Errorf("against %s, moving first: win %s, parity's %s", opp, got, want)
		}
	}
	br := rules.PolicyBestResponse
	if got, want := rep.Best.First.Exact, eval(exact.Lineup{Players: 2, Policy: br, Opponent: par}).ExpectedPairs.RatString(); got != want {
		t.Errorf("best response moving first: %s pairs, the reply to parity's %s", got, want)
	}
	if got, want := rep.Best.Second.Exact, eval(exact.Lineup{Players: 2, Policy: par, Opponent: br}).PairsBySeat[1].RatString(); got != want {
		t.Errorf("best response moving second: %s pairs, the reply to parity's %s", got, want)
	}
}
