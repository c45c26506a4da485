package main

import (
	"memsim/tournament/rundir"
)

// The files of a run folder that messages name.
const (
	checkpointFile = rundir.CheckpointFile
	shardFile      = rundir.ShardFile
)

// folderError turns a refusal of package rundir, as rundir returns it, into bad input with the
// command line's advice ("use --force to replace it"); other errors are returned as they are.
func folderError(err error) error {
	switch e := err.(type) {
	case *rundir.NotFolderError:
		return usagef("%v: choose another output folder", e)
	case *rundir.NotEmptyError:
		return usagef("%v: use --force to write the %s beside what it holds, or choose another output folder", e, e.Name)
	case *rundir.HoldsRunError:
		switch {
		case e.Name == auditLayout().Name:
			return usagef("%v: use --force to replace it", e)
		case e.File == checkpointFile:
			return usagef("%v: resume it with: memsim run --resume %s, or use --force to start again", e, e.Dir)
		}
		return usagef("%v: use --force to replace it, or choose another output folder", e)
	case *rundir.ForeignEntriesError:
		return usagef("%v: move it out of the folder first", e)
	case *rundir.LockedError:
		return usagef("%v: wait for it to finish, or stop it", e)
	case *rundir.RootError, *rundir.LockLinkError, *rundir.LockFileError, *rundir.CheckpointError, *rundir.NotOwnedError:
		return usagef("%v", e)
	}
	return err
}
