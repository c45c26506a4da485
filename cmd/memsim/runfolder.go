package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// shardOf returns the shard --shard names or, without it, the one a cluster engine's environment
// gives (tournament.ShardFromEnv). The zero Shard is the whole run.
func shardOf(flag string, getenv func(string) string) (tournament.Shard, error) {
	if flag != "" {
		s, err := tournament.ParseShard(flag)
		if err != nil {
			return s, usagef("--%v", err)
		}
		return s, nil
	}
	s, err := tournament.ShardFromEnv(getenv)
	var unset *tournament.ShardCountUnsetError
	switch {
	case errors.As(err, &unset):
		return s, usagef("%v: give --shard i/N", err)
	case err != nil:
		return s, usagef("%v", err)
	}
	return s, nil
}

// planResume plans going on with the interrupted run of the folder --resume names.
func planResume(ctx context.Context, fl runFlags) (*runPlan, error) {
	f, err := rundir.Open(fl.resume)
	if err != nil {
		return nil, badInput(folderError(err)) // a path that names no folder memsim can use: a link to nothing, say
	}
	cfg, err := readRunConfig(f.Path())
	if err != nil {
		return nil, fmt.Errorf("--resume %s: %w", configs.ShortPath(f.Path()), err)
	}
	if fl.set["workers"] {
		cfg.Workers = fl.workers
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return nil, badInput(err)
	}
	p := &runPlan{t: t, dir: f.Path(), folder: f}
	// The lock (which removes what a killed process left there) before the checkpoint is read.
	if p.lock, err = f.Lock(); err != nil {
		return nil, folderError(err)
	}
	if p.resume, err = f.ReadCheckpoint(t); err == nil {
		err = checkResumable(f)
	}
	if err != nil {
		p.lock.Release()
		return nil, folderError(err)
	}
	return p, nil
}

// checkResumable refuses now, not after playing, a run folder whose results, once written, would
// delete what it holds besides the run.
func checkResumable(f *rundir.Folder) error {
	err := f.CheckForeign()
	if foreign, ok := err.(*rundir.ForeignEntriesError); ok {
		return usagef("%v when its results are written: move it out of the folder, then resume", foreign)
	}
	return err
}

// retry decides what --resume-or-start does with p's run folder, whose lock p holds, for the
// configuration cfg and the shard (the zero Shard: the whole run) the command line asks for:
//
//   - a checkpoint of this configuration and shard is resumed (p.resume), with the folder's own
//     workers unless keepWorkers (--workers given);
//   - the finished results of this configuration and shard (shard.json; for the whole run,
//     results.json beside this configuration's config.yaml) are complete (p.complete);
//   - a folder that holds only this configuration's config.yaml (a try stopped before its first
//     checkpoint) is claimed afresh, its configuration replaced by cfg's;
//   - a checkpoint or a shard's results of another shard are refused, naming both, since
//     starting would delete them, and so is another configuration's checkpoint;
//   - anything else gives claim true: the run is to claim the folder as a new run does (Claim
//     refuses a folder that holds anything).
func (p *runPlan) retry(cfg *configs.Tournament, shard tournament.Shard, keepWorkers bool) (claim bool, err error) {
	f := p.folder
	if f.HasCheckpoint() {
		held, err := readRunConfig(p.dir)
		if err != nil {
			return false, err
		}
		if tournament.ConfigHash(held) != tournament.ConfigHash(cfg) {
			return false, usagef("run folder %s holds an interrupted run of another configuration: resume it with memsim run --resume %s, or replace it with --force", p.dir, p.dir)
		}
		if !keepWorkers {
			cfg.Workers = held.Workers // as --resume would: the folder's own, unless --workers
		}
		ck, err := f.ReadCheckpoint(p.t) // sets p.t's shard to the checkpoint's
		if err != nil {
			return false, folderError(err)
		}
		if got := p.t.Shard(); got != shard {
			return false, usagef("run folder %s holds the checkpoint of %s, not of %s, and starting would delete it: resume it with memsim run --resume %s, or replace it with --force",
				p.dir, shardName(got), shardName(shard), p.dir)
		}
		if err := checkResumable(f); err != nil {
			return false, err
		}
		p.resume = ck
		return false, nil
	}
	done, err := f.ReadShard(p.t)
	switch {
	case err == nil:
		got := tournament.Shard{Index: done.Shard, Count: done.Shards}
		if got != shard {
			return false, usagef("run folder %s holds the results of %s (%s), not of %s: replace them with --force, or choose another output folder",
				p.dir, shardName(got), shardFile, shardName(shard))
		}
		p.complete = true
		return false, nil
	case errors.Is(err, rundir.ErrNoCheckpoint), errors.Is(err, tournament.ErrForeignCheckpoint):
		// No shard's results, or another configuration's: Claim refuses the latter.
	default:
		return false, folderError(err)
	}
	names, err := os.ReadDir(p.dir)
	if err != nil || !holdsConfig(p.dir, cfg) {
		return true, nil
	}
	if shard.Count == 0 && holdsResults(p.dir, cfg) {
		p.complete = true
		return false, nil
	}
	if len(names) == 1 && names[0].Name() == report.ConfigFile {
		// Only the configuration: no game was kept, nothing but it is replaced.
		if err := f.Replace(false, func(staging string) error {
			return report.WriteFileAtomic(filepath.Join(staging, report.ConfigFile), cfg.YAML())
		}); err != nil {
			return false, folderError(err)
		}
		return false, nil
	}
	return true, nil
}

// holdsConfig reports whether the run folder dir holds the configuration cfg (the same
// tournament.ConfigHash) as its config.yaml.
func holdsConfig(dir string, cfg *configs.Tournament) bool {
	held, err := readRunConfig(dir)
	return err == nil && tournament.ConfigHash(held) == tournament.ConfigHash(cfg)
}

// holdsResults reports whether the run folder dir holds the results of a run of cfg: a
// results.json whose seal holds and that belongs to cfg (tournament.ReadRun).
func holdsResults(dir string, cfg *configs.Tournament) bool {
	data, err := rundir.ReadFile(filepath.Join(dir, report.ResultsFile), rundir.MaxFileSize)
	if err != nil {
		return false
	}
	_, err = tournament.ReadRun(cfg, data)
	return err == nil
}

// shardName names the shard s in messages: "shard 2/8", or for the zero Shard "the whole run".
func shardName(s tournament.Shard) string {
	if s.Count == 0 {
		return "the whole run"
	}
	return "shard " + s.String()
}

// runName names the run of the tournament name, or its shard s: "default", "shard 2/8 of default".
func runName(name string, s tournament.Shard) string {
	if s.Count == 0 {
		return name
	}
	return "shard " + s.String() + " of " + name
}
