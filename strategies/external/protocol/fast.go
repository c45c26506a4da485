package protocol

import (
	"math"
	"strconv"
)

// decode decodes the messages of a game (all but hello, player and options) written as
// Encode writes them or nearly so: "type" first, ASCII only, no escapes, no member twice, integers
// without fraction or exponent. It returns nil for any other line, which Decode then reads by
// the general path; a message it returns is the one the general path returns for the line.
func (s *scanner) decode(line []byte, side Side) Message {
	*s = scanner{b: line}
	s.ws()
	if !s.byte('{') {
		return nil
	}
	s.ws()
	if k, ok := s.str(); !ok || string(k) != "type" || !s.colon() {
		return nil
	}
	typ, ok := s.str()
	if !ok {
		return nil
	}
	var m Message
	var members func(s *scanner, key []byte) bit
	if side == FromPlayer {
		switch string(typ) {
		case "flip":
			v := &Flip{}
			m, members = v, v.member
		case "flips":
			v := &Flips{}
			m, members = v, v.member
		case "pass":
			v := &Pass{}
			m, members = v, v.member
		case "choice":
			v := &Choice{}
			m, members = v, v.member
		}
	} else {
		switch string(typ) {
		case "new_game":
			v := &NewGame{}
			m, members = v, v.member
		case "flip":
			v := &FlipEvent{}
			m, members = v, v.member
		case "pair":
			v := &PairEvent{}
			m, members = v, v.member
		case "pass":
			v := &PassEvent{}
			m, members = v, v.member
		case "handover":
			v := &Handover{}
			m, members = v, v.member
		case "end":
			v := &End{}
			m, members = v, v.member
		case "move":
			v := &Move{}
			m, members = v, v.member
		}
	}
	if m == nil {
		return nil
	}
	var got bit
	for {
		s.ws()
		if s.byte('}') {
			break
		}
		if !s.byte(',') {
			return nil
		}
		s.ws()
		key, ok := s.str()
		if !ok || !s.colon() {
			return nil
		}
		b := members(s, key)
		if b == 0 || got&b != 0 || s.failed {
			return nil
		}
		got |= b
	}
	s.ws()
	if s.failed || s.i != len(s.b) || got&required(m) != required(m) {
		return nil
	}
	return m
}

// bit stands for one member of a message: the members' bits are 1, 2, 4, ... in the order of
// the message's fields; 0 stands for none (an unknown member, or a value the fast path leaves to
// the general one).
type bit uint16

// required returns the bits of m's required members: its fields without omitempty.
func required(m Message) bit {
	switch m.(type) {
	case *Move:
		return 1 | 2 | 4 | 16 // game, card, legal, deadline_ms
	case *PairEvent, *FlipEvent:
		return 15
	case *NewGame:
		return 15
	case *End, *Handover, *PassEvent, *Flip, *Flips, *Choice:
		return 3
	case *Pass:
		return 1
	}
	return 0
}

func (m *Flip) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "pos":
		return s.int(&m.Pos, 2)
	}
	return 0
}

func (m *Flips) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "positions":
		return s.pair(&m.Positions, 2)
	}
	return 0
}

func (m *Pass) member(s *scanner, key []byte) bit {
	if string(key) == "game" {
		return s.int64(&m.Game, 1)
	}
	return 0
}

func (m *Choice) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "choice":
		return s.string(&m.Choice, 2)
	}
	return 0
}

func (m *NewGame) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "seat":
		return s.int(&m.Seat, 2)
	case "seed":
		return s.int64(&m.Seed, 4)
	case "rules":
		return s.object(8, 31, m.Rules.member)
	}
	return 0
}

func (r *Rules) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "pairs":
		return s.int(&r.Pairs, 1)
	case "singletons":
		return s.int(&r.Singletons, 2)
	case "seats":
		return s.int(&r.Seats, 4)
	case "pass":
		return s.string(&r.Pass, 8)
	case "choices":
		return s.strings(&r.Choices, 16)
	case "copies":
		return s.int(&r.Copies, 32)
	case "flips":
		return s.string(&r.Flips, 64)
	case "turn_limit":
		return s.int(&r.TurnLimit, 128)
	}
	return 0
}

func (m *FlipEvent) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "seat":
		return s.int(&m.Seat, 2)
	case "pos":
		return s.int(&m.Pos, 4)
	case "face":
		return s.int(&m.Face, 8)
	}
	return 0
}

func (m *PairEvent) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "seat":
		return s.int(&m.Seat, 2)
	case "face":
		return s.int(&m.Face, 4)
	case "positions":
		return s.pair(&m.Positions, 8)
	}
	return 0
}

func (m *PassEvent) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "seat":
		return s.int(&m.Seat, 2)
	}
	return 0
}

func (m *Handover) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "seat":
		return s.int(&m.Seat, 2)
	}
	return 0
}

func (m *End) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "scores":
		return s.floats(&m.Scores, 2)
	}
	return 0
}

func (m *Move) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "game":
		return s.int64(&m.Game, 1)
	case "card":
		return s.int(&m.Card, 2)
	case "legal":
		return s.ints(&m.Legal, 4)
	case "pass":
		return s.bool(&m.Pass, 8)
	case "deadline_ms":
		return s.int(&m.DeadlineMS, 16)
	case "state":
		m.State = &State{}
		return s.object(32, 63, m.State.member)
	case "known":
		return s.cards(&m.Known, 64)
	case "choices":
		return s.strings(&m.Choices, 128)
	case "blind":
		return s.bool(&m.Blind, 256)
	case "turn":
		return s.int(&m.Turn, 512)
	}
	return 0
}

func (st *State) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "n":
		return s.int(&st.N, 1)
	case "j":
		return s.int(&st.J, 2)
	case "s":
		return s.int(&st.S, 4)
	case "f":
		return s.int(&st.F, 8)
	case "lead":
		return s.int(&st.Lead, 16)
	case "after_pass":
		return s.bool(&st.AfterPass, 32)
	}
	return 0
}

func (c *Card) member(s *scanner, key []byte) bit {
	switch string(key) {
	case "pos":
		return s.int(&c.Pos, 1)
	case "face":
		return s.int(&c.Face, 2)
	}
	return 0
}

// scanner reads JSON tokens from b at i. Once it has failed it reads nothing more.
type scanner struct {
	b      []byte
	i      int
	failed bool
}

// fail marks the scan failed and returns 0.
func (s *scanner) fail() bit {
	s.i, s.failed = len(s.b), true
	return 0
}

// ws skips JSON whitespace.
func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// byte reads c if it comes next, and reports whether it did.
func (s *scanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// colon reads a ':' between whitespace.
func (s *scanner) colon() bool {
	s.ws()
	ok := s.byte(':')
	s.ws()
	return ok
}

// str reads a string of printable ASCII without escapes, and returns its bytes in b.
func (s *scanner) str() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20 || c == '\\' || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// number returns the next JSON number's text, and whether it is an integer (no fraction, no
// exponent).
func (s *scanner) number() (text []byte, integer bool) {
	start := s.i
	s.byte('-')
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || s.b[digits] == '0' && s.i > digits+1 {
		s.fail()
		return nil, false
	}
	integer = true
	if s.byte('.') {
		integer = false
		if !s.digits() {
			return nil, false
		}
	}
	if s.byte('e') || s.byte('E') {
		integer = false
		if !s.byte('+') {
			s.byte('-')
		}
		if !s.digits() {
			return nil, false
		}
	}
	return s.b[start:s.i], integer
}

// digits reads one or more digits.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == start {
		s.fail()
		return false
	}
	return true
}

// int64 reads an integer of at most 18 digits into v.
func (s *scanner) int64(v *int64, b bit) bit {
	text, integer := s.number()
	if !integer || len(text) > 18 {
		return s.fail()
	}
	n, neg := int64(0), text[0] == '-'
	if neg {
		text = text[1:]
	}
	for _, c := range text {
		n = 10*n + int64(c-'0')
	}
	if neg {
		n = -n
	}
	*v = n
	return b
}

// int reads an integer into v.
func (s *scanner) int(v *int, b bit) bit {
	var n int64
	if s.int64(&n, b) == 0 || int64(int(n)) != n {
		return s.fail()
	}
	*v = int(n)
	return b
}

// float reads a number into v.
func (s *scanner) float(v *float64, b bit) bit {
	text, _ := s.number()
	if s.failed {
		return 0
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return s.fail()
	}
	*v = f
	return b
}

// bool reads true or false into v.
func (s *scanner) bool(v *bool, b bit) bit {
	for _, lit := range [...]string{"true", "false"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			*v = lit == "true"
			return b
		}
	}
	return s.fail()
}

// string reads a string into v.
func (s *scanner) string(v *string, b bit) bit {
	str, ok := s.str()
	if !ok {
		return s.fail()
	}
	*v = intern(str)
	return b
}

// intern returns b as a string, without allocating for the names of choices and pass rules.
func intern(b []byte) string {
	switch string(b) {
	case "daring":
		return "daring"
	case "safe":
		return "safe"
	case "known-first":
		return "known-first"
	case "pass":
		return "pass"
	case "never":
		return "never"
	case "two-known":
		return "two-known"
	case "always":
		return "always"
	}
	return string(b)
}

// array reads a JSON array, calling item for each element; an empty array leaves the slice nil,
// as the general path does.
func (s *scanner) array(b bit, item func() bit) bit {
	if !s.byte('[') {
		return s.fail()
	}
	s.ws()
	if s.byte(']') {
		return b
	}
	for {
		if item() == 0 {
			return s.fail()
		}
		s.ws()
		if s.byte(']') {
			return b
		}
		if !s.byte(',') {
			return s.fail()
		}
		s.ws()
	}
}

// ints reads an array of integers into v.
func (s *scanner) ints(v *[]int, b bit) bit {
	if !s.byte('[') {
		return s.fail()
	}
	*v = nil
	s.ws()
	if s.byte(']') {
		return b
	}
	out := make([]int, 0, s.items())
	for {
		var n int
		if s.int(&n, 1) == 0 {
			return 0
		}
		out = append(out, n)
		s.ws()
		if s.byte(']') {
			*v = out
			return b
		}
		if !s.byte(',') {
			return s.fail()
		}
		s.ws()
	}
}

// pair reads an array of exactly two numbers into v.
func (s *scanner) pair(v *[2]int, b bit) bit {
	var ps []int
	if s.ints(&ps, b) == 0 || len(ps) != 2 {
		return 0
	}
	*v = [2]int{ps[0], ps[1]}
	return b
}

// items returns an upper bound on the number of elements of the array of numbers that follows.
func (s *scanner) items() int {
	n := 1
	for _, c := range s.b[s.i:] {
		switch c {
		case ',':
			n++
		case ']':
			return n
		}
	}
	return 0
}

// arrayOf reads an array whose elements read reads into v.
func arrayOf[T any](s *scanner, v *[]T, b bit, read func(*T) bit) bit {
	var out []T
	r := s.array(b, func() bit {
		var x T
		if read(&x) == 0 {
			return 0
		}
		out = append(out, x)
		return 1
	})
	*v = out
	return r
}

// floats reads an array of numbers into v.
func (s *scanner) floats(v *[]float64, b bit) bit {
	return arrayOf(s, v, b, func(f *float64) bit { return s.float(f, 1) })
}

// strings reads an array of strings into v.
func (s *scanner) strings(v *[]string, b bit) bit {
	return arrayOf(s, v, b, func(str *string) bit { return s.string(str, 1) })
}

// cards reads an array of cards into v.
func (s *scanner) cards(v *[]Card, b bit) bit {
	return arrayOf(s, v, b, func(c *Card) bit { return s.object(1, 3, c.member) })
}

// object reads a JSON object whose members member reads, each once; all of want must come.
func (s *scanner) object(b, want bit, member func(s *scanner, key []byte) bit) bit {
	if !s.byte('{') {
		return s.fail()
	}
	var got bit
	s.ws()
	if !s.byte('}') {
		for {
			key, ok := s.str()
			if !ok || !s.colon() {
				return s.fail()
			}
			m := member(s, key)
			if m == 0 || got&m != 0 || s.failed {
				return s.fail()
			}
			got |= m
			s.ws()
			if s.byte('}') {
				break
			}
			if !s.byte(',') {
				return s.fail()
			}
			s.ws()
		}
	}
	if got&want != want {
		return s.fail() // a required member missing
	}
	return b
}

// appendFast appends m, a checked message, to b as Encode's general path writes it, with its
// newline, for the messages of a game (all but hello, player and options) whose strings need no
// escaping. It reports false, and b is to be dropped, for any other message.
func appendFast(b []byte, m Message) ([]byte, bool) {
	b = append(b, `{"type":"`...)
	b = append(b, m.Type()...)
	b = append(b, '"')
	switch m := m.(type) {
	case *Flip:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "pos", int64(m.Pos))
	case *Flips:
		b = appendInt(b, "game", m.Game)
		b = appendInts(b, "positions", m.Positions[:])
	case *Pass:
		b = appendInt(b, "game", m.Game)
	case *Choice:
		b = appendInt(b, "game", m.Game)
		if b = appendString(b, "choice", m.Choice); b == nil {
			return nil, false
		}
	case *FlipEvent:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "seat", int64(m.Seat))
		b = appendInt(b, "pos", int64(m.Pos))
		b = appendInt(b, "face", int64(m.Face))
	case *PairEvent:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "seat", int64(m.Seat))
		b = appendInt(b, "face", int64(m.Face))
		b = appendInts(b, "positions", m.Positions[:])
	case *PassEvent:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "seat", int64(m.Seat))
	case *Handover:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "seat", int64(m.Seat))
	case *End:
		b = appendInt(b, "game", m.Game)
		b = append(b, `,"scores":[`...)
		for i, v := range m.Scores {
			if v != 0 && math.Abs(v) < 1e-6 {
				return nil, false // encoding/json writes it with an exponent
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, v, 'f', -1, 64)
		}
		b = append(b, ']')
	case *Move:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "card", int64(m.Card))
		b = appendInts(b, "legal", m.Legal)
		if m.Pass {
			b = append(b, `,"pass":true`...)
		}
		if m.Blind {
			b = append(b, `,"blind":true`...)
		}
		if m.Turn != 0 {
			b = appendInt(b, "turn", int64(m.Turn))
		}
		b = appendInt(b, "deadline_ms", int64(m.DeadlineMS))
		if st := m.State; st != nil {
			b = append(b, `,"state":{"n":`...)
			b = strconv.AppendInt(b, int64(st.N), 10)
			b = appendInt(b, "j", int64(st.J))
			b = appendInt(b, "s", int64(st.S))
			b = appendInt(b, "f", int64(st.F))
			b = appendInt(b, "lead", int64(st.Lead))
			b = append(b, `,"after_pass":`...)
			b = strconv.AppendBool(b, st.AfterPass)
			b = append(b, '}')
		}
		if len(m.Known) > 0 {
			b = append(b, `,"known":[`...)
			for i, c := range m.Known {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"pos":`...)
				b = strconv.AppendInt(b, int64(c.Pos), 10)
				b = appendInt(b, "face", int64(c.Face))
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if len(m.Choices) > 0 {
			if b = appendStrings(b, "choices", m.Choices); b == nil {
				return nil, false
			}
		}
	case *NewGame:
		b = appendInt(b, "game", m.Game)
		b = appendInt(b, "seat", int64(m.Seat))
		b = appendInt(b, "seed", m.Seed)
		if b = appendRules(b, &m.Rules); b == nil {
			return nil, false
		}
	case *Position:
		b = appendInt(b, "game", m.Game)
		if b = appendRules(b, &m.Rules); b == nil {
			return nil, false
		}
		st := &m.State
		b = append(b, `,"state":{"n":`...)
		b = strconv.AppendInt(b, int64(st.N), 10)
		b = appendInt(b, "j", int64(st.J))
		b = appendInt(b, "s", int64(st.S))
		b = appendInt(b, "f", int64(st.F))
		b = appendInt(b, "lead", int64(st.Lead))
		b = append(b, `,"after_pass":`...)
		b = strconv.AppendBool(b, st.AfterPass)
		b = append(b, '}')
		if b = appendStrings(b, "choices", m.Choices); b == nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return append(b, '}', '\n'), true
}

// appendRules appends the member ,"rules":{...}, or returns nil if a string needs escaping.
func appendRules(b []byte, r *Rules) []byte {
	b = append(b, `,"rules":{"pairs":`...)
	b = strconv.AppendInt(b, int64(r.Pairs), 10)
	b = appendInt(b, "singletons", int64(r.Singletons))
	b = appendInt(b, "seats", int64(r.Seats))
	if b = appendString(b, "pass", r.Pass); b == nil {
		return nil
	}
	if b = appendStrings(b, "choices", r.Choices); b == nil {
		return nil
	}
	if r.Copies != 0 {
		b = appendInt(b, "copies", int64(r.Copies))
	}
	if r.Flips != "" {
		if b = appendString(b, "flips", r.Flips); b == nil {
			return nil
		}
	}
	if r.TurnLimit != 0 {
		b = appendInt(b, "turn_limit", int64(r.TurnLimit))
	}
	return append(b, '}')
}

// appendInt appends the member ,"key":v.
func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

// appendInts appends the member ,"key":[v...].
func appendInts(b []byte, key string, vs []int) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':', '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// appendString appends the member ,"key":"v", or returns nil if v needs escaping.
func appendString(b []byte, key, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendPlain(b, v)
}

// appendStrings appends the member ,"key":["v",...], or returns nil if a string needs escaping.
// A nil list is written as null, as encoding/json writes it.
func appendStrings(b []byte, key string, vs []string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		if b = appendPlain(b, v); b == nil {
			return nil
		}
	}
	return append(b, ']')
}

// appendPlain appends the JSON string "v", or returns nil if encoding/json would escape a byte
// of v.
func appendPlain(b []byte, v string) []byte {
	for i := range len(v) {
		if c := v[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return nil
		}
	}
	b = append(b, '"')
	b = append(b, v...)
	return append(b, '"')
}
