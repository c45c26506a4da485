package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
)

// checkpointFile is the name of a run's checkpoint in its run folder.
const checkpointFile = "checkpoint.json"

// checkpointVersion is the layout version of checkpoint.json.
const checkpointVersion = 1

// checkpoint is the state of an interrupted run: the tallies of the matches it finished, in
// order, and of the completed rounds of the next one. Everything in it is an integer count, so a
// resumed run's results equal an uninterrupted run's.
type checkpoint struct {
	Version    int           `json:"version"`
	ConfigHash string        `json:"config_hash"`
	Seed       uint64        `json:"seed"`
	Done       []*sim.Result `json:"done"`
	Current    *sim.Result   `json:"current"`
	// Shard and Shards say which shard the run plays (0 of 0: all of it).
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
}

// configHash identifies what a run computes: its resolved configuration, workers aside (they do
// not change the results).
func configHash(cfg *configs.Tournament) string {
	c := *cfg
	c.Workers = 0
	sum := sha256.Sum256(c.YAML())
	return hex.EncodeToString(sum[:])
}

// checkpointer keeps a run's checkpoint and writes it every so often, and when asked.
type checkpointer struct {
	path  string
	every time.Duration
	last  time.Time
	state checkpoint
}

func newCheckpointer(dir string, cfg *configs.Tournament, every time.Duration) *checkpointer {
	return &checkpointer{path: filepath.Join(dir, checkpointFile), every: every, last: time.Now(),
		state: checkpoint{Version: checkpointVersion, ConfigHash: configHash(cfg), Seed: cfg.Seed}}
}

// round records the tallies after a round of the current match, writing the checkpoint when the
// last one is older than the interval.
func (c *checkpointer) round(r *sim.Result) error {
	c.state.Current = r
	if time.Since(c.last) < c.every {
		return nil
	}
	return c.write()
}

// matchDone records a finished match.
func (c *checkpointer) matchDone(r *sim.Result) {
	c.state.Done = append(c.state.Done, r)
	c.state.Current = nil
}

// write writes the checkpoint atomically. The current match's batch sums beyond its completed
// rounds (a round cut short) are left out.
func (c *checkpointer) write() error {
	st := c.state
	if cur := st.Current; cur != nil {
		trimmed := *cur
		n := cur.NextBatch
		trimmed.Batches = make([][]sim.Batch, len(cur.Batches))
		for k, b := range cur.Batches {
			trimmed.Batches[k] = b[:min(int64(len(b)), n)]
		}
		st.Current = &trimmed
	}
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := report.WriteFileAtomic(c.path, data); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	c.last = time.Now()
	return nil
}

// remove deletes the checkpoint of a finished run.
func (c *checkpointer) remove() error {
	if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", c.path, err)
	}
	return nil
}

// readCheckpoint reads the checkpoint of the run folder dir and checks it belongs to cfg.
func readCheckpoint(dir string, cfg *configs.Tournament) (*checkpoint, error) {
	path := filepath.Join(dir, checkpointFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("%s has no %s: nothing to resume (the run finished, or never started)", dir, checkpointFile)
	}
	if err != nil {
		return nil, usagef("read %s: %v", path, err)
	}
	var c checkpoint
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	switch {
	case c.Version != checkpointVersion:
		return nil, usagef("%s: version %d, this memsim reads %d", path, c.Version, checkpointVersion)
	case c.ConfigHash != configHash(cfg) || c.Seed != cfg.Seed:
		return nil, usagef("%s belongs to another configuration than %s", path, filepath.Join(dir, report.ConfigFile))
	}
	return &c, nil
}
