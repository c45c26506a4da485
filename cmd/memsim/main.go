// Command memsim answers "which way of playing Memory is best, and by how much".
//
// Usage:
//
//	memsim solve --pairs N [flags]        exact value of a position (see memsim solve -h)
//	memsim solve --table --pairs-max N    exact strategy table
//	memsim solve --gerez --cards K ...    one state of Gerez's <k, B, P> model
//	memsim run [CONFIG.yaml]              play a tournament (the embedded default without CONFIG)
//	memsim run --resume DIR               go on with an interrupted run
//	memsim merge --out DIR SHARD_DIR...   merge the shards of a run (memsim run --shard i/N)
//	memsim validate [SUITE.yaml]          compare simulation with the solver
//	memsim report DIR                     regenerate a run folder's report
//	memsim audit                          check the published claims
//	memsim replay --game G [--config F]   replay one game of a run
//	memsim bench --pairs N --policy P     games per second
//	memsim demo                           a short tour of the solver
//
// Bad input gets one line on stderr naming the file and line, or the flag and its allowed values,
// and exit status 2; a failure of the work itself exits 1.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // the command could not complete (cancelled, output failed)
	exitUsage = 2 // bad input
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `memsim: exact solver and simulator for the card game Memory

Usage:
  memsim solve --pairs N [flags]       exact value of a position (memsim solve -h lists the flags)
  memsim solve --table --pairs-max N   exact strategy table of a model
  memsim run [CONFIG.yaml]             play a tournament (memsim run -h)
  memsim validate [SUITE.yaml]         compare simulation with the solver (memsim validate -h)
  memsim report DIR                    regenerate a run folder's report.md and report.html
  memsim audit                         check the published claims (memsim audit -h)
  memsim merge --out DIR SHARD_DIR...  merge the shards of a run (memsim run --shard i/N)
  memsim replay --game G [--config F]  replay one game of a run and print its move log
  memsim bench --pairs N --policy P    games per second of P against itself (memsim bench -h)
  memsim demo                          a short tour of the solver
  memsim help                          this text
`

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "memsim: missing command (allowed: solve, run, validate, report, audit, merge, replay, bench, demo, help)")
		return exitUsage
	}
	switch args[0] {
	case "solve":
		return runSolve(ctx, args[1:], stdout, stderr)
	case "run":
		return runRun(ctx, args[1:], stdout, stderr)
	case "validate":
		return runValidate(ctx, args[1:], stdout, stderr)
	case "merge":
		return runMerge(ctx, args[1:], stdout, stderr)
	case "audit":
		return runAudit(ctx, args[1:], stdout, stderr)
	case "report":
		return runReport(ctx, args[1:], stdout, stderr)
	case "replay":
		return runReplay(ctx, args[1:], stdout, stderr)
	case "bench":
		return runBench(ctx, args[1:], stdout, stderr)
	case "demo":
		return runDemo(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "memsim: unknown command %q (allowed: solve, run, validate, report, audit, merge, replay, bench, demo, help)\n", args[0])
	return exitUsage
}
