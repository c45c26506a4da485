package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docFiles returns the markdown files whose examples and links are checked: the README and
// docs/*.md, as paths relative to this package.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md found")
	}
	return append([]string{"../../README.md"}, docs...)
}

// readLines returns the lines of the file name.
func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// isFence reports whether line opens or closes a fenced code block.
func isFence(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "```")
}

// docExample is a "$ memsim ..." line of a code block and the output shown under it.
type docExample struct {
	line int
	args []string
	want string
}

// fence is a fenced code block of a markdown file: its info string ("yaml", or "" for none), the
// line number of its first line of code, and its lines of code.
type fence struct {
	info  string
	first int
	lines []string
}

// fences returns the fenced code blocks of lines, in order.
func fences(lines []string) []fence {
	var out []fence
	var cur *fence
	for i, line := range lines {
		switch {
		case isFence(line) && cur == nil:
			cur = &fence{info: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```")), first: i + 2}
		case isFence(line):
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	return out
}

// docExamples returns the examples of a markdown file: every line inside a fenced code block that
// starts with "$ memsim ", with the lines after it up to a blank line or the end of the block.
func docExamples(lines []string) []docExample {
	var out []docExample
	for _, f := range fences(lines) {
		var cur *docExample
		for k, line := range append(f.lines, "") {
			switch {
			case strings.HasPrefix(line, "$ memsim "):
				if cur != nil {
					out = append(out, *cur)
				}
				cur = &docExample{line: f.first + k, args: strings.Fields(strings.TrimPrefix(line, "$ memsim "))}
			case line == "" && cur != nil:
				out = append(out, *cur)
				cur = nil
			case cur != nil:
				cur.want += line + "\n"
			}
		}
	}
	return out
}

// TestDocExamples runs every "$ memsim ..." example in the code blocks of the README and of
// docs/*.md and compares what it prints on stdout with the output shown under it, so that the
// documentation stays true.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	total := 0
	for _, name := range docFiles(t) {
		examples := docExamples(readLines(t, name))
		total += len(examples)
		for _, ex := range examples {
			t.Run(filepath.Base(name)+":"+strings.Join(ex.args, " "), func(t *testing.T) {
				t.Parallel()
				if raceEnabled && ex.args[0] == "validate" {
					t.Skip("the whole validation suite runs without the race detector (make test-long)")
				}
				got, stderr, code := runArgs(t, ex.args...)
				if code != exitOK {
					t.Fatalf("%s:%d: exit %d: %s", name, ex.line, code, stderr)
				}
				if got != ex.want {
					t.Errorf("%s:%d: output differs:\n--- got\n%s--- documented\n%s", name, ex.line, got, ex.want)
				}
			})
		}
	}
	if total < 10 {
		t.Errorf("found %d examples in the README and docs/*.md, want at least 10", total)
	}
}

// commandLine is a line of a list of commands: "memsim NAME", padded, then a description.
var commandLine = regexp.MustCompile(`^memsim ([a-z]+) {2,}\S`)

// TestREADMEListsEveryCommand checks that the code block under the README's "## Commands" is,
// line for line, the list of commands memsim help prints ("memsim NAME   description"), and that
// this list names every command memsim has, in the order of the table of commands.
func TestREADMEListsEveryCommand(t *testing.T) {
	t.Parallel()
	lines := readLines(t, "../../README.md")
	start := slices.Index(lines, "## Commands")
	if start < 0 {
		t.Fatal(`README.md has no "## Commands" section`)
	}
	var readme []string
	inFence := false
	for _, line := range lines[start+1:] {
		if isFence(line) {
			if inFence {
				break
			}
			inFence = true
			continue
		}
		if inFence {
			readme = append(readme, line)
		}
	}
	help, stderr, code := runArgs(t, "help")
	if code != exitOK {
		t.Fatalf("memsim help: exit %d: %s", code, stderr)
	}
	// memsim help lists the commands under "Commands:", indented by two spaces, up to a blank line.
	_, list, ok := strings.Cut(help, "\nCommands:\n")
	if !ok {
		t.Fatalf("memsim help has no list of commands:\n%s", help)
	}
	list, _, _ = strings.Cut(list, "\n\n")
	var listed, names []string
	for _, line := range strings.Split(list, "\n") {
		line = strings.TrimPrefix(line, "  ")
		listed = append(listed, line)
		if m := commandLine.FindStringSubmatch(line); m != nil {
			names = append(names, m[1])
		}
	}
	if !slices.Equal(names, commandNames()) || len(names) != len(listed) {
		t.Errorf("memsim help lists\n%s\nwant one line \"memsim NAME   description\" for each of %v", list, commandNames())
	}
	for i := range max(len(readme), len(listed)) {
		var got, want string
		if i < len(readme) {
			got = readme[i]
		}
		if i < len(listed) {
			want = listed[i]
		}
		if got != want {
			t.Errorf("README.md, Commands, line %d: %q; memsim help lists %q", i+1, got, want)
		}
	}
}

// mdLink matches a markdown link or image, [text](target); the target has no spaces.
var mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// TestDocLinksResolve checks that every relative link of the README and docs/*.md names a file
// or folder of the repository, and that a link to a heading of a markdown file (file.md#anchor,
// or #anchor) names a heading it has.
func TestDocLinksResolve(t *testing.T) {
	t.Parallel()
	anchors := map[string]map[string]bool{} // markdown file -> its headings' anchors
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := headingAnchors(readLines(t, path))
		anchors[path] = a
		return a
	}
	for _, name := range docFiles(t) {
		inFence := false
		for i, line := range readLines(t, name) {
			if isFence(line) {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				file := name
				if path != "" {
					file = filepath.Join(filepath.Dir(name), path)
					if _, err := os.Stat(file); err != nil {
						t.Errorf("%s:%d: link %s: %v", name, i+1, target, err)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(file, ".md") && !anchorsOf(file)[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading with anchor #%s", name, i+1, target, file, anchor)
				}
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a markdown file: the heading's
// text in lower case, without punctuation, spaces turned into hyphens, and "-1", "-2", ... added
// to repeats.
func headingAnchors(lines []string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range lines {
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}
