package configs

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// sparseFile creates the file name in dir of size bytes without writing them.
func sparseFile(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantFileError checks that err is one line that begins with prefix and holds want.
func wantFileError(t *testing.T, what string, err error, prefix, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("%s: error %q, want one line beginning %q holding %q", what, msg, prefix, want)
	}
}

// ReadFile reads a regular file, or one a link names, up to MaxFileSize bytes, and refuses a
// larger one, a folder and a device before reading, in one line naming the file and the limit.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(small, []byte("players: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(small); err != nil || string(data) != "players: []\n" {
		t.Errorf("a small file: %q, %v", data, err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(small, link); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(link); err != nil || string(data) != "players: []\n" {
		t.Errorf("a link to a file: %q, %v", data, err)
	}
	atLimit := sparseFile(t, dir, "limit.yaml", 2<<20)
	if data, err := ReadFile(atLimit); err != nil || len(data) != 2<<20 {
		t.Errorf("a file of 2 MiB: %d bytes, %v", len(data), err)
	}
	over := sparseFile(t, dir, "over.yaml", 2<<20+1)
	_, err := ReadFile(over)
	wantFileError(t, "a byte over", err, over+": 2097153 bytes: ", "a configuration file holds at most 2097152 bytes (2 MiB)")

	_, err = ReadFile(dir)
	wantFileError(t, "a folder", err, dir+" is a folder", "not a regular file")
	_, err = ReadFile(filepath.Join(dir, "nothing.yaml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want a not-exist error", err)
	}
	if _, serr := os.Stat("/dev/zero"); serr == nil {
		_, err = ReadFile("/dev/zero")
		wantFileError(t, "/dev/zero", err, "/dev/zero is a device", "not a regular file")
	}
}

// A file far beyond the limit is refused from its size, without reading it.
func TestReadFileRefusesALargeFileBeforeReading(t *testing.T) {
	big := sparseFile(t, t.TempDir(), "big.yaml", 40<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadFile(big)
	runtime.ReadMemStats(&after)
	wantFileError(t, "40 MiB", err, big+": 41943040 bytes: ", "at most 2097152 bytes")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
		t.Errorf("refusing a 40 MiB file allocated %d bytes", alloc)
	}
}

// A file that grows past the limit after it was checked is refused as it is read.
func TestReadFileStopsAtTheLimit(t *testing.T) {
	data, err := readAtMost(bytes.NewReader(make([]byte, MaxFileSize)), "f.yaml")
	if err != nil || len(data) != MaxFileSize {
		t.Errorf("at the limit: %d bytes, %v", len(data), err)
	}
	_, err = readAtMost(bytes.NewReader(make([]byte, 3*MaxFileSize)), "f.yaml")
	wantFileError(t, "grown", err, "f.yaml: more than 2097152 bytes: ", "a configuration file holds at most")
}

// The messages of ReadFile and of a configuration's errors name a long path cut short, on one
// line.
func TestLongPathsAreCutShortInMessages(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("d/", 50000)+"c.yaml")
	_, err := ReadFile(long)
	if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "d/d...") && !strings.Contains(err.Error(), ".../d/d") || !strings.HasSuffix(err.Error(), "d/c.yaml: file name too long") {
		t.Errorf("a path of %d bytes: %v", len(long), err)
	}
	withBreak := filepath.Join(t.TempDir(), "a\nb.yaml")
	_, err = ReadFile(withBreak)
	if err == nil || !strings.Contains(err.Error(), `a\nb.yaml"`) || strings.Contains(err.Error(), "\n") {
		t.Errorf("a path with a line break: %v", err)
	}
	_, err = Parse(long, []byte("games: x\n"), testOptions())
	if err == nil || len(err.Error()) > 400 || !strings.HasSuffix(err.Error(), "d/c.yaml:1:8: games: expected an integer, got string \"x\"") {
		t.Errorf("a configuration error in a file of %d bytes: %v", len(long), err)
	}
	cfg, err := Parse("t.yaml", []byte(two), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.At(Pos{Line: 1, Column: 1}, errors.New(strings.Repeat("x", 100000))); len(err.Error()) > 1100 || !strings.HasSuffix(err.Error(), "x...") {
		t.Errorf("a long message at a position: %d bytes", len(err.Error()))
	}
}

// Reading the largest file ReadFile accepts takes memory in proportion to it, whatever its shape:
// at most 256 bytes per byte of YAML for the shapes that make the most nodes per byte.
func TestParseMemoryIsBoundedWithinTheFileLimit(t *testing.T) {
	size := MaxFileSize
	if testing.Short() {
		size /= 8
	}
	shapes := []struct{ name, head, item, tail string }{
		{"a flow list of numbers", "players: [", "0,", "0]\n"},
		{"a block list of numbers", "players:\n", "- 0\n", "- 0\n"},
		{"a flow list of empty mappings", "players: [", "{},", "{}]\n"},
		{"a flow list of anchored numbers", "players: [", "&a 0,", "0]\n"},
		{"a mapping of keys", "", "k: 0\n", "k: 0\n"},
	}
	for _, sh := range shapes {
		var b strings.Builder
		b.WriteString(sh.head)
		for b.Len()+len(sh.item)+len(sh.tail) <= size {
			b.WriteString(sh.item)
		}
		b.WriteString(sh.tail)
		data := []byte(b.String())
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse("big.yaml", data, testOptions())
		runtime.ReadMemStats(&after)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line error", sh.name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256*uint64(len(data)) {
			t.Errorf("%s of %d bytes: %d bytes allocated, %.0f per byte", sh.name, len(data), alloc, float64(alloc)/float64(len(data)))
		}
	}
}

// A configuration whose resolved form, which memsim writes into run folders, would not fit in
// MaxFileSize bytes is refused, though its own text fits.
func TestResolvedConfigurationIsBounded(t *testing.T) {
	name := strings.Repeat("a", MaxFileSize-100)
	src := "name: x\nplayers: [{name: " + name + ", policy: safe}, {name: b, policy: safe}]\n"
	_, err := Parse("t.yaml", []byte(src), testOptions())
	if err == nil || !strings.HasPrefix(err.Error(), "t.yaml:1:1: the resolved configuration takes ") || !strings.HasSuffix(err.Error(), ", and a configuration file holds at most 2097152 bytes (2 MiB): fewer players, or shorter names") {
		t.Errorf("%v", err)
	}
	if _, err := Parse("t.yaml", []byte(strings.Replace(src, name, name[:MaxFileSize-1000], 1)), testOptions()); err != nil {
		t.Errorf("a resolved configuration within the limit: %.200v", err)
	}
}
