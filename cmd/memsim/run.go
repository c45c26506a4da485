package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
)

const runUsage = `Usage:
  memsim run [--workers W] [--games G] [--quiet] [--force] [CONFIG.yaml]
  memsim run --resume DIR [--workers W] [--quiet]
  memsim run --shard i/N [flags] [CONFIG.yaml]

Plays the tournament CONFIG.yaml describes (with no CONFIG, the embedded default,
configs/default.yaml) and writes config.yaml, results.json, matchups.csv, report.md and
report.html to <output>/<name>/. --workers and --games override the configuration's values. An
existing run folder is only replaced with --force. While it runs, and when interrupted (SIGINT,
SIGTERM), memsim writes checkpoint.json to the run folder; --resume DIR continues from it, to the
results an uninterrupted run gives. --shard i/N plays one slice of every matchup's deals into
<output>/<name>/shard-i-of-N/, for memsim merge.

Flags:
`

type runFlags struct {
	workers, games  int
	quiet, force    bool
	resume, shard   string
	checkpointEvery time.Duration
}

func newRunFlagSet(fl *runFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("memsim run", flag.ContinueOnError)
	fs.IntVar(&fl.workers, "workers", -1, "`W` worker goroutines (0: one per CPU; default: the configuration's)")
	fs.IntVar(&fl.games, "games", 0, "`G` games per matchup and deal size (default: the configuration's)")
	fs.BoolVar(&fl.quiet, "quiet", false, "no progress reports")
	fs.BoolVar(&fl.force, "force", false, "replace an existing run folder")
	fs.StringVar(&fl.resume, "resume", "", "continue the interrupted run of the run folder `DIR`")
	fs.DurationVar(&fl.checkpointEvery, "checkpoint-every", 5*time.Second, "write the checkpoint at most this `often`")
	fs.StringVar(&fl.shard, "shard", "", "play only shard `i/N` of every matchup (default: from SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX with MEMSIM_SHARDS)")
	fs.SetOutput(io.Discard)
	return fs
}

// readInput reads the one file args names (what names a kind of file in messages), or returns
// the embedded default when args is empty.
func readInput(args []string, what string, embedded func() (string, []byte)) (string, []byte, error) {
	switch len(args) {
	case 0:
		file, data := embedded()
		return file, data, nil
	case 1:
		data, err := os.ReadFile(args[0])
		if err != nil {
			return "", nil, usagef("read %s: %v", what, err)
		}
		return args[0], data, nil
	}
	return "", nil, usagef("one %s file at most, got %d: %v", what, len(args), args)
}

// readRunConfig reads and parses the config.yaml of a run or shard folder.
func readRunConfig(dir string) (*configs.Tournament, error) {
	file := filepath.Join(dir, report.ConfigFile)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usagef("%v", err)
	}
	cfg, err := configs.Parse(file, data, configOptions())
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return cfg, nil
}

// loadConfig reads and parses the configuration named by args (at most one file), or the
// embedded default.
func loadConfig(args []string) (*configs.Tournament, error) {
	file, data, err := readInput(args, "configuration", configs.Default)
	if err != nil {
		return nil, err
	}
	cfg, err := configs.Parse(file, data, configOptions())
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return cfg, nil
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var fl runFlags
	fs := newRunFlagSet(&fl)
	if code, done := parseFlags(fs, runUsage, args, stdout, stderr); done {
		return code
	}
	return exitFor(fs.Name(), runTournament(ctx, fl, fs.Args(), stdout, stderr), stderr)
}

func runTournament(ctx context.Context, fl runFlags, args []string, stdout, stderr io.Writer) error {
	switch {
	case fl.workers < -1:
		return usagef("--workers %d: must be 0 (one per CPU) or more", fl.workers)
	case fl.games < 0:
		return usagef("--games %d: must be at least 1", fl.games)
	case fl.checkpointEvery <= 0:
		return usagef("--checkpoint-every %v: must be positive", fl.checkpointEvery)
	case fl.resume != "" && (len(args) > 0 || fl.games > 0 || fl.force):
		return usagef("--resume takes the run folder's own configuration: no CONFIG, --games or --force")
	}
	var cfg *configs.Tournament
	var err error
	var dir string
	if fl.resume != "" {
		dir = fl.resume
		if cfg, err = readRunConfig(dir); err != nil {
			return fmt.Errorf("--resume %s: %w", dir, err)
		}
	} else if cfg, err = loadConfig(args); err != nil {
		return err
	}
	if fl.workers >= 0 {
		cfg.Workers = fl.workers
	}
	if fl.games > 0 {
		cfg.Games = fl.games
	}
	if dir == "" {
		dir = filepath.Join(cfg.Output, cfg.Name)
	}
	t, err := newTournament(ctx, cfg)
	if err != nil {
		return &usageError{err.Error()}
	}
	var shard shardSpec
	if fl.shard != "" {
		if shard, err = parseShard(fl.shard); err != nil {
			return err
		}
	} else if fl.resume == "" {
		if shard, err = shardFromEnv(os.Getenv); err != nil {
			return err
		}
	}
	ck := newCheckpointer(dir, cfg, fl.checkpointEvery)
	if fl.resume != "" {
		from, err := readCheckpoint(dir, cfg)
		if err != nil {
			return err
		}
		ck.state = *from
		shard = shardSpec{from.Shard, from.Shards}
	}
	if shard.Shards > 0 {
		if cfg.Stop != nil {
			return usagef("--shard does not go with a stop block: a stopping rule needs every deal of a matchup")
		}
		if fl.resume == "" {
			dir = shardDir(dir, shard)
			ck = newCheckpointer(dir, cfg, fl.checkpointEvery)
		}
		ck.state.Shard, ck.state.Shards = shard.Shard, shard.Shards
		for i := range t.matches {
			t.matches[i].Shard, t.matches[i].Shards = shard.Shard, shard.Shards
		}
		t.games = (t.games + int64(shard.Shards) - 1) / int64(shard.Shards)
	}
	if fl.resume == "" {
		if err := claimRunFolder(dir, fl.force); err != nil {
			return err
		}
		if err := report.WriteFileAtomic(filepath.Join(dir, report.ConfigFile), cfg.YAML()); err != nil {
			return err
		}
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	fmt.Fprintf(stderr, "memsim run: %s: %d matches, %d games, seed %d, %d workers\n",
		cfg.Name, len(t.matches), t.games, cfg.Seed, workers)
	p := startProgress(stderr, t.games, fl.quiet)
	results, elapsed, err := t.play(ctx, workers, p, ck)
	p.finish()
	if err != nil {
		if ctx.Err() != nil {
			if werr := ck.write(); werr != nil {
				return fmt.Errorf("interrupted, and the checkpoint could not be written: %w", werr)
			}
			return fmt.Errorf("interrupted; the finished work is in %s: resume with: memsim run --resume %s", filepath.Join(dir, checkpointFile), dir)
		}
		return err
	}
	if shard.Shards > 0 {
		if err := writeShard(dir, cfg, shard, results); err != nil {
			return err
		}
	} else {
		r, err := t.finish(ctx, dir, results)
		if err != nil {
			return err
		}
		if err := report.WriteMarkdown(stdout, r); err != nil {
			return err
		}
	}
	if err := ck.remove(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "memsim run: %d games in %.2f s (%.3g games/s); wrote %s\n",
		t.games, elapsed.Seconds(), float64(t.games)/elapsed.Seconds(), dir)
	return nil
}

// finish writes the run folder dir from the matches' results: results.json, the CSV and the
// reports with their figures.
func (t *tournament) finish(ctx context.Context, dir string, results []*sim.Result) (*report.Run, error) {
	r, err := t.report(ctx, results)
	if err != nil {
		return nil, err
	}
	figs, err := figures(ctx, r, t.tableModels())
	if err != nil {
		return nil, err
	}
	if err := report.WriteDir(dir, r, t.cfg.YAML(), figs); err != nil {
		return nil, err
	}
	return r, nil
}

// claimRunFolder makes sure a new run may write to dir: a folder holding a run (its config,
// results or checkpoint) is only replaced with force.
func claimRunFolder(dir string, force bool) error {
	for _, f := range []string{report.ResultsFile, checkpointFile, report.ConfigFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil && !force {
			hint := "use --force to replace it"
			if f == checkpointFile {
				hint = "resume it with: memsim run --resume " + dir + ", or use --force to start again"
			}
			return usagef("run folder %s already holds a run (%s): %s", dir, f, hint)
		}
	}
	if force {
		if err := os.Remove(filepath.Join(dir, checkpointFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", filepath.Join(dir, checkpointFile), err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create run folder %s: %w", dir, err)
	}
	return nil
}
