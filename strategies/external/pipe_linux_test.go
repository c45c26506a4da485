package external

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// TestPipeReaderSendsOnlyWhenThePipeIsEmpty checks that an armed read sends when nothing waits in
// the pipe (and then reads what the send brought), and does not send when the player wrote
// first, closed its output, or when the send fails.
func TestPipeReaderSendsOnlyWhenThePipeIsEmpty(t *testing.T) {
	errSend := errors.New("send failed")
	cases := []struct {
		name     string
		before   string // written to the pipe before the read
		closed   bool   // the writing end is closed before the read
		sendErr  error
		want     string
		wantErr  error
		wantSent bool
	}{
		{name: "empty", want: "reply\n", wantSent: true},
		{name: "written first", before: "late\n", want: "late\n"},
		{name: "closed", closed: true, wantErr: io.EOF},
		{name: "send fails", sendErr: errSend, wantErr: errSend, wantSent: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			p, err := newPipeReader(r)
			if err != nil {
				t.Fatal(err)
			}
			if tc.before != "" {
				if _, err := w.WriteString(tc.before); err != nil {
					t.Fatal(err)
				}
			}
			if tc.closed {
				w.Close()
			}
			if err := r.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			sent := false
			p.arm(func() error {
				sent = true
				if tc.sendErr != nil {
					return tc.sendErr
				}
				_, err := w.WriteString("reply\n")
				return err
			})
			buf := make([]byte, 64)
			n, err := p.Read(buf)
			if !errors.Is(err, tc.wantErr) || string(buf[:n]) != tc.want || sent != tc.wantSent {
				t.Errorf("Read = %q, %v, sent %v; want %q, %v, sent %v", buf[:n], err, sent, tc.want, tc.wantErr, tc.wantSent)
			}
			if p.send != nil {
				t.Error("the send is still armed after the read")
			}
		})
	}
}

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
