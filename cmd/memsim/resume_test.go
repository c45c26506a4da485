package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"memsim/tournament"
)

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
	t.Parallel()
	if testing.Short() {
		t.Skip("plays a few million games")
	}
	base := t.TempDir()
	cfg := writeConfig(t, base, "resumable", resumeTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
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
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitUsage || !strings.Contains(stderr, "--resume") {
		t.Errorf("a new run over the checkpoint: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--workers", "1", "--resume", out); code != exitOK {
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

// --resume removes what a killed process left (the temporary files of atomic writes, staging and
// moved-away folders) and finishes the run. (TestForceReplacesTheWholeFolder covers --force.)
func TestResumeRemovesWhatAKilledProcessLeft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, out := finishedRunFolder(t, dir, "r", tinyTournament)
	leftovers := []string{
		lockPath(out), // which shows the names below memsim's
		filepath.Join(out, ".checkpoint.json.tmp-"+killedToken+"-123"),
		filepath.Join(out, ".results.json.tmp-"+killedToken+"-9"),
		filepath.Join(dir, "out", ".r.staging-"+killedToken+"-5", "results.json"),
		filepath.Join(dir, "out", ".r.old-"+killedToken+"-7", "results.json"),
	}
	for _, l := range leftovers {
		if err := os.MkdirAll(filepath.Dir(l), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(l, []byte(killedLock), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out); code != exitOK {
		t.Fatalf("--resume: exit %d: %s", code, stderr)
	}
	if got := dirNames(t, filepath.Join(dir, "out")); !slices.Equal(got, []string{"r"}) {
		t.Errorf("beside the run folder after --resume: %v", got)
	}
	for _, f := range dirNames(t, out) {
		if strings.HasPrefix(f, ".") || f == checkpointFile {
			t.Errorf("%s is still in the run folder", f)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Error(err)
	}
}

// After --resume, memsim run's last line counts the games this process played, with their pace,
// apart from the games the checkpoint held: a run resumed with every game in its checkpoint
// plays none, claims no pace, and names the games it resumed.
func TestLastLineAfterResumeCountsTheGamesPlayed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, out := finishedRunFolder(t, dir, "l", tinyTournament)
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out)
	if code != exitOK {
		t.Fatalf("--resume: exit %d: %s", code, stderr)
	}
	// The results hold every game of the checkpoint: 2000 paired deals, two seat orders, two deal
	// sizes.
	const resumed = 2000 * 2 * 2
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	want := regexp.MustCompile(`^memsim run: 0 games in [0-9.]+ s, ` + strconv.Itoa(resumed) + ` more resumed from checkpoint\.json; wrote ` + regexp.QuoteMeta(out) + `$`)
	if last := lines[len(lines)-1]; !want.MatchString(last) {
		t.Errorf("the last line after resuming a checkpoint of every game: %q, want it to match %s", last, want)
	}
}

// memsim run --resume refuses a damaged checkpoint.json in one line naming it, and writes nothing:
// finished matches swapped or an entry appended under the stored hash, a nil entry, a histogram row
// of the wrong length or a negative count with the hash recomputed, and a file cut short.
func TestResumeRefusesADamagedCheckpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgPath, out := finishedRunFolder(t, dir, "d", tinyTournament)
	good, err := os.ReadFile(filepath.Join(out, checkpointFile))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig([]string{cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	// editRaw changes the JSON and keeps the stored hash, as an editor or a bad disk would.
	editRaw := func(edit func(done []json.RawMessage) []json.RawMessage) []byte {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		var done []json.RawMessage
		if err := json.Unmarshal(m["done"], &done); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(edit(done))
		m["done"] = b
		data, _ := json.Marshal(m)
		return data
	}
	// editHashed edits the checkpoint and recomputes its hash: the numbers themselves are checked.
	editHashed := func(edit func(c *tournament.Checkpoint)) []byte {
		tr, err := tournament.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tr.LoadCheckpoint(good)
		if err != nil {
			t.Fatal(err)
		}
		edit(c)
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"two finished matches swapped", editRaw(func(d []json.RawMessage) []json.RawMessage { d[0], d[1] = d[1], d[0]; return d })},
		{"an entry appended", editRaw(func(d []json.RawMessage) []json.RawMessage { return append(d, d[0]) })},
		{"a nil entry", editRaw(func(d []json.RawMessage) []json.RawMessage { d[1] = json.RawMessage("null"); return d })},
		{"a nil entry, hash recomputed", editHashed(func(c *tournament.Checkpoint) { c.Done[1] = nil })},
		{"a short histogram row, hash recomputed", editHashed(func(c *tournament.Checkpoint) {
			c.Done[0].Orders[0].Share[0] = c.Done[0].Orders[0].Share[0][:2]
		})},
		{"a negative count, hash recomputed", editHashed(func(c *tournament.Checkpoint) { c.Done[1].Orders[1].Wins[0] = -1 })},
		{"two finished matches of different sizes swapped, hash recomputed", editHashed(func(c *tournament.Checkpoint) {
			c.Done[0], c.Done[1] = c.Done[1], c.Done[0]
		})},
		{"an entry appended, hash recomputed", editHashed(func(c *tournament.Checkpoint) { c.Done = append(c.Done, c.Done[0]) })},
		{"cut short", good[:len(good)/2]},
	}
	for _, tt := range tests {
		path := filepath.Join(out, checkpointFile)
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out)
		wantOneLineExit(t, tt.name, code, exitUsage, stderr, "memsim run: "+path+": ")
		if got := dirNames(t, out); !slices.Equal(got, []string{"checkpoint.json", "config.yaml"}) {
			t.Errorf("%s: the refused resume left %v", tt.name, got)
		}
		if data, _ := os.ReadFile(path); !bytes.Equal(data, tt.data) {
			t.Errorf("%s: the refused resume changed the checkpoint", tt.name)
		}
	}
}
