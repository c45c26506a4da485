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

// foreign returns, sorted, those of names (the folder's entries) that memsim does not write in
// the folder, nor leaves there when stopped half way; a layout's entry of another kind than
// memsim writes (a symbolic link, a folder for a file); and, for the layout's folders (plots/),
// what they hold that memsim cannot show it wrote there, as "plots/NAME" (notOwned).
func (f *Folder) foreign(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		switch {
		case f.layout.leftover(n, f.token()):
		case slices.Contains(f.layout.Files, n), slices.Contains(f.layout.Dirs, n):
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
		default:
			out = append(out, n)
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

// CheckForeign refuses a folder that holds entries memsim does not write there, or files in the
// layout's folders (plots/) that memsim cannot show it wrote (ForeignEntriesError): what an
// unforced Replace refuses.
func (f *Folder) CheckForeign() error {
	names, err := f.entries()
	if err != nil {
		return err
	}
	foreign, err := f.foreign(names)
	if err == nil && len(foreign) > 0 {
		err = &ForeignEntriesError{Name: f.layout.Name, Dir: f.path, Entries: foreign}
	}
	return err
}

// Claim starts new work in the folder, whose lock the caller holds: unless force, a folder that
// is not empty is refused (Check); then the folder is replaced by one holding only config, as
// config.yaml, so that no file of earlier work can be taken for the new one's, even if the new
// work is interrupted.
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

// Replace gives the folder a whole new content: write fills a fresh staging folder beside it, and
// the staging folder then takes the folder's place (the old folder, if any, is moved away and
// removed). The folder thus holds its old content or all the new one, never a mix; when write
// fails, the staging folder is removed and the folder is left as it was. Unless force, a folder
// that holds foreign entries, or files in the layout's folders (plots/) that memsim cannot show it
// wrote, is refused (ForeignEntriesError) before anything is written: memsim never deletes unasked
// what it did not write. A file in the folder's place is refused, even if force. An error in
// removing the old folder comes once the folder holds the new content; the next Lock removes what
// is left of the old one. The caller holds the folder's lock.
func (f *Folder) Replace(force bool, write func(staging string) error) error {
	l := f.held
	if l == nil {
		return f.errLocked()
	}
	var err error
	if force {
		_, err = f.entries() // a file in the folder's place is refused, even if force
	} else {
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
	l.settle() // the new folder's record names all its folders hold
	if old != "" {
		if err := f.fs.RemoveAll(old); err != nil {
			return fmt.Errorf("remove the old %s (now %s): %w", f.path, old, err)
		}
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
