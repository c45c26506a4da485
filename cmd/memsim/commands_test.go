package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Every entry of the table of commands is written as its printers expect: a name of its own, each
// synopsis beginning with "memsim NAME" (or "memsim --NAME", for the flags that stand for a
// command), a short description of one line without a final period, and a long description that
// begins and ends with a newline, in lines of at most 100 characters.
func TestTableOfCommandsIsWellFormed(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, c := range commands() {
		if c.name == "" || seen[c.name] || c.run == nil {
			t.Errorf("%q: a command needs a name of its own and a run function", c.name)
		}
		seen[c.name] = true
		if len(c.usage) == 0 {
			t.Errorf("%s: no synopsis", c.name)
		}
		for _, u := range c.usage {
			if !strings.HasPrefix(u, "memsim "+c.name) && !strings.HasPrefix(u, "memsim --"+c.name) {
				t.Errorf("%s: synopsis %q does not begin with memsim %s", c.name, u, c.name)
			}
		}
		if c.short == "" || strings.Contains(c.short, "\n") || strings.HasSuffix(c.short, ".") {
			t.Errorf("%s: short description %q", c.name, c.short)
		}
		if !strings.HasPrefix(c.long, "\n") || !strings.HasSuffix(c.long, "\n") || strings.HasPrefix(c.long, "\n\n") {
			t.Errorf("%s: the long description must begin and end with one newline: %q", c.name, c.long)
		}
		for _, line := range strings.Split(c.long, "\n") {
			if n := utf8.RuneCountInString(line); n > 100 {
				t.Errorf("%s: a line of %d characters in the long description: %q", c.name, n, line)
			}
		}
	}
}

// A synopsis's continuation lines are indented under its first argument, and help lists the
// commands with their short descriptions lined up three spaces after the longest name.
func TestHelpLayout(t *testing.T) {
	t.Parallel()
	c := &command{name: "go", usage: []string{"memsim go --far\n[--fast]\n[--now]", "memsim go --home"}}
	var b strings.Builder
	c.writeUsage(&b, "  ")
	want := "  memsim go --far\n" +
		"            [--fast]\n" +
		"            [--now]\n" +
		"  memsim go --home\n"
	if b.String() != want {
		t.Errorf("synopses:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	writeCommandList(&b, "")
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		// "memsim validate" is the longest: 15 characters, then three spaces.
		if len(line) < 18 || line[17] != ' ' || line[18] == ' ' {
			t.Errorf("the list of commands: %q does not begin its description at column 19", line)
		}
	}
}

// Every command's -h gives each flag's default at most once: a description that states its
// default is not followed by the one the flag package knows.
func TestFlagHelpGivesEachDefaultOnce(t *testing.T) {
	t.Parallel()
	flags := 0
	for _, c := range commandNames() {
		out, stderr, code := runArgs(t, c, "-h")
		if code != exitOK {
			t.Fatalf("%s -h: exit %d: %s", c, code, stderr)
		}
		_, list, _ := strings.Cut(out, "\nFlags:\n")
		for _, line := range strings.Split(list, "\n") {
			// A flag's description is the line after "  --name VALUE", indented with a tab.
			if !strings.HasPrefix(line, "    \t") {
				continue
			}
			flags++
			if n := strings.Count(line, "(default"); n > 1 {
				t.Errorf("%s -h: %d defaults in %q", c, n, strings.TrimSpace(line))
			}
		}
	}
	if flags < 30 {
		t.Errorf("found the descriptions of %d flags in the commands' help, want at least 30", flags)
	}
}
