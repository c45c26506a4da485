package main

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/tournament"
)

// shardCheckpoint plays shard s of the configuration at path (the zero Shard: all of it) and
// returns its checkpoint as it stands after the last match.
func shardCheckpoint(t *testing.T, path string, s tournament.Shard) []byte {
	t.Helper()
	cfg, err := loadConfig([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetShard(s); err != nil {
		t.Fatal(err)
	}
	var last []byte
	_, err = tr.Play(context.Background(), tournament.Options{Checkpoint: func(c *tournament.Checkpoint) error {
		last, err = json.Marshal(c)
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	return last
}

// interruptedFolder writes the run folder dir as an interrupted run of the configuration at path
// leaves it: its config.yaml and the checkpoint ck.
func interruptedFolder(t *testing.T, path, dir string, ck []byte) {
	t.Helper()
	cfg, err := loadConfig([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string][]byte{"config.yaml": cfg.YAML(), checkpointFile: ck})
}

// writeTree writes files, relative paths and their contents, below dir.
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for rel, data := range files {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns the files below dir, relative paths and their contents.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, rel := range listFiles(t, dir) {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = data
	}
	return files
}

// sameTree reports whether two trees of readTree are the same, byte for byte.
func sameTree(a, b map[string][]byte) bool {
	return maps.EqualFunc(a, b, func(x, y []byte) bool { return string(x) == string(y) })
}

// --resume-or-start resumes only a checkpoint of its own shard: another shard's checkpoint (or
// the whole run's, in a shard's folder, and a shard's in the whole run's) is refused in one line
// naming both, and left as it was, since starting would delete it. Its own shard's checkpoint
// is resumed to what an uninterrupted run of the shard writes.
func TestResumeOrStartResumesOnlyItsOwnShard(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sh", tinyTournament)
	whole := filepath.Join(dir, "out", "sh")
	shard := func(i int) string { return filepath.Join(whole, "shard-"+[]string{"", "1", "2"}[i]+"-of-2") }
	one, two := tournament.Shard{Index: 1, Count: 2}, tournament.Shard{Index: 2, Count: 2}
	for _, tt := range []struct {
		what   string
		folder string            // the run folder the command line names
		ck     tournament.Shard  // the shard whose checkpoint it holds
		env    map[string]string // the environment
		args   []string          // the flags besides --quiet --resume-or-start
		want   string            // what the refusal says
	}{
		{"--shard 2/2 on shard 1's checkpoint", shard(2), one, nil, []string{"--shard", "2/2"},
			"holds the checkpoint of shard 1/2, not of shard 2/2, and starting would delete it"},
		{"shard 2 of a Kubernetes Indexed Job on shard 1's checkpoint", shard(2), one,
			map[string]string{"JOB_COMPLETION_INDEX": "1", "MEMSIM_SHARDS": "2"}, nil,
			"holds the checkpoint of shard 1/2, not of shard 2/2"},
		{"--shard 1/2 on shard 2's checkpoint", shard(1), two, nil, []string{"--shard", "1/2"},
			"holds the checkpoint of shard 2/2, not of shard 1/2"},
		{"--shard 1/2 on the whole run's checkpoint", shard(1), tournament.Shard{}, nil, []string{"--shard", "1/2"},
			"holds the checkpoint of the whole run, not of shard 1/2"},
		{"the whole run on shard 1's checkpoint", whole, one, nil, nil,
			"holds the checkpoint of shard 1/2, not of the whole run"},
	} {
		t.Run(tt.what, func(t *testing.T) {
			if err := os.RemoveAll(whole); err != nil {
				t.Fatal(err)
			}
			interruptedFolder(t, cfg, tt.folder, shardCheckpoint(t, cfg, tt.ck))
			before := readTree(t, whole)
			args := append(append([]string{"run", "--quiet", "--resume-or-start"}, tt.args...), cfg)
			_, stderr, code := runArgsEnv(t, tt.env, args...)
			wantOneLineExit(t, tt.what, code, exitUsage, stderr, "memsim run: run folder "+tt.folder+" ", tt.want,
				"memsim run --resume "+tt.folder)
			if !sameTree(readTree(t, whole), before) {
				t.Errorf("%s: the refused run changed the folder", tt.what)
			}
		})
	}

	// What an uninterrupted shard 1/2 writes; then its checkpoint resumed in its own folder.
	if err := os.RemoveAll(whole); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", "1/2", cfg); code != exitOK {
		t.Fatalf("shard 1/2: exit %d: %s", code, stderr)
	}
	want := readTree(t, shard(1))
	if err := os.RemoveAll(whole); err != nil {
		t.Fatal(err)
	}
	interruptedFolder(t, cfg, shard(1), shardCheckpoint(t, cfg, one))
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", "--shard", "1/2", cfg)
	if code != exitOK || !strings.Contains(stderr, "resumed") {
		t.Fatalf("shard 1/2 resumed: exit %d: %s", code, stderr)
	}
	if !sameTree(readTree(t, shard(1)), want) {
		t.Error("the resumed shard's folder differs from an uninterrupted shard's")
	}
}

// A retried task whose run or shard is already finished is done: --resume-or-start exits 0 with
// one line saying so, prints nothing on stdout and leaves the folder as it was. A finished
// shard of another shard is refused in one line naming both.
func TestResumeOrStartOnAFinishedRunIsDone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "done", oneSizeTournament)
	whole := filepath.Join(dir, "out", "done")
	shard2 := filepath.Join(whole, "shard-2-of-2")
	for _, tt := range []struct {
		what   string
		env    map[string]string
		args   []string // the flags that name the shard
		folder string
		name   string // what the line calls the run
	}{
		{"the whole run", nil, nil, whole, "done"},
		{"--shard 2/2", nil, []string{"--shard", "2/2"}, shard2, "shard 2/2 of done"},
		{"shard 2 of a Slurm job array", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "2"},
			nil, shard2, "shard 2/2 of done"},
	} {
		t.Run(tt.what, func(t *testing.T) {
			if err := os.RemoveAll(whole); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{"run", "--quiet"}, tt.args...), cfg)
			if _, stderr, code := runArgsEnv(t, tt.env, args...); code != exitOK {
				t.Fatalf("the first try: exit %d: %s", code, stderr)
			}
			before := readTree(t, whole)
			retry := append(append([]string{"run", "--quiet", "--resume-or-start"}, tt.args...), cfg)
			stdout, stderr, code := runArgsEnv(t, tt.env, retry...)
			want := "memsim run: " + tt.name + " is already complete in " + tt.folder + "\n"
			if code != exitOK || stderr != want || stdout != "" {
				t.Errorf("the retry: exit %d, stdout %q, stderr %q; want exit 0, no stdout and %q", code, stdout, stderr, want)
			}
			if !sameTree(readTree(t, whole), before) {
				t.Error("the retry changed the folder")
			}
			if got := dirNames(t, filepath.Dir(whole)); len(got) != 1 || got[0] != "done" {
				t.Errorf("beside the run folder: %v", got)
			}
		})
	}

	// A whole run whose results.json was changed is not taken for finished: the retry refuses
	// the folder, which holds a run, and leaves it as it was.
	if err := os.RemoveAll(whole); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("the whole run: exit %d: %s", code, stderr)
	}
	results := filepath.Join(whole, "results.json")
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"games": 2000`, `"games": 2001`, 1)
	if edited == string(data) {
		t.Fatal("results.json has no \"games\": 2000 to edit")
	}
	if err := os.WriteFile(results, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, whole)
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", cfg)
	wantOneLineExit(t, "a changed results.json", code, exitUsage, stderr, "memsim run: run folder "+whole+" already holds a run (results.json)")
	if !sameTree(readTree(t, whole), before) {
		t.Error("the refused retry changed the folder")
	}

	// Shard 1's finished folder in shard 2's place.
	if err := os.RemoveAll(whole); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", "1/2", cfg); code != exitOK {
		t.Fatalf("shard 1/2: exit %d: %s", code, stderr)
	}
	if err := os.Rename(filepath.Join(whole, "shard-1-of-2"), shard2); err != nil {
		t.Fatal(err)
	}
	before = readTree(t, whole)
	_, stderr, code = runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", "--shard", "2/2", cfg)
	wantOneLineExit(t, "shard 1's results in shard 2's folder", code, exitUsage, stderr, "memsim run: run folder "+shard2+" ",
		"holds the results of shard 1/2 (shard.json), not of shard 2/2")
	if !sameTree(readTree(t, whole), before) {
		t.Error("the refused run changed the folder")
	}
}

// --resume on a finished run or shard, which holds no checkpoint, says that there is nothing to
// resume, and leaves the folder as it was.
func TestResumeOfAFinishedRunHasNothingToResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "fin", tinyTournament)
	whole := filepath.Join(dir, "out", "fin")
	for _, tt := range []struct {
		args   []string
		folder string
	}{
		{nil, whole},
		{[]string{"--shard", "1/2"}, filepath.Join(whole, "shard-1-of-2")},
	} {
		if err := os.RemoveAll(whole); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := runArgs(t, append(append([]string{"run", "--no-figures", "--quiet"}, tt.args...), cfg)...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", tt.args, code, stderr)
		}
		before := readTree(t, whole)
		_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", tt.folder)
		wantOneLineExit(t, "--resume "+tt.folder, code, exitUsage, stderr,
			"memsim run: "+tt.folder+" has no checkpoint.json: nothing to resume (the run finished, or never started)")
		if !sameTree(readTree(t, whole), before) {
			t.Errorf("--resume %s changed the folder", tt.folder)
		}
	}
}

// A retried task that was stopped before its first checkpoint left only its configuration:
// --resume-or-start plays the run from the start, to an uninterrupted run's results.
func TestResumeOrStartAfterAStopBeforeTheFirstCheckpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "early", tinyTournament)
	out := filepath.Join(dir, "out", "early")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("the uninterrupted run: exit %d: %s", code, stderr)
	}
	want := readTree(t, out)
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	writeTree(t, out, map[string][]byte{"config.yaml": want["config.yaml"]})
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", cfg); code != exitOK {
		t.Fatalf("the retry: exit %d: %s", code, stderr)
	}
	if !sameTree(readTree(t, out), want) {
		t.Error("the retried run's folder differs from an uninterrupted run's")
	}
	// Anything else beside the configuration is still refused, and kept.
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	writeTree(t, out, map[string][]byte{"config.yaml": want["config.yaml"], "notes.txt": []byte("mine\n")})
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume-or-start", cfg)
	wantOneLineExit(t, "a folder with a user's file", code, exitUsage, stderr, "memsim run: run folder "+out+" already holds a run (config.yaml)")
	if data, err := os.ReadFile(filepath.Join(out, "notes.txt")); err != nil || string(data) != "mine\n" {
		t.Errorf("notes.txt: %q, %v", data, err)
	}
}
