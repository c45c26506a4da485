package configs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"

	"memsim/sim/rules"
)

// Defaults of the keys a configuration may omit.
const (
	defaultSeed           = 1
	defaultGames          = 100000
	defaultPairs          = 12
	defaultPlayersPerGame = 2
	defaultOutput         = "results"
)

// Parse parses and validates the configuration data read from file (file is used in error
// messages and, when the configuration has no name, for the default name). Every error it returns
// is an *Error pointing at the offending node.
func Parse(file string, data []byte, opts Options) (*Tournament, error) {
	p := &parser{file: file, opts: opts}
	top, err := p.load(data)
	if err != nil {
		return nil, err
	}
	return p.tournament(top)
}

// parser holds what every check needs to report an error.
type parser struct {
	file string
	opts Options
}

// errAt returns an *Error at n's position; path, when not empty, prefixes the message.
func (p *parser) errAt(n *yaml.Node, path, format string, args ...any) *Error {
	return p.errPos(posOf(n), path, format, args...)
}

// errPos returns an *Error at pos; path, when not empty, prefixes the message.
func (p *parser) errPos(pos Pos, path, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	return &Error{File: p.file, Line: max(pos.Line, 1), Column: max(pos.Column, 1), Msg: oneLine(msg)}
}

func posOf(n *yaml.Node) Pos { return Pos{Line: n.Line, Column: n.Column} }

// load reads the single document of data and returns its top-level mapping.
func (p *parser) load(data []byte) (*yaml.Node, error) {
	l, err := yaml.NewLoader(bytes.NewReader(data))
	if err != nil {
		return nil, p.errPos(Pos{1, 1}, "", "yaml: %v", err)
	}
	var doc yaml.Node
	switch err := p.next(l, &doc); {
	case err == io.EOF:
		return nil, p.errPos(Pos{1, 1}, "", "empty document: a configuration needs at least the players key")
	case err != nil:
		return nil, p.syntaxError(err, data)
	}
	var extra yaml.Node
	switch err := p.next(l, &extra); {
	case err == nil:
		return nil, p.errAt(&extra, "", "a second YAML document: a configuration file holds exactly one")
	case err != io.EOF:
		return nil, p.syntaxError(err, data)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || isNull(doc.Content[0]) {
		return nil, p.errAt(&doc, "", "empty document: a configuration needs at least the players key")
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, p.errAt(top, "", "the top level must be a mapping of keys to values, got %s", describe(top))
	}
	return top, p.checkTag(top, "")
}

// next loads the next document of l into n, turning a panic of the YAML library into an error.
func (p *parser) next(l *yaml.Loader, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error of the YAML library: %v", r)
		}
	}()
	return l.Load(n)
}

// syntaxError converts an error of the YAML library to an *Error at the position it reports.
func (p *parser) syntaxError(err error, data []byte) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) {
		var les *yaml.LoadErrors
		if errors.As(err, &les) && len(les.Errors) > 0 {
			le = les.Errors[0]
		}
	}
	if le == nil {
		return p.errPos(Pos{1, 1}, "", "yaml: %v", err)
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
		pos = badCharPos(data)
	}
	return p.errPos(pos, "", "%s", msg)
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

// tournament checks the top-level mapping and fills in the defaults.
func (p *parser) tournament(top *yaml.Node) (*Tournament, error) {
	t := &Tournament{
		File:      p.file,
		Seed:      defaultSeed,
		Games:     defaultGames,
		Format:    RoundRobin,
		Rules:     Rules{Pairs: []int{defaultPairs}, PlayersPerGame: defaultPlayersPerGame, Pass: rules.PassNever},
		Output:    defaultOutput,
		Positions: map[string]Pos{},
		// The default of luck_adjusted.
		LuckAdjusted: true,
	}
	entries, err := p.mapping(top, "", "name", "seed", "games", "workers", "paired", "luck_adjusted", "format", "rules", "players", "output", "stop")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		t.Positions[e.key] = posOf(e.val)
	}
	var (
		named                                    bool
		paired, playersKey, perGameVal, stopNode *yaml.Node
	)
	for _, e := range entries {
		var err error
		switch e.key {
		case "name":
			named = true
			t.Name, err = p.str(e.val, e.key)
			switch {
			case err != nil:
			case !validName(t.Name, ""):
				err = p.errAt(e.val, e.key, "%s is not a valid name: it must match [A-Za-z0-9._-]+ and not be \".\" or \"..\"", quote(t.Name))
			case len(t.Name) > MaxNameLength:
				err = p.errAt(e.val, e.key, "%d characters: a name (a folder name) has at most %d", len(t.Name), MaxNameLength)
			}
		case "seed":
			t.Seed, err = p.seed(e.val, e.key)
		case "games":
			t.Games, err = p.intIn(e.val, e.key, 1, bound(p.opts.MaxGames))
		case "workers":
			t.Workers, err = p.intIn(e.val, e.key, 0, bound(p.opts.MaxWorkers))
		case "paired":
			paired = e.val
			t.Paired, err = p.boolean(e.val, e.key)
		case "luck_adjusted":
			t.LuckAdjusted, err = p.boolean(e.val, e.key)
		case "format":
			var s string
			if s, err = p.str(e.val, e.key); err == nil {
				t.Format, err = parseFormat(s)
				err = p.wrap(e.val, e.key, err)
			}
		case "rules":
			perGameVal, err = p.rules(e.val, &t.Rules, t.Positions)
		case "players":
			playersKey = e.keyNode
			t.Players, err = p.players(e.val)
		case "stop":
			stopNode = e.val
			t.Stop, err = p.stop(e.val)
		case "output":
			t.Output, err = p.str(e.val, e.key)
			if err == nil && t.Output == "" {
				err = p.errAt(e.val, e.key, "must not be empty")
			} else if err == nil {
				if bad := CheckPath(t.Output); bad != nil {
					err = p.errAt(e.val, e.key, "%v", bad)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if !named {
		base := filepath.Base(p.file)
		t.Name = strings.TrimSuffix(base, filepath.Ext(base))
		if !validName(t.Name, "") || len(t.Name) > MaxNameLength {
			return nil, p.errAt(top, "", "no name given, and the file name's base %s is not a valid name (it must match [A-Za-z0-9._-]+ and not be \".\" or \"..\"): add a name key", quote(t.Name))
		}
	}
	if playersKey == nil {
		return nil, p.errAt(top, "", "missing key \"players\" (a non-empty list of players)")
	}
	perGame := t.Rules.PlayersPerGame
	if t.Paired && perGame != 2 { // t.Paired only where the key says so
		return nil, p.errAt(paired, "paired", "true needs rules.players_per_game 2, but it is %d", perGame)
	}
	if t.Stop != nil && t.Stop.SPRT != nil && !t.Paired {
		return nil, p.errAt(stopNode, "stop.sprt", "needs paired deals (paired: true, two players per game)")
	}
	switch t.Format {
	case RoundRobin:
		if len(t.Players) < perGame {
			return nil, p.errAt(playersKey, "players", "round-robin with rules.players_per_game %d needs at least %d players, got %d", perGame, perGame, len(t.Players))
		}
	case Gauntlet:
		if perGame < 2 {
			at := perGameVal
			if at == nil {
				at = playersKey
			}
			return nil, p.errAt(at, "rules.players_per_game", "gauntlet needs at least 2 players per game, got %d", perGame)
		}
		if len(t.Players) < 2 {
			return nil, p.errAt(playersKey, "players", "gauntlet needs at least 2 players, got %d", len(t.Players))
		}
	}
	return t, nil
}

// bound returns the largest value a key with the given bound accepts (0: no bound).
func bound(max int) int64 {
	if max <= 0 {
		return math.MaxInt
	}
	return int64(max)
}

// rules checks the rules mapping into r, recording the positions of its values in pos, and returns
// the value node of players_per_game (nil if it is not given).
func (p *parser) rules(n *yaml.Node, r *Rules, pos map[string]Pos) (perGame *yaml.Node, err error) {
	entries, err := p.mapping(n, "rules", "pairs", "singletons", "players_per_game", "pass")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		path := "rules." + e.key
		pos[path] = posOf(e.val)
		switch e.key {
		case "pairs":
			r.Pairs, err = p.pairs(e.val, path)
		case "singletons":
			r.Singletons, err = p.intIn(e.val, path, 0, int64(max(p.opts.MaxPairs, 0)))
		case "players_per_game":
			perGame = e.val
			r.PlayersPerGame, err = p.intIn(e.val, path, 1, rules.MaxPlayers)
		case "pass":
			var s string
			if s, err = p.str(e.val, path); err == nil {
				r.Pass, err = rules.ParsePassRule(s)
				err = p.wrap(e.val, path, err)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return perGame, nil
}

// stop checks the stop mapping: precision (a number > 0) and sprt (d > 0, 0 < alpha, beta and
// alpha + beta < 1). An empty mapping is no rule.
func (p *parser) stop(n *yaml.Node) (*Stop, error) {
	entries, err := p.mapping(n, "stop", "precision", "sprt")
	if err != nil {
		return nil, err
	}
	st := &Stop{}
	for _, e := range entries {
		path := "stop." + e.key
		switch e.key {
		case "precision":
			if st.Precision, err = p.number(e.val, path); err == nil && !(st.Precision > 0) {
				err = p.errAt(e.val, path, "must be a positive number of pairs per game, got %g", st.Precision)
			}
		case "sprt":
			st.SPRT, err = p.sprt(e.val, path)
		}
		if err != nil {
			return nil, err
		}
	}
	if st.Precision == 0 && st.SPRT == nil {
		return nil, nil
	}
	return st, nil
}

// sprt checks a stop.sprt mapping: d, alpha and beta, all required.
func (p *parser) sprt(n *yaml.Node, path string) (*SPRT, error) {
	entries, err := p.mapping(n, path, "d", "alpha", "beta")
	if err != nil {
		return nil, err
	}
	var t SPRT
	seen := map[string]bool{}
	for _, e := range entries {
		var x float64
		if x, err = p.number(e.val, path+"."+e.key); err != nil {
			return nil, err
		}
		seen[e.key] = true
		switch e.key {
		case "d":
			if !(x > 0) {
				return nil, p.errAt(e.val, path+".d", "must be a positive number of pairs per game, got %g", x)
			}
			t.D = x
		case "alpha", "beta":
			if !(x > 0 && x < 1) {
				return nil, p.errAt(e.val, path+"."+e.key, "must be between 0 and 1, got %g", x)
			}
			if e.key == "alpha" {
				t.Alpha = x
			} else {
				t.Beta = x
			}
		}
	}
	for _, k := range []string{"d", "alpha", "beta"} {
		if !seen[k] {
			return nil, p.errAt(n, path, "missing key %q (give d, alpha and beta)", k)
		}
	}
	if t.Alpha+t.Beta >= 1 {
		return nil, p.errAt(n, path, "alpha + beta must be below 1, got %g", t.Alpha+t.Beta)
	}
	return &t, nil
}

// pairs checks rules.pairs: a deal size or a non-empty list of distinct deal sizes.
func (p *parser) pairs(n *yaml.Node, path string) ([]int, error) {
	if n.Kind == yaml.ScalarNode {
		k, err := p.intIn(n, path, 1, int64(p.opts.MaxPairs))
		if err != nil {
			return nil, err
		}
		return []int{k}, nil
	}
	if n.Kind != yaml.SequenceNode {
		if err := p.checkAlias(n, path); err != nil {
			return nil, err
		}
		return nil, p.errAt(n, path, "expected a deal size or a list of deal sizes, got %s", describe(n))
	}
	if err := p.checkTag(n, path); err != nil {
		return nil, err
	}
	if len(n.Content) == 0 {
		return nil, p.errAt(n, path, "must not be empty")
	}
	pairs := make([]int, 0, len(n.Content))
	for i, c := range n.Content {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		k, err := p.intIn(c, ipath, 1, int64(p.opts.MaxPairs))
		if err != nil {
			return nil, err
		}
		if j := slices.Index(pairs, k); j >= 0 {
			return nil, p.errAt(c, ipath, "deal size %d is already listed at %s[%d]", k, path, j)
		}
		pairs = append(pairs, k)
	}
	return pairs, nil
}

// players checks the players list.
func (p *parser) players(n *yaml.Node) ([]Player, error) {
	const path = "players"
	if err := p.kind(n, path, yaml.SequenceNode, "a list of players"); err != nil {
		return nil, err
	}
	if len(n.Content) == 0 {
		return nil, p.errAt(n, path, "must not be empty")
	}
	players := make([]Player, 0, len(n.Content))
	first := make(map[string]int) // player name -> index of the entry that first used it
	for i, c := range n.Content {
		pl, nameVal, err := p.player(c, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		if j, dup := first[pl.Name]; dup {
			return nil, p.errAt(nameVal, fmt.Sprintf("%s[%d].name", path, i),
				"duplicate player name %s: players[%d] (line %d) already uses it", quote(pl.Name), j, players[j].Pos.Line)
		}
		first[pl.Name] = i
		players = append(players, pl)
	}
	return players, nil
}

// player checks one entry of the players list; it also returns the entry's name value.
func (p *parser) player(n *yaml.Node, path string) (pl Player, nameVal *yaml.Node, err error) {
	if err := p.kind(n, path, yaml.MappingNode, "a mapping with keys name, policy, opponent, memory, choices"); err != nil {
		return pl, nil, err
	}
	entries, err := p.mapping(n, path, "name", "policy", "opponent", "memory", "choices")
	if err != nil {
		return pl, nil, err
	}
	pl.Pos = posOf(n)
	pl.MemoryPos, pl.ChoicesPos = pl.Pos, pl.Pos
	var policyVal, opponentVal *yaml.Node
	for _, e := range entries {
		kpath := path + "." + e.key
		switch e.key {
		case "name":
			nameVal = e.val
			if pl.Name, err = p.str(e.val, kpath); err == nil {
				switch {
				case pl.Name == "":
					err = p.errAt(e.val, kpath, "must not be empty")
				case !validName(pl.Name, "+"):
					err = p.errAt(e.val, kpath, "%s is not a valid player name: it must match [A-Za-z0-9._+-]+", quote(pl.Name))
				}
			}
		case "policy":
			policyVal = e.val
			if pl.Policy, err = p.str(e.val, kpath); err == nil && !slices.Contains(p.opts.Policies, pl.Policy) {
				err = p.errAt(e.val, kpath, "unknown policy %s (allowed: %s)", quote(pl.Policy), list(p.opts.Policies))
			}
		case "opponent":
			opponentVal = e.val
			pl.Opponent, err = p.str(e.val, kpath)
		case "memory":
			pl.MemoryPos = posOf(e.val)
			pl.Memory, err = p.memory(e.val, kpath)
		case "choices":
			pl.ChoicesPos = posOf(e.val)
			pl.Choices, err = p.choices(e.val, kpath)
		}
		if err != nil {
			return pl, nil, err
		}
	}
	switch {
	case nameVal == nil:
		return pl, nil, p.errAt(n, path, "missing key \"name\"")
	case policyVal == nil:
		return pl, nil, p.errAt(n, path, "missing key \"policy\" (allowed: %s)", list(p.opts.Policies))
	}
	allowed := p.opponents(pl.Policy)
	switch {
	case allowed == nil && opponentVal != nil:
		return pl, nil, p.errAt(opponentVal, path+".opponent", "only allowed with %s (the policy is %s)", p.replies(), quote(pl.Policy))
	case allowed != nil && opponentVal == nil:
		return pl, nil, p.errAt(n, path, "policy %s needs an opponent (allowed: %s)", pl.Policy, list(allowed))
	case opponentVal != nil && !slices.Contains(allowed, pl.Opponent):
		return pl, nil, p.errAt(opponentVal, path+".opponent", "unknown opponent %s (allowed: %s)", quote(pl.Opponent), list(allowed))
	}
	return pl, nameVal, nil
}

// choices checks a player's choice set: a non-empty list of distinct choice names that includes
// daring.
func (p *parser) choices(n *yaml.Node, path string) (*rules.ChoiceSet, error) {
	if err := p.kind(n, path, yaml.SequenceNode, "a list of choices (daring, safe, known-first, pass)"); err != nil {
		return nil, err
	}
	var cs []rules.Choice
	for i, c := range n.Content {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		name, err := p.str(c, ipath)
		if err != nil {
			return nil, err
		}
		ch, err := rules.ParseChoice(name)
		if err != nil {
			return nil, p.wrap(c, ipath, err)
		}
		if slices.Contains(cs, ch) {
			return nil, p.errAt(c, ipath, "choice %s is already listed", ch)
		}
		cs = append(cs, ch)
	}
	set := rules.NewChoiceSet(cs...)
	if err := set.Validate(); err != nil {
		return nil, p.wrap(n, path, err)
	}
	return &set, nil
}

// opponents returns the policies a player of the given policy may answer, nil for none.
func (p *parser) opponents(policy string) []string {
	if p.opts.Opponents == nil {
		return nil
	}
	return p.opts.Opponents(policy)
}

// replies names the policies that take an opponent: "policy a" or "policies a, b".
func (p *parser) replies() string {
	var names []string
	for _, pol := range p.opts.Policies {
		if p.opponents(pol) != nil {
			names = append(names, pol)
		}
	}
	if len(names) == 1 {
		return "policy " + names[0]
	}
	return "policies " + list(names)
}

// memory checks a player's memory mapping, key by key.
func (p *parser) memory(n *yaml.Node, path string) (m MemorySpec, err error) {
	if err := p.kind(n, path, yaml.MappingNode, "a mapping with keys capacity, forget, scope, q"); err != nil {
		return m, err
	}
	entries, err := p.mapping(n, path, "capacity", "forget", "scope", "q")
	if err != nil {
		return m, err
	}
	var qVal *yaml.Node
	for _, e := range entries {
		kpath := path + "." + e.key
		switch e.key {
		case "capacity":
			var c int
			if c, err = p.intIn(e.val, kpath, 0, math.MaxInt); err == nil {
				if c == 1 {
					err = p.errAt(e.val, kpath, "must be 0 (no limit) or at least 2, got 1")
				}
				m.Capacity = &c
			}
		case "forget":
			var s string
			if s, err = p.str(e.val, kpath); err == nil {
				var f rules.Forgetting
				f, err = rules.ParseForgetting(s)
				err = p.wrap(e.val, kpath, err)
				m.Forget = &f
			}
		case "scope":
			var s string
			if s, err = p.str(e.val, kpath); err == nil {
				var sc rules.Scope
				sc, err = rules.ParseScope(s)
				err = p.wrap(e.val, kpath, err)
				m.Scope = &sc
			}
		case "q":
			qVal = e.val
			var q float64
			if q, err = p.number(e.val, kpath); err == nil {
				if !(q > 0 && q <= 1) {
					err = p.errAt(e.val, kpath, "must be in (0, 1], got %s", short(e.val.Value))
				}
				m.Q = &q
			}
		}
		if err != nil {
			return MemorySpec{}, err
		}
	}
	switch {
	case qVal != nil && m.Forget == nil:
		return MemorySpec{}, p.errAt(qVal, path+".q", "only allowed with forget: decay (forget is not given)")
	case qVal != nil && *m.Forget != rules.ForgetDecay:
		return MemorySpec{}, p.errAt(qVal, path+".q", "only allowed with forget: decay (forget is %s)", m.Forget)
	}
	return m, nil
}

// entry is a key of a mapping whose value is not null.
type entry struct {
	key          string
	keyNode, val *yaml.Node
}

// mapping checks that n is a mapping whose keys are distinct and among allowed, and returns its
// entries in order, leaving out those whose value is null (which count as absent).
func (p *parser) mapping(n *yaml.Node, path string, allowed ...string) ([]entry, error) {
	if err := p.kind(n, path, yaml.MappingNode, "a mapping"); err != nil {
		return nil, err
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	entries := make([]entry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := p.checkAlias(k, path); err != nil {
			return nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, p.errAt(k, path, "expected a key (one of %s), got %s", strings.Join(allowed, ", "), describe(k))
		}
		if !slices.Contains(allowed, k.Value) {
			return nil, p.errAt(k, path, "unknown key %s (allowed: %s)", quote(k.Value), strings.Join(allowed, ", "))
		}
		if prev, dup := seen[k.Value]; dup {
			return nil, p.errAt(k, path, "duplicate key %s (first at line %d, column %d)", quote(k.Value), prev.Line, prev.Column)
		}
		seen[k.Value] = k
		if !isNull(v) {
			entries = append(entries, entry{key: k.Value, keyNode: k, val: v})
		}
	}
	return entries, nil
}

// kind checks that n is a collection of kind want (a mapping or a list) with its standard tag;
// what describes the expected value in the error.
func (p *parser) kind(n *yaml.Node, path string, want yaml.Kind, what string) error {
	if err := p.checkAlias(n, path); err != nil {
		return err
	}
	if n.Kind != want {
		return p.errAt(n, path, "expected %s, got %s", what, describe(n))
	}
	return p.checkTag(n, path)
}

// checkAlias rejects an alias node.
func (p *parser) checkAlias(n *yaml.Node, path string) error {
	if n.Kind == yaml.AliasNode {
		return p.errAt(n, path, "aliases (*%s) are not supported: write the value out", n.Value)
	}
	return nil
}

// checkTag rejects a mapping or list with an explicit tag other than the standard one.
func (p *parser) checkTag(n *yaml.Node, path string) error {
	want := "!!map"
	if n.Kind == yaml.SequenceNode {
		want = "!!seq"
	}
	if t := n.ShortTag(); t != want {
		return p.errAt(n, path, "unsupported tag %s", t)
	}
	return nil
}

// scalar checks that n is a scalar; what describes the expected value in the error.
func (p *parser) scalar(n *yaml.Node, path, what string) error {
	if err := p.checkAlias(n, path); err != nil {
		return err
	}
	if n.Kind != yaml.ScalarNode {
		return p.errAt(n, path, "expected %s, got %s", what, describe(n))
	}
	return nil
}

// str returns the text of a scalar. Numbers, booleans and timestamps are taken as written (a name
// may be 2026); null never reaches here, and other tags are rejected.
func (p *parser) str(n *yaml.Node, path string) (string, error) {
	if err := p.scalar(n, path, "a string"); err != nil {
		return "", err
	}
	switch scalarTag(n) {
	case "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
		return n.Value, nil
	}
	return "", p.errAt(n, path, "expected a string, got %s", describe(n))
}

// boolean returns the value of a true or false scalar.
func (p *parser) boolean(n *yaml.Node, path string) (bool, error) {
	if err := p.scalar(n, path, "true or false"); err != nil {
		return false, err
	}
	if scalarTag(n) == "!!bool" {
		switch n.Value {
		case "true", "True", "TRUE":
			return true, nil
		case "false", "False", "FALSE":
			return false, nil
		}
	}
	return false, p.errAt(n, path, "expected true or false, got %s", describe(n))
}

// integer returns the value of an integer scalar, of any size. Integers are written as YAML
// resolves them: decimal, 0x hexadecimal, 0o or leading-0 octal, 0b binary, with optional
// underscores.
func (p *parser) integer(n *yaml.Node, path string) (*big.Int, error) {
	if err := p.scalar(n, path, "an integer"); err != nil {
		return nil, err
	}
	// The YAML library resolves integers beyond 64 bits (and -0) as floats.
	if t := scalarTag(n); t == "!!int" || t == "!!float" {
		if z, ok := new(big.Int).SetString(strings.ReplaceAll(n.Value, "_", ""), 0); ok {
			return z, nil
		}
	}
	return nil, p.errAt(n, path, "expected an integer, got %s", describe(n))
}

// intIn returns the value of an integer scalar in [lo, hi] (lo <= hi is not required: an empty
// range rejects every value).
func (p *parser) intIn(n *yaml.Node, path string, lo, hi int64) (int, error) {
	z, err := p.integer(n, path)
	if err != nil {
		return 0, err
	}
	if z.IsInt64() && z.Int64() >= lo && z.Int64() <= hi {
		return int(z.Int64()), nil
	}
	switch {
	case hi == math.MaxInt && z.Sign() > 0:
		return 0, p.errAt(n, path, "%s is too large (at most %d)", short(z.String()), hi)
	case hi == math.MaxInt:
		return 0, p.errAt(n, path, "must be at least %d, got %s", lo, short(z.String()))
	}
	return 0, p.errAt(n, path, "must be between %d and %d, got %s", lo, hi, short(z.String()))
}

// seed returns the value of a non-negative integer scalar that fits in 64 bits.
func (p *parser) seed(n *yaml.Node, path string) (uint64, error) {
	z, err := p.integer(n, path)
	switch {
	case err != nil:
		return 0, err
	case z.Sign() < 0:
		return 0, p.errAt(n, path, "must not be negative, got %s", short(z.String()))
	case !z.IsUint64():
		return 0, p.errAt(n, path, "%s is too large (at most %d)", short(z.String()), uint64(math.MaxUint64))
	}
	return z.Uint64(), nil
}

// number returns the value of a numeric scalar (an integer or a float; .inf and .nan included).
func (p *parser) number(n *yaml.Node, path string) (float64, error) {
	if err := p.scalar(n, path, "a number"); err != nil {
		return 0, err
	}
	if t := scalarTag(n); t == "!!int" || t == "!!float" {
		var f float64
		if n.Decode(&f) == nil {
			return f, nil
		}
	}
	return 0, p.errAt(n, path, "expected a number, got %s", describe(n))
}

// wrap turns err, an error about the value n, into an *Error at n.
func (p *parser) wrap(n *yaml.Node, path string, err error) error {
	if err == nil {
		return nil
	}
	return p.errAt(n, path, "%s", err.Error())
}

// parseFormat parses a format name.
func parseFormat(s string) (Format, error) {
	for f, name := range formatNames() {
		if s == name {
			return Format(f), nil
		}
	}
	return 0, fmt.Errorf("unknown format %s (allowed: %s)", quote(s), strings.Join(formatNames(), ", "))
}

// validName reports whether s is a non-empty run of ASCII letters, digits, '.', '_', '-' and the
// characters of extra, and not "." or "..".
func validName(s, extra string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '.' || r == '_' || r == '-' || strings.ContainsRune(extra, r)
		if !ok {
			return false
		}
	}
	return true
}

// isNull reports whether n is a null scalar (empty, ~ or null).
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// scalarTag returns the resolved tag of a scalar; the non-specific tag "!" means a string.
func scalarTag(n *yaml.Node) string {
	if n.Tag == "!" {
		return "!!str"
	}
	return n.ShortTag()
}

// describe names the kind and value of n for an error message.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		t := scalarTag(n)
		if n.Style&yaml.TaggedStyle != 0 && t != "!!null" {
			return t + " " + quote(n.Value)
		}
		switch t {
		case "!!str":
			return "string " + quote(n.Value)
		case "!!int":
			return "integer " + short(n.Value)
		case "!!float":
			return "number " + short(n.Value)
		case "!!bool":
			return short(n.Value)
		case "!!null":
			return "null"
		case "!!timestamp":
			return "timestamp " + short(n.Value)
		default:
			return t + " " + quote(n.Value)
		}
	}
	return "a YAML node of kind " + strconv.Itoa(int(n.Kind))
}

// maxQuoted is the longest value an error message quotes in full, in characters.
const maxQuoted = 40

// short returns s cut to maxQuoted characters, quoted if it holds anything but letters, digits
// and punctuation.
func short(s string) string {
	cut := s
	if utf8.RuneCountInString(s) > maxQuoted {
		cut = string([]rune(s)[:maxQuoted])
	}
	if strings.ContainsFunc(cut, func(r rune) bool { return r <= ' ' || r == '"' || r == '\\' || r >= 0x7f }) {
		return quote(s)
	}
	if cut != s {
		cut += "..."
	}
	return cut
}

// quote returns s, cut to maxQuoted characters, as a double-quoted Go string.
func quote(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(string([]rune(s)[:maxQuoted])) + "..."
}

// list joins names for an "allowed:" list.
func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
