//go:build !linux

package external

import (
	"os"
	"time"
)

// pipeReader reads the player's output. Armed with a send (a request to write), its next read
// sends first: it cannot tell here whether the player wrote while no request was in flight (a
// late second reply is then caught only if it does not answer the request).
type pipeReader struct {
	f    *os.File
	send func() error
}

func newPipeReader(f *os.File) (*pipeReader, error) { return &pipeReader{f: f}, nil }

// arm makes the next read call send first.
func (p *pipeReader) arm(send func() error) { p.send = send }

// Read reads from the pipe as os.File.Read does, calling the armed send first, if any. An error
// of send is returned as is.
func (p *pipeReader) Read(b []byte) (int, error) {
	if send := p.send; send != nil {
		p.send = nil
		if err := send(); err != nil {
			return 0, err
		}
	}
	return p.f.Read(b)
}

// deadlineWriter writes to a pipe, giving every write its own deadline, so that a player that
// stops reading its input is an error rather than a hang.
type deadlineWriter struct {
	f       *os.File
	timeout time.Duration
}

func newDeadlineWriter(f *os.File, timeout time.Duration) (*deadlineWriter, error) {
	return &deadlineWriter{f: f, timeout: timeout}, nil
}

func (d *deadlineWriter) Write(b []byte) (int, error) {
	if err := d.f.SetWriteDeadline(time.Now().Add(d.timeout)); err != nil {
		return 0, err
	}
	return d.f.Write(b)
}
