package tournament_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"memsim/analysis/report"
	"memsim/sim"
	"memsim/tournament"
)

const trustConfig = `seed: 17
paired: true
games: 33000
rules: {pairs: [3, 4]}
players:
  - {name: parity, policy: parity}
  - {name: daring, policy: daring}
`

// resultsJSON plays (or resumes) the trust tournament and returns its results.json.
func resultsJSON(t *testing.T, tr *tournament.Tournament, o tournament.Options) ([]byte, error) {
	t.Helper()
	ctx := context.Background()
	res, err := tr.Play(ctx, o)
	if err != nil {
		return nil, err
	}
	run, err := tr.Report(ctx, res)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, run); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// interruptedCheckpoint plays the trust tournament until the second match's first round and
// returns the checkpoint as written then.
func interruptedCheckpoint(t *testing.T) []byte {
	t.Helper()
	tr, err := parse(t, trustConfig)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var saved []byte
	_, err = tr.Play(ctx, tournament.Options{Workers: 2, Checkpoint: func(c *tournament.Checkpoint) error {
		if len(c.Done) == 1 && c.Current != nil && saved == nil {
			if saved, err = json.Marshal(c); err != nil {
				return err
			}
			cancel()
		}
		return nil
	}})
	if !errors.Is(err, context.Canceled) || saved == nil {
		t.Fatalf("the run was not interrupted: %v", err)
	}
	return saved
}

// mutate returns data with one random change: a digit changed, a byte deleted, inserted or
// doubled, or a number replaced by a negative or a huge one.
func mutate(r *rand.Rand, data []byte) []byte {
	out := bytes.Clone(data)
	i := r.IntN(len(out))
	switch r.IntN(5) {
	case 0:
		for k := 0; k < len(out); k++ {
			if j := (i + k) % len(out); out[j] >= '0' && out[j] <= '9' {
				out[j] = byte('0' + (int(out[j]-'0')+1+r.IntN(9))%10)
				return out
			}
		}
	case 1:
		return append(out[:i:i], out[i+1:]...)
	case 2:
		return append(out[:i:i], append([]byte{"0123456789,-]}[{\"."[r.IntN(17)]}, out[i:]...)...)
	case 3:
		j := min(len(out), i+1+r.IntN(40))
		return append(out[:j:j], append(bytes.Clone(out[i:j]), out[j:]...)...)
	}
	for k := 0; k < len(out); k++ {
		if j := (i + k) % len(out); out[j] >= '1' && out[j] <= '9' {
			repl := []byte("-1")
			if r.IntN(2) == 0 {
				repl = []byte("99999999999999999999")
			}
			return append(out[:j:j], append(repl, out[j+1:]...)...)
		}
	}
	return out
}

// mutations is the number of seeded random damages a trust test tries: 400, or 100 under the race
// detector (50 in its short form).
func mutations() int {
	if raceEnabled && testing.Short() {
		return 50
	}
	if raceEnabled {
		return 100
	}
	return 400
}

// oneLine checks that an error reads as one line.
func oneLine(t *testing.T, what string, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
		t.Errorf("%s: the error is not one line: %q", what, msg)
	}
}

// Seeded random damage to a real checkpoint is refused with one clear line, or, where the damage
// leaves the content as it was, the resumed run gives the results of an undamaged one. A panic
// fails the test.
func TestDamagedCheckpoints(t *testing.T) {
	saved := interruptedCheckpoint(t)
	fresh, err := parse(t, trustConfig)
	if err != nil {
		t.Fatal(err)
	}
	want, err := resultsJSON(t, fresh, tournament.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	refused, resumed := 0, 0
	for i := range mutations() {
		data := mutate(r, saved)
		tr, err := parse(t, trustConfig)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("mutation %d panicked: %v\n%s", i, p, data)
				}
			}()
			ck, err := tr.LoadCheckpoint(data)
			if err != nil {
				refused++
				oneLine(t, fmt.Sprintf("mutation %d", i), err)
				return
			}
			resumed++
			got, err := resultsJSON(t, tr, tournament.Options{Workers: 2, Resume: ck})
			if err != nil {
				t.Errorf("mutation %d: accepted, then the run failed: %v", i, err)
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("mutation %d: accepted, and the results differ from an undamaged run's", i)
			}
		}()
	}
	t.Logf("%d mutations refused, %d accepted with the undamaged results", refused, resumed)
}

// Damage that keeps the hash right (someone edited the numbers and recomputed it) is still
// refused where it breaks what the numbers must satisfy.
func TestEditedCheckpointsAreChecked(t *testing.T) {
	saved := interruptedCheckpoint(t)
	tests := []struct {
		name string
		edit func(c *tournament.Checkpoint)
	}{
		{"a nil finished match", func(c *tournament.Checkpoint) { c.Done[0] = nil }},
		{"an appended match", func(c *tournament.Checkpoint) { c.Done = append(c.Done, c.Done[0]) }},
		{"a finished match in place of the current one", func(c *tournament.Checkpoint) { c.Current = c.Done[0] }},
		{"a negative count", func(c *tournament.Checkpoint) { c.Done[0].Orders[0].Share[0][1] = -3 }},
		{"a short row", func(c *tournament.Checkpoint) { c.Current.Orders[1].Share[0] = c.Current.Orders[1].Share[0][:2] }},
		{"games moved between seats' counts", func(c *tournament.Checkpoint) { c.Done[0].Orders[0].Wins[0] += 5 }},
		{"a shard that does not exist", func(c *tournament.Checkpoint) { c.Shard, c.Shards = 3, 2 }},
		{"a shard of another run", func(c *tournament.Checkpoint) { c.Shard, c.Shards = 1, 2 }},
		{"the current match's deals", func(c *tournament.Checkpoint) { c.Current.Deals += sim.BatchSize }},
		{"a stopped match that had no rule", func(c *tournament.Checkpoint) { c.Current.Stopped = false; c.Done[0].Stopped = true }},
		{"luck sums dropped", func(c *tournament.Checkpoint) { c.Done[0].Orders[0].Luck = nil }},
		{"a seat's luck sums missing", func(c *tournament.Checkpoint) { c.Done[0].Orders[0].Luck = c.Done[0].Orders[0].Luck[:1] }},
		{"a luck sum of squares below the sum's", func(c *tournament.Checkpoint) {
			c.Done[0].Orders[0].Luck[0].SumSq = c.Done[0].Orders[0].Luck[0].SumSq.Neg()
		}},
		{"a paired luck sum that is not the seat orders'", func(c *tournament.Checkpoint) {
			var one sim.Int128
			_ = one.UnmarshalText([]byte("1"))
			p := c.Done[0].Paired.Luck
			p.Sum = p.Sum.Add(one)
		}},
		{"a luck sum beyond any game", func(c *tournament.Checkpoint) {
			var huge sim.Int128
			_ = huge.UnmarshalText([]byte("100000000000000000000000000000000000"))
			c.Done[0].Orders[0].Luck[0].Sum = huge
		}},
	}
	for _, tt := range tests {
		tr, err := parse(t, trustConfig)
		if err != nil {
			t.Fatal(err)
		}
		ck, err := tr.LoadCheckpoint(saved)
		if err != nil {
			t.Fatal(err)
		}
		tt.edit(ck)
		data, err := json.Marshal(ck) // with its hash recomputed
		if err != nil {
			t.Fatal(err)
		}
		tr2, _ := parse(t, trustConfig)
		if _, err := tr2.LoadCheckpoint(data); err == nil {
			t.Errorf("%s: accepted", tt.name)
		} else {
			oneLine(t, tt.name, err)
		}
	}
}

// Seeded random damage to a real shard file is refused with one clear line, or merges to the
// results of the undamaged shards.
func TestDamagedShards(t *testing.T) {
	whole, err := parse(t, trustConfig)
	if err != nil {
		t.Fatal(err)
	}
	want, err := resultsJSON(t, whole, tournament.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var files [][]byte
	for i := 1; i <= 2; i++ {
		tr, _ := parse(t, trustConfig)
		if err := tr.SetShard(tournament.Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		res, err := tr.Play(context.Background(), tournament.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(tr.ShardResult(res))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	merge := func(datas [][]byte) ([]byte, error) {
		tr, _ := parse(t, trustConfig)
		var shards []*tournament.ShardResult
		for _, d := range datas {
			s, err := tr.LoadShardResult(d)
			if err != nil {
				return nil, err
			}
			shards = append(shards, s)
		}
		res, err := tr.Merge(shards)
		if err != nil {
			return nil, err
		}
		run, err := tr.Report(context.Background(), res)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		err = report.WriteJSON(&b, run)
		return b.Bytes(), err
	}
	if got, err := merge(files); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the undamaged shards: %v, or results that differ from one process's", err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	refused := 0
	for i := range mutations() {
		datas := [][]byte{files[0], files[1]}
		k := r.IntN(2)
		datas[k] = mutate(r, files[k])
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("mutation %d panicked: %v", i, p)
				}
			}()
			got, err := merge(datas)
			if err != nil {
				refused++
				oneLine(t, fmt.Sprintf("mutation %d", i), err)
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("mutation %d: accepted, and the merged results differ", i)
			}
		}()
	}
	t.Logf("%d of %d mutations refused", refused, mutations())
}

// FuzzLoadCheckpoint feeds LoadCheckpoint arbitrary checkpoints, with their hash made right so
// that the number checks, not the hash, meet them: nothing may panic.
func FuzzLoadCheckpoint(f *testing.F) {
	f.Add([]byte(`{"version":5,"done":[],"current":null,"shard":0,"shards":0}`))
	f.Add([]byte(`{"version":5,"done":[null],"current":{"Orders":[null]},"shard":1,"shards":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c tournament.Checkpoint
		type plain tournament.Checkpoint
		if json.Unmarshal(data, (*plain)(&c)) != nil {
			return
		}
		tr, err := parse(t, trustConfig)
		if err != nil {
			t.Fatal(err)
		}
		c.ConfigHash, c.Seed = tournament.ConfigHash(tr.Config), tr.Config.Seed
		fixed, err := json.Marshal(&c)
		if err != nil {
			return
		}
		if _, err := tr.LoadCheckpoint(fixed); err != nil {
			oneLine(t, "fuzz", err)
		}
	})
}

// A checkpoint or shard file of another version is refused by its version, whatever else it
// holds, not reported as damaged: its content need not hash as this memsim's does. The message
// says whether an older or a newer memsim wrote it.
func TestOtherVersionsAreNamed(t *testing.T) {
	tr, err := parse(t, trustConfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int{tournament.CheckpointVersion - 1, tournament.CheckpointVersion + 1} {
		which := "an older"
		if v > tournament.CheckpointVersion {
			which = "a newer"
		}
		old := fmt.Sprintf(`{"version": %d, "config_hash": "x", "content_hash": "y", "an_old_field": 1}`, v)
		want := fmt.Sprintf("version %d, this memsim reads %d: written by %s version of memsim", v, tournament.CheckpointVersion, which)
		if _, err := tr.LoadCheckpoint([]byte(old)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkpoint: %v, want %q", err, want)
		}
		if _, err := tr.LoadShardResult([]byte(old)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shard: %v, want %q", err, want)
		}
	}
}

// Checkpoints and shard files of version 3 hashed the configuration's YAML text, workers set to
// 0: such a file, well formed, is refused as written by an older memsim; with the version
// changed, its hash is another configuration's.
func TestTextHashedFilesAreRefused(t *testing.T) {
	tr, err := parse(t, trustConfig)
	if err != nil {
		t.Fatal(err)
	}
	c := *tr.Config
	c.Workers = 0
	sum := sha256.Sum256(c.YAML())
	textHash := hex.EncodeToString(sum[:])
	if textHash == tournament.ConfigHash(tr.Config) {
		t.Fatal("the text's hash is the identity's")
	}
	for version, want := range map[int]string{
		3:                            fmt.Sprintf("version 3, this memsim reads %d: written by an older version of memsim", tournament.CheckpointVersion),
		tournament.CheckpointVersion: tournament.ErrForeignCheckpoint.Error(),
	} {
		ck, err := json.Marshal(&tournament.Checkpoint{Version: version, ConfigHash: textHash, Seed: tr.Config.Seed})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.LoadCheckpoint(ck); err == nil || err.Error() != want {
			t.Errorf("checkpoint of version %d: %v, want %q", version, err, want)
		}
		sh, err := json.Marshal(&tournament.ShardResult{Version: version, ConfigHash: textHash, Seed: tr.Config.Seed, Shard: 1, Shards: 2,
			Results: make([]*sim.Result, len(tr.Matches))})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.LoadShardResult(sh); err == nil || err.Error() != want {
			t.Errorf("shard file of version %d: %v, want %q", version, err, want)
		}
	}
}
