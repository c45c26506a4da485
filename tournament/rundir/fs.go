package rundir

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// FS is the file system operations package rundir performs, on paths of the operating system's
// file system. OSFS performs them; a test can wrap it to make any of them fail.
type FS interface {
	// MkdirAll creates path and its missing parents, as os.MkdirAll.
	MkdirAll(path string, perm fs.FileMode) error
	// Mkdir creates the folder path, failing if anything is there, as os.Mkdir.
	Mkdir(path string, perm fs.FileMode) error
	// MkdirTemp creates a new folder in dir, as os.MkdirTemp.
	MkdirTemp(dir, pattern string) (string, error)
	// CreateTemp creates a new file in dir, as os.CreateTemp.
	CreateTemp(dir, pattern string) (File, error)
	// OpenFile opens a file, as os.OpenFile.
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	// ReadFile reads a whole file, as os.ReadFile.
	ReadFile(name string) ([]byte, error)
	// ReadDir lists a folder sorted by name, as os.ReadDir.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Stat describes a file, following a symbolic link, as os.Stat.
	Stat(name string) (fs.FileInfo, error)
	// Lstat describes a file without following a symbolic link, as os.Lstat.
	Lstat(name string) (fs.FileInfo, error)
	// Chmod sets a file's permissions, as os.Chmod.
	Chmod(name string, mode fs.FileMode) error
	// Rename renames a file or a folder, replacing a file at newpath, as os.Rename.
	Rename(oldpath, newpath string) error
	// Remove removes a file or an empty folder, as os.Remove.
	Remove(name string) error
	// RemoveAll removes path and all it holds, as os.RemoveAll.
	RemoveAll(path string) error
}

// File is an open file of an FS, with the methods of *os.File that package rundir uses.
type File interface {
	io.ReadWriteCloser
	io.WriterAt
	// Name is the path the file was opened with.
	Name() string
	// Stat describes the open file.
	Stat() (fs.FileInfo, error)
	// Sync commits the file's content to stable storage.
	Sync() error
	// Truncate changes the file's size.
	Truncate(size int64) error
	// Fd is the operating system's handle of the file, for its lock.
	Fd() uintptr
}

// OSFS is the operating system's file system, through package os.
type OSFS struct{}

// MkdirAll calls os.MkdirAll.
func (OSFS) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }

// Mkdir calls os.Mkdir.
func (OSFS) Mkdir(path string, perm fs.FileMode) error { return os.Mkdir(path, perm) }

// MkdirTemp calls os.MkdirTemp.
func (OSFS) MkdirTemp(dir, pattern string) (string, error) { return os.MkdirTemp(dir, pattern) }

// CreateTemp calls os.CreateTemp.
func (OSFS) CreateTemp(dir, pattern string) (File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err // not a non-nil File holding a nil *os.File
	}
	return f, nil
}

// OpenFile calls os.OpenFile.
func (OSFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ReadFile calls os.ReadFile.
func (OSFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// ReadDir calls os.ReadDir.
func (OSFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// Stat calls os.Stat.
func (OSFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// Lstat calls os.Lstat.
func (OSFS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }

// Chmod calls os.Chmod.
func (OSFS) Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }

// Rename calls os.Rename.
func (OSFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Remove calls os.Remove.
func (OSFS) Remove(name string) error { return os.Remove(name) }

// RemoveAll calls os.RemoveAll.
func (OSFS) RemoveAll(path string) error { return os.RemoveAll(path) }

// writeFileAtomic writes data to path so that path holds either its old content or all of data,
// never a part, as report.WriteFileAtomic does: a temporary file ".NAME.tmp-TOKEN-N" in the same
// folder (created new, never in place of anything), synced, closed, given the permissions 0644
// and renamed over path, unless path is not a regular file (a symbolic link). On any error it removes the temporary file and returns an error of the
// form "write PATH: cause".
func writeFileAtomic(fsys FS, path string, data []byte, token string) (err error) {
	tmp, err := fsys.CreateTemp(filepath.Dir(path), tempPattern(filepath.Base(path), token))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close() // a second Close after a successful one only reports os.ErrClosed
			fsys.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = fsys.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if info, lerr := fsys.Lstat(path); lerr == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, which memsim does not replace", path, kind(info.Mode()))
	}
	return fsys.Rename(tmp.Name(), path)
}
