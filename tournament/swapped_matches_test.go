package tournament_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"memsim/tournament"
)

// threeMatches is a tournament of three matches of the same shape: one deal size, two seats, both
// seat orders, the same deals.
const threeMatches = `seed: 5
paired: true
games: 2000
rules: {pairs: [4]}
players:
  - {name: a, policy: parity}
  - {name: b, policy: daring}
  - {name: c, policy: safe}
`

// finishedCheckpoint plays src and returns its checkpoint after the last match.
func finishedCheckpoint(t *testing.T, src string) []byte {
	t.Helper()
	tr, err := parse(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var last []byte
	_, err = tr.Play(context.Background(), tournament.Options{Workers: 2, Checkpoint: func(c *tournament.Checkpoint) error {
		last, err = json.Marshal(c)
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	return last
}

// Two finished matches swapped in a checkpoint file are refused: the content no longer matches
// its hash.
func TestSwappedFinishedMatchesAreRefused(t *testing.T) {
	saved := finishedCheckpoint(t, threeMatches)
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(saved, &raw); err != nil {
		t.Fatal(err)
	}
	var done []json.RawMessage
	if err := json.Unmarshal(raw["done"], &done); err != nil {
		t.Fatal(err)
	}
	if len(done) != 3 {
		t.Fatalf("%d finished matches, want 3", len(done))
	}
	done[0], done[2] = done[2], done[0]
	raw["done"], _ = json.Marshal(done)
	swapped, _ := json.Marshal(raw)
	tr, err := parse(t, threeMatches)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.LoadCheckpoint(swapped); !errors.Is(err, tournament.ErrDamaged) {
		t.Errorf("swapped finished matches: %v, want %v", err, tournament.ErrDamaged)
	}
}

// The same swap with the hash recomputed (TestEditedCheckpointsAreChecked's edits) is refused too:
// two matches of the same shape (deal size, seats, deals) must not trade places, or a resumed run
// would report each one's results under the other's players. Each match's tallies record the
// random streams of their games (sim.Result.Streams), which the loader compares with the
// configuration's match at that place. (A forger who also edits the streams is not caught: nothing
// without a secret can be.)
func TestSwappedFinishedMatchesWithTheirHashAreRefused(t *testing.T) {
	saved := finishedCheckpoint(t, threeMatches)
	tr, err := parse(t, threeMatches)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := tr.LoadCheckpoint(saved)
	if err != nil {
		t.Fatal(err)
	}
	ck.Done[0], ck.Done[2] = ck.Done[2], ck.Done[0]
	data, err := json.Marshal(ck)
	if err != nil {
		t.Fatal(err)
	}
	tr2, _ := parse(t, threeMatches)
	if _, err := tr2.LoadCheckpoint(data); err == nil {
		t.Error("two finished matches swapped, hash recomputed: accepted")
	}
}

// The same swap in a shard file, with its hash recomputed, is refused too.
func TestSwappedShardMatchesWithTheirHash(t *testing.T) {
	tr, err := parse(t, threeMatches)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetShard(tournament.Shard{Index: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(context.Background(), tournament.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := tr.ShardResult(res)
	good, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	s.Results[0], s.Results[2] = s.Results[2], s.Results[0]
	swapped, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := parse(t, threeMatches)
	if _, err := whole.LoadShardResult(good); err != nil {
		t.Fatalf("the shard as written: %v", err)
	}
	if _, err := whole.LoadShardResult(swapped); err == nil || !strings.Contains(err.Error(), "match 1: the tallies of another match") {
		t.Errorf("two matches of a shard swapped, hash recomputed: %v", err)
	}
}

// FuzzLoadShardResult feeds LoadShardResult arbitrary shard files, with their configuration and
// hash made right so that the number checks meet them: nothing may panic, and an error is one
// line.
func FuzzLoadShardResult(f *testing.F) {
	f.Add([]byte(`{"version":5,"shard":1,"shards":1,"results":[null,null]}`))
	f.Add([]byte(`{"version":5,"shard":1,"shards":2,"results":[{"Orders":[null]},{"Orders":[{"Share":[[1,-1]]}]}]}`))
	f.Add([]byte(`{"version":5,"shard":3,"shards":2,"results":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s tournament.ShardResult
		type plain tournament.ShardResult
		if json.Unmarshal(data, (*plain)(&s)) != nil {
			return
		}
		tr, err := parse(t, trustConfig)
		if err != nil {
			t.Fatal(err)
		}
		s.ConfigHash, s.Seed = tournament.ConfigHash(tr.Config), tr.Config.Seed
		fixed, err := json.Marshal(&s)
		if err != nil {
			return
		}
		if _, err := tr.LoadShardResult(fixed); err != nil {
			oneLine(t, "fuzz", err)
		}
	})
}
