package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tablesTournament has a player whose table the solver builds before play: quick at 6 pairs.
const tablesTournament = `seed: 5
games: 100
rules: {pairs: [6]}
players:
  - {name: opt, policy: optimal}
  - {name: parity, policy: parity}
`

// slowTablesTournament has a player whose table takes the solver seconds to build (every lead of
// every state up to 200 pairs).
const slowTablesTournament = `seed: 5
games: 100
rules: {pairs: [200]}
players:
  - {name: win, policy: win-optimal}
  - {name: parity, policy: parity}
`

// position matches the file:line:col of a configuration error.
var position = regexp.MustCompile(`:[0-9]+:[0-9]+`)

// wantInterrupted checks that an interrupted command exited 1 with one line on stderr that
// begins "memsim NAME: interrupted" and names no position in a file.
func wantInterrupted(t *testing.T, what, name string, code int, stderr string) {
	t.Helper()
	wantOneLineExit(t, what, code, exitError, stderr, "memsim "+name+": interrupted")
	if position.MatchString(stderr) {
		t.Errorf("%s: %q names a position, as bad input would", what, stderr)
	}
}

// Every command interrupted (its context cancelled) exits 1 with one line that says so: never
// exit 2 as bad input, never a file's position, wherever the interrupt finds it (building
// tables, playing, solving, drawing figures).
func TestEveryCommandInterruptedExits1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "tables", tablesTournament)
	shard := filepath.Join(dir, "out", "tables", "shard-1-of-1")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", "1/1", cfg); code != exitOK {
		t.Fatalf("shard: exit %d: %s", code, stderr)
	}
	_, small := finishedSmallRun(t, t.TempDir())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"solve", "--pairs", "50"},
		{"solve", "--table", "--pairs-max", "50"},
		{"solve", "--gerez", "--cards", "40", "--known", "0", "--paired", "0"},
		{"run", "--quiet", cfg},
		{"validate", "--quiet", cfg},
		{"report", small},
		{"audit", "--games", "100", "--output", filepath.Join(dir, "audit")},
		{"merge", "--out", filepath.Join(dir, "merged"), shard},
		{"replay", "--config", cfg, "--game", "0"},
		{"bench", "--policy", "optimal", "--pairs", "6", "--games", "10"},
		{"demo"},
	} {
		var out, errb bytes.Buffer
		code := run(cancelled, args, noEnv, &out, &errb)
		wantInterrupted(t, strings.Join(args, " "), args[0], code, errb.String())
	}
}

// startMemsim starts this test binary as memsim with args; its stderr goes to the builder.
func startMemsim(t *testing.T, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// A real memsim process sent SIGINT or SIGTERM while it solves, builds its players' tables or
// audits stops promptly: exit status 1 and "memsim NAME: interrupted". A normal build stops within
// milliseconds; the bound, far below what any of these commands takes uncancelled, allows for the
// race detector on a busy machine.
func TestSignalStopsEveryCommandPromptly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	slow := writeConfig(t, dir, "slow", slowTablesTournament)
	tests := []struct {
		args []string
		sig  syscall.Signal
		long bool // only without -short
	}{
		{[]string{"solve", "--pairs", "1000", "--distribution", "--big"}, syscall.SIGINT, false},
		{[]string{"run", "--quiet", slow}, syscall.SIGINT, false},
		{[]string{"solve", "--gerez", "--cards", "400", "--known", "0", "--paired", "0", "--big"}, syscall.SIGTERM, true},
		{[]string{"solve", "--pairs", "1000", "--players", "8", "--big"}, syscall.SIGTERM, true},
		{[]string{"validate", "--quiet", slow}, syscall.SIGTERM, true},
		{[]string{"replay", "--config", slow, "--game", "0"}, syscall.SIGINT, true},
		{[]string{"bench", "--policy", "win-optimal", "--pairs", "200"}, syscall.SIGINT, true},
		{[]string{"audit", "--games", "100", "--output", filepath.Join(dir, "audit")}, syscall.SIGINT, true},
	}
	for _, tt := range tests {
		if tt.long && testing.Short() {
			continue
		}
		what := strings.Join(tt.args, " ")
		cmd, stderr := startMemsim(t, tt.args...)
		// Long enough to be at work: the process starts in milliseconds.
		time.Sleep(500 * time.Millisecond)
		sent := time.Now()
		if err := cmd.Process.Signal(tt.sig); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("%s: still running 20 s after %v (sent %v ago)", what, tt.sig, time.Since(sent).Round(time.Millisecond))
			continue
		}
		wantInterrupted(t, what, tt.args[0], cmd.ProcessState.ExitCode(), stderr.String())
	}
}
