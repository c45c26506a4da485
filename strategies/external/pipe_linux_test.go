package external

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// TestDeadlineWriterFailsWhenNotRead checks that a write the reader leaves blocked fails at its
// deadline, and that a later write, once the reader reads, is not failed by that deadline (past
// by then).
func TestDeadlineWriterFailsWhenNotRead(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	d, err := newDeadlineWriter(w, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write(make([]byte, 1<<20)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a write of 1 MiB no one reads: got %v, want a deadline exceeded", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, r)
		done <- err
	}()
	if _, err := d.Write(make([]byte, 1<<20)); err != nil {
		t.Fatalf("a write the reader reads: %v", err)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
