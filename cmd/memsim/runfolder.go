package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"memsim/analysis/report"
	"memsim/tournament"
)

// The files a run folder holds besides the report's: the checkpoint of an interrupted run, and a
// finished shard's results.
const (
	checkpointFile = "checkpoint.json"
	shardFile      = "shard.json"
)

// checkpointWriter writes a run's checkpoint to path, at most every so often and when asked.
type checkpointWriter struct {
	path  string
	every time.Duration
	last  time.Time
	state *tournament.Checkpoint // the latest state Play reported
}

// update takes the run's state and writes it when the last write is older than the interval.
func (c *checkpointWriter) update(ck *tournament.Checkpoint) error {
	c.state = ck
	if time.Since(c.last) < c.every {
		return nil
	}
	return c.write()
}

// write writes the latest state atomically (nothing before the first). When it fails, the file
// holds the state of the last write that succeeded, if any.
func (c *checkpointWriter) write() error {
	if c.state == nil {
		return nil
	}
	data, err := json.Marshal(c.state)
	if err != nil {
		return fmt.Errorf("encode %s: %w", c.path, err)
	}
	if err := report.WriteFileAtomic(c.path, data); err != nil {
		return err // "write PATH: cause"
	}
	c.last = time.Now()
	return nil
}

// readCheckpoint reads the checkpoint of the run folder dir, checks it belongs to t and every
// number in it, and sets t's shard to the checkpoint's.
func readCheckpoint(dir string, t *tournament.Tournament) (*tournament.Checkpoint, error) {
	path := filepath.Join(dir, checkpointFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("%s has no %s: nothing to resume (the run finished, or never started)", dir, checkpointFile)
	}
	if err != nil {
		return nil, usagef("read %s: %v", path, err)
	}
	ck, err := t.LoadCheckpoint(data)
	if errors.Is(err, tournament.ErrForeignCheckpoint) {
		return nil, usagef("%s belongs to another configuration than %s", path, filepath.Join(dir, report.ConfigFile))
	}
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return ck, nil
}

// shardDir is the folder of shard s of the run folder dir.
func shardDir(dir string, s tournament.Shard) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d", s.Index, s.Count))
}

// writeShard replaces a finished shard's folder with its configuration and its tallies.
func writeShard(dir string, config []byte, s *tournament.ShardResult) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return replaceFolder(dir, false, func(staging string) error {
		if err := report.WriteFileAtomic(filepath.Join(staging, report.ConfigFile), config); err != nil {
			return err
		}
		return report.WriteFileAtomic(filepath.Join(staging, shardFile), data)
	})
}

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
	dir, err := runFolder(fl.resume)
	if err != nil {
		return nil, err
	}
	cfg, err := readRunConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("--resume %s: %w", dir, err)
	}
	if fl.set["workers"] {
		cfg.Workers = fl.workers
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return nil, badInput(err)
	}
	return resumeIn(dir, t)
}

// resumeIn plans going on from the checkpoint of the run folder dir, whose configuration t
// plays: it takes dir's lock, removes what a killed process left there, reads the checkpoint and
// refuses now, not after playing, what writing the finished run would delete.
func resumeIn(dir string, t *tournament.Tournament) (*runPlan, error) {
	lock, err := lockFolder(dir)
	if err != nil {
		return nil, err
	}
	var ck *tournament.Checkpoint
	if err = cleanStale(dir); err == nil {
		ck, err = readCheckpoint(dir, t)
	}
	if err == nil {
		var names []string
		names, err = folderEntries(dir)
		if foreign := foreignEntries(names); err == nil && len(foreign) > 0 {
			err = usagef("run folder %s holds %s, which is not part of the run and would be deleted when its results are written: move it out of the folder, then resume", dir, listNames(foreign))
		}
	}
	if err != nil {
		lock.release()
		return nil, err
	}
	return &runPlan{t: t, dir: dir, resume: ck, lock: lock}, nil
}
