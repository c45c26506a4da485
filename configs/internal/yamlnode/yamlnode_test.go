package yamlnode

import (
	"errors"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// wantError checks that err is a one-line *Error of the file "t.yaml" at pos ("line:col") whose
// message holds msg.
func wantError(t *testing.T, err error, pos, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not an *Error: %v", err, err)
	}
	prefix := "t.yaml:" + pos + ": "
	if s := err.Error(); !strings.HasPrefix(s, prefix) || !strings.Contains(s, msg) || strings.ContainsAny(s, "\r\n") {
		t.Errorf("error\n  %s\nwant prefix %q, fragment %q, one line", s, prefix, msg)
	}
}

// documents reads every document of src and returns the first error.
func documents(src string) ([]*yaml.Node, error) {
	r := &Reader{File: "t.yaml"}
	s, err := r.Stream([]byte(src))
	if err != nil {
		return nil, err
	}
	var docs []*yaml.Node
	for {
		doc, err := s.Next()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct{ name, src, pos, msg string }{
		{"unclosed flow list", "games: [1\n", "2:1", "yaml: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 8)"},
		{"mapping in a plain value", "name: a: b\n", "1:8", "mapping values are not allowed"},
		{"tab indentation", "players:\n\t- a\n", "2:1", "found character that cannot start any token"},
		{"bad escape", "name: \"\\q\"\n", "1:8", "found unknown escape character"},
		{"control character", "name: a\nseed: 1\x01\n", "2:8", "control characters are not allowed"},
		{"invalid UTF-8", "name: a\n# \xff\n", "2:3", "invalid leading UTF-8 octet"},
		{"invalid UTF-8 after a multi-byte character", "é: \xff\n", "1:4", "invalid"},
		{"unknown anchor", "seed: *s\n", "1:7", "unknown anchor 's'"},
		{"in the second document", "name: a\n---\n[\n", "4:1", "did not find expected node content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := documents(tt.src)
			if err == nil {
				t.Fatalf("no error; %d documents", len(docs))
			}
			wantError(t, err, tt.pos, tt.msg)
		})
	}
}

func TestDocuments(t *testing.T) {
	for src, want := range map[string]int{"": 0, "# nothing\n": 0, "a: 1\n": 1, "a: 1\n---\nb: 2\n": 2, "---\n---\n": 2} {
		docs, err := documents(src)
		if err != nil || len(docs) != want {
			t.Errorf("%q: %d documents, error %v; want %d", src, len(docs), err, want)
		}
	}
}

func TestTop(t *testing.T) {
	const empty = "empty document: give something"
	tests := []struct{ src, pos, msg string }{
		{"---\n", "1:1", empty},
		{"~\n", "1:1", empty},
		{"- a\n", "1:1", "the top level must be a mapping of keys to values, got a list"},
		{"\nhello\n", "2:1", `the top level must be a mapping of keys to values, got string "hello"`},
		{"!foo {a: 1}\n", "1:1", "unsupported tag !foo"},
	}
	r := &Reader{File: "t.yaml"}
	for _, tt := range tests {
		docs, err := documents(tt.src)
		if err != nil || len(docs) != 1 {
			t.Fatalf("%q: %d documents, error %v", tt.src, len(docs), err)
		}
		_, err = r.Top(docs[0], empty)
		if err == nil {
			t.Errorf("%q: no error", tt.src)
			continue
		}
		wantError(t, err, tt.pos, tt.msg)
	}
	docs, _ := documents("a: 1\n")
	if top, err := r.Top(docs[0], empty); err != nil || top.Kind != yaml.MappingNode || top.Line != 1 {
		t.Errorf("a mapping: %v, %v", top, err)
	}
}

// top returns the top-level mapping of src, a document that must be one.
func top(t *testing.T, src string) *yaml.Node {
	t.Helper()
	docs, err := documents(src)
	if err != nil || len(docs) != 1 {
		t.Fatalf("%q: %d documents, error %v", src, len(docs), err)
	}
	n, err := (&Reader{File: "t.yaml"}).Top(docs[0], "empty")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMapping(t *testing.T) {
	r := &Reader{File: "t.yaml"}
	entries, err := r.Mapping(top(t, "b: 1\na: ~\nc: [x]\n"), "", "a", "b", "c")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.Key)
	}
	if strings.Join(keys, " ") != "b c" || entries[1].KeyNode.Line != 3 || entries[1].Val.Column != 4 {
		t.Errorf("entries %v (a null value is absent; c's key on line 3, its value at column 4)", keys)
	}
	errs := []struct{ src, path, pos, msg string }{
		{"d: 1\n", "", "1:1", `unknown key "d" (allowed: a, b, c)`},
		{"m: {a: 1, d: 2}\n", "m", "1:11", `m: unknown key "d" (allowed: a, b, c)`},
		{"<<: {a: 1}\n", "", "1:1", `unknown key "<<"`},
		{"[a]: 1\n", "", "1:1", "expected a key (one of a, b, c), got a list"},
		{"a: 1\nb: 2\na: 3\n", "", "3:1", `duplicate key "a" (first at line 1, column 1)`},
		{"a:\na: 2\n", "", "2:1", `duplicate key "a" (first at line 1, column 1)`},
		{"a: &k b\n*k : 1\n", "", "2:1", "aliases (*k) are not supported: write the value out"},
	}
	for _, e := range errs {
		n := top(t, e.src)
		if e.path != "" {
			n = n.Content[1]
		}
		_, err := r.Mapping(n, e.path, "a", "b", "c")
		if err == nil {
			t.Errorf("%q: no error", e.src)
			continue
		}
		wantError(t, err, e.pos, e.msg)
	}
}

// value returns the value node of the only key of the document "v: " + src (at 1:4).
func value(t *testing.T, src string) *yaml.Node {
	t.Helper()
	return top(t, "v: "+src+"\n").Content[1]
}

func TestValues(t *testing.T) {
	r := &Reader{File: "t.yaml"}
	text := func(n *yaml.Node) (any, error) { return r.Text(n, "v") }
	boolean := func(n *yaml.Node) (any, error) { return r.Bool(n, "v") }
	integer := func(n *yaml.Node) (any, error) {
		z, err := r.Integer(n, "v")
		if err != nil {
			return nil, err
		}
		return z.String(), nil
	}
	small := func(n *yaml.Node) (any, error) { return r.IntIn(n, "v", 1, 9) }
	open := func(n *yaml.Node) (any, error) { return r.IntIn(n, "v", 0, math.MaxInt) }
	u64 := func(n *yaml.Node) (any, error) { return r.Uint64(n, "v") }
	number := func(n *yaml.Node) (any, error) { return r.Number(n, "v") }
	list := func(n *yaml.Node) (any, error) { return nil, r.Kind(n, "v", yaml.SequenceNode, "a list of things") }
	tests := []struct {
		name string
		read func(*yaml.Node) (any, error)
		src  string
		want any    // the value, when msg is empty
		msg  string // a fragment of the error, at 1:4
	}{
		{"text", text, "hello", "hello", ""},
		{"text: an integer as written", text, "0x10", "0x10", ""},
		{"text: a boolean as written", text, "true", "true", ""},
		{"text: non-specific tag", text, "! 5", "5", ""},
		{"text: list", text, "[a]", nil, "v: expected a string, got a list"},
		{"text: binary", text, "!!binary YQ==", nil, `v: expected a string, got !!binary "YQ=="`},
		{"text: alias", text, "*a", nil, "v: aliases (*a) are not supported"},
		{"bool: true", boolean, "True", true, ""},
		{"bool: false", boolean, "FALSE", false, ""},
		{"bool: yes", boolean, "yes", nil, `v: expected true or false, got string "yes"`},
		{"bool: 1", boolean, "1", nil, "v: expected true or false, got integer 1"},
		{"integer: decimal", integer, "1_000", "1000", ""},
		{"integer: hexadecimal", integer, "0xff", "255", ""},
		{"integer: octal", integer, "0o17", "15", ""},
		{"integer: binary", integer, "0b101", "5", ""},
		{"integer: beyond 64 bits", integer, "99999999999999999999", "99999999999999999999", ""},
		{"integer: 1.5", integer, "1.5", nil, "v: expected an integer, got number 1.5"},
		{"integer: quoted", integer, `"5"`, nil, `v: expected an integer, got string "5"`},
		{"integer: tagged string", integer, "!!str 5", nil, `v: expected an integer, got !!str "5"`},
		{"integer: tagged", integer, "!!int five", nil, `v: expected an integer, got !!int "five"`},
		{"integer: mapping", integer, "{a: 1}", nil, "v: expected an integer, got a mapping"},
		{"in range", small, "9", 9, ""},
		{"below the range", small, "0", nil, "v: must be between 1 and 9, got 0"},
		{"far above the range", small, "18446744073709551616", nil, "v: must be between 1 and 9, got 18446744073709551616"},
		{"open range: too small", open, "-1", nil, "v: must be at least 0, got -1"},
		{"open range: too large", open, "9223372036854775808", nil, "v: 9223372036854775808 is too large (at most 9223372036854775807)"},
		{"uint64: largest", u64, "18446744073709551615", uint64(math.MaxUint64), ""},
		{"uint64: negative", u64, "-1", nil, "v: must not be negative, got -1"},
		{"uint64: too large", u64, "18446744073709551616", nil, "v: 18446744073709551616 is too large (at most 18446744073709551615)"},
		{"number: integer", number, "2", 2.0, ""},
		{"number: float", number, "1e-3", 0.001, ""},
		{"number: largest float", number, "1.7976931348623157e308", math.MaxFloat64, ""},
		{"number: infinity", number, ".inf", nil, "v: expected a finite number, got number .inf"},
		{"number: minus infinity", number, "-.Inf", nil, "v: expected a finite number, got number -.Inf"},
		{"number: not a number", number, ".nan", nil, "v: expected a finite number, got number .nan"},
		{"number: beyond float64", number, "1e309", nil, `v: expected a number, got string "1e309"`},
		{"number: string", number, "x", nil, `v: expected a number, got string "x"`},
		{"list", list, "[1]", nil, ""},
		{"list: mapping", list, "{}", nil, "v: expected a list of things, got a mapping"},
		{"list: tagged", list, "!!set [1]", nil, "v: unsupported tag !!set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if strings.HasPrefix(src, "*") {
				src = "&a x\nw: " + src // the alias is then at 2:4
			}
			var n *yaml.Node
			if src != tt.src {
				n = top(t, "v: "+src+"\n").Content[3]
			} else {
				n = value(t, src)
			}
			got, err := tt.read(n)
			switch {
			case tt.msg == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.msg == "" && got != tt.want:
				t.Errorf("got %v (%T), want %v (%T)", got, got, tt.want, tt.want)
			case tt.msg != "" && err == nil:
				t.Fatalf("no error; got %v", got)
			case tt.msg != "":
				pos := "1:4"
				if src != tt.src {
					pos = "2:4"
				}
				wantError(t, err, pos, tt.msg)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	long := strings.Repeat("x", 41)
	tests := []struct{ got, want string }{
		{Short("abc"), "abc"},
		{Short("a b"), `"a b"`},
		{Short(long), strings.Repeat("x", 40) + "..."},
		{Quote("a"), `"a"`},
		{Quote(long), `"` + strings.Repeat("x", 40) + `"...`},
		{Quote("é\x00"), `"é\x00"`},
		{OneLine("a\n  b\r\nc"), "a b c"},
		{OneLine("a  b"), "a  b"},
		{(&Error{File: "f", Line: 2, Column: 3, Msg: "m"}).Error(), "f:2:3: m"},
		{(&Reader{File: "f"}).Errorf(Pos{}, "p", "x\ny").Error(), "f:1:1: p: x y"},
		// Paths: the first 100 bytes and the last 97 of a longer one, on rune boundaries.
		{ShortPath("dir/c.yaml"), "dir/c.yaml"},
		{ShortPath(strings.Repeat("a", 200)), strings.Repeat("a", 200)},
		{ShortPath(strings.Repeat("a", 150) + strings.Repeat("b", 150)), strings.Repeat("a", 100) + "..." + strings.Repeat("b", 97)},
		{ShortPath(strings.Repeat("é", 150)), strings.Repeat("é", 50) + "..." + strings.Repeat("é", 48)},
		{ShortPath("a\tb"), `"a\tb"`},
		{ShortPath("a\xffb"), `"a\xffb"`},
		{(&Error{File: strings.Repeat("f", 300), Line: 2, Column: 3, Msg: "m"}).Error(), strings.Repeat("f", 100) + "..." + strings.Repeat("f", 97) + ":2:3: m"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: %q, want %q", i, tt.got, tt.want)
		}
	}
	if err := (&Reader{}).Wrap(value(t, "1"), "v", nil); err != nil {
		t.Errorf("Wrap(nil) = %v", err)
	}
}

func TestBadCharPos(t *testing.T) {
	tests := []struct {
		data string
		want Pos
	}{
		{"abc", Pos{1, 1}},
		{"a\nbc\x01", Pos{2, 3}},
		{"éé\xff", Pos{1, 3}},
		{"a\tb\x7f", Pos{1, 4}},
		{"\xfe\xffa\x00", Pos{1, 1}},
		{"a\u0085b\u0090", Pos{1, 4}},
	}
	for _, tt := range tests {
		if got := badCharPos([]byte(tt.data)); got != tt.want {
			t.Errorf("badCharPos(%q) = %v, want %v", tt.data, got, tt.want)
		}
	}
}

// errPrefix matches the start of every error for the file "f.yaml".
var errPrefix = regexp.MustCompile(`^f\.yaml:[1-9][0-9]*:[1-9][0-9]*: \S`)

// FuzzStream checks that reading every document of a stream, its top-level mapping and the
// entries of that mapping never panics, and that every error is a one-line *Error starting with
// "f.yaml:line:col: ".
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "a: [1\n", "a: &x [*x]\nb: *x\n", strings.Repeat("[", 300), strings.Repeat("- ", 300),
		"\xff\xfe", "\ufeffa: 1\n", "? [a]\n: b\n", "%YAML 1.1\n---\na: 1\n", "a: 1\n---\n[\n", "a: \"\\q\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &Reader{File: "f.yaml"}
		check := func(err error) {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error: %v", err, err)
			}
			if msg := err.Error(); !errPrefix.MatchString(msg) || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("malformed error %q", msg)
			}
		}
		s, err := r.Stream(data)
		if err != nil {
			check(err)
			return
		}
		for {
			doc, err := s.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				check(err)
				return
			}
			top, err := r.Top(doc, "empty")
			if err != nil {
				check(err)
				continue
			}
			if _, err := r.Mapping(top, "", "a", "b"); err != nil {
				check(err)
			}
		}
	})
}
