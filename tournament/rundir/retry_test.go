package rundir_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"memsim/tournament"
	"memsim/tournament/rundir"
)

// PlanRetry finds, in each kind of folder a retried task can meet, what the task is to do: claim
// an empty folder, start again where only its configuration was kept, resume its own checkpoint,
// find its own finished shard complete, and refuse another shard's work, which starting would
// delete; it changes no folder but the one that holds its configuration alone, which it writes
// afresh.
func TestPlanRetry(t *testing.T) {
	tr := newTournament(t, tiny)
	cfgText := string(tr.Config.YAML())
	sharded := func(i int) *tournament.Tournament {
		s := newTournament(t, tiny)
		if err := s.SetShard(tournament.Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	_, cks := play(t, sharded(1))
	shardRes, _ := play(t, sharded(2))
	shardJSON := func() string {
		dir := filepath.Join(t.TempDir(), "s")
		f := lock(t, dir)
		if err := f.WriteShard([]byte(cfgText), sharded(2).ShardResult(shardRes)); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, rundir.ShardFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}()
	for _, tt := range []struct {
		name  string
		files map[string]string // the folder's; nil: no folder
		shard int               // the shard asked for, of 2; 0: the whole run
		want  rundir.RetryAction
		err   func(error) bool
		same  bool // the folder is left as it was
	}{
		{name: "no folder", shard: 0, want: rundir.RetryClaim, same: true},
		{name: "someone's files", files: map[string]string{"notes.txt": "mine"}, want: rundir.RetryClaim, same: true},
		{name: "its configuration alone", files: map[string]string{"config.yaml": cfgText}, want: rundir.RetryStart},
		{name: "its own checkpoint", files: map[string]string{"config.yaml": cfgText, "checkpoint.json": string(cks[0])}, shard: 1, want: rundir.RetryResume, same: true},
		{name: "another shard's checkpoint", files: map[string]string{"config.yaml": cfgText, "checkpoint.json": string(cks[0])}, shard: 2, same: true,
			err: func(err error) bool {
				var e *rundir.OtherShardError
				return errors.As(err, &e) && e.File == rundir.CheckpointFile && e.Held.Index == 1 && e.Want.Index == 2
			}},
		{name: "another configuration's checkpoint", files: map[string]string{"config.yaml": "name: other\nplayers: [{name: a, policy: random}, {name: b, policy: random}]\n", "checkpoint.json": string(cks[0])}, shard: 1, same: true,
			err: func(err error) bool { return errors.Is(err, rundir.ErrOtherConfigurationCheckpoint) }},
		{name: "its own finished shard", files: map[string]string{"config.yaml": cfgText, "shard.json": shardJSON}, shard: 2, want: rundir.RetryComplete, same: true},
		{name: "another finished shard", files: map[string]string{"config.yaml": cfgText, "shard.json": shardJSON}, shard: 1, same: true,
			err: func(err error) bool {
				var e *rundir.OtherShardError
				return errors.As(err, &e) && e.File == rundir.ShardFile && e.Held.Index == 2 && e.Want.Index == 1
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tiny")
			if tt.files != nil {
				writeTree(t, dir, tt.files)
			}
			var before map[string]string
			if tt.files != nil {
				before = readTree(t, dir)
			}
			play := newTournament(t, tiny)
			if tt.shard > 0 {
				play = sharded(tt.shard)
			}
			r, err := lock(t, dir).PlanRetry(play, play.Config)
			switch {
			case tt.err != nil && !tt.err(err):
				t.Errorf("error %v, not the refusal wanted", err)
			case tt.err == nil && err != nil:
				t.Errorf("error %v", err)
			case tt.err == nil && r.Action != tt.want:
				t.Errorf("action %d, want %d", r.Action, tt.want)
			case tt.err == nil && tt.want == rundir.RetryResume && (r.Checkpoint == nil || r.Held == nil):
				t.Errorf("resume without its checkpoint or configuration: %+v", r)
			}
			if tt.files != nil && tt.same {
				if got := readTree(t, dir); !maps.Equal(got, before) {
					t.Errorf("the folder changed: %v, before %v", got, before)
				}
			}
			if tt.want == rundir.RetryStart && tt.err == nil {
				if got := names(t, dir); !slices.Equal(got, []string{"config.yaml"}) {
					t.Errorf("after starting again the folder holds %v", got)
				}
			}
		})
	}
	// Without the folder's lock, nothing is decided.
	if _, err := open(t, filepath.Join(t.TempDir(), "x"), nil).PlanRetry(tr, tr.Config); !errors.Is(err, rundir.ErrNotLocked) {
		t.Errorf("without the lock: %v", err)
	}
}
