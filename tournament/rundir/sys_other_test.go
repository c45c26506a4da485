//go:build !unix

package rundir_test

import "errors"

// mkfifo fails where the system has no named pipes.
func mkfifo(path string) error { return errors.New("no named pipes here") }
