package rundir_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memsim/tournament/rundir"
)

// besideRun is what a run folder may hold besides its own files: two finished shards, the run
// merged from them, and a user's file.
var besideRun = map[string]string{
	"shard-1-of-2/": "", "shard-1-of-2/config.yaml": "cfg", "shard-1-of-2/shard.json": "shard 1",
	"shard-2-of-2/": "", "shard-2-of-2/config.yaml": "cfg", "shard-2-of-2/shard.json": "shard 2",
	"merged/": "", "merged/config.yaml": "cfg", "merged/results.json": "merged results", "merged/report.md": "![a](plots/a.png)\n",
	"merged/plots/": "", "merged/plots/a.png": "merged a",
	"notes.txt": "mine",
}

// only is the part of tree below the names of keep (a name and what it holds, as "NAME/...").
func only(tree map[string]string, keep []string) map[string]string {
	out := map[string]string{}
	for p, v := range tree {
		for _, k := range keep {
			if p == k || p == k+"/" || strings.HasPrefix(p, k+"/") {
				out[p] = v
			}
		}
	}
	return out
}

// A forced Claim replaces the run's own files by its configuration alone and keeps the shard
// folders, the merged run and the user's file byte for byte; replacing the run's files with its
// results then keeps them too, and removes the checkpoint the results stand for.
func TestClaimAndReplaceKeepWhatIsNotTheRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	writeTree(t, dir, oldRun)
	writeTree(t, dir, besideRun)
	writeTree(t, dir, map[string]string{"checkpoint.json": "old checkpoint", "matchups.csv": "old"})
	f := lock(t, dir)
	var holds *rundir.HoldsRunError
	if err := f.Claim(false, []byte("new config")); !errors.As(err, &holds) {
		t.Fatalf("unforced: %v, want the run refused", err)
	}
	if err := f.Claim(true, []byte("new config")); err != nil {
		t.Fatal(err)
	}
	want := withFolders(besideRun)
	want["config.yaml"] = "new config"
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("after a forced Claim the folder holds %v, want %v", got, want)
	}
	writeTree(t, dir, map[string]string{"checkpoint.json": "new checkpoint"})
	if err := f.Replace(false, func(s string) error { writeTree(t, s, newRun); return nil }); err != nil {
		t.Fatal(err)
	}
	want = withFolders(besideRun)
	maps.Copy(want, newRun)
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("after the results the folder holds %v, want %v", got, want)
	}
}

// With any one operation on the disk failing, or the process dying at any one, a forced Claim
// and the Replace of the run's results over a folder that holds other entries keep those entries
// byte for byte, never leave the old results beside the new configuration, and never remove the
// checkpoint before the results it stands for are in place.
func TestReplaceBesideOthersUnderFaults(t *testing.T) {
	claimed := map[string]string{"config.yaml": "new config", "checkpoint.json": "new checkpoint"}
	for _, tt := range []struct {
		name  string
		start map[string]string
		do    func(f *rundir.Folder, fsys rundir.FS) error
		ok    func(got map[string]string) bool // what the run's own files may be after a fault
	}{
		{"claim", oldRun,
			func(f *rundir.Folder, _ rundir.FS) error { return f.Claim(true, []byte("new config")) },
			func(got map[string]string) bool {
				return got["config.yaml"] != "new config" || got["results.json"] == ""
			}},
		{"results", claimed,
			func(f *rundir.Folder, fsys rundir.FS) error {
				return f.Replace(false, func(s string) error { return writeVia(fsys, s, newRun) })
			},
			func(got map[string]string) bool {
				return got["checkpoint.json"] == "new checkpoint" || got["results.json"] == "new results"
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var total int
			{
				dir := filepath.Join(t.TempDir(), "run")
				writeTree(t, dir, tt.start)
				writeTree(t, dir, besideRun)
				fsys := faultFS{fail: failAt(0, false, &total)}
				if err := process(dir, fsys, func(f *rundir.Folder) error { return tt.do(f, fsys) }); err != nil {
					t.Fatal(err)
				}
			}
			keep := withFolders(besideRun)
			for k := 1; k <= total; k++ {
				for _, crash := range []bool{false, true} {
					dir := filepath.Join(t.TempDir(), "run")
					writeTree(t, dir, tt.start)
					writeTree(t, dir, besideRun)
					fsys := faultFS{fail: failAt(k, crash, nil)}
					err := process(dir, fsys, func(f *rundir.Folder) error { return tt.do(f, fsys) })
					if err != nil && !errors.Is(err, errInjected) {
						t.Errorf("fault at %d, crash %v: %v, not the injected fault", k, crash, err)
					}
					got := readTree(t, dir)
					if others := only(got, slices.Collect(maps.Keys(besideRunNames()))); !maps.Equal(others, keep) {
						t.Errorf("fault at %d, crash %v: besides the run the folder holds %v, want %v", k, crash, others, keep)
					}
					if !tt.ok(got) {
						t.Errorf("fault at %d, crash %v: the folder holds %v", k, crash, got)
					}
				}
			}
		})
	}
}

// besideRunNames is the set of the top-level names of besideRun.
func besideRunNames() map[string]bool {
	out := map[string]bool{}
	for p := range besideRun {
		out[strings.SplitN(p, "/", 2)[0]] = true
	}
	return out
}

// RemoveRuns removes the shard folders and the merged run whole, and nothing else: not the
// user's file, nor a symbolic link to a run elsewhere; it refuses, before removing any, a run
// that holds a user's file and one that another process uses.
func TestRemoveRuns(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	writeTree(t, dir, newRun)
	writeTree(t, dir, besideRun)
	elsewhere := filepath.Join(parent, "elsewhere")
	writeTree(t, elsewhere, map[string]string{"results.json": "elsewhere"})
	if err := os.Symlink(elsewhere, filepath.Join(dir, "linked")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f := lock(t, dir)
	runs, err := f.Runs()
	if want := []string{"merged", "shard-1-of-2", "shard-2-of-2"}; err != nil || !slices.Equal(runs, want) {
		t.Fatalf("Runs: %v, %v; want %v", runs, err, want)
	}

	// A run of the user's own notes, and a run in use, are refused; nothing is removed.
	before := readTree(t, dir)
	writeTree(t, dir, map[string]string{"merged/draft.txt": "mine"})
	var fe *rundir.ForeignEntriesError
	if _, err := f.RemoveRuns(); !errors.As(err, &fe) || fe.Dir != filepath.Join(dir, "merged") || !slices.Equal(fe.Entries, []string{"draft.txt"}) {
		t.Errorf("a merged run holding a user's file: %v", err)
	}
	os.Remove(filepath.Join(dir, "merged", "draft.txt"))
	if got := readTree(t, dir); !maps.Equal(got, before) {
		t.Errorf("the refused RemoveRuns changed the folder: %v", got)
	}
	shard := open(t, filepath.Join(dir, "shard-2-of-2"), nil)
	l, err := shard.Lock()
	if err != nil {
		t.Fatal(err)
	}
	var locked *rundir.LockedError
	if _, err := f.RemoveRuns(); !errors.As(err, &locked) {
		t.Errorf("a shard in use: %v", err)
	}
	l.Release()
	if got := readTree(t, dir); !maps.Equal(got, before) {
		t.Errorf("the refused RemoveRuns changed the folder: %v", got)
	}

	removed, err := f.RemoveRuns()
	if want := []string{"merged", "shard-1-of-2", "shard-2-of-2"}; err != nil || !slices.Equal(removed, want) {
		t.Fatalf("RemoveRuns: %v, %v; want %v", removed, err, want)
	}
	want := map[string]string{"notes.txt": "mine", "linked": "link to " + elsewhere}
	maps.Copy(want, newRun)
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("after RemoveRuns the folder holds %v, want %v", got, want)
	}
	if got := readTree(t, elsewhere); !maps.Equal(got, map[string]string{"results.json": "elsewhere"}) {
		t.Errorf("the run the link names holds %v", got)
	}
}
