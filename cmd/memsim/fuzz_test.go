package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzCommandLine: no command line makes memsim panic or hang, and every failure is one line on
// stderr with exit status 1 or 2. Commands that would write files or play long are kept out: the
// fuzzer explores the parsing of flags and arguments. Seeds found by fuzzing are added below.
// stopFlag is an unknown flag the fuzzer adds to the commands that would play or write, so that
// they stop once their flags are parsed.
const stopFlag = "--no-such-flag-stops-it"

// withStopFlag adds stopFlag where it is parsed as a flag after all the others: before the "--"
// that ends the flags, if any, and after a value for the flag before it, which would otherwise
// take it as its value.
func withStopFlag(args []string) []string {
	k := slices.Index(args, "--")
	if k < 0 {
		k = len(args)
	}
	insert := []string{stopFlag}
	if last := args[k-1]; k > 1 && strings.HasPrefix(last, "-") && !strings.Contains(last, "=") {
		insert = []string{"0", stopFlag}
	}
	return slices.Concat(args[:k], insert, args[k:])
}

func FuzzCommandLine(f *testing.F) {
	seeds := []string{
		"solve --pairs 3", "solve --pairs 3 --memory 2 --forget lru --json", "solve --table --pairs-max 4",
		"solve --gerez --cards 6 --known 2 --paired 0", "solve --pairs -1", "solve --pairs 99999999999999999999",
		"solve --pass sometimes --pairs 2", "bench --pairs 0", "bench --games x", "run --workers -5",
		"run --shard 0/0", "run --resume", "replay --game x", "validate --level 2", "merge", "audit --games 1",
		"report", "frobnicate", "solve --pairs 2 --players 9", "solve --gerez --cards 7",
		"solve --pairs=3 --unknown=-0", "solve ---pairs 3", "solve --pairs 3 extra",
		// Flags after the arguments, and -- ending the flags.
		"run cfg.yaml --games 10", "run cfg.yaml --shard 1/2 --quiet", "merge a b --out x", "merge a -- --out x",
		"solve --json -- --pairs 3", "solve --pairs", "run --games", "run --", "bench --", "audit --output",
		"audit --output -- x", "report DIR --force", "replay --game 0 --pairs 0", "validate s.yaml --games 0",
		"run --games 0 -", "solve - --pairs 2",
		// version, help and did-you-mean.
		"version", "--version", "-version", "version --json", "version now", "help", "help run", "help rnu",
		"help run solve", "rnu", "slove --pairs 2", "run --gmes 5", "solve --pair 3", "--pairs 3", "RUN",
		"merge --output x", "solve --unkown 2 --pairs 3",
		// Large numbers, refused by the bounds before any work.
		"solve --pairs 9223372036854775807", "solve --pairs 1000000000 --float", "solve --table --pairs-max 10000000000",
		"solve --pairs 3 --singletons 10000000 --float", "run --games 9223372036854775807", "bench --games 1000000000000000",
		"solve --pairs 20 --lead 99999999", "validate --games 1",
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
			args = withStopFlag(args)
		}
		// Sizes are bounded by solve's limits; within them a big exact state takes long, and the
		// solver stops when the context ends (exit status 1, one line).
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		var out, errb bytes.Buffer
		code := run(ctx, args, noEnv, &out, &errb)
		switch {
		case code == exitOK:
		case code != exitError && code != exitUsage:
			t.Fatalf("%q: exit %d", line, code)
		case strings.Count(errb.String(), "\n") != 1:
			t.Fatalf("%q: stderr is not one line: %q", line, errb.String())
		}
	})
}
