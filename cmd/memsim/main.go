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
//	memsim bench [--pairs N] [--policy P] games per second
//	memsim demo                           a short tour of the solver
//	memsim version                        the version of this build
//	memsim help [COMMAND]                 the usage, or a command's help
//
// Flags come after the command, before or after its arguments ("--" ends them); a flag not
// given takes its default, and a value given is used as it is.
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
	"strings"
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
  memsim solve --pairs N [flags]         exact value of a position (memsim solve -h lists the flags)
  memsim solve --table --pairs-max N     exact strategy table of a model
  memsim run [CONFIG.yaml]               play a tournament (memsim run -h)
  memsim validate [SUITE.yaml]           compare simulation with the solver (memsim validate -h)
  memsim report DIR                      regenerate a run folder's report.md and report.html
  memsim audit                           check the published claims (memsim audit -h)
  memsim merge --out DIR SHARD_DIR...    merge the shards of a run (memsim run --shard i/N)
  memsim replay --game G [--config F]    replay one game of a run and print its move log
  memsim bench [--pairs N] [--policy P]  games per second of P against itself (memsim bench -h)
  memsim demo                            a short tour of the solver
  memsim version                         the version of this build (also memsim --version)
  memsim help [COMMAND]                  this text, or a command's help (memsim COMMAND -h)

Flags go after the command, before or after its arguments (-- ends them); a flag not given
takes its default, and a value given is used as it is.
`

// command is one of memsim's commands.
type command struct {
	name string
	run  func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists memsim's commands in the order messages name them.
func commands() []command {
	return []command{
		{"solve", runSolve}, {"run", runRun}, {"validate", runValidate}, {"report", runReport},
		{"audit", runAudit}, {"merge", runMerge}, {"replay", runReplay}, {"bench", runBench},
		{"demo", runDemo}, {"help", runHelp}, {"version", runVersion},
	}
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		fmt.Fprintf(stderr, "memsim: missing command (allowed: %s)\n", strings.Join(commandNames(), ", "))
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return runHelp(ctx, args[1:], stdout, stderr)
	case "-version", "--version":
		return runVersion(ctx, args[1:], stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintln(stderr, "memsim: "+unknownCommand(args[0]))
	return exitUsage
}

// unknownCommand says that name is no command, with the likeliest one meant.
func unknownCommand(name string) string {
	names := commandNames()
	if strings.HasPrefix(name, "-") {
		return fmt.Sprintf("flag %s before the command: give the command first, then its flags (allowed commands: %s)", name, strings.Join(names, ", "))
	}
	if s := suggest(name, names); s != "" {
		return fmt.Sprintf("unknown command %q (did you mean %s?)", name, s)
	}
	return fmt.Sprintf("unknown command %q (allowed: %s)", name, strings.Join(names, ", "))
}

// runHelp prints the usage, or with a command's name that command's help (as memsim COMMAND -h).
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usage)
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(stderr, "memsim help: one command at most, got %d: %v\n", len(args), args)
		return exitUsage
	case args[0] == "help" || strings.HasPrefix(args[0], "-"):
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, []string{"-h"}, stdout, stderr)
		}
	}
	fmt.Fprintln(stderr, "memsim help: "+unknownCommand(args[0]))
	return exitUsage
}
