package configs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"memsim/configs/internal/yamlnode"
)

// MaxFileSize is the largest configuration or suite file ReadFile reads, in bytes (2 MiB): room
// for the largest tournament memsim lays out, 10,000 players alone at the table, each with every
// key written out (about 1.6 MB). Reading YAML takes up to about 100 times a file's size in
// memory, so a file at the limit needs about 200 MB to be read or refused. Parse holds the
// resolved configuration (Tournament.YAML), which memsim writes into run folders, to the same
// limit.
const MaxFileSize = 2 << 20

// maxMessage is the longest message an *Error made by Tournament.At holds, in bytes.
const maxMessage = 1000

// ReadFile reads the configuration or suite file path for Parse or ParseSuite. The file (or what
// a symbolic link names) must be a regular file of at most MaxFileSize bytes: a folder, a named
// pipe, a device or a socket is refused, and so is a larger file, before anything is read. Its
// errors are one line that names the file (shortened as ShortPath does).
func ReadFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, shortPathError(err)
	}
	if err := checkFile(path, info); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, shortPathError(err)
	}
	defer f.Close()
	// The file may have been replaced since: check what was opened.
	if info, err = f.Stat(); err != nil {
		return nil, shortPathError(err)
	}
	if err := checkFile(path, info); err != nil {
		return nil, err
	}
	return readAtMost(f, path)
}

// readAtMost reads r, the content of the file path, to its end: at most MaxFileSize bytes, or an
// error (a file that grew after it was checked).
func readAtMost(r io.Reader, path string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, shortPathError(err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: more than %d bytes: %s", ShortPath(path), MaxFileSize, sizeRule)
	}
	return data, nil
}

// sizeRule states the limit of ReadFile in its errors.
var sizeRule = fmt.Sprintf("a configuration file holds at most %d bytes (%d MiB)", MaxFileSize, MaxFileSize>>20)

// checkFile refuses what ReadFile does not read: anything but a regular file, and a file larger
// than MaxFileSize.
func checkFile(path string, info fs.FileInfo) error {
	var kind string
	switch m := info.Mode(); {
	case m.IsRegular():
		if info.Size() > MaxFileSize {
			return fmt.Errorf("%s: %d bytes: %s", ShortPath(path), info.Size(), sizeRule)
		}
		return nil
	case m.IsDir():
		kind = "a folder"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	default:
		kind = "a special file"
	}
	return fmt.Errorf("%s is %s, not a regular file", ShortPath(path), kind)
}

// shortPathError returns err with the path of a *fs.PathError shortened as ShortPath does (it
// still matches what it wraps, fs.ErrNotExist say).
func shortPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: ShortPath(pe.Path), Err: pe.Err}
	}
	return err
}

// ShortPath returns path for an error message: on one line, and as it is unless it is longer
// than about 200 bytes, when its start and its end (which names the file) are kept around "...".
// A path with control characters or bytes that are not UTF-8 is quoted as a Go string.
func ShortPath(path string) string { return yamlnode.ShortPath(path) }

// Quote returns s for an error message that quotes a value: a double-quoted Go string, cut to 40
// characters (with "..." after the quotes).
func Quote(s string) string { return yamlnode.Quote(s) }

// shortMessage cuts a message longer than maxMessage bytes, ending it with "...".
func shortMessage(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	end := maxMessage
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return strings.TrimRight(s[:end], " ") + "..."
}
