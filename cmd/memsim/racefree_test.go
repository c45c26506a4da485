package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goroutineImports are the standard packages whose use starts goroutines behind the caller's back
// (a command's output copied, a server's connections, a signal's delivery).
var goroutineImports = map[string]bool{"os/exec": true, "net/http": true, "os/signal": true}

// TestRaceFreePackagesStartNoGoroutines checks the Makefile's RACE_FREE_PACKAGES, which make test
// runs without the race detector: neither those packages (their tests included) nor any package
// of this module they or their tests import starts a goroutine or uses a standard package that
// does. The race detector checks memory shared between goroutines, so it has nothing
// to check there; a go statement added to one of them fails this test, naming its file and line.
func TestRaceFreePackagesStartNoGoroutines(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	listed := makefileList(t, root, "RACE_FREE_PACKAGES :=")
	const module = "memsim"
	seen := map[string]bool{}
	var visit func(dir, from string, tests bool)
	visit = func(dir, from string, tests bool) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Errorf("%s (%s): no Go files in %s", dir, from, filepath.Join(root, dir))
			return
		}
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") && !tests {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Error(err)
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					t.Errorf("%s (%s) starts a goroutine: make test would run its tests without the race detector", fset.Position(g.Pos()), from)
				}
				return true
			})
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				switch {
				case goroutineImports[path]:
					t.Errorf("%s (%s) imports %s, which starts goroutines", fset.Position(imp.Pos()), from, path)
				case path == module || strings.HasPrefix(path, module+"/"):
					visit(strings.TrimPrefix(strings.TrimPrefix(path, module), "/"), from, false)
				}
			}
		}
	}
	for _, p := range listed {
		visit(filepath.Clean(p), "RACE_FREE_PACKAGES "+p, true)
	}
}

// TestOneGoroutinePackagesPlayNoPool checks the Makefile's ONE_GOROUTINE_PACKAGES, whose tests
// make test runs without the race detector and whose examples it runs with it: neither their code
// nor their tests has a go statement or imports a standard package that starts goroutines, and
// only their examples name sim.Match, whose Play runs the engine's worker pool (the tests play one
// game at a time, sim.Game, on their own goroutine). A go statement, such an import, or a Match
// outside an example fails this test, naming its file and line.
func TestOneGoroutinePackagesPlayNoPool(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	listed := makefileList(t, root, "ONE_GOROUTINE_PACKAGES :=")
	for _, p := range listed {
		dir := filepath.Clean(p)
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Errorf("ONE_GOROUTINE_PACKAGES %s: no Go files in %s", p, filepath.Join(root, dir))
			continue
		}
		fset := token.NewFileSet()
		for _, name := range files {
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Error(err)
				continue
			}
			for _, imp := range f.Imports {
				if path, _ := strconv.Unquote(imp.Path.Value); goroutineImports[path] {
					t.Errorf("%s (ONE_GOROUTINE_PACKAGES %s) imports %s, which starts goroutines", fset.Position(imp.Pos()), p, path)
				}
			}
			for _, decl := range f.Decls {
				example := false
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Example") {
					example = true
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.GoStmt:
						t.Errorf("%s (ONE_GOROUTINE_PACKAGES %s) starts a goroutine: make test would run its tests without the race detector", fset.Position(n.Pos()), p)
					case *ast.SelectorExpr:
						if x, ok := n.X.(*ast.Ident); ok && x.Name == "sim" && n.Sel.Name == "Match" && !example {
							t.Errorf("%s (ONE_GOROUTINE_PACKAGES %s) names sim.Match outside an example: its Play runs the worker pool, which make test would run without the race detector", fset.Position(n.Pos()), p)
						}
					}
					return true
				})
			}
		}
	}
}

// makefileList returns the words of the Makefile line that starts with prefix.
func makefileList(t *testing.T, root, prefix string) []string {
	t.Helper()
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(makefile), "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			if words := strings.Fields(rest); len(words) > 0 {
				return words
			}
		}
	}
	t.Fatalf("the Makefile has no %s line", strings.TrimSpace(strings.TrimSuffix(prefix, ":=")))
	return nil
}
