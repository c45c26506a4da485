package rundir_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
func play(t *testing.T, tr *tournament.Tournament) (*tournament.MatchResults, [][]byte) {
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
// temporary file; one stopped half way leaves a temporary file that the next lock removes, as the
// lock file the dead process left shows it memsim's.
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
		f := open(t, dir, fsys)
		l, err := f.Lock()
		if err != nil {
			t.Fatal(err)
		}
		w := f.CheckpointWriter(0)
		if err := w.Update(&first); err != nil {
			t.Fatal(err)
		}
		good, _ := os.ReadFile(w.Path())
		full = true
		err = w.Update(&second)
		if !errors.Is(err, errInjected) || !strings.HasPrefix(err.Error(), "write "+w.Path()+": ") {
			t.Errorf("crash %v: %v", crash, err)
		}
		if got, _ := os.ReadFile(w.Path()); !bytes.Equal(got, good) {
			t.Errorf("crash %v: the failed write changed the checkpoint", crash)
		}
		if got, want := len(names(t, dir)), map[bool]int{false: 2, true: 3}[crash]; got != want {
			t.Errorf("crash %v: the folder holds %v", crash, names(t, dir))
		}
		l.Release() // as the system does for a process that died
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
	version := `"version":` + strconv.Itoa(tournament.CheckpointVersion)
	for _, tt := range []struct {
		name string
		data []byte // nil: no checkpoint
		is   error
		want string
	}{
		{"none", nil, rundir.ErrNoCheckpoint, dir + " has no checkpoint.json: nothing to resume (the run finished, or never started)"},
		{"another configuration's", otherCks[len(otherCks)-1], tournament.ErrForeignCheckpoint, path + " belongs to another configuration than " + filepath.Join(dir, "config.yaml")},
		{"another version", bytes.Replace(good, []byte(version), []byte(`"version":2`), 1), rundir.ErrVersion, path + ": version 2, this memsim reads " + strconv.Itoa(tournament.CheckpointVersion) + ": written by an older version of memsim"},
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

// A checkpoint or shard file that is not a regular file (a link to /dev/zero, a pipe, a folder)
// or is larger than MaxFileSize is refused at once, with a CheckpointError naming it and what it
// is, without reading it: never a hang, never the memory it would take.
func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(path string) error
		want string // with PATH for the file
	}{
		{"a link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "PATH is a device, not a regular file: memsim reads only regular files"},
		{"a pipe", mkfifo, "PATH is a named pipe, not a regular file: memsim reads only regular files"},
		{"a folder", func(p string) error { return os.Mkdir(p, 0o755) }, "PATH is a folder, not a regular file: memsim reads only regular files"},
		{"a large file", func(p string) error { return os.WriteFile(p, nil, 0o644) }, "PATH is larger than 256 MiB, the most memsim reads of such a file"},
	} {
		for _, file := range []string{"checkpoint.json", "shard.json"} {
			dir := filepath.Join(t.TempDir(), "tiny")
			writeTree(t, dir, map[string]string{"config.yaml": "c"})
			path := filepath.Join(dir, file)
			if err := tt.make(path); err != nil {
				t.Logf("%s: %v", tt.name, err)
				continue
			}
			if tt.name == "a large file" {
				if err := os.Truncate(path, rundir.MaxFileSize+1); err != nil { // sparse: no disk taken
					t.Fatal(err)
				}
			}
			if _, err := os.Stat(path); err != nil {
				t.Logf("%s: %v", tt.name, err) // no /dev/zero here
				continue
			}
			done := make(chan error, 1)
			go func() {
				f := open(t, dir, nil)
				var err error
				if file == "checkpoint.json" {
					_, err = f.ReadCheckpoint(newTournament(t, tiny))
				} else {
					_, err = f.ReadShard(newTournament(t, tiny))
				}
				done <- err
			}()
			select {
			case err := <-done:
				var ce *rundir.CheckpointError
				if want := strings.ReplaceAll(tt.want, "PATH", path); !errors.As(err, &ce) || err.Error() != want {
					t.Errorf("%s as %s: %v, want %q", tt.name, file, err, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s as %s: reading it hangs", tt.name, file)
			}
		}
	}
}

// ReadFile reads a regular file of at most its limit, and refuses anything else with a typed
// error, a missing file with the error of opening it.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"config.yaml": "name: x\n", "big.yaml": strings.Repeat("#", 2049)})
	if data, err := rundir.ReadFile(filepath.Join(dir, "config.yaml"), 2048); err != nil || string(data) != "name: x\n" {
		t.Errorf("a small file: %q, %v", data, err)
	}
	big := filepath.Join(dir, "big.yaml")
	var tl *rundir.TooLargeError
	if _, err := rundir.ReadFile(big, 2048); !errors.As(err, &tl) || err.Error() != big+" is larger than 2 KiB, the most memsim reads of such a file" {
		t.Errorf("a large file: %v", err)
	}
	var nr *rundir.NotRegularError
	if _, err := rundir.ReadFile(dir, 2048); !errors.As(err, &nr) || err.Error() != dir+" is a folder, not a regular file: memsim reads only regular files" {
		t.Errorf("a folder: %v", err)
	}
	missing := filepath.Join(dir, "missing.yaml")
	if _, err := rundir.ReadFile(missing, 2048); !errors.Is(err, fs.ErrNotExist) || err.Error() != "open "+missing+": no such file or directory" {
		t.Errorf("a missing file: %v", err)
	}
}

// A symbolic link in the checkpoint's place is never written through nor replaced: the write is
// refused, and the link, what it names and the folder are left as they were.
func TestCheckpointWriterRefusesALink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "tiny")
	writeTree(t, base, map[string]string{"victim": "precious", "tiny/config.yaml": "c"})
	path := filepath.Join(dir, "checkpoint.json")
	if err := os.Symlink(filepath.Join(base, "victim"), path); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	before := readTree(t, base)
	f := lock(t, dir)
	w := f.CheckpointWriter(0)
	err := w.Update(&tournament.Checkpoint{})
	if want := "write " + path + ": " + path + " is a symbolic link, which memsim does not replace"; err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
	got := readTree(t, base)
	delete(got, ".tiny.lock")
	if !maps.Equal(got, before) {
		t.Errorf("the refused write changed\n%v\nto\n%v", before, got)
	}
}
