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
	return resumeIn(f, t)
}

// resumeIn plans going on from the checkpoint of the run folder f, whose configuration t plays:
// it takes f's lock (which removes what a killed process left there), reads the checkpoint and
// refuses now, not after playing, what writing the finished run would delete.
func resumeIn(f *rundir.Folder, t *tournament.Tournament) (*runPlan, error) {
	lock, err := f.Lock()
	if err != nil {
		return nil, folderError(err)
	}
	ck, err := f.ReadCheckpoint(t)
	if err == nil {
		err = f.CheckForeign()
		if foreign, ok := err.(*rundir.ForeignEntriesError); ok {
			err = usagef("%v when its results are written: move it out of the folder, then resume", foreign)
		}
	}
	if err != nil {
		lock.Release()
		return nil, folderError(err)
	}
	return &runPlan{t: t, dir: f.Path(), folder: f, resume: ck, lock: lock}, nil
}
