package rundir

import (
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
	// Work are those of Marks that show work done: a folder holding only the others (a run's
	// configuration, written when it is claimed) holds none. Runs lists the folders that hold one.
	Work []string
	// Record is the one of Files that names the files memsim wrote in Dirs, each on a line of
	// its own as a Markdown image, "![TITLE](DIR/NAME)", or a list item of one link,
	// "- [TITLE](DIR/NAME)": a run's report.md. A file in one of Dirs that it does not name (and
	// that the lock file does not record) is not memsim's. Without a Record, nothing in Dirs is.
	Record string
}

// RunLayout is the layout of a run folder: the files of a run's report, its figures and its game
// records (report.WriteDir), the checkpoint of an interrupted run and a finished shard's results;
// a folder holding results, a checkpoint, shard results or a configuration holds a run, and all
// but the configuration are work; report.md names the figures in plots/ and the game records in
// records/.
func RunLayout() Layout {
	return Layout{
		Name:   "run",
		Files:  []string{report.ConfigFile, report.ResultsFile, report.MatchupsFile, report.ReportFile, report.HTMLFile, CheckpointFile, ShardFile},
		Dirs:   []string{report.PlotsDir, report.RecordsDir},
		Marks:  []string{report.ResultsFile, CheckpointFile, ShardFile, report.ConfigFile},
		Work:   []string{report.ResultsFile, CheckpointFile, ShardFile},
		Record: report.ReportFile,
	}
}

// leftover reports whether name is one that memsim's writes under token leave in a folder of
// layout l when they are stopped half way: the temporary file of an atomic write of one of its
// files, ".FILE.tmp-TOKEN-N" with N digits. No name is a leftover without a token.
func (l *Layout) leftover(name, token string) bool {
	if token == "" {
		return false
	}
	for _, e := range l.Files {
		if digits, ok := strings.CutPrefix(name, strings.TrimSuffix(tempPattern(e, token), "*")); ok && allDigits(digits) {
			return true
		}
	}
	return false
}

// tempPattern is the pattern of the temporary files of atomic writes of the file name under
// token, for os.CreateTemp: ".NAME.tmp-TOKEN-*".
func tempPattern(name, token string) string { return "." + name + ".tmp-" + token + "-*" }

// recordedIn returns the names of the files of the folder sub that the record data (Layout.Record)
// names: the NAME of each line "![TITLE](SUB/NAME)" or "- [TITLE](SUB/NAME)", NAME being one
// memsim gives a file.
func recordedIn(data []byte, sub string) []string {
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if !strings.HasPrefix(line, "![") && !strings.HasPrefix(line, "- [") || !strings.HasSuffix(line, ")") {
			continue
		}
		i := strings.LastIndex(line, "]("+sub+"/")
		if i < 0 {
			continue
		}
		if name := line[i+len(sub)+3 : len(line)-1]; recordable(name) {
			out = append(out, name)
		}
	}
	return out
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
