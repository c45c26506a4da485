package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"memsim/tournament"
	"memsim/tournament/rundir"
)

// Three shards merged give the single-process run's folder, bit for bit; merge refuses missing,
// duplicated and foreign shards.
func TestShardsAndMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, whole := finishedSmallRun(t, dir) // 3,000 games: three batches of deals, one per shard
	var shards []string
	for i := 1; i <= 3; i++ {
		// The second shard takes its index from a Slurm job array's environment; the first is
		// written as the README's memsim run CONFIG --shard i/N, flags after the configuration.
		args := []string{"run", "--quiet", "--games", "3000", "--shard", []string{"1/3", "", "3/3"}[i-1], cfg}
		var env map[string]string
		if i == 1 {
			args = []string{"run", cfg, "--quiet", "--shard", "1/3", "--games=3000"}
		}
		if i == 2 {
			args = []string{"run", "--quiet", cfg}
			env = map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "6", "SLURM_ARRAY_TASK_COUNT": "3"}
		}
		if _, stderr, code := runArgsEnv(t, env, args...); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, filepath.Join(whole, "shard-"+[]string{"1", "2", "3"}[i-1]+"-of-3"))
	}
	// The figures, drawn from results.json alone, are not drawn again (TestReportRegenerates
	// checks that they follow from it).
	merged := filepath.Join(dir, "merged")
	if _, stderr, code := runArgs(t, append(append([]string{"merge", "--no-figures"}, shards...), "--out", merged)...); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"results.json", "matchups.csv"} {
		a, err1 := os.ReadFile(filepath.Join(whole, f))
		b, err2 := os.ReadFile(filepath.Join(merged, f))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("%s: the merged run differs from the whole run (%v, %v)", f, err1, err2)
		}
	}
	other := writeConfig(t, t.TempDir(), "small", strings.Replace(smallTournament, "seed: 7", "seed: 8", 1))
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", "2/3", other); code != exitOK {
		t.Fatalf("foreign shard: %s", stderr)
	}
	foreign := filepath.Join(filepath.Dir(other), "out", "small", "shard-2-of-3")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "--out", filepath.Join(dir, "m1"), shards[0], shards[2]}, "missing shards of 3: 2"},
		{[]string{"merge", "--out", filepath.Join(dir, "m1"), "--", shards[0], shards[2]}, "missing shards of 3: 2"},
		{[]string{"merge", "--out", filepath.Join(dir, "m2"), shards[0], shards[1], shards[1], shards[2]}, "shard 2 of 3 given twice"},
		{[]string{"merge", "--out", filepath.Join(dir, "m3"), shards[0], foreign, shards[2]}, "another configuration or seed"},
		{[]string{"merge", "--out", merged, shards[0], shards[1], shards[2]}, "already holds a run"},
		{[]string{"merge", shards[0]}, "--out DIR is required"},
		{[]string{"run", "--shard", "4/3", cfg}, "--shard \"4/3\": must be i/N"},
	} {
		if _, stderr, code := runArgs(t, tt.args...); code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want %q", tt.args, code, stderr, tt.want)
		}
	}
}

// --shard wins over the environment; the environment's errors are usage errors, and an index
// without the number of shards suggests --shard.
func TestShardOf(t *testing.T) {
	t.Parallel()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	slurm := map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}
	tests := []struct {
		flag string
		env  map[string]string
		want tournament.Shard
		err  string // the whole message; "" for none
	}{
		{"", map[string]string{}, tournament.Shard{}, ""},
		{"", slurm, tournament.Shard{Index: 1, Count: 4}, ""},
		{"2/3", slurm, tournament.Shard{Index: 2, Count: 3}, ""},
		{"4/3", nil, tournament.Shard{}, `--shard "4/3": must be i/N with 1 <= i <= N, for example 2/8`},
		{"", map[string]string{"JOB_COMPLETION_INDEX": "2"}, tournament.Shard{},
			"JOB_COMPLETION_INDEX is set without MEMSIM_SHARDS (the number of shards): give --shard i/N"},
		{"", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, tournament.Shard{},
			"SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT: give --shard i/N"},
		{"", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, tournament.Shard{},
			`environment variable SLURM_ARRAY_TASK_ID="x": must be a whole number`},
		{"", map[string]string{"JOB_COMPLETION_INDEX": "2", "MEMSIM_SHARDS": "x"}, tournament.Shard{},
			`environment variable MEMSIM_SHARDS="x": must be a whole number`},
	}
	for _, tt := range tests {
		got, err := shardOf(tt.flag, env(tt.env))
		var ue *usageError
		switch {
		case tt.err == "" && err != nil, got != tt.want:
			t.Errorf("%q, %v: %+v, %v; want %+v", tt.flag, tt.env, got, err, tt.want)
		case tt.err != "" && (!errors.As(err, &ue) || err.Error() != tt.err):
			t.Errorf("%q, %v: %v; want the usage error %q", tt.flag, tt.env, err, tt.err)
		}
	}
}

// Results do not depend on GOMAXPROCS (which sets the default number of workers).
func TestResultsDoNotDependOnGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("three whole runs (make test-long)")
	}
	var outputs []string
	for _, procs := range []int{1, 2, 3} {
		prev := runtime.GOMAXPROCS(procs)
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "procs", smallTournament)
		_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--games", "2500", cfg)
		runtime.GOMAXPROCS(prev)
		if code != exitOK {
			t.Fatalf("GOMAXPROCS %d: exit %d: %s", procs, code, stderr)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "out", "procs", "results.json"))
		outputs = append(outputs, string(data))
	}
	if outputs[0] != outputs[1] || outputs[1] != outputs[2] {
		t.Fatal("results.json depends on GOMAXPROCS")
	}
}

// A run folder that cannot be created is reported with its path, before anything is played.
func TestUnwritableRunFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "c.yaml")
	body := fmt.Sprintf("name: c\noutput: %q\n%s", blocker, smallTournament)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
	if code != exitError || !strings.Contains(stderr, filepath.Join(blocker, "c")) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// memsim merge refuses a damaged shard.json in one line naming it and creates no run folder
// (TestDamagedShards in package tournament runs seeded mutations on the library).
func TestMergeRefusesADamagedShard(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shard, path, good, hashed := finishedShard(t, dir, "1/1")
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
		_, stderr, code := runArgs(t, "merge", "--no-figures", shard, "--out", merged)
		wantOneLineExit(t, tt.name, code, exitUsage, stderr, "memsim merge: "+path+": ")
		if _, err := os.Stat(merged); !os.IsNotExist(err) {
			t.Errorf("%s: the refused merge created %s", tt.name, merged)
			os.RemoveAll(merged)
		}
	}
}

// finishedShard plays shard i/N (spec) of tinyTournament, configured as dir/s.yaml, and returns
// the shard folder, the path and content of its shard.json, and hashed, which returns that content
// edited by edit with its hash recomputed (as a forger would).
func finishedShard(t *testing.T, dir, spec string) (shard, path string, good []byte, hashed func(edit func(*tournament.ShardResult)) []byte) {
	t.Helper()
	cfgPath := writeConfig(t, dir, "s", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", spec, cfgPath); code != exitOK {
		t.Fatalf("shard %s: exit %d: %s", spec, code, stderr)
	}
	s, err := tournament.ParseShard(spec)
	if err != nil {
		t.Fatal(err)
	}
	shard = rundir.ShardDir(filepath.Join(dir, "out", "s"), s)
	path = filepath.Join(shard, shardFile)
	if good, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig([]string{cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	hashed = func(edit func(*tournament.ShardResult)) []byte {
		t.Helper()
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
	return shard, path, good, hashed
}
