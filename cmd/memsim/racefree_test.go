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
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(string(makefile), "\n") {
		if rest, ok := strings.CutPrefix(line, "RACE_FREE_PACKAGES :="); ok {
			listed = strings.Fields(rest)
		}
	}
	if len(listed) == 0 {
		t.Fatal("the Makefile has no RACE_FREE_PACKAGES line")
	}
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
