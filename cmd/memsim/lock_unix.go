//go:build unix

package main

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on f without waiting.
func tryLock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// unlock releases the lock on f.
func unlock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
