package configs

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v4"
)

//go:embed validate.yaml
var validateYAML []byte

// validateFile is the name under which ValidationSuite reports the embedded validation suite.
const validateFile = "configs/validate.yaml"

// ValidationSuite returns the embedded validation suite, which `memsim validate` runs when it is
// given no file: its file name ("configs/validate.yaml") and a copy of its bytes, ready for
// ParseSuite.
func ValidationSuite() (file string, data []byte) { return embedded(validateFile, validateYAML) }

// ParseSuite parses a suite: a YAML stream of one or more documents separated by "---", each a
// tournament as Parse reads it. A document without a name is named after the file and its place
// in the stream ("suite-2" for the second document of suite.yaml); names must be unique. Every
// error it returns is an *Error pointing at the offending node.
func ParseSuite(file string, data []byte, opts Options) ([]*Tournament, error) {
	p := &parser{file: file, opts: opts}
	l, err := yaml.NewLoader(bytes.NewReader(data))
	if err != nil {
		return nil, p.errPos(Pos{1, 1}, "", "yaml: %v", err)
	}
	var suite []*Tournament
	first := map[string]Pos{}
	for k := 1; ; k++ {
		var doc yaml.Node
		err := p.next(l, &doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.syntaxError(err, data)
		}
		if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || isNull(doc.Content[0]) {
			return nil, p.errAt(&doc, "", "empty document: each document of a suite is a configuration with at least the players key")
		}
		top := doc.Content[0]
		if top.Kind != yaml.MappingNode {
			return nil, p.errAt(top, "", "the top level must be a mapping of keys to values, got %s", describe(top))
		}
		if err := p.checkTag(top, ""); err != nil {
			return nil, err
		}
		base := filepath.Base(file)
		p.file = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(base, filepath.Ext(base)), k, filepath.Ext(base))
		t, err := p.tournament(top)
		p.file = file
		if err != nil {
			if e, ok := err.(*Error); ok {
				e.File = file
			}
			return nil, err
		}
		t.File = file
		if at, dup := first[t.Name]; dup {
			return nil, p.errAt(top, "", "document %d: duplicate name %s (the document at line %d already uses it)", k, quote(t.Name), at.Line)
		}
		first[t.Name] = posOf(top)
		suite = append(suite, t)
	}
	if len(suite) == 0 {
		return nil, p.errPos(Pos{1, 1}, "", "empty suite: it needs at least one document")
	}
	return suite, nil
}
