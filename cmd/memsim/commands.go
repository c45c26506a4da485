package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// A command is one of memsim's commands. The table of commands (see commands) is the one source
// of the list memsim help prints, of each command's help (memsim NAME -h, memsim help NAME), of
// the package documentation (doc.go, which TestDocIsUpToDate regenerates) and of the README's
// list of commands (which TestREADMEListsEveryCommand compares with memsim help).
type command struct {
	// name selects the command: memsim NAME.
	name string
	// usage holds the command's synopses, one for each way of calling it, each beginning with
	// "memsim". A synopsis too long for a line goes on after "\n": the help indents its
	// continuation lines under the synopsis's first argument.
	usage []string
	// short says in a few words what the command does, for the list of commands.
	short string
	// long describes the command and its flags, in paragraphs separated by blank lines, lines of
	// at most 100 characters. It begins with a newline, which parts it from the synopses (and
	// lets its first line begin at the margin in the source, as the others do), and ends with one.
	long string
	// run runs the command c with the arguments that follow its name and returns the exit
	// status. It prints c's help for -h (see command.parseFlags).
	run func(ctx context.Context, c *command, inv invocation, args []string) int
}

// An invocation is what a command runs with besides its arguments: the standard input (os.Stdin,
// which only memsim play reads), the environment, read through getenv (main passes os.Getenv), and
// the standard output and error it writes to.
type invocation struct {
	stdin          io.Reader
	getenv         func(string) string
	stdout, stderr io.Writer
}

// commands returns memsim's commands in the order memsim help lists them and messages name them.
func commands() []*command {
	return []*command{
		solveCommand(), runCommand(), validateCommand(), reportCommand(), auditCommand(), mergeCommand(),
		replayCommand(), playCommand(), reviewCommand(), serveCommand(), benchCommand(), engineCommand(), demoCommand(), helpCommand(), versionCommand(),
	}
}

// lookup returns the command called name, or nil if there is none.
func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames returns the commands' names in the order of commands.
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// title is the first line of memsim help.
const title = "memsim: exact solver and simulator for the card game Memory"

// synopsis is the usage line common to every command.
const synopsis = "memsim COMMAND [flags] [arguments]"

// notes is what memsim help says after the list of commands, in paragraphs separated by blank
// lines; the package documentation says it too.
const notes = `memsim help COMMAND, or memsim COMMAND -h, prints a command's usage and flags.

Flags go after the command, before or after its arguments (-- ends them); a flag not given
takes its default, and a value given is used as it is.

Bad input gets one line on stderr naming the file and line, or the flag and its allowed values,
and exit status 2; a failure of the work itself exits 1, and so does an interrupt (SIGINT,
SIGTERM), which every command obeys within a second, saying "interrupted".
`

// writeHelp writes what memsim help prints: the title, the usage line, the list of commands and
// the notes.
func writeHelp(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n\nCommands:\n", title, synopsis)
	writeCommandList(w, "  ")
	fmt.Fprint(w, "\n", notes)
}

// writeCommandList writes the list of commands, one a line: indent, "memsim NAME" padded so that
// the short descriptions line up three spaces after the longest name, and the short description.
func writeCommandList(w io.Writer, indent string) {
	cmds := commands()
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "%smemsim %-*s   %s\n", indent, width, c.name, c.short)
	}
}

// writeUsage writes c's synopses, each line after indent, continuation lines indented further
// to begin under the synopsis's first argument.
func (c *command) writeUsage(w io.Writer, indent string) {
	more := indent + strings.Repeat(" ", len("memsim "+c.name+" "))
	for _, u := range c.usage {
		first, rest, _ := strings.Cut(u, "\n")
		fmt.Fprintf(w, "%s%s\n", indent, first)
		if rest == "" {
			continue
		}
		for _, line := range strings.Split(rest, "\n") {
			fmt.Fprintf(w, "%s%s\n", more, line)
		}
	}
}

// printHelp prints c's help, as memsim NAME -h and memsim help NAME show it: "Usage:" with the
// synopses, the long description and, when c has flags, "Flags:" with fs's flags.
func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, "Usage:\n")
	c.writeUsage(w, "  ")
	fmt.Fprint(w, c.long)
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprint(w, "\nFlags:\n")
		printFlags(w, fs)
	}
}
