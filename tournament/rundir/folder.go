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
// write, and CleanStale, need the folder's lock (Lock).
type Folder struct {
	path   string
	layout Layout
	fs     FS
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
// .DIR.staging-N and .DIR.old-N.
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
// the folder with suffix: "." + the folder's name + suffix + one or more digits, compared
// literally.
func (f *Folder) besideName(name, suffix string) bool {
	digits, ok := strings.CutPrefix(name, "."+filepath.Base(f.path)+suffix)
	return ok && allDigits(digits)
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

// foreign returns those of names that memsim does not write in the folder, nor leaves there when
// stopped half way.
func (f *Folder) foreign(names []string) []string {
	var out []string
	for _, n := range names {
		if !f.layout.owns(n) && !f.layout.leftover(n) {
			out = append(out, n)
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
	names = slices.DeleteFunc(names, f.layout.leftover)
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

// CheckForeign refuses a folder that holds entries memsim does not write there
// (ForeignEntriesError): what an unforced Replace refuses.
func (f *Folder) CheckForeign() error {
	names, err := f.entries()
	if err != nil {
		return err
	}
	if foreign := f.foreign(names); len(foreign) > 0 {
		return &ForeignEntriesError{Name: f.layout.Name, Dir: f.path, Entries: foreign}
	}
	return nil
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
		return writeFileAtomic(f.fs, filepath.Join(staging, report.ConfigFile), config)
	})
}

// CleanStale removes what a process stopped half way through writing the folder left: the
// leftovers of its layout in the folder (temporary files of atomic writes, a folder being
// replaced by Refresh), and the staging folders beside it; a folder moved away to be replaced is
// put back if the folder itself is missing, and removed otherwise. Lock calls it; the caller
// holds the lock.
func (f *Folder) CleanStale() error {
	names, err := f.entries()
	if err != nil {
		return err
	}
	for _, n := range names {
		if f.layout.leftover(n) {
			if err := f.fs.RemoveAll(filepath.Join(f.path, n)); err != nil {
				return fmt.Errorf("remove %s: %w", filepath.Join(f.path, n), err)
			}
		}
	}
	parent := filepath.Dir(f.path)
	beside, err := f.fs.ReadDir(parent)
	if err != nil {
		return nil // a parent that cannot be listed holds nothing memsim wrote there
	}
	var old []string
	for _, e := range beside {
		switch p := filepath.Join(parent, e.Name()); {
		case f.besideName(e.Name(), stagingSuffix):
			if err := f.fs.RemoveAll(p); err != nil {
				return fmt.Errorf("remove %s: %w", p, err)
			}
		case f.besideName(e.Name(), oldSuffix):
			old = append(old, p)
		}
	}
	for _, o := range old {
		if _, err := f.fs.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
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

// newStaging creates a fresh staging folder beside the folder (and the folder's parent if
// needed), readable as the folder is once it takes its place.
func (f *Folder) newStaging() (string, error) {
	parent := filepath.Dir(f.path)
	if err := f.fs.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", parent, err)
	}
	staging, err := f.fs.MkdirTemp(parent, filepath.Base(f.beside(stagingSuffix+"*")))
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
// that holds foreign entries is refused (ForeignEntriesError) before anything is written: memsim
// never deletes unasked what it did not write. A file in the folder's place is refused, even if
// force. An error in removing the old folder comes once the folder holds the new content; the
// next Lock removes what is left of the old one. The caller holds the folder's lock.
func (f *Folder) Replace(force bool, write func(staging string) error) error {
	names, err := f.entries()
	if err != nil {
		return err
	}
	if foreign := f.foreign(names); len(foreign) > 0 && !force {
		return &ForeignEntriesError{Name: f.layout.Name, Dir: f.path, Entries: foreign}
	}
	staging, err := f.newStaging()
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
	if old != "" {
		if err := f.fs.RemoveAll(old); err != nil {
			return fmt.Errorf("remove the old %s (now %s): %w", f.path, old, err)
		}
	}
	return nil
}

// Refresh writes new files into the existing folder and leaves everything else there (shard
// folders, a merged run, anyone's files) as it is: write fills a fresh staging folder beside the
// folder, then each of its entries takes the place of the folder's entry of the same name, a
// file by one rename, a folder (plots/) by moving the old one away (to .old-NAME) first. Should
// the process stop half way, the folder holds each file old or new, and refreshing again
// completes it. write should write only the layout's entries. The caller holds the folder's lock.
func (f *Folder) Refresh(write func(staging string) error) error {
	staging, err := f.newStaging()
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
	for _, e := range list {
		from, to := filepath.Join(staging, e.Name()), filepath.Join(f.path, e.Name())
		if e.IsDir() {
			old := filepath.Join(f.path, oldPrefix+e.Name())
			if err := f.fs.RemoveAll(old); err != nil {
				return fmt.Errorf("remove %s: %w", old, err)
			}
			if err := f.fs.Rename(to, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("move %s away: %w", to, err)
			}
			if err := f.fs.Rename(from, to); err != nil {
				return fmt.Errorf("put %s in place: %w", to, err)
			}
			if err := f.fs.RemoveAll(old); err != nil {
				return fmt.Errorf("remove %s: %w", old, err)
			}
			continue
		}
		if err := f.fs.Rename(from, to); err != nil {
			return fmt.Errorf("put %s in place: %w", to, err)
		}
	}
	return nil
}

// ShardDir is the folder of shard s of the run folder dir: dir/shard-i-of-N.
func ShardDir(dir string, s tournament.Shard) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d", s.Index, s.Count))
}
