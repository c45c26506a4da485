package rundir

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"memsim/analysis/report"
	"memsim/tournament"
)

// RootError refuses the root of the file system as a folder: nothing can be kept beside it.
type RootError struct {
	Name string // what the folder holds: "run"
	Dir  string // the folder as given
}

// Error says that the root cannot be such a folder.
func (e *RootError) Error() string {
	noun := e.Name + " folder"
	return noun + " " + e.Dir + ": the root of the file system cannot be " + article(noun) + " " + noun
}

// NotFolderError refuses a file (anything but a folder) where a folder should be.
type NotFolderError struct {
	Name string // what the folder holds: "run"
	Dir  string
}

// Error says that the folder is a file.
func (e *NotFolderError) Error() string {
	return e.Name + " folder " + e.Dir + " is a file, not a folder"
}

// NotEmptyError refuses, unless forced, a folder that holds anything (besides what cleaning
// removes): a new run never replaces what others wrote without being asked.
type NotEmptyError struct {
	Name    string // what the folder holds: "run"
	Dir     string
	Entries []string // what the folder holds, sorted
}

// Error names a few of the entries.
func (e *NotEmptyError) Error() string {
	return e.Name + " folder " + e.Dir + " is not empty (it holds " + listNames(e.Entries) + ")"
}

// HoldsRunError refuses, unless forced, a folder that holds a run (or what its Layout's Name
// says): File is the first of the layout's Marks found in it.
type HoldsRunError struct {
	Name string // what the folder holds: "run"
	Dir  string
	File string // the file that shows it: "results.json", or for an interrupted run "checkpoint.json"
}

// Error names the file that shows the folder holds a run.
func (e *HoldsRunError) Error() string {
	return e.Name + " folder " + e.Dir + " already holds " + article(e.Name) + " " + e.Name + " (" + e.File + ")"
}

// ForeignEntriesError refuses, unless forced, to replace a folder whose own entries hold what
// memsim does not write there (a symbolic link, a folder named results.json, a file in plots/ that
// report.md does not name): replacing the run's files would delete them. RemoveRuns refuses with
// it a run folder within that holds anything memsim does not write there.
type ForeignEntriesError struct {
	Name    string // what the folder holds: "run"
	Dir     string
	Entries []string // the foreign entries, sorted
}

// Error names a few of the foreign entries.
func (e *ForeignEntriesError) Error() string {
	return e.Name + " folder " + e.Dir + " holds " + listNames(e.Entries) + ", which is not part of the " + e.Name + " and would be deleted"
}

// LockedError says that another process holds a folder's lock.
type LockedError struct {
	Name   string // what the folder holds: "run"
	Dir    string
	Lock   string // the lock file
	Holder string // what the lock file says of its holder ("memsim process 1234"), or "another process"
}

// Error names the holder and the lock file.
func (e *LockedError) Error() string {
	return e.Name + " folder " + e.Dir + " is in use by " + e.Holder + " (lock " + e.Lock + ")"
}

// LockLinkError refuses a symbolic link where a folder's lock file should be: it is never
// followed, so that no file it names is ever written.
type LockLinkError struct {
	Name string // what the folder holds: "run"
	Dir  string
	Lock string // the lock file's path, a symbolic link
}

// Error names the link.
func (e *LockLinkError) Error() string {
	return e.Name + " folder " + e.Dir + " cannot be locked: its lock file " + e.Lock + " is a symbolic link, which memsim does not follow: remove it"
}

// LockFileError refuses a file in a folder's lock file's place that memsim did not write as a
// lock file: a folder, a file of another kind (a pipe, a device), or a file holding other text or
// more of it than a lock file holds. It is never written, locked or removed.
type LockFileError struct {
	Name   string // what the folder holds: "run"
	Dir    string
	Lock   string // the lock file's path
	Reason string // what it is: "is a folder", "holds other text"
}

// Error names the lock file and says what it is.
func (e *LockFileError) Error() string {
	return e.Name + " folder " + e.Dir + " cannot be locked: " + e.Lock + " " + e.Reason + ", not memsim's lock file: move it away"
}

// NotOwnedError refuses to refresh a folder where what memsim would replace is not what it
// wrote: one of the layout's entries of another kind than memsim writes (a symbolic link, a
// folder where a file goes, a file where a folder goes), or a layout's folder (a run's plots/)
// that holds entries memsim cannot show it wrote there. Refreshing could overwrite them.
type NotOwnedError struct {
	Name    string   // what the folder holds: "run"
	Dir     string   // the folder
	Sub     string   // the layout's entry in it: "plots", "report.md"
	Kind    string   // what Sub is, when that is what is wrong: "a symbolic link"
	Entries []string // what memsim did not write in Sub, sorted, when that is what is wrong
}

// Error says what Sub is, or names a few of the entries.
func (e *NotOwnedError) Error() string {
	sub := filepath.Join(e.Dir, e.Sub)
	if len(e.Entries) == 0 {
		return e.Name + " folder " + e.Dir + ": " + sub + " is " + e.Kind + ", which memsim did not write there: move it away, then try again"
	}
	return e.Name + " folder " + e.Dir + ": " + sub + " holds " + listNames(e.Entries) + ", which memsim did not write there: move what is yours out of " + sub + ", then try again"
}

// NotRegularError refuses to read a file that is not a regular file (a pipe, a device, a
// folder): reading it could block or never end.
type NotRegularError struct {
	Path string
	Mode fs.FileMode // its type
}

// Error names the file and says what it is.
func (e *NotRegularError) Error() string {
	what := kind(e.Mode)
	if what != "not a regular file" {
		what += ", not a regular file"
	}
	return e.Path + " is " + what + ": memsim reads only regular files"
}

// kind says what a file of the mode is, for a message: "a folder", "a symbolic link", "a
// named pipe", "a device", "a socket", "a file", or "not a regular file".
func kind(mode fs.FileMode) string {
	switch t := mode.Type(); {
	case t == 0:
		return "a file"
	case t&fs.ModeDir != 0:
		return "a folder"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// TooLargeError refuses to read a file larger than the most memsim reads of such a file.
type TooLargeError struct {
	Path  string
	Limit int64 // the most memsim reads of it, in bytes
}

// Error names the file and the limit.
func (e *TooLargeError) Error() string {
	return e.Path + " is larger than " + sizeName(e.Limit) + ", the most memsim reads of such a file"
}

// ErrNotLocked marks a write to a folder whose lock this Folder does not hold (Folder.Lock).
var ErrNotLocked = errors.New("its lock is not held (Folder.Lock)")

// ErrNoCheckpoint marks a folder without the checkpoint (or shard file) asked for.
var ErrNoCheckpoint = errors.New("no checkpoint")

// ErrVersion marks a checkpoint or shard file of another layout version than
// tournament.CheckpointVersion: another memsim wrote it.
var ErrVersion = errors.New("checkpoint of another version")

// CheckpointError refuses the checkpoint or shard file File of the folder Dir. Err says why:
// ErrNoCheckpoint, ErrVersion, tournament.ErrForeignCheckpoint (another configuration's),
// tournament.ErrDamaged, an error reading it, or what the tournament found wrong in it.
type CheckpointError struct {
	Dir  string
	File string // CheckpointFile or ShardFile
	Err  error
}

// Error names the file and says what is wrong with it.
func (e *CheckpointError) Error() string {
	path := filepath.Join(e.Dir, e.File)
	var pe *fs.PathError
	switch {
	case errors.Is(e.Err, ErrNoCheckpoint) && e.File == ShardFile:
		return e.Dir + " has no " + e.File + ": the shard is not finished"
	case errors.Is(e.Err, ErrNoCheckpoint):
		return e.Dir + " has no " + e.File + ": nothing to resume (the run finished, or never started)"
	case errors.Is(e.Err, tournament.ErrForeignCheckpoint):
		return path + " belongs to another configuration than " + filepath.Join(e.Dir, report.ConfigFile)
	case errors.As(e.Err, &pe):
		return "read " + path + ": " + e.Err.Error()
	case errors.As(e.Err, new(*NotRegularError)), errors.As(e.Err, new(*TooLargeError)):
		return e.Err.Error()
	}
	return path + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *CheckpointError) Unwrap() error { return e.Err }

// versionError is the tournament's refusal of a file of another version, marked ErrVersion.
type versionError struct{ err error }

func (e versionError) Error() string        { return e.err.Error() }
func (e versionError) Unwrap() error        { return e.err }
func (e versionError) Is(target error) bool { return target == ErrVersion }

// listNames names a few of names for a message: "a", "a and b", "a, b and c", "a, b, c and 4
// more"; a name with control characters is quoted.
func listNames(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	q := make([]string, 0, 3)
	for _, n := range names[:min(len(names), 3)] {
		if strings.ContainsFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			n = strconv.Quote(n)
		}
		q = append(q, n)
	}
	switch {
	case len(names) > 3:
		return strings.Join(q, ", ") + " and " + strconv.Itoa(len(names)-3) + " more"
	case len(q) > 1:
		return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	}
	return q[0]
}

// sizeName writes a size in bytes for a message: "256 MiB" when it is a whole number of MiB or
// KiB, else "N bytes".
func sizeName(n int64) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
