//go:build !unix

package external

import "os/exec"

// ownGroup leaves the process in memsim's group: process groups are a Unix notion.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
