package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"memsim/analysis/report"
)

// The tournaments the tests play again and again, without a name or an output folder:
// writeConfig gives them theirs.
var (
	//go:embed testdata/tiny.yaml
	tinyTournament string
	//go:embed testdata/small.yaml
	smallTournament string
)

// oneSizeTournament is tinyTournament at one deal size, for the tests that have memsim draw
// figures without looking at them: its three figures take about half the time of
// tinyTournament's five under the race detector.
var oneSizeTournament = strings.Replace(tinyTournament, "rules: {pairs: [3, 4]}", "rules: {pairs: [3]}", 1)

// writeConfig writes a configuration whose output goes to dir and returns its path.
func writeConfig(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name+".yaml")
	text := fmt.Sprintf("name: %s\noutput: %q\n%s", name, filepath.Join(dir, "out"), body)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// smallRun is smallTournament's run, named "small", played once per test binary (figures are
// dear under the race detector) by finishedSmallRun and removed by TestMain.
var smallRun struct {
	once           sync.Once
	dir            string // holds small.yaml and the run folder out/small
	stdout, stderr string // what the run printed
	err            error
}

// finishedSmallRun copies smallTournament's finished run into dir, as if it had been played
// there: dir/small.yaml, and the run folder dir/out/small, whose config.yaml names dir/out as its
// output. It returns the two paths.
func finishedSmallRun(t *testing.T, dir string) (cfg, out string) {
	t.Helper()
	smallRun.once.Do(func() {
		if smallRun.dir, smallRun.err = os.MkdirTemp("", "memsim-small-"); smallRun.err != nil {
			return
		}
		text := fmt.Sprintf("name: small\noutput: %q\n%s", filepath.Join(smallRun.dir, "out"), smallTournament)
		path := filepath.Join(smallRun.dir, "small.yaml")
		if smallRun.err = os.WriteFile(path, []byte(text), 0o644); smallRun.err != nil {
			return
		}
		var code int
		if smallRun.stdout, smallRun.stderr, code = runArgs(t, "run", "--quiet", path); code != exitOK {
			smallRun.err = fmt.Errorf("exit %d: %s", code, smallRun.stderr)
		}
	})
	if smallRun.err != nil {
		t.Fatalf("smallTournament's run: %v", smallRun.err)
	}
	cfg = writeConfig(t, dir, "small", smallTournament)
	out = filepath.Join(dir, "out", "small")
	from, to := filepath.Join(smallRun.dir, "out"), filepath.Join(dir, "out")
	src := filepath.Join(from, "small")
	for _, rel := range listFiles(t, src) {
		data, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		if rel == "config.yaml" {
			data = []byte(strings.Replace(string(data), fmt.Sprintf("%q", from), fmt.Sprintf("%q", to), 1))
		} else if strings.Contains(string(data), from) {
			t.Fatalf("%s names the folder it was written to: it cannot be copied", rel)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cfg, out
}

// smallRunPrinted returns what smallTournament's run printed on stdout and stderr (see
// finishedSmallRun), and the run folder it names, where it was played.
func smallRunPrinted(t *testing.T) (stdout, stderr, out string) {
	t.Helper()
	finishedSmallRun(t, t.TempDir())
	return smallRun.stdout, smallRun.stderr, filepath.Join(smallRun.dir, "out", "small")
}

// readRun reads the results.json of the run folder dir.
func readRun(t *testing.T, dir string) *report.Run {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Run
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

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
