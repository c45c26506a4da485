package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this binary as memsim itself (MEMSIM_RUN_MAIN=1), so that a real
// process can be interrupted.
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

const resumeTournament = `seed: 31
games: 327680
rules: {pairs: [8]}
players:
  - {name: parity, policy: parity}
  - {name: daring, policy: daring}
  - {name: safe, policy: safe}
`

// A run interrupted by SIGINT writes its checkpoint, exits non-zero saying how to resume, and its
// resumed results.json equals an uninterrupted run's, bit for bit.
func TestInterruptAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a few million games")
	}
	base := t.TempDir()
	cfg := writeConfig(t, base, "resumable", resumeTournament)
	if _, stderr, code := runArgs(t, "run", "--quiet", cfg); code != exitOK {
		t.Fatalf("uninterrupted run: exit %d: %s", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join(base, "out", "resumable", "results.json"))
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	cfg = writeConfig(t, dir, "resumable", resumeTournament)
	out := filepath.Join(dir, "out", "resumable")
	cmd := exec.Command(os.Args[0], "run", "--quiet", "--checkpoint-every", "1ms", cfg)
	cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(out, "checkpoint.json")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("no checkpoint appeared")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if err == nil || !strings.Contains(stderr.String(), "resume with: memsim run --resume "+out) {
		t.Fatalf("interrupted run: %v, stderr %q", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); !os.IsNotExist(err) {
		t.Fatalf("the interrupted run wrote results: %v", err)
	}
	// A new run does not overwrite the interrupted one.
	if _, stderr, code := runArgs(t, "run", "--quiet", cfg); code != exitUsage || !strings.Contains(stderr, "--resume") {
		t.Errorf("a new run over the checkpoint: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runArgs(t, "run", "--quiet", "--workers", "1", "--resume", out); code != exitOK {
		t.Fatalf("resumed run: exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("the resumed run's results.json differs from the uninterrupted run's")
	}
	if _, err := os.Stat(filepath.Join(out, "checkpoint.json")); !os.IsNotExist(err) {
		t.Errorf("the finished run kept its checkpoint: %v", err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--resume", out}, "has no checkpoint.json"},
		{[]string{"run", "--resume", out, "--games", "5"}, "--resume takes the run folder's own configuration"},
		{[]string{"run", "--resume", filepath.Join(dir, "nowhere")}, "--resume " + filepath.Join(dir, "nowhere")},
	} {
		if _, stderr, code := runArgs(t, tt.args...); code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q", tt.args, code, stderr)
		}
	}
}
