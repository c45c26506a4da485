//go:build unix

package rundir

import "syscall"

// noFollow makes opening a symbolic link fail rather than open the file it names.
const noFollow = syscall.O_NOFOLLOW

// nonBlock makes opening a named pipe return at once rather than wait for a writer.
const nonBlock = syscall.O_NONBLOCK

// tryLock takes an exclusive advisory lock on f without waiting.
func tryLock(f File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// unlock releases the lock on f.
func unlock(f File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
