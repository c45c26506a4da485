package main

import (
	"context"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// fencedBlocks returns the contents of the fenced code blocks of lines whose info string is lang,
// with the line number of each block's first line.
func fencedBlocks(lines []string, lang string) (blocks []string, at []int) {
	for _, f := range fences(lines) {
		if f.info != lang {
			continue
		}
		var b strings.Builder
		for _, line := range f.lines {
			b.WriteString(line + "\n")
		}
		blocks, at = append(blocks, b.String()), append(at, f.first)
	}
	return blocks, at
}

// TestDocConfigurationsRun checks that every YAML block of the README and docs/*.md is a whole
// configuration that memsim accepts and plays as printed, with only its number of games cut
// and its output sent to a temporary folder.
func TestDocConfigurationsRun(t *testing.T) {
	t.Parallel()
	total := 0
	for _, name := range docFiles(t) {
		blocks, at := fencedBlocks(readLines(t, name), "yaml")
		for i, block := range blocks {
			total++
			where := filepath.Base(name) + ":" + strconv.Itoa(at[i])
			t.Run(where, func(t *testing.T) {
				t.Parallel()
				cfg, err := configs.Parse(where, []byte(block), tournament.ConfigOptions())
				if err != nil {
					t.Fatalf("%s: the configuration is refused: %v", name, err)
				}
				cfg.Games, cfg.Output = 64, t.TempDir()
				fromRepositoryRoot(t, cfg)
				ctx := context.Background()
				tr, err := tournament.New(ctx, cfg)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				defer tr.Close()
				res, err := tr.Play(ctx, tournament.Options{Workers: 1})
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if _, err := tr.Report(ctx, res); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			})
		}
	}
	if total < 2 {
		t.Errorf("found %d YAML blocks in the README and docs/*.md, want at least 2", total)
	}
}

// fromRepositoryRoot makes the commands of the configuration's player processes run as the docs
// print them, from the repository's root: their arguments that name files there become absolute.
// It skips the test when a command's program is missing (python3, say), and says so.
func fromRepositoryRoot(t *testing.T, cfg *configs.Tournament) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg.Players {
		x := p.External
		if x == nil {
			continue
		}
		if _, err := exec.LookPath(x.Command[0]); err != nil && !strings.Contains(x.Command[0], "/") {
			t.Skipf("player %q: %s is not installed: %v", p.Name, x.Command[0], err)
		}
		for i, a := range x.Command {
			if path := filepath.Join(root, a); !filepath.IsAbs(a) && fileExists(path) {
				x.Command[i] = path
			}
		}
	}
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// TestDocStrategyIsTheExample checks that the Go block of docs/tournaments.md, the example of a
// new policy, declares the same code as the runnable example strategies/example_test.go compiles
// and runs.
func TestDocStrategyIsTheExample(t *testing.T) {
	t.Parallel()
	blocks, _ := fencedBlocks(readLines(t, "../../docs/tournaments.md"), "go")
	if len(blocks) != 1 {
		t.Fatalf("docs/tournaments.md has %d Go blocks, want 1", len(blocks))
	}
	example, err := os.ReadFile("../../strategies/example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, ex := goDecls(t, "doc", []byte(blocks[0])), goDecls(t, "example", example)
	if len(doc) == 0 {
		t.Fatal("the Go block of docs/tournaments.md declares nothing")
	}
	for name, src := range doc {
		if ex[name] != src {
			t.Errorf("docs/tournaments.md declares %s differently from strategies/example_test.go:\n--- doc\n%s\n--- example\n%s", name, src, ex[name])
		}
	}
}

// goDecls returns the type and function declarations of a Go file by name, formatted without
// their doc comments.
func goDecls(t *testing.T, what string, src []byte) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, what+".go", src, 0)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		var name string
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				name = "method " + d.Name.Name
			} else {
				name = "func " + d.Name.Name
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			name = "type " + d.Specs[0].(*ast.TypeSpec).Name.Name
		}
		var b strings.Builder
		if err := format.Node(&b, fset, d); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	return out
}

// spaces matches the white space that wrapping a line of markdown puts between two words.
var spaces = regexp.MustCompile(`\s+`)

// TestDocUnknownKeyMessage checks that the error docs/tournaments.md quotes for an unknown
// top-level key is, word for word, the one memsim prints, so that the list of keys it names
// stays the list the reader accepts.
func TestDocUnknownKeyMessage(t *testing.T) {
	t.Parallel()
	text := spaces.ReplaceAllString(strings.Join(readLines(t, "../../docs/tournaments.md"), " "), " ")
	quoted := regexp.MustCompile("`(x\\.yaml:1:1: unknown key \"gmaes\" [^`]*)`").FindStringSubmatch(text)
	if quoted == nil {
		t.Fatal(`docs/tournaments.md quotes no error for the unknown key "gmaes"`)
	}
	_, err := configs.Parse("x.yaml", []byte("gmaes: 5\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n"), tournament.ConfigOptions())
	if err == nil {
		t.Fatal(`an unknown key "gmaes" was accepted`)
	}
	if err.Error() != quoted[1] {
		t.Errorf("docs/tournaments.md quotes\n\t%s\nmemsim prints\n\t%s", quoted[1], err)
	}
}

// TestResultsExampleHoldsEveryExactRow checks that the example table of docs/results.md, which
// says it holds the default run's 26-pair rows whose players have an exact model, holds exactly
// those matchups: every seat order of two of the default tournament's players that the solver
// covers.
func TestResultsExampleHoldsEveryExactRow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the default tournament's tables (make test-long)")
	}
	lines := readLines(t, "../../docs/results.md")
	start := slices.Index(lines, "### An example")
	if start < 0 {
		t.Fatal(`docs/results.md has no "### An example"`)
	}
	var got []string
	for _, line := range lines[start:] {
		if strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| matchup") {
			continue
		}
		if !strings.HasPrefix(line, "| ") {
			if len(got) > 0 {
				break
			}
			continue
		}
		got = append(got, strings.TrimSpace(strings.Split(line, "|")[1]))
	}
	file, data := configs.Default()
	cfg, err := configs.Parse(file, data, tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, a := range cfg.Players {
		for j, b := range cfg.Players {
			if _, _, ok := tr.ExactModel(26, []int{i, j}); i != j && ok {
				want = append(want, a.Name+" vs "+b.Name)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("docs/results.md's example holds the rows\n\t%q\nthe default run's 26-pair matchups with an exact model are\n\t%q", got, want)
	}
}
