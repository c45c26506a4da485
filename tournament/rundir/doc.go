// Package rundir keeps the folders memsim writes a run to: a run folder, which holds a run's
// configuration, results, reports and figures (or, while the run plays, its checkpoint; or a
// finished shard's results), and the folders of other work written the same way (the audit's).
//
// memsim removes, renames or overwrites only what it can show it wrote: the names of a folder's
// Layout, and the names below, which carry the token of the process that created them. Paths are
// compared literally, never as patterns, and a symbolic link is never followed where memsim
// creates or removes a name.
//
// # The token
//
// A process that takes a folder's lock (Folder.Lock) records in the lock file a token, 16 random
// hexadecimal digits, and puts it in the name of every staging folder, moved-away folder and
// temporary file it creates; each is created new (never in place of an existing name). A process
// that dies leaves its lock file behind; the next one to take the lock keeps its token, and so
// tells what the dead one left from anyone else's files, however alike their names. A name with
// another token, or none, is never memsim's. The lock file, .DIR.lock, holds
//
//	token TOKEN
//	memsim process PID
//	wrote plots NAME NAME ...
//	wrote records NAME NAME ...
//
// the last lines only while a Refresh moves figures into plots/, or game records into records/
// (see below).
//
// # In and beside a run folder
//
// For a run folder DIR, memsim writes in DIR only the names of its Layout: for a run, the files
// of analysis/report (config.yaml, results.json, matchups.csv, report.md, report.html and the
// folders plots/ and records/), checkpoint.json and shard.json. A write stopped half way can
// leave one more kind of name there: ".FILE.tmp-TOKEN-N" (N digits), the temporary file of an
// atomic write of FILE.
// Anything else in DIR (shard folders, a merged run, anyone's files) is foreign, and so is a
// temporary file of another token: memsim keeps it, whatever it writes in DIR.
//
// In plots/, memsim's files are the figures that DIR's report.md names, each on a line of its own
// as "![TITLE](plots/NAME.png)" (Layout.Record), while they are regular files; everything else
// there (a user's file, another run's folder, a symbolic link) is foreign, and so is a plots that
// is not a folder. So it is in records/, whose files report.md names as "- [TITLE](records/NAME)".
//
// Beside DIR, in its parent, memsim keeps:
//
//   - .DIR.lock, the lock file, while a process uses DIR;
//   - .DIR.staging-TOKEN-N, a folder being filled to take DIR's place, or whose files take the
//     place of DIR's (Refresh);
//   - .DIR.old-TOKEN-N, DIR moved away while the staging folder takes its place.
//
// These are the reserved names. A folder or file that merely looks like one (".DIR.staging-1",
// ".DIR.old-notes", a run named so, a temporary file without the token) is left as it is, byte
// for byte. What collides with a name memsim must create is refused, never consumed: anything in
// the lock file's place that is not memsim's lock file (LockLinkError for a symbolic link,
// LockFileError for a folder, a pipe or a file of other text), and anything found where DIR is
// to be moved away.
//
// # The lock
//
// A process uses DIR only while it holds DIR's lock (Folder.Lock): an advisory lock (flock) on
// .DIR.lock, created new when there is none and opened without following a symbolic link. The
// operating system releases the lock however the process ends; a lock file that a killed process
// left is taken over, with its token. Release removes the lock file, unless what its holder
// created is still there: the next holder needs the token to remove it. A Folder writes only
// while it holds the lock (ErrNotLocked). Where the operating system has no flock, processes are
// not kept apart.
//
// # Staging and atomic replacement
//
// DIR's files are never written in place. Replace fills a fresh staging folder; when DIR holds nothing
// but its own names, it moves DIR away (to .DIR.old-TOKEN-N), renames the staging folder to DIR
// and removes the old one: DIR holds its old content or all the new one, never a mix. When DIR
// holds foreign entries too, they stay where they are and DIR's own names are replaced one by
// one: the old run's marks that the new content lacks go first (no old results.json is ever left
// beside a new config.yaml), then each new file takes its old namesake's place by one rename, and
// a checkpoint the new content lacks goes last (no finished game is lost). Refresh writes a run's
// own files into an existing DIR and leaves everything else there: each file takes its old
// namesake's place by one rename, and so does each figure in plots/; a figure memsim wrote before
// and no longer draws is removed. Before it moves figures in, Refresh records their names, and
// those already there, in the lock file, so that a process stopped half way leaves none that the
// next cannot tell for memsim's. Checkpoints are written atomically (a temporary file renamed over
// the old one), so that a failed write leaves the last one written.
//
// Whatever a process stopped half way leaves (the names above, with its token) is removed by the
// next process that takes the lock; should DIR itself be missing while a moved-away
// .DIR.old-TOKEN-N is there, that folder is put back first.
//
// # What is never deleted
//
// Nothing foreign in DIR is ever removed by Claim, Replace or Refresh, forced or not: shard
// folders, a merged run and anyone's files stay, byte for byte, beside the run. Replace refuses,
// unless forced, a DIR whose own names hold something memsim does not write there (a symbolic
// link, a folder named results.json, a file in plots/ that report.md does not name)
// (ForeignEntriesError), since replacing the run would delete it; Check refuses a DIR that holds
// anything at all, naming it, so that a new run never starts beside another's without being
// asked. Refresh refuses, before it changes anything, a plots/ that holds anything foreign and an
// entry it would replace that is not of the kind memsim writes (NotOwnedError). Only RemoveRuns,
// asked for by name, removes folders in DIR: the runs of its own layout there (shard folders,
// merged runs), each whole, under its own lock, and only when each holds nothing but what memsim
// writes. An atomic write never replaces a symbolic link. Cleaning removes only the names listed
// above, with the token.
//
// # What is read
//
// Every file is read only if it is a regular file (not a pipe, a device or a folder, nor a link
// to one: NotRegularError) of at most a size fixed by its kind (TooLargeError): MaxFileSize for a
// checkpoint, a shard's results and report.md, MaxLockSize for a lock file. ReadFile reads a file
// so, for the files of a run folder that others read: results.json within MaxFileSize. A run
// folder's config.yaml is a configuration file, read as every one is (configs.ReadFile, within
// configs.MaxFileSize).
//
// # What it does not protect against
//
// The token tells memsim's names from look-alikes; it is no secret. Someone who can write the
// folder can copy a token from a lock file, edit report.md, or remove the files themselves:
// package rundir keeps memsim from destroying what others wrote, not others from destroying what
// memsim wrote.
//
// All of it goes through an FS, the operating system's by default, so that tests can make any
// operation fail.
package rundir
