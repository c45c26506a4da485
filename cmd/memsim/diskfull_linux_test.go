//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fileSizeEnv, set in the environment of this binary run as memsim (MEMSIM_RUN_MAIN=1), limits
// the size of every file the process writes (RLIMIT_FSIZE, in bytes): a write beyond it fails
// with EFBIG (Go ignores SIGXFSZ), as a write to a full disk fails with ENOSPC.
const fileSizeEnv = "MEMSIM_TEST_FILE_SIZE_LIMIT"

func init() {
	if v := os.Getenv(fileSizeEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err == nil {
			err = syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n})
		}
		if err != nil {
			panic(err)
		}
	}
}

// runWithFileSizeLimit runs memsim with args in a process whose files may not exceed limit
// bytes, and returns its stderr and exit status.
func runWithFileSizeLimit(t *testing.T, limit int, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1", fileSizeEnv+"="+strconv.Itoa(limit))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stderr.String(), 0
	case errors.As(err, &exit):
		return stderr.String(), exit.ExitCode()
	}
	t.Fatal(err)
	return "", 0
}

// When the final write fails for want of room (files are limited to a size that the checkpoint
// fits and the report does not), the run folder keeps its config.yaml and the checkpoint of every
// match, with nothing half-written and no staging folder left; the message says to --resume, and
// --resume writes the results once there is room.
func TestFullDiskDuringTheFinalWriteKeepsTheCheckpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "full", tinyTournament)
	out := filepath.Join(dir, "out", "full")
	// The checkpoint of the finished run fits; report.html (with its SVG figure) and the PNGs do
	// not.
	limit := len(checkpointOfFinishedRun(t, cfg)) + 4096
	if limit > 24<<10 {
		t.Fatalf("the checkpoint takes %d bytes: too close to the report's size for this test", limit)
	}
	stderr, code := runWithFileSizeLimit(t, limit, "run", "--no-figures", "--quiet", cfg)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != exitError || !strings.HasPrefix(last, "memsim run: the results could not be written (") ||
		!strings.HasSuffix(last, "then write them with: memsim run --resume "+out) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{"checkpoint.json", "config.yaml"}) {
		t.Errorf("after the failed final write the run folder holds %v, want config.yaml and checkpoint.json", got)
	}
	if got := dirNames(t, filepath.Join(dir, "out")); !slices.Equal(got, []string{"full"}) {
		t.Errorf("beside the run folder: %v", got)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out); code != exitOK {
		t.Fatalf("--resume once there is room: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Error(err)
	}
}

// When the checkpoint written just before the final write does not fit, the run exits 1 and its
// last line gives the command that recovers: memsim run --force, or memsim run --resume.
func TestFullDiskDuringTheLastCheckpointSaysHowToRecover(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "ck", tinyTournament)
	limit := len(checkpointOfFinishedRun(t, cfg)) / 2
	stderr, code := runWithFileSizeLimit(t, limit, "run", "--no-figures", "--quiet", cfg)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != exitError || !(strings.Contains(last, "memsim run --force") || strings.Contains(last, "memsim run --resume")) {
		t.Errorf("exit %d, last line %q: want exit 1 and the command that recovers", code, last)
	}
}

// A checkpoint that no longer fits during play, once earlier ones were written: the run ends with
// the earlier checkpoint kept as it was and the command that goes on from it, which finishes the
// run.
func TestFullDiskDuringACheckpointKeepsTheEarlierOne(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mid", tinyTournament)
	out := filepath.Join(dir, "out", "mid")
	limit := len(checkpointOfFinishedRun(t, cfg)) / 2
	stderr, code := runWithFileSizeLimit(t, limit, "run", "--no-figures", "--quiet", "--checkpoint-every", "1ns", cfg)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != exitError || !strings.HasPrefix(last, "memsim run: the checkpoint could not be written (") ||
		!strings.HasSuffix(last, "still holds the games of an earlier checkpoint: free what is needed, then go on from it with: memsim run --resume "+out) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{"checkpoint.json", "config.yaml"}) {
		t.Errorf("after the failed checkpoint the run folder holds %v", got)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out); code != exitOK {
		t.Fatalf("--resume once there is room: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Error(err)
	}
}
