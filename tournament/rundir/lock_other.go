//go:build !unix

package rundir

// noFollow is 0 where the system has no O_NOFOLLOW: Lock refuses a symbolic link by looking
// before it opens the lock file.
const noFollow = 0

// nonBlock is 0 where the system has no O_NONBLOCK.
const nonBlock = 0

// tryLock does not lock where the operating system has no flock: processes are not kept apart
// there.
func tryLock(f File) error { return nil }

// unlock does nothing where tryLock does nothing.
func unlock(f File) {}
