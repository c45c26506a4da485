package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
)

// The test binary doubles as the player processes of memsim engine check's tests: run with the
// arguments "memsim-check-player MODE", it plays over stdin and stdout as MODE says (see
// runCheckPlayer), before any test runs.
const checkPlayerArg = "memsim-check-player"

func init() {
	if len(os.Args) == 3 && os.Args[1] == checkPlayerArg {
		os.Exit(runCheckPlayer(os.Args[2]))
	}
}

// checkPlayer returns the command of a test player process of the given mode.
func checkPlayer(t *testing.T, mode string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, checkPlayerArg, mode}
}

// crashOnMove is a player that exits on its first move request.
type crashOnMove struct{}

func (crashOnMove) Move(*client.Game, *protocol.Move) client.Reply {
	fmt.Fprintln(os.Stderr, "crashing on the first move")
	os.Exit(3)
	return client.Reply{}
}

// illegalPosition is the position the illegal test player flips: within the protocol's range, on
// no table of the checks' games.
const illegalPosition = 2999

// runCheckPlayer plays one test player process and returns its exit status:
//
//   - daring: the Go client package's Daring example player;
//   - daring-variants: the same, declaring every rule variant;
//   - blind-ignorer: declares blind flips and answers a blind request with one card, which is
//     illegal;
//   - crash: the Go client package with a player that exits on its first move request;
//   - illegal: answers every move request by flipping position 2999, which is never legal.
func runCheckPlayer(mode string) int {
	info := client.Info{Name: "check-" + mode, Version: "1.0", View: protocol.ViewEvents}
	var player client.Player
	switch mode {
	case "daring":
		player = client.Daring{}
	case "daring-variants":
		player, info.Variants = client.Daring{}, protocol.Variants()
	case "blind-ignorer":
		player, info.Variants = client.Random{}, []string{protocol.VariantFlips}
	case "crash":
		player = crashOnMove{}
	case "illegal":
		return illegalPlayer(os.Stdin, os.Stdout)
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		return 2
	}
	if err := client.Run(os.Stdin, os.Stdout, info, func(map[string]any) (client.Player, error) { return player, nil }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// illegalPlayer answers the handshake and then every move request with a flip of
// illegalPosition, writing the protocol itself (the client package refuses illegal replies).
func illegalPlayer(in io.Reader, out io.Writer) int {
	r := protocol.NewReader(in, protocol.FromMemsim)
	bw := bufio.NewWriter(out)
	w := protocol.NewWriter(bw)
	for {
		m, err := r.Read()
		if err != nil {
			return 0
		}
		var reply protocol.Message
		switch m := m.(type) {
		case *protocol.Hello:
			reply = &protocol.Player{Name: "check-illegal", Version: "1.0", View: protocol.ViewEvents}
		case *protocol.Move:
			reply = &protocol.Flip{Game: m.Game, Pos: illegalPosition}
		default:
			continue
		}
		if w.Write(reply) != nil || w.Flush() != nil || bw.Flush() != nil {
			return 1
		}
	}
}

// checkNames are the checks memsim engine check prints, in order.
var checkNames = []string{"handshake", "options", "positions", "play", "legal moves", "time per move", "variants", "crash restart", "round trip"}

// optionalChecks are the checks only some players have: positions for a state-view player that
// declares them, variants for one that declares rule variants.
var optionalChecks = []string{"positions", "variants"}

// quickCheck are the flags that keep a check short.
var quickCheck = []string{"--games", "20", "--rounds", "20", "--batch", "8"}

// checkLines parses memsim engine check's output into each check's status ("ok" or "FAIL") and
// the rest of its line, by check name, and fails the test unless it has one line per check.
func checkLines(t *testing.T, out string) map[string][2]string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	got := map[string][2]string{}
	k := 0 // the check the line must be
	for i, line := range lines {
		status, rest, _ := strings.Cut(line, " ")
		name, detail, ok := strings.Cut(strings.TrimLeft(rest, " "), ": ")
		for k < len(checkNames) && slices.Contains(optionalChecks, checkNames[k]) && name != checkNames[k] {
			k++ // only a player that declares positions (variants) has the check
		}
		if !ok || (status != "ok" && status != "FAIL") || k >= len(checkNames) || name != checkNames[k] {
			t.Fatalf("line %d: %q, want \"ok   %s: ...\" or \"FAIL %[2]s: ...\"; output:\n%s", i+1, line, checkNames[min(k, len(checkNames)-1)], out)
		}
		got[name] = [2]string{status, detail}
		k++
	}
	want := len(checkNames)
	for _, name := range optionalChecks {
		if _, ok := got[name]; !ok {
			want--
		}
	}
	if len(lines) != want {
		t.Fatalf("%d lines, want one per check (%s):\n%s", len(lines), strings.Join(checkNames, ", "), out)
	}
	return got
}

// TestEngineCheckPassesAGoodPlayer checks the Go client's Daring, in a process of its own: every
// check passes, and the lines say what the player declared and what was played.
func TestEngineCheckPassesAGoodPlayer(t *testing.T) {
	t.Parallel()
	args := append(append([]string{"engine", "check"}, quickCheck...), "--")
	out, stderr, code := runArgs(t, append(args, checkPlayer(t, "daring")...)...)
	if code != exitOK {
		t.Fatalf("exit %d, want 0; stderr %q; stdout:\n%s", code, stderr, out)
	}
	lines := checkLines(t, out)
	for _, name := range checkNames {
		if slices.Contains(optionalChecks, name) {
			continue // an events player declares no positions, and this one no variants
		}
		if lines[name][0] != "ok" {
			t.Errorf("%s: %s %s, want ok", name, lines[name][0], lines[name][1])
		}
	}
	for name, want := range map[string]string{
		"handshake":     "check-daring 1.0, view events, no options",
		"play":          "20 games against daring (10 deals, each from both seats; 12 pairs, two seats, pass rule never",
		"crash restart": "(SIGKILL to the process group); a new process",
		"round trip":    "8 games at once",
	} {
		if !strings.Contains(lines[name][1], want) {
			t.Errorf("%s: %q, want it to say %q", name, lines[name][1], want)
		}
	}
}

// TestEngineCheckPassesThePythonExamples checks the Python example players, where python3 is
// installed.
func TestEngineCheckPassesThePythonExamples(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the Python examples are not checked")
	}
	tests := []struct {
		file    string
		options []string
		want    string // a fragment of the options line
	}{
		{"random_player.py", nil, "no values sent"},
		{"daring.py", nil, "no values sent"},
		{"parity.py", []string{"--option", "noise=0.25"}, "sent noise=0.25"},
	}
	if testing.Short() {
		// The others play through the engine in TestRunWithAPlayerProcess (random_player.py)
		// and against the Python tests' fake memsim (clients/python).
		tests = tests[2:]
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			script := filepath.Join("..", "..", "clients", "python", "examples", tt.file)
			if _, err := os.Stat(script); err != nil {
				t.Skipf("no %s: %v", script, err)
			}
			args := append(append(append([]string{"engine", "check"}, tt.options...), quickCheck...), "--", "python3", script)
			out, stderr, code := runArgs(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d, want 0; stderr %q; stdout:\n%s", code, stderr, out)
			}
			lines := checkLines(t, out)
			if !strings.Contains(lines["options"][1], tt.want) {
				t.Errorf("options: %q, want it to say %q", lines["options"][1], tt.want)
			}
			// parity.py declares positions: it answers a query for each of the 90 count states
			// of 12 pairs, (12+1)(12+2)/2 - 1.
			if tt.file == "parity.py" && !strings.HasPrefix(lines["positions"][1], "90 position queries answered") {
				t.Errorf("positions: %q, want 90 queries answered", lines["positions"][1])
			}
		})
	}
}

// TestEngineCheckFailsABrokenPlayer checks that a player that crashes on its first move, or
// answers illegally, fails with exit status 1 and the problem named on the legal moves line.
func TestEngineCheckFailsABrokenPlayer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode string
		want string // a fragment of the legal moves line
	}{
		{"crash", "exited (exit status 3)"},
		{"illegal", fmt.Sprintf("%d is not a legal position", illegalPosition)},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"engine", "check"}, quickCheck...), "--")
			out, stderr, code := runArgs(t, append(args, checkPlayer(t, tt.mode)...)...)
			if code != exitError {
				t.Fatalf("exit %d, want 1; stderr %q; stdout:\n%s", code, stderr, out)
			}
			lines := checkLines(t, out)
			if lines["handshake"][0] != "ok" {
				t.Errorf("handshake: %v, want ok", lines["handshake"])
			}
			for _, name := range []string{"play", "legal moves", "crash restart", "round trip"} {
				if lines[name][0] != "FAIL" {
					t.Errorf("%s: %v, want FAIL", name, lines[name])
				}
			}
			if !strings.Contains(lines["legal moves"][1], tt.want) {
				t.Errorf("legal moves: %q, want it to name the problem: %q", lines["legal moves"][1], tt.want)
			}
		})
	}
}

// TestEngineCheckBadUsage checks that bad usage is one line on stderr naming the flag, exit 2.
func TestEngineCheckBadUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"engine"}, "missing subcommand (allowed: check, table)"},
		{[]string{"engine", "chek"}, `unknown subcommand "chek" (allowed: check, table)`},
		{[]string{"engine", "check"}, "the player's command is required"},
		{[]string{"engine", "check", "--games", "3", "--", "x"}, "--games 3: must be an even number from 2 to 1000000"},
		{[]string{"engine", "check", "--against", "smart", "--", "x"}, `--against "smart": unknown policy (allowed: optimal,`},
		{[]string{"engine", "check", "--time-per-move", "0s", "--", "x"}, "--time-per-move 0s: must be from 1ms to 24h0m0s"},
		{[]string{"engine", "check", "--batch", "0", "--", "x"}, "--batch 0: must be between 1 and 4096"},
		{[]string{"engine", "check", "--rounds", "0", "--", "x"}, "--rounds 0: must be between 1 and 100000"},
		{[]string{"engine", "check", "--option", "x", "--", "x"}, `--option "x": must be NAME=VALUE`},
		{[]string{"engine", "check", "--option", "a=1", "--option", "a=2", "--", "x"}, `option "a" is given twice`},
		{[]string{"engine", "check", "--", "memsim-no-such-program"}, `"memsim-no-such-program": executable file not found`},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("memsim %s: exit %d, stderr %q; want exit 2 and one line with %q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
	}
}

// TestEngineCheckRefusesAnUndeclaredOption checks that an --option the player does not declare is
// bad usage, after the handshake line.
func TestEngineCheckRefusesAnUndeclaredOption(t *testing.T) {
	t.Parallel()
	args := append([]string{"engine", "check", "--option", "depth=3", "--"}, checkPlayer(t, "daring")...)
	out, stderr, code := runArgs(t, args...)
	want := `--option depth=3: the player declares no option "depth" (it declares: none)`
	if code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	if !strings.HasPrefix(out, "ok   handshake: ") {
		t.Errorf("stdout %q, want the handshake line", out)
	}
}

func TestDurationText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{48200 * time.Nanosecond, "48.2 µs"},
		{1250 * time.Microsecond, "1.25 ms"},
		{2 * time.Second, "2.00 s"},
		{999 * time.Nanosecond, "0.999 µs"},
	}
	for _, tt := range tests {
		if got := durationText(tt.d); got != tt.want {
			t.Errorf("durationText(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestPidList(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pids []int
		want string
	}{
		{nil, "no process"},
		{[]int{7}, "process 7"},
		{[]int{9, 7}, "processes 7 and 9"},
		{[]int{3, 1, 2}, "processes 1, 2 and 3"},
	}
	for _, tt := range tests {
		if got := pidList(tt.pids); got != tt.want {
			t.Errorf("pidList(%v) = %q, want %q", tt.pids, got, tt.want)
		}
	}
}

func TestOptionValuesAreTypedByTheDeclaration(t *testing.T) {
	t.Parallel()
	one := 1.0
	info := protocol.Player{Name: "p", Options: []protocol.Option{
		{Name: "fast", Type: "bool", Default: false},
		{Name: "depth", Type: "int", Default: 1.0},
		{Name: "noise", Type: "float", Default: 0.0, Max: &one},
		{Name: "label", Type: "string", Default: ""},
		{Name: "mode", Type: "choice", Default: "a", Choices: []string{"a", "true"}},
	}}
	got, err := optionValues(info, []string{"fast=true", "depth=3", "noise=0.25", "label=7", "mode=true"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"fast": true, "depth": 3.0, "noise": 0.25, "label": "7", "mode": "true"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("optionValues = %#v, want %#v", got, want)
	}
	for _, bad := range []string{"fast=maybe", "depth=x", "other=1", "noise=5", "mode=b"} {
		if _, err := optionValues(info, []string{bad}); err == nil {
			t.Errorf("optionValues(%s): no error", bad)
		}
	}
}

// TestEngineCheckPlaysTheVariantsAPlayerDeclares checks the variants check: the Go client's Daring
// declaring every variant passes it, and the handshake line names them; a player that declares
// blind flips and answers a blind request with one card fails it, naming the illegal reply.
func TestEngineCheckPlaysTheVariantsAPlayerDeclares(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode, status, want string
	}{
		{"daring-variants", "ok", "10 games under copies 4, blind flips, turn limit 24 against daring (12 pairs, two seats, pass rule never): every game played to its end"},
		{"blind-ignorer", "FAIL", "10 games under blind flips against daring"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"engine", "check"}, quickCheck...), "--")
			out, _, _ := runArgs(t, append(args, checkPlayer(t, tt.mode)...)...)
			lines := checkLines(t, out)
			if got := lines["variants"]; got[0] != tt.status || !strings.Contains(got[1], tt.want) {
				t.Errorf("variants: %s %s, want %s and %q", got[0], got[1], tt.status, tt.want)
			}
			if tt.mode == "daring-variants" && !strings.Contains(lines["handshake"][1], "variants (copies, flips, turn_limit)") {
				t.Errorf("handshake: %q does not name the variants", lines["handshake"][1])
			}
		})
	}
}
