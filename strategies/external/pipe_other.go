//go:build !linux

package external

import (
	"os"
	"time"
)

// readable reports whether the pipe f has bytes waiting to be read: it cannot tell here, and says
// no (a late second reply is then caught only when memsim reads again).
func readable(f *os.File) bool { return false }

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
