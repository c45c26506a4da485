package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"memsim/configs"
	"memsim/sim"
)

// CheckpointVersion is the layout version of a Checkpoint and a ShardResult in JSON.
const CheckpointVersion = 1

// Checkpoint is the state of an interrupted run: the tallies of the matches it finished, in
// order, and of the completed rounds of the next one. Everything in it is an integer count, so a
// run resumed from it gives the results of an uninterrupted run.
type Checkpoint struct {
	Version    int           `json:"version"`
	ConfigHash string        `json:"config_hash"`
	Seed       uint64        `json:"seed"`
	Done       []*sim.Result `json:"done"`
	Current    *sim.Result   `json:"current"`
	// Shard and Shards say which shard the run plays (0 of 0: all of it).
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
}

// ConfigHash identifies what a run computes: its resolved configuration, workers aside (they do
// not change the results).
func ConfigHash(cfg *configs.Tournament) string {
	c := *cfg
	c.Workers = 0
	sum := sha256.Sum256(c.YAML())
	return hex.EncodeToString(sum[:])
}

// newCheckpoint returns the state of the tournament before anything is played.
func (t *Tournament) newCheckpoint() *Checkpoint {
	return &Checkpoint{Version: CheckpointVersion, ConfigHash: ConfigHash(t.Config), Seed: t.Config.Seed,
		Shard: t.shard.Index, Shards: t.shard.Count}
}

// MarshalJSON encodes the checkpoint. The current match's batch sums beyond its completed rounds
// (a round cut short) are left out.
func (c *Checkpoint) MarshalJSON() ([]byte, error) {
	type plain Checkpoint // without this method
	st := plain(*c)
	if cur := st.Current; cur != nil {
		trimmed := *cur
		n := cur.NextBatch
		trimmed.Batches = make([][]sim.Batch, len(cur.Batches))
		for k, b := range cur.Batches {
			trimmed.Batches[k] = b[:min(int64(len(b)), n)]
		}
		st.Current = &trimmed
	}
	return json.Marshal(st)
}

// ErrForeignCheckpoint marks a checkpoint of another configuration or seed.
var ErrForeignCheckpoint = errors.New("checkpoint of another configuration")

// ReadCheckpoint decodes a checkpoint written for t (by encoding/json from the *Checkpoint that
// Play maintains) and checks that it belongs to t's configuration and seed.
func (t *Tournament) ReadCheckpoint(data []byte) (*Checkpoint, error) {
	var c Checkpoint
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	switch {
	case c.Version != CheckpointVersion:
		return nil, fmt.Errorf("version %d, this memsim reads %d", c.Version, CheckpointVersion)
	case c.ConfigHash != ConfigHash(t.Config) || c.Seed != t.Config.Seed:
		return nil, ErrForeignCheckpoint
	}
	return &c, nil
}
