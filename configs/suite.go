package configs

import (
	_ "embed"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"memsim/configs/internal/yamlnode"
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
	suite, err := parseSuite(file, data, opts)
	if err != nil {
		return nil, fileError(err)
	}
	return suite, nil
}

// parseSuite is ParseSuite with the errors of the reader.
func parseSuite(file string, data []byte, opts Options) ([]*Tournament, error) {
	p := &parser{Reader: yamlnode.Reader{File: file}, opts: opts}
	s, err := p.Stream(data)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(file)
	var suite []*Tournament
	first := map[string]int{} // name -> line of the document that first used it
	for k := 1; ; k++ {
		doc, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		top, err := p.Top(doc, "empty document: each document of a suite is a configuration with at least the players key")
		if err != nil {
			return nil, err
		}
		t, err := p.tournament(top, fmt.Sprintf("%s-%d%s", strings.TrimSuffix(base, filepath.Ext(base)), k, filepath.Ext(base)))
		if err != nil {
			return nil, err
		}
		if line, dup := first[t.Name]; dup {
			return nil, p.ErrorAt(top, "", "document %d: duplicate name %s (the document at line %d already uses it)", k, yamlnode.Quote(t.Name), line)
		}
		first[t.Name] = top.Line
		suite = append(suite, t)
	}
	if len(suite) == 0 {
		return nil, p.Errorf(yamlnode.Pos{Line: 1, Column: 1}, "", "empty suite: it needs at least one document")
	}
	return suite, nil
}
