package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// Error is an error in one line of a stream: the line's number (from 1), the message's type if
// it got that far, the field at fault if any ("rules.pairs", "legal[2]") and what is wrong.
type Error struct {
	Line  int
	Type  string
	Field string
	Err   error
}

// Error formats the error on one line, for example
// "line 4: flip: field pos: -1 is out of range (0 to 2999)".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "line %d: ", e.Line)
	if e.Type != "" {
		b.WriteString(e.Type + ": ")
	}
	if e.Field != "" {
		b.WriteString("field " + e.Field + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Reader reads messages, one per line, from a stream written by one side. It refuses a line
// longer than MaxLine, a line that is not valid UTF-8, a last line without a newline, and any
// message that is not exactly as docs/protocol.md specifies it. After an error it returns the
// same error again: the stream is not read further.
type Reader struct {
	r    *bufio.Reader
	side Side
	line int
	buf  []byte
	err  error
}

// NewReader returns a Reader of the messages side writes to r.
func NewReader(r io.Reader, side Side) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), side: side}
}

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// Read returns the next message, io.EOF at the end of the stream after a whole line, or an
// *Error naming the line (and the field) at fault.
func (r *Reader) Read() (Message, error) {
	if r.err != nil {
		return nil, r.err
	}
	line, err := r.readLine()
	if err == nil {
		var m Message
		if m, err = Decode(line, r.side); err == nil {
			return m, nil
		}
		var e *Error
		if errors.As(err, &e) {
			e.Line = r.line
		}
	}
	r.err = err
	return nil, err
}

// readLine returns the next line without its newline.
func (r *Reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.r.ReadSlice('\n')
		n := len(r.buf) + len(chunk)
		if err == nil {
			n--
		}
		if n > MaxLine {
			return nil, &Error{Line: r.line + 1, Err: fmt.Errorf("longer than %d bytes", MaxLine)}
		}
		r.buf = append(r.buf, chunk...)
		switch {
		case err == nil:
			r.line++
			return r.buf[:n], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(r.buf) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			r.line++
			return nil, &Error{Line: r.line, Err: fmt.Errorf("ends without a newline after %d bytes", len(r.buf))}
		}
		return nil, fmt.Errorf("line %d: %w", r.line+1, err)
	}
}

// Decode decodes one line (without its newline) that side wrote. Its errors are *Error with
// Line 0.
func Decode(line []byte, side Side) (Message, error) {
	if !utf8.Valid(line) {
		return nil, &Error{Err: fmt.Errorf("not valid UTF-8 (byte %d)", invalidAt(line))}
	}
	obj, err := object(line)
	if err != nil {
		return nil, &Error{Err: fmt.Errorf("not a JSON object: %w", err)}
	}
	rawType, ok := obj["type"]
	if !ok {
		return nil, &Error{Field: "type", Err: errors.New("is missing")}
	}
	var typ string
	if err := decodeValue(rawType, &typ); err != nil {
		return nil, &Error{Field: "type", Err: err}
	}
	m := newMessage(side, typ)
	if m == nil {
		return nil, &Error{Field: "type", Err: fmt.Errorf("%q is not a message %s sends (allowed: %s)", typ, sender(side), typeNames(side))}
	}
	err = decodeFields(obj, m.fields(), "type")
	if err == nil {
		err = m.check()
	}
	if err != nil {
		e := &Error{Type: typ, Err: err}
		var fe *fieldError
		if errors.As(err, &fe) {
			e.Field, e.Err = fe.field, fe.err
		}
		return nil, e
	}
	return m, nil
}

// invalidAt returns the offset of the first byte of s that is not valid UTF-8.
func invalidAt(s []byte) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// Encode returns m as one line, with its newline, after checking it as Reader checks what it
// reads.
func Encode(m Message) ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("encode %s: %w", m.Type(), err)
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", m.Type(), err)
	}
	line := make([]byte, 0, len(body)+len(m.Type())+12)
	line = append(line, `{"type":"`...)
	line = append(line, m.Type()...)
	line = append(line, '"')
	if len(body) > 2 {
		line = append(line, ',')
	}
	line = append(line, body[1:]...)
	if len(line) > MaxLine {
		return nil, fmt.Errorf("encode %s: %d bytes, longer than %d", m.Type(), len(line), MaxLine)
	}
	return append(line, '\n'), nil
}

// Writer writes messages, one per line. Messages are buffered until Flush, so that a batch of
// replies goes out in one write.
type Writer struct {
	w *bufio.Writer
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// Write checks and buffers m.
func (w *Writer) Write(m Message) error {
	line, err := Encode(m)
	if err != nil {
		return err
	}
	_, err = w.w.Write(line)
	return err
}

// Flush writes the buffered messages.
func (w *Writer) Flush() error { return w.w.Flush() }

// field is a field of a message for the strict decoder: its name, whether it must be present,
// and how to decode its value.
type field struct {
	name     string
	required bool
	decode   func(json.RawMessage) error
}

// req is a required field decoded into ptr.
func req(name string, ptr any) field {
	return field{name, true, func(raw json.RawMessage) error { return decodeValue(raw, ptr) }}
}

// opt is an optional field decoded into ptr.
func opt(name string, ptr any) field {
	f := req(name, ptr)
	f.required = false
	return f
}

// list is a field holding an array decoded element by element into out, so that an error names
// the element.
func list[T any](name string, required bool, out *[]T) field {
	return field{name, required, func(raw json.RawMessage) error {
		var items []json.RawMessage
		if err := decodeValue(raw, &items); err != nil {
			return err
		}
		*out = nil // an empty list reads as none, as Encode writes none
		if len(items) > 0 {
			*out = make([]T, len(items))
		}
		for i, item := range items {
			if err := decodeValue(item, &(*out)[i]); err != nil {
				return within(fmt.Sprintf("[%d]", i), err)
			}
		}
		return nil
	}}
}

// object decodes a JSON object into its members.
func object(raw []byte) (map[string]json.RawMessage, error) {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		if len(t) == 0 {
			return nil, errors.New("empty")
		}
		if json.Valid(raw) {
			return nil, fmt.Errorf("got %s", jsonKind(t[0]))
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// jsonKind names the kind of a JSON value by its first byte.
func jsonKind(c byte) string {
	switch c {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a bool"
	case 'n':
		return "null"
	}
	return "a number"
}

// decodeFields decodes the members of obj into fields, refusing a member that is not a field
// (other than skip) and a missing required field.
func decodeFields(obj map[string]json.RawMessage, fields []field, skip string) error {
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if name != skip && !slices.ContainsFunc(fields, func(f field) bool { return f.name == name }) {
			known := make([]string, len(fields))
			for i, f := range fields {
				known[i] = f.name
			}
			return bad(name, "is not a field of this message (fields: %s)", strings.Join(known, ", "))
		}
	}
	for _, f := range fields {
		raw, ok := obj[f.name]
		if !ok {
			if f.required {
				return bad(f.name, "is missing")
			}
			continue
		}
		if err := f.decode(raw); err != nil {
			return within(f.name, err)
		}
	}
	return nil
}

// decodeObject decodes a nested JSON object into fields.
func decodeObject(raw []byte, fields []field) error {
	obj, err := object(raw)
	if err != nil {
		return fmt.Errorf("is not an object: %w", err)
	}
	return decodeFields(obj, fields, "")
}

// decodeValue decodes one JSON value into ptr strictly: no null, no unknown fields.
func decodeValue(raw json.RawMessage, ptr any) error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return errors.New("is null")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(ptr)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s is not %s", te.Value, kindOf(te.Type))
	}
	return err
}

// kindOf names the JSON kind a Go type decodes from.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a bool"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a JSON value"
}

func (m *Hello) fields() []field { return []field{req("protocol", &m.Protocol)} }

func (m *Player) fields() []field {
	return []field{req("name", &m.Name), req("version", &m.Version), req("view", &m.View),
		list("options", false, &m.Options)}
}

// UnmarshalJSON decodes an option strictly.
func (o *Option) UnmarshalJSON(b []byte) error {
	return decodeObject(b, []field{req("name", &o.Name), req("type", &o.Type), req("default", &o.Default),
		opt("min", &o.Min), opt("max", &o.Max), list("choices", false, &o.Choices)})
}

func (m *Options) fields() []field { return []field{req("values", &m.Values)} }

func (m *NewGame) fields() []field {
	return []field{req("game", &m.Game), req("seat", &m.Seat), req("seed", &m.Seed), req("rules", &m.Rules)}
}

// UnmarshalJSON decodes rules strictly.
func (r *Rules) UnmarshalJSON(b []byte) error {
	return decodeObject(b, []field{req("pairs", &r.Pairs), req("singletons", &r.Singletons),
		req("seats", &r.Seats), req("pass", &r.Pass), list("choices", true, &r.Choices)})
}

func (m *FlipEvent) fields() []field {
	return []field{req("game", &m.Game), req("seat", &m.Seat), req("pos", &m.Pos), req("face", &m.Face)}
}

func (m *PairEvent) fields() []field {
	return []field{req("game", &m.Game), req("seat", &m.Seat), req("face", &m.Face),
		{"positions", true, func(raw json.RawMessage) error {
			var ps []int
			if err := list("", true, &ps).decode(raw); err != nil {
				return err
			}
			if len(ps) != 2 {
				return fmt.Errorf("%d positions (want 2)", len(ps))
			}
			m.Positions = [2]int(ps)
			return nil
		}}}
}

func (m *PassEvent) fields() []field { return []field{req("game", &m.Game), req("seat", &m.Seat)} }

func (m *Handover) fields() []field { return []field{req("game", &m.Game), req("seat", &m.Seat)} }

func (m *End) fields() []field {
	return []field{req("game", &m.Game), list("scores", true, &m.Scores)}
}

func (m *Move) fields() []field {
	return []field{req("game", &m.Game), req("card", &m.Card), list("legal", true, &m.Legal),
		opt("pass", &m.Pass), req("deadline_ms", &m.DeadlineMS), opt("state", &m.State),
		list("known", false, &m.Known), list("choices", false, &m.Choices)}
}

// UnmarshalJSON decodes a count state strictly.
func (s *State) UnmarshalJSON(b []byte) error {
	return decodeObject(b, []field{req("n", &s.N), req("j", &s.J), req("s", &s.S), req("f", &s.F),
		req("lead", &s.Lead)})
}

// UnmarshalJSON decodes a card strictly.
func (c *Card) UnmarshalJSON(b []byte) error {
	return decodeObject(b, []field{req("pos", &c.Pos), req("face", &c.Face)})
}

func (m *Flip) fields() []field { return []field{req("game", &m.Game), req("pos", &m.Pos)} }

func (m *Pass) fields() []field { return []field{req("game", &m.Game)} }

func (m *Choice) fields() []field { return []field{req("game", &m.Game), req("choice", &m.Choice)} }
