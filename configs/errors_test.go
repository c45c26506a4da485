package configs

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// errorCases lists one configuration for each class of error, with the position and a fragment of
// the message Parse must report for the file "t.yaml".
var errorCases = []struct {
	name, src, pos, msg string
}{
	// YAML syntax (the reader's tests, in internal/yamlnode, have the others).
	{"syntax: unclosed flow list", "games: [1\n", "2:1", "yaml: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 8)"},
	{"syntax: invalid UTF-8", "name: a\n# \xff\n", "2:3", "invalid leading UTF-8 octet"},
	{"syntax: in the second document", "name: a\n---\n[\n", "4:1", "did not find expected node content"},
	// Documents.
	{"empty file", "", "1:1", "empty document"},
	{"only comments", "# nothing\n\n", "1:1", "empty document"},
	{"empty document", "---\n", "1:1", "empty document"},
	{"null document", "~\n", "1:1", "empty document"},
	{"two documents", two + "---\nname: b\n", "4:1", "a second YAML document"},
	{"top level list", "- name: a\n", "1:1", "the top level must be a mapping of keys to values, got a list"},
	{"top level string", "hello\n", "1:1", "the top level must be a mapping of keys to values, got string \"hello\""},
	{"top level tagged", "!foo {players: []}\n", "1:1", "unsupported tag !foo"},
	// Keys.
	{"unknown key", "gmaes: 5\n" + two, "1:1", `unknown key "gmaes" (allowed: name, seed, games, workers, paired, luck_adjusted, format, rules, players, output, stop, records)`},
	{"unknown rules key", "rules:\n  pair: 12\n" + two, "2:3", `rules: unknown key "pair" (allowed: pairs, singletons, players_per_game, pass, copies, flips, turn_limit, board)`},
	{"unknown player key", "players: [{name: a, policy: safe, polcy: x}]\n", "1:35", `players[0]: unknown key "polcy" (allowed: name, policy, opponent, memory, choices, command, options, time_per_move, games_in_flight, on_error)`},
	{"unknown memory key", "players: [{name: a, policy: safe, memory: {size: 2}}]\n", "1:44", `players[0].memory: unknown key "size" (allowed: capacity, forget, scope, q, fluctuation)`},
	{"merge key", "<<: {seed: 2}\n" + two, "1:1", `unknown key "<<"`},
	{"non-scalar key", "[a]: 1\n" + two, "1:1", "expected a key (one of name, seed,"},
	{"duplicate key", "seed: 1\n" + two + "seed: 2\n", "5:1", `duplicate key "seed" (first at line 1, column 1)`},
	{"duplicate nested key", "rules: {pass: never, pass: always}\n" + two, "1:22", `rules: duplicate key "pass" (first at line 1, column 9)`},
	{"duplicate null key", "seed:\nseed: 2\n" + two, "2:1", `duplicate key "seed"`},
	{"missing players", "name: a\n", "1:1", `missing key "players"`},
	{"null players", "players: ~\n", "1:1", `missing key "players"`},
	// Types.
	{"games: lots", "games: lots\n" + two, "1:8", `games: expected an integer, got string "lots"`},
	{"games: 1.5", "games: 1.5\n" + two, "1:8", "games: expected an integer, got number 1.5"},
	{"games: quoted", "games: \"5\"\n" + two, "1:8", `games: expected an integer, got string "5"`},
	{"games: tagged string", "games: !!str 5\n" + two, "1:8", `games: expected an integer, got !!str "5"`},
	{"games: list", "games: [5]\n" + two, "1:8", "games: expected an integer, got a list"},
	{"games: tagged", "games: !!int five\n" + two, "1:8", `games: expected an integer, got !!int "five"`},
	{"pairs: [a]", "rules: {pairs: [a]}\n" + two, "1:17", `rules.pairs[0]: expected an integer, got string "a"`},
	{"pairs: mapping", "rules: {pairs: {a: 1}}\n" + two, "1:16", "rules.pairs: expected a deal size or a list of deal sizes, got a mapping"},
	{"paired: maybe", "paired: maybe\n" + two, "1:9", `paired: expected true or false, got string "maybe"`},
	{"paired: yes", "paired: yes\n" + two, "1:9", `paired: expected true or false, got string "yes"`},
	{"players: {}", "players: {}\n", "1:10", "players: expected a list of players, got a mapping"},
	{"players: [5]", "players: [5]\n", "1:11", "players[0]: expected a mapping with keys name, policy, opponent, memory, choices (or command, options, time_per_move, games_in_flight, on_error), got integer 5"},
	{"rules: list", "rules: [12]\n" + two, "1:8", "rules: expected a mapping, got a list"},
	{"name: list", "name: [a]\n" + two, "1:7", "name: expected a string, got a list"},
	{"name: binary", "name: !!binary YQ==\n" + two, "1:7", `name: expected a string, got !!binary "YQ=="`},
	{"memory: 5", "players: [{name: a, policy: safe, memory: 5}]\n", "1:43", "players[0].memory: expected a mapping with keys capacity, forget, scope, q, fluctuation, got integer 5"},
	{"q: x", "players: [{name: a, policy: safe, memory: {forget: decay, q: x}}]\n", "1:62", `players[0].memory.q: expected a number, got string "x"`},
	{"command: string", "players: [{name: a, command: python3}]\n", "1:30", "players[0].command: expected a list of strings: the program and its arguments, e.g. [python3, my_player.py], got string \"python3\""},
	{"command: empty", "players: [{name: a, command: []}]\n", "1:30", "players[0].command: must not be empty: the program and its arguments"},
	{"command and policy", "players: [{name: a, policy: safe, command: [p]}]\n", "1:44", "players[0].command: a player has a policy or a command, not both (the policy is \"safe\")"},
	{"command and opponent", "players: [{name: a, command: [p], opponent: safe}]\n", "1:45", "players[0].opponent: only allowed with policies best-response, win-best-response, not with a command"},
	{"time_per_move without command", "players: [{name: a, policy: safe, time_per_move: 5ms}]\n", "1:35", "players[0].time_per_move: only allowed with a command (a player process, docs/protocol.md)"},
	{"time_per_move: fast", "players: [{name: a, command: [p], time_per_move: fast}]\n", "1:50", "players[0].time_per_move: \"fast\" is not a duration (e.g. 50ms, 2s)"},
	{"time_per_move: 0s", "players: [{name: a, command: [p], time_per_move: 0s}]\n", "1:50", "players[0].time_per_move: 0s: must be from 1ms to 24h0m0s"},
	{"games_in_flight: 0", "players: [{name: a, command: [p], games_in_flight: 0}]\n", "1:52", "players[0].games_in_flight: must be between 1 and 1024, got 0"},
	{"on_error: restart", "players: [{name: a, command: [p], on_error: restart}]\n", "1:45", "players[0].on_error: unknown value \"restart\" (allowed: stop, forfeit)"},
	{"on_error without command", "players: [{name: a, policy: safe, on_error: forfeit}]\n", "1:35", "players[0].on_error: only allowed with a command (a player process, docs/protocol.md)"},
	{"options: list", "players: [{name: a, command: [p], options: [1]}]\n", "1:44", "players[0].options: expected a mapping of option names to values, got a list"},
	{"options: null value", "players: [{name: a, command: [p], options: {x: ~}}]\n", "1:48", "players[0].options.x: must have a value (a boolean, a number or a string); leave the option out for its default"},
	{"options: nested", "players: [{name: a, command: [p], options: {x: [1]}}]\n", "1:48", "players[0].options.x: expected a boolean, a number or a string, got a list"},
	{"no policy or command", "players: [{name: a}]\n", "1:11", "players[0]: missing key \"policy\" (allowed: optimal, best-response, safe, daring, parity, win-optimal, win-best-response, random, greedy-random, forgetful) or \"command\" (a player process)"},
	{"alias", "seed: &s 5\ngames: *s\n" + two, "2:8", "games: aliases (*s) are not supported"},
	{"tagged mapping", "rules: !!set {pairs: ~}\n" + two, "1:8", "rules: unsupported tag !!set"},
	// Values.
	{"games: 0", "games: 0\n" + two, "1:8", "games: must be between 1 and 1000000, got 0"},
	{"games: overflow", "games: 99999999999999999999\n" + two, "1:8", "games: must be between 1 and 1000000, got 99999999999999999999"},
	{"workers: -1", "workers: -1\n" + two, "1:10", "workers: must be between 0 and 64, got -1"},
	{"records: -1", "records: -1\n" + two, "1:10", "records: must be between 0 and 1000, got -1"},
	{"records: 1001", two + "records: 1001\n", "4:10", "records: must be between 0 and 1000, got 1001"},
	{"records: many", "records: many\n" + two, "1:10", `records: expected an integer, got string "many"`},
	{"seed: -1", "seed: -1\n" + two, "1:7", "seed: must not be negative, got -1"},
	{"seed: overflow", "seed: 18446744073709551616\n" + two, "1:7", "seed: 18446744073709551616 is too large (at most 18446744073709551615)"},
	{"name: bad characters", "name: my tour\n" + two, "1:7", `name: "my tour" is not a valid name`},
	{"name: ..", "name: ..\n" + two, "1:7", `name: ".." is not a valid name`},
	{"format: unknown", "format: league\n" + two, "1:9", `format: unknown format "league" (allowed: round-robin, gauntlet)`},
	{"output: empty", "output: ''\n" + two, "1:9", "output: must not be empty"},
	{"output: NUL", "output: \"a\\0b\"\n" + two, "1:9", `output: "a\x00b": a path must not hold control characters`},
	{"output: newline", "output: \"a\\nb\"\n" + two, "1:9", "a path must not hold control characters"},
	{"output: too long", "output: " + strings.Repeat("x", 4001) + "\n" + two, "1:9", "4001 bytes: a path has at most 4000"},
	{"name: too long", "name: " + strings.Repeat("n", 201) + "\n" + two, "1:7", "201 characters: a name (a folder name) has at most 200"},
	{"games: above the bound", "games: 1000001\n" + two, "1:8", "games: must be between 1 and 1000000, got 1000001"},
	{"workers: above the bound", "workers: 65\n" + two, "1:10", "workers: must be between 0 and 64, got 65"},
	{"pairs: [0]", "rules: {pairs: [0]}\n" + two, "1:17", "rules.pairs[0]: must be between 1 and 500, got 0"},
	{"pairs: too large", "rules: {pairs: 501}\n" + two, "1:16", "rules.pairs: must be between 1 and 500, got 501"},
	{"pairs: []", "rules: {pairs: []}\n" + two, "1:16", "rules.pairs: must not be empty"},
	{"pairs: duplicate", "rules: {pairs: [12, 26, 12]}\n" + two, "1:25", "rules.pairs[2]: deal size 12 is already listed at rules.pairs[0]"},
	{"singletons: too many", "rules: {singletons: 501}\n" + two, "1:21", "rules.singletons: must be between 0 and 500, got 501"},
	{"players_per_game: 9", "rules: {players_per_game: 9}\n" + two, "1:27", "rules.players_per_game: must be between 1 and 8, got 9"},
	{"players_per_game: overflow", "rules: {players_per_game: 18446744073709551616}\n" + two, "1:27", "rules.players_per_game: must be between 1 and 8, got 18446744073709551616"},
	{"pass: sometimes", "rules: {pass: sometimes}\n" + two, "1:15", `rules.pass: unknown pass rule "sometimes" (allowed: never, two-known, always)`},
	{"copies: 3", "rules: {copies: 3}\n" + two, "1:17", "rules.copies: 3: must be even (any two cards of a face match, so a face of k cards makes k/2 pairs)"},
	{"copies: 1", "rules: {copies: 1}\n" + two, "1:17", "rules.copies: must be between 2 and 64, got 1"},
	{"copies: 66", "rules: {copies: 66}\n" + two, "1:17", "rules.copies: must be between 2 and 64, got 66"},
	{"copies: four", "rules: {copies: four}\n" + two, "1:17", `rules.copies: expected an integer, got string "four"`},
	{"copies: not dividing the deal", "rules: {pairs: 10, copies: 8}\n" + two, "1:28", "rules.copies: 10 pairs with copies 8: the 20 cards must make whole faces of 8 cards (pairs a multiple of 4)"},
	{"copies: a board's deal", "rules: {board: deck-52-rank, copies: 8}\n" + two, "1:38", "rules.copies: 26 pairs with copies 8"},
	{"pairs: not whole faces of a board", "rules: {board: deck-52-rank, pairs: [26, 5]}\n" + two, "1:42", "rules.pairs[1]: 5 pairs with copies 4"},
	{"flips: simultaneous", "rules: {flips: simultaneous}\n" + two, "1:16", `rules.flips: unknown flip rule "simultaneous" (allowed: sequential, blind)`},
	{"turn_limit: 0", "rules: {turn_limit: 0}\n" + two, "1:21", "rules.turn_limit: must be between 1 and 2147483647, got 0"},
	{"turn_limit: many", "rules: {turn_limit: many}\n" + two, "1:21", `rules.turn_limit: expected an integer, got string "many"`},
	{"board: unknown", "rules: {board: chess}\n" + two, "1:16", `rules.board: unknown board "chess" (allowed: tournament-32, deck-52-rank, deck-52-colour, popgym-easy, popgym-medium, popgym-hard, textarena, textarena-medium, textarena-hard)`},
	{"players: []", "players: []\n", "1:10", "players: must not be empty"},
	{"player: missing name", "players: [{policy: safe}]\n", "1:11", `players[0]: missing key "name"`},
	{"player: empty name", "players: [{name: '', policy: safe}]\n", "1:18", "players[0].name: must not be empty"},
	{"player: bad name", "players: [{name: a/b, policy: safe}]\n", "1:18", `players[0].name: "a/b" is not a valid player name: it must match [A-Za-z0-9._+-]+`},
	{"player: duplicate name", "players:\n  - {name: a, policy: safe}\n  - {name: b, policy: safe}\n  - {name: a, policy: daring}\n", "4:12", `players[2].name: duplicate player name "a": players[0] (line 2) already uses it`},
	{"player: missing policy", "players: [{name: a}]\n", "1:11", `players[0]: missing key "policy" (allowed: optimal, best-response,`},
	{"player: unknown policy", "players: [{name: a, policy: smart}]\n", "1:29", `players[0].policy: unknown policy "smart" (allowed: optimal, best-response, safe, daring, parity, win-optimal, win-best-response, random, greedy-random, forgetful)`},
	{"player: opponent without best-response", "players: [{name: a, policy: safe, opponent: parity}]\n", "1:45", `players[0].opponent: only allowed with policies best-response, win-best-response (the policy is "safe")`},
	{"player: best-response without opponent", "players: [{name: a, policy: best-response}]\n", "1:11", "players[0]: policy best-response needs an opponent (allowed: optimal, safe, daring, parity)"},
	{"player: unknown opponent", "players: [{name: a, policy: best-response, opponent: random}]\n", "1:54", `players[0].opponent: unknown opponent "random" (allowed: optimal, safe, daring, parity)`},
	{"player: choices not a list", "players: [{name: a, policy: optimal, choices: daring}]\n", "1:47", `players[0].choices: expected a list of choices (daring, safe, known-first, pass), got string "daring"`},
	{"player: unknown choice", "players: [{name: a, policy: optimal, choices: [daring, bold]}]\n", "1:56", `players[0].choices[1]: unknown choice "bold" (allowed: daring, safe, known-first, pass)`},
	{"player: choice twice", "players: [{name: a, policy: optimal, choices: [daring, daring]}]\n", "1:56", `players[0].choices[1]: choice daring is already listed`},
	{"player: choices without daring", "players: [{name: a, policy: optimal, choices: [safe]}]\n", "1:47", `players[0].choices: choice set safe: must include daring`},
	{"memory: capacity 1", "players: [{name: a, policy: safe, memory: {capacity: 1}}]\n", "1:54", "players[0].memory.capacity: must be 0 (no limit) or at least 2, got 1"},
	{"memory: capacity -1", "players: [{name: a, policy: safe, memory: {capacity: -1}}]\n", "1:54", "players[0].memory.capacity: must be at least 0, got -1"},
	{"memory: unknown forget", "players: [{name: a, policy: safe, memory: {forget: fifo}}]\n", "1:52", `players[0].memory.forget: unknown forgetting rule "fifo" (allowed: handover-uniform, lru, decay)`},
	{"memory: unknown scope", "players: [{name: a, policy: safe, memory: {scope: team}}]\n", "1:51", `players[0].memory.scope: unknown memory scope "team" (allowed: shared, private)`},
	{"memory: q 0", "players: [{name: a, policy: safe, memory: {forget: decay, q: 0}}]\n", "1:62", "players[0].memory.q: must be in (0, 1], got 0"},
	{"memory: q 1.5", "players: [{name: a, policy: safe, memory: {forget: decay, q: 1.5}}]\n", "1:62", "players[0].memory.q: must be in (0, 1], got 1.5"},
	// Every number of the schema is finite: .inf and .nan are refused at the value.
	{"memory: q nan", "players: [{name: a, policy: safe, memory: {forget: decay, q: .nan}}]\n", "1:62", "players[0].memory.q: expected a finite number, got number .nan"},
	{"memory: q infinite", "players: [{name: a, policy: safe, memory: {forget: decay, q: .inf}}]\n", "1:62", "players[0].memory.q: expected a finite number, got number .inf"},
	{"stop: precision infinite", "stop: {precision: .inf}\n" + two, "1:19", "stop.precision: expected a finite number, got number .inf"},
	{"stop: precision nan", "stop: {precision: .NaN}\n" + two, "1:19", "stop.precision: expected a finite number, got number .NaN"},
	{"stop: sprt d infinite", "paired: true\nstop: {sprt: {d: .inf, alpha: 0.05, beta: 0.1}}\n" + two, "2:18", "stop.sprt.d: expected a finite number, got number .inf"},
	{"stop: sprt alpha nan", "paired: true\nstop: {sprt: {d: 1, alpha: .nan, beta: 0.1}}\n" + two, "2:28", "stop.sprt.alpha: expected a finite number, got number .nan"},
	{"stop: sprt beta minus infinity", "paired: true\nstop: {sprt: {d: 1, alpha: 0.05, beta: -.Inf}}\n" + two, "2:40", "stop.sprt.beta: expected a finite number, got number -.Inf"},
	{"memory: fluctuation -1", "players: [{name: a, policy: safe, memory: {forget: lru, capacity: 7, fluctuation: -1}}]\n", "1:83", "players[0].memory.fluctuation: must be between 0 and 2147483647, got -1"},
	{"memory: fluctuation 2^31", "players: [{name: a, policy: safe, memory: {forget: lru, capacity: 7, fluctuation: 2147483648}}]\n", "1:83", "players[0].memory.fluctuation: must be between 0 and 2147483647, got 2147483648"},
	{"memory: q without forget", "players: [{name: a, policy: safe, memory: {q: 0.5}}]\n", "1:47", "players[0].memory.q: only allowed with forget: decay (forget is not given)"},
	{"memory: q with lru", "players: [{name: a, policy: safe, memory: {q: 0.5, forget: lru, capacity: 4}}]\n", "1:47", "players[0].memory.q: only allowed with forget: decay (forget is lru)"},
	// Cross checks.
	{"paired with three per game", "paired: true\nrules: {players_per_game: 3}\nplayers: [{name: a, policy: safe}, {name: b, policy: safe}, {name: c, policy: safe}]\n", "1:9", "paired: true needs rules.players_per_game 2, but it is 3"},
	{"round-robin: too few players", "rules: {players_per_game: 3}\n" + two, "2:1", "players: round-robin with rules.players_per_game 3 needs at least 3 players, got 2"},
	{"round-robin: one player", "players: [{name: a, policy: safe}]\n", "1:1", "players: round-robin with rules.players_per_game 2 needs at least 2 players, got 1"},
	{"gauntlet: one player per game", "format: gauntlet\nrules: {players_per_game: 1}\n" + two, "2:27", "rules.players_per_game: gauntlet needs at least 2 players per game, got 1"},
	{"gauntlet: too few players", "format: gauntlet\nplayers: [{name: a, policy: safe}]\n", "2:1", "players: gauntlet needs at least 2 players, got 1"},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := Parse("t.yaml", []byte(tt.src), testOptions())
			if err == nil {
				t.Fatalf("no error; parsed %+v", tour)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error: %v", err, err)
			}
			prefix := "t.yaml:" + tt.pos + ": "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.msg) || strings.Contains(msg, "\n") {
				t.Errorf("error\n  %s\nwant prefix %q, fragment %q, one line", msg, prefix, tt.msg)
			}
		})
	}
}

// errPrefix matches the start of every error Parse returns for the file "f.yaml".
var errPrefix = regexp.MustCompile(`^f\.yaml:[1-9][0-9]*:[1-9][0-9]*: \S`)

// FuzzParse checks that Parse never panics, that every error it returns is a one-line *Error
// starting with "f.yaml:line:col: ", and that every tournament it returns round-trips through YAML.
// A plain `go test` runs the seed corpus: the default, the inputs of the other tests and a few
// oddities.
func FuzzParse(f *testing.F) {
	_, def := Default()
	f.Add(def)
	f.Add([]byte(two))
	for _, tt := range errorCases {
		f.Add([]byte(tt.src))
	}
	for _, s := range []string{
		"a: &x [*x]\nplayers: *x\n",
		"players: &p [*p]\n",
		"players: [{name: a, policy: safe, memory: &m {capacity: *m}}]\n",
		strings.Repeat("[", 300),
		strings.Repeat("- ", 300),
		"\xff\xfe",
		"\ufeff" + two,
		"? [a]\n: b\n",
		"players:\n- name: !!null\n  policy: safe\n",
		"seed: !!float 1e400\n" + two,
		"%YAML 1.1\n---\n" + two,
		"seed: 0o17\ngames: 0b101\nworkers: +0x_f\n" + two,
		"output: \"a\\x00b\"\n" + two,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("f.yaml", data, testOptions())
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error: %v", err, err)
			}
			if msg := err.Error(); !errPrefix.MatchString(msg) || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("malformed error %q", msg)
			}
			return
		}
		checkRoundTrip(t, "f.yaml", data)
	})
}
