package client_test

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// goBlock returns the one Go block of docs/protocol.md.
func goBlock(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(doc), "```go\n")
	if len(parts) != 2 {
		t.Fatalf("docs/protocol.md has %d Go blocks, want 1", len(parts)-1)
	}
	block, _, ok := strings.Cut(parts[1], "\n```")
	if !ok {
		t.Fatal("docs/protocol.md: the Go block does not end")
	}
	return block + "\n"
}

// TestDocPlayerIsTheExample: the player of docs/protocol.md is the package doc's, and declares
// its type and method as the runnable Example does.
func TestDocPlayerIsTheExample(t *testing.T) {
	block := goBlock(t)
	src, err := os.ReadFile("client.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "client.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	// The code block: the lines from the first indented one to the last, less one tab.
	lines := strings.Split(f.Doc.Text(), "\n")
	indented := func(l string) bool { return strings.HasPrefix(l, "\t") }
	first, last := slices.IndexFunc(lines, indented), len(lines)-1
	for last > 0 && !indented(lines[last]) {
		last--
	}
	var code strings.Builder
	for _, l := range lines[max(first, 0) : last+1] {
		code.WriteString(strings.TrimPrefix(l, "\t") + "\n")
	}
	if code.String() != block {
		t.Errorf("the package doc's example player is\n%s\ndocs/protocol.md's\n%s", code.String(), block)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, ex := decls(t, "doc", block), decls(t, "example", string(example))
	for _, name := range []string{"type lowest", "method Move"} {
		if doc[name] == "" || doc[name] != ex[name] {
			t.Errorf("docs/protocol.md declares %s as\n%s\nexample_test.go as\n%s", name, doc[name], ex[name])
		}
	}
}

// decls returns the type and function declarations of Go source by name, formatted.
func decls(t *testing.T, what, src string) map[string]string {
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
			name = "func " + d.Name.Name
			if d.Recv != nil {
				name = "method " + d.Name.Name
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
