// Package rundir keeps the folders memsim writes a run to: a run folder, which holds a run's
// configuration, results, reports and figures (or, while the run plays, its checkpoint; or a
// finished shard's results), and the folders of other work written the same way (the audit's).
//
// # In and beside a run folder
//
// For a run folder DIR, memsim writes in DIR only the names of its Layout: for a run, the files
// of analysis/report (config.yaml, results.json, matchups.csv, report.md, report.html and the
// folder plots/), checkpoint.json and shard.json. Writes that are stopped half way can leave two
// more kinds of names there: ".FILE.tmp-N" (N digits), the temporary file of an atomic write of
// FILE, and ".old-plots", a plots/ folder being replaced. Anything else in DIR (shard folders, a
// merged run, anyone's files) is foreign.
//
// Beside DIR, in its parent, memsim keeps:
//
//   - .DIR.lock, the lock file, while a process uses DIR;
//   - .DIR.staging-N, a folder being filled to take DIR's place, or whose files take the place of
//     DIR's (Refresh);
//   - .DIR.old-N, DIR moved away while the staging folder takes its place.
//
// These names are compared literally (never as patterns), so that no other folder's files are
// ever taken for DIR's.
//
// # The lock
//
// A process uses DIR only while it holds DIR's lock (Folder.Lock): an advisory lock (flock) on
// .DIR.lock, which holds the process's PID for the message another process gets. The operating
// system releases the lock however the process ends; a lock file that a killed process left is
// taken over. The lock file is opened without following a symbolic link: a link there is
// refused, never followed. Where the operating system has no flock, processes are not kept
// apart.
//
// # Staging and atomic replacement
//
// DIR is never written in place. Replace fills a fresh staging folder, moves DIR away (to
// .DIR.old-N), renames the staging folder to DIR and removes the old one: DIR holds its old
// content or all the new one, never a mix. Refresh writes a run's own files into an existing DIR
// and leaves everything else there: each file takes its old namesake's place by one rename.
// Checkpoints are written atomically (a temporary file renamed over the old one), so that a
// failed write leaves the last one written.
//
// Whatever a process stopped half way leaves (the names above, in and beside DIR) is removed by
// the next process that takes the lock; should DIR itself be missing while a moved-away .DIR.old-N
// is there, that folder is put back first.
//
// # What is never deleted
//
// Replace refuses, unless forced, a DIR that holds foreign entries; Check refuses a DIR that holds
// anything at all, naming it, so that a new run never replaces another's without being asked.
// Cleaning removes only the names listed above. Refresh leaves every other entry as it is.
//
// All of it goes through an FS, the operating system's by default, so that tests can make any
// operation fail.
package rundir
