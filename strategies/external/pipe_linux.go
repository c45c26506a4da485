package external

import (
	"os"
	"syscall"
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
