package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A configuration beyond memsim's bounds is refused at its key, in one line, before anything is
// created: games beyond the maximum, more seat orders than a tournament may have, choice tables
// too large to build, an output path with a control character or too long, a name too long.
func TestOutOfBoundsConfigurationIsRefusedBeforeAnythingIsCreated(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
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
			_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
			wantOneLineExit(t, tt.name, code, exitUsage, stderr, "memsim run: "+cfg+":", tt.want)
			if got := dirNames(t, dir); !slices.Equal(got, []string{"c.yaml"}) {
				t.Errorf("%s: the refused run created %v", tt.name, got)
			}
		})
	}
}

// audit --output with a NUL byte, or of 100,000 bytes, is refused in one line before anything is
// created.
func TestAuditOutputIsCheckedBeforeAnythingIsCreated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "sub", "a\x00b"), filepath.Join(dir, "sub", strings.Repeat("d", 100000))} {
		_, stderr, code := runArgs(t, "audit", "--output", out)
		wantOneLineExit(t, "audit --output", code, exitUsage, stderr, "memsim audit: --output ", "a path of at most 4000 bytes without control characters")
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("refused audits created %v", got)
	}
}

// An output path whose last component is longer than a file system allows (300 bytes, well
// within the 4,000-byte bound of a whole path) is refused in one line by run and audit, before
// the folders above it are created.
func TestOverlongPathComponentIsRefusedBeforeAnythingIsCreated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("d", 300)
	cfg := filepath.Join(dir, "c.yaml")
	body := "name: g\noutput: " + strconv.Quote(filepath.Join(dir, "out", "sub", long)) + "\ngames: 100\n" +
		"players: [{name: a, policy: safe}, {name: b, policy: daring}]\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
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

// merge --out is checked as run's output and audit's --output are: a control character, a NUL
// byte, an overlong component or an overlong path is refused in one line, and nothing is created.
func TestMergeOutIsCheckedBeforeAnythingIsCreated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "m", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", "1/1", cfg); code != exitOK {
		t.Fatalf("shard: exit %d: %s", code, stderr)
	}
	shard := filepath.Join(dir, "out", "m", "shard-1-of-1")
	for _, out := range []string{"a\x01b", "a\x00b", strings.Repeat("d", 300), strings.Repeat("d", 5000)} {
		_, stderr, code := runArgs(t, "merge", "--no-figures", shard, "--out", filepath.Join(dir, "merged", "sub", out))
		if code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge --out %q: exit %d, %q; want exit 2 and one line", out[:min(len(out), 8)], code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "merged")); !os.IsNotExist(err) {
			t.Errorf("merge --out %q created %s", out[:min(len(out), 8)], filepath.Join(dir, "merged"))
			os.RemoveAll(filepath.Join(dir, "merged"))
		}
	}
}
