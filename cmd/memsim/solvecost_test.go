package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// A solve estimated beyond the bounds is refused before any work, with one line naming the flags
// that make it big, the estimate and --big; exit status 2.
func TestSolveRefusesABigSolveWithItsEstimate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args   []string
		prefix string
	}{
		{[]string{"--pairs", "1000", "--distribution"}, "--pairs 1000 --distribution: about "},
		{[]string{"--distribution", "--pairs", "400", "--unknown", "3"}, "--pairs 400 --distribution: about "},
		{[]string{"--pairs", "1000", "--players", "8"}, "--pairs 1000 --players 8: about "},
		{[]string{"--pairs", "1000", "--memory", "1000", "--forget", "lru"}, "--pairs 1000 --memory 1000 --forget lru: about "},
		{[]string{"--pairs", "60", "--policy", "win-optimal", "--opponent", "optimal", "--distribution"},
			"--pairs 60 --policy win-optimal --opponent optimal --distribution: about "},
		{[]string{"--pairs", "19000", "--float"}, "--pairs 19000 --float: about "},
		{[]string{"--table", "--pairs-max", "60", "--policy", "win-optimal", "--singletons", "3"},
			"--table --pairs-max 60 --singletons 3 --policy win-optimal: about "},
		{[]string{"--gerez", "--cards", "400", "--known", "10", "--paired", "2"}, "--gerez --cards 400: about "},
	} {
		start := time.Now()
		out, stderr, code := runArgs(t, append([]string{"solve"}, tt.args...)...)
		wantOneLineExit(t, strings.Join(tt.args, " "), code, exitUsage, stderr, "memsim solve: "+tt.prefix,
			" operations and ", " on one core; add --big to solve it anyway")
		if out != "" {
			t.Errorf("%v: printed %q", tt.args, out)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v: refused after %v: the estimate must come before the work", tt.args, d)
		}
	}
}

// The refusal docs/solver.md quotes is the one memsim prints.
func TestSolverGuideQuotesTheRefusal(t *testing.T) {
	t.Parallel()
	_, stderr, _ := runArgs(t, "solve", "--pairs", "1000", "--distribution")
	doc, err := os.ReadFile("../../docs/solver.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\n"+stderr) {
		t.Errorf("docs/solver.md does not quote the refusal %q", stderr)
	}
}

// --big solves what is beyond the bounds: the solve starts (and here is interrupted).
func TestSolveBigSolvesAnyway(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer time.AfterFunc(300*time.Millisecond, cancel).Stop()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"solve", "--pairs", "1000", "--distribution", "--big"}, noEnv, &out, &errb)
	wantOneLineExit(t, "--big", code, exitError, errb.String(), "memsim solve: interrupted")
}

// The solves the documentation shows, and the largest the solver's tables are measured at, are
// within the bounds.
func TestDocumentedSolvesAreNotRefused(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--pairs", "1000"},
		{"--table", "--pairs-max", "1000"},
		{"--table", "--pairs-max", "200", "--pass", "two-known", "--choices", "daring,safe,pass"},
		{"--pairs", "52", "--policy", "win-optimal", "--opponent", "optimal", "--float"},
		{"--pairs", "26", "--policy", "optimal", "--opponent", "win-optimal"},
		{"--pairs", "26", "--distribution"},
		{"--table", "--pairs-max", "52", "--policy", "win-optimal", "--float"},
		{"--pairs", "20", "--players", "1"},
		{"--pairs", "100", "--players", "8"},
		{"--gerez", "--cards", "100", "--known", "3", "--paired", "0"},
	} {
		var fl solveFlags
		fs := newSolveFlagSet(&fl)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		var err error
		if fl.gerez {
			err = checkCost(gerezCost(fl), false, fs)
		} else {
			q, qerr := fl.query(given(fs))
			if qerr != nil {
				t.Fatalf("%v: %v", args, qerr)
			}
			c, cerr := q.cost()
			if cerr != nil {
				t.Fatalf("%v: %v", args, cerr)
			}
			err = checkCost(c, false, fs)
		}
		if err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

func TestCostTexts(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{sci(3.14e10), "3.1e10"},
		{sci(9.96e10), "1.0e11"},
		{sci(1), "1.0e0"},
		{sci(0.5), "0"},
		{byteSize(2e5), "1 MB"},
		{byteSize(7.8e8), "780 MB"},
		{byteSize(8.14e9), "8.1 GB"},
		{byteSize(1.921e11), "192 GB"},
		{byteSize(3.2e12), "3.2 TB"},
		{byteSize(4.5e15), "4.5e3 TB"},
		{duration(40), "40 s"},
		{duration(9 * 60), "9 min"},
		{duration(3 * 3600), "3 h"},
		{duration(12 * 86400), "12 days"},
		{duration(5 * 365.25 * 86400), "5 years"},
		{duration(2e3 * 365.25 * 86400), "2.0e3 years"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
