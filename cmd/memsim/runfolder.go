package main

import (
	"context"
	"errors"
	"fmt"

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

// checkResumable refuses now, not after playing, a run folder whose own entries hold what memsim
// did not write there (a file of the user's in plots/, say), which its results, once written,
// would delete. What the folder holds besides the run's own entries stays.
func checkResumable(f *rundir.Folder) error { return resumeRefusal(f.CheckForeign()) }

// resumeRefusal words err, when it refuses foreign entries (rundir.ForeignEntriesError), as the
// refusal of a resumption; it returns any other err as it is.
func resumeRefusal(err error) error {
	var foreign *rundir.ForeignEntriesError
	if errors.As(err, &foreign) {
		return usagef("%v when its results are written: move it out of the folder, then resume", foreign)
	}
	return err
}

// retry decides what --resume-or-start does with p's run folder, whose lock p holds, for the
// configuration cfg and the shard p's tournament plays (rundir.Folder.PlanRetry), and words its
// refusals. A resumed run keeps the folder's own workers unless keepWorkers (--workers given).
// It returns claim true when the run is to claim the folder as a new run does.
func (p *runPlan) retry(cfg *configs.Tournament, keepWorkers bool) (claim bool, err error) {
	r, err := p.folder.PlanRetry(p.t, cfg)
	var other *rundir.OtherShardError
	var foreign *rundir.ForeignEntriesError
	switch {
	case errors.Is(err, rundir.ErrOtherConfigurationCheckpoint), errors.As(err, &other) && other.File == checkpointFile:
		return false, usagef("%v: resume it with memsim run --resume %s, or replace it with --force", err, p.dir)
	case errors.As(err, &other):
		return false, usagef("%v: replace them with --force, or choose another output folder", err)
	case errors.As(err, &foreign):
		return false, resumeRefusal(err)
	case err != nil:
		return false, badInput(folderError(err))
	}
	switch r.Action {
	case rundir.RetryResume:
		if !keepWorkers {
			cfg.Workers = r.Held.Workers // as --resume would: the folder's own, unless --workers
		}
		p.resume = r.Checkpoint
	case rundir.RetryComplete:
		p.complete = true
	case rundir.RetryClaim:
		return true, nil
	}
	return false, nil
}

// runName names the run of the tournament name, or its shard s: "default", "shard 2/8 of default".
func runName(name string, s tournament.Shard) string {
	if s.Count == 0 {
		return name
	}
	return "shard " + s.String() + " of " + name
}
