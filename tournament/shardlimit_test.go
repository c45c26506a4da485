package tournament_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"memsim/tournament"
)

// ParseShard takes up to MaxShards shards, and its message quotes what it was given cut short.
func TestParseShardBounds(t *testing.T) {
	long := strings.Repeat("9", 100000) + "/1"
	tests := []struct {
		in   string
		want tournament.Shard
		err  string // the whole message; "" for none
	}{
		{"1/1000000", tournament.Shard{Index: 1, Count: 1000000}, ""},
		{"1000000/1000000", tournament.Shard{Index: 1000000, Count: 1000000}, ""},
		{"1/1000001", tournament.Shard{}, `shard "1/1000001": 1000001 shards, at most 1000000`},
		{"1/9999999999999", tournament.Shard{}, `shard "1/9999999999999": 9999999999999 shards, at most 1000000`},
		{"3/2", tournament.Shard{}, `shard "3/2": must be i/N with 1 <= i <= N, for example 2/8`},
		{long, tournament.Shard{}, `shard "` + strings.Repeat("9", 40) + `"...: must be i/N with 1 <= i <= N, for example 2/8`},
	}
	for _, tt := range tests {
		got, err := tournament.ParseShard(tt.in)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != tt.want || msg != tt.err {
			t.Errorf("ParseShard(%.20q) = %+v, %q; want %+v, %q", tt.in, got, msg, tt.want, tt.err)
		}
	}
}

// More shards than MaxShards in the environment are refused, and a long value is quoted cut short.
func TestShardFromEnvBounds(t *testing.T) {
	tests := []struct {
		env map[string]string
		err string
	}{
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "MEMSIM_SHARDS": "1000001"},
			`shard "1/1000001": 1000001 shards, at most 1000000 (from the environment)`},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "9999999999999"},
			`shard "1/9999999999999": 9999999999999 shards, at most 1000000 (from the environment)`},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "MEMSIM_SHARDS": strings.Repeat("x", 100000)},
			`environment variable MEMSIM_SHARDS="` + strings.Repeat("x", 40) + `"...: must be a whole number`},
	}
	for _, tt := range tests {
		_, err := tournament.ShardFromEnv(func(k string) string { return tt.env[k] })
		if err == nil || err.Error() != tt.err {
			t.Errorf("%.60v: %v, want %q", tt.env, err, tt.err)
		}
	}
	s, err := tournament.ShardFromEnv(func(k string) string {
		return map[string]string{"JOB_COMPLETION_INDEX": "999999", "MEMSIM_SHARDS": "1000000"}[k]
	})
	if err != nil || s != (tournament.Shard{Index: 1000000, Count: 1000000}) {
		t.Errorf("the last of 1,000,000 shards: %+v, %v", s, err)
	}
}

// shardFile plays shard s of shardSetConfig and returns its shard file, with its count of
// shards set to count and its hash recomputed.
func shardFile(t *testing.T, s tournament.Shard, count int) []byte {
	t.Helper()
	tr, err := parse(t, shardSetConfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetShard(s); err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(context.Background(), tournament.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	sr := tr.ShardResult(res)
	sr.Shards = count
	data, err := json.Marshal(sr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A shard file of one of MaxShards shards is read; one that claims more is refused at once, its
// hash recomputed or not, and so is such a shard given to a ShardSet.
func TestLoadShardResultBounds(t *testing.T) {
	whole, err := parse(t, shardSetConfig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := whole.LoadShardResult(shardFile(t, tournament.Shard{Index: 1, Count: 1000000}, 1000000)); err != nil {
		t.Errorf("shard 1 of 1,000,000: %v", err)
	}
	for _, count := range []int{1000001, 9999999999999} {
		data := shardFile(t, tournament.Shard{Index: 1, Count: 2}, count)
		start := time.Now()
		_, err := whole.LoadShardResult(data)
		if err == nil || !strings.HasSuffix(err.Error(), "a run has at most 1000000 shards") || time.Since(start) > 10*time.Second {
			t.Errorf("shard 1 of %d: %v after %v", count, err, time.Since(start))
		}
		if err := tournament.NewShardSet(whole, "a").Add("a", shard(1, count)); err == nil {
			t.Errorf("ShardSet.Add: shard 1 of %d added", count)
		}
	}
}

// The messages of a ShardSet name its shards cut short.
func TestShardSetMessagesAreBounded(t *testing.T) {
	tr, err := parse(t, shardSetConfig)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("d/", 50000) + "shard-2-of-3"
	set := tournament.NewShardSet(tr, "s0")
	if err := set.Add("s0", shard(2, 3)); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{set.Add(long, shard(2, 3)), set.Add(long, shard(1, 4)), tournament.NewShardSet(tr, "a").Add(long, shard(5, 4))} {
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "...") {
			t.Errorf("%.400v", err)
		}
	}
}
