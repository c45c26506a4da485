package configs

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"memsim/sim/rules"
)

// identityBase is the configuration the identity tests vary.
const identityBase = `name: same
seed: 9
games: 500
paired: true
rules: {pairs: [4, 6], singletons: 1, pass: two-known}
players:
  - {name: a, policy: optimal, memory: {capacity: 4, forget: lru}}
  - {name: b, policy: best-response, opponent: parity, choices: [daring, safe]}
stop: {sprt: {d: 0.2, alpha: 0.05, beta: 0.1}}
`

// identityOf parses src as the file file and returns the tournament's identity.
func identityOf(t *testing.T, file, src string) []byte {
	t.Helper()
	tour, err := Parse(file, []byte(src), testOptions())
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return tour.Identity()
}

// Files that write the same settings otherwise, or that differ in workers or records only, have
// one identity.
func TestIdentityIgnoresHowSettingsAreWritten(t *testing.T) {
	base, err := Parse("same.yaml", []byte(identityBase), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	emitted := string(base.YAML())
	_, rest, _ := strings.Cut(emitted, "\n")
	variants := map[string]string{
		"workers": identityBase + "workers: 3\n",
		"records": identityBase + "records: 5\n",
		"comments": "# a tournament\n" + strings.Replace(identityBase, "games: 500\n", "games: 500 # per matchup\n", 1) +
			"# the end\n",
		"key order": `stop: {sprt: {beta: 0.1, d: 0.2, alpha: 0.05}}
players:
  - {memory: {forget: lru, capacity: 4}, policy: optimal, name: a}
  - {opponent: parity, choices: [daring, safe], policy: best-response, name: b}
rules: {pass: two-known, singletons: 1, pairs: [4, 6]}
paired: true
games: 500
seed: 9
name: same
`,
		"choices in another order": strings.Replace(identityBase, "[daring, safe]", "[safe, daring]", 1),
		"defaults written out": strings.Replace(identityBase, "pass: two-known}", "pass: two-known, players_per_game: 2}", 1) +
			"format: round-robin\nluck_adjusted: true\noutput: results\nworkers: 0\n",
		"values written otherwise": `name: "same"
seed: 0x9
games: 5_00
paired: True
rules:
  pairs:
    - 4
    - 0o6
  singletons: 1
  pass: 'two-known'
players:
  - name: a
    policy: optimal
    memory:
      capacity: 4
      forget: lru
  - name: b
    policy: best-response
    opponent: parity
    choices: [daring, safe]
stop:
  sprt: {d: 2e-1, alpha: 0.050, beta: .1}
`,
		"the emitter's text":         emitted,
		"the emitter's comment line": "# another comment line\n" + rest,
		"no comment line":            rest,
	}
	want := base.Identity()
	for name, src := range variants {
		for _, file := range []string{"same.yaml", "elsewhere/other.yml"} {
			if got := identityOf(t, file, src); !bytes.Equal(got, want) {
				t.Errorf("%s, file %s: identity\n%s\nwant\n%s", name, file, got, want)
			}
		}
	}
}

// Files whose settings differ have different identities.
func TestIdentityFollowsSettings(t *testing.T) {
	const (
		a = "  - {name: a, policy: optimal, memory: {capacity: 4, forget: lru}}\n"
		b = "  - {name: b, policy: best-response, opponent: parity, choices: [daring, safe]}\n"
	)
	// Each change replaces, in turn, old text of the base configuration with new text.
	changes := map[string][]string{
		"seed":                 {"seed: 9", "seed: 10"},
		"games":                {"games: 500", "games: 501"},
		"paired":               {"paired: true", "paired: false", "stop: {sprt: {d: 0.2, alpha: 0.05, beta: 0.1}}", ""},
		"luck adjustment":      {"paired: true", "paired: true\nluck_adjusted: false"},
		"format":               {"paired: true", "paired: true\nformat: gauntlet"},
		"output":               {"paired: true", "paired: true\noutput: elsewhere"},
		"deal sizes":           {"pairs: [4, 6]", "pairs: [4, 7]"},
		"deal size order":      {"pairs: [4, 6]", "pairs: [6, 4]"},
		"singletons":           {"singletons: 1", "singletons: 2"},
		"pass rule":            {"pass: two-known", "pass: always"},
		"a player's name":      {"{name: a,", "{name: c,"},
		"a player's policy":    {"policy: optimal", "policy: parity"},
		"an opponent":          {"opponent: parity", "opponent: safe"},
		"a memory field":       {"capacity: 4", "capacity: 5"},
		"a memory field given": {"forget: lru}", "forget: lru, scope: private}"},
		"a choice set":         {"choices: [daring, safe]", "choices: [daring, safe, pass]"},
		"player order":         {a + b, b + a},
		"the stopping rule":    {"d: 0.2", "d: 0.25"},
	}
	want := identityOf(t, "same.yaml", identityBase)
	for name, c := range changes {
		src := identityBase
		for i := 0; i < len(c); i += 2 {
			if !strings.Contains(src, c[i]) {
				t.Fatalf("%s: %q is not in the base configuration", name, c[i])
			}
			src = strings.Replace(src, c[i], c[i+1], 1)
		}
		if got := identityOf(t, "same.yaml", src); bytes.Equal(got, want) {
			t.Errorf("%s: the identity did not change\n%s", name, src)
		}
	}
}

// identityLeftOut lists the fields of a Tournament the identity leaves out: the file's name,
// workers, records and positions (Positions and the players' positions, field by field).
func identityLeftOut(path string) bool {
	switch path {
	case "File", "Workers", "Records":
		return true
	}
	for _, prefix := range []string{"Positions.", "Players[0].Pos.", "Players[0].MemoryPos.", "Players[0].ChoicesPos.", "Players[0].External.CommandPos."} {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// fullTournament returns a tournament with every field of every struct in it set: every pointer
// points at a value and every list has an element.
func fullTournament() *Tournament {
	set := rules.NewChoiceSet(rules.Daring, rules.Safe)
	return &Tournament{
		File: "f.yaml", Name: "n", Seed: 7, Games: 10, Workers: 2, Paired: true, LuckAdjusted: true, Format: RoundRobin,
		Rules: Rules{Pairs: []int{4}, Singletons: 1, PlayersPerGame: 2, Pass: rules.PassNever},
		Players: []Player{{
			Name: "a", Policy: "best-response", Opponent: "optimal",
			Memory:  MemorySpec{Capacity: ptr(3), Forget: ptr(rules.ForgetDecay), Scope: ptr(rules.ScopeShared), Q: ptr(0.5), Fluctuation: ptr(2)},
			Choices: &set, Pos: Pos{Line: 1, Column: 2}, MemoryPos: Pos{Line: 3, Column: 4}, ChoicesPos: Pos{Line: 5, Column: 6},
			External: &External{Command: []string{"python3", "p.py"}, CommandPos: Pos{Line: 7, Column: 8},
				Options: map[string]any{"noise": 0.5}, TimePerMove: 50 * time.Millisecond, GamesInFlight: 4, OnError: OnErrorStop},
		}},
		Output:    "out",
		Records:   3,
		Stop:      &Stop{Precision: 0.1, SPRT: &SPRT{D: 0.2, Alpha: 0.05, Beta: 0.1}},
		Positions: Positions{Name: Pos{Line: 1, Column: 1}, Rules: RulesPositions{Pairs: Pos{Line: 2, Column: 2}}},
	}
}

// choiceSetType is the one struct type in a Tournament without exported fields: the test changes
// it whole.
var choiceSetType = reflect.TypeFor[rules.ChoiceSet]()

// walkSettings calls visit with the path and the value of every setting in v, found with
// reflect: every field, down to values that are not structs; a pointer or a list is a setting
// (nil or not, its length), and its element (the first) is walked too.
func walkSettings(t *testing.T, v reflect.Value, path string, visit func(path string, v reflect.Value)) {
	join := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == choiceSetType {
			visit(path, v)
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				t.Fatalf("%s: unexported field %s of %s: teach the test to change it", path, f.Name, v.Type())
			}
			walkSettings(t, v.Field(i), join(f.Name), visit)
		}
	case reflect.Pointer:
		if v.IsNil() {
			t.Fatalf("%s: nil in the full tournament", path)
		}
		visit(path+" (nil or not)", v)
		walkSettings(t, v.Elem(), path, visit)
	case reflect.Slice:
		if v.Len() == 0 {
			t.Fatalf("%s: empty in the full tournament", path)
		}
		visit(path+" (length)", v)
		walkSettings(t, v.Index(0), path+"[0]", visit)
	case reflect.Map:
		if v.Len() == 0 {
			t.Fatalf("%s: empty in the full tournament", path)
		}
		visit(path+" (keys)", v)
		visit(path+" (values)", v)
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.Array:
		t.Fatalf("%s: a %s: teach the test to change it", path, v.Kind())
	default:
		visit(path, v)
	}
}

// change changes the setting v to another value of its type.
func change(t *testing.T, path string, v reflect.Value) {
	switch {
	case v.Type() == choiceSetType:
		v.Set(reflect.ValueOf(rules.NewChoiceSet(rules.Daring)))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 0.25)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Pointer:
		v.Set(reflect.Zero(v.Type()))
	case reflect.Slice:
		v.Set(reflect.Append(v, v.Index(0)))
	case reflect.Map:
		// A copy with one more key, or with every value changed.
		m := reflect.MakeMap(v.Type())
		for _, k := range v.MapKeys() {
			val := v.MapIndex(k)
			if strings.HasSuffix(path, "(values)") {
				val = reflect.ValueOf(fmt.Sprint(val.Interface()))
			}
			m.SetMapIndex(k, val)
		}
		if strings.HasSuffix(path, "(keys)") {
			m.SetMapIndex(reflect.ValueOf("another"), reflect.ValueOf(1.0))
		}
		v.Set(m)
	default:
		t.Fatalf("%s: cannot change a %s", path, v.Type())
	}
}

// Every setting of a Tournament, found by walking its fields with reflect, is part of the
// identity, except those identityLeftOut lists: a field added to Tournament (or to a type in it)
// that the identity leaves out fails this test until it is either encoded or listed.
func TestIdentityCoversEveryField(t *testing.T) {
	want := fullTournament().Identity()
	var paths []string
	walkSettings(t, reflect.ValueOf(fullTournament()).Elem(), "", func(path string, _ reflect.Value) { paths = append(paths, path) })
	leftOut := 0
	for i, path := range paths {
		tour := fullTournament()
		k := 0
		walkSettings(t, reflect.ValueOf(tour).Elem(), "", func(path string, v reflect.Value) {
			if k == i {
				change(t, path, v)
			}
			k++
		})
		got := tour.Identity()
		switch same := bytes.Equal(got, want); {
		case identityLeftOut(path):
			leftOut++
			if !same {
				t.Errorf("%s: changed the identity, which leaves it out", path)
			}
		case same:
			t.Errorf("%s: not part of the identity (add it to Tournament.Identity, or to identityLeftOut if it does not change what a run computes)", path)
		}
	}
	// File, Workers, Records, the 2 × 19 fields of Positions and the 2 × 4 of a player's positions.
	if leftOut != 3+2*19+2*4 {
		t.Errorf("%d settings left out of the identity, want %d", leftOut, 3+2*19+2*4)
	}
}

// The encoding is pinned: a change to it changes IdentityVersion.
func TestIdentityEncoding(t *testing.T) {
	tests := []struct{ src, want string }{{
		src: two,
		want: `{"format":"round-robin","games":100000,"luck_adjusted":true,"name":"p","output":"results","paired":false,` +
			`"players":[{"choices":null,"memory":{"capacity":null,"forget":null,"q":null,"scope":null},"name":"a","opponent":"","policy":"optimal"},` +
			`{"choices":null,"memory":{"capacity":null,"forget":null,"q":null,"scope":null},"name":"b","opponent":"","policy":"parity"}],` +
			`"rules":{"pairs":[12],"pass":"never","players_per_game":2,"singletons":0},"seed":1,"stop":null}`,
	}, {
		src: `name: x
seed: 18446744073709551615
paired: true
luck_adjusted: false
rules: {pairs: [26, 3]}
players:
  - {name: l, policy: optimal, memory: {forget: decay, q: 1e-300, scope: private, capacity: 0}}
  - {name: r, policy: best-response, opponent: safe, choices: [safe, daring]}
output: "a <b>"
stop: {precision: 1e300, sprt: {d: 0.5, alpha: 0.05, beta: 0.1}}
`,
		want: `{"format":"round-robin","games":100000,"luck_adjusted":false,"name":"x","output":"a \u003cb\u003e","paired":true,` +
			`"players":[{"choices":null,"memory":{"capacity":0,"forget":"decay","q":"1e-300","scope":"private"},"name":"l","opponent":"","policy":"optimal"},` +
			`{"choices":["daring","safe"],"memory":{"capacity":null,"forget":null,"q":null,"scope":null},"name":"r","opponent":"safe","policy":"best-response"}],` +
			`"rules":{"pairs":[26,3],"pass":"never","players_per_game":2,"singletons":0},"seed":18446744073709551615,` +
			`"stop":{"precision":"1e+300","sprt":{"alpha":"0.05","beta":"0.1","d":"0.5"}}}`,
	}}
	for _, tt := range tests {
		got := string(identityOf(t, "p.yaml", tt.src))
		if want := "memsim config identity v2\n" + tt.want; got != want {
			t.Errorf("identity\n%s\nwant\n%s", got, want)
		}
	}
}
