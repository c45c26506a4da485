package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/analysis/report"
)

// folderFiles returns the content of every file under dir, by path relative to it.
func folderFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// memsim report refuses a run folder whose results.json or config.yaml was changed after the run,
// with one line naming the file, and leaves the folder as it was, byte for byte; the folder as
// the run wrote it is read again, and its results left as they were. The run draws no figures:
// that the report memsim report writes is the run's own is TestReportRegenerates's part.
func TestReportRefusesChangedFiles(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sealed", `seed: 4
games: 500
rules: {pairs: [3]}
players:
  - {name: optimal, policy: optimal}
  - {name: daring, policy: daring}
`)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "sealed")
	results, config := filepath.Join(out, "results.json"), filepath.Join(out, "config.yaml")
	written := folderFiles(t, out)
	edit := func(file, old, new string) func() {
		return func() {
			data := written[filepath.Base(file)]
			if !bytes.Contains(data, []byte(old)) {
				t.Fatalf("%s does not hold %q", file, old)
			}
			if err := os.WriteFile(file, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name string
		edit func()
		want string // the line, after "memsim report: "
	}{
		{"an edited games count", edit(results, `"games": 500,`, `"games": 501,`),
			results + ": changed after memsim wrote it: its content does not match its hash"},
		{"a mean of 5e307", edit(results, `"mean_pairs": [`+"\n        ", `"mean_pairs": [`+"\n        5e307, 0, "),
			results + ": "},
		{"an older schema", edit(results, fmt.Sprintf(`"schema_version": %d`, report.SchemaVersion), `"schema_version": 3`),
			results + fmt.Sprintf(": schema version 3, this memsim reads %d (run it again)", report.SchemaVersion)},
		{"another memory in config.yaml", edit(config, "{name: daring, policy: daring}", "{name: daring, policy: daring, memory: {capacity: 2, forget: lru}}"),
			results + " is not the run of " + config + ": computed from another configuration"},
		{"other games in config.yaml", edit(config, "games: 500", "games: 600"),
			results + " is not the run of " + config + ": 500 games per matchup, the configuration's 600"},
	}
	for _, tt := range tests {
		tt.edit()
		before := folderFiles(t, out)
		_, stderr, code := runArgs(t, "report", out)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "memsim report: "+tt.want) {
			t.Errorf("%s: exit %d, %q; want exit %d and one line starting %q", tt.name, code, stderr, exitUsage, "memsim report: "+tt.want)
		}
		after := folderFiles(t, out)
		for name, data := range before {
			if !bytes.Equal(after[name], data) {
				t.Errorf("%s: the refused report changed %s", tt.name, name)
			}
		}
		if len(after) != len(before) {
			t.Errorf("%s: the refused report left %d files, not %d", tt.name, len(after), len(before))
		}
		for _, name := range []string{"results.json", "config.yaml"} {
			if err := os.WriteFile(filepath.Join(out, name), written[name], 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, stderr, code := runArgs(t, "report", out); code != exitOK {
		t.Fatalf("the folder as the run wrote it: exit %d: %s", code, stderr)
	}
	again := folderFiles(t, out)
	for _, name := range []string{"results.json", "config.yaml", "matchups.csv"} {
		if !bytes.Equal(again[name], written[name]) {
			t.Errorf("memsim report rewrote %s otherwise than the run", name)
		}
	}
}
