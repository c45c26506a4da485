package rundir

import (
	"slices"
	"strings"

	"memsim/analysis/report"
)

// The files a run folder holds besides the report's: the checkpoint of an interrupted run, and a
// finished shard's results.
const (
	CheckpointFile = "checkpoint.json"
	ShardFile      = "shard.json"
)

// A Layout says what memsim writes in a kind of folder, and how messages name it.
type Layout struct {
	// Name is what such a folder holds, "run" or "audit": messages speak of a "run folder" that
	// "already holds a run".
	Name string
	// Files are the names of the files memsim writes in the folder.
	Files []string
	// Dirs are the names of the folders memsim writes in the folder (a run's plots/).
	Dirs []string
	// Marks are those of Files, in the order Check looks for them, that show the folder holds a
	// Name: Check refuses them unless forced, naming the first it finds.
	Marks []string
}

// RunLayout is the layout of a run folder: the files of a run's report and its figures
// (report.WriteDir), the checkpoint of an interrupted run and a finished shard's results; a
// folder holding results, a checkpoint, shard results or a configuration holds a run.
func RunLayout() Layout {
	return Layout{
		Name:  "run",
		Files: []string{report.ConfigFile, report.ResultsFile, report.MatchupsFile, report.ReportFile, report.HTMLFile, CheckpointFile, ShardFile},
		Dirs:  []string{report.PlotsDir},
		Marks: []string{report.ResultsFile, CheckpointFile, ShardFile, report.ConfigFile},
	}
}

// owns reports whether name is one of the entries memsim writes in a folder of layout l.
func (l *Layout) owns(name string) bool {
	return slices.Contains(l.Files, name) || slices.Contains(l.Dirs, name)
}

// oldPrefix begins the name Refresh gives a folder of the layout that it is replacing:
// ".old-plots".
const oldPrefix = ".old-"

// leftover reports whether name is one that memsim's writes leave in a folder of layout l when
// they are stopped half way: the temporary file of an atomic write of one of its entries,
// ".ENTRY.tmp-N" with N digits (report.WriteFileAtomic), or a folder of the layout moved away by
// Refresh, ".old-DIR".
func (l *Layout) leftover(name string) bool {
	if d, ok := strings.CutPrefix(name, oldPrefix); ok && slices.Contains(l.Dirs, d) {
		return true
	}
	for _, e := range slices.Concat(l.Files, l.Dirs) {
		if digits, ok := strings.CutPrefix(name, "."+e+".tmp-"); ok && allDigits(digits) {
			return true
		}
	}
	return false
}

// allDigits reports whether s is one or more decimal digits, as os.CreateTemp and os.MkdirTemp
// put in place of a pattern's "*".
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// noun is what messages call a folder of layout l: "run folder".
func (l *Layout) noun() string { return l.Name + " folder" }

// article is "an" before a word that begins with a vowel, "a" otherwise.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
