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
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit status. The commands read the
// environment through getenv only, and write to stdout and stderr only; memsim play alone reads
// the standard input, os.Stdin.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	inv := invocation{stdin: os.Stdin, getenv: getenv, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		writeHelp(stderr)
		fmt.Fprintf(stderr, "memsim: missing command (allowed: %s)\n", strings.Join(commandNames(), ", "))
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return runHelp(ctx, helpCommand(), inv, args[1:])
	case "-version", "--version":
		c := versionCommand()
		return c.run(ctx, c, inv, args[1:])
	}
	if c := lookup(args[0]); c != nil {
		return c.run(ctx, c, inv, args[1:])
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

// helpCommand returns memsim help.
func helpCommand() *command {
	return &command{
		name:  "help",
		usage: []string{"memsim help [COMMAND]", "memsim --help"},
		short: "the commands, or a command's usage and flags",
		long: `
Prints the list of commands, or with a command's name that command's usage and flags (the same
as memsim COMMAND -h).
`,
		run: runHelp,
	}
}

// runHelp prints the usage, or with a command's name that command's help (as memsim COMMAND -h).
func runHelp(ctx context.Context, _ *command, inv invocation, args []string) int {
	switch {
	case len(args) == 0:
		return printHelpList(inv)
	case len(args) > 1:
		fmt.Fprintf(inv.stderr, "memsim help: one command at most, got %d: %v\n", len(args), args)
		return exitUsage
	case args[0] == "help" || strings.HasPrefix(args[0], "-"):
		return printHelpList(inv)
	}
	if c := lookup(args[0]); c != nil {
		return c.run(ctx, c, inv, []string{"-h"})
	}
	fmt.Fprintln(inv.stderr, "memsim help: "+unknownCommand(args[0]))
	return exitUsage
}
