package configs

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"memsim/sim/rules"
)

// testOptions are the options memsim passes.
func testOptions() Options {
	return Options{
		Policies:   []string{"optimal", "best-response", "safe", "daring", "parity", "win-optimal", "win-best-response", "random", "greedy-random", "forgetful"},
		Opponents:  testOpponents,
		MaxPairs:   500,
		MaxGames:   1000000,
		MaxWorkers: 64,
	}
}

// testOpponents is the opponents rule memsim passes: best-response answers the solver's policies,
// win-best-response those and win-optimal.
func testOpponents(policy string) []string {
	switch policy {
	case "best-response":
		return []string{"optimal", "safe", "daring", "parity"}
	case "win-best-response":
		return []string{"optimal", "safe", "daring", "parity", "win-optimal"}
	}
	return nil
}

// two is a valid players list, appended to configurations that test other keys.
const two = "players:\n  - {name: a, policy: optimal}\n  - {name: b, policy: parity}\n"

func TestDefaultParses(t *testing.T) {
	file, data := Default()
	if file != "configs/default.yaml" {
		t.Errorf("Default file = %q", file)
	}
	data[0] = 'X' // Default returns a copy
	if _, again := Default(); again[0] == 'X' {
		t.Fatal("Default returned the embedded bytes, not a copy")
	}
	_, data = Default()
	tour, err := Parse(file, data, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := &Tournament{
		File: "configs/default.yaml", Name: "default", Seed: 20261121, Games: 200000, Workers: 0,
		Paired: false, LuckAdjusted: true, Format: RoundRobin,
		Rules: Rules{Pairs: []int{12, 26}, Singletons: 0, PlayersPerGame: 2, Pass: rules.PassNever},
		Players: []Player{
			{Name: "optimal", Policy: "optimal"},
			{Name: "parity", Policy: "parity"},
			{Name: "daring", Policy: "daring"},
			{Name: "forgetful", Policy: "forgetful"},
			{Name: "win-optimal", Policy: "win-optimal"},
		},
		Output: "results",
	}
	if got := withoutPos(tour); !reflect.DeepEqual(got, want) {
		t.Errorf("default tournament:\n got %+v\nwant %+v", got, want)
	}
	if p := tour.Players[0]; p.Pos != (Pos{Line: 15, Column: 5}) || p.MemoryPos != p.Pos {
		t.Errorf("players[0] at %v, memory at %v; want 15:5 for both", p.Pos, p.MemoryPos)
	}
}

func TestDefaultsFilled(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            Tournament
	}{{
		name: "minimal",
		file: "dir/mini.v2.yaml",
		src:  two,
		want: Tournament{
			File: "dir/mini.v2.yaml", Name: "mini.v2", Seed: 1, Games: 100000, Workers: 0, Paired: false, LuckAdjusted: true,
			Format: RoundRobin, Rules: Rules{Pairs: []int{12}, Singletons: 0, PlayersPerGame: 2, Pass: rules.PassNever},
			Players: []Player{{Name: "a", Policy: "optimal"}, {Name: "b", Policy: "parity"}},
			Output:  "results",
		},
	}, {
		name: "nulls are absent",
		file: "n.yaml",
		src:  "name: ~\nseed: null\ngames:\nworkers: ~\npaired: ~\nformat: ~\nrules:\noutput: ~\n" + two,
		want: Tournament{
			File: "n.yaml", Name: "n", Seed: 1, Games: 100000, Paired: false, LuckAdjusted: true,
			Rules:   Rules{Pairs: []int{12}, PlayersPerGame: 2},
			Players: []Player{{Name: "a", Policy: "optimal"}, {Name: "b", Policy: "parity"}},
			Output:  "results",
		},
	}, {
		name: "unpaired without two players per game",
		file: "three.yaml",
		src:  "rules: {players_per_game: 3, pairs: 26}\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}, {name: c, policy: parity, memory: ~}]\n",
		want: Tournament{
			File: "three.yaml", Name: "three", Seed: 1, Games: 100000, Paired: false, LuckAdjusted: true,
			Rules: Rules{Pairs: []int{26}, PlayersPerGame: 3},
			Players: []Player{
				{Name: "a", Policy: "safe"}, {Name: "b", Policy: "daring"}, {Name: "c", Policy: "parity"},
			},
			Output: "results",
		},
	}, {
		name: "everything given",
		file: "x.yaml",
		src: `name: classic
seed: 0xffffffffffffffff
games: 1_000_000
workers: 3
paired: false
format: gauntlet
rules:
  pairs: [26, 12]
  singletons: 2
  players_per_game: 2
  pass: two-known
players:
  - {name: optimal, policy: optimal}
  - {name: br, policy: best-response, opponent: parity}
  - name: forgetful
    policy: optimal
    memory: {capacity: 7, forget: lru, scope: private}
  - {name: leaky, policy: optimal, memory: {forget: decay, q: 0.1}}
  - {name: 2026, policy: safe, memory: {}}
output: out/classic
records: 3
`,
		want: Tournament{
			File: "x.yaml", Name: "classic", Seed: 1<<64 - 1, Games: 1000000, Workers: 3, Paired: false, LuckAdjusted: true,
			Format: Gauntlet,
			Rules:  Rules{Pairs: []int{26, 12}, Singletons: 2, PlayersPerGame: 2, Pass: rules.PassTwoKnown},
			Players: []Player{
				{Name: "optimal", Policy: "optimal"},
				{Name: "br", Policy: "best-response", Opponent: "parity"},
				{Name: "forgetful", Policy: "optimal", Memory: MemorySpec{
					Capacity: ptr(7), Forget: ptr(rules.ForgetLRU), Scope: ptr(rules.ScopePrivate)}},
				{Name: "leaky", Policy: "optimal", Memory: MemorySpec{Forget: ptr(rules.ForgetDecay), Q: ptr(0.1)}},
				{Name: "2026", Policy: "safe"},
			},
			Output:  "out/classic",
			Records: 3,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := Parse(tt.file, []byte(tt.src), testOptions())
			if err != nil {
				t.Fatal(err)
			}
			if got := withoutPos(tour); !reflect.DeepEqual(got, &tt.want) {
				t.Errorf("\n got %+v\nwant %+v", got, &tt.want)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	src := "players:\n  - name: a\n    policy: optimal\n    memory:\n      capacity: 3\n      forget: lru\n  - {name: b, policy: parity, memory: {}}\n"
	tour, err := Parse("p.yaml", []byte(src), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]Pos{{{Line: 2, Column: 5}, {Line: 5, Column: 7}}, {{Line: 7, Column: 5}, {Line: 7, Column: 39}}}
	for i, p := range tour.Players {
		if got := [2]Pos{p.Pos, p.MemoryPos}; got != want[i] {
			t.Errorf("players[%d]: Pos, MemoryPos = %v, want %v", i, got, want[i])
		}
	}
	err = tour.At(tour.Players[0].MemoryPos, errors.New("forgetting rule lru needs a memory capacity of at least 2"))
	var e *Error
	if !errors.As(err, &e) || err.Error() != "p.yaml:5:7: forgetting rule lru needs a memory capacity of at least 2" {
		t.Errorf("At = %v", err)
	}
	if tour.At(Pos{Line: 1, Column: 1}, nil) != nil {
		t.Error("At(pos, nil) != nil")
	}
}

// Positions holds the position of the value of every key the file gives, and a zero Pos for
// every key it leaves out (or gives as null).
func TestKeyPositions(t *testing.T) {
	src := `name: t
seed: 5
games: 100
workers: 2
paired: true
luck_adjusted: false
format: round-robin
rules:
  pairs: [3, 4]
  singletons: 1
  players_per_game: 2
  pass: never
players: [{name: a, policy: safe}, {name: b, policy: daring}]
output: out
stop: {precision: 0.1}
`
	tour, err := Parse("k.yaml", []byte(src), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := Positions{
		Name: Pos{Line: 1, Column: 7}, Seed: Pos{Line: 2, Column: 7}, Games: Pos{Line: 3, Column: 8}, Workers: Pos{Line: 4, Column: 10}, Paired: Pos{Line: 5, Column: 9},
		LuckAdjusted: Pos{Line: 6, Column: 16}, Format: Pos{Line: 7, Column: 9},
		Rules:   RulesPositions{Pairs: Pos{Line: 9, Column: 10}, Singletons: Pos{Line: 10, Column: 15}, PlayersPerGame: Pos{Line: 11, Column: 21}, Pass: Pos{Line: 12, Column: 9}},
		Players: Pos{Line: 13, Column: 10}, Output: Pos{Line: 14, Column: 9}, Stop: Pos{Line: 15, Column: 7},
	}
	if tour.Positions != want {
		t.Errorf("every key given:\n got %+v\nwant %+v", tour.Positions, want)
	}
	tour, err = Parse("k.yaml", []byte("games: ~\nrules: {pass: always}\n"+two), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	want = Positions{Rules: RulesPositions{Pass: Pos{Line: 2, Column: 15}}, Players: Pos{Line: 4, Column: 3}}
	if tour.Positions != want {
		t.Errorf("players and rules.pass given:\n got %+v\nwant %+v", tour.Positions, want)
	}
}

func TestRoundTrip(t *testing.T) {
	_, def := Default()
	srcs := map[string]string{
		"default": string(def),
		"minimal": two,
		"full": `name: a.b_c-d
seed: 18446744073709551615
games: 7
workers: 2
format: gauntlet
rules: {pairs: [3, 1, 500], singletons: 500, players_per_game: 2, pass: always}
players:
  - {name: "true", policy: optimal}
  - {name: "007", policy: best-response, opponent: safe}
  - {name: x+y, policy: optimal, memory: {capacity: 0, forget: decay, scope: shared, q: 1}}
  - {name: q, policy: optimal, memory: {forget: decay, q: 1e-300}}
  - {name: -z, policy: optimal, memory: {forget: none, capacity: 2}}
  - {name: h, policy: forgetful, memory: {forget: handover-uniform}}
  - {name: two, policy: optimal, choices: [safe, daring]}
  - {name: zp, policy: best-response, opponent: parity, choices: [pass, daring, safe]}
  - {name: ext, command: [python3, "my player.py", "--x=1"], options: {noise: 0.25, depth: 3, fast: true, mode: "on", "1": "1"}, time_per_move: 50ms, games_in_flight: 8, memory: {capacity: 4}, choices: [daring, safe]}
  - {name: ext2, command: [./p], on_error: stop}
  - {name: ext3, command: [./p], on_error: forfeit}
output: "weird \"dir\" with \u00e9 and \\ and # and: colon"
`,
		"three per game": "rules: {players_per_game: 3}\nformat: round-robin\nplayers: [{name: a, policy: safe}, {name: b, policy: safe}, {name: c, policy: safe}]\n",
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			checkRoundTrip(t, "r.yaml", []byte(src))
		})
	}
}

// checkRoundTrip checks that the YAML of the tournament in src parses back to the same tournament
// and the same YAML.
func checkRoundTrip(t *testing.T, file string, src []byte) {
	t.Helper()
	tour, err := Parse(file, src, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	out := tour.YAML()
	back, err := Parse("other/"+file, out, testOptions())
	if err != nil {
		t.Fatalf("YAML() does not parse: %v\n%s", err, out)
	}
	back.File = tour.File
	if got, want := withoutPos(back), withoutPos(tour); !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the tournament:\n got %+v\nwant %+v\nYAML:\n%s", got, want, out)
	}
	if again := back.YAML(); string(again) != string(out) {
		t.Fatalf("YAML() is not stable:\n%s\n---\n%s", out, again)
	}
}

func TestNameFromFile(t *testing.T) {
	for file, want := range map[string]string{"configs/my.tour.yaml": "my.tour", "x": "x", "-": "-", "/a/b/c.d.e": "c.d"} {
		tour, err := Parse(file, []byte(two), testOptions())
		if err != nil || tour.Name != want {
			t.Errorf("Parse(%q): name %v, error %v; want name %q", file, tour, err, want)
		}
	}
	for _, file := range []string{"my tour.yaml", "", "..yaml", "dir/é.yaml"} {
		_, err := Parse(file, []byte("# no name\n"+two), testOptions())
		prefix := file + ":2:1: no name given, and the file name's base"
		if err == nil || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("Parse(%q) = %v, want an error starting %q", file, err, prefix)
		}
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[Format]string{RoundRobin: "round-robin", Gauntlet: "gauntlet", 7: "Format(7)"} {
		if got := f.String(); got != want {
			t.Errorf("Format(%d).String() = %q, want %q", uint8(f), got, want)
		}
	}
}

// withoutPos returns a copy of t with the players' positions cleared.
func withoutPos(t *Tournament) *Tournament {
	c := *t
	c.Positions = Positions{}
	c.Players = append([]Player(nil), t.Players...)
	for i := range c.Players {
		c.Players[i].Pos, c.Players[i].MemoryPos, c.Players[i].ChoicesPos = Pos{}, Pos{}, Pos{}
		if x := c.Players[i].External; x != nil {
			y := *x
			y.CommandPos = Pos{}
			c.Players[i].External = &y
		}
	}
	return &c
}

func ptr[T any](v T) *T { return &v }
