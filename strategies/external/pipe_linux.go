package external

import (
	"io"
	"os"
	"syscall"
	"time"
)

// pipeReader reads the player's output. Armed with a send (a request to write), its next read
// first reads what the pipe holds without waiting and sends only if the pipe is empty, then
// waits for the reply: that the player wrote nothing while no request was in flight is seen by
// the read that waits for the reply, with no system call of its own.
type pipeReader struct {
	f    *os.File
	rc   syscall.RawConn
	send func() error // armed: called once, when the pipe is found empty
}

func newPipeReader(f *os.File) (*pipeReader, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &pipeReader{f: f, rc: rc}, nil
}

// arm makes the next read call send once the pipe is found empty, before it waits.
func (p *pipeReader) arm(send func() error) { p.send = send }

// Read reads from the pipe as os.File.Read does (a deadline set on the file applies), calling
// the armed send, if any, when the pipe is empty. An error of send is returned as is.
func (p *pipeReader) Read(b []byte) (int, error) {
	send := p.send
	if send == nil {
		return p.f.Read(b)
	}
	p.send = nil
	var n int
	var rerr, serr error
	err := p.rc.Read(func(fd uintptr) bool {
		for {
			n, rerr = syscall.Read(int(fd), b)
			if rerr != syscall.EINTR {
				break
			}
		}
		if rerr != syscall.EAGAIN {
			return true
		}
		if send != nil {
			serr, send = send(), nil
			return serr != nil
		}
		return false // wait until the pipe is readable
	})
	switch {
	case serr != nil:
		return 0, serr
	case err != nil:
		return 0, err
	case rerr != nil:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: rerr}
	case n == 0 && len(b) > 0:
		return 0, io.EOF
	}
	return n, nil
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
