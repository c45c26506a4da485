package rundir

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Lock is a folder's advisory lock, held by one process at a time: the file .DIR.lock beside the
// folder DIR, holding the process's PID. The operating system releases it when the process ends,
// however it ends; a lock file left behind by a killed process is taken over.
type Lock struct {
	fs   FS
	f    File
	path string
}

// LockPath is the path of the folder's lock file, .DIR.lock beside it.
func (f *Folder) LockPath() string { return f.beside(lockSuffix) }

// Lock takes the folder's lock, creating the folder's parent if needed, or says which process
// holds it (LockedError). A symbolic link in the lock file's place is refused (LockLinkError),
// never followed. Once it holds the lock, it removes what a process stopped half way left
// (CleanStale); should that fail, it lets the lock go and returns the error.
func (f *Folder) Lock() (*Lock, error) {
	l, err := f.lock()
	if err != nil {
		return nil, err
	}
	if err := f.CleanStale(); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// lock takes the folder's lock.
func (f *Folder) lock() (*Lock, error) {
	path := f.LockPath()
	if err := f.fs.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s %s: %w", f.layout.noun(), f.path, err)
	}
	isLink := func() bool {
		info, err := f.fs.Lstat(path)
		return err == nil && info.Mode()&fs.ModeSymlink != 0
	}
	for attempt := 0; ; attempt++ {
		if isLink() { // where the system cannot refuse it as it opens the file
			return nil, &LockLinkError{Name: f.layout.Name, Dir: f.path, Lock: path}
		}
		lf, err := f.fs.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
		if err != nil {
			if isLink() {
				return nil, &LockLinkError{Name: f.layout.Name, Dir: f.path, Lock: path}
			}
			return nil, fmt.Errorf("lock %s: %w", f.path, err)
		}
		if info, err := lf.Stat(); err != nil || !info.Mode().IsRegular() {
			lf.Close()
			return nil, fmt.Errorf("lock %s: %s is not a regular file", f.path, path)
		}
		if err := tryLock(lf); err != nil {
			holder, _ := io.ReadAll(io.LimitReader(lf, 1<<10))
			lf.Close()
			who := strings.TrimSpace(string(holder))
			if who == "" {
				who = "another process"
			}
			return nil, &LockedError{Name: f.layout.Name, Dir: f.path, Lock: path, Holder: who}
		}
		// The holder removes the file as it lets go (Release): a lock taken on a file no longer
		// at path locks nothing, so take the one at path again.
		held, errHeld := lf.Stat()
		now, errNow := f.fs.Lstat(path)
		if errHeld == nil && errNow == nil && os.SameFile(held, now) {
			if err := lf.Truncate(0); err == nil {
				fmt.Fprintf(lf, "memsim process %d", os.Getpid())
			}
			return &Lock{fs: f.fs, f: lf, path: path}, nil
		}
		unlock(lf)
		lf.Close()
		if attempt == 10 {
			return nil, fmt.Errorf("lock %s: the lock file %s keeps changing", f.path, path)
		}
	}
}

// Release gives the lock up and removes its file. A nil Lock holds nothing.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	l.fs.Remove(l.path)
	unlock(l.f)
	l.f.Close()
}
