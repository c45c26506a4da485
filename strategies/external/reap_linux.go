package external

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// awaitExit waits until the process pid has exited, without reaping it: its id stays taken, so
// that its process group can still be killed without the risk of reaching another's. It returns
// false when it cannot tell (the process is then reaped first, and its group killed after).
func awaitExit(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			return err == nil
		}
	}
}
