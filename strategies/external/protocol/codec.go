package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
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
	scan scanner
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
		if m, err = decodeWith(&r.scan, line, r.side); err == nil {
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
	return decodeWith(&scanner{}, line, side)
}

// decodeWith is Decode with the scanner of its fast path.
func decodeWith(s *scanner, line []byte, side Side) (Message, error) {
	if m := s.decode(line, side); m != nil && m.check() == nil {
		return m, nil
	}
	return decode(line, side)
}

// decode is Decode's general path, which reads any line and names the field at fault.
func decode(line []byte, side Side) (Message, error) {
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
	err = decodeStruct(obj, reflect.ValueOf(m).Elem(), "type")
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
	if line, ok := appendFast(nil, m); ok && len(line) <= MaxLine+1 {
		return line, nil
	}
	return encode(m)
}

// encode is Encode's general path, for a checked message.
func encode(m Message) ([]byte, error) {
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
	if err := m.check(); err != nil {
		return fmt.Errorf("encode %s: %w", m.Type(), err)
	}
	line, ok := appendFast(w.w.AvailableBuffer(), m)
	if !ok || len(line) > MaxLine+1 {
		var err error
		if line, err = encode(m); err != nil {
			return err
		}
	}
	_, err := w.w.Write(line)
	return err
}

// Flush writes the buffered messages.
func (w *Writer) Flush() error { return w.w.Flush() }

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

// decodeStruct decodes the members of obj into the struct v, whose fields are named by their
// json tags: a member that is no field (other than skip) is refused, and so is a missing field
// whose tag lacks omitempty (a required one).
func decodeStruct(obj map[string]json.RawMessage, v reflect.Value, skip string) error {
	t := v.Type()
	known := make([]string, t.NumField())
	for i := range known {
		known[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	names := slices.Sorted(maps.Keys(obj))
	for _, name := range names {
		if name != skip && !slices.Contains(known, name) {
			return bad(name, "is not a field of this message (fields: %s)", strings.Join(known, ", "))
		}
	}
	for i, name := range known {
		raw, ok := obj[name]
		if !ok {
			if !strings.HasSuffix(t.Field(i).Tag.Get("json"), ",omitempty") {
				return bad(name, "is missing")
			}
			continue
		}
		if err := decodeInto(raw, v.Field(i), name); err != nil {
			return within(name, err)
		}
	}
	return nil
}

// decodeInto decodes the JSON value raw of the field name into v strictly: no null, a struct
// (or a pointer to one) by decodeStruct, an array or a slice element by element so that an error
// names the element (an empty list reads as none, as Encode writes none; an array must have its
// length), anything else by decodeValue.
func decodeInto(raw json.RawMessage, v reflect.Value, name string) error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return errors.New("is null")
	}
	switch {
	case v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct:
		v.Set(reflect.New(v.Type().Elem()))
		return decodeInto(raw, v.Elem(), name)
	case v.Kind() == reflect.Struct:
		obj, err := object(raw)
		if err != nil {
			return fmt.Errorf("is not an object: %w", err)
		}
		return decodeStruct(obj, v, "")
	case v.Kind() == reflect.Slice || v.Kind() == reflect.Array:
		var items []json.RawMessage
		if err := decodeValue(raw, &items); err != nil {
			return err
		}
		if v.Kind() == reflect.Array && len(items) != v.Len() {
			return fmt.Errorf("%d %s (want %d)", len(items), name, v.Len())
		}
		if v.Kind() == reflect.Slice {
			v.SetZero()
			if len(items) > 0 {
				v.Set(reflect.MakeSlice(v.Type(), len(items), len(items)))
			}
		}
		for i, item := range items {
			if err := decodeInto(item, v.Index(i), name); err != nil {
				return within(fmt.Sprintf("[%d]", i), err)
			}
		}
		return nil
	}
	return decodeValue(raw, v.Addr().Interface())
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

// Text returns the last line read, without its newline, for an error to quote; it is valid until
// the next Read.
func (r *Reader) Text() []byte { return bytes.TrimSuffix(r.buf, []byte("\n")) }

// HasLine reports whether a whole line is already buffered, so that the next Read returns without
// waiting for the writer: the rest of a batch written at once.
func (r *Reader) HasLine() bool {
	b, _ := r.r.Peek(r.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// Buffered returns the number of bytes read from the stream and not yet returned.
func (r *Reader) Buffered() int { return r.r.Buffered() }
