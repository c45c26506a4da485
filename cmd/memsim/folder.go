package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"memsim/analysis/report"
)

// cleanStale removes what an earlier process killed in the middle of writing dir left behind:
// the entries of leftEntry in dir (temporary files of atomic writes, a plots/ folder being
// replaced), and staging folders beside it; a folder moved away to
// be replaced is put back if dir itself is missing, removed otherwise. The caller holds dir's lock.
func cleanStale(dir string) error {
	names, err := folderEntries(dir)
	if err != nil {
		return err
	}
	for _, n := range names {
		if leftEntry(n) {
			if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
				return fmt.Errorf("remove %s: %w", filepath.Join(dir, n), err)
			}
		}
	}
	staging, _ := filepath.Glob(beside(dir, stagingSuffix+"*"))
	for _, s := range staging {
		if err := os.RemoveAll(s); err != nil {
			return fmt.Errorf("remove %s: %w", s, err)
		}
	}
	old, _ := filepath.Glob(beside(dir, oldSuffix+"*"))
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
// folder is removed and dir is left as it was. Unless force, a dir that holds anything memsim does
// not write in a run folder (see foreignEntries) is refused before anything is written: memsim
// never deletes unasked what it did not write. The caller holds dir's lock.
func replaceFolder(dir string, force bool, write func(staging string) error) error {
	names, err := folderEntries(dir)
	if err != nil {
		return err
	}
	if foreign := foreignEntries(names); len(foreign) > 0 && !force {
		return usagef("run folder %s holds %s, which is not part of the run and would be deleted: move it out of the folder first", dir, listNames(foreign))
	}
	staging, err := newStaging(dir)
	if err != nil {
		return err
	}
	if err := write(staging); err != nil {
		os.RemoveAll(staging)
		return err
	}
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = strings.Replace(staging, stagingSuffix, oldSuffix, 1)
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

// refreshFolder writes a run's files into the existing run folder dir and leaves everything else
// there (shard folders, a merged run, anyone's files) as it is: write fills a fresh staging folder
// beside dir, then each of its entries takes the place of dir's entry of the same name, a file by
// one rename, a folder (plots/) by moving the old one away first. Should memsim stop half way,
// dir holds each file old or new, and running the same command again completes it. The caller
// holds dir's lock.
func refreshFolder(dir string, write func(staging string) error) error {
	staging, err := newStaging(dir)
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	if err := write(staging); err != nil {
		return err
	}
	entries, err := os.ReadDir(staging)
	if err != nil {
		return fmt.Errorf("read the staging folder of %s: %w", dir, err)
	}
	for _, e := range entries {
		from, to := filepath.Join(staging, e.Name()), filepath.Join(dir, e.Name())
		if e.IsDir() { // plots/, the one folder report.WriteDir writes
			old := filepath.Join(dir, oldPlots)
			if err := os.RemoveAll(old); err != nil {
				return fmt.Errorf("remove %s: %w", old, err)
			}
			if err := os.Rename(to, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("move %s away: %w", to, err)
			}
			if err := os.Rename(from, to); err != nil {
				return fmt.Errorf("put %s in place: %w", to, err)
			}
			if err := os.RemoveAll(old); err != nil {
				return fmt.Errorf("remove %s: %w", old, err)
			}
			continue
		}
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("put %s in place: %w", to, err)
		}
	}
	return nil
}

// runEntries are the names memsim writes in a run folder: a run's files and figures, the
// checkpoint of an interrupted run and a finished shard's results.
var runEntries = []string{report.ConfigFile, report.ResultsFile, report.MatchupsFile, report.ReportFile,
	report.HTMLFile, report.PlotsDir, checkpointFile, shardFile}

// folderEntries lists the names in dir, sorted: none for a missing dir. A dir that is not a folder
// is refused.
func folderEntries(dir string) ([]string, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("run folder %s: %w", dir, err)
	case !info.IsDir():
		return nil, usagef("run folder %s is a file, not a folder: choose another output folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("run folder %s: %w", dir, err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

// foreignEntries returns those of names that memsim does not write in a run folder (runEntries,
// and what its writes leave behind when stopped: leftEntry): shard folders, a merged run, anyone's
// files.
func foreignEntries(names []string) []string {
	var out []string
	for _, n := range names {
		if !leftEntry(n) && !slices.Contains(runEntries, n) {
			out = append(out, n)
		}
	}
	return out
}

// oldPlots is the name refreshFolder gives the plots/ folder it is replacing.
const oldPlots = ".old-plots"

// leftEntry reports whether name is one that memsim's writes leave in a run folder when they are
// stopped half way: oldPlots, or the temporary file of an atomic write of one of the run's files,
// ".<file>.tmp-<digits>" (report.WriteFileAtomic).
func leftEntry(name string) bool {
	if name == oldPlots {
		return true
	}
	for _, f := range runEntries {
		if digits, ok := strings.CutPrefix(name, "."+f+".tmp-"); ok && digits != "" && strings.Trim(digits, "0123456789") == "" {
			return true
		}
	}
	return false
}

// listNames names a few of names for a message: "a", "a and b", "a, b and c", "a, b, c and 4 more".
func listNames(names []string) string {
	q := make([]string, 0, 3)
	for _, n := range names[:min(len(names), 3)] {
		if strings.ContainsFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			n = strconv.Quote(n)
		}
		q = append(q, n)
	}
	switch {
	case len(names) > 3:
		return strings.Join(q, ", ") + " and " + strconv.Itoa(len(names)-3) + " more"
	case len(q) > 1:
		return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	}
	return q[0]
}

// checkFolderFree makes sure a new run (or a merge) may write the folder dir: missing or empty,
// or with force anything but a file. Without force, a folder that holds a run (its results,
// checkpoint, shard results or configuration) or anything else (shard folders, a merged run, any
// file) is refused, in one line that names what it holds.
func checkFolderFree(dir string, force bool) error {
	names, err := folderEntries(dir)
	names = slices.DeleteFunc(names, leftEntry) // what cleanStale removes
	if err != nil || force || len(names) == 0 {
		return err
	}
	for _, f := range []string{report.ResultsFile, checkpointFile, shardFile, report.ConfigFile} {
		if slices.Contains(names, f) {
			hint := "use --force to replace it, or choose another output folder"
			if f == checkpointFile {
				hint = "resume it with: memsim run --resume " + dir + ", or use --force to start again"
			}
			return usagef("run folder %s already holds a run (%s): %s", dir, f, hint)
		}
	}
	return usagef("run folder %s is not empty (it holds %s): use --force to replace it with all it holds, or choose another output folder", dir, listNames(names))
}

// claimRunFolder makes sure a new run may use dir, whose lock the caller holds (checkFolderFree).
// It starts the new run in a fresh folder holding only config (config.yaml), so that no file of an
// earlier run can be taken for the new one's, even if the new run is interrupted.
func claimRunFolder(dir string, force bool, config []byte) error {
	if err := checkFolderFree(dir, force); err != nil {
		return err
	}
	if err := cleanStale(dir); err != nil {
		return err
	}
	return replaceFolder(dir, force, func(staging string) error {
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

// What memsim keeps beside a run folder DIR, in its parent: .DIR.lock (lockPath), and while it
// writes DIR, .DIR.staging-* and .DIR.old-* (cleanStale removes those a killed process left).
const (
	stagingSuffix = ".staging-"
	oldSuffix     = ".old-"
)

// beside is the path of what memsim keeps beside the run folder dir: "." + dir's name + suffix,
// in dir's parent.
func beside(dir, suffix string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(filepath.Clean(dir))+suffix)
}

// newStaging creates a fresh staging folder beside dir (and dir's parent if needed), readable as
// a run folder is once it takes dir's place.
func newStaging(dir string) (string, error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", parent, err)
	}
	staging, err := os.MkdirTemp(parent, filepath.Base(beside(dir, stagingSuffix+"*")))
	if err == nil {
		if err = os.Chmod(staging, 0o755); err != nil {
			os.RemoveAll(staging)
		}
	}
	if err != nil {
		return "", fmt.Errorf("create a staging folder for %s: %w", dir, err)
	}
	return staging, nil
}
