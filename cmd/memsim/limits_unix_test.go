//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A configuration that is a named pipe is refused at once, without waiting for a writer.
func TestNamedPipeConfigurationIsRefused(t *testing.T) {
	t.Parallel()
	pipe := filepath.Join(t.TempDir(), "c.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	type result struct {
		stderr string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, code := runArgs(t, "validate", pipe)
		done <- result{stderr, code}
	}()
	select {
	case r := <-done:
		wantOneLineExit(t, "a named pipe", r.code, exitUsage, r.stderr, "memsim validate: read suite: "+pipe+" is a named pipe", "not a regular file")
	case <-time.After(10 * time.Second):
		t.Fatal("memsim validate waits on a named pipe")
	}
}
