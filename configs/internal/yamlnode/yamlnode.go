// Package yamlnode reads YAML strictly, node by node, for configuration files whose schema the
// caller checks.
//
// A Reader reads the documents of one file (Stream, Top) and the values of their nodes: mappings
// whose keys must be distinct scalars among those allowed (Mapping), lists, strings, booleans,
// integers of any size, bounded integers and numbers. It refuses aliases, tags other than the
// standard ones and values of the wrong type. Every error it returns is an *Error that reads
// "file:line:col: path: message" on one line and points at the offending node; the path, given by
// the caller ("rules.pairs[2]"), says where in the document the node is. Syntax errors of the YAML
// library are reported at the position it gives, or, for bytes that are not valid UTF-8 or are
// control characters YAML does not allow, which it reports without one, at the first such
// character.
//
// The package knows nothing of what the keys mean: the caller lists the keys a mapping may hold,
// the ranges of its numbers and the words of the messages about documents.
package yamlnode

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// Pos is a position in a YAML stream: a 1-based line and a 1-based column (counted in
// characters).
type Pos struct{ Line, Column int }

// PosOf returns the position of n.
func PosOf(n *yaml.Node) Pos { return Pos{Line: n.Line, Column: n.Column} }

// Error is an error at a position of a file: Error() returns "file:line:col: message".
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

// Error returns "file:line:col: message", the file's name shortened as ShortPath does.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", ShortPath(e.File), e.Line, e.Column, e.Msg)
}

// Reader reads the nodes of one file and reports what is wrong with them as *Error values in
// that file. The zero Reader reports errors in the file "".
type Reader struct {
	File string // the file's name, as errors report it
}

// Errorf returns an *Error at pos (a line or column below 1 taken as 1) with the message of
// format and args folded onto one line; path, when not empty, prefixes the message.
func (r *Reader) Errorf(pos Pos, path, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	return &Error{File: r.File, Line: max(pos.Line, 1), Column: max(pos.Column, 1), Msg: OneLine(msg)}
}

// ErrorAt returns an *Error at n's position, as Errorf.
func (r *Reader) ErrorAt(n *yaml.Node, path, format string, args ...any) *Error {
	return r.Errorf(PosOf(n), path, format, args...)
}

// Wrap turns err, an error about the value n, into an *Error at n with err's message. It returns
// nil when err is nil.
func (r *Reader) Wrap(n *yaml.Node, path string, err error) error {
	if err == nil {
		return nil
	}
	return r.ErrorAt(n, path, "%s", err.Error())
}

// OneLine folds a message onto one line: each line break, with the spaces around it, becomes one
// space. A message without line breaks is returned as it is.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)), " ")
}

// IsNull reports whether n is a null scalar (empty, ~ or null).
func IsNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// scalarTag returns the resolved tag of a scalar; the non-specific tag "!" means a string.
func scalarTag(n *yaml.Node) string {
	if n.Tag == "!" {
		return "!!str"
	}
	return n.ShortTag()
}

// Describe names the kind and value of n for an error message: "a mapping", "a list",
// "string \"x\"", "integer 5", "number 1.5", "true", "null", "!!binary \"YQ==\"", ...
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		t := scalarTag(n)
		if n.Style&yaml.TaggedStyle != 0 && t != "!!null" {
			return t + " " + Quote(n.Value)
		}
		switch t {
		case "!!str":
			return "string " + Quote(n.Value)
		case "!!int":
			return "integer " + Short(n.Value)
		case "!!float":
			return "number " + Short(n.Value)
		case "!!bool":
			return Short(n.Value)
		case "!!null":
			return "null"
		case "!!timestamp":
			return "timestamp " + Short(n.Value)
		default:
			return t + " " + Quote(n.Value)
		}
	}
	return "a YAML node of kind " + strconv.Itoa(int(n.Kind))
}

// maxQuoted is the longest value an error message quotes in full, in characters.
const maxQuoted = 40

// Short returns s for an error message: cut to 40 characters (with "..." after it), or quoted
// (as Quote) if it holds anything but letters, digits and punctuation.
func Short(s string) string {
	cut := s
	if utf8.RuneCountInString(s) > maxQuoted {
		cut = string([]rune(s)[:maxQuoted])
	}
	if strings.ContainsFunc(cut, func(r rune) bool { return r <= ' ' || r == '"' || r == '\\' || r >= 0x7f }) {
		return Quote(s)
	}
	if cut != s {
		cut += "..."
	}
	return cut
}

// MaxPath is the longest path an error message shows whole, in bytes.
const MaxPath = 200

// ShortPath returns path for an error message, on one line and at most about MaxPath bytes: as
// it is when it is that short, otherwise its first and last bytes around "..." (the end names
// the file). A path that holds control characters or bytes that are not UTF-8 is quoted as a Go
// string.
func ShortPath(path string) string {
	if len(path) > MaxPath {
		head, tail := MaxPath/2, len(path)-(MaxPath/2-3)
		for head > 0 && !utf8.RuneStart(path[head]) {
			head--
		}
		for tail < len(path) && !utf8.RuneStart(path[tail]) {
			tail++
		}
		path = path[:head] + "..." + path[tail:]
	}
	if !utf8.ValidString(path) || strings.ContainsFunc(path, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }) {
		return strconv.Quote(path)
	}
	return path
}

// Quote returns s, cut to 40 characters (with "..." after the quotes), as a double-quoted Go
// string.
func Quote(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(string([]rune(s)[:maxQuoted])) + "..."
}
