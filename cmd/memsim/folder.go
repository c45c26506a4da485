package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"memsim/analysis/report"
)

// folderLock is an advisory lock on a run folder, held by one memsim process at a time: the file
// .<name>.lock beside the folder, holding the process's PID. The operating system releases the
// lock when the process ends, however it ends; a lock file left behind by a killed process is
// taken over.
type folderLock struct {
	f    *os.File
	path string
}

// lockPath is the lock file of folder dir.
func lockPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(filepath.Clean(dir))+".lock")
}

// lockFolder takes the lock of dir, creating dir's parent if needed, or says which process holds
// it.
func lockFolder(dir string) (*folderLock, error) {
	path := lockPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create run folder %s: %w", dir, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		holder, _ := os.ReadFile(path)
		who := strings.TrimSpace(string(holder))
		if who == "" {
			who = "another process"
		}
		return nil, usagef("run folder %s is in use by %s (lock %s): wait for it to finish, or stop it", dir, who, path)
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "memsim process %d", os.Getpid())
	}
	return &folderLock{f: f, path: path}, nil
}

// release gives the lock up and removes its file.
func (l *folderLock) release() {
	if l == nil {
		return
	}
	os.Remove(l.path)
	unlock(l.f)
	l.f.Close()
}

// cleanStale removes what an earlier process killed in the middle of writing dir left behind:
// temporary files of atomic writes in dir, and staging folders beside it; a folder moved away to
// be replaced is put back if dir itself is missing, removed otherwise. The caller holds dir's lock.
func cleanStale(dir string) error {
	if tmps, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); err == nil {
		for _, t := range tmps {
			if err := os.Remove(t); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", t, err)
			}
		}
	}
	base, parent := filepath.Base(filepath.Clean(dir)), filepath.Dir(dir)
	staging, _ := filepath.Glob(filepath.Join(parent, "."+base+".staging-*"))
	for _, s := range staging {
		if err := os.RemoveAll(s); err != nil {
			return fmt.Errorf("remove %s: %w", s, err)
		}
	}
	old, _ := filepath.Glob(filepath.Join(parent, "."+base+".old-*"))
	for _, o := range old {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			if err := os.Rename(o, dir); err != nil {
				return fmt.Errorf("restore %s from %s: %w", dir, o, err)
			}
			continue
		}
		if err := os.RemoveAll(o); err != nil {
			return fmt.Errorf("remove %s: %w", o, err)
		}
	}
	return nil
}

// replaceFolder gives dir a whole new content: write fills a fresh staging folder beside dir, and
// the staging folder then takes dir's place (the old folder, if any, is moved away and removed).
// dir thus holds its old content or all the new one, never a mix; when write fails, the staging
// folder is removed and dir is left as it was. The caller holds dir's lock.
func replaceFolder(dir string, write func(staging string) error) error {
	parent, base := filepath.Dir(dir), filepath.Base(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", parent, err)
	}
	staging, err := os.MkdirTemp(parent, "."+base+".staging-*")
	if err != nil {
		return fmt.Errorf("create a staging folder for %s: %w", dir, err)
	}
	if err := os.Chmod(staging, 0o755); err != nil {
		os.RemoveAll(staging)
		return fmt.Errorf("create a staging folder for %s: %w", dir, err)
	}
	if err := write(staging); err != nil {
		os.RemoveAll(staging)
		return err
	}
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = strings.Replace(staging, ".staging-", ".old-", 1)
		if err := os.Rename(dir, old); err != nil {
			os.RemoveAll(staging)
			return fmt.Errorf("move %s away: %w", dir, err)
		}
	}
	if err := os.Rename(staging, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		os.RemoveAll(staging)
		return fmt.Errorf("put %s in place: %w", dir, err)
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("remove the old %s (now %s): %w", dir, old, err)
		}
	}
	return nil
}

// holdsRun reports which of the files that make a run folder dir holds, if any: its results,
// checkpoint or configuration.
func holdsRun(dir string) (string, bool) {
	for _, f := range []string{report.ResultsFile, checkpointFile, shardFile, report.ConfigFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return f, true
		}
	}
	return "", false
}

// claimRunFolder makes sure a new run may use dir, whose lock the caller holds: a folder that
// holds a run is only replaced with force. It starts the new run in a fresh folder holding only
// config (config.yaml), so that no file of an earlier run can be taken for the new one's, even if
// the new run is interrupted.
func claimRunFolder(dir string, force bool, config []byte) error {
	if f, ok := holdsRun(dir); ok && !force {
		hint := "use --force to replace it"
		if f == checkpointFile {
			hint = "resume it with: memsim run --resume " + dir + ", or use --force to start again"
		}
		return usagef("run folder %s already holds a run (%s): %s", dir, f, hint)
	}
	return replaceFolder(dir, func(staging string) error {
		return report.WriteFileAtomic(filepath.Join(staging, report.ConfigFile), config)
	})
}

// removeIfPresent removes the file path, if there is one.
func removeIfPresent(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}
