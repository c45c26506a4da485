package tournament

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"memsim/configs"
	"memsim/sim"
)

// Shard names one slice of a run that is split among processes: Index of Count, 1-based. The zero
// value is the whole run.
type Shard struct{ Index, Count int }

// MaxShards is the most shards a run may be split into: more processes than any cluster runs
// for one tournament, and few enough that a set of shards is checked in little memory and
// named in a short message.
const MaxShards = 1_000_000

// ParseShard reads "i/N" with 1 <= i <= N <= MaxShards. Its error quotes s cut short
// (configs.Quote).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %s: must be i/N with 1 <= i <= N, for example 2/8", configs.Quote(s))
	}
	if n > MaxShards {
		return Shard{}, fmt.Errorf("shard %s: %d shards, at most %d", configs.Quote(s), n, MaxShards)
	}
	return Shard{i, n}, nil
}

// checkShardNumbers checks a shard as a file states it: 0 of 0, or 1 <= i <= N <= MaxShards.
func checkShardNumbers(i, n int) (Shard, error) {
	switch {
	case n > MaxShards:
		return Shard{}, fmt.Errorf("shard %d of %d: a run has at most %d shards", i, n, MaxShards)
	case (i == 0 && n == 0) || (i >= 1 && i <= n):
		return Shard{Index: i, Count: n}, nil
	}
	return Shard{}, fmt.Errorf("shard %d of %d: must be i of N with 1 <= i <= N (or 0 of 0)", i, n)
}

// String formats the shard as "i/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ErrShardWithStop refuses to shard a tournament with a stopping rule.
var ErrShardWithStop = errors.New("a stopping rule needs every deal of a matchup, so a run with a stop block cannot be split into shards")

// SetShard makes the tournament play only shard s of every match: the batches of deals b with
// b mod s.Count = s.Index-1. The shards' tallies add up to those of the whole run (Merge). The
// zero Shard plays everything.
func (t *Tournament) SetShard(s Shard) error {
	if err := CheckShard(t.Config, s); err != nil {
		return err
	}
	t.shard = s
	for i := range t.Matches {
		t.Matches[i].Shard, t.Matches[i].Shards = s.Index, s.Count
	}
	return nil
}

// CheckShard says, from the configuration alone, whether its tournament can play shard s
// (SetShard's refusal): the zero Shard always, another unless cfg has a stopping rule
// (ErrShardWithStop).
func CheckShard(cfg *configs.Tournament, s Shard) error {
	if s.Count > 0 && cfg.Stop != nil {
		return ErrShardWithStop
	}
	return nil
}

// Shard returns the slice of every match the tournament plays (the zero Shard: all of it).
func (t *Tournament) Shard() Shard { return t.shard }

// ShardResult is what a finished shard produced: the tallies of every match of the run, for its
// slice of the deals. In JSON it carries a hash of its content, and LoadShardResult checks every
// number in it.
type ShardResult struct {
	Version int `json:"version"`
	// ContentHash is the SHA-256 of the file's JSON with this field empty.
	ContentHash string        `json:"content_hash"`
	ConfigHash  string        `json:"config_hash"`
	Seed        uint64        `json:"seed"`
	Shard       int           `json:"shard"`
	Shards      int           `json:"shards"`
	Results     []*sim.Result `json:"results"`
}

// MarshalJSON encodes the shard's results with the hash of their content.
func (s *ShardResult) MarshalJSON() ([]byte, error) {
	type plain ShardResult
	return marshalHashed(plain(*s), func(p *plain, h string) { p.ContentHash = h })
}

// ShardResult returns the results of a sharded run, to be merged with its other shards.
func (t *Tournament) ShardResult(res *MatchResults) *ShardResult {
	return &ShardResult{Version: CheckpointVersion, ConfigHash: ConfigHash(t.Config), Seed: t.Config.Seed,
		Shard: t.shard.Index, Shards: t.shard.Count, Results: res.Matches}
}

// LoadShardResult decodes a shard file of a run of t (the unsharded tournament of its
// configuration) and checks that its content matches its hash, that it belongs to t's
// configuration and seed, that it is shard i of N with 1 <= i <= N <= MaxShards (before anything
// that grows with N), and that every number in it is what its shard of t's matches could have
// produced, finished (see sim.Match.CheckResult).
func (t *Tournament) LoadShardResult(data []byte) (*ShardResult, error) {
	var s ShardResult
	type plain ShardResult
	if err := decodeHashed(data, (*plain)(&s), func(p *plain) *string { return &p.ContentHash }); err != nil {
		return nil, err
	}
	switch {
	case s.Version != CheckpointVersion:
		return nil, fmt.Errorf("version %d, this memsim reads %d", s.Version, CheckpointVersion)
	case s.ConfigHash != ConfigHash(t.Config) || s.Seed != t.Config.Seed:
		return nil, ErrForeignCheckpoint
	case s.Shards < 1:
		return nil, fmt.Errorf("shard %d of %d: a shard file is one of at least 1", s.Shard, s.Shards)
	}
	if _, err := checkShardNumbers(s.Shard, s.Shards); err != nil {
		return nil, err
	}
	if len(s.Results) != len(t.Matches) {
		return nil, fmt.Errorf("%d matches, the configuration has %d", len(s.Results), len(t.Matches))
	}
	for i, r := range s.Results {
		m := t.Matches[i].Match
		m.Shard, m.Shards = s.Shard, s.Shards
		if err := m.CheckResult(r); err != nil {
			return nil, fmt.Errorf("match %d: %w", i+1, err)
		}
		if r.Stopped || r.NextBatch != (m.Deals+sim.BatchSize-1)/sim.BatchSize {
			return nil, fmt.Errorf("match %d is not finished", i+1)
		}
	}
	return &s, nil
}

// Merge adds up the results of the shards of one run of t, each given once and in order of
// their index, into the results of the whole run: the same, bit for bit, as one process playing
// it.
func (t *Tournament) Merge(shards []*ShardResult) (*MatchResults, error) {
	res := &MatchResults{}
	for mi := range t.Matches {
		var parts []*sim.Result
		for _, s := range shards {
			if len(s.Results) != len(t.Matches) {
				return nil, fmt.Errorf("shard %d has %d matches, the configuration %d", s.Shard, len(s.Results), len(t.Matches))
			}
			parts = append(parts, s.Results[mi])
		}
		r, err := t.Matches[mi].MergeShards(parts)
		if err != nil {
			return nil, fmt.Errorf("match %d: %w", mi+1, err)
		}
		res.Matches = append(res.Matches, r)
	}
	return res, nil
}
