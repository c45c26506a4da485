package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memsim/tournament"
)

// A configuration or suite that is a device, a folder or larger than configs.MaxFileSize is
// refused in one line naming it, before anything is read or created; so is a run folder's
// config.yaml that is.
func TestInputFilesAreBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 40<<20); err != nil { // 40 MiB, not written: a sparse file
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if err := os.Mkdir(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(big, filepath.Join(run, "config.yaml")); err != nil {
		t.Fatal(err)
	}
	const limit = "a configuration file holds at most 2097152 bytes (2 MiB)"
	tests := []struct {
		args         []string
		prefix, want string
	}{
		{[]string{"run", "/dev/zero"}, "memsim run: read configuration: /dev/zero is a device", "not a regular file"},
		{[]string{"validate", "/dev/urandom"}, "memsim validate: read suite: /dev/urandom is a device", "not a regular file"},
		{[]string{"run", dir}, "memsim run: read configuration: " + dir + " is a folder", "not a regular file"},
		{[]string{"run", big}, "memsim run: read configuration: " + big + ": 41943040 bytes: ", limit},
		{[]string{"validate", big}, "memsim validate: read suite: " + big + ": 41943040 bytes: ", limit},
		{[]string{"run", "--resume", run}, "memsim run: --resume " + run + ": ", limit},
	}
	for _, tt := range tests {
		if _, err := os.Stat(tt.args[1]); err != nil {
			continue // no such device here
		}
		_, stderr, code := runArgs(t, append(tt.args, "--quiet")...)
		wantOneLineExit(t, strings.Join(tt.args, " "), code, exitUsage, stderr, tt.prefix, tt.want)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"big.yaml", "run"}) {
		t.Errorf("the refused commands left %v", got)
	}
	if got := dirNames(t, run); !slices.Equal(got, []string{"config.yaml"}) {
		t.Errorf("the refused commands left %v in the run folder", got)
	}
}

// A number the configuration needs finite is refused at its position, before the run folder
// is created.
func TestNonFiniteNumbersAreRefusedBeforeTheRunFolder(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ stop, want string }{
		{"stop: {sprt: {d: .inf, alpha: 0.05, beta: 0.1}}", ":3:18: stop.sprt.d: expected a finite number, got number .inf"},
		{"stop: {sprt: {d: 0.5, alpha: .nan, beta: 0.1}}", ":3:30: stop.sprt.alpha: expected a finite number, got number .nan"},
		{"stop: {precision: -.inf}", ":3:19: stop.precision: expected a finite number, got number -.inf"},
	} {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "s", tt.stop+"\n"+tinyTournament) // tinyTournament is paired
		_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
		wantOneLineExit(t, tt.stop, code, exitUsage, stderr, "memsim run: "+cfg+tt.want)
		if got := dirNames(t, dir); !slices.Equal(got, []string{"s.yaml"}) {
			t.Errorf("%s: the refused run left %v", tt.stop, got)
		}
	}
}

// A run folder that is a link to nothing is bad input for every command that takes one: one
// line, exit status 2, and nothing created where the link points.
func TestDanglingRunFolderLinkIsBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "x", tinyTournament)
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "gone", "x")
	link := filepath.Join(out, "x")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"report", link},
		{"run", "--quiet", "--resume", link},
		{"run", "--quiet", cfg},
		{"merge", "--out", link, link},
		{"audit", "--output", link},
	} {
		_, stderr, code := runArgs(t, args...)
		wantOneLineExit(t, strings.Join(args, " "), code, exitUsage, stderr, "memsim "+args[0]+": ", "folder "+link+": ")
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"out", "x.yaml"}) {
		t.Errorf("the refused commands left %v", got)
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{"x"}) {
		t.Errorf("the refused commands left %v beside the link", got)
	}
}

// The limits of memsim solve --float say one thing: 20,000 pairs are solved, 20,001 are
// refused as more than 20,000, and the states of a request are counted whole.
func TestSolveFloatLimits(t *testing.T) {
	t.Parallel()
	wantUsageError(t, []string{"solve", "--pairs", "20001", "--float"}, "memsim solve: --pairs 20001: must be at most 20000")
	// With one singleton, (n+1)(n+2) states: 14,143 × 14,144 = 200,038,592, beyond the
	// 20,001 × 20,002 / 2 = 200,030,001 of 20,000 pairs.
	wantUsageError(t, []string{"solve", "--pairs", "14142", "--singletons", "1", "--float"},
		"memsim solve: --pairs 14142 with --singletons 1: 200038592 states, at most 200030001")
	for _, args := range [][]string{{"--pairs", "20000", "--float"}, {"--pairs", "14141", "--singletons", "1", "--float"}} {
		var fl solveFlags
		fs := newSolveFlagSet(&fl)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		if _, err := fl.query(given(fs)); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// memsim merge refuses at once, in one short line, a shard file that claims more shards than
// tournament.MaxShards, its hash recomputed.
func TestMergeRefusesTooManyShards(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shard, path, _, hashed := finishedShard(t, dir, "1/2")
	data := hashed(func(s *tournament.ShardResult) { s.Shards = 9_999_999_999_999 })
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, stderr, code := runArgs(t, "merge", "--no-figures", "--out", filepath.Join(dir, "merged"), shard)
	wantOneLineExit(t, "merge", code, exitUsage, stderr, "memsim merge: "+path+": ", "shard 1 of 9999999999999: a run has at most 1000000 shards")
	if d := time.Since(start); d > 10*time.Second || len(stderr) > 1000 {
		t.Errorf("refused after %v in %d bytes", d, len(stderr))
	}
}

// A path of 120,000 bytes on the command line is named cut short, in one line.
func TestLongPathsAreCutShortInMessages(t *testing.T) {
	t.Parallel()
	long := filepath.Join(t.TempDir(), strings.Repeat("x/", 60000))
	// A configuration for --shard, which is read after the tournament's players are built (the
	// embedded default's win-optimal table takes seconds under the race detector).
	cfg := writeConfig(t, t.TempDir(), "long", tinyTournament)
	for _, args := range [][]string{
		{"run", "--quiet", long},
		{"validate", "--quiet", long},
		{"run", "--quiet", "--resume", long},
		{"merge", "--out", filepath.Join(t.TempDir(), "m"), long},
		{"run", "--quiet", "--shard", strings.Repeat("1/", 60000), cfg},
	} {
		_, stderr, code := runArgs(t, args...)
		wantOneLineExit(t, args[0]+" with a long path", code, exitUsage, stderr, "memsim "+args[0]+": ", "...")
		if len(stderr) > 1000 {
			t.Errorf("%s: a message of %d bytes", args[0], len(stderr))
		}
	}
}
