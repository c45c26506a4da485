package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// errDiskFull is what fullStdout's writes fail with, as writes to a full disk (or /dev/full) do.
var errDiskFull = errors.New("no space left on device")

// fullStdout is a standard output that takes n bytes, then fails every write with errDiskFull.
type fullStdout struct{ n int }

func (w *fullStdout) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, errDiskFull
}

// runArgsTo runs memsim with args in an empty environment, printing to stdout, and returns what
// it printed on stderr and its exit status.
func runArgsTo(t *testing.T, stdout io.Writer, args ...string) (stderr string, code int) {
	t.Helper()
	var errb bytes.Buffer
	code = run(context.Background(), args, noEnv, stdout, &errb)
	return errb.String(), code
}

// lastLine is the last line of s, without its newline.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// A run whose summary (or, with --markdown, report) cannot be printed has written its run folder
// whole: the failure names stdout and the folder that holds the results, exit status 1, and
// speaks of no checkpoint, which the finished folder no longer holds.
func TestRunNamesStdoutWhenItsSummaryCannotBePrinted(t *testing.T) {
	t.Parallel()
	// The results an ordinary run writes, to compare with.
	ref := t.TempDir()
	refCfg := writeConfig(t, ref, "out-full", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", refCfg); code != exitOK {
		t.Fatalf("the ordinary run: exit %d: %s", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join(ref, "out", "out-full", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		markdown bool
		after    int // bytes printed before the writes fail
		what     string
	}{
		{false, 0, "summary"},
		{false, 40, "summary"},
		{true, 0, "report"},
		{true, 200, "report"},
	} {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "out-full", tinyTournament)
		out := filepath.Join(dir, "out", "out-full")
		args := []string{"run", "--no-figures", "--quiet", cfg}
		if tt.markdown {
			args = append(args, "--markdown")
		}
		stderr, code := runArgsTo(t, &fullStdout{n: tt.after}, args...)
		wantLine := "memsim run: writing the " + tt.what + " to stdout: " + errDiskFull.Error() + ": the results are in " + out
		if code != exitError || lastLine(stderr) != wantLine || strings.Contains(stderr, "checkpoint") {
			t.Errorf("%v after %d bytes: exit %d, stderr %q; want exit %d and last line %q", args, tt.after, code, stderr, exitError, wantLine)
		}
		got, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v after %d bytes: results.json differs from an ordinary run's (%v)", args, tt.after, err)
		}
		if _, err := os.Stat(filepath.Join(out, checkpointFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v after %d bytes: the finished folder holds %s (%v)", args, tt.after, checkpointFile, err)
		}
	}
}

// Every command that prints to stdout reports a failed write there in its last line, naming
// stdout, with exit status 1, however much it printed before.
func TestCommandsNameStdoutWhenTheyCannotPrint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "printing", oneSizeTournament)
	suite := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(suite, []byte("name: perfect\nseed: 1\ngames: 100\nrules: {pairs: [2, 3]}\n"+
		"players: [{name: optimal, policy: optimal}, {name: parity, policy: parity}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A run folder for memsim report, small enough that its figures are drawn quickly.
	small := filepath.Join(dir, "out", "printing")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	tests := []struct {
		prefix string // the command's name in its messages
		args   []string
	}{
		{"memsim help", []string{"help"}},
		{"memsim help", []string{"--help"}},
		{"memsim run", []string{"help", "run"}},
		{"memsim run", []string{"run", "-h"}},
		{"memsim version", []string{"version"}},
		{"memsim version", []string{"version", "--json"}},
		{"memsim version", []string{"--version"}},
		{"memsim demo", []string{"demo"}},
		{"memsim replay", []string{"replay", "--config", cfg, "--game", "1"}},
		{"memsim bench", []string{"bench", "--games", "200", "--pairs", "4"}},
		{"memsim bench", []string{"bench", "--games", "200", "--pairs", "4", "--json"}},
		{"memsim validate", []string{"validate", "--quiet", suite}},
		{"memsim validate", []string{"validate", "--quiet", "--json", suite}},
		{"memsim report", []string{"report", small}},
		{"memsim solve", []string{"solve", "--gerez", "--cards", "8", "--known", "2"}},
		{"memsim solve", []string{"solve", "--gerez", "--cards", "8", "--known", "2", "--json"}},
	}
	if testing.Short() {
		// One of each command's output paths: the JSON forms and the demo only in the long form.
		tests = slices.DeleteFunc(tests, func(tt struct {
			prefix string
			args   []string
		}) bool {
			return tt.args[0] == "demo" || (slices.Contains(tt.args, "--json") && tt.args[0] != "version")
		})
	} else {
		tests = append(tests, struct {
			prefix string
			args   []string
		}{"memsim audit", []string{"audit", "--games", "2000", "--win-pairs", "6", "--json", "--output", filepath.Join(dir, "audit")}})
	}
	for _, tt := range tests {
		afters := []int{0, 10}
		if testing.Short() && !slices.Contains([]string{"help", "--help", "version", "--version"}, tt.args[0]) {
			afters = afters[1:] // the short form fails the commands that do work once, part way
		}
		for _, after := range afters {
			stderr, code := runArgsTo(t, &fullStdout{n: after}, tt.args...)
			want := tt.prefix + ": writing to stdout: " + errDiskFull.Error()
			if code != exitError || lastLine(stderr) != want {
				t.Errorf("%v after %d bytes: exit %d, stderr %q; want exit %d and last line %q", tt.args, after, code, stderr, exitError, want)
			}
			if tt.args[0] == "audit" {
				break // the audit folder is written: a second audit needs --force
			}
		}
	}
}
