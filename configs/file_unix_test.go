//go:build unix

package configs

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe is refused at once, without waiting for a writer.
func TestReadFileRefusesANamedPipe(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "c.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(pipe)
		done <- err
	}()
	select {
	case err := <-done:
		wantFileError(t, "a named pipe", err, pipe+" is a named pipe", "not a regular file")
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile waits on a named pipe")
	}
}
