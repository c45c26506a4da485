package rundir_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memsim/configs"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// tiny is a tournament that plays in a blink: two matches, so that a checkpoint holds two.
const tiny = `name: tiny
seed: 3
games: 2000
rules: {pairs: [3, 4]}
players:
  - {name: greedy, policy: greedy-random}
  - {name: random, policy: random}
`

// newTournament builds the tournament of the configuration src.
func newTournament(t *testing.T, src string) *tournament.Tournament {
	t.Helper()
	cfg, err := configs.Parse("tiny.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// play plays tr and returns its results and every checkpoint Play reported, encoded.
func play(t *testing.T, tr *tournament.Tournament) (*tournament.Results, [][]byte) {
	t.Helper()
	var cks [][]byte
	res, err := tr.Play(context.Background(), tournament.Options{Workers: 1, Checkpoint: func(c *tournament.Checkpoint) error {
		data, err := json.Marshal(c)
		cks = append(cks, data)
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	return res, cks
}

// The checkpoint writer writes at most every interval, and always when asked; what it writes
// is the state Play reported, which ReadCheckpoint reads back for the same tournament.
func TestCheckpointWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	f := lock(t, dir)
	if err := f.Claim(false, []byte("config")); err != nil {
		t.Fatal(err)
	}
	tr := newTournament(t, tiny)
	var states []*tournament.Checkpoint
	if _, err := tr.Play(context.Background(), tournament.Options{Workers: 1, Checkpoint: func(c *tournament.Checkpoint) error {
		cp := *c
		states = append(states, &cp)
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	if len(states) < 2 {
		t.Fatalf("%d checkpoints: the test proves little", len(states))
	}
	w := f.CheckpointWriter(time.Hour)
	if w.Path() != filepath.Join(dir, "checkpoint.json") || f.CheckpointPath() != w.Path() {
		t.Errorf("writes %s", w.Path())
	}
	if err := w.Write(); err != nil || f.HasCheckpoint() {
		t.Errorf("a write before the first update: %v, wrote %v", err, f.HasCheckpoint())
	}
	if err := w.Update(states[0]); err != nil || f.HasCheckpoint() {
		t.Errorf("an update within the hour: %v, wrote %v", err, f.HasCheckpoint())
	}
	last := states[len(states)-1]
	if err := w.Update(last); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(last)
	if got, _ := os.ReadFile(w.Path()); !bytes.Equal(got, want) {
		t.Errorf("checkpoint.json is not the last state")
	}
	ck, err := f.ReadCheckpoint(newTournament(t, tiny))
	if err != nil || len(ck.Done) != len(last.Done) {
		t.Errorf("read back: %v", err)
	}
	every := f.CheckpointWriter(0)
	if err := every.Update(states[0]); err != nil {
		t.Fatal(err)
	}
	want, _ = json.Marshal(states[0])
	if got, _ := os.ReadFile(w.Path()); !bytes.Equal(got, want) {
		t.Errorf("an update with no interval does not write")
	}
}

// A checkpoint write that fails (a full disk) leaves the last one written byte for byte, and no
// temporary file; one stopped half way leaves a temporary file that the next lock removes.
func TestCheckpointWriteFailureKeepsTheLastOne(t *testing.T) {
	tr := newTournament(t, tiny)
	_, cks := play(t, tr)
	var first, second tournament.Checkpoint
	if err := json.Unmarshal(cks[0], &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(cks[len(cks)-1], &second); err != nil {
		t.Fatal(err)
	}
	for _, crash := range []bool{false, true} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "tiny")
		writeTree(t, dir, map[string]string{"config.yaml": "c"})
		// Once full, writes fail; with crash, so does everything after the first failed write.
		full, dead := false, false
		fsys := faultFS{fail: func(op, path string) bool {
			if full && op == "write" {
				dead = crash
				return true
			}
			return dead && changes(op)
		}}
		w := open(t, dir, fsys).CheckpointWriter(0)
		if err := w.Update(&first); err != nil {
			t.Fatal(err)
		}
		good, _ := os.ReadFile(w.Path())
		full = true
		err := w.Update(&second)
		if !errors.Is(err, errInjected) || !strings.HasPrefix(err.Error(), "write "+w.Path()+": ") {
			t.Errorf("crash %v: %v", crash, err)
		}
		if got, _ := os.ReadFile(w.Path()); !bytes.Equal(got, good) {
			t.Errorf("crash %v: the failed write changed the checkpoint", crash)
		}
		if got, want := len(names(t, dir)), map[bool]int{false: 2, true: 3}[crash]; got != want {
			t.Errorf("crash %v: the folder holds %v", crash, names(t, dir))
		}
		lock(t, dir)
		if got := names(t, dir); !slices.Equal(got, []string{"checkpoint.json", "config.yaml"}) {
			t.Errorf("crash %v: after the next lock the folder holds %v", crash, got)
		}
	}
}

// ReadCheckpoint refuses, with a CheckpointError that says why, a folder without a checkpoint,
// another configuration's checkpoint, one of another version and a damaged one.
func TestReadCheckpointRefusals(t *testing.T) {
	tr := newTournament(t, tiny)
	_, cks := play(t, tr)
	good := cks[len(cks)-1]
	other := newTournament(t, strings.Replace(tiny, "seed: 3", "seed: 4", 1))
	_, otherCks := play(t, other)
	dir := filepath.Join(t.TempDir(), "tiny")
	path := filepath.Join(dir, "checkpoint.json")
	version := fmt.Sprintf(`"version":%d`, tournament.CheckpointVersion)
	older := fmt.Sprintf(`"version":%d`, tournament.CheckpointVersion-1)
	for _, tt := range []struct {
		name string
		data []byte // nil: no checkpoint
		is   error
		want string
	}{
		{"none", nil, rundir.ErrNoCheckpoint, dir + " has no checkpoint.json: nothing to resume (the run finished, or never started)"},
		{"another configuration's", otherCks[len(otherCks)-1], tournament.ErrForeignCheckpoint, path + " belongs to another configuration than " + filepath.Join(dir, "config.yaml")},
		{"an older version", bytes.Replace(good, []byte(version), []byte(older), 1), rundir.ErrVersion,
			fmt.Sprintf("%s: version %d, this memsim reads %d: written by an older version of memsim", path, tournament.CheckpointVersion-1, tournament.CheckpointVersion)},
		{"damaged", bytes.Replace(good, []byte(`"Games":`), []byte(`"Games":1`), 1), tournament.ErrDamaged, path + ": " + tournament.ErrDamaged.Error()},
	} {
		os.RemoveAll(dir)
		writeTree(t, dir, map[string]string{"config.yaml": "c"})
		if tt.data != nil {
			writeTree(t, dir, map[string]string{"checkpoint.json": string(tt.data)})
		}
		before := readTree(t, dir)
		_, err := open(t, dir, nil).ReadCheckpoint(newTournament(t, tiny))
		var ce *rundir.CheckpointError
		if !errors.As(err, &ce) || !errors.Is(err, tt.is) || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if got := readTree(t, dir); !maps.Equal(got, before) {
			t.Errorf("%s: reading changed the folder", tt.name)
		}
	}
	if !bytes.Contains(good, []byte(version)) || !bytes.Contains(good, []byte(`"Games":`)) {
		t.Fatal("the checkpoint's JSON is not what the cases above edit")
	}
}

// A finished shard's folder is written whole and read back for the unsharded tournament.
func TestWriteAndReadShard(t *testing.T) {
	tr := newTournament(t, tiny)
	if err := tr.SetShard(tournament.Shard{Index: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	res, _ := play(t, tr)
	run := filepath.Join(t.TempDir(), "tiny")
	dir := rundir.ShardDir(run, tr.Shard())
	f := lock(t, dir)
	if err := f.WriteShard([]byte("the shard's config"), tr.ShardResult(res)); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"config.yaml", "shard.json"}) {
		t.Errorf("the shard folder holds %v", got)
	}
	s, err := f.ReadShard(newTournament(t, tiny))
	if err != nil || s.Shard != 1 || s.Shards != 2 {
		t.Errorf("read back: %+v, %v", s, err)
	}
	_, err = open(t, run, nil).ReadShard(newTournament(t, tiny))
	if !errors.Is(err, rundir.ErrNoCheckpoint) || err.Error() != run+" has no shard.json: the shard is not finished" {
		t.Errorf("a folder without shard.json: %v", err)
	}
	_, err = f.ReadShard(newTournament(t, strings.Replace(tiny, "seed: 3", "seed: 4", 1)))
	if !errors.Is(err, tournament.ErrForeignCheckpoint) {
		t.Errorf("another configuration: %v", err)
	}
}
