package main

import (
	"context"
	"fmt"
	"strconv"

	"memsim/tournament"
	"memsim/tournament/rundir"
)

// shardOf returns the shard --shard names or, without it, the one a cluster engine's environment
// gives: a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN),
// or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0, with the count in MEMSIM_SHARDS).
// The zero Shard is the whole run.
func shardOf(flag string, getenv func(string) string) (tournament.Shard, error) {
	if flag != "" {
		s, err := tournament.ParseShard(flag)
		if err != nil {
			return s, usagef("--%v", err)
		}
		return s, nil
	}
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
	fromEnv := func(i, n int) (tournament.Shard, error) {
		s, err := tournament.ParseShard(fmt.Sprintf("%d/%d", i, n))
		if err != nil {
			return s, usagef("%v (from the environment)", err)
		}
		return s, nil
	}
	id, haveID, err := num("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return tournament.Shard{}, err
	}
	if haveID {
		count, ok, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil || !ok {
			return tournament.Shard{}, usagef("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT: give --shard i/N")
		}
		low, _, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return tournament.Shard{}, err
		}
		return fromEnv(id-low+1, count)
	}
	index, haveIndex, err := num("JOB_COMPLETION_INDEX")
	if err != nil || !haveIndex {
		return tournament.Shard{}, err
	}
	count, ok, err := num("MEMSIM_SHARDS")
	if err != nil || !ok {
		return tournament.Shard{}, usagef("JOB_COMPLETION_INDEX is set without MEMSIM_SHARDS (the number of shards): give --shard i/N")
	}
	return fromEnv(index+1, count)
}

// planResume plans going on with the interrupted run of the folder --resume names.
func planResume(ctx context.Context, fl runFlags) (*runPlan, error) {
	f, err := rundir.Open(fl.resume)
	if err != nil {
		return nil, folderError(err)
	}
	cfg, err := readRunConfig(f.Path())
	if err != nil {
		return nil, fmt.Errorf("--resume %s: %w", f.Path(), err)
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
