package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"memsim/sim/rules"
)

// MaxLine is the longest line a record may hold, in bytes (a deal of 3,000 cards fits easily).
const MaxLine = 1 << 20

// Error is an error in one line of a record: the file (empty when not known), the line (from 1),
// the type of the line's object when known, and what is wrong, field first.
type Error struct {
	File string
	Line int
	Type string
	Err  error
}

// Error formats the error on one line, as "games.jsonl:14: flip: pos: 9 is out of range (0 to
// 5)".
func (e *Error) Error() string {
	where := fmt.Sprintf("line %d", e.Line)
	if e.File != "" {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Type != "" {
		return fmt.Sprintf("%s: %s: %v", where, e.Type, e.Err)
	}
	return fmt.Sprintf("%s: %v", where, e.Err)
}

// Unwrap returns the error's cause.
func (e *Error) Unwrap() error { return e.Err }

// Reader reads the games of a record one at a time, refereeing each.
type Reader struct {
	file string
	r    *bufio.Reader
	line int
	// next is the game line read ahead: the start of the next game.
	next      map[string]json.RawMessage
	nextLine  int
	buf       []byte
	sawGame   bool
	exhausted bool
}

// NewReader returns a Reader of r; file names it in errors ("" for none).
func NewReader(r io.Reader, file string) *Reader {
	return &Reader{file: file, r: bufio.NewReaderSize(r, 64<<10)}
}

// ReadFile reads every game of the record file name.
func ReadFile(name string) ([]*Game, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return NewReader(f, name).ReadAll()
}

// ReadAll reads every game left.
func (r *Reader) ReadAll() ([]*Game, error) {
	var games []*Game
	for {
		g, err := r.Read()
		if err == io.EOF {
			if len(games) == 0 {
				return nil, &Error{File: r.file, Line: r.line, Err: errors.New("no game in the record (it has no game line)")}
			}
			return games, nil
		}
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
}

// errorf returns an error at the current line.
func (r *Reader) errorf(typ string, err error) error {
	return &Error{File: r.file, Line: r.line, Type: typ, Err: err}
}

// object reads the next non-empty line as a JSON object, or returns io.EOF.
func (r *Reader) object() (map[string]json.RawMessage, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
			return nil, r.errorf("", errors.New("not a JSON object"))
		}
		if path := twice(line); path != "" {
			// A member given twice: JSON readers differ on which one counts.
			var typ string
			if path == "type" || strictString(obj["type"], &typ) != nil {
				typ = ""
			}
			return nil, r.errorf(typ, fmt.Errorf("%s: given twice", path))
		}
		return obj, nil
	}
}

// readLine returns the next line without its end.
func (r *Reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.r.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if len(bytes.TrimRight(r.buf, "\r\n")) > MaxLine {
			r.line++
			return nil, r.errorf("", fmt.Errorf("longer than %d bytes", MaxLine))
		}
		switch {
		case err == nil:
			r.line++
			if !utf8.Valid(r.buf) {
				return nil, r.errorf("", errors.New("not valid UTF-8"))
			}
			return r.buf[:len(r.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(r.buf) > 0:
			r.line++
			if !utf8.Valid(r.buf) {
				return nil, r.errorf("", errors.New("not valid UTF-8"))
			}
			return r.buf, nil // a last line without its newline
		default:
			return nil, err
		}
	}
}

// typeOf returns the object's type, checking it is a string.
func (r *Reader) typeOf(obj map[string]json.RawMessage) (string, error) {
	raw, ok := obj["type"]
	if !ok {
		return "", r.errorf("", errors.New("no \"type\""))
	}
	var t string
	if err := strictString(raw, &t); err != nil {
		return "", r.errorf("", fmt.Errorf("type: %w", err))
	}
	return t, nil
}

// Read returns the next game, refereed, or io.EOF after the last.
func (r *Reader) Read() (*Game, error) {
	head, headLine := r.next, r.nextLine
	r.next = nil
	if head == nil {
		if r.exhausted {
			return nil, io.EOF
		}
		obj, err := r.object()
		if err == io.EOF {
			r.exhausted = true
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		t, err := r.typeOf(obj)
		if err != nil {
			return nil, err
		}
		if t != "game" {
			return nil, r.errorf(t, errors.New("before any game line: a record begins with a game line"))
		}
		head, headLine = obj, r.line
	}
	line := r.line
	r.line = headLine
	g, err := r.gameLine(head)
	if err != nil {
		return nil, err
	}
	r.line = line
	g.Line = headLine
	f, err := newReferee(g)
	if err != nil {
		r.line = headLine
		return nil, r.errorf("game", err)
	}
	for {
		obj, err := r.object()
		if err == io.EOF {
			r.exhausted = true
			return g, r.finish(f)
		}
		if err != nil {
			return nil, err
		}
		t, err := r.typeOf(obj)
		if err != nil {
			return nil, err
		}
		switch t {
		case "game":
			r.next, r.nextLine = obj, r.line
			return g, r.finish(f)
		case "end":
			scores, reason, err := r.endLine(obj)
			if err != nil {
				return nil, err
			}
			if err := f.finish(scores, reason); err != nil {
				return nil, r.errorf("end", err)
			}
			if err := r.afterEnd(); err != nil {
				return nil, err
			}
			return g, nil
		case "flip", "pass":
			m, err := r.moveLine(t, obj)
			if err != nil {
				return nil, err
			}
			if err := f.play(&m); err != nil {
				return nil, r.errorf(t, err)
			}
			g.Moves = append(g.Moves, m)
		default:
			return nil, r.errorf("", fmt.Errorf("type: %q is not a line type of a record (allowed: game, flip, pass, end)", t))
		}
	}
}

// finish ends a game without an end line.
func (r *Reader) finish(f *referee) error {
	if err := f.finish(nil, ""); err != nil {
		return r.errorf("", err)
	}
	return nil
}

// afterEnd reads ahead past an end line: what follows must be another game, or nothing.
func (r *Reader) afterEnd() error {
	obj, err := r.object()
	if err == io.EOF {
		r.exhausted = true
		return nil
	}
	if err != nil {
		return err
	}
	t, err := r.typeOf(obj)
	if err != nil {
		return err
	}
	if t != "game" {
		return r.errorf(t, errors.New("after the game's end line: a new game begins with a game line"))
	}
	r.next, r.nextLine = obj, r.line
	return nil
}

// fields checks that obj has only the allowed fields and every required one.
func (r *Reader) fields(typ string, obj map[string]json.RawMessage, required []string, optional ...string) error {
	for _, k := range required {
		if _, ok := obj[k]; !ok {
			return r.errorf(typ, fmt.Errorf("%s: missing", k))
		}
	}
	for k, v := range obj {
		if k == "type" {
			continue
		}
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			return r.errorf(typ, fmt.Errorf("%s: not a field of a %s line", k, typ))
		}
		if string(bytes.TrimSpace(v)) == "null" {
			return r.errorf(typ, fmt.Errorf("%s: is null", k))
		}
	}
	return nil
}

// gameLine decodes a game line.
func (r *Reader) gameLine(obj map[string]json.RawMessage) (*Game, error) {
	if err := r.fields("game", obj, []string{"format", "rules"}, "players", "deal", "started", "meta"); err != nil {
		return nil, err
	}
	fail := func(field string, err error) (*Game, error) {
		return nil, r.errorf("game", fmt.Errorf("%s: %w", field, err))
	}
	var format string
	if err := strictString(obj["format"], &format); err != nil {
		return fail("format", err)
	}
	if format != Format {
		return fail("format", fmt.Errorf("%q is not %q", format, Format))
	}
	g := &Game{}
	var err error
	if g.Rules, err = decodeRules(obj["rules"]); err != nil {
		return fail("rules", err)
	}
	if raw, ok := obj["players"]; ok {
		if g.Players, err = decodePlayers(raw); err != nil {
			return fail("players", err)
		}
	}
	if raw, ok := obj["deal"]; ok {
		var deal []json.RawMessage
		if err := json.Unmarshal(raw, &deal); err != nil || deal == nil {
			return fail("deal", errors.New("not a list of faces"))
		}
		g.Deal = make([]int, len(deal))
		for i, v := range deal {
			if g.Deal[i], err = strictInt(v); err != nil {
				return fail(fmt.Sprintf("deal[%d]", i), err)
			}
		}
	}
	if raw, ok := obj["started"]; ok {
		var s string
		if err := strictString(raw, &s); err != nil {
			return fail("started", err)
		}
		if g.Started, err = time.Parse(time.RFC3339Nano, s); err != nil {
			return fail("started", fmt.Errorf("%q is not an RFC 3339 time such as 2026-11-25T14:03:00Z", s))
		}
	}
	if raw, ok := obj["meta"]; ok {
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(raw, &meta); err != nil || meta == nil {
			return fail("meta", errors.New("not an object of strings"))
		}
		g.Meta = make(map[string]string, len(meta))
		for k, v := range meta {
			var s string
			if err := strictString(v, &s); err != nil {
				return fail("meta."+k, err)
			}
			g.Meta[k] = s
		}
	}
	return g, nil
}

// decodeRules decodes a rules object, with its defaults.
func decodeRules(raw json.RawMessage) (Rules, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return Rules{}, errors.New("not an object")
	}
	r := Rules{Seats: 2}
	for k, v := range obj {
		var err error
		switch k {
		case "pairs":
			r.Pairs, err = strictInt(v)
		case "singletons":
			r.Singletons, err = strictInt(v)
		case "seats":
			r.Seats, err = strictInt(v)
		case "pass":
			var s string
			if err = strictString(v, &s); err == nil {
				r.Pass, err = rules.ParsePassRule(s)
			}
		case "choices":
			r.Choices, err = decodeChoices(v)
		case "copies":
			r.Variant.Copies, err = strictInt(v)
		case "flips":
			var s string
			if err = strictString(v, &s); err == nil {
				r.Variant.Flips, err = rules.ParseFlips(s)
			}
		case "turn_limit":
			r.Variant.TurnLimit, err = strictInt(v)
		default:
			err = errors.New("not a field of the rules (allowed: pairs, singletons, seats, pass, choices, copies, flips, turn_limit)")
		}
		if err != nil {
			return Rules{}, fmt.Errorf("%s: %w", k, err)
		}
	}
	if _, ok := obj["pairs"]; !ok {
		return Rules{}, errors.New("pairs: missing")
	}
	if err := r.Validate(); err != nil {
		return Rules{}, err
	}
	return r, nil
}

// decodeChoices decodes a list of choice names.
func decodeChoices(raw json.RawMessage) (rules.ChoiceSet, error) {
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil || names == nil {
		return rules.ChoiceSet{}, errors.New("not a list of choices")
	}
	var cs []rules.Choice
	for _, name := range names {
		c, err := rules.ParseChoice(name)
		if err != nil {
			return rules.ChoiceSet{}, err
		}
		if slices.Contains(cs, c) {
			return rules.ChoiceSet{}, fmt.Errorf("%s is given twice", name)
		}
		cs = append(cs, c)
	}
	set := rules.NewChoiceSet(cs...)
	if err := set.Validate(); err != nil {
		return rules.ChoiceSet{}, err
	}
	return set, nil
}

// decodePlayers decodes the players.
func decodePlayers(raw json.RawMessage) ([]Player, error) {
	var objs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &objs); err != nil || objs == nil {
		return nil, errors.New("not a list of players")
	}
	ps := make([]Player, len(objs))
	for i, obj := range objs {
		if obj == nil {
			return nil, fmt.Errorf("[%d]: not an object", i)
		}
		if _, ok := obj["name"]; !ok {
			return nil, fmt.Errorf("[%d].name: missing", i)
		}
		for k, v := range obj {
			var dst *string
			switch k {
			case "name":
				dst = &ps[i].Name
			case "kind":
				dst = &ps[i].Kind
			case "about":
				dst = &ps[i].About
			default:
				return nil, fmt.Errorf("[%d].%s: not a field of a player (allowed: name, kind, about)", i, k)
			}
			if err := strictString(v, dst); err != nil {
				return nil, fmt.Errorf("[%d].%s: %w", i, k, err)
			}
		}
	}
	return ps, nil
}

// moveLine decodes a flip or pass line.
func (r *Reader) moveLine(typ string, obj map[string]json.RawMessage) (Move, error) {
	m := Move{Seat: -1, MS: -1, Pass: typ == "pass"}
	required := []string{"pos", "face"}
	if m.Pass {
		required = nil
	}
	if err := r.fields(typ, obj, required, "seat", "ms"); err != nil {
		return Move{}, err
	}
	for k, v := range obj {
		var err error
		switch k {
		case "pos":
			m.Pos, err = strictInt(v)
		case "face":
			m.Face, err = strictInt(v)
		case "seat":
			m.Seat, err = strictInt(v)
			if err == nil && m.Seat < 0 {
				err = fmt.Errorf("%d is negative", m.Seat)
			}
		case "ms":
			var ms int
			ms, err = strictInt(v)
			m.MS = int64(ms)
			if err == nil && ms < 0 {
				err = fmt.Errorf("%d is negative", ms)
			}
		}
		if err != nil {
			return Move{}, r.errorf(typ, fmt.Errorf("%s: %w", k, err))
		}
	}
	return m, nil
}

// endLine decodes an end line's scores and its reason ("" when not given).
func (r *Reader) endLine(obj map[string]json.RawMessage) ([]float64, string, error) {
	if err := r.fields("end", obj, []string{"scores"}, "reason"); err != nil {
		return nil, "", err
	}
	var reason string
	if raw, ok := obj["reason"]; ok {
		if err := strictString(raw, &reason); err != nil {
			return nil, "", r.errorf("end", fmt.Errorf("reason: %w", err))
		}
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(obj["scores"], &raw); err != nil || raw == nil {
		return nil, "", r.errorf("end", errors.New("scores: not a list of numbers"))
	}
	scores := make([]float64, len(raw))
	for i, v := range raw {
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
		if err != nil || !isNumber(v) {
			return nil, "", r.errorf("end", fmt.Errorf("scores[%d]: %s is not a number", i, bytes.TrimSpace(v)))
		}
		scores[i] = f
	}
	return scores, reason, nil
}

// isNumber reports whether raw is a JSON number.
func isNumber(raw json.RawMessage) bool {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return false
	}
	n, ok := v.(json.Number)
	return ok && n != ""
}

// strictInt decodes a JSON integer: a number with no fraction or exponent, in the range of int.
func strictInt(raw json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(raw))
	if !isNumber(raw) {
		return 0, fmt.Errorf("%s is not an integer", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer (no fraction, no exponent, at most 2^63-1)", s)
	}
	return n, nil
}

// strictString decodes a JSON string.
func strictString(raw json.RawMessage, s *string) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '"' || json.Unmarshal(t, s) != nil {
		return fmt.Errorf("%s is not a string", bytes.TrimSpace(raw))
	}
	return nil
}

// twice returns the path of the first member given twice in an object of data, a valid JSON
// value, such as "rules.pairs" or "players[1].name", or "" when no member is.
func twice(data []byte) string {
	type frame struct {
		path      string
		keys      map[string]bool // the object's members; nil for an array
		member    string          // the path of the object's member being read
		expectKey bool
		index     int // the array's element being read
	}
	var stack []*frame
	advance := func() {
		if n := len(stack); n > 0 {
			if top := stack[n-1]; top.keys != nil {
				top.expectKey = true
			} else {
				top.index++
			}
		}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		delim, isDelim := tok.(json.Delim)
		if isDelim && (delim == '}' || delim == ']') {
			stack = stack[:len(stack)-1]
			advance()
			continue
		}
		if top != nil && top.keys != nil && top.expectKey {
			k, _ := tok.(string)
			path := k
			if top.path != "" {
				path = top.path + "." + k
			}
			if top.keys[k] {
				return path
			}
			top.keys[k], top.member, top.expectKey = true, path, false
			continue
		}
		path := ""
		switch {
		case top != nil && top.keys != nil:
			path = top.member
		case top != nil:
			path = fmt.Sprintf("%s[%d]", top.path, top.index)
		}
		if isDelim {
			f := &frame{path: path}
			if delim == '{' {
				f.keys, f.expectKey = map[string]bool{}, true
			}
			stack = append(stack, f)
			continue
		}
		advance()
	}
}
