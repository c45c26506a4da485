package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
)

// shardFile is the name of a shard's results in its shard folder.
const shardFile = "shard.json"

// shardResult is what a shard folder's shard.json holds: the tallies of every match of the run,
// for this shard's slice of the deals.
type shardResult struct {
	Version    int           `json:"version"`
	ConfigHash string        `json:"config_hash"`
	Seed       uint64        `json:"seed"`
	Shard      int           `json:"shard"`
	Shards     int           `json:"shards"`
	Results    []*sim.Result `json:"results"`
}

// shardSpec is the shard a run plays: Shard of Shards (1-based), or 0 of 0 for the whole run.
type shardSpec struct{ Shard, Shards int }

// parseShard reads --shard i/N.
func parseShard(s string) (shardSpec, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return shardSpec{}, usagef("--shard %q: must be i/N with 1 <= i <= N, for example 2/8", s)
	}
	return shardSpec{i, n}, nil
}

// shardFromEnv takes the shard from a cluster engine's environment when --shard is absent: a
// Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN), or a
// Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0, with the count in MEMSIM_SHARDS).
func shardFromEnv(getenv func(string) string) (shardSpec, error) {
	num := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, true, usagef("environment variable %s=%q: must be a whole number", name, v)
		}
		return n, true, nil
	}
	id, haveID, err := num("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return shardSpec{}, err
	}
	if haveID {
		count, ok, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil || !ok {
			return shardSpec{}, usagef("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT: give --shard i/N")
		}
		low, _, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return shardSpec{}, err
		}
		return parseShard(fmt.Sprintf("%d/%d", id-low+1, count))
	}
	index, haveIndex, err := num("JOB_COMPLETION_INDEX")
	if err != nil || !haveIndex {
		return shardSpec{}, err
	}
	count, ok, err := num("MEMSIM_SHARDS")
	if err != nil || !ok {
		return shardSpec{}, usagef("JOB_COMPLETION_INDEX is set without MEMSIM_SHARDS (the number of shards): give --shard i/N")
	}
	return parseShard(fmt.Sprintf("%d/%d", index+1, count))
}

// shardDir is the folder of shard s of the run folder dir.
func shardDir(dir string, s shardSpec) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d", s.Shard, s.Shards))
}

// writeShard writes a finished shard's tallies.
func writeShard(dir string, cfg *configs.Tournament, s shardSpec, results []*sim.Result) error {
	data, err := json.Marshal(shardResult{Version: checkpointVersion, ConfigHash: configHash(cfg), Seed: cfg.Seed,
		Shard: s.Shard, Shards: s.Shards, Results: results})
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(filepath.Join(dir, shardFile), data)
}

const mergeUsage = `Usage:
  memsim merge --out DIR [--force] SHARD_DIR...

Merges the shard folders of one run (memsim run --shard i/N, each written to
<output>/<name>/shard-i-of-N/) into the run folder DIR, with its results.json and reports: the
same files, bit for bit, as one process playing the whole run. Shards of different
configurations or seeds, and missing or duplicated shards, are refused.

Flags:
`

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memsim merge", flag.ContinueOnError)
	out := fs.String("out", "", "the run folder `DIR` to write")
	force := fs.Bool("force", false, "replace an existing run folder")
	fs.SetOutput(io.Discard)
	if code, done := parseFlags(fs, mergeUsage, args, stdout, stderr); done {
		return code
	}
	return exitFor(fs.Name(), merge(ctx, *out, *force, fs.Args(), stderr), stderr)
}

func merge(ctx context.Context, out string, force bool, dirs []string, stderr io.Writer) error {
	switch {
	case out == "":
		return usagef("--out DIR is required: the run folder to write")
	case len(dirs) == 0:
		return usagef("give the shard folders to merge")
	}
	var cfg *configs.Tournament
	var shards []*shardResult
	byIndex := map[int]string{}
	for _, dir := range dirs {
		c, err := readRunConfig(dir)
		if err != nil {
			return fmt.Errorf("shard %s: %w", dir, err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, shardFile))
		if err != nil {
			return usagef("shard %s is not finished (%v)", dir, err)
		}
		var s shardResult
		if err := json.Unmarshal(raw, &s); err != nil {
			return usagef("%s: %v", filepath.Join(dir, shardFile), err)
		}
		switch {
		case s.ConfigHash != configHash(c):
			return usagef("%s does not belong to its own config.yaml", filepath.Join(dir, shardFile))
		case cfg != nil && (s.ConfigHash != shards[0].ConfigHash || s.Seed != shards[0].Seed):
			return usagef("shard %s is of another configuration or seed than %s", dir, dirs[0])
		case cfg != nil && s.Shards != shards[0].Shards:
			return usagef("shard %s is one of %d shards, %s one of %d", dir, s.Shards, dirs[0], shards[0].Shards)
		}
		if prev, dup := byIndex[s.Shard]; dup {
			return usagef("shard %d of %d given twice: %s and %s", s.Shard, s.Shards, prev, dir)
		}
		byIndex[s.Shard] = dir
		if cfg == nil {
			cfg = c
		}
		shards = append(shards, &s)
	}
	var missing []string
	for i := 1; i <= shards[0].Shards; i++ {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return usagef("missing shards of %d: %s", shards[0].Shards, strings.Join(missing, ", "))
	}
	sort.Slice(shards, func(a, b int) bool { return shards[a].Shard < shards[b].Shard })
	t, err := newTournament(ctx, cfg)
	if err != nil {
		return &usageError{err.Error()}
	}
	var results []*sim.Result
	for mi := range t.matches {
		var parts []*sim.Result
		for _, s := range shards {
			if len(s.Results) != len(t.matches) {
				return usagef("shard %d has %d matches, the configuration %d", s.Shard, len(s.Results), len(t.matches))
			}
			parts = append(parts, s.Results[mi])
		}
		r, err := t.matches[mi].MergeShards(parts)
		if err != nil {
			return fmt.Errorf("match %d: %w", mi+1, err)
		}
		results = append(results, r)
	}
	if err := claimRunFolder(out, force); err != nil {
		return err
	}
	if _, err := t.finish(ctx, out, results); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "memsim merge: %d shards merged into %s\n", len(shards), out)
	return nil
}
