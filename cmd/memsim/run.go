package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"memsim/analysis/report"
	"memsim/configs"
)

const runUsage = `Usage:
  memsim run [--workers W] [--games G] [--quiet] [CONFIG.yaml]

Plays the tournament CONFIG.yaml describes (with no CONFIG, the embedded default,
configs/default.yaml) and writes config.yaml, results.json, matchups.csv and report.md to
<output>/<name>/. --workers and --games override the configuration's values.

Flags:
`

type runFlags struct {
	workers, games int
	quiet          bool
}

func newRunFlagSet(fl *runFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("memsim run", flag.ContinueOnError)
	fs.IntVar(&fl.workers, "workers", -1, "`W` worker goroutines (0: one per CPU; default: the configuration's)")
	fs.IntVar(&fl.games, "games", 0, "`G` games per matchup and deal size (default: the configuration's)")
	fs.BoolVar(&fl.quiet, "quiet", false, "no progress reports")
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
	}
	cfg, err := loadConfig(args)
	if err != nil {
		return err
	}
	if fl.workers >= 0 {
		cfg.Workers = fl.workers
	}
	if fl.games > 0 {
		cfg.Games = fl.games
	}
	t, err := newTournament(ctx, cfg)
	if err != nil {
		return &usageError{err.Error()}
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	fmt.Fprintf(stderr, "memsim run: %s: %d matches, %d games, seed %d, %d workers\n",
		cfg.Name, len(t.matches), t.games, cfg.Seed, workers)
	p := startProgress(stderr, t.games, fl.quiet)
	results, elapsed, err := t.play(ctx, workers, p)
	p.finish()
	if err != nil {
		return err
	}
	r, err := t.report(ctx, results)
	if err != nil {
		return err
	}
	figs, err := figures(ctx, r, t.tableModels())
	if err != nil {
		return err
	}
	dir := filepath.Join(cfg.Output, cfg.Name)
	if err := report.WriteDir(dir, r, cfg.YAML(), figs); err != nil {
		return err
	}
	if err := report.WriteMarkdown(stdout, r); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "memsim run: %d games in %.2f s (%.3g games/s); wrote %s\n",
		t.games, elapsed.Seconds(), float64(t.games)/elapsed.Seconds(), dir)
	return nil
}
