package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets a test run this binary as memsim itself (MEMSIM_RUN_MAIN=1), so that a real
// process can be interrupted, killed or limited; it removes smallRun's folder at the end.
func TestMain(m *testing.M) {
	if os.Getenv("MEMSIM_RUN_MAIN") == "1" {
		main()
	}
	code := m.Run()
	if smallRun.dir != "" {
		os.RemoveAll(smallRun.dir)
	}
	os.Exit(code)
}

// noEnv is an empty environment: what a test runs sees none of the test process's variables.
func noEnv(string) string { return "" }

// runArgs runs memsim with args in an empty environment, and returns what it printed and its
// exit status.
func runArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runArgsEnv(t, nil, args...)
}

// runArgsEnv runs memsim with args in the environment env, and returns what it printed and its
// exit status.
func runArgsEnv(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, func(k string) string { return env[k] }, &out, &errb)
	return out.String(), errb.String(), code
}

func TestBadInputIsOneLineAndExit2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string // a fragment of the message: the flag, and the allowed values where there are some
	}{
		{nil, "missing command"},
		{[]string{"frobnicate"}, "allowed: solve, run, validate, report, audit, merge, replay, play, review, serve, bench, engine, demo, help"},
		{[]string{"solve"}, "--pairs N is required: the pairs on the table"},
		{[]string{"solve", "--pairs", "0"}, "--pairs 0: must be at least 1"},
		{[]string{"solve", "--pairs", "x"}, "--pairs \"x\": must be a whole number"},
		{[]string{"solve", "--pairs", "3", "--unknown", "4"}, "--unknown 4: must be between 0 and --pairs 3"},
		{[]string{"solve", "--pairs", "3", "--unknown", "-1"}, "--unknown -1"},
		{[]string{"solve", "--pairs", "3", "--singletons", "1", "--unseen-singletons", "2"}, "--unseen-singletons 2"},
		{[]string{"solve", "--pairs", "3", "--singletons", "-1"}, "--singletons -1"},
		{[]string{"solve", "--pairs", "3", "--memory", "1", "--forget", "lru"}, "--memory 1: must be 0 (perfect memory) or at least 2"},
		{[]string{"solve", "--pairs", "3", "--memory", "3"}, "allowed: handover-uniform, lru"},
		{[]string{"solve", "--pairs", "3", "--forget", "lru"}, "--forget lru needs --memory"},
		{[]string{"solve", "--pairs", "3", "--memory", "3", "--forget", "decay"}, "--q Q is required with --forget decay"},
		{[]string{"solve", "--pairs", "3", "--q", "0.2"}, "--q 0.2 goes with --forget decay"},
		{[]string{"solve", "--pairs", "3", "--forget", "decay", "--q", "1.5"}, "--q 1.5: must be in (0, 1]"},
		{[]string{"solve", "--pairs", "3", "--forget", "decay", "--q", "0.1", "--singletons", "1", "--players", "3", "--policy", "win-optimal", "--distribution"}, "every seat's score distribution at 3 players with a policy that plays to win is solved with perfect memory or lru and handover-uniform of a fixed capacity, not decay"},
		{[]string{"solve", "--pairs", "5", "--unknown", "0", "--memory", "3", "--forget", "lru"}, "exceed --memory 3"},
		{[]string{"solve", "--pairs", "3", "--singletons", "2", "--memory", "3", "--forget", "lru"}, "--singletons 2 with --forget lru: no exact model (the count state does not say which card lru forgets"},
		{[]string{"solve", "--pairs", "3", "--pass", "sometimes"}, "allowed: never, two-known, always"},
		{[]string{"solve", "--pairs", "3", "--policy", "smart"}, "allowed: optimal, safe, daring, parity, best-response"},
		{[]string{"solve", "--pairs", "3", "--choices", "safe"}, "--choices \"safe\": choice set safe: must include daring"},
		{[]string{"solve", "--pairs", "9223372036854775807"}, "--pairs 9223372036854775807: must be at most 1000 (or use --float)"},
		{[]string{"solve", "--pairs", "1000000000", "--float"}, "--pairs 1000000000: must be at most 20000"},
		{[]string{"solve", "--table", "--pairs-max", "10000000000"}, "--pairs-max 10000000000: must be at most 1000"},
		{[]string{"solve", "--pairs", "3", "--singletons", "10000000", "--float"}, "--singletons 10000000: must be between 0 and 1000"},
		{[]string{"solve", "--pairs", "300", "--singletons", "900"}, "states, at most 2000000 (or use --float)"},
		{[]string{"run", "--games", "9223372036854775807"}, "--games 9223372036854775807: must be between 1 and 100000000000"},
		{[]string{"validate", "--games", "1"}, "the tests' normal approximations need at least 100 games per matchup"},
		{[]string{"audit", "--output", "a/b\x00c"}, "a path of at most 4000 bytes without control characters"},
		{[]string{"solve", "--pairs", "3", "--choices", "daring,bold"}, "allowed: daring, safe, known-first, pass"},
		{[]string{"solve", "--pairs", "3", "--choices", "daring,known-first", "--policy", "parity"}, "policy parity plays safe, which the choice set daring,known-first leaves out"},
		{[]string{"solve", "--pairs", "3", "--opponent", "smart"}, "--opponent \"smart\""},
		{[]string{"solve", "--pairs", "3", "--players", "0"}, "--players 0: must be between 1 and 8"},
		{[]string{"solve", "--pairs", "3", "--players", "9"}, "--players 9"},
		{[]string{"solve", "--pairs", "3", "--players", "1", "--pass", "always"}, "only pass rule never has an exact model"},
		{[]string{"solve", "--pairs", "3", "--players", "3", "--pass", "always", "--forget", "decay", "--q", "0.2", "--two-player-optimal"}, "pass rule always: with 3 players decay forgetting under a pass rule is solved for every seat's own optimum and fixed policies, not the two-player optimum's choices"},
		{[]string{"solve", "--pairs", "3", "--policy", "best-response"}, "--opponent B is required with --policy best-response: the policy it answers (allowed: optimal, safe, daring, parity)"},
		{[]string{"solve", "--pairs", "3", "--players", "3", "--opponent", "best-response"}, "one seat replies to the others, not 2"},
		{[]string{"solve", "--pairs", "3", "--players", "1", "--policy", "best-response"}, "needs an opponent"},
		{[]string{"solve", "--pairs", "3", "--players", "3", "--turn-limit", "4", "--two-player-optimal", "--distribution"}, "--distribution with --players 3: every seat's score distribution at 3 players is solved for every seat's own optimum, not the two-player optimum's choices"},
		{[]string{"solve", "--pairs", "3", "--seats", "optimal,safe"}, "--seats \"optimal,safe\": 2 policies, must be 3 to 8 (one per seat)"},
		{[]string{"solve", "--pairs", "3", "--seats", "optimal,safe,bogus"}, "seat 2: \"bogus\" is not a policy a seat may play here (allowed: optimal, win-optimal, best-response, win-best-response, safe, daring, parity)"},
		{[]string{"solve", "--pairs", "3", "--seats", "best-response,safe,best-response"}, "--seats best-response,safe,best-response: policy best-response: with 3 players one seat replies to the others, not 2"},
		{[]string{"solve", "--pairs", "3", "--seats", "optimal,safe,daring", "--players", "4"}, "--players 4 with --seats \"optimal,safe,daring\": 3 seats"},
		{[]string{"solve", "--pairs", "3", "--seats", "optimal,safe,daring", "--opponent", "safe"}, "--seats goes without --policy and --opponent"},
		{[]string{"solve", "--pairs", "3", "--seats", "safe,daring,daring", "--choices", "daring"}, "--players 3 --choices daring --seats safe,daring,daring: policy safe plays safe"},
		{[]string{"solve", "--pairs", "3", "--two-player-optimal"}, "--two-player-optimal with --players 2: it goes with 3 or more players"},
		{[]string{"solve", "--pairs", "3", "--bogus"}, "unknown flag --bogus (see memsim solve -h)"},
		{[]string{"solve", "--pairs", "3", "extra"}, "unexpected argument \"extra\""},
		{[]string{"solve", "--table"}, "--pairs-max N is required with --table"},
		{[]string{"solve", "--table", "--pairs-max", "4", "--pairs", "3"}, "--pairs does not go with --table"},
		{[]string{"solve", "--pairs", "3", "--pairs-max", "4"}, "--pairs-max goes with --table"},
		{[]string{"demo", "now"}, "demo takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := runArgs(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit status %d, want %d", code, exitUsage)
			}
			if stdout != "" && tt.args != nil {
				t.Errorf("wrote to stdout on bad input: %q", stdout)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, tt.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.want)
			}
			if tt.args != nil && len(lines) != 1 {
				t.Errorf("stderr has %d lines, want 1: %q", len(lines), stderr)
			}
		})
	}
}

type jsonNumber struct {
	Exact *string `json:"exact"`
	Float float64 `json:"float"`
}

func (n jsonNumber) rat(t *testing.T) *big.Rat {
	t.Helper()
	if n.Exact == nil {
		t.Fatal("no exact value")
	}
	r, ok := new(big.Rat).SetString(*n.Exact)
	if !ok {
		t.Fatalf("bad exact value %q", *n.Exact)
	}
	if f, _ := r.Float64(); f != n.Float {
		t.Fatalf("exact %s is %v, float says %v", *n.Exact, f, n.Float)
	}
	return r
}

type solveJSON struct {
	ExpectedPairs  *jsonNumber  `json:"expected_pairs"`
	ExpectedLead   *jsonNumber  `json:"expected_lead"`
	ExpectedBySeat []jsonNumber `json:"expected_pairs_by_seat"`
	ExpectedTurns  *jsonNumber  `json:"expected_turns"`
	ExpectedLucky  *jsonNumber  `json:"expected_lucky"`
	Distribution   []struct {
		Share       float64    `json:"share"`
		Probability jsonNumber `json:"probability"`
	} `json:"score_distribution"`
	Win, Draw, Loss *jsonNumber
}

func solveJSONOf(t *testing.T, args ...string) solveJSON {
	t.Helper()
	stdout, stderr, code := runArgs(t, append([]string{"solve", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out solveJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, stdout)
	}
	return out
}

// TestSolveJSONIsConsistent checks the JSON contract with identities that hold whatever the
// solver computes: pairs by seat add up to n, the lead is 2E - n, the distribution sums to one
// and has mean E, and win + draw + loss = 1.
func TestSolveJSONIsConsistent(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"--pairs", "5"},
		{"--pairs", "5", "--unknown", "3", "--memory", "3", "--forget", "lru", "--policy", "parity", "--opponent", "safe"},
		{"--pairs", "4", "--pass", "always", "--policy", "best-response", "--opponent", "optimal"},
		{"--pairs", "4", "--singletons", "2", "--unseen-singletons", "1", "--policy", "daring"},
		{"--pairs", "5", "--memory", "2", "--forget", "handover-uniform"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			n := big.NewRat(int64(mustAtoi(t, args[1])), 1)
			out := solveJSONOf(t, append(args, "--distribution")...)
			e := out.ExpectedPairs.rat(t)
			sum := new(big.Rat)
			for _, s := range out.ExpectedBySeat {
				sum.Add(sum, s.rat(t))
			}
			if sum.Cmp(n) != 0 {
				t.Errorf("seats add up to %s, want %s", sum.RatString(), n.RatString())
			}
			lead := new(big.Rat).Sub(new(big.Rat).Mul(big.NewRat(2, 1), e), n)
			if out.ExpectedLead.rat(t).Cmp(lead) != 0 {
				t.Errorf("lead %s, want 2E - n = %s", *out.ExpectedLead.Exact, lead.RatString())
			}
			total, mean := new(big.Rat), new(big.Rat)
			for _, d := range out.Distribution {
				p := d.Probability.rat(t)
				total.Add(total, p)
				share := new(big.Rat).SetFloat64(d.Share)
				mean.Add(mean, new(big.Rat).Mul(share, p))
			}
			if total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(e) != 0 {
				t.Errorf("distribution sums to %s with mean %s, want 1 and %s", total.RatString(), mean.RatString(), e.RatString())
			}
			wdl := new(big.Rat).Add(out.Win.rat(t), out.Draw.rat(t))
			if wdl.Add(wdl, out.Loss.rat(t)).Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("win + draw + loss = %s", wdl.RatString())
			}
		})
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSolveFloatAgreesAndOmitsExact(t *testing.T) {
	t.Parallel()
	exactOut := solveJSONOf(t, "--pairs", "9", "--memory", "4", "--forget", "handover-uniform")
	floatOut := solveJSONOf(t, "--pairs", "9", "--memory", "4", "--forget", "handover-uniform", "--float")
	if floatOut.ExpectedPairs.Exact != nil {
		t.Error("--float output has an exact value")
	}
	if d := floatOut.ExpectedPairs.Float - exactOut.ExpectedPairs.Float; d > 1e-12 || d < -1e-12 {
		t.Errorf("float %v, exact %v", floatOut.ExpectedPairs.Float, exactOut.ExpectedPairs.Float)
	}
}

func TestSolitaireAndMultiplayerJSON(t *testing.T) {
	t.Parallel()
	solo := solveJSONOf(t, "--pairs", "6", "--players", "1")
	if solo.ExpectedTurns == nil || solo.ExpectedLucky == nil || solo.ExpectedPairs != nil {
		t.Fatalf("solitaire output: %+v", solo)
	}
	// Each turn removes at most one pair, and the first turn removes at most one: at least n turns.
	if solo.ExpectedTurns.rat(t).Cmp(big.NewRat(6, 1)) < 0 {
		t.Errorf("fewer than 6 expected turns: %s", *solo.ExpectedTurns.Exact)
	}
	three := solveJSONOf(t, "--pairs", "6", "--players", "3", "--policy", "parity", "--opponent", "daring")
	if len(three.ExpectedBySeat) != 3 || three.ExpectedLead != nil {
		t.Fatalf("three players: %d seats, lead %v", len(three.ExpectedBySeat), three.ExpectedLead)
	}
}

func TestTableOutputs(t *testing.T) {
	t.Parallel()
	const maxPairs = 7
	stdout, stderr, code := runArgs(t, "solve", "--table", "--pairs-max", "7", "--memory", "3", "--forget", "handover-uniform")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		rows++
		fields := strings.Fields(line)
		n := mustAtoi(t, strings.TrimSuffix(fields[0], ":"))
		// j runs from max(1, n-3) to n.
		if want := n - max(1, n-3) + 1; len(fields)-1 != want {
			t.Errorf("row %q has %d codes, want %d", line, len(fields)-1, want)
		}
		if last := fields[len(fields)-1]; last != "2" {
			t.Errorf("row %q: j = n has no choice, so its code must be 2", line)
		}
	}
	if rows != maxPairs {
		t.Errorf("%d rows, want %d", rows, maxPairs)
	}

	stdout, stderr, code = runArgs(t, "solve", "--table", "--pairs-max", "7", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var table struct {
		Cells []struct {
			Pairs, Unknown, Code int
			Best                 []string
			Value                jsonNumber
		}
	}
	if err := json.Unmarshal([]byte(stdout), &table); err != nil {
		t.Fatalf("table JSON: %v", err)
	}
	if want := maxPairs * (maxPairs + 3) / 2; len(table.Cells) != want {
		t.Fatalf("%d cells, want %d", len(table.Cells), want)
	}
	for _, c := range table.Cells {
		if len(c.Best) == 0 || c.Code < 0 || c.Code > 2 {
			t.Errorf("cell %+v", c)
		}
		if c.Code == 1 && c.Best[0] != "daring" || c.Code == 0 && c.Best[0] == "daring" {
			t.Errorf("cell %+v: code and best disagree", c)
		}
	}
}

func TestHelpAndDemo(t *testing.T) {
	t.Parallel()
	if out, _, code := runArgs(t, "solve", "-h"); code != exitOK || !strings.Contains(out, "--pairs") {
		t.Errorf("solve -h: exit %d, %q", code, out)
	}
	out, stderr, code := runArgs(t, "demo")
	if code != exitOK || !strings.Contains(out, "Solitaire") {
		t.Errorf("demo: exit %d: %s", code, stderr)
	}
}

func TestCancelledSolveExits1(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"solve", "--pairs", "50"}, noEnv, &out, &errb)
	if code != exitError || errb.String() != "memsim solve: interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// The text output prints an exact fraction whole, or says where to find it when it is too long to
// read: never a decimal alone under "exact arithmetic".
func TestSolveTextFractions(t *testing.T) {
	t.Parallel()
	text, _, code := runArgs(t, "solve", "--pairs", "120")
	js := solveJSONOf(t, "--pairs", "120", "--json")
	long := *js.ExpectedPairs.Exact
	if code != exitOK || !strings.Contains(text, "exactly a fraction of "+strconv.Itoa(len(long))+" characters: see --json") {
		t.Errorf("long fraction: %q (the JSON fraction has %d characters)", text, len(long))
	}
	text, _, _ = runArgs(t, "solve", "--pairs", "12")
	js = solveJSONOf(t, "--pairs", "12", "--json")
	if !strings.Contains(text, "("+*js.ExpectedPairs.Exact+")") {
		t.Errorf("short fraction not printed whole: %q", text)
	}
}
