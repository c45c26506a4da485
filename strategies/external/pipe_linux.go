package external

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// readable reports whether the pipe f has bytes waiting to be read.
func readable(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		var avail int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&avail))); e == 0 {
			n = int(avail)
		}
	})
	return n > 0
}

// deadlineWriter writes to a pipe, giving a write that blocks its own deadline, so that a player
// that stops reading its input is an error rather than a hang. A write the pipe takes at once
// sets no deadline.
type deadlineWriter struct {
	f       *os.File
	rc      syscall.RawConn
	timeout time.Duration
}

func newDeadlineWriter(f *os.File, timeout time.Duration) (*deadlineWriter, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &deadlineWriter{f: f, rc: rc, timeout: timeout}, nil
}

func (d *deadlineWriter) Write(b []byte) (int, error) {
	written, armed := 0, false
	var werr error
	err := d.rc.Write(func(fd uintptr) bool {
		for written < len(b) {
			n, err := syscall.Write(int(fd), b[written:])
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				if !armed {
					armed = true
					if werr = d.f.SetWriteDeadline(time.Now().Add(d.timeout)); werr != nil {
						return true
					}
				}
				return false // wait until the pipe takes more
			case err != nil:
				werr = err
				return true
			}
			written += n
		}
		return true
	})
	if armed {
		if cerr := d.f.SetWriteDeadline(time.Time{}); err == nil && werr == nil {
			werr = cerr
		}
	}
	switch {
	case err != nil:
		return written, err
	case werr != nil:
		return written, &os.PathError{Op: "write", Path: d.f.Name(), Err: werr}
	}
	return written, nil
}
