package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzCommandLine: no command line makes memsim panic or hang, and every failure is one line on
// stderr with exit status 1 or 2. Commands that would write files or play long are kept out: the
// fuzzer explores the parsing of flags and arguments. Seeds found by fuzzing are added below.
var numberPattern = regexp.MustCompile(`[0-9]+`)

func FuzzCommandLine(f *testing.F) {
	seeds := []string{
		"solve --pairs 3", "solve --pairs 3 --memory 2 --forget lru --json", "solve --table --pairs-max 4",
		"solve --gerez --cards 6 --known 2 --paired 0", "solve --pairs -1", "solve --pairs 99999999999999999999",
		"solve --pass sometimes --pairs 2", "bench --pairs 0", "bench --games x", "run --workers -5",
		"run --shard 0/0", "run --resume", "replay --game x", "validate --level 2", "merge", "audit --games 1",
		"report", "frobnicate", "solve --pairs 2 --players 9", "solve --gerez --cards 7",
		"solve --pairs=3 --unknown=-0", "solve ---pairs 3", "solve --pairs 3 extra",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 {
			return
		}
		switch args[0] {
		case "run", "validate", "audit", "merge", "report", "bench", "replay", "demo":
			// Keep only what fails in parsing: these commands would otherwise play or write.
			if !strings.Contains(line, "-") || strings.Contains(line, "--help") || strings.Contains(line, "-h") {
				return
			}
			args = append(args, "--no-such-flag-stops-it")
		case "solve":
			// Bound the work: the solver is exact, and big states take long.
			for _, m := range numberPattern.FindAllString(line, -1) {
				if n, err := strconv.Atoi(m); err != nil || n > 30 {
					return
				}
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var out, errb bytes.Buffer
		code := run(ctx, args, &out, &errb)
		switch {
		case code == exitOK:
		case code != exitError && code != exitUsage:
			t.Fatalf("%q: exit %d", line, code)
		case strings.Count(errb.String(), "\n") != 1:
			t.Fatalf("%q: stderr is not one line: %q", line, errb.String())
		}
	})
}
