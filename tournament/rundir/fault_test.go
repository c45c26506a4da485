package rundir_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"memsim/tournament/rundir"
)

// errInjected is the error faultFS fails an operation with.
var errInjected = errors.New("injected fault")

// faultFS performs every operation on the operating system's files, but fails those for which
// fail returns true, given the operation's name ("rename", "write", ...) and path. A failed write
// writes half its bytes first, as a disk that fills up does.
type faultFS struct {
	rundir.OSFS
	fail func(op, path string) bool
}

func (f faultFS) check(op, path string) error {
	if f.fail(op, path) {
		return &fs.PathError{Op: op, Path: path, Err: errInjected}
	}
	return nil
}

func (f faultFS) MkdirAll(path string, perm fs.FileMode) error {
	if err := f.check("mkdirall", path); err != nil {
		return err
	}
	return f.OSFS.MkdirAll(path, perm)
}

func (f faultFS) Mkdir(path string, perm fs.FileMode) error {
	if err := f.check("mkdir", path); err != nil {
		return err
	}
	return f.OSFS.Mkdir(path, perm)
}

func (f faultFS) MkdirTemp(dir, pattern string) (string, error) {
	if err := f.check("mkdirtemp", filepath.Join(dir, pattern)); err != nil {
		return "", err
	}
	return f.OSFS.MkdirTemp(dir, pattern)
}

func (f faultFS) CreateTemp(dir, pattern string) (rundir.File, error) {
	if err := f.check("createtemp", filepath.Join(dir, pattern)); err != nil {
		return nil, err
	}
	file, err := f.OSFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return faultFile{file, f}, nil
}

func (f faultFS) OpenFile(name string, flag int, perm fs.FileMode) (rundir.File, error) {
	op := "open"
	if flag&os.O_CREATE != 0 {
		op = "create"
	}
	if err := f.check(op, name); err != nil {
		return nil, err
	}
	file, err := f.OSFS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return faultFile{file, f}, nil
}

func (f faultFS) ReadFile(name string) ([]byte, error) {
	if err := f.check("readfile", name); err != nil {
		return nil, err
	}
	return f.OSFS.ReadFile(name)
}

func (f faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.check("readdir", name); err != nil {
		return nil, err
	}
	return f.OSFS.ReadDir(name)
}

func (f faultFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.check("stat", name); err != nil {
		return nil, err
	}
	return f.OSFS.Stat(name)
}

func (f faultFS) Lstat(name string) (fs.FileInfo, error) {
	if err := f.check("lstat", name); err != nil {
		return nil, err
	}
	return f.OSFS.Lstat(name)
}

func (f faultFS) Chmod(name string, mode fs.FileMode) error {
	if err := f.check("chmod", name); err != nil {
		return err
	}
	return f.OSFS.Chmod(name, mode)
}

func (f faultFS) Rename(oldpath, newpath string) error {
	if err := f.check("rename", oldpath); err != nil {
		return err
	}
	return f.OSFS.Rename(oldpath, newpath)
}

func (f faultFS) Remove(name string) error {
	if err := f.check("remove", name); err != nil {
		return err
	}
	return f.OSFS.Remove(name)
}

func (f faultFS) RemoveAll(path string) error {
	if err := f.check("removeall", path); err != nil {
		return err
	}
	return f.OSFS.RemoveAll(path)
}

// faultFile is an open file of a faultFS.
type faultFile struct {
	rundir.File
	fs faultFS
}

func (f faultFile) Write(p []byte) (int, error) {
	if err := f.fs.check("write", f.Name()); err != nil {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, err
	}
	return f.File.Write(p)
}

func (f faultFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.fs.check("write", f.Name()); err != nil {
		n, _ := f.File.WriteAt(p[:len(p)/2], off)
		return n, err
	}
	return f.File.WriteAt(p, off)
}

func (f faultFile) Sync() error {
	if err := f.fs.check("sync", f.Name()); err != nil {
		return err
	}
	return f.File.Sync()
}

func (f faultFile) Truncate(size int64) error {
	if err := f.fs.check("truncate", f.Name()); err != nil {
		return err
	}
	return f.File.Truncate(size)
}

func (f faultFile) Close() error {
	err := f.fs.check("close", f.Name())
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	return err
}

// changes reports whether op changes the disk (reading and looking do not).
func changes(op string) bool {
	return !slices.Contains([]string{"open", "readfile", "readdir", "stat", "lstat"}, op)
}

// failAt fails the k-th operation that changes the disk (from 1), and with crash every operation
// after it too, as a process that died there does nothing more. count, when not nil, counts the
// operations that change the disk.
func failAt(k int, crash bool, count *int) func(op, path string) bool {
	n := 0
	return func(op, path string) bool {
		if !changes(op) {
			return crash && k > 0 && n >= k
		}
		n++
		if count != nil {
			*count = n
		}
		return n == k || crash && k > 0 && n > k
	}
}

// failOn fails every operation op on a path whose last element begins with prefix.
func failOn(op, prefix string) func(string, string) bool {
	return func(o, path string) bool { return o == op && strings.HasPrefix(filepath.Base(path), prefix) }
}
