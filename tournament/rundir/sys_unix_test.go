//go:build unix

package rundir_test

import "syscall"

// mkfifo creates a named pipe at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
