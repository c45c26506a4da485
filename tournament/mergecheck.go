package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memsim/configs"
)

// ShardSetErrorKind says what is wrong with a set of shards to merge.
type ShardSetErrorKind int

// The kinds of ShardSetError.
const (
	// ForeignShard is a shard of another configuration or seed than the set's.
	ForeignShard ShardSetErrorKind = iota + 1
	// ShardCountDiffers is a shard of a run split into another number of shards than the
	// set's first shard.
	ShardCountDiffers
	// DuplicateShard is a shard whose number was given before.
	DuplicateShard
	// MissingShards is a set without every shard of its run.
	MissingShards
)

// maxListedMissing is the most missing shard numbers a ShardSetError lists.
const maxListedMissing = 20

// ShardSetError reports a shard that does not belong with the others of a ShardSet, or shards
// missing from it. Shards are named by the labels they were given with (their folders, say).
type ShardSetError struct {
	Kind ShardSetErrorKind
	// Label names the shard at fault, and Other the one it conflicts with: the set's first
	// (ForeignShard, ShardCountDiffers) or the earlier shard of the same number (DuplicateShard).
	// Both are empty for MissingShards.
	Label, Other string
	// Shard is the number of the shard at fault (DuplicateShard).
	Shard int
	// Shards is the number of shards of the run the shard at fault is one of, or for
	// MissingShards of the set's run; OtherShards that of the set's first shard
	// (ShardCountDiffers).
	Shards, OtherShards int
	// Missing lists the smallest numbers of the missing shards in increasing order, at most 20
	// of them, and MissingCount counts them all (MissingShards).
	Missing      []int
	MissingCount int
}

// Error names the shards by their labels, each shortened as configs.ShortPath does.
func (e *ShardSetError) Error() string {
	label, other := configs.ShortPath(e.Label), configs.ShortPath(e.Other)
	switch e.Kind {
	case ForeignShard:
		return fmt.Sprintf("shard %s is of another configuration or seed than %s", label, other)
	case ShardCountDiffers:
		return fmt.Sprintf("shard %s is one of %d shards, %s one of %d", label, e.Shards, other, e.OtherShards)
	case DuplicateShard:
		return fmt.Sprintf("shard %d of %d given twice: %s and %s", e.Shard, e.Shards, other, label)
	case MissingShards:
		list := make([]string, len(e.Missing))
		for i, n := range e.Missing {
			list[i] = strconv.Itoa(n)
		}
		s := fmt.Sprintf("missing shards of %d: %s", e.Shards, strings.Join(list, ", "))
		if more := e.MissingCount - len(e.Missing); more > 0 {
			s += fmt.Sprintf(" and %d more", more)
		}
		return s
	}
	return fmt.Sprintf("shard %s: shard set error of unknown kind %d", label, int(e.Kind))
}

// ShardSet gathers the finished shards of one run of a tournament to merge them, each with a
// label that names it in errors (its folder, say). It refuses, as they come, a shard of another
// configuration or seed, of another number of shards than the first, or given twice; Shards
// then refuses a set with shards missing. Each of these errors is a *ShardSetError.
type ShardSet struct {
	t      *Tournament
	hash   string         // ConfigHash(t.Config)
	label  string         // the label of the shard whose configuration t is
	first  string         // the label of the first shard added
	labels map[int]string // the label of every shard added, by its number
	shards []*ShardResult
}

// NewShardSet returns an empty set of shards of a run of t, the unsharded tournament of the
// configuration of the shard label names (the one the others are compared with).
func NewShardSet(t *Tournament, label string) *ShardSet {
	return &ShardSet{t: t, hash: ConfigHash(t.Config), label: label, labels: map[int]string{}}
}

// CheckConfig checks that cfg, the configuration of the shard label names, is the set's: the same
// configuration (ConfigHash, which covers the seed). A shard passes it before its results are loaded
// (LoadShardResult) with the set's tournament.
func (s *ShardSet) CheckConfig(label string, cfg *configs.Tournament) error {
	if ConfigHash(cfg) != s.hash {
		return &ShardSetError{Kind: ForeignShard, Label: label, Other: s.label}
	}
	return nil
}

// Add adds the results r of the shard label names, refusing a shard of another number of shards
// than the first one added, or of a number added before, and a shard number outside 1 .. N or
// N beyond MaxShards (which LoadShardResult refuses already).
func (s *ShardSet) Add(label string, r *ShardResult) error {
	if r.Shards < 1 || r.Shard < 1 || r.Shard > r.Shards || r.Shards > MaxShards {
		return fmt.Errorf("shard %s is shard %d of %d: must be i of N with 1 <= i <= N <= %d", configs.ShortPath(label), r.Shard, r.Shards, MaxShards)
	}
	if len(s.shards) > 0 && r.Shards != s.shards[0].Shards {
		return &ShardSetError{Kind: ShardCountDiffers, Label: label, Shards: r.Shards, Other: s.first, OtherShards: s.shards[0].Shards}
	}
	if prev, dup := s.labels[r.Shard]; dup {
		return &ShardSetError{Kind: DuplicateShard, Label: label, Other: prev, Shard: r.Shard, Shards: r.Shards}
	}
	if len(s.shards) == 0 {
		s.first = label
	}
	s.labels[r.Shard] = label
	s.shards = append(s.shards, r)
	return nil
}

// Shards returns the shards added, in order of their number, for Merge, or an error when shards
// of the run are missing (or none was added).
func (s *ShardSet) Shards() ([]*ShardResult, error) {
	if len(s.shards) == 0 {
		return nil, errors.New("no shards")
	}
	count := s.shards[0].Shards
	if len(s.labels) < count {
		e := &ShardSetError{Kind: MissingShards, Shards: count, MissingCount: count - len(s.labels)}
		for i := 1; i <= count && len(e.Missing) < maxListedMissing; i++ {
			if _, ok := s.labels[i]; !ok {
				e.Missing = append(e.Missing, i)
			}
		}
		return nil, e
	}
	out := slices.Clone(s.shards)
	slices.SortFunc(out, func(a, b *ShardResult) int { return cmp.Compare(a.Shard, b.Shard) })
	return out, nil
}
