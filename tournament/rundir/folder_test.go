package rundir_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/tournament"
	"memsim/tournament/rundir"
)

// writeTree writes files below dir: each key is a path relative to dir, and its value the
// content; a key ending in "/" is an empty folder.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree is what writeTree wrote: every file below dir with its content, every folder as its
// path with "/", every symbolic link as "link to TARGET" and anything else (a pipe) as its type.
// A missing dir is nil.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel := filepath.ToSlash(p[len(dir)+1:])
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			out[rel] = "link to " + target
			return err
		}
		if !d.Type().IsRegular() {
			out[rel] = d.Type().String()
			return nil
		}
		data, err := os.ReadFile(p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports whether a and b, as readTree returns them, are the same: a missing folder is
// not an empty one.
func sameTree(a, b map[string]string) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}

// names lists the entries of dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Name())
	}
	return out
}

// open opens the run folder dir on fsys (nil: the operating system's).
func open(t *testing.T, dir string, fsys rundir.FS) *rundir.Folder {
	t.Helper()
	f, err := rundir.Options{FS: fsys}.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// lock opens the run folder dir and takes its lock, which it releases when the test ends.
func lock(t *testing.T, dir string) *rundir.Folder {
	t.Helper()
	f := open(t, dir, nil)
	l, err := f.Lock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Release)
	return f
}

// withFolders is files, as writeTree takes them, with the folders that hold them, as readTree
// lists them.
func withFolders(files map[string]string) map[string]string {
	out := maps.Clone(files)
	for k := range files {
		for d := filepath.ToSlash(filepath.Dir(k)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			out[d+"/"] = ""
		}
	}
	return out
}

// tokenOf is the token of the lock the folder f holds, as its lock file records it.
func tokenOf(t *testing.T, f *rundir.Folder) string {
	t.Helper()
	data, err := os.ReadFile(f.LockPath())
	if err != nil {
		t.Fatal(err)
	}
	token, ok := strings.CutPrefix(strings.SplitN(string(data), "\n", 2)[0], "token ")
	if !ok || len(token) != 16 {
		t.Fatalf("the lock file holds %q", data)
	}
	return token
}

// killedToken is the token of the memsim process that killed stands for.
const killedToken = "0123456789abcdef"

// killed writes what a memsim process killed while it wrote the folder dir left in the folder's
// parent: its lock file, recording killedToken, and files, each key a path relative to the
// parent, with TOKEN standing for killedToken.
func killed(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	tree := map[string]string{"." + filepath.Base(dir) + ".lock": "token " + killedToken + "\nmemsim process 1\n"}
	for k, v := range files {
		tree[strings.ReplaceAll(k, "TOKEN", killedToken)] = v
	}
	writeTree(t, filepath.Dir(dir), tree)
}

// Open names a folder as it is kept: cleaned, absolute for "." and "..", the folder a link
// names, and never the root.
func TestOpenNamesTheFolder(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	writeTree(t, real, map[string]string{"config.yaml": "c"})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	sub := filepath.Join(real, "sub")
	writeTree(t, sub, map[string]string{"x": "x"})
	t.Chdir(sub)
	// filepath.EvalSymlinks gives real's own name for real, which a temporary folder's parent
	// (a link on some systems) may change.
	realName, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{real + string(filepath.Separator), real},
		{filepath.Join(real, "a", ".."), real},
		{"..", real},
		{link, realName},
		{link + string(filepath.Separator), realName},
		{".", sub},
	} {
		f, err := rundir.Open(tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		if got := f.Path(); got != tt.want && got != filepath.Join(realName, strings.TrimPrefix(tt.want, real)) {
			t.Errorf("%s is %s, want %s", tt.path, got, tt.want)
		}
	}
	root := string(filepath.Separator)
	_, err = rundir.Open(root)
	var re *rundir.RootError
	if !errors.As(err, &re) || err.Error() != "run folder "+root+": the root of the file system cannot be a run folder" {
		t.Errorf("the root: %v", err)
	}
	_, err = rundir.Options{Layout: rundir.Layout{Name: "audit"}}.Open(root)
	if err == nil || err.Error() != "audit folder "+root+": the root of the file system cannot be an audit folder" {
		t.Errorf("the root as an audit folder: %v", err)
	}
}

// Check lets new work take a missing or empty folder, and refuses, unless forced, one that holds
// a run (naming the file that shows it, results first) or anything else; leftovers of stopped
// writes do not count, and a file in the folder's place is refused even when forced.
func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string // nil: no folder
		force bool
		want  string // the error's message, "" for none
	}{
		{"missing", nil, false, ""},
		{"empty", map[string]string{}, false, ""},
		{"a finished run", map[string]string{"config.yaml": "", "results.json": "", "report.md": ""}, false, "run folder DIR already holds a run (results.json)"},
		{"an interrupted run", map[string]string{"config.yaml": "", "checkpoint.json": ""}, false, "run folder DIR already holds a run (checkpoint.json)"},
		{"a finished shard", map[string]string{"config.yaml": "", "shard.json": ""}, false, "run folder DIR already holds a run (shard.json)"},
		{"a claimed folder", map[string]string{"config.yaml": ""}, false, "run folder DIR already holds a run (config.yaml)"},
		{"a user's file", map[string]string{"notes.txt": "mine"}, false, "run folder DIR is not empty (it holds notes.txt)"},
		{"two shards", map[string]string{"shard-1-of-2/": "", "shard-2-of-2/": ""}, false, "run folder DIR is not empty (it holds shard-1-of-2 and shard-2-of-2)"},
		{"four names", map[string]string{"a": "", "b": "", "c": "", "d": ""}, false, "run folder DIR is not empty (it holds a, b, c and 1 more)"},
		{"a control character", map[string]string{"a\tb": ""}, false, `run folder DIR is not empty (it holds "a\tb")`},
		{"look-alikes of leftovers", map[string]string{".checkpoint.json.tmp-12": "", ".results.json.tmp-3": "", ".old-plots/": ""}, false, "run folder DIR is not empty (it holds .checkpoint.json.tmp-12, .old-plots and .results.json.tmp-3)"},
		{"look-alikes", map[string]string{".checkpoint.json.tmp-x": "", ".old-keep/": ""}, false, "run folder DIR is not empty (it holds .checkpoint.json.tmp-x and .old-keep)"},
		{"forced over a run and a user's file", map[string]string{"results.json": "", "notes.txt": ""}, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			if tt.files != nil {
				writeTree(t, dir, tt.files)
			}
			before := readTree(t, dir)
			err := open(t, dir, nil).Check(tt.force)
			want := strings.ReplaceAll(tt.want, "DIR", dir)
			if (err == nil) != (want == "") || err != nil && err.Error() != want {
				t.Errorf("%v, want %q", err, want)
			}
			if got := readTree(t, dir); !maps.Equal(got, before) {
				t.Errorf("Check changed the folder: %v, was %v", got, before)
			}
		})
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run")
	writeTree(t, dir, map[string]string{"run": "mine"})
	for _, force := range []bool{false, true} {
		err := open(t, file, nil).Check(force)
		var nf *rundir.NotFolderError
		if !errors.As(err, &nf) || err.Error() != "run folder "+file+" is a file, not a folder" {
			t.Errorf("a file, force %v: %v", force, err)
		}
	}
}

// The temporary files of the lock holder's own writes do not count, but those of another token,
// or without one, do.
func TestCheckIgnoresItsOwnLeftovers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	f := lock(t, dir)
	token := tokenOf(t, f)
	writeTree(t, dir, map[string]string{".checkpoint.json.tmp-" + token + "-12": "{"})
	if err := f.Check(false); err != nil {
		t.Errorf("its own temporary file: %v", err)
	}
	other := ".checkpoint.json.tmp-" + strings.Repeat("0", 16) + "-12"
	writeTree(t, dir, map[string]string{other: "{"})
	if err := f.Check(false); err == nil || err.Error() != "run folder "+dir+" is not empty (it holds "+other+")" {
		t.Errorf("another token's: %v", err)
	}
}

// The refusals are typed, with what they name as fields.
func TestCheckErrorsAreTyped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	writeTree(t, dir, map[string]string{"checkpoint.json": "", "config.yaml": ""})
	var holds *rundir.HoldsRunError
	if err := open(t, dir, nil).Check(false); !errors.As(err, &holds) || holds.File != "checkpoint.json" || holds.Dir != dir || holds.Name != "run" {
		t.Errorf("%#v", err)
	}
	writeTree(t, dir, map[string]string{"notes.txt": ""})
	os.Remove(filepath.Join(dir, "checkpoint.json"))
	os.Remove(filepath.Join(dir, "config.yaml"))
	var ne *rundir.NotEmptyError
	if err := open(t, dir, nil).Check(false); !errors.As(err, &ne) || !slices.Equal(ne.Entries, []string{"notes.txt"}) {
		t.Errorf("%#v", err)
	}
	if err := open(t, dir, nil).CheckForeign(); err != nil {
		t.Errorf("a file beside the run, which replacing it keeps: %v", err)
	}
	writeTree(t, dir, map[string]string{"results.json/": ""})
	var fe *rundir.ForeignEntriesError
	err := open(t, dir, nil).CheckForeign()
	if !errors.As(err, &fe) || !slices.Equal(fe.Entries, []string{"results.json"}) ||
		err.Error() != "run folder "+dir+" holds results.json, which is not part of the run and would be deleted" {
		t.Errorf("%v", err)
	}
}

// Another layout speaks of its own folder and marks.
func TestCheckOfAnotherLayout(t *testing.T) {
	files := []string{"audit.json", "audit.md", "audit.html"}
	o := rundir.Options{Layout: rundir.Layout{Name: "audit", Files: files, Marks: files}}
	dir := filepath.Join(t.TempDir(), "audit")
	writeTree(t, dir, map[string]string{"audit.md": "", "audit.html": "", ".audit.md.tmp-4": "", "results.json": ""})
	f, err := o.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(false); err == nil || err.Error() != "audit folder "+dir+" already holds an audit (audit.md)" {
		t.Errorf("%v", err)
	}
	if err := f.CheckForeign(); err != nil {
		t.Errorf("entries beside the audit's own: %v", err)
	}
	writeTree(t, dir, map[string]string{"audit.json/": ""})
	if err := f.CheckForeign(); err == nil || err.Error() != "audit folder "+dir+" holds audit.json, which is not part of the audit and would be deleted" {
		t.Errorf("%v", err)
	}
}

// Replace gives a folder's own entries a whole new content, refuses unforced to delete what
// memsim did not write in them, keeps whatever the folder holds besides them, and leaves nothing
// beside it.
func TestReplace(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	newContent := map[string]string{"config.yaml": "new", "results.json": "new", "report.md": "![b](plots/b.png)\n", "plots/": "", "plots/b.png": "new"}
	write := func(staging string) error { writeTree(t, staging, newContent); return nil }
	f := lock(t, dir)
	if err := f.Replace(false, write); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir); !maps.Equal(got, newContent) {
		t.Errorf("a new folder holds %v", got)
	}
	others := map[string]string{"notes.txt": "mine", "shard-1-of-2/": "", "shard-1-of-2/shard.json": "s", ".results.json.tmp-1": ""}
	writeTree(t, dir, others)
	writeTree(t, dir, map[string]string{"plots/mine.png": "mine"})
	before := readTree(t, dir)
	err := f.Replace(false, write)
	var fe *rundir.ForeignEntriesError
	if !errors.As(err, &fe) || !slices.Equal(fe.Entries, []string{"plots/mine.png"}) {
		t.Errorf("unforced over a file of one's own in plots: %v", err)
	}
	if got := readTree(t, dir); !maps.Equal(got, before) {
		t.Errorf("the refused Replace changed the folder: %v", got)
	}
	if err := f.Replace(true, write); err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(newContent)
	maps.Copy(want, others)
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("forced, the folder holds %v, want %v", got, want)
	}
	if got := names(t, parent); !slices.Equal(got, []string{".run.lock", "run"}) {
		t.Errorf("beside the folder: %v", got)
	}
	// A failing write leaves the folder as it was.
	writeFailed := errors.New("render failed")
	if err := f.Replace(true, func(string) error { return writeFailed }); err != writeFailed {
		t.Errorf("a failing write: %v", err)
	}
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("after a failing write the folder holds %v", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{".run.lock", "run"}) {
		t.Errorf("beside the folder after a failing write: %v", got)
	}
}

// What the layout's folder plots/ holds is memsim's only when report.md names it as a figure, a
// regular file, and what records/ holds when report.md links it as a game record: a user's file
// put there, another run's folder, a link, or a file named only in report.md's text is foreign,
// and an unforced Replace refuses to delete it; so is a plots that is not a folder.
func TestReplaceRefusesWhatPlotsHoldsOfOthers(t *testing.T) {
	report := "# r\n\n### A figure\n\n![A figure](plots/a.png)\n\nsee plots/c.png and ![x](plots/d.png) here\n"
	records := "\n## Game records\n\n- [12 pairs: a vs b](records/12-a-vs-b.jsonl)\n"
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"memsim's figures", map[string]string{"report.md": report, "plots/a.png": "a"}, nil},
		{"no report.md", map[string]string{"plots/a.png": "a"}, []string{"plots/a.png"}},
		{"a user's file", map[string]string{"report.md": report, "plots/a.png": "a", "plots/notes.txt": "mine"}, []string{"plots/notes.txt"}},
		{"another run", map[string]string{"report.md": report, "plots/other/results.json": "theirs"}, []string{"plots/other"}},
		{"named in the text only", map[string]string{"report.md": report, "plots/c.png": "c", "plots/d.png": "d"}, []string{"plots/c.png", "plots/d.png"}},
		{"a file for plots", map[string]string{"report.md": report, "plots": "mine"}, []string{"plots"}},
		{"an empty plots", map[string]string{"report.md": report, "plots/": ""}, nil},
		{"a folder for results.json", map[string]string{"report.md": report, "results.json/mine": "mine"}, []string{"results.json"}},
		{"memsim's records", map[string]string{"report.md": report + records, "records/12-a-vs-b.jsonl": "r"}, nil},
		{"a user's record", map[string]string{"report.md": report + records, "records/12-a-vs-b.jsonl": "r", "records/mine.jsonl": "m"}, []string{"records/mine.jsonl"}},
		{"a record named as a figure's folder", map[string]string{"report.md": report + records, "plots/12-a-vs-b.jsonl": "r"}, []string{"plots/12-a-vs-b.jsonl"}},
		{"records without report.md", map[string]string{"records/12-a-vs-b.jsonl": "r"}, []string{"records/12-a-vs-b.jsonl"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "run")
			writeTree(t, dir, tt.files)
			before := readTree(t, parent)
			f := lock(t, dir)
			err := f.CheckForeign()
			var fe *rundir.ForeignEntriesError
			if tt.want == nil && err != nil || tt.want != nil && (!errors.As(err, &fe) || !slices.Equal(fe.Entries, tt.want)) {
				t.Errorf("CheckForeign: %v, want %v", err, tt.want)
			}
			err = f.Replace(false, func(s string) error { writeTree(t, s, newRun); return nil })
			if tt.want == nil {
				if err != nil {
					t.Errorf("Replace: %v", err)
				}
				return
			}
			if !errors.As(err, &fe) || !slices.Equal(fe.Entries, tt.want) {
				t.Errorf("Replace: %v, want %v", err, tt.want)
			}
			got := readTree(t, parent)
			delete(got, ".run.lock")
			if !maps.Equal(got, before) {
				t.Errorf("the refused Replace changed\n%v\nto\n%v", before, got)
			}
		})
	}
	// A link in plots/ is foreign, and so is plots as a link: neither is followed.
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	writeTree(t, parent, map[string]string{"elsewhere/a.png": "theirs", "run/report.md": report})
	if err := os.Symlink(filepath.Join(parent, "elsewhere"), filepath.Join(dir, "plots")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f := lock(t, dir)
	if err := f.CheckForeign(); err == nil || err.Error() != "run folder "+dir+" holds plots, which is not part of the run and would be deleted" {
		t.Errorf("plots as a link: %v", err)
	}
	os.Remove(filepath.Join(dir, "plots"))
	writeTree(t, dir, map[string]string{"plots/": ""})
	if err := os.Symlink(filepath.Join(parent, "elsewhere", "a.png"), filepath.Join(dir, "plots", "a.png")); err != nil {
		t.Fatal(err)
	}
	if err := f.CheckForeign(); err == nil || err.Error() != "run folder "+dir+" holds plots/a.png, which is not part of the run and would be deleted" {
		t.Errorf("a link in plots: %v", err)
	}
}

// plantFS puts a symbolic link to target at the first path it is asked about whose last element
// begins with prefix, just before it looks: as if someone put it there meanwhile.
type plantFS struct {
	rundir.OSFS
	prefix, target string
	planted        *bool
}

func (p plantFS) Lstat(name string) (fs.FileInfo, error) {
	if !*p.planted && strings.HasPrefix(filepath.Base(name), p.prefix) {
		*p.planted = true
		if err := os.Symlink(p.target, name); err != nil {
			return nil, err
		}
	}
	return p.OSFS.Lstat(name)
}

// A symbolic link where Replace moves the old folder to is refused, never followed nor replaced:
// the folder, the link and what it names are left byte for byte, and no staging folder is left.
func TestReplaceRefusesALinkWhereTheOldFolderGoes(t *testing.T) {
	base := t.TempDir()
	parent := filepath.Join(base, "out")
	dir := filepath.Join(parent, "run")
	writeTree(t, base, map[string]string{"victim/precious": "mine"})
	writeTree(t, dir, oldRun)
	planted := false
	fsys := plantFS{prefix: ".run.old-", target: filepath.Join(base, "victim"), planted: &planted}
	f := open(t, dir, fsys)
	l, err := f.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	err = f.Replace(false, func(s string) error { writeTree(t, s, newRun); return nil })
	if !planted {
		t.Skip("no symbolic links here")
	}
	if err == nil || !strings.HasPrefix(err.Error(), "move "+dir+" away: "+filepath.Join(parent, ".run.old-")) || !strings.HasSuffix(err.Error(), " is in the way") {
		t.Errorf("%v", err)
	}
	if got := readTree(t, dir); !maps.Equal(got, oldRun) {
		t.Errorf("the folder holds %v", got)
	}
	if got := readTree(t, filepath.Join(base, "victim")); !maps.Equal(got, map[string]string{"precious": "mine"}) {
		t.Errorf("what the link names: %v", got)
	}
	got := names(t, parent)
	if len(got) != 3 || got[0] != ".run.lock" || !strings.HasPrefix(got[1], ".run.old-") || got[2] != "run" {
		t.Errorf("beside the folder: %v", got)
	}
}

// oldRun and newRun are a run folder's content before and after a Replace or a Refresh in the
// tests of faults: newRun drops the figure c and adds b.
var (
	oldRun = map[string]string{"config.yaml": "old config", "results.json": "old results", "report.md": "![a](plots/a.png)\n![c](plots/c.png)\n",
		"plots/": "", "plots/a.png": "old a", "plots/c.png": "old c"}
	newRun = map[string]string{"config.yaml": "new config", "results.json": "new results", "report.md": "![a](plots/a.png)\n![b](plots/b.png)\n",
		"plots/": "", "plots/a.png": "new a", "plots/b.png": "new b"}
)

// writeVia writes files below dir through fsys, each file created, written and closed, so that
// every step can fail.
func writeVia(fsys rundir.FS, dir string, files map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write([]byte(files[name]))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// process runs do on the folder dir as one memsim process does, on fsys: it takes the folder's
// lock, calls do, and lets the lock go. A process that dies (fsys fails everything from some
// point on) lets it go as the system does, leaving the lock file.
func process(dir string, fsys rundir.FS, do func(f *rundir.Folder) error) error {
	f, err := rundir.Options{FS: fsys}.Open(dir)
	if err != nil {
		return err
	}
	l, err := f.Lock()
	if err != nil {
		return err
	}
	defer l.Release()
	return do(f)
}

// With any one operation on the disk failing, or the process dying at any one, Replace leaves
// the folder with its old content or all the new one, never a mix (a process that dies between
// the two renames leaves it moved away, and the next lock puts it back); a Replace that reports
// no error has written the new one; and the next process to take the lock finds the old or the
// new content and nothing left in or beside the folder.
func TestReplaceUnderFaults(t *testing.T) {
	for _, existing := range []bool{true, false} {
		var total int
		{
			dir := filepath.Join(t.TempDir(), "run")
			if existing {
				writeTree(t, dir, oldRun)
			}
			fsys := faultFS{fail: failAt(0, false, &total)}
			if err := process(dir, fsys, func(f *rundir.Folder) error {
				return f.Replace(false, func(s string) error { return writeVia(fsys, s, newRun) })
			}); err != nil {
				t.Fatal(err)
			}
		}
		if total < 10 {
			t.Fatalf("Replace changed the disk %d times: the test proves little", total)
		}
		for k := 1; k <= total; k++ {
			for _, crash := range []bool{false, true} {
				parent := t.TempDir()
				dir := filepath.Join(parent, "run")
				var old map[string]string
				if existing {
					writeTree(t, dir, oldRun)
				}
				if existing {
					old = oldRun
				}
				fsys := faultFS{fail: failAt(k, crash, nil)}
				err := process(dir, fsys, func(f *rundir.Folder) error {
					return f.Replace(false, func(s string) error { return writeVia(fsys, s, newRun) })
				})
				// A process that died between moving the folder away and putting the new one in
				// place leaves it missing, until the next lock puts the old one back.
				got := readTree(t, dir)
				if !sameTree(got, old) && !sameTree(got, newRun) && !(crash && got == nil) {
					t.Errorf("existing %v, fault at %d, crash %v: the folder holds %v", existing, k, crash, got)
				}
				if err == nil && !maps.Equal(got, newRun) {
					t.Errorf("existing %v, fault at %d, crash %v: no error, yet the folder holds %v", existing, k, crash, got)
				}
				if err != nil && !errors.Is(err, errInjected) {
					t.Errorf("existing %v, fault at %d, crash %v: %v, not the injected fault", existing, k, crash, err)
				}
				// The next process.
				next := open(t, dir, nil)
				l, err := next.Lock()
				if err != nil {
					t.Fatalf("existing %v, fault at %d, crash %v: the next lock: %v", existing, k, crash, err)
				}
				after := readTree(t, dir)
				if !sameTree(after, old) && !sameTree(after, newRun) {
					t.Errorf("existing %v, fault at %d, crash %v: after cleaning the folder holds %v", existing, k, crash, after)
				}
				l.Release()
				if got, want := names(t, parent), slices.DeleteFunc([]string{"run"}, func(string) bool { return after == nil }); !slices.Equal(got, want) {
					t.Errorf("existing %v, fault at %d, crash %v: beside the folder after cleaning: %v", existing, k, crash, got)
				}
			}
		}
	}
}

// The faults named one by one: a failing rename of the staging folder into place, a full disk
// while writing, and a failing removal of the old folder, which leaves it, and the lock file
// that shows it memsim's, until the next lock removes both.
func TestReplaceNamedFaults(t *testing.T) {
	for _, tt := range []struct {
		name    string
		fail    func(op, path string) bool
		wantNew bool // the folder holds the new content afterwards
		left    bool // something is left beside the folder until the next lock
	}{
		{"the staging folder cannot be put in place", failOn("rename", ".run.staging-"), false, false},
		{"the old folder cannot be moved away", failOn("rename", "run"), false, false},
		{"the disk is full", failOn("write", "results.json"), false, false},
		{"the old folder cannot be removed", failOn("removeall", ".run.old-"), true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "run")
			writeTree(t, dir, oldRun)
			fsys := faultFS{fail: tt.fail}
			err := process(dir, fsys, func(f *rundir.Folder) error {
				return f.Replace(false, func(s string) error { return writeVia(fsys, s, newRun) })
			})
			if !errors.Is(err, errInjected) {
				t.Errorf("error %v, want the injected fault", err)
			}
			want := oldRun
			if tt.wantNew {
				want = newRun
			}
			if got := readTree(t, dir); !maps.Equal(got, want) {
				t.Errorf("the folder holds %v, want %v", got, want)
			}
			if got := names(t, parent); (len(got) > 1) != tt.left {
				t.Errorf("beside the folder: %v", got)
			}
			lock(t, dir)
			if got := readTree(t, dir); !maps.Equal(got, want) {
				t.Errorf("after the next lock the folder holds %v, want %v", got, want)
			}
			if got := names(t, parent); !slices.Equal(got, []string{".run.lock", "run"}) {
				t.Errorf("beside the folder after the next lock: %v", got)
			}
		})
	}
}

// Refresh writes a run's own files and leaves the rest of the folder as it is.
func TestRefreshKeepsForeignEntries(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	mine := map[string]string{"notes.txt": "mine", "shard-1-of-2/": "", "shard-1-of-2/shard.json": "s"}
	writeTree(t, dir, oldRun)
	writeTree(t, dir, mine)
	f := lock(t, dir)
	if err := f.Refresh(func(s string) error { writeTree(t, s, newRun); return nil }); err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(newRun)
	maps.Copy(want, mine)
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("the folder holds %v, want %v", got, want)
	}
	if got := names(t, parent); !slices.Equal(got, []string{".run.lock", "run"}) {
		t.Errorf("beside the folder: %v", got)
	}
}

// Refresh replaces plots/ file by file and only when it holds nothing but memsim's figures: a
// user's file put there, another run's folder in it, a link in it or in its place, is refused
// before anything changes, and left byte for byte as it was; so is a write of an entry that is
// not the run's. A folder without plots/ gets one.
func TestRefreshRefusesWhatIsNotMemsims(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		link  string // a link to the folder's parent at this path in the folder
		write map[string]string
		want  string // the error, with DIR for the folder
	}{
		{"a user's file in plots", map[string]string{"plots/notes.txt": "mine"}, "", newRun,
			"run folder DIR: DIR/plots holds notes.txt, which memsim did not write there: move what is yours out of DIR/plots, then try again"},
		{"another run in plots", map[string]string{"plots/r2/results.json": "theirs", "plots/r2/plots/a.png": "theirs"}, "", newRun,
			"run folder DIR: DIR/plots holds r2, which memsim did not write there: move what is yours out of DIR/plots, then try again"},
		{"a link in plots", nil, "plots/b.png", newRun,
			"run folder DIR: DIR/plots holds b.png, which memsim did not write there: move what is yours out of DIR/plots, then try again"},
		{"a link for plots", nil, "plots", newRun,
			"run folder DIR: DIR/plots is a symbolic link, which memsim did not write there: move it away, then try again"},
		{"a link for report.md", nil, "report.md", newRun,
			"run folder DIR: DIR/report.md is a symbolic link, which memsim did not write there: move it away, then try again"},
		{"a folder for results.json", map[string]string{"results.json/mine": "mine"}, "", newRun,
			"run folder DIR: DIR/results.json is a folder, which memsim did not write there: move it away, then try again"},
		{"a file for plots", map[string]string{"plots": "mine"}, "", newRun,
			"run folder DIR: DIR/plots is a file, which memsim did not write there: move it away, then try again"},
		{"a write of another entry", nil, "", map[string]string{"notes.txt": "new"}, "refresh DIR: notes.txt is not one of the run's entries"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "run")
			writeTree(t, dir, oldRun)
			for _, n := range []string{"plots", "results.json/mine"} {
				if _, ok := tt.files[n]; ok {
					os.RemoveAll(filepath.Join(dir, filepath.Dir(n)))
					os.RemoveAll(filepath.Join(dir, n))
				}
			}
			writeTree(t, dir, tt.files)
			if tt.link != "" {
				os.RemoveAll(filepath.Join(dir, tt.link))
				if err := os.Symlink(parent, filepath.Join(dir, tt.link)); err != nil {
					t.Skip("no symbolic links here:", err)
				}
			}
			before := readTree(t, parent)
			f := lock(t, dir)
			err := f.Refresh(func(s string) error { writeTree(t, s, tt.write); return nil })
			if want := strings.ReplaceAll(tt.want, "DIR", dir); err == nil || err.Error() != want {
				t.Errorf("%v, want %q", err, want)
			}
			got := readTree(t, parent)
			delete(got, ".run.lock")
			if !maps.Equal(got, before) {
				t.Errorf("the refused Refresh changed\n%v\nto\n%v", before, got)
			}
		})
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	old := maps.Clone(oldRun)
	for k := range old {
		if strings.HasPrefix(k, "plots/") {
			delete(old, k)
		}
	}
	writeTree(t, dir, old)
	f := lock(t, dir)
	if err := f.Refresh(func(s string) error { writeTree(t, s, newRun); return nil }); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir); !maps.Equal(got, newRun) {
		t.Errorf("refreshed without plots/, the folder holds %v", got)
	}
}

// With any one operation failing, or the process dying at any one, Refresh leaves each file of
// the run old or new, each figure in plots/ old or new (or, for a figure only the old or only the
// new run has, missing), and the rest as it was; the next process finds nothing left, and
// refreshing again completes the folder, its figures all taken for memsim's.
func TestRefreshUnderFaults(t *testing.T) {
	mine := map[string]string{"notes.txt": "mine", "shard-1-of-2/": "", "shard-1-of-2/shard.json": "s"}
	setup := func(t *testing.T) (parent, dir string) {
		parent = t.TempDir()
		dir = filepath.Join(parent, "run")
		writeTree(t, dir, oldRun)
		writeTree(t, dir, mine)
		return parent, dir
	}
	refresh := func(fsys rundir.FS) func(f *rundir.Folder) error {
		return func(f *rundir.Folder) error {
			return f.Refresh(func(s string) error { return writeVia(fsys, s, newRun) })
		}
	}
	var total int
	{
		_, dir := setup(t)
		fsys := faultFS{fail: failAt(0, false, &total)}
		if err := process(dir, fsys, refresh(fsys)); err != nil {
			t.Fatal(err)
		}
	}
	// check checks the folder's content got after a fault: wantNew when Refresh reported no
	// error, clean once the next process took the lock.
	check := func(t *testing.T, what string, got map[string]string, wantNew, clean bool) {
		t.Helper()
		for _, name := range []string{"config.yaml", "results.json", "report.md", "plots/", "plots/a.png"} {
			if got[name] != oldRun[name] && got[name] != newRun[name] || wantNew && got[name] != newRun[name] {
				t.Errorf("%s: %s holds %q", what, name, got[name])
			}
		}
		for name, only := range map[string]map[string]string{"plots/b.png": newRun, "plots/c.png": oldRun} {
			if v, ok := got[name]; ok && v != only[name] || wantNew && v != newRun[name] {
				t.Errorf("%s: %s holds %q", what, name, v)
			}
		}
		for k, v := range mine {
			if got[k] != v {
				t.Errorf("%s: %s of the user's is %q", what, k, got[k])
			}
		}
		for k := range got {
			_, inOld := oldRun[k]
			_, inNew := newRun[k]
			_, inMine := mine[k]
			if clean && !inOld && !inNew && !inMine {
				t.Errorf("%s: %s left in the folder", what, k)
			}
		}
	}
	for k := 1; k <= total; k++ {
		for _, crash := range []bool{false, true} {
			what := "fault at " + strconv.Itoa(k)
			if crash {
				what += ", crash"
			}
			parent, dir := setup(t)
			fsys := faultFS{fail: failAt(k, crash, nil)}
			err := process(dir, fsys, refresh(fsys))
			check(t, what, readTree(t, dir), err == nil, false)
			next := open(t, dir, nil)
			l, err := next.Lock()
			if err != nil {
				t.Fatalf("%s: the next lock: %v", what, err)
			}
			check(t, what+", after the next lock", readTree(t, dir), false, true)
			if err := next.Refresh(func(s string) error { writeTree(t, s, newRun); return nil }); err != nil {
				t.Fatalf("%s: refreshing again: %v", what, err)
			}
			l.Release()
			want := maps.Clone(newRun)
			maps.Copy(want, mine)
			if got := readTree(t, dir); !maps.Equal(got, want) {
				t.Errorf("%s: refreshed again, the folder holds %v", what, got)
			}
			if got := names(t, parent); !slices.Equal(got, []string{"run"}) {
				t.Errorf("%s: beside the folder: %v", what, got)
			}
		}
	}
}

// Claim starts a run in a folder that holds only its configuration, and refuses a folder that is
// not empty unless forced.
func TestClaim(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	writeTree(t, dir, map[string]string{"results.json": "old", "notes.txt": "mine"})
	f := lock(t, dir)
	var holds *rundir.HoldsRunError
	if err := f.Claim(false, []byte("cfg")); !errors.As(err, &holds) {
		t.Errorf("unforced: %v", err)
	}
	if err := f.Claim(true, []byte("cfg")); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir); !maps.Equal(got, map[string]string{"config.yaml": "cfg", "notes.txt": "mine"}) {
		t.Errorf("the claimed folder holds %v", got)
	}
	info, err := os.Stat(filepath.Join(dir, "config.yaml"))
	if err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("config.yaml: %v, %v", info, err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("the folder: %v, %v", info, err)
	}
}

// A Folder writes only while it holds the lock: without it, every write is refused and nothing
// is created.
func TestWritesNeedTheLock(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	writeTree(t, dir, oldRun)
	before := readTree(t, parent)
	f := open(t, dir, nil)
	write := func(s string) error { writeTree(t, s, newRun); return nil }
	for name, err := range map[string]error{
		"Replace":    f.Replace(true, write),
		"Refresh":    f.Refresh(write),
		"Claim":      f.Claim(true, []byte("c")),
		"CleanStale": f.CleanStale(),
	} {
		if !errors.Is(err, rundir.ErrNotLocked) || err.Error() != "run folder "+dir+": its lock is not held (Folder.Lock)" {
			t.Errorf("%s: %v", name, err)
		}
	}
	l, err := f.Lock()
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	if err := f.Replace(true, write); !errors.Is(err, rundir.ErrNotLocked) {
		t.Errorf("Replace after the lock is released: %v", err)
	}
	if got := readTree(t, parent); !maps.Equal(got, before) {
		t.Errorf("refused writes changed\n%v\nto\n%v", before, got)
	}
}

// What a killed process left, in and beside the folder, is removed by the next process to take
// the lock, which finds the killed process's token in the lock file; a folder moved away to be
// replaced is put back when the folder is missing. Names that look the same without the token
// (another run's folder, a user's files, leftovers of another memsim) are left byte for byte.
func TestLockCleansLeftovers(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	lookalikes := map[string]string{
		"run/.checkpoint.json.tmp-123": "{", "run/.old-plots/a.png": "a", "run/.old-keep/notes.txt": "mine", "run/.notes.tmp-1": "mine",
		".run.staging-5/results.json": "{", ".run.old-7/results.json": "{", ".run.staging-mine/d.txt": "mine", ".run.old-notes.txt": "mine",
		".run.staging-1/config.yaml": "a run named .run.staging-1", ".run.old-2/results.json": "a run named .run.old-2",
		".run.staging-fedcba9876543210-3/x": "another token", "run/.results.json.tmp-fedcba9876543210-3": "another token",
	}
	writeTree(t, parent, lookalikes)
	killed(t, dir, map[string]string{
		"run/config.yaml": "c", "run/.checkpoint.json.tmp-TOKEN-123": "{", "run/.results.json.tmp-TOKEN-9": "{",
		".run.staging-TOKEN-5/results.json": "{", ".run.old-TOKEN-7/results.json": "{",
	})
	lock(t, dir)
	want := withFolders(lookalikes)
	want["run/config.yaml"] = "c"
	got := readTree(t, parent)
	delete(got, ".run.lock")
	if !maps.Equal(got, want) {
		t.Errorf("after the lock:\n got %v\nwant %v", got, want)
	}
	// A symbolic link named as the killed process's staging folder is not one: it is left, and
	// what it names too.
	parent = t.TempDir()
	dir = filepath.Join(parent, "run")
	writeTree(t, parent, map[string]string{"victim/precious": "mine", "run/config.yaml": "c"})
	killed(t, dir, nil)
	link := filepath.Join(parent, ".run.staging-"+killedToken+"-5")
	if err := os.Symlink(filepath.Join(parent, "victim"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	before := readTree(t, parent)
	delete(before, ".run.lock")
	lock(t, dir)
	got = readTree(t, parent)
	delete(got, ".run.lock")
	if !maps.Equal(got, before) {
		t.Errorf("a link named as a staging folder: %v, was %v", got, before)
	}
	// The folder itself missing: the moved-away folder is put back; a look-alike is not.
	parent = t.TempDir()
	dir = filepath.Join(parent, "run")
	writeTree(t, parent, map[string]string{".run.old-1/results.json": "a user's", ".run.old-notes.txt": "mine"})
	killed(t, dir, map[string]string{".run.old-TOKEN-7/results.json": "old", ".run.staging-TOKEN-8/results.json": "new"})
	lock(t, dir)
	if got := readTree(t, dir); !maps.Equal(got, map[string]string{"results.json": "old"}) {
		t.Errorf("the restored folder holds %v", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{".run.lock", ".run.old-1", ".run.old-notes.txt", "run"}) {
		t.Errorf("beside the restored folder: %v", got)
	}
	// Without a record of the killed process, nothing is memsim's: a look-alike is never put in
	// the folder's place.
	parent = t.TempDir()
	dir = filepath.Join(parent, "run")
	writeTree(t, parent, map[string]string{".run.old-123/notes.txt": "mine", ".run.staging-123/d.txt": "mine"})
	before = readTree(t, parent)
	lock(t, dir)
	got = readTree(t, parent)
	delete(got, ".run.lock")
	if !maps.Equal(got, before) {
		t.Errorf("look-alikes without a record: %v, was %v", got, before)
	}
}

// Runs named like what memsim keeps beside another run (".k.staging-1", ".k.old-2", in the same
// output folder) are runs like any other: a run of k neither removes nor moves them, byte for
// byte.
func TestRunsNamedLikeStagingFoldersAreKept(t *testing.T) {
	out := t.TempDir()
	write := func(f *rundir.Folder, name string) error {
		return f.Replace(false, func(s string) error { writeTree(t, s, map[string]string{"results.json": name}); return nil })
	}
	for _, name := range []string{".k.staging-1", ".k.old-2", ".k.staging-0123456789abcdef-3"} {
		if err := process(filepath.Join(out, name), nil, func(f *rundir.Folder) error { return write(f, name) }); err != nil {
			t.Fatal(err)
		}
	}
	before := readTree(t, out)
	for range 2 { // a run of k, and another once k exists
		if err := process(filepath.Join(out, "k"), nil, func(f *rundir.Folder) error {
			return f.Replace(true, func(s string) error { writeTree(t, s, newRun); return nil })
		}); err != nil {
			t.Fatal(err)
		}
	}
	got := readTree(t, out)
	for k := range got {
		if strings.HasPrefix(k, "k/") {
			delete(got, k)
		}
	}
	if !maps.Equal(got, before) {
		t.Errorf("beside k:\n got %v\nwant %v", got, before)
	}
}

// A folder whose name holds the characters of a file name pattern ("o?", "o[1]", "o*") is
// matched literally: the lock, staging and old folders of neighbours that such a pattern would
// match are never taken for its own, and are left byte for byte as they were.
func TestNamesAreNotPatterns(t *testing.T) {
	neighbours := map[string]string{
		"oa/config.yaml": "a's", ".oa.staging-TOKEN-5/results.json": "a's staging", ".oa.old-TOKEN-7/results.json": "a's old",
		"o1/config.yaml": "1's", ".o1.staging-TOKEN-3/results.json": "1's staging", ".o1.old-TOKEN-4/results.json": "1's old",
		"o/config.yaml": "o's", ".o.staging-TOKEN-2/x": "o's staging", ".oa.lock": "token " + killedToken + "\nmemsim process 1\n",
		".o?x.staging-TOKEN-6/x": "o?x's staging", ".o?.staging-x/x": "not memsim's",
	}
	for k, v := range neighbours {
		delete(neighbours, k)
		neighbours[strings.ReplaceAll(k, "TOKEN", killedToken)] = v
	}
	for _, name := range []string{"o?", "o[1]", "o*", "o[a-z]"} {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			writeTree(t, parent, neighbours)
			dir := filepath.Join(parent, name)
			killed(t, dir, map[string]string{"." + name + ".staging-TOKEN-9/results.json": "{", "." + name + ".old-TOKEN-8/results.json": "{"})
			f := open(t, dir, nil)
			l, err := f.Lock() // the folder is missing: its own old folder is put back
			if err != nil {
				t.Fatal(err)
			}
			if got := readTree(t, dir); !maps.Equal(got, map[string]string{"results.json": "{"}) {
				t.Errorf("the folder holds %v", got)
			}
			if err := f.Replace(true, func(s string) error { writeTree(t, s, newRun); return nil }); err != nil {
				t.Fatal(err)
			}
			l.Release()
			got := readTree(t, parent)
			for k := range got {
				if strings.HasPrefix(k, name+"/") {
					delete(got, k)
				}
			}
			if want := withFolders(neighbours); !maps.Equal(got, want) {
				t.Errorf("beside the folder:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// ShardDir names a shard's folder in its run folder.
func TestShardDir(t *testing.T) {
	got := rundir.ShardDir(filepath.Join("out", "run"), tournament.Shard{Index: 2, Count: 8})
	if want := filepath.Join("out", "run", "shard-2-of-8"); got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
