package main

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"memsim/tournament"
	"memsim/tournament/rundir"
)

// listFiles returns the names of the files below dir, relative to it, sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// killedToken is the token of the lock file killedLock, which a killed memsim process left.
const (
	killedToken = "0123456789abcdef"
	killedLock  = "token " + killedToken + "\nmemsim process 1\n"
)

// lockPath is the lock file memsim keeps beside the run folder dir: .NAME.lock in its parent.
func lockPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".lock")
}

// A run folder in use by another process is refused, for a new run, --force and --resume alike.
func TestRunFolderIsLocked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "locked", tinyTournament)
	out := filepath.Join(dir, "out", "locked")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(cfg)
	if err := os.WriteFile(filepath.Join(out, "config.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := f.Lock() // as another process would hold it
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--quiet", cfg},
		{"run", "--quiet", "--force", cfg},
		{"run", "--quiet", "--resume", out},
	} {
		_, stderr, code := runArgs(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "is in use by memsim process") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	lock.Release()
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--force", cfg); code != exitOK {
		t.Fatalf("after the lock is released: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(lockPath(out)); !os.IsNotExist(err) {
		t.Errorf("the lock file stays after the run: %v", err)
	}
}

// --force replaces the whole run folder: a rerun with a deal size fewer leaves none of the earlier
// run's files (its figures of that size among them), and what a killed process left behind
// (temporary files of atomic writes, staging folders) is cleaned up.
func TestForceReplacesTheWholeFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, out := finishedSmallRun(t, dir)
	if !slices.ContainsFunc(listFiles(t, out), func(f string) bool { return strings.Contains(f, "-n4") }) {
		t.Fatal("the first run has no figure of 4 pairs: the test below proves nothing")
	}
	// Leftovers of a killed process, which its lock file shows memsim's.
	stale := []string{lockPath(out), filepath.Join(out, ".checkpoint.json.tmp-"+killedToken+"-123"), filepath.Join(dir, "out", ".small.staging-"+killedToken+"-9", "results.json")}
	for _, s := range stale {
		os.MkdirAll(filepath.Dir(s), 0o755)
		if err := os.WriteFile(s, []byte(killedLock), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Without 4 pairs none of the earlier run's convergence and distribution figures of 4 pairs
	// belongs to the new run (of fewer games: the files are what counts).
	fewer := strings.Replace(smallTournament, "pairs: [3, 4]", "pairs: [3]", 1)
	cfg = writeConfig(t, dir, "small", fewer)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--games", "100", "--force", cfg); code != exitOK {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	for _, s := range stale {
		if _, err := os.Stat(s); !os.IsNotExist(err) {
			t.Errorf("%s is still there", s)
		}
	}
	// A fresh run of the smaller tournament writes exactly the same files.
	fresh := t.TempDir()
	cfg2 := writeConfig(t, fresh, "small", fewer)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--games", "100", cfg2); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, want := listFiles(t, out), listFiles(t, filepath.Join(fresh, "out", "small"))
	if !slices.Equal(got, want) {
		t.Errorf("after --force the folder holds %v, a fresh run %v", got, want)
	}
	for _, f := range got {
		if strings.Contains(f, "-n4") {
			t.Errorf("%s of the earlier run is still there", f)
		}
	}
}

// A run folder whose checkpoint holds every match (the final write failed, say) is completed by
// --resume without playing again, as the failure's message says, to the results of a run that
// was never stopped.
func TestResumeAfterTheLastMatchWritesTheResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "last", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("the run: exit %d: %s", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join(dir, "out", "last", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The state such a failure leaves: the run's configuration and a checkpoint of every match.
	_, out := finishedRunFolder(t, t.TempDir(), "last", tinyTournament)
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out)
	if code != exitOK || !strings.Contains(stderr, "writing to "+out) {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil || string(got) != string(want) {
		t.Fatalf("the resumed results differ from the run's: %v", err)
	}
}

// checkpointOfFinishedRun plays the configuration at path and returns its checkpoint as it
// stands after the last match.
func checkpointOfFinishedRun(t *testing.T, path string) []byte {
	t.Helper()
	return shardCheckpoint(t, path, tournament.Shard{})
}

// memsim never deletes unasked what it did not write: a run, a merge or a report whose folder
// holds anything else (a stray file, shard folders) is refused in one line naming it, and the
// folder is left as it was; a file where the run folder should be is refused even with --force.
func TestOthersFilesAreNeverDeleted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "keep", oneSizeTournament)
	out := filepath.Join(dir, "out", "keep")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
	wantOneLineExit(t, "run over a stray file", code, exitUsage, stderr, "memsim run: run folder "+out+" is not empty (it holds notes.txt): use --force")
	// Shards written beside the stray file; a merge into the folder that holds them is refused.
	for _, s := range []string{"1/2", "2/2"} {
		if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg, "--shard", s); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
	}
	_, stderr, code = runArgs(t, "merge", "--no-figures", "--out", out, filepath.Join(out, "shard-1-of-2"), filepath.Join(out, "shard-2-of-2"))
	wantOneLineExit(t, "merge into the shards' folder", code, exitUsage, stderr, "memsim merge: run folder "+out+" is not empty (it holds notes.txt, shard-1-of-2 and shard-2-of-2): use --force")
	if got := dirNames(t, out); !slices.Equal(got, []string{"notes.txt", "shard-1-of-2", "shard-2-of-2"}) {
		t.Errorf("the refused commands left %v", got)
	}
	// A finished run with a stray file and an earlier report's figure beside it: memsim report
	// rewrites the run's files and figures and leaves the stray file as it is.
	merged := filepath.Join(dir, "merged")
	if _, stderr, code := runArgs(t, "merge", "--no-figures", "--out", merged, filepath.Join(out, "shard-1-of-2"), filepath.Join(out, "shard-2-of-2")); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(merged, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := dirNames(t, merged)
	stalePlot := filepath.Join(merged, "plots", "gone.png")
	if err := os.WriteFile(stalePlot, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A figure memsim did not write is refused, and left as it is with the whole folder.
	reportMD := filepath.Join(merged, "report.md")
	md, err := os.ReadFile(reportMD)
	if err != nil {
		t.Fatal(err)
	}
	beforeTree := listFiles(t, merged)
	_, stderr, code = runArgs(t, "report", merged)
	wantOneLineExit(t, "report beside a stray figure", code, exitUsage, stderr,
		"memsim report: run folder "+merged+": "+filepath.Join(merged, "plots")+" holds gone.png, which memsim did not write there")
	if got := listFiles(t, merged); !slices.Equal(got, beforeTree) {
		t.Errorf("the refused report left %v, before %v", got, beforeTree)
	}
	if data, err := os.ReadFile(stalePlot); err != nil || string(data) != "old" {
		t.Errorf("the refused report changed the stray figure: %q, %v", data, err)
	}
	// The figure of an earlier report, which its report.md names, is memsim's.
	if err := os.WriteFile(reportMD, append(md, "\n![Gone](plots/gone.png)\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runArgs(t, "report", merged); code != exitOK {
		t.Fatalf("report beside a stray file: exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(filepath.Join(merged, "notes.txt")); err != nil || string(data) != "mine" {
		t.Errorf("report changed the stray file: %q, %v", data, err)
	}
	if got := dirNames(t, merged); !slices.Equal(got, before) {
		t.Errorf("after report the folder holds %v, before %v", got, before)
	}
	if _, err := os.Stat(stalePlot); !os.IsNotExist(err) {
		t.Errorf("a figure no report draws survived: %v", err)
	}
	// A file where the run folder should be.
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runArgs(t, "run", "--no-figures", "--quiet", "--force", cfg)
	wantOneLineExit(t, "run --force over a file", code, exitUsage, stderr, "memsim run: run folder "+out+" is a file, not a folder")
	if data, _ := os.ReadFile(out); string(data) != "mine" {
		t.Errorf("the file in the run folder's place was changed: %q", data)
	}
}

// A run folder is the same folder however it is named (a trailing slash, "."): its lock and
// staging folders go beside it, never into it. --resume keeps a user's files beside the run; only
// the names memsim's own writes leave behind count as leftovers, so a user's file that merely
// looks like one is neither deleted nor taken for one.
func TestRunFolderNamesAndLeftovers(t *testing.T) {
	dir := t.TempDir()
	_, out := finishedRunFolder(t, dir, "named", oneSizeTournament)
	mine := []string{filepath.Join(out, ".old-keep", "notes.txt"), filepath.Join(out, ".notes.tmp-1")}
	for _, m := range mine {
		os.MkdirAll(filepath.Dir(m), 0o755)
		if err := os.WriteFile(m, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	memsims := filepath.Join(out, ".checkpoint.json.tmp-"+killedToken+"-42") // what a killed write leaves
	if err := os.WriteFile(memsims, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lockPath(out), []byte(killedLock), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", out+string(filepath.Separator)); code != exitOK {
		t.Fatalf("resume beside a user's files, with a trailing slash: exit %d: %s", code, stderr)
	}
	for _, m := range mine {
		if data, err := os.ReadFile(m); err != nil || string(data) != "mine" {
			t.Errorf("%s: %q, %v", m, data, err)
		}
	}
	if _, err := os.Stat(memsims); !os.IsNotExist(err) {
		t.Errorf("the killed write's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Errorf("the resumed run wrote no results: %v", err)
	}
	if err := os.RemoveAll(filepath.Join(out, ".old-keep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mine[1]); err != nil {
		t.Fatal(err)
	}
	// memsim report ., from inside the folder.
	t.Chdir(out)
	if _, stderr, code := runArgs(t, "report", "."); code != exitOK {
		t.Fatalf("report .: exit %d: %s", code, stderr)
	}
	want := []string{"config.yaml", "matchups.csv", "plots", "report.html", "report.md", "results.json"}
	if got := dirNames(t, out); !slices.Equal(got, want) {
		t.Errorf("the run folder holds %v, want %v", got, want)
	}
	if got := dirNames(t, filepath.Dir(out)); !slices.Equal(got, []string{"named"}) {
		t.Errorf("beside the run folder: %v", got)
	}
}

// --resume-or-start, for cluster tasks that are retried: the same command resumes the run folder's
// checkpoint when it is this configuration's, starts where there is none, and refuses another
// configuration's.
func TestResumeOrStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, out := finishedRunFolder(t, dir, "retry", tinyTournament) // as a killed task leaves it
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
	wantOneLineExit(t, "a plain run over the checkpoint", code, exitUsage, stderr, "memsim run: ", "already holds a run (checkpoint.json)")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", cfg); code != exitOK || !strings.Contains(stderr, "resumed") {
		t.Fatalf("retry: exit %d: %s", code, stderr)
	}
	// The same as an uninterrupted run.
	fresh := t.TempDir()
	cfg2 := writeConfig(t, fresh, "retry", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", cfg2); code != exitOK {
		t.Fatalf("a first try: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(filepath.Join(out, "results.json"))
	b, _ := os.ReadFile(filepath.Join(fresh, "out", "retry", "results.json"))
	if len(a) == 0 || string(a) != string(b) {
		t.Error("the retried run's results differ from an uninterrupted run's")
	}
	// Another configuration's checkpoint is refused.
	_, other := finishedRunFolder(t, t.TempDir(), "retry", tinyTournament)
	changed := writeConfig(t, filepath.Dir(filepath.Dir(other)), "retry", strings.Replace(tinyTournament, "seed: 3", "seed: 4", 1))
	_, stderr, code = runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", changed)
	wantOneLineExit(t, "another configuration's checkpoint", code, exitUsage, stderr, "memsim run: ", "holds an interrupted run of another configuration")
	_, stderr, code = runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", "--force", cfg)
	wantOneLineExit(t, "with --force", code, exitUsage, stderr, "memsim run: --resume-or-start goes with neither --resume nor --force")
}

// A symbolic link where a run folder's lock file should be is refused in one line, and the file
// it names is left as it was.
func TestRunRefusesALinkAsItsLockFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "r", tinyTournament)
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(out, ".r.lock")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
	wantOneLineExit(t, "run with a link as its lock file", code, exitUsage, stderr,
		"memsim run: run folder "+filepath.Join(out, "r")+" cannot be locked: its lock file "+filepath.Join(out, ".r.lock")+" is a symbolic link")
	if data, err := os.ReadFile(victim); err != nil || string(data) != "precious\n" {
		t.Errorf("the file the link names: %q, %v", data, err)
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{".r.lock"}) {
		t.Errorf("the refused run left %v", got)
	}
}

// The audit folder is locked as a run folder is: a second audit to a folder in use is refused
// before it starts; an audit that fails leaves the earlier audit as it was; a folder holding
// anything but an audit is only replaced with --force.
func TestAuditFolderIsLockedAndReplacedWhole(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "audit")
	earlier := map[string]string{"audit.json": "{}\n", "audit.md": "an earlier audit\n", "audit.html": "<p>earlier</p>\n"}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range earlier {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unchanged := func(what string) {
		t.Helper()
		if got := dirNames(t, dir); !slices.Equal(got, []string{"audit.html", "audit.json", "audit.md"}) {
			t.Errorf("%s: the folder holds %v", what, got)
		}
		for name, content := range earlier {
			if data, _ := os.ReadFile(filepath.Join(dir, name)); string(data) != content {
				t.Errorf("%s: %s is now %q", what, name, data)
			}
		}
		if got := dirNames(t, filepath.Dir(dir)); !slices.Equal(got, []string{"audit"}) {
			t.Errorf("%s: beside the folder: %v", what, got)
		}
	}
	f, err := rundir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := f.Lock() // as another audit would hold it
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "audit", "--force", "--output", dir)
	wantOneLineExit(t, "an audit to a folder in use", code, exitUsage, stderr,
		"memsim audit: audit folder "+dir+" is in use by memsim process", ": wait for it to finish, or stop it")
	lock.Release()
	unchanged("refused as in use")
	// An audit that fails (here, cancelled before it ends) leaves the earlier one.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var errb strings.Builder
	if code := run(ctx, []string{"audit", "--force", "--output", dir}, noEnv, io.Discard, &errb); code != exitError {
		t.Errorf("a cancelled audit: exit %d, %q", code, errb.String())
	}
	unchanged("a failed audit")
	// Anything but an audit.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runArgs(t, "audit", "--output", other)
	wantOneLineExit(t, "an audit to a folder of one's own", code, exitUsage, stderr,
		"memsim audit: audit folder "+other+" is not empty (it holds notes.txt): use --force to write the audit beside what it holds, or choose another output folder")
}

// A --force run replaces the old run only once it has finished: interrupted, it leaves its own
// config.yaml and checkpoint and nothing of the old run, nor staging folders or its lock beside
// the folder. memsim report then refuses the folder, and refuses an old results.json put back
// beside the new config.yaml, which it is not the run of.
func TestInterruptedForceRunLeavesNoStaleResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "f", tinyTournament)
	out := filepath.Join(dir, "out", "f")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
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
		code.Store(int64(run(ctx, []string{"run", "--quiet", "--force", "--games", "100000000", "--checkpoint-every", "1ns", cfg}, noEnv, io.Discard, &stderr)))
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
	// The old run's results.json, put back beside the new config.yaml, is refused.
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

// While another process plays in a run folder, a new run, a --force run and a --resume are refused
// with the PID of the process that holds it; once that process is killed (its lock file stays
// behind), the folder can be used again.
func TestRunFolderInUseByAnotherProcessIsRefused(t *testing.T) {
	t.Parallel()
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
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--force", "--games", "2000", cfg); code != exitOK {
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

// readFiles reads every file below dir, by its path relative to dir.
func readFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range listFiles(t, dir) {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(data)
	}
	return out
}

// shardedRun plays the configuration tinyTournament in two shards and merges them beside the
// shards, into <run folder>/merged, as the README's shard example does, and puts a file of the
// user's there too. It returns the configuration and the run folder.
func shardedRun(t *testing.T) (cfg, out string) {
	t.Helper()
	dir := t.TempDir()
	cfg = writeConfig(t, dir, "sh", tinyTournament)
	out = filepath.Join(dir, "out", "sh")
	for _, s := range []string{"1/2", "2/2"} {
		if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg, "--shard", s); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
	}
	merged := filepath.Join(out, "merged")
	if _, stderr, code := runArgs(t, "merge", "--no-figures", "--out", merged, filepath.Join(out, "shard-1-of-2"), filepath.Join(out, "shard-2-of-2")); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, out
}

// A run folder that holds shard folders and the merged run written beside them (memsim merge
// --out results/big/merged results/big/shard-*-of-8) is not written by a plain memsim run of its
// configuration: the run is refused, naming --force. memsim run --force, twice, writes the run
// beside them and keeps the shards, the merged run and the user's file byte for byte.
func TestForceKeepsShardsAndMergedRun(t *testing.T) {
	t.Parallel()
	cfg, out := shardedRun(t)
	kept := readFiles(t, out)
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
	wantOneLineExit(t, "run over a folder of shards", code, exitUsage, stderr, "memsim run: run folder "+out+" is not empty",
		"use --force to write the run beside what it holds")
	for i := range 2 {
		if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--force", cfg); code != exitOK {
			t.Fatalf("--force, run %d: exit %d: %s", i+1, code, stderr)
		}
		got := readFiles(t, out)
		for f, data := range kept {
			if got[f] != data {
				t.Errorf("--force, run %d: %s changed or is gone", i+1, f)
			}
		}
		// The run's own files: those of the merged run, the same games.
		for _, f := range []string{"results.json", "report.md", "matchups.csv"} {
			if got[f] != kept["merged/"+f] {
				t.Errorf("--force, run %d: %s differs from the merged run's", i+1, f)
			}
		}
	}
}

// --clean-shards, with --force, deletes the shard folders and the merged run, and keeps the
// user's file; without --force it is refused and deletes nothing.
func TestCleanShardsRemovesShardsAndMergedRun(t *testing.T) {
	t.Parallel()
	cfg, out := shardedRun(t)
	before := readFiles(t, out)
	wantUsageError(t, []string{"run", "--quiet", "--clean-shards", cfg}, "memsim run: --clean-shards goes with --force: memsim run --force --clean-shards [CONFIG.yaml]")
	if got := readFiles(t, out); !maps.Equal(got, before) {
		t.Errorf("the refused run changed the folder")
	}
	// A folder of one's own that holds only a config.yaml holds no work of memsim's: it stays.
	mine := filepath.Join(out, "mine")
	if err := os.Mkdir(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "config.yaml"), []byte("seed: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--force", "--clean-shards", cfg)
	if code != exitOK {
		t.Fatalf("--force --clean-shards: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "memsim run: --clean-shards removed merged, shard-1-of-2, shard-2-of-2 from "+out+"\n") {
		t.Errorf("stderr does not name what --clean-shards removed: %q", stderr)
	}
	want := []string{"config.yaml", "matchups.csv", "mine", "notes.txt", "plots", "report.html", "report.md", "results.json"}
	if got := dirNames(t, out); !slices.Equal(got, want) {
		t.Errorf("after --clean-shards the folder holds %v, want %v", got, want)
	}
	if got := readFiles(t, out)["notes.txt"]; got != "mine" {
		t.Errorf("notes.txt is now %q", got)
	}
}

// memsim report refuses, in one line and at once, a results.json or config.yaml that is a link
// to /dev/zero: it never reads without end, and lets the folder's lock go.
func TestReportRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "z", tinyTournament)
	out := filepath.Join(dir, "out", "z")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for _, file := range []string{"results.json", "config.yaml"} {
		path := filepath.Join(out, file)
		saved, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		if err := os.Symlink("/dev/zero", path); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		_, stderr, code := runArgs(t, "report", out)
		wantOneLineExit(t, file+" as a link to /dev/zero", code, exitUsage, stderr, "memsim report: ", path+" is a device, not a regular file")
		if _, err := os.Stat(lockPath(out)); !os.IsNotExist(err) {
			t.Errorf("%s as a link to /dev/zero: the lock file is left: %v", file, err)
		}
		os.Remove(path)
		if err := os.WriteFile(path, saved, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
