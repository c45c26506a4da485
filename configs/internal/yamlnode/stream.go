package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// Stream reads the documents of a YAML stream one by one.
type Stream struct {
	r    *Reader
	l    *yaml.Loader
	data []byte
}

// Stream returns a Stream of the documents of data.
func (r *Reader) Stream(data []byte) (*Stream, error) {
	l, err := yaml.NewLoader(bytes.NewReader(data))
	if err != nil {
		return nil, r.Errorf(Pos{1, 1}, "", "yaml: %v", err)
	}
	return &Stream{r: r, l: l, data: data}, nil
}

// Next returns the next document node of the stream (its content, if any, in Content[0]), or
// io.EOF after the last. A syntax error is an *Error at the position the YAML library reports.
func (s *Stream) Next() (*yaml.Node, error) {
	var doc yaml.Node
	if err := s.load(&doc); err == io.EOF {
		return nil, io.EOF
	} else if err != nil {
		return nil, s.syntaxError(err)
	}
	return &doc, nil
}

// load loads the next document into n, turning a panic of the YAML library into an error.
func (s *Stream) load(n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error of the YAML library: %v", r)
		}
	}()
	return s.l.Load(n)
}

// syntaxError converts an error of the YAML library to an *Error at the position it reports.
func (s *Stream) syntaxError(err error) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) {
		var les *yaml.LoadErrors
		if errors.As(err, &les) && len(les.Errors) > 0 {
			le = les.Errors[0]
		}
	}
	if le == nil {
		return s.r.Errorf(Pos{1, 1}, "", "yaml: %v", err)
	}
	msg := "yaml: " + le.Message
	if le.ContextMsg != "" {
		msg += " (" + le.ContextMsg
		if le.ContextMark.Line > 0 && le.ContextMark != le.Mark {
			msg += fmt.Sprintf(" at line %d, column %d", le.ContextMark.Line, max(le.ContextMark.Column, 1))
		}
		msg += ")"
	}
	pos := Pos{le.Mark.Line, le.Mark.Column}
	if pos.Line <= 0 {
		pos = badCharPos(s.data)
	}
	return s.r.Errorf(pos, "", "%s", msg)
}

// badCharPos returns the position of the first byte of data that is not valid UTF-8 or is a
// control character YAML does not allow, or 1:1 if there is none. The YAML library reports such
// errors without a position.
func badCharPos(data []byte) Pos {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return Pos{1, 1} // UTF-16: the byte offsets below would mean nothing
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 || !printable(r) {
			return Pos{line, col}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return Pos{1, 1}
}

// printable reports whether YAML allows r in a stream.
func printable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == 0x85:
		return true
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		return false
	case r >= 0xd800 && r <= 0xdfff || r == 0xfffe || r == 0xffff:
		return false
	}
	return r <= 0x10ffff
}

// Top returns the top-level mapping of the document doc (as Stream.Next returns it). A document
// without content, or whose content is null, gets an error at the document with the message
// empty; a top level that is not a mapping, or a mapping with a tag other than the standard one,
// an error at it.
func (r *Reader) Top(doc *yaml.Node, empty string) (*yaml.Node, error) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || IsNull(doc.Content[0]) {
		return nil, r.ErrorAt(doc, "", "%s", empty)
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, r.ErrorAt(top, "", "the top level must be a mapping of keys to values, got %s", Describe(top))
	}
	return top, r.CheckTag(top, "")
}
