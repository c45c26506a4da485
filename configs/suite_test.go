package configs

import (
	"strings"
	"testing"
)

func TestParseSuite(t *testing.T) {
	opts := Options{Policies: []string{"safe", "daring"}, MaxPairs: 100}
	data := "players: [{name: a, policy: safe}, {name: b, policy: daring}]\n---\nname: second\nrules: {pairs: [3]}\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n"
	suite, err := ParseSuite("dir/s.yaml", []byte(data), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(suite) != 2 || suite[0].Name != "s-1" || suite[1].Name != "second" || suite[1].Rules.Pairs[0] != 3 || suite[1].File != "dir/s.yaml" {
		t.Fatalf("%+v", suite)
	}
	// Positions count lines across the whole stream.
	if p := suite[1].Players[1].Pos; p.Line != 5 {
		t.Errorf("second document's player at %+v, want line 5", p)
	}
	errs := []struct{ data, want string }{
		{"", "s.yaml:1:1: empty suite"},
		{data + "---\nname: second\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n", "s.yaml:7:1: document 3: duplicate name \"second\" (the document at line 3 already uses it)"},
		{data + "---\ngmaes: 1\n", "s.yaml:7:1: unknown key \"gmaes\""},
		{data + "---\n- 1\n", "s.yaml:7:1: the top level must be a mapping"},
		{data + "---\nplayers: [\n", "s.yaml:"},
	}
	for _, e := range errs {
		_, err := ParseSuite("dir/s.yaml", []byte(e.data), opts)
		if err == nil || !strings.HasPrefix(err.Error(), e.want) && !strings.Contains(err.Error(), e.want) {
			t.Errorf("error %v, want %q", err, e.want)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "dir/s.yaml:") {
			t.Errorf("error %v does not name the file", err)
		}
	}
}

// The embedded suite parses, with every document named.
func TestValidateSuiteParses(t *testing.T) {
	file, data := ValidationSuite()
	opts := Options{Policies: []string{"optimal", "best-response", "safe", "daring", "parity", "win-optimal", "win-best-response"},
		Opponents: testOpponents, MaxPairs: 1000}
	suite, err := ParseSuite(file, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(suite) < 10 {
		t.Errorf("%d documents", len(suite))
	}
}
