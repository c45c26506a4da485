package rundir_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/tournament/rundir"
)

// A folder's lock is held by one holder at a time: another is refused with the holder's PID,
// and once it is released the lock file is gone and the lock can be taken again.
func TestLockIsExclusive(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock: folders are not locked here")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	f := open(t, dir, nil)
	if want := filepath.Join(parent, ".run.lock"); f.LockPath() != want {
		t.Errorf("lock file %s, want %s", f.LockPath(), want)
	}
	l, err := f.Lock()
	if err != nil {
		t.Fatal(err)
	}
	holder := "memsim process " + strconv.Itoa(os.Getpid())
	if data, _ := os.ReadFile(f.LockPath()); string(data) != "token "+tokenOf(t, f)+"\n"+holder+"\n" {
		t.Errorf("the lock file says %q, want its token and %q", data, holder)
	}
	_, err = open(t, dir, nil).Lock()
	var le *rundir.LockedError
	want := "run folder " + dir + " is in use by " + holder + " (lock " + f.LockPath() + ")"
	if !errors.As(err, &le) || le.Holder != holder || err.Error() != want {
		t.Errorf("a second lock: %v, want %q", err, want)
	}
	l.Release()
	if _, err := os.Lstat(f.LockPath()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the released lock's file: %v", err)
	}
	l, err = f.Lock()
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l.Release()
	var none *rundir.Lock
	none.Release() // a nil lock holds nothing
}

// The lock file of a process that was killed is taken over: with its token when it records one,
// so that what that process left can be told for memsim's, with a new one otherwise.
func TestLockTakesOverALeftLockFile(t *testing.T) {
	holder := "memsim process " + strconv.Itoa(os.Getpid())
	for _, tt := range []struct {
		name, left string
		token      string // the token taken over, "" for a new one
	}{
		{"an older memsim's", "memsim process 1 that was killed long ago", ""},
		{"an empty one", "", ""},
		{"one cut short", "memsim pro", ""},
		{"one with a token", "token " + killedToken + "\nmemsim process 1\n", killedToken},
		{"one with a token cut short", "token " + killedToken + "\nmemsim proc", killedToken},
		{"one with a damaged token", "token 0123456789abcdeg\nmemsim process 1\n", ""},
	} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "run")
		writeTree(t, parent, map[string]string{".run.lock": tt.left})
		f := open(t, dir, nil)
		l, err := f.Lock()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		token := tokenOf(t, f)
		if tt.token != "" && token != tt.token || tt.token == "" && token == killedToken {
			t.Errorf("%s: token %s", tt.name, token)
		}
		if data, _ := os.ReadFile(f.LockPath()); string(data) != "token "+token+"\n"+holder+"\n" {
			t.Errorf("%s: the lock file says %q", tt.name, data)
		}
		l.Release()
	}
}

// What is in the lock file's place and is not a lock file memsim wrote (a folder, which may be a
// run named ".run.lock", a pipe, a file of other text or of more than a lock file holds) is
// refused, with a LockFileError that says what it is, and left byte for byte with everything
// beside it.
func TestLockRefusesWhatIsNotALockFile(t *testing.T) {
	for _, tt := range []struct {
		name   string
		files  map[string]string
		pipe   bool
		reason string
	}{
		{"a run named .run.lock", map[string]string{".run.lock/results.json": "another run"}, false, "is a folder"},
		{"a pipe", nil, true, "is not a regular file"},
		{"a user's file", map[string]string{".run.lock": "my notes\n"}, false, "holds other text"},
		{"a user's file that begins like one", map[string]string{".run.lock": "tokens of my own\n"}, false, "holds other text"},
		{"a large file", map[string]string{".run.lock": "memsim process 1\n" + strings.Repeat("x", 1<<20)}, false, "is larger than 1 MiB"},
	} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "run")
		writeTree(t, parent, map[string]string{"run/config.yaml": "c", "other/results.json": "r"})
		writeTree(t, parent, tt.files)
		if tt.pipe {
			if err := mkfifo(filepath.Join(parent, ".run.lock")); err != nil {
				t.Logf("%s: %v", tt.name, err)
				continue
			}
		}
		before := readTree(t, parent)
		_, err := open(t, dir, nil).Lock()
		var le *rundir.LockFileError
		lock := filepath.Join(parent, ".run.lock")
		want := "run folder " + dir + " cannot be locked: " + lock + " " + tt.reason + ", not memsim's lock file: move it away"
		if !errors.As(err, &le) || err.Error() != want {
			t.Errorf("%s: %v, want %q", tt.name, err, want)
		}
		if got := readTree(t, parent); !maps.Equal(got, before) {
			t.Errorf("%s: the refused lock changed\n%v\nto\n%v", tt.name, before, got)
		}
	}
}

// Release removes the lock file, but leaves it while what its holder created is still beside the
// folder, so that the next holder, taking its token over, removes that too.
func TestReleaseKeepsTheRecordOfWhatIsLeft(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	f := open(t, dir, nil)
	l, err := f.Lock()
	if err != nil {
		t.Fatal(err)
	}
	token := tokenOf(t, f)
	left := ".run.staging-" + token + "-5"
	writeTree(t, parent, map[string]string{left + "/x": "x"}) // a staging folder it could not remove
	l.Release()
	if got := names(t, parent); !slices.Equal(got, []string{".run.lock", left}) {
		t.Errorf("after the release: %v", got)
	}
	if next := lock(t, dir); tokenOf(t, next) != token {
		t.Errorf("the next holder's token %s, want %s", tokenOf(t, next), token)
	}
	if got := names(t, parent); !slices.Equal(got, []string{".run.lock"}) {
		t.Errorf("after the next lock: %v", got)
	}
}

// A symbolic link where the lock file should be is refused and never followed: the file it names
// (or would create) and every file beside the folder are left byte for byte as they were, the
// link included.
func TestLockRefusesASymbolicLink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		base := t.TempDir()
		elsewhere := filepath.Join(base, "elsewhere")
		writeTree(t, elsewhere, map[string]string{"neighbour": "a neighbour's file\n"})
		if !dangling {
			writeTree(t, elsewhere, map[string]string{"victim": "precious\n"})
		}
		parent := filepath.Join(base, "out")
		writeTree(t, parent, map[string]string{"run/config.yaml": "c", "other/results.json": "r"})
		dir := filepath.Join(parent, "run")
		if err := os.Symlink(filepath.Join(elsewhere, "victim"), filepath.Join(parent, ".run.lock")); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		before := readTree(t, base)
		_, err := open(t, dir, nil).Lock()
		var ll *rundir.LockLinkError
		want := "run folder " + dir + " cannot be locked: its lock file " + filepath.Join(parent, ".run.lock") + " is a symbolic link, which memsim does not follow: remove it"
		if !errors.As(err, &ll) || err.Error() != want {
			t.Errorf("dangling %v: %v, want %q", dangling, err, want)
		}
		if got := readTree(t, base); !maps.Equal(got, before) {
			t.Errorf("dangling %v: the refused lock changed\n%v\nto\n%v", dangling, before, got)
		}
		if target, err := os.Readlink(filepath.Join(parent, ".run.lock")); err != nil || target != filepath.Join(elsewhere, "victim") {
			t.Errorf("dangling %v: the link is now %q, %v", dangling, target, err)
		}
	}
}

// linkAppearsFS puts a symbolic link in the lock file's place just before the lock file is
// opened, after Lock has looked: opening it must refuse the link (O_NOFOLLOW), not follow it.
type linkAppearsFS struct {
	rundir.OSFS
	target string
}

func (l linkAppearsFS) OpenFile(name string, flag int, perm fs.FileMode) (rundir.File, error) {
	if filepath.Ext(name) == ".lock" {
		if err := os.Symlink(l.target, name); err != nil {
			return nil, err
		}
	}
	return l.OSFS.OpenFile(name, flag, perm)
}

func TestLockFileIsOpenedWithoutFollowingALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no O_NOFOLLOW here: Lock only looks before it opens")
	}
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	writeTree(t, base, map[string]string{"victim": "precious\n", "out/run/config.yaml": "c"})
	before := readTree(t, base)
	dir := filepath.Join(base, "out", "run")
	_, err := open(t, dir, linkAppearsFS{target: victim}).Lock()
	var ll *rundir.LockLinkError
	if !errors.As(err, &ll) {
		t.Errorf("a link that appears as the lock file is opened: %v", err)
	}
	got := readTree(t, base)
	delete(got, "out/.run.lock")
	if !maps.Equal(got, before) {
		t.Errorf("the refused lock changed\n%v\nto\n%v", before, got)
	}
}

// Taking the lock creates the folder's parent, and nothing else.
func TestLockCreatesOnlyTheParent(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "run")
	lock(t, dir)
	if got := names(t, filepath.Join(base, "a", "b")); !slices.Equal(got, []string{".run.lock"}) {
		t.Errorf("beside the folder: %v", got)
	}
}

// A file in the folder's place is refused as the lock is taken, and the lock file goes with the
// refusal.
func TestLockRefusesAFileForTheFolder(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	writeTree(t, parent, map[string]string{"run": "mine"})
	_, err := open(t, dir, nil).Lock()
	var nf *rundir.NotFolderError
	if !errors.As(err, &nf) {
		t.Errorf("%v", err)
	}
	if got := readTree(t, parent); !maps.Equal(got, map[string]string{"run": "mine"}) {
		t.Errorf("beside the folder: %v", got)
	}
}
