package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// folderLock is an advisory lock on a run folder, held by one memsim process at a time: the file
// .<name>.lock beside the folder, holding the process's PID. The operating system releases the
// lock when the process ends, however it ends; a lock file left behind by a killed process is
// taken over.
type folderLock struct {
	f    *os.File
	path string
}

// lockPath is the lock file of folder dir.
func lockPath(dir string) string {
	return beside(dir, ".lock")
}

// runFolder is dir as memsim names a run folder: cleaned ("out/run/" is "out/run"), absolute
// where its last element would not name it ("." or ".."), and the folder a symbolic link names,
// so that the lock file and the staging folders memsim puts beside a run folder are beside it,
// not in it, and the folder replaced is the one the link names. The root cannot be one.
func runFolder(dir string) (string, error) {
	c := filepath.Clean(dir)
	if b := filepath.Base(c); b == "." || b == ".." {
		abs, err := filepath.Abs(c)
		if err != nil {
			return "", fmt.Errorf("run folder %s: %w", dir, err)
		}
		c = abs
	}
	if filepath.Dir(c) == c {
		return "", usagef("run folder %s: the root of the file system cannot be a run folder", dir)
	}
	if info, err := os.Lstat(c); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		// A link to the folder: write the folder it names, not a new one in the link's place.
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			return "", fmt.Errorf("run folder %s: %w", dir, err)
		}
		c = real
	}
	return c, nil
}

// lockFolder takes the lock of dir, creating dir's parent if needed, or says which process holds
// it.
func lockFolder(dir string) (*folderLock, error) {
	path := lockPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create run folder %s: %w", dir, err)
	}
	var f *os.File
	for attempt := 0; ; attempt++ {
		var err error
		if f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644); err != nil {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if err := tryLock(f); err != nil {
			f.Close()
			holder, _ := os.ReadFile(path)
			who := strings.TrimSpace(string(holder))
			if who == "" {
				who = "another process"
			}
			return nil, usagef("run folder %s is in use by %s (lock %s): wait for it to finish, or stop it", dir, who, path)
		}
		// The holder removes the file as it lets go (release): a lock taken on a file no longer
		// at path locks nothing, so take the one at path again.
		held, errHeld := f.Stat()
		now, errNow := os.Stat(path)
		if errHeld == nil && errNow == nil && os.SameFile(held, now) {
			break
		}
		f.Close()
		if attempt == 10 {
			return nil, fmt.Errorf("lock %s: the lock file %s keeps changing", dir, path)
		}
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "memsim process %d", os.Getpid())
	}
	return &folderLock{f: f, path: path}, nil
}

// release gives the lock up and removes its file.
func (l *folderLock) release() {
	if l == nil {
		return
	}
	os.Remove(l.path)
	unlock(l.f)
	l.f.Close()
}
