package rundir

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Lock is a folder's advisory lock, held by one process at a time: the file .DIR.lock beside the
// folder DIR, which says which process holds it and records the token of the names its holder
// creates (see the package documentation). The operating system releases the lock when the
// process ends, however it ends; a lock file left behind by a killed process is taken over, with
// its token, so that what the killed process left can be told from anyone else's files.
type Lock struct {
	f      File
	folder *Folder
	// token is in the name of every staging folder, moved-away folder and temporary file the
	// holder creates: the lock file's, or a new one.
	token string
	// wrote names, for each of the layout's folders (plots), the files memsim put there that the
	// folder's record (report.md) may not name yet: Refresh records them before it moves them in,
	// so that a process stopped half way leaves none that memsim cannot show it wrote.
	wrote map[string][]string
}

// LockPath is the path of the folder's lock file, .DIR.lock beside it.
func (f *Folder) LockPath() string { return f.beside(lockSuffix) }

// Lock takes the folder's lock, creating the folder's parent if needed, or says which process
// holds it (LockedError). A symbolic link in the lock file's place is refused (LockLinkError), and
// so is anything else memsim did not write there as a lock file (LockFileError): a folder, a pipe,
// a file holding other text; neither is ever followed, written or removed. Once it holds the lock,
// it removes what a process stopped half way left (CleanStale); should that fail, it lets the
// lock go and returns the error. The Folder's writes need the lock it returns until it is
// released.
func (f *Folder) Lock() (*Lock, error) {
	l, err := f.lock()
	if err != nil {
		return nil, err
	}
	f.held = l
	if err := f.CleanStale(); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// holderPrefix begins the first line of every lock file memsim writes: "memsim process PID".
const holderPrefix = "memsim process "

// lock takes the folder's lock.
func (f *Folder) lock() (*Lock, error) {
	path := f.LockPath()
	if err := f.fs.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s %s: %w", f.layout.noun(), f.path, err)
	}
	refuse := func(reason string) error {
		return &LockFileError{Name: f.layout.Name, Dir: f.path, Lock: path, Reason: reason}
	}
	// look refuses what is in the lock file's place when it is not a file memsim may lock: where
	// the system cannot refuse a link as it opens the file, and before a folder or a pipe is
	// opened at all.
	look := func() error {
		info, err := f.fs.Lstat(path)
		switch {
		case err != nil:
			return nil
		case info.Mode()&fs.ModeSymlink != 0:
			return &LockLinkError{Name: f.layout.Name, Dir: f.path, Lock: path}
		case info.IsDir():
			return refuse("is a folder")
		case !info.Mode().IsRegular():
			return refuse("is not a regular file")
		}
		return nil
	}
	for attempt := 0; ; attempt++ {
		if err := look(); err != nil {
			return nil, err
		}
		created := true
		lf, err := f.fs.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
		if errors.Is(err, fs.ErrExist) {
			created = false
			lf, err = f.fs.OpenFile(path, os.O_RDWR|noFollow|nonBlock, 0)
			if errors.Is(err, fs.ErrNotExist) && attempt < 10 {
				continue // its holder removed it meanwhile
			}
		}
		if err != nil {
			if lerr := look(); lerr != nil {
				return nil, lerr
			}
			return nil, fmt.Errorf("lock %s: %w", f.path, err)
		}
		info, err := lf.Stat()
		if err != nil || !info.Mode().IsRegular() {
			lf.Close()
			return nil, refuse("is not a regular file")
		}
		if err := tryLock(lf); err != nil {
			holder := holderOf(lf, info.Size())
			lf.Close()
			return nil, &LockedError{Name: f.layout.Name, Dir: f.path, Lock: path, Holder: holder}
		}
		// The holder removes the file as it lets go (Release): a lock taken on a file no longer
		// at path locks nothing, so take the one at path again.
		held, errHeld := lf.Stat()
		now, errNow := f.fs.Lstat(path)
		if errHeld == nil && errNow == nil && os.SameFile(held, now) {
			l, err := f.takeOver(lf, held.Size(), refuse)
			if err != nil {
				if created {
					f.fs.Remove(path) // while it holds the lock, as Release does
				}
				unlock(lf)
				lf.Close()
				return nil, err
			}
			return l, nil
		}
		unlock(lf)
		lf.Close()
		if attempt == 10 {
			return nil, fmt.Errorf("lock %s: the lock file %s keeps changing", f.path, path)
		}
	}
}

// takeOver reads what the lock file lf, of size bytes, holds (what the process that held it
// before recorded, if it did not let go: it was killed), keeps its token and what it recorded,
// and writes the new holder's record. A file of other text is refused with refuse's error.
func (f *Folder) takeOver(lf File, size int64, refuse func(string) error) (*Lock, error) {
	if size > MaxLockSize {
		return nil, refuse("is larger than " + sizeName(MaxLockSize))
	}
	data, err := io.ReadAll(io.LimitReader(lf, MaxLockSize+1))
	if err != nil {
		return nil, fmt.Errorf("lock %s: read %s: %w", f.path, lf.Name(), err)
	}
	if int64(len(data)) > MaxLockSize {
		return nil, refuse("is larger than " + sizeName(MaxLockSize))
	}
	rec, ok := parseLock(data)
	if !ok {
		return nil, refuse("holds other text")
	}
	l := &Lock{f: lf, folder: f, token: rec.token, wrote: rec.wrote}
	if l.token == "" {
		var b [8]byte
		rand.Read(b[:]) // never fails (crypto/rand)
		l.token = hex.EncodeToString(b[:])
	}
	if err := l.write(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", f.path, err)
	}
	return l, nil
}

// holderOf is what the lock file lf, of size bytes, held by another process, says of its holder:
// its line "memsim process PID", or "another process" when it says nothing readable.
func holderOf(lf File, size int64) string {
	if size > MaxLockSize {
		return "another process"
	}
	data, _ := io.ReadAll(io.LimitReader(lf, 1<<10))
	for line := range strings.SplitSeq(string(data), "\n") {
		if who := strings.TrimSpace(line); strings.HasPrefix(who, holderPrefix) {
			return who
		}
	}
	return "another process"
}

// lockRecord is what a lock file records: its token, and the files memsim put in the layout's
// folders that their record may not name yet (Lock.wrote).
type lockRecord struct {
	token string
	wrote map[string][]string
}

// parseLock reads the lock file data: ok is false when memsim did not write it. memsim writes
//
//	token TOKEN
//	memsim process PID
//	wrote FOLDER NAME NAME ...
//
// the last line once for each of the layout's folders that needs it, or nothing at all while it
// creates the file; a write stopped half way leaves a beginning of it, and since a holder keeps
// the token, the first line stays whole when it writes again. A token that is not 16 lower-case
// hexadecimal digits, and a name that memsim does not give a file, are not read.
func parseLock(data []byte) (rec lockRecord, ok bool) {
	s := string(data)
	lines := strings.Split(s, "\n")
	switch {
	case strings.HasPrefix(lines[0], "token "), strings.HasPrefix(lines[0], holderPrefix):
	case strings.HasPrefix("token ", s), strings.HasPrefix(holderPrefix, s):
	default:
		return rec, false
	}
	for _, line := range lines {
		key, value, _ := strings.Cut(line, " ")
		switch key {
		case "token":
			if isToken(value) {
				rec.token = value
			}
		case "wrote":
			fields := strings.Fields(value)
			if len(fields) < 2 || !recordable(fields[0]) {
				continue
			}
			if rec.wrote == nil {
				rec.wrote = map[string][]string{}
			}
			for _, n := range fields[1:] {
				if recordable(n) {
					rec.wrote[fields[0]] = append(rec.wrote[fields[0]], n)
				}
			}
		}
	}
	return rec, true
}

// isToken reports whether s is a token as memsim makes them: 16 lower-case hexadecimal digits.
func isToken(s string) bool {
	return len(s) == 16 && strings.Trim(s, "0123456789abcdef") == ""
}

// recordable reports whether name is one memsim may record for a file it wrote: letters, digits,
// '.', '-' and '_', not beginning with '.', at most 255 bytes.
func recordable(name string) bool {
	if name == "" || name[0] == '.' || len(name) > 255 {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == ""
}

// write writes the lock's record to its file, in place of what it held.
func (l *Lock) write() error {
	var b strings.Builder
	b.WriteString("token " + l.token + "\n")
	b.WriteString(holderPrefix + strconv.Itoa(os.Getpid()) + "\n")
	for _, sub := range slices.Sorted(maps.Keys(l.wrote)) {
		if len(l.wrote[sub]) > 0 {
			b.WriteString("wrote " + sub + " " + strings.Join(l.wrote[sub], " ") + "\n")
		}
	}
	if int64(b.Len()) > MaxLockSize {
		return fmt.Errorf("write %s: its record would be larger than %s", l.folder.LockPath(), sizeName(MaxLockSize))
	}
	if _, err := l.f.WriteAt([]byte(b.String()), 0); err != nil {
		return fmt.Errorf("write %s: %w", l.folder.LockPath(), err)
	}
	if err := l.f.Truncate(int64(b.Len())); err != nil {
		return fmt.Errorf("write %s: %w", l.folder.LockPath(), err)
	}
	return nil
}

// record adds names to what the lock file records memsim put in the layout's folder sub, and
// writes the record.
func (l *Lock) record(sub string, names []string) error {
	if l.wrote == nil {
		l.wrote = map[string][]string{}
	}
	all := slices.Concat(l.wrote[sub], names)
	slices.Sort(all)
	l.wrote[sub] = slices.Compact(all)
	return l.write()
}

// settle forgets what the lock file records of the layout's folders once the folder's record
// names all they hold (a Refresh or Replace completed). Should the record not be written, the
// lock file records more than needed, which only lets the next process take a few more names
// for memsim's.
func (l *Lock) settle() {
	if len(l.wrote) > 0 {
		l.wrote = nil
		l.write()
	}
}

// Release gives the lock up and removes its file, unless what the holder created is still there
// (a folder it could not remove) or its record of the layout's folders is still needed: then the
// file stays, so that the next holder can tell those names for memsim's. A nil Lock, or one
// released already, holds nothing.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	if len(l.wrote) == 0 && !l.folder.hasLeftovers(l.token) {
		l.folder.fs.Remove(l.folder.LockPath())
	}
	unlock(l.f)
	l.f.Close()
	l.f = nil
	if l.folder.held == l {
		l.folder.held = nil
	}
}

// token is the token of the lock the Folder holds, or "" when it holds none.
func (f *Folder) token() string {
	if f.held == nil {
		return ""
	}
	return f.held.token
}

// errLocked is the error of a write to the folder without its lock.
func (f *Folder) errLocked() error {
	return fmt.Errorf("%s %s: %w", f.layout.noun(), f.path, ErrNotLocked)
}
