package tournament_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

const shardSetConfig = `seed: 5
games: 2000
rules: {pairs: [4]}
players:
  - {name: a, policy: parity}
  - {name: b, policy: daring}
`

// shard is a shard's results as ShardSet sees them: its number and count.
func shard(i, n int) *tournament.ShardResult { return &tournament.ShardResult{Shard: i, Shards: n} }

// addAll adds shards labelled by their position in the list, "s0", "s1", ..., and returns the
// first error with the set.
func addAll(set *tournament.ShardSet, shards ...*tournament.ShardResult) error {
	for k, s := range shards {
		if err := set.Add(fmt.Sprintf("s%d", k), s); err != nil {
			return err
		}
	}
	return nil
}

func TestShardSet(t *testing.T) {
	tr, err := parse(t, shardSetConfig)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		shards []*tournament.ShardResult
		kind   tournament.ShardSetErrorKind // 0: none
		msg    string
	}{
		{"complete, in order", []*tournament.ShardResult{shard(1, 3), shard(2, 3), shard(3, 3)}, 0, ""},
		{"complete, any order", []*tournament.ShardResult{shard(3, 3), shard(1, 3), shard(2, 3)}, 0, ""},
		{"one of one", []*tournament.ShardResult{shard(1, 1)}, 0, ""},
		{"one missing", []*tournament.ShardResult{shard(1, 3), shard(3, 3)}, tournament.MissingShards, "missing shards of 3: 2"},
		{"all but one missing", []*tournament.ShardResult{shard(4, 5)}, tournament.MissingShards, "missing shards of 5: 1, 2, 3, 5"},
		{"another count", []*tournament.ShardResult{shard(1, 3), shard(2, 4)}, tournament.ShardCountDiffers, "shard s1 is one of 4 shards, s0 one of 3"},
		{"given twice", []*tournament.ShardResult{shard(1, 3), shard(2, 3), shard(2, 3), shard(3, 3)}, tournament.DuplicateShard, "shard 2 of 3 given twice: s1 and s2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := tournament.NewShardSet(tr, "s0")
			err := addAll(set, tt.shards...)
			var got []*tournament.ShardResult
			if err == nil {
				got, err = set.Shards()
			}
			var se *tournament.ShardSetError
			switch {
			case tt.kind == 0 && err != nil:
				t.Fatalf("%v", err)
			case tt.kind == 0:
				for i, s := range got {
					if s.Shard != i+1 || !slices.Contains(tt.shards, s) {
						t.Errorf("shard %d of the merge is %+v", i+1, s)
					}
				}
				if len(got) != len(tt.shards) {
					t.Errorf("%d shards, want %d", len(got), len(tt.shards))
				}
			case !errors.As(err, &se) || se.Kind != tt.kind || err.Error() != tt.msg:
				t.Errorf("%v (%T), want a kind %d error %q", err, err, tt.kind, tt.msg)
			}
		})
	}
}

// The missing shards of a run of many are counted, and only the first of them listed.
func TestShardSetManyMissing(t *testing.T) {
	tr, err := parse(t, shardSetConfig)
	if err != nil {
		t.Fatal(err)
	}
	set := tournament.NewShardSet(tr, "s0")
	// Shards 2, 4, 6, ..., 40 of 100,000 given: 99,980 missing, the first twenty 1, 3, ..., 39.
	for i := 2; i <= 40; i += 2 {
		if err := set.Add(fmt.Sprint(i), shard(i, 100000)); err != nil {
			t.Fatal(err)
		}
	}
	var odd []string
	for i := 1; i <= 39; i += 2 {
		odd = append(odd, fmt.Sprint(i))
	}
	want := "missing shards of 100000: " + strings.Join(odd, ", ") + " and 99960 more"
	_, err = set.Shards()
	var se *tournament.ShardSetError
	if !errors.As(err, &se) || err.Error() != want || se.MissingCount != 99980 || len(se.Missing) != 20 {
		t.Errorf("%v, want %q", err, want)
	}
	// Twenty missing are all listed.
	set = tournament.NewShardSet(tr, "s0")
	if err := set.Add("s0", shard(21, 21)); err != nil {
		t.Fatal(err)
	}
	_, err = set.Shards()
	if want := "missing shards of 21: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20"; err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}

// A shard of another configuration or seed is refused before its results are read; a set
// without shards, and shard numbers outside 1 .. N, are refused too.
func TestShardSetRefuses(t *testing.T) {
	tr, err := parse(t, shardSetConfig)
	if err != nil {
		t.Fatal(err)
	}
	set := tournament.NewShardSet(tr, "dir/a")
	if err := set.CheckConfig("dir/a", tr.Config); err != nil {
		t.Errorf("the set's own configuration: %v", err)
	}
	for _, src := range []string{
		strings.Replace(shardSetConfig, "seed: 5", "seed: 6", 1),
		strings.Replace(shardSetConfig, "games: 2000", "games: 3000", 1),
		strings.Replace(shardSetConfig, "daring", "safe", 1),
	} {
		cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		err = set.CheckConfig("dir/b", cfg)
		var se *tournament.ShardSetError
		if !errors.As(err, &se) || se.Kind != tournament.ForeignShard ||
			err.Error() != "shard dir/b is of another configuration or seed than dir/a" {
			t.Errorf("%q: %v", src, err)
		}
	}
	if _, err := tournament.NewShardSet(tr, "a").Shards(); err == nil {
		t.Error("no shards: merged")
	}
	for _, s := range []*tournament.ShardResult{shard(0, 3), shard(4, 3), shard(0, 0), shard(-1, -1)} {
		if err := tournament.NewShardSet(tr, "a").Add("a", s); err == nil {
			t.Errorf("shard %d of %d: added", s.Shard, s.Shards)
		}
	}
}
