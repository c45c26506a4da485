//go:build !unix

package main

import "os"

// tryLock does not lock where the operating system has no flock: runs are not protected from each
// other there.
func tryLock(f *os.File) error { return nil }

// unlock does nothing where tryLock does nothing.
func unlock(f *os.File) {}
