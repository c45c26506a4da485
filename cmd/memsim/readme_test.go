package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestREADMEExamples runs every "$ memsim ..." example in the README's code blocks and compares
// what it prints with the output shown under it, so the documentation stays true.
func TestREADMEExamples(t *testing.T) {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type example struct {
		args []string
		want strings.Builder
	}
	var examples []*example
	var cur *example
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "$ memsim "):
			cur = &example{args: strings.Fields(strings.TrimPrefix(line, "$ memsim "))}
			examples = append(examples, cur)
		case line == "" || strings.HasPrefix(line, "```"):
			cur = nil
		case cur != nil:
			cur.want.WriteString(line + "\n")
		}
	}
	if len(examples) < 3 {
		t.Fatalf("found %d examples in the README, want at least 3", len(examples))
	}
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			got, stderr, code := runArgs(t, ex.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got != ex.want.String() {
				t.Errorf("output differs from the README:\n--- got\n%s--- README\n%s", got, ex.want.String())
			}
		})
	}
}
