package rundir

import (
	"io"
	"io/fs"
	"os"
)

// The most package rundir reads of a file, by kind: a file larger than that is refused
// (TooLargeError) before it is read. They are far above what memsim writes: a checkpoint of a
// tournament of a thousand matchups is a few megabytes.
const (
	// MaxFileSize bounds a run folder's checkpoint.json, shard.json, results.json and
	// report.md.
	MaxFileSize int64 = 256 << 20
	// MaxLockSize bounds a lock file: a few lines that name its holder and what it wrote.
	MaxLockSize int64 = 1 << 20
)

// ReadFile reads the file path, which must be a regular file of at most limit bytes: anything
// else (a pipe, a device such as /dev/zero, a folder, or a symbolic link to one) is refused with
// a NotRegularError, and a larger file with a TooLargeError, without reading it. A file that
// cannot be opened gives the error of os.Open ("open PATH: ...").
func ReadFile(path string, limit int64) ([]byte, error) { return readFile(OSFS{}, path, limit) }

// readFile is ReadFile on fsys. It looks at the file before it opens it, opens it without
// waiting for a writer (a pipe put there meanwhile) and looks again at what it opened, so that it
// never blocks on a pipe nor reads more than limit bytes.
func readFile(fsys FS, path string, limit int64) ([]byte, error) {
	if info, err := fsys.Stat(path); err == nil {
		if err := checkReadable(path, info, limit); err != nil {
			return nil, err
		}
	}
	f, err := fsys.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkReadable(path, info, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit { // it grew since it was looked at
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}

// checkReadable refuses a file, described by info, that is not a regular file or holds more
// than limit bytes.
func checkReadable(path string, info fs.FileInfo, limit int64) error {
	switch {
	case !info.Mode().IsRegular():
		return &NotRegularError{Path: path, Mode: info.Mode()}
	case info.Size() > limit:
		return &TooLargeError{Path: path, Limit: limit}
	}
	return nil
}
