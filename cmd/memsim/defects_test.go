package main

// Tests of the defects listed in issue 13 ("Run folders you can trust, inputs that can't hurt, and
// a command line that meets users' habits") that no other test reproduced: each sets up the bad
// input or the fault the issue describes and checks the fixed behaviour. Tests marked
// t.Skip("not fixed: ...") reproduce a defect that is still there; they fail without the Skip.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"memsim/tournament"
)

// tinyTournament plays fast: two players without an exact model (so no convergence or
// distribution figures), two deal sizes (two matches, so a checkpoint has two finished ones).
const tinyTournament = `seed: 3
paired: true
games: 2000
rules: {pairs: [3, 4]}
players:
  - {name: greedy, policy: greedy-random}
  - {name: random, policy: random}
`

// dirNames returns the names in dir, hidden ones included, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// wantOneLineExit checks that a command failed with status code and one line on stderr that
// begins with prefix and holds every fragment of want.
func wantOneLineExit(t *testing.T, what string, code, wantCode int, stderr, prefix string, want ...string) {
	t.Helper()
	ok := code == wantCode && strings.Count(stderr, "\n") == 1 && strings.HasSuffix(stderr, "\n") && strings.HasPrefix(stderr, prefix)
	for _, w := range want {
		ok = ok && strings.Contains(stderr, w)
	}
	if !ok {
		t.Errorf("%s: exit %d, stderr %q; want exit %d and one line %q... holding %q", what, code, stderr, wantCode, prefix, want)
	}
}

// finishedRunFolder writes the state a run folder is in when its games are all played but its
// results not yet written (the final write failed, say): config.yaml and a checkpoint holding
// every match. It returns the configuration file and the run folder.
func finishedRunFolder(t *testing.T, dir, name, body string) (cfg, out string) {
	t.Helper()
	cfg = writeConfig(t, dir, name, body)
	out = filepath.Join(dir, "out", name)
	c, err := loadConfig([]string{cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "config.yaml"), c.YAML(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, checkpointFile), checkpointOfFinishedRun(t, cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, out
}

// Issue 13, inputs: "games: 1000000000000000000 panic (makeslice)", "from 10^13 games memsim dies
// at once", "players_per_game: 8 with 16 players enumerates 5×10⁸ seatings", "pairs: [1000] with
// 1,000 singletons reached 2 GB", "an output path with a NUL byte creates its parent folder before
// failing, and a 100,000-character name leaves an empty folder behind". Each configuration is
// refused at its key, in one line, before anything is created.
func TestDefectConfigurationBoundsCreateNothing(t *testing.T) {
	var sixteen strings.Builder
	for i := range 16 {
		sixteen.WriteString("  - {name: p" + strconv.Itoa(i) + ", policy: daring}\n")
	}
	two := "players: [{name: a, policy: safe}, {name: b, policy: daring}]\n"
	tests := []struct {
		name, body, want string
	}{
		{"games 1e18", "name: g\ngames: 1000000000000000000\n" + two, ":3:8: games: must be between 1 and 100000000000, got 1000000000000000000"},
		{"games 1e13", "name: g\ngames: 10000000000000\n" + two, ":3:8: games: must be between 1 and 100000000000, got 10000000000000"},
		{"16 players in games of 8", "name: g\nrules: {players_per_game: 8}\nplayers:\n" + sixteen.String(), "16 players in games of 8 make more than 10000 seat orders"},
		{"1000 pairs and 1000 singletons", "name: g\nrules: {pairs: [1000], singletons: 1000}\n" + two, "1000 pairs and 1000 singletons need choice tables of 1e+09 cells"},
		{"NUL in the output", "name: g\noutput: %q\n" + two, "a path must not hold control characters"},
		{"a 100,000-character name", "name: " + strings.Repeat("n", 100000) + "\n" + two, "name: 100000 characters: a name (a folder name) has at most 200"},
		{"a 100,000-byte output", "name: g\noutput: %q\n" + two, "bytes: a path has at most 4000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			body := tt.body
			switch tt.name {
			case "NUL in the output":
				body = strings.Replace(body, "%q", strconv.Quote(filepath.Join(dir, "out", "sub\x00x")), 1)
			case "a 100,000-byte output":
				body = strings.Replace(body, "%q", strconv.Quote(filepath.Join(dir, "out", strings.Repeat("d", 100000))), 1)
			default:
				if !strings.Contains(body, "output:") {
					body = "output: " + strconv.Quote(filepath.Join(dir, "out")) + "\n" + body
				}
			}
			cfg := filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runArgs(t, "run", "--quiet", cfg)
			wantOneLineExit(t, tt.name, code, exitUsage, stderr, "memsim run: "+cfg+":", tt.want)
			if got := dirNames(t, dir); !slices.Equal(got, []string{"c.yaml"}) {
				t.Errorf("%s: the refused run created %v", tt.name, got)
			}
		})
	}
}

// Issue 13, inputs: output paths with a NUL byte or of 100,000 characters, given to audit
// --output, are refused before anything is created.
func TestDefectAuditOutputCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "sub", "a\x00b"), filepath.Join(dir, "sub", strings.Repeat("d", 100000))} {
		_, stderr, code := runArgs(t, "audit", "--output", out)
		wantOneLineExit(t, "audit --output", code, exitUsage, stderr, "memsim audit: --output ", "a path of at most 4000 bytes without control characters")
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("refused audits created %v", got)
	}
}

// Issue 13, inputs: "a 100,000-character name leaves an empty folder behind". A name is now
// bounded, but an output path whose one component is longer than a file system allows (300 bytes,
// well within the 4,000-byte bound) still fails only once its parent folders are created, in run,
// audit and merge alike, and leaves them behind.
func TestDefectOverlongPathComponentCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("d", 300)
	cfg := filepath.Join(dir, "c.yaml")
	body := "name: g\noutput: " + strconv.Quote(filepath.Join(dir, "out", "sub", long)) + "\ngames: 100\n" +
		"players: [{name: a, policy: safe}, {name: b, policy: daring}]\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "run", "--quiet", cfg)
	if code != exitUsage || strings.Count(stderr, "\n") != 1 {
		t.Errorf("run: exit %d, %q; want exit 2 and one line", code, stderr)
	}
	_, stderr, code = runArgs(t, "audit", "--output", filepath.Join(dir, "audit", "sub", long))
	if code != exitUsage || strings.Count(stderr, "\n") != 1 {
		t.Errorf("audit: exit %d, %q; want exit 2 and one line", code, stderr)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"c.yaml"}) {
		t.Errorf("the refused commands created %v", got)
	}
}

// Issue 13, inputs: "an output path with a NUL byte [or control characters] ... is refused before
// anything is created" holds for run's output and audit --output, not for merge --out, which
// creates a folder with a control character in its name, and creates the parents of a NUL or
// overlong name before failing.
func TestDefectMergeOutPathIsChecked(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "m", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--quiet", "--shard", "1/1", cfg); code != exitOK {
		t.Fatalf("shard: exit %d: %s", code, stderr)
	}
	shard := filepath.Join(dir, "out", "m", "shard-1-of-1")
	for _, out := range []string{"a\x01b", "a\x00b", strings.Repeat("d", 300), strings.Repeat("d", 5000)} {
		_, stderr, code := runArgs(t, "merge", shard, "--out", filepath.Join(dir, "merged", "sub", out))
		if code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge --out %q: exit %d, %q; want exit 2 and one line", out[:min(len(out), 8)], code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "merged")); !os.IsNotExist(err) {
			t.Errorf("merge --out %q created %s", out[:min(len(out), 8)], filepath.Join(dir, "merged"))
			os.RemoveAll(filepath.Join(dir, "merged"))
		}
	}
}

// Issue 13, trust: "--force leaves the old results.json, reports, plots and shard folders in place
// until the new run finishes. An interrupted --force run leaves a config.yaml for 50M games next
// to a results.json from 100k, and memsim report then renders the stale data with exit 0." An
// interrupted --force run now leaves its own config.yaml and checkpoint only, and memsim report
// refuses a results.json that is not its config.yaml's run.
func TestDefectInterruptedForceLeavesNoStaleRun(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "f", tinyTournament)
	out := filepath.Join(dir, "out", "f")
	if _, stderr, code := runArgs(t, "run", "--quiet", cfg); code != exitOK {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	stale, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	// A --force run of far more games, interrupted once it has written its first checkpoint.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	var code atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		code.Store(int64(run(ctx, []string{"run", "--quiet", "--force", "--games", "100000000", "--checkpoint-every", "1ns", cfg}, io.Discard, &stderr)))
	}()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(out, checkpointFile)); err == nil {
			break
		}
		select {
		case <-done:
			t.Fatalf("the --force run ended before its first checkpoint: exit %d, %s", code.Load(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatal("no checkpoint appeared")
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	// The first line names the run folder; the last says how to go on.
	lines := strings.SplitAfter(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	wantOneLineExit(t, "interrupted --force", int(code.Load()), exitError, lines[len(lines)-1]+"\n", "memsim run: interrupted", "resume with: memsim run --resume "+out)
	if got := dirNames(t, out); !slices.Equal(got, []string{"checkpoint.json", "config.yaml"}) {
		t.Errorf("the interrupted --force run left %v in its folder, want its config.yaml and checkpoint.json only", got)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "config.yaml")); !strings.Contains(string(data), "\ngames: 100000000\n") {
		t.Errorf("config.yaml is not the --force run's:\n%s", data)
	}
	if got := dirNames(t, filepath.Join(dir, "out")); !slices.Equal(got, []string{"f"}) {
		t.Errorf("beside the run folder: %v (staging folders, old folders or the lock left behind)", got)
	}
	_, errText, c := runArgs(t, "report", out)
	wantOneLineExit(t, "report of the interrupted run", c, exitUsage, errText, "memsim report: ", "results.json")
	// The stale results.json the old memsim left beside the new config.yaml is refused.
	if err := os.WriteFile(filepath.Join(out, "results.json"), stale, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errText, c = runArgs(t, "report", out)
	wantOneLineExit(t, "report of stale results", c, exitUsage, errText, "memsim report: "+filepath.Join(out, "results.json")+" is not the run of "+filepath.Join(out, "config.yaml"),
		"2000 games per matchup, the configuration's 100000000")
	if got := dirNames(t, out); !slices.Equal(got, []string{"checkpoint.json", "config.yaml", "results.json"}) {
		t.Errorf("the refused report wrote: %v", got)
	}
}

// Issue 13, trust: "A SIGKILL during a checkpoint write leaves .checkpoint.json.tmp-* files
// forever." --resume cleans up what a killed process left (temporary files of atomic writes,
// staging and moved-away folders) and finishes the run. (TestForceReplacesTheWholeFolder covers
// --force.)
func TestDefectResumeCleansUpLeftovers(t *testing.T) {
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
	if _, stderr, code := runArgs(t, "run", "--quiet", "--resume", out); code != exitOK {
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

// Issue 13, habits: "after --resume it counts checkpointed games as just played (4.7e9
// games/s)". The progress line's estimate no longer does, but the line memsim run ends with still
// counts the games of the checkpoint as played in this process: a resumed run that plays nothing
// reports "8000 games in 0.00 s (6.39e+08 games/s)" (a real resume of 15M of 30M games printed
// 5.2e6 games/s for a pace of 3.9e6).
func TestDefectLastLineAfterResume(t *testing.T) {
	dir := t.TempDir()
	_, out := finishedRunFolder(t, dir, "l", tinyTournament)
	_, stderr, code := runArgs(t, "run", "--quiet", "--resume", out)
	if code != exitOK {
		t.Fatalf("--resume: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	m := regexp.MustCompile(`\(([0-9.e+-]+) games/s\)`).FindStringSubmatch(last)
	if m == nil {
		return // no rate given
	}
	if rate, err := strconv.ParseFloat(m[1], 64); err == nil && rate > 0 && !strings.Contains(last, "resumed") {
		t.Errorf("no game was played after resuming, yet: %q", last)
	}
}

// Issue 13, habits: "with a stop block it reports 6.5e7 games/s for 98k deals". memsim run's last
// line counts the games the results hold, not the games planned.
func TestDefectLastLineWithAStopRule(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "stop", `seed: 4
paired: true
games: 1000000
rules: {pairs: [4]}
players:
  - {name: optimal, policy: optimal}
  - {name: random, policy: random}
stop:
  sprt: {d: 0.2, alpha: 0.01, beta: 0.01}
`)
	_, stderr, code := runArgs(t, "run", "--quiet", cfg)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	held := int64(0)
	for _, m := range readRun(t, filepath.Join(dir, "out", "stop")).Matchups {
		if m.StoppedEarly == "" {
			t.Errorf("%v did not stop early", m.Players)
		}
		held += m.Games
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; held >= 2000000 || !strings.HasPrefix(last, "memsim run: "+strconv.FormatInt(held, 10)+" games in ") {
		t.Errorf("the results hold %d games of the 2000000 planned; the last line says %q", held, last)
	}
}

// Issue 13, trust: "A checkpoint.json ... with edited numbers is used as it is ... Swapping two
// finished matches swaps two matchups' results, and appending entries reports a 26-pair matchup
// with 12-pair data ... A nil entry, a histogram row of the wrong length, or a negative count
// crashes memsim with a Go panic." memsim run --resume refuses each in one line naming the file,
// and writes nothing.
func TestDefectDamagedCheckpointOnResume(t *testing.T) {
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
		_, stderr, code := runArgs(t, "run", "--quiet", "--resume", out)
		wantOneLineExit(t, tt.name, code, exitUsage, stderr, "memsim run: "+path+": ")
		if got := dirNames(t, out); !slices.Equal(got, []string{"checkpoint.json", "config.yaml"}) {
			t.Errorf("%s: the refused resume left %v", tt.name, got)
		}
		if data, _ := os.ReadFile(path); !bytes.Equal(data, tt.data) {
			t.Errorf("%s: the refused resume changed the checkpoint", tt.name)
		}
	}
}

// Issue 13, trust: "Of 400 mutations of a shard.json, 150 were silent and 52 panicked." memsim
// merge refuses a damaged shard.json in one line naming it and creates no run folder
// (TestDamagedShards runs the seeded mutations on the library).
func TestDefectDamagedShardOnMerge(t *testing.T) {
	dir := t.TempDir()
	cfgPath := writeConfig(t, dir, "s", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--quiet", "--shard", "1/1", cfgPath); code != exitOK {
		t.Fatalf("shard: exit %d: %s", code, stderr)
	}
	shard := filepath.Join(dir, "out", "s", "shard-1-of-1")
	path := filepath.Join(shard, shardFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig([]string{cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	hashed := func(edit func(s *tournament.ShardResult)) []byte {
		tr, err := tournament.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := tr.LoadShardResult(good)
		if err != nil {
			t.Fatal(err)
		}
		edit(s)
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	games := regexp.MustCompile(`"Games":(\d+)`)
	tests := []struct {
		name string
		data []byte
	}{
		{"a count edited", games.ReplaceAll(good, []byte(`"Games":1999`))},
		{"cut short", good[:len(good)-3]},
		{"a nil match, hash recomputed", hashed(func(s *tournament.ShardResult) { s.Results[0] = nil })},
		{"a negative count, hash recomputed", hashed(func(s *tournament.ShardResult) { s.Results[1].Orders[0].Share[0][1] = -3 })},
		{"a short row, hash recomputed", hashed(func(s *tournament.ShardResult) { s.Results[0].Orders[1].Share[1] = s.Results[0].Orders[1].Share[1][:1] })},
		{"matches swapped, hash recomputed", hashed(func(s *tournament.ShardResult) { s.Results[0], s.Results[1] = s.Results[1], s.Results[0] })},
		{"a match appended, hash recomputed", hashed(func(s *tournament.ShardResult) { s.Results = append(s.Results, s.Results[0]) })},
	}
	if !games.Match(good) {
		t.Fatal("no games count in shard.json")
	}
	for _, tt := range tests {
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		merged := filepath.Join(dir, "merged")
		_, stderr, code := runArgs(t, "merge", shard, "--out", merged)
		wantOneLineExit(t, tt.name, code, exitUsage, stderr, "memsim merge: "+path+": ")
		if _, err := os.Stat(merged); !os.IsNotExist(err) {
			t.Errorf("%s: the refused merge created %s", tt.name, merged)
			os.RemoveAll(merged)
		}
	}
}

// Issue 13, trust: "No lock protects a run folder. Two starts on one config can both run.
// --resume on a folder whose run is still live runs beside it. A finished run deletes another
// --force run's checkpoint." With a real second process playing in the folder, a new run, a
// --force run and a --resume are refused with the PID of the process that holds it; once that
// process is killed (its lock file stays behind), the folder can be used again.
func TestDefectRunFolderLockedByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "live", tinyTournament)
	out := filepath.Join(dir, "out", "live")
	cmd := exec.Command(os.Args[0], "run", "--quiet", "--games", "100000000", "--checkpoint-every", "1ns", cfg)
	cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1")
	var childErr bytes.Buffer
	cmd.Stderr = &childErr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	holder := "memsim process " + strconv.Itoa(cmd.Process.Pid)
	deadline := time.Now().Add(time.Minute)
	for {
		// The checkpoint shows the child has claimed the folder and is playing.
		data, _ := os.ReadFile(lockPath(out))
		if _, err := os.Stat(filepath.Join(out, checkpointFile)); err == nil && strings.Contains(string(data), "\n"+holder+"\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other process did not start playing: %s", childErr.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	for _, args := range [][]string{
		{"run", "--quiet", cfg},
		{"run", "--quiet", "--force", "--games", "2000", cfg},
		{"run", "--quiet", "--resume", out},
	} {
		_, stderr, code := runArgs(t, args...)
		wantOneLineExit(t, strings.Join(args[:3], " "), code, exitUsage, stderr, "memsim run: run folder "+out+" is in use by "+holder)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed = true
	if _, err := os.Stat(lockPath(out)); err != nil {
		t.Fatalf("the killed process's lock file: %v", err)
	}
	// The lock of a killed process is taken over.
	if _, stderr, code := runArgs(t, "run", "--quiet", "--force", "--games", "2000", cfg); code != exitOK {
		t.Fatalf("--force after the other process was killed: exit %d: %s", code, stderr)
	}
	if got := dirNames(t, filepath.Join(dir, "out")); !slices.Equal(got, []string{"live"}) {
		t.Errorf("beside the run folder: %v", got)
	}
	for _, f := range dirNames(t, out) {
		if strings.HasPrefix(f, ".") || f == checkpointFile {
			t.Errorf("%s of the killed run is still in the folder", f)
		}
	}
}

// Issue 13, inputs: "validate --games 1 reports 1,509 false rejections, because the sample SD is
// 0." validate now refuses fewer than 100 games, and a suite whose games are fewer too.
func TestDefectValidateSuiteWithTooFewGames(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yaml")
	body := "name: tiny\ngames: 5\nrules: {pairs: [3]}\nplayers: [{name: a, policy: optimal}, {name: b, policy: daring}]\n"
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "validate", "--quiet", suite)
	wantOneLineExit(t, "validate of a suite of 5 games", code, exitUsage, stderr, "memsim validate: "+suite+":2:8: games: 5 per matchup is too few to validate")
}

// Issue 13, inputs: the same defect at the smallest G validate accepts. The luck-adjusted check
// of the embedded suite's win-lru-3 at 8 pairs has a sample SD of 0 with up to about 200 games
// (its standard error is then the floor 1e-7), and validate --games 100 rejects it with z =
// -65,299 (observed 4.0196, exact 4.0261): a false rejection and exit status 1.
func TestDefectValidateFewGamesFalseRejection(t *testing.T) {
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
	if code == exitUsage {
		return // G refused as too small for the tests: fixed that way
	}
	if code != exitOK {
		t.Errorf("validate --games 100: exit %d (a rejection of an exact value the engine meets):\n%s%s", code, stdout, stderr)
	}
}

// A run folder is never replaced without --force (README, "Interrupted runs, shards and
// clusters"), but one that holds only shard folders, and the merged run the README's example
// writes beside them (memsim merge --out results/big/merged results/big/shard-*-of-8), is
// replaced whole by a plain memsim run of its configuration: the shards and the merged run are
// deleted. (The fix of issue 13's "--force leaves ... shard folders in place" went the other way.)
func TestDefectRunWithoutForceKeepsShards(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sh", tinyTournament)
	out := filepath.Join(dir, "out", "sh")
	for _, s := range []string{"1/2", "2/2"} {
		if _, stderr, code := runArgs(t, "run", "--quiet", cfg, "--shard", s); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
	}
	merged := filepath.Join(out, "merged")
	if _, stderr, code := runArgs(t, "merge", "--out", merged, filepath.Join(out, "shard-1-of-2"), filepath.Join(out, "shard-2-of-2")); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	_, stderr, code := runArgs(t, "run", "--quiet", cfg)
	if code != exitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("run over a folder of shards without --force: exit %d, %q; want it refused, naming --force", code, stderr)
	}
	for _, f := range []string{"shard-1-of-2", "shard-2-of-2", "merged"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Issue 13, habits: "Figures go to the first 8 matchups ... PNG names have gaps. report.md links no
// figure. The distribution plot has an empty slot between bars." A run's PNGs are named after
// their matchups, report.md links every one of them, and the distribution of a game without
// stalemates has no slot for the half shares nobody can reach.
func TestDefectFigureNamesLinksAndSlots(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "fig", `seed: 9
games: 2000
rules: {pairs: [3]}
players:
  - {name: optimal, policy: optimal}
  - {name: parity, policy: parity}
`)
	if _, stderr, code := runArgs(t, "run", "--quiet", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "fig")
	want := []string{"convergence-n3-optimal-vs-parity.png", "convergence-n3-parity-vs-optimal.png",
		"distribution-n3-optimal-vs-parity.png", "distribution-n3-parity-vs-optimal.png", "strategy-0.png", "tournament.png"}
	if got := dirNames(t, filepath.Join(out, "plots")); !slices.Equal(got, want) {
		t.Errorf("plots/ holds %v, want %v", got, want)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, png := range want {
		if !strings.Contains(string(md), "](plots/"+png+")") {
			t.Errorf("report.md does not link plots/%s", png)
		}
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fig := range strings.Split(string(html), "<figure>") {
		if !strings.Contains(fig, "<h2>Score distribution:") {
			continue
		}
		n++
		// Shares 0 to 3 pairs; 0.5, 1.5 and 2.5 need a stalemate, which pass never does not have.
		for _, label := range []string{">0<", ">1<", ">2<", ">3<"} {
			if !strings.Contains(fig, label) {
				t.Errorf("a distribution lacks the share %s", label)
			}
		}
		for _, label := range []string{">1.5<", ">2.5<"} {
			if strings.Contains(fig, label) {
				t.Errorf("a distribution has an empty slot for the share %s", label)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d distribution figures in report.html, want 2", n)
	}
}
