//go:build unix

package external

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the process in a process group of its own, so that memsim can stop it with
// everything it started, and a Ctrl-C at the terminal reaches memsim alone (which stops it).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process and every process of its group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
