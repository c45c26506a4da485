package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/schollz/progressbar/v3"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"memsim/configs"
	"memsim/sim"
	"memsim/tournament"
)

// wantUsageError runs args and checks that memsim answers with exactly the line want on stderr,
// nothing on stdout, and exit status 2.
func wantUsageError(t *testing.T, args []string, want string) {
	t.Helper()
	stdout, stderr, code := runArgs(t, args...)
	if code != exitUsage || stderr != want+"\n" || stdout != "" {
		t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and the one line %q", args, code, stdout, stderr, want)
	}
}

func TestInterleave(t *testing.T) {
	t.Parallel()
	fs := newFlagSet("memsim test")
	fs.Int("games", 0, "")
	fs.String("out", "", "")
	fs.Bool("quiet", false, "")
	tests := []struct{ args, want []string }{
		{nil, []string{"--"}},
		{[]string{"a.yaml", "--games", "10"}, []string{"--games", "10", "--", "a.yaml"}},
		{[]string{"x", "--out", "d", "y", "--quiet", "z"}, []string{"--out", "d", "--quiet", "--", "x", "y", "z"}},
		// A boolean flag takes no separate value; --flag=value keeps its value.
		{[]string{"--quiet", "a.yaml", "--games=3"}, []string{"--quiet", "--games=3", "--", "a.yaml"}},
		// A value flag takes the next word whatever it looks like, as the flag package does.
		{[]string{"--games", "-5", "a"}, []string{"--games", "-5", "--", "a"}},
		{[]string{"-games", "5", "-quiet=false"}, []string{"-games", "5", "-quiet=false", "--"}},
		// -- ends the flags, and a lone - is an argument.
		{[]string{"a", "--", "--games", "-"}, []string{"--", "a", "--games", "-"}},
		{[]string{"-", "--quiet"}, []string{"--quiet", "--", "-"}},
		// Unknown flags stay among the flags (fs.Parse reports them) and take no value.
		{[]string{"a", "--gmes", "5"}, []string{"--gmes", "--", "a", "5"}},
		// A value flag that ends the line is left to fs.Parse to report.
		{[]string{"a", "--games"}, []string{"--games"}},
	}
	for _, tt := range tests {
		if got := interleave(fs, tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("interleave(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// Flags may follow the arguments, as in the README's memsim run CONFIG --shard i/N and in
// memsim merge SHARD_DIR... --out DIR, and are taken as flags there (TestShardsAndMerge plays
// both forms to the single run's files).
func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "small", smallTournament)
	run := filepath.Join(dir, "out", "small")
	nowhere := filepath.Join(dir, "nowhere")
	// The flags are taken as flags: --out names the folder and the shards are read.
	wantUsageError(t, []string{"merge", nowhere, "--out", filepath.Join(dir, "merged"), "--force"},
		"memsim merge: shard "+nowhere+": stat "+filepath.Join(nowhere, "config.yaml")+": no such file or directory")
	wantUsageError(t, []string{"run", cfg, "--shard", "3/2", "--quiet"}, `memsim run: --shard "3/2": must be i/N with 1 <= i <= N, for example 2/8`)
	// Errors in flags after the arguments are the errors of flags before them.
	wantUsageError(t, []string{"run", cfg, "--games", "x"}, `memsim run: --games "x": must be a whole number`)
	wantUsageError(t, []string{"run", cfg, "--games"}, "memsim run: --games needs a value: G games per matchup and deal size, at least 1 (default: the configuration's)")
	wantUsageError(t, []string{"run", cfg, "--games", "5", "--resume", run}, "memsim run: --resume takes the run folder's own configuration and shard: no CONFIG, --games, --force or --shard")
	wantUsageError(t, []string{"merge", filepath.Join(run, "shard-1-of-2")}, "memsim merge: --out DIR is required: the run folder to write")
	// -- ends the flags: what follows is an argument even when it looks like a flag.
	wantUsageError(t, []string{"solve", "--", "--pairs", "3"}, `memsim solve: unexpected argument "--pairs" (all input is given by flags; see memsim solve -h)`)
	if out, _, code := runArgs(t, "solve", "--json", "--", "--pairs", "3"); code != exitUsage || out != "" {
		t.Errorf("solve --json -- --pairs 3: exit %d, %q", code, out)
	}
	if out, stderr, code := runArgs(t, "solve", "--pairs", "2", "-h"); code != exitOK || !strings.Contains(out, "Usage:") || stderr != "" {
		t.Errorf("-h after flags: exit %d, %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		stdout, stderr, code := runArgs(t, args...)
		want := " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
		if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "memsim ") || !strings.HasSuffix(stdout, want) || strings.Count(stdout, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	stdout, _, code := runArgs(t, "version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(stdout), &v); code != exitOK || err != nil || v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("version --json: exit %d, %v, %q", code, err, stdout)
	}
	wantUsageError(t, []string{"version", "now"}, `memsim version: unexpected argument "now" (version takes no arguments)`)
	wantUsageError(t, []string{"version", "--jsn"}, "memsim version: unknown flag --jsn (did you mean --json?)")

	// What a build from a git checkout records (go version -m), and a build without it.
	bi, err := debug.ParseBuildInfo("path\tmemsim/cmd/memsim\nmod\tmemsim\tv0.0.0-20261123133016-c6af79a8e884+dirty\t\n" +
		"build\tGOARCH=arm64\nbuild\tGOOS=darwin\nbuild\tvcs=git\nbuild\tvcs.revision=c6af79a8e884b469892c9d80faf34c688d26b1ee\n" +
		"build\tvcs.time=2026-11-23T13:30:16Z\nbuild\tvcs.modified=true\n")
	if err != nil {
		t.Fatal(err)
	}
	bi.GoVersion = "go1.26.0" // the toolchain, which go version -m prints first
	got := versionOf(bi).String()
	want := "memsim v0.0.0-20261123133016-c6af79a8e884+dirty, revision c6af79a8e884b469892c9d80faf34c688d26b1ee (2026-11-23T13:30:16Z, modified), go1.26.0 darwin/arm64"
	if got != want {
		t.Errorf("version of a git build:\n got %s\nwant %s", got, want)
	}
	bare := &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "memsim", Version: "(devel)"}}
	if got, want := versionOf(bare).String(), "memsim (devel), go1.26.1 "+runtime.GOOS+"/"+runtime.GOARCH; got != want {
		t.Errorf("version without VCS information: %q, want %q", got, want)
	}
	if got := versionOf(nil); got.Version != "(devel)" || got.Go != runtime.Version() {
		t.Errorf("version without build information: %+v", got)
	}
}

func TestDidYouMean(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"rnu"}, `memsim: unknown command "rnu" (did you mean run?)`},
		{[]string{"slove", "--pairs", "3"}, `memsim: unknown command "slove" (did you mean solve?)`},
		{[]string{"valdiate"}, `memsim: unknown command "valdiate" (did you mean validate?)`},
		{[]string{"Bench"}, `memsim: unknown command "Bench" (did you mean bench?)`},
		{[]string{"rep"}, `memsim: unknown command "rep" (did you mean report or replay?)`},
		{[]string{"frobnicate"}, `memsim: unknown command "frobnicate" (allowed: solve, run, validate, report, audit, merge, replay, play, review, serve, bench, engine, demo, help, version)`},
		{[]string{"help", "rnu"}, `memsim help: unknown command "rnu" (did you mean run?)`},
		{[]string{"--pairs", "3"}, "memsim: flag --pairs before the command: give the command first, then its flags (allowed commands: solve, run, validate, report, audit, merge, replay, play, review, serve, bench, engine, demo, help, version)"},
		{[]string{"run", "--gmes", "5"}, "memsim run: unknown flag --gmes (did you mean --games?)"},
		{[]string{"run", "cfg.yaml", "-qiuet"}, "memsim run: unknown flag --qiuet (did you mean --quiet?)"},
		{[]string{"solve", "--pair", "3"}, "memsim solve: unknown flag --pair (did you mean --pairs?)"},
		{[]string{"solve", "--pairs", "3", "--unkown", "2"}, "memsim solve: unknown flag --unkown (did you mean --unknown?)"},
		{[]string{"solve", "--pairs=3", "--memroy=2"}, "memsim solve: unknown flag --memroy (did you mean --memory?)"},
		{[]string{"merge", "--output", "x"}, "memsim merge: unknown flag --output (did you mean --out?)"},
		{[]string{"audit", "--out", "x"}, "memsim audit: unknown flag --out (did you mean --output?)"},
		{[]string{"bench", "--bogus"}, "memsim bench: unknown flag --bogus (see memsim bench -h)"},
	} {
		wantUsageError(t, tt.args, tt.want)
	}
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"rnu", "run", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ab", "ba", 1}, {"games", "games", 0}, {"ca", "abc", 3}} {
		if d := distance(tt.a, tt.b); d != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
	}
}

// One wording for every missing required flag or argument: "WHAT is required[ with FLAG]: why".
func TestRequiredMessages(t *testing.T) {
	t.Parallel()
	pattern := regexp.MustCompile(`^memsim [a-z]+: (--[a-z-]+ [A-Z]+|[A-Z_.]+) is required( with --[a-z-]+( [a-z0-9-]+)?)?: [a-z]`)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "memsim solve: --pairs N is required: the pairs on the table, a whole number of at least 1"},
		{[]string{"solve", "--table"}, "memsim solve: --pairs-max N is required with --table: the largest deal size of the table, at least 1"},
		{[]string{"solve", "--gerez"}, "memsim solve: --cards K is required with --gerez: the cards on the table (even, 2 to 400)"},
		{[]string{"solve", "--pairs", "3", "--memory", "3"}, "memsim solve: --forget RULE is required with --memory 3: the forgetting rule of the limited memory (allowed: handover-uniform, lru, decay)"},
		{[]string{"solve", "--pairs", "3", "--policy", "best-response"}, "memsim solve: --opponent B is required with --policy best-response: the policy it answers (allowed: optimal, safe, daring, parity)"},
		{[]string{"merge", "a", "b"}, "memsim merge: --out DIR is required: the run folder to write"},
		{[]string{"merge", "--out", "x"}, "memsim merge: SHARD_DIR... is required: the shard folders to merge"},
		{[]string{"replay"}, "memsim replay: --game G is required: the game to replay (0-based)"},
		{[]string{"replay", "--pairs", "12"}, "memsim replay: --game G is required: the game to replay (0-based)"},
		{[]string{"report"}, "memsim report: DIR is required: the run folder whose report to regenerate"},
	} {
		wantUsageError(t, tt.args, tt.want)
		if !pattern.MatchString(tt.want) {
			t.Errorf("%q does not have the one wording", tt.want)
		}
	}
}

// A flag not given takes its default; a value given is used as it is, so 0 is an error wherever
// 0 makes no sense, in every command (run, validate and replay included, whose defaults come from
// the configuration). Each command's help says so.
func TestZeroMeansZero(t *testing.T) {
	t.Parallel()
	tiny := writeConfig(t, t.TempDir(), "tiny", tinyTournament)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--games", "0"}, "memsim run: --games 0: must be between 1 and 100000000000"},
		{[]string{"run", "--workers", "-1"}, "memsim run: --workers -1: must be between 0 (one per CPU) and 1024"},
		{[]string{"run", "--shard", ""}, `memsim run: --shard "": must be i/N with 1 <= i <= N, for example 2/8`},
		{[]string{"run", "--resume", ""}, `memsim run: --resume "": give the run folder to resume`},
		{[]string{"validate", "--games", "0"}, "memsim validate: --games 0: must be between 100 and 100000000000 (the tests' normal approximations need at least 100 games per matchup)"},
		{[]string{"audit", "--games", "0"}, "memsim audit: --games 0: must be between 100 and 100000000000"},
		{[]string{"audit", "--output", ""}, `memsim audit: --output "": give the folder to write the audit to`},
		{[]string{"bench", "--games", "0"}, "memsim bench: --games 0: must be between 1 and 100000000000"},
		{[]string{"bench", "--forget", "decay", "--q", "0"}, "memsim bench: --q 0: must be in (0, 1]"},
		{[]string{"bench", "--forget", "decay"}, "memsim bench: --q Q is required with --forget decay: the probability that each remembered card is forgotten at a hand-over, 0 < Q <= 1"},
		{[]string{"bench", "--q", "0.3"}, "memsim bench: --q 0.3 goes with --forget decay"},
		{[]string{"bench", "--forget", "lru", "--memory", "3", "--q", "0.3"}, "memsim bench: --q 0.3 goes with --forget decay"},
		{[]string{"replay", "--config", tiny, "--game", "0", "--pairs", "0"}, "memsim replay: --pairs 0: the run's deal sizes are [3 4]"},
		{[]string{"replay", "--game", "0", "--config", ""}, `memsim replay: --config "": give the run's configuration file or run folder`},
		{[]string{"solve", "--pairs", "0"}, "memsim solve: --pairs 0: must be at least 1"},
		{[]string{"solve", "--table", "--pairs-max", "0"}, "memsim solve: --pairs-max 0: must be at least 1"},
	} {
		wantUsageError(t, tt.args, tt.want)
	}
	if _, stderr, code := runArgs(t, "replay", "--config", tiny, "--game", "0", "--players", ""); code != exitUsage || !strings.HasPrefix(stderr, `memsim replay: --players "": not a seat order of the run at 3 pairs (allowed: greedy,random;`) {
		t.Errorf(`replay --players "": exit %d, %q`, code, stderr)
	}
	for _, cmd := range []string{"solve", "run", "validate", "audit", "replay", "bench"} {
		out, _, code := runArgs(t, cmd, "-h")
		if code != exitOK || !strings.Contains(strings.Join(strings.Fields(out), " "), "A flag not given takes its default") {
			t.Errorf("memsim %s -h does not state the rule for flags not given", cmd)
		}
	}
}

// validate --json keeps every field of every check, zeros included.
func TestValidationJSONKeepsZeros(t *testing.T) {
	t.Parallel()
	zero, zeroDf := 0.0, 0
	res := &tournament.Validation{Games: 0, Level: 0.01, Checks: []tournament.Check{
		{Name: "a/n=1/x vs y/mean pairs seat 0", Family: "perfect", Test: "z", Pass: true, Statistic: 0, PValue: 1, PHolm: 1, Observed: &zero, Expected: &zero},
		{Name: "a/n=1/x vs y/distribution", Family: "perfect", Test: "G", Pass: true, Statistic: 0, Df: &zeroDf, PValue: 1, PHolm: 1},
	}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"games":0,"level":0.01,"checks":[` +
		`{"name":"a/n=1/x vs y/mean pairs seat 0","family":"perfect","test":"z","pass":true,"statistic":0,"df":null,"p_value":1,"p_holm":1,"rejected":false,"observed":0,"expected":0},` +
		`{"name":"a/n=1/x vs y/distribution","family":"perfect","test":"G","pass":true,"statistic":0,"df":0,"p_value":1,"p_holm":1,"rejected":false,"observed":null,"expected":null}]}`
	if string(b) != want {
		t.Errorf("validate --json:\n got %s\nwant %s", b, want)
	}
}

// syncBuffer is a bytes.Buffer that one goroutine may write while another reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Each command's progress lines name that command.
func TestProgressNamesItsCommand(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"memsim run", "memsim validate"} {
		var buf syncBuffer
		p := startProgressEvery(&buf, name, 100, false, time.Millisecond)
		p.done.Add(40)
		// A line comes every millisecond or so; a busy machine may delay them.
		want := name + ": 40 of 100 games (40.0%)"
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(buf.String(), want) && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		p.finish()
		out := buf.String()
		if !strings.Contains(out, "\n"+want) && !strings.HasPrefix(out, want) {
			t.Errorf("%s: no line %q... in the progress %q", name, want, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, name+": ") {
				t.Errorf("%s: progress line %q", name, line)
			}
		}
	}
	var buf bytes.Buffer
	p := startProgressEvery(&buf, "memsim validate", 100, true, time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	p.finish()
	if buf.Len() != 0 {
		t.Errorf("--quiet wrote %q", buf.String())
	}
}

// memsim audit, like run, does not replace a folder that holds an audit unless --force is given.
func TestAuditRefusesToOverwrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "audit.md"), []byte("an earlier audit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantUsageError(t, []string{"audit", "--output", dir}, "memsim audit: audit folder "+dir+" already holds an audit (audit.md): use --force to replace it")
	if data, _ := os.ReadFile(filepath.Join(dir, "audit.md")); string(data) != "an earlier audit\n" {
		t.Error("the refused audit changed audit.md")
	}
	if _, err := os.Stat(filepath.Join(dir, "audit.json")); !os.IsNotExist(err) {
		t.Errorf("the refused audit wrote audit.json: %v", err)
	}
}

func TestHelpCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"help", "help"}} {
		if out, _, code := runArgs(t, args...); code != exitOK || !strings.HasPrefix(out, "memsim: exact solver") {
			t.Errorf("%q: exit %d, %q", args, code, out)
		}
	}
	for _, c := range commandNames() {
		if c == "help" {
			continue
		}
		a, _, code1 := runArgs(t, "help", c)
		b, _, code2 := runArgs(t, c, "-h")
		if code1 != exitOK || code2 != exitOK || a != b || !strings.HasPrefix(a, "Usage:") {
			t.Errorf("help %s: exit %d and %d, %q", c, code1, code2, a)
		}
	}
	wantUsageError(t, []string{"help", "run", "solve"}, "memsim help: one command at most, got 2: [run solve]")
	// -h lists the flags as they are written, --name VALUE.
	out, _, _ := runArgs(t, "run", "--no-figures", "-h")
	if !strings.Contains(out, "\n  --games G\n") || strings.Contains(out, "\n  -games") {
		t.Errorf("run -h lists the flags as:\n%s", out)
	}
}

// The progress text says "estimating…" before there is an estimate, then the time left "at most"
// with a stopping rule, or as a range.
func TestTimeLeftText(t *testing.T) {
	t.Parallel()
	plans := []tournament.MatchPlan{{Games: 1000, Pairs: 10, Players: []string{"a", "b"}}}
	var ps []*progress
	for _, stopped := range []bool{false, true} {
		p := &progress{done: new(atomic.Int64), est: tournament.NewTimeLeft(plans), stopped: stopped}
		if _, text := p.rate(0, time.Second); text != "estimating…" {
			t.Errorf("before the first match: %q", text)
		}
		p.startMatch(0, 0)
		ps = append(ps, p)
	}
	time.Sleep(250 * time.Millisecond) // past the time the pace of the match under way needs
	for _, p := range ps {
		p.done.Add(300)
		_, text := p.rate(p.done.Load(), time.Second)
		if !strings.HasSuffix(text, " left") || strings.HasPrefix(text, "at most ") != p.stopped {
			t.Errorf("stopping rule %v: %q", p.stopped, text)
		}
	}
}

// A range of time left is written in the unit of its upper end, rounded outward, or as one value
// when both ends round to it.
func TestLeftText(t *testing.T) {
	t.Parallel()
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	for _, tt := range []struct {
		low, high float64
		stopped   bool
		want      string
	}{
		{240, 360, false, "4–6 min left"},
		{250, 350, false, "4–6 min left"},
		{300, 300, false, "about 5 min left"},
		{40, 60, false, "40–60 s left"},
		{41, 59, false, "40–60 s left"},
		{40, 180, false, "40 s–3 min left"},
		{3, 7.2, false, "3–8 s left"},
		{0.2, 0.4, false, "about 1 s left"},
		{2 * 3600, 3 * 3600, false, "2.0–3.0 h left"},
		{20 * 3600, 30 * 3600, false, "20–30 h left"},
		{240, 360, true, "at most 6 min left"},
		{3 * 86400, 4 * 86400, false, "3–4 days left"},
	} {
		est := tournament.Estimate{Low: sec(tt.low), Mid: sec((tt.low + tt.high) / 2), High: sec(tt.high)}
		if got := leftText(est, true, tt.stopped); got != tt.want {
			t.Errorf("%v to %v s (stopped %v): %q, want %q", tt.low, tt.high, tt.stopped, got, tt.want)
		}
	}
	if got := leftText(tournament.Estimate{}, false, false); got != "estimating…" {
		t.Errorf("without an estimate: %q", got)
	}
}

// The progress bar's line fits the terminal's width, less its last column, whatever it holds,
// keeping a bar of 20 columns at 80; the parts that give way go first.
func TestProgressLineFitsTheWidth(t *testing.T) {
	t.Parallel()
	full := barLine{done: 493217, total: 4000000, count: "493,217/4,000,000 games", rate: "173,000 games/s",
		left: "40 s–3 min left", note: "win-optimal 13.41 - 12.59 forgetful after 98304 games, 26 pairs"}
	solving := barLine{label: "solving", done: 5, total: 9, left: "about 40 s left"}
	for _, l := range []barLine{full, solving, {done: 1, total: 1, left: "estimating…"}} {
		for _, width := range []int{10, 20, 40, 60, 80, 100, 120, 160, 200} {
			line := l.render(width)
			n := utf8.RuneCountInString(line)
			if n > width-1 {
				t.Errorf("width %d: %d columns: %q", width, n, line)
			}
			_, rest, _ := strings.Cut(line, "|")
			inner, _, _ := strings.Cut(rest, "|")
			if width >= 80 && utf8.RuneCountInString(inner) < 20 {
				t.Errorf("width %d: a bar of %d columns: %q", width, utf8.RuneCountInString(inner), line)
			}
			if width >= 40 && !strings.Contains(line, l.left) {
				t.Errorf("width %d: no time left in %q", width, line)
			}
		}
	}
	// At 80 columns the note gives way; at 200 it is shown whole.
	if line := full.render(80); strings.Contains(line, "win-optimal") || !strings.Contains(line, "173,000 games/s") {
		t.Errorf("at 80 columns: %q", line)
	}
	if line := full.render(200); !strings.Contains(line, full.note) || !strings.Contains(line, full.count) {
		t.Errorf("at 200 columns: %q", line)
	}
	// The bar is filled in proportion to the share done.
	half := barLine{done: 1, total: 2, left: "about 1 s left"}.render(80)
	_, rest, _ := strings.Cut(half, "|")
	inner, _, _ := strings.Cut(rest, "|")
	if f, n := strings.Count(inner, "█"), utf8.RuneCountInString(inner); f != n/2 {
		t.Errorf("half done: %d of %d filled: %q", f, n, half)
	}
}

// The line the width is fitted on is, character for character, what progressbar draws.
func TestProgressLineIsWhatProgressbarDraws(t *testing.T) {
	t.Parallel()
	for _, l := range []barLine{
		{done: 493217, total: 4000000, count: "493,217/4,000,000 games", rate: "173,000 games/s", left: "4–6 min left", note: "a 13.41 - 12.59 b"},
		{label: "solving", done: 5, total: 9, left: "about 40 s left"},
		{done: 0, total: 7, left: "estimating…"},
		{done: 7, total: 7, left: "about 1 s left"},
	} {
		for _, inner := range []int{1, 20, 33} {
			var buf bytes.Buffer
			pb := progressbar.NewOptions64(l.total, progressbar.OptionSetWriter(&buf), progressbar.OptionSetWidth(inner),
				progressbar.OptionSetPredictTime(false), progressbar.OptionSetElapsedTime(false),
				progressbar.OptionShowDescriptionAtLineEnd(), progressbar.OptionThrottle(0), progressbar.OptionUseANSICodes(true))
			buf.Reset()
			pb.Describe(l.desc())
			_ = pb.Set64(l.done)
			drawn := buf.String()
			drawn = strings.TrimSuffix(drawn[strings.LastIndex(drawn, "\r")+1:], "\x1b[0K") // clears the rest
			if want := l.text(inner); drawn != want {
				t.Errorf("inner %d:\n progressbar draws %q\n fitted on      %q", inner, drawn, want)
			}
		}
	}
}

// COLUMNS, when a positive number, gives the width of the terminal; else 80 when it is not one.
func TestColumns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env  string
		want int
	}{{"132", 132}, {"", 80}, {"0", 80}, {"wide", 80}, {"-5", 80}} {
		if got := columns(io.Discard, func(string) string { return tt.env }); got != tt.want {
			t.Errorf("COLUMNS=%q: %d, want %d", tt.env, got, tt.want)
		}
	}
}

// The interim result names each participant with its mean pairs, the games so far and the deal
// size.
func TestInterimText(t *testing.T) {
	t.Parallel()
	cfg, err := configs.Parse("t.yaml", []byte("seed: 5\ngames: 2000\npaired: true\nrules: {pairs: [4]}\n"+
		"players: [{name: a, policy: parity}, {name: b, policy: daring}]\n"), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	share := func(k int) []int64 { s := make([]int64, 9); s[k] = 1; return s }
	// One game in each seat order: a scores 4 then 1 pairs, b 0 then 3.
	r := &sim.Result{Deals: 1, Orders: []*sim.Tally{
		{Seats: 2, Pairs: 4, Games: 1, Share: [][]int64{share(8), share(0)}},
		{Seats: 2, Pairs: 4, Games: 1, Share: [][]int64{share(6), share(2)}},
	}}
	if got, want := interim(tr, 0, r), "a 2.50 - b 1.50 after 2 games, 4 pairs"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := interim(tr, 0, nil); got != "" {
		t.Errorf("without tallies: %q", got)
	}
}
