package tournament

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"memsim/configs"
	"memsim/sim"
)

// CheckpointVersion is the layout version of a Checkpoint and a ShardResult in JSON. In version
// 5, each convergence point also holds seat 0's luck sums (sim.Point.Luck), from which a
// running luck-adjusted mean is drawn; a version-4 file lacks them and is refused as written by
// an older version of memsim rather than read as games without luck. Since version 4, ConfigHash is the hash of the configuration's identity (configs.IdentityVersion); a file of
// an older version, tied to its configuration by another hash, is refused as written by an older
// version of memsim. Since version 3, each match's tallies record the random streams of their
// games (sim.Result.Streams), which say which match of the configuration they belong to.
const CheckpointVersion = 5

// Checkpoint is the state of an interrupted run: the tallies of the matches it finished, in
// order, and of the completed rounds of the next one. Everything in it is an integer count, so a
// run resumed from it gives the results of an uninterrupted run. In JSON it carries a hash of its
// content, and LoadCheckpoint checks every number in it.
type Checkpoint struct {
	Version int `json:"version"`
	// ContentHash is the SHA-256 of the checkpoint's JSON with this field empty.
	ContentHash string        `json:"content_hash"`
	ConfigHash  string        `json:"config_hash"`
	Seed        uint64        `json:"seed"`
	Done        []*sim.Result `json:"done"`
	Current     *sim.Result   `json:"current"`
	// Shard and Shards say which shard the run plays (0 of 0: all of it).
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
}

// ConfigHash identifies what a run computes: the SHA-256, in hexadecimal, of its configuration's
// identity (configs.Tournament.Identity), which covers every resolved setting but workers (they
// do not change the results) in a versioned canonical encoding. Comments, key order and the
// file's name do not change it; nor does the text that configs.Tournament.YAML writes.
func ConfigHash(cfg *configs.Tournament) string {
	sum := sha256.Sum256(cfg.Identity())
	return hex.EncodeToString(sum[:])
}

// newCheckpoint returns the state of the tournament before anything is played.
func (t *Tournament) newCheckpoint() *Checkpoint {
	return &Checkpoint{Version: CheckpointVersion, ConfigHash: ConfigHash(t.Config), Seed: t.Config.Seed,
		Shard: t.shard.Index, Shards: t.shard.Count}
}

// MarshalJSON encodes the checkpoint with the hash of its content.
func (c *Checkpoint) MarshalJSON() ([]byte, error) {
	type plain Checkpoint // without this method
	return marshalHashed(plain(*c), func(p *plain, h string) { p.ContentHash = h })
}

// marshalHashed encodes v with the SHA-256 of its encoding without the hash set by setHash.
func marshalHashed[T any](v T, setHash func(*T, string)) ([]byte, error) {
	setHash(&v, "")
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	setHash(&v, hex.EncodeToString(sum[:]))
	return json.Marshal(v)
}

// decodeHashed decodes data strictly (no unknown field, nothing after the value) into v and
// checks the hash that hash returns against v's content. A file of another version than
// CheckpointVersion is refused first, by its version, as written by an older or a newer version
// of memsim: its content need not decode, nor hash, as this memsim's does.
func decodeHashed[T any](data []byte, v *T, hash func(*T) *string) error {
	var head struct {
		Version *int `json:"version"`
	}
	if json.Unmarshal(data, &head) == nil && head.Version != nil && *head.Version != CheckpointVersion {
		which := "an older"
		if *head.Version > CheckpointVersion {
			which = "a newer"
		}
		return fmt.Errorf("version %d, this memsim reads %d: written by %s version of memsim", *head.Version, CheckpointVersion, which)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a valid file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("not a valid file: more data after its value")
	}
	h := hash(v)
	stored := *h
	*h = ""
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	*h = stored
	if stored != hex.EncodeToString(sum[:]) {
		return ErrDamaged
	}
	return nil
}

// ErrForeignCheckpoint marks a checkpoint of another configuration or seed.
var ErrForeignCheckpoint = errors.New("checkpoint of another configuration")

// ErrDamaged marks a checkpoint or shard file whose content does not match its hash: it was
// edited or damaged after memsim wrote it.
var ErrDamaged = errors.New("its content does not match its hash: the file was edited or damaged after memsim wrote it")

// LoadCheckpoint decodes a checkpoint written for t (from the *Checkpoint that Play maintains),
// checks that it belongs to t's configuration and seed, that its content matches its hash, and
// that every number in it is what t's matches could have produced (see sim.Match.CheckResult), and
// sets t's shard to the checkpoint's. Damage gets an error that says what is wrong; nothing in
// a damaged checkpoint can panic or pass into the results.
func (t *Tournament) LoadCheckpoint(data []byte) (*Checkpoint, error) {
	var c Checkpoint
	type plain Checkpoint
	if err := decodeHashed(data, (*plain)(&c), func(p *plain) *string { return &p.ContentHash }); err != nil {
		return nil, err
	}
	switch {
	case c.Version != CheckpointVersion:
		return nil, fmt.Errorf("version %d, this memsim reads %d", c.Version, CheckpointVersion)
	case c.ConfigHash != ConfigHash(t.Config) || c.Seed != t.Config.Seed:
		return nil, ErrForeignCheckpoint
	}
	s, err := checkShardNumbers(c.Shard, c.Shards)
	if err != nil {
		return nil, err
	}
	if err := t.SetShard(s); err != nil {
		return nil, err
	}
	if len(c.Done) > len(t.Matches) {
		return nil, fmt.Errorf("%d finished matches, the configuration has %d", len(c.Done), len(t.Matches))
	}
	for i, r := range c.Done {
		m := &t.Matches[i].Match
		if err := m.CheckResult(r); err != nil {
			return nil, fmt.Errorf("finished match %d: %w", i+1, err)
		}
		if !r.Stopped && r.NextBatch != (m.Deals+sim.BatchSize-1)/sim.BatchSize {
			return nil, fmt.Errorf("finished match %d is not finished", i+1)
		}
	}
	if c.Current != nil {
		if len(c.Done) == len(t.Matches) {
			return nil, errors.New("a match under way after the last match")
		}
		if err := t.Matches[len(c.Done)].CheckResult(c.Current); err != nil {
			return nil, fmt.Errorf("match %d under way: %w", len(c.Done)+1, err)
		}
	}
	return &c, nil
}
