package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"memsim/analysis/report"
	"memsim/tournament"
)

// Folder is a run folder (or a folder of another Layout) as memsim keeps it. Its methods that
// write, and CleanStale, need the folder's lock, taken by the same Folder (Lock); without it they
// are refused with ErrNotLocked. A Folder is not for concurrent use.
type Folder struct {
	path   string
	layout Layout
	fs     FS
	held   *Lock // the folder's lock, while this Folder holds it
}

// Options opens folders of another layout than a run's, or on another FS.
type Options struct {
	// Layout is what memsim writes in the folder; the zero Layout is RunLayout's.
	Layout Layout
	// FS performs every operation on the folder; nil is OSFS.
	FS FS
}

// Open names the run folder path as memsim keeps it (Options.Open), without touching it.
func Open(path string) (*Folder, error) { return Options{}.Open(path) }

// Open names the folder path as memsim keeps it, without creating or changing anything: path
// cleaned ("out/run/" is "out/run"), made absolute where its last element would not name it
// ("." or ".."), and, for a symbolic link, the folder it names, so that the lock file and the
// staging folders are beside the folder, not in it, and the folder replaced is the one the link
// names. The root of the file system cannot be one (RootError).
func (o Options) Open(path string) (*Folder, error) {
	f := &Folder{layout: o.Layout, fs: o.FS}
	if f.layout.Name == "" {
		f.layout = RunLayout()
	}
	if f.fs == nil {
		f.fs = OSFS{}
	}
	c := filepath.Clean(path)
	if b := filepath.Base(c); b == "." || b == ".." {
		abs, err := filepath.Abs(c)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", f.layout.noun(), path, err)
		}
		c = abs
	}
	if filepath.Dir(c) == c {
		return nil, &RootError{Name: f.layout.Name, Dir: path}
	}
	if info, err := f.fs.Lstat(c); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		// A link to the folder: write the folder it names, not a new one in the link's place.
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", f.layout.noun(), path, err)
		}
		c = real
	}
	f.path = c
	return f, nil
}

// Path is the folder's path, as Open names it.
func (f *Folder) Path() string { return f.path }

// What memsim keeps beside a folder DIR, in its parent: .DIR.lock, and while it writes DIR,
// .DIR.staging-TOKEN-N and .DIR.old-TOKEN-N.
const (
	lockSuffix    = ".lock"
	stagingSuffix = ".staging-"
	oldSuffix     = ".old-"
)

// beside is the path of what memsim keeps beside the folder: "." + its name + suffix, in its
// parent.
func (f *Folder) beside(suffix string) string {
	return filepath.Join(filepath.Dir(f.path), "."+filepath.Base(f.path)+suffix)
}

// besideName reports whether name, an entry of the folder's parent, is what memsim keeps beside
// the folder with suffix under token: "." + the folder's name + suffix + token + "-" + one or
// more digits, compared literally. No name is without a token.
func (f *Folder) besideName(name, suffix, token string) bool {
	digits, ok := strings.CutPrefix(name, "."+filepath.Base(f.path)+suffix+token+"-")
	return token != "" && ok && allDigits(digits)
}

// entries lists the names in the folder, sorted: none when it is missing. A file in its place is
// refused (NotFolderError).
func (f *Folder) entries() ([]string, error) {
	info, err := f.fs.Stat(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", f.layout.noun(), f.path, err)
	case !info.IsDir():
		return nil, &NotFolderError{Name: f.layout.Name, Dir: f.path}
	}
	list, err := f.fs.ReadDir(f.path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", f.layout.noun(), f.path, err)
	}
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.Name()
	}
	return names, nil
}

// foreign returns, sorted, those of names (the folder's entries) that are not the run's own
// (others), and what is not memsim's in the run's own entries (disowned): everything of the
// folder memsim cannot show it wrote.
func (f *Folder) foreign(names []string) ([]string, error) {
	out, err := f.disowned(names)
	if err != nil {
		return nil, err
	}
	out = append(out, f.others(names)...)
	slices.Sort(out)
	return out, nil
}

// others returns, sorted, those of names (the folder's entries) that memsim does not write in
// the folder, nor leaves there when stopped half way: what the folder holds besides the run
// (shard folders, a merged run, anyone's files). Nothing memsim does removes them, but
// RemoveRuns.
func (f *Folder) others(names []string) []string {
	var out []string
	for _, n := range names {
		if !f.layout.leftover(n, f.token()) && !slices.Contains(f.layout.Files, n) && !slices.Contains(f.layout.Dirs, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// disowned returns, sorted, what is not memsim's among those of names (the folder's entries)
// that are the layout's: an entry of another kind than memsim writes (a symbolic link, a folder
// for a file) as its name; and, for the layout's folders (plots/), what they hold that memsim
// cannot show it wrote there, as "plots/NAME" (notOwned). Replacing the run's files deletes them.
func (f *Folder) disowned(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		if !slices.Contains(f.layout.Files, n) && !slices.Contains(f.layout.Dirs, n) {
			continue
		}
		e, err := f.notOwned(n)
		switch {
		case err != nil:
			return nil, err
		case e != nil && len(e.Entries) == 0:
			out = append(out, n)
		case e != nil:
			for _, x := range e.Entries {
				out = append(out, n+"/"+x)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// notOwned says what is not memsim's in the layout's entry name of the folder, or nil when all of
// it is (or it is missing): the entry itself when it is not of the kind memsim writes there (a
// regular file for one of Files, a folder for one of Dirs), or, in a folder, the entries that are
// not regular files that the layout's Record names or the lock file records (owned). An entry
// that cannot be looked at or listed is an error.
func (f *Folder) notOwned(name string) (*NotOwnedError, error) {
	p := filepath.Join(f.path, name)
	info, err := f.fs.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", f.layout.noun(), f.path, err)
	}
	e := &NotOwnedError{Name: f.layout.Name, Dir: f.path, Sub: name}
	dir := slices.Contains(f.layout.Dirs, name)
	switch {
	case dir && !info.IsDir(), !dir && !info.Mode().IsRegular():
		e.Kind = kind(info.Mode())
		return e, nil
	case !dir:
		return nil, nil
	}
	list, err := f.fs.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", f.layout.noun(), f.path, err)
	}
	var owned map[string]bool
	for _, x := range list {
		if owned == nil {
			owned = f.owned(name)
		}
		if !x.Type().IsRegular() || !owned[x.Name()] {
			e.Entries = append(e.Entries, x.Name())
		}
	}
	if len(e.Entries) == 0 {
		return nil, nil
	}
	return e, nil
}

// owned returns the names of the files of the layout's folder sub that memsim wrote: those the
// layout's Record names and those the lock file records. A Record that is not a regular file, or
// cannot be read, names none.
func (f *Folder) owned(sub string) map[string]bool {
	out := map[string]bool{}
	if f.held != nil {
		for _, n := range f.held.wrote[sub] {
			out[n] = true
		}
	}
	if f.layout.Record == "" {
		return out
	}
	record := filepath.Join(f.path, f.layout.Record)
	if info, err := f.fs.Lstat(record); err != nil || !info.Mode().IsRegular() {
		return out // not memsim's: a symbolic link names nothing
	}
	if data, err := readFile(f.fs, record, MaxFileSize); err == nil {
		for _, n := range recordedIn(data, sub) {
			out[n] = true
		}
	}
	return out
}

// Check makes sure new work may take the folder: missing or empty, or if force anything but a
// file (NotFolderError). Unless force, a folder that holds one of the layout's Marks is refused
// with HoldsRunError, and one that holds anything else (shard folders, a merged run, any file)
// with NotEmptyError. What CleanStale removes does not count.
func (f *Folder) Check(force bool) error {
	names, err := f.entries()
	names = slices.DeleteFunc(names, func(n string) bool { return f.layout.leftover(n, f.token()) })
	if err != nil || force || len(names) == 0 {
		return err
	}
	for _, m := range f.layout.Marks {
		if slices.Contains(names, m) {
			return &HoldsRunError{Name: f.layout.Name, Dir: f.path, File: m}
		}
	}
	return &NotEmptyError{Name: f.layout.Name, Dir: f.path, Entries: names}
}

// CheckForeign refuses a folder whose own entries (the layout's names) hold what memsim does not
// write there: one of another kind (a symbolic link, a folder named results.json), or files in the
// layout's folders (plots/) that memsim cannot show it wrote (ForeignEntriesError). It is what an
// unforced Replace refuses: replacing the run's files would delete them. What the folder holds
// besides the run's own entries (shard folders, a merged run, anyone's files) is never refused:
// Replace leaves it where it is.
func (f *Folder) CheckForeign() error {
	names, err := f.entries()
	if err != nil {
		return err
	}
	foreign, err := f.disowned(names)
	if err == nil && len(foreign) > 0 {
		err = &ForeignEntriesError{Name: f.layout.Name, Dir: f.path, Entries: foreign}
	}
	return err
}

// Claim starts new work in the folder, whose lock the caller holds: unless force, a folder that
// is not empty is refused (Check); then the folder's own files are replaced by config alone, as
// config.yaml (Replace), so that no file of earlier work can be taken for the new one's, even if
// the new work is interrupted. What the folder holds besides its own files (shard folders, a
// merged run, anyone's files) stays, forced or not.
func (f *Folder) Claim(force bool, config []byte) error {
	if err := f.Check(force); err != nil {
		return err
	}
	return f.Replace(force, func(staging string) error {
		return writeFileAtomic(f.fs, filepath.Join(staging, report.ConfigFile), config, f.token())
	})
}

// CleanStale removes what a process that held the folder's lock and was stopped half way left,
// as its token shows (see the package documentation): the temporary files of atomic writes in the
// folder, and the staging folders beside it; a folder moved away to be replaced is put back if the
// folder itself is missing, and removed otherwise. Names that merely look like these, without the
// token or of another kind (a symbolic link), are left as they are. Lock calls it; the caller
// holds the lock.
func (f *Folder) CleanStale() error {
	token := f.token()
	if token == "" {
		return f.errLocked()
	}
	temps, staging, old, err := f.stale(token)
	if err != nil {
		return err
	}
	for _, p := range slices.Concat(temps, staging) {
		if err := f.fs.RemoveAll(p); err != nil {
			return fmt.Errorf("remove %s: %w", p, err)
		}
	}
	for _, o := range old {
		if _, err := f.fs.Lstat(f.path); errors.Is(err, fs.ErrNotExist) {
			if err := f.fs.Rename(o, f.path); err != nil {
				return fmt.Errorf("restore %s from %s: %w", f.path, o, err)
			}
			continue
		}
		if err := f.fs.RemoveAll(o); err != nil {
			return fmt.Errorf("remove %s: %w", o, err)
		}
	}
	return nil
}

// stale lists, as paths, what memsim creates under token and is still there: the temporary files
// in the folder, and the staging and moved-away folders beside it. Only a regular file, or a
// folder, of such a name counts. A file in the folder's place is refused (NotFolderError), with
// what is beside it listed all the same; a parent that cannot be listed holds nothing memsim
// wrote there.
func (f *Folder) stale(token string) (temps, staging, old []string, err error) {
	names, err := f.entries()
	for _, n := range names {
		if !f.layout.leftover(n, token) {
			continue
		}
		p := filepath.Join(f.path, n)
		if info, err := f.fs.Lstat(p); err == nil && info.Mode().IsRegular() {
			temps = append(temps, p)
		}
	}
	parent := filepath.Dir(f.path)
	beside, lerr := f.fs.ReadDir(parent)
	if lerr != nil {
		return temps, nil, nil, err
	}
	for _, e := range beside {
		switch p := filepath.Join(parent, e.Name()); {
		case !e.IsDir():
		case f.besideName(e.Name(), stagingSuffix, token):
			staging = append(staging, p)
		case f.besideName(e.Name(), oldSuffix, token):
			old = append(old, p)
		}
	}
	return temps, staging, old, err
}

// hasLeftovers reports whether what memsim creates under token is still in or beside the folder,
// or may be (a folder that cannot be listed).
func (f *Folder) hasLeftovers(token string) bool {
	if _, err := f.fs.ReadDir(filepath.Dir(f.path)); err != nil {
		return true
	}
	temps, staging, old, err := f.stale(token)
	var nf *NotFolderError
	return err != nil && !errors.As(err, &nf) || len(temps)+len(staging)+len(old) > 0
}

// newStaging creates a fresh staging folder beside the folder (and the folder's parent if
// needed), named with the lock's token and readable as the folder is once it takes its place. It
// is created new, never in place of anything.
func (f *Folder) newStaging(token string) (string, error) {
	parent := filepath.Dir(f.path)
	if err := f.fs.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", parent, err)
	}
	staging, err := f.fs.MkdirTemp(parent, filepath.Base(f.beside(stagingSuffix+token+"-*")))
	if err == nil {
		if err = f.fs.Chmod(staging, 0o755); err != nil {
			f.fs.RemoveAll(staging)
		}
	}
	if err != nil {
		return "", fmt.Errorf("create a staging folder for %s: %w", f.path, err)
	}
	return staging, nil
}

// Replace gives the folder's own entries (the layout's names) a whole new content, written by
// write into a fresh staging folder beside it, and leaves everything else the folder holds
// (shard folders, a merged run, anyone's files) where it is: memsim never deletes what it did not
// write as the folder's own. When write fails, the staging folder is removed and the folder is
// left as it was.
//
// A folder that holds nothing besides its own entries is replaced whole: the staging folder takes
// its place (the old folder is moved away and removed), so that the folder holds its old content
// or all the new one, never a mix. An error in removing the old folder comes once the folder
// holds the new content; the next Lock removes what is left of the old one.
//
// A folder that holds other entries is replaced entry by entry, each by one rename, as Refresh
// does: first the run's marks that the new content lacks are removed (an old results.json, say),
// then the other own entries it lacks, then the new entries take their places, and the checkpoint,
// should the new content lack it, goes last, so that a process stopped half way leaves no old
// results beside a new configuration and loses no finished game.
//
// Unless force, a folder whose own entries hold what memsim did not write there (CheckForeign)
// is refused (ForeignEntriesError) before anything is written; with force, those are replaced
// too. A file in the folder's place is refused, even if force. The caller holds the folder's lock.
func (f *Folder) Replace(force bool, write func(staging string) error) error {
	l := f.held
	if l == nil {
		return f.errLocked()
	}
	names, err := f.entries() // a file in the folder's place is refused, even if force
	if err == nil && !force {
		err = f.CheckForeign()
	}
	if err != nil {
		return err
	}
	staging, err := f.newStaging(l.token)
	if err != nil {
		return err
	}
	if err := write(staging); err != nil {
		f.fs.RemoveAll(staging)
		return err
	}
	if len(f.others(names)) > 0 {
		defer f.fs.RemoveAll(staging)
		return f.replaceOwn(staging)
	}
	return f.replaceWhole(staging)
}

// replaceWhole puts the staging folder, filled, in the folder's place: the folder, if any, is
// moved away and removed.
func (f *Folder) replaceWhole(staging string) error {
	old := ""
	if _, err := f.fs.Stat(f.path); err == nil {
		old = f.beside(oldSuffix + strings.TrimPrefix(filepath.Base(staging), filepath.Base(f.beside(stagingSuffix))))
		if _, err := f.fs.Lstat(old); !errors.Is(err, fs.ErrNotExist) {
			f.fs.RemoveAll(staging)
			return fmt.Errorf("move %s away: %s is in the way", f.path, old)
		}
		if err := f.fs.Rename(f.path, old); err != nil {
			f.fs.RemoveAll(staging)
			return fmt.Errorf("move %s away: %w", f.path, err)
		}
	}
	if err := f.fs.Rename(staging, f.path); err != nil {
		if old != "" {
			f.fs.Rename(old, f.path)
		}
		f.fs.RemoveAll(staging)
		return fmt.Errorf("put %s in place: %w", f.path, err)
	}
	f.held.settle() // the new folder's record names all its folders hold
	if old != "" {
		if err := f.fs.RemoveAll(old); err != nil {
			return fmt.Errorf("remove the old %s (now %s): %w", f.path, old, err)
		}
	}
	return nil
}

// replaceOwn replaces the folder's own entries by those of the staging folder, filled, entry by
// entry, and leaves the folder's other entries as they are (see Replace for the order). What is
// not memsim's in its own entries is removed first: Replace has refused it unless forced.
func (f *Folder) replaceOwn(staging string) error {
	list, err := f.fs.ReadDir(staging)
	if err != nil {
		return fmt.Errorf("read the staging folder of %s: %w", f.path, err)
	}
	fresh := make(map[string]bool, len(list))
	for _, e := range list {
		fresh[e.Name()] = true
	}
	for _, n := range slices.Concat(f.layout.Files, f.layout.Dirs) {
		if err := f.removeDisowned(n); err != nil {
			return err
		}
	}
	// What the new content lacks: the marks first (but the checkpoint), then the folders, whose
	// files the Record names, then the other files.
	var gone []string
	for _, n := range slices.Concat(f.layout.Marks, f.layout.Dirs, f.layout.Files) {
		if !fresh[n] && n != CheckpointFile && !slices.Contains(gone, n) {
			gone = append(gone, n)
		}
	}
	for _, n := range gone {
		if err := f.removeOwn(n); err != nil {
			return err
		}
	}
	if err := f.refreshFrom(staging); err != nil {
		return err
	}
	if slices.Contains(f.layout.Files, CheckpointFile) && !fresh[CheckpointFile] {
		return f.removeOwn(CheckpointFile)
	}
	return nil
}

// removeDisowned removes what is not memsim's in the layout's entry name of the folder
// (notOwned): the entry itself when it is of another kind than memsim writes, or else, in a
// layout's folder, the entries memsim cannot show it wrote.
func (f *Folder) removeDisowned(name string) error {
	e, err := f.notOwned(name)
	if err != nil || e == nil {
		return err
	}
	p := filepath.Join(f.path, name)
	targets := []string{p}
	if len(e.Entries) > 0 {
		targets = targets[:0]
		for _, x := range e.Entries {
			targets = append(targets, filepath.Join(p, x))
		}
	}
	for _, t := range targets {
		if err := f.fs.RemoveAll(t); err != nil {
			return fmt.Errorf("remove %s: %w", t, err)
		}
	}
	return nil
}

// removeOwn removes the layout's entry name of the folder, if there: a file, or a layout's folder
// with the files memsim wrote in it (a folder that still holds anything else stays).
func (f *Folder) removeOwn(name string) error {
	p := filepath.Join(f.path, name)
	if slices.Contains(f.layout.Dirs, name) {
		names, err := f.fileNames(p, true)
		if err != nil {
			return err
		}
		for _, n := range names {
			if err := f.fs.Remove(filepath.Join(p, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", filepath.Join(p, n), err)
			}
		}
	}
	if err := f.fs.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// Refresh writes new files into the existing folder and leaves everything else there (shard
// folders, a merged run, anyone's files) as it is: write fills a fresh staging folder beside the
// folder with entries of the layout, then each file takes the place of the folder's file of the
// same name by one rename. The layout's folders (plots/) are refreshed file by file the same way:
// each new file takes its namesake's place, and the files memsim wrote there before that are not
// among the new ones are removed. Before anything changes, an entry to be replaced that is not of
// the kind memsim writes (a symbolic link, say), and a layout's folder that holds anything memsim
// cannot show it wrote, are refused (NotOwnedError); then the lock file records the files the
// layout's folders will hold until the new Record names them. Should the process stop half way,
// the folder holds each file old or new, and refreshing again completes it. write should write
// only the layout's entries. The caller holds the folder's lock.
func (f *Folder) Refresh(write func(staging string) error) error {
	l := f.held
	if l == nil {
		return f.errLocked()
	}
	staging, err := f.newStaging(l.token)
	if err != nil {
		return err
	}
	defer f.fs.RemoveAll(staging)
	if err := write(staging); err != nil {
		return err
	}
	return f.refreshFrom(staging)
}

// refreshFrom refreshes the folder from the staging folder, filled (see Refresh).
func (f *Folder) refreshFrom(staging string) error {
	l := f.held
	list, err := f.fs.ReadDir(staging)
	if err != nil {
		return fmt.Errorf("read the staging folder of %s: %w", f.path, err)
	}
	// What the layout's folders hold now (all of it memsim's) and what goes there; the files are
	// looked at first, the Record among them.
	before, after := map[string][]string{}, map[string][]string{}
	ordered := slices.Clone(list)
	slices.SortStableFunc(ordered, func(a, b fs.DirEntry) int {
		switch {
		case a.IsDir() == b.IsDir():
			return 0
		case a.IsDir():
			return 1
		}
		return -1
	})
	for _, e := range ordered {
		switch {
		case e.IsDir() && !slices.Contains(f.layout.Dirs, e.Name()), !e.IsDir() && !slices.Contains(f.layout.Files, e.Name()):
			return fmt.Errorf("refresh %s: %s is not one of the %s's entries", f.path, e.Name(), f.layout.Name)
		}
		no, err := f.notOwned(e.Name())
		if err != nil {
			return err
		}
		if no != nil {
			return no
		}
		if !e.IsDir() {
			continue
		}
		sub := e.Name()
		if before[sub], err = f.fileNames(filepath.Join(f.path, sub), true); err != nil {
			return err
		}
		if after[sub], err = f.fileNames(filepath.Join(staging, sub), false); err != nil {
			return err
		}
		if len(before[sub])+len(after[sub]) == 0 {
			continue
		}
		if err := l.record(sub, slices.Concat(before[sub], after[sub])); err != nil {
			return fmt.Errorf("refresh %s: %w", f.path, err)
		}
	}
	for _, e := range list {
		from, to := filepath.Join(staging, e.Name()), filepath.Join(f.path, e.Name())
		if e.IsDir() {
			if err := f.refreshFolder(from, to, before[e.Name()], after[e.Name()]); err != nil {
				return err
			}
			continue
		}
		if err := f.fs.Rename(from, to); err != nil {
			return fmt.Errorf("put %s in place: %w", to, err)
		}
	}
	l.settle()
	return nil
}

// fileNames lists the names of the regular files in the folder dir, sorted: none when it is
// missing and missing is true. Any other entry, or a name memsim would not record, is refused.
func (f *Folder) fileNames(dir string, missing bool) ([]string, error) {
	list, err := f.fs.ReadDir(dir)
	if missing && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("refresh %s: %w", f.path, err)
	}
	names := make([]string, 0, len(list))
	for _, e := range list {
		if !e.Type().IsRegular() || !recordable(e.Name()) {
			return nil, fmt.Errorf("refresh %s: %s is not a file memsim writes", f.path, filepath.Join(dir, e.Name()))
		}
		names = append(names, e.Name())
	}
	return names, nil
}

// refreshFolder refreshes the layout's folder to from the staging folder from: creates it if
// missing, puts in it each of the files after by one rename, and removes those of before, the
// files memsim wrote there, that are not among them.
func (f *Folder) refreshFolder(from, to string, before, after []string) error {
	if _, err := f.fs.Lstat(to); errors.Is(err, fs.ErrNotExist) {
		if err := f.fs.Mkdir(to, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", to, err)
		}
	}
	for _, n := range after {
		if err := f.fs.Rename(filepath.Join(from, n), filepath.Join(to, n)); err != nil {
			return fmt.Errorf("put %s in place: %w", filepath.Join(to, n), err)
		}
	}
	for _, n := range before {
		if !slices.Contains(after, n) {
			if err := f.fs.Remove(filepath.Join(to, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", filepath.Join(to, n), err)
			}
		}
	}
	return nil
}

// ShardDir is the folder of shard s of the run folder dir: dir/shard-i-of-N.
func ShardDir(dir string, s tournament.Shard) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d", s.Index, s.Count))
}

// Runs lists, sorted, the folders in the folder that hold work of the same layout of their own:
// shard folders and merged runs, each a folder (not a symbolic link) that holds one of the
// layout's Work files (results, a checkpoint, a shard's results). Replace and Claim leave them
// where they are; RemoveRuns removes them.
func (f *Folder) Runs() ([]string, error) {
	names, err := f.entries()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range f.others(names) {
		p := filepath.Join(f.path, n)
		if info, err := f.fs.Lstat(p); err != nil || !info.IsDir() {
			continue
		}
		for _, m := range f.layout.Work {
			if info, err := f.fs.Lstat(filepath.Join(p, m)); err == nil && info.Mode().IsRegular() {
				out = append(out, n)
				break
			}
		}
	}
	return out, nil
}

// RemoveRuns removes the folders Runs lists (shard folders, merged runs), each whole, and returns
// their names. It takes each one's lock first and checks that each holds only what memsim writes
// there, and removes none unless all pass: one in use by another process is refused
// (LockedError), and one that holds anything else (a user's file, a folder of its own runs) with
// ForeignEntriesError. The caller holds the folder's lock.
func (f *Folder) RemoveRuns() ([]string, error) {
	if f.held == nil {
		return nil, f.errLocked()
	}
	names, err := f.Runs()
	if err != nil {
		return nil, err
	}
	subs := make([]*Folder, 0, len(names))
	locks := make([]*Lock, 0, len(names))
	defer func() {
		for _, l := range locks {
			l.Release()
		}
	}()
	for _, n := range names {
		sub := &Folder{path: filepath.Join(f.path, n), layout: f.layout, fs: f.fs}
		l, err := sub.Lock()
		if err != nil {
			return nil, err
		}
		locks = append(locks, l)
		entries, err := sub.entries()
		if err != nil {
			return nil, err
		}
		foreign, err := sub.foreign(entries)
		if err != nil {
			return nil, err
		}
		if len(foreign) > 0 {
			return nil, &ForeignEntriesError{Name: f.layout.Name, Dir: sub.path, Entries: foreign}
		}
		subs = append(subs, sub)
	}
	for _, sub := range subs {
		if err := f.fs.RemoveAll(sub.path); err != nil {
			return nil, fmt.Errorf("remove %s: %w", sub.path, err)
		}
	}
	return names, nil
}
