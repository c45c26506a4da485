package configs

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"memsim/configs/internal/yamlnode"
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
// is an *Error pointing at the offending node. The resolved configuration (Tournament.YAML) must
// fit in MaxFileSize bytes, as data does when ReadFile reads it, so that it can be read back.
func Parse(file string, data []byte, opts Options) (*Tournament, error) {
	p := &parser{Reader: yamlnode.Reader{File: file}, opts: opts}
	top, err := p.load(data)
	if err != nil {
		return nil, fileError(err)
	}
	t, err := p.tournament(top, file)
	if err != nil {
		return nil, fileError(err)
	}
	if n := len(t.YAML()); n > MaxFileSize {
		return nil, fileError(p.ErrorAt(top, "", "the resolved configuration takes %d bytes, and %s: fewer players, or shorter names", n, sizeRule))
	}
	return t, nil
}

// parser reads the nodes of a configuration (yamlnode.Reader) and checks them against the schema
// and the caller's options.
type parser struct {
	yamlnode.Reader
	opts Options
}

// emptyConfig is the error of a file without a configuration.
const emptyConfig = "empty document: a configuration needs at least the players key"

// load reads the single document of data and returns its top-level mapping.
func (p *parser) load(data []byte) (*yaml.Node, error) {
	s, err := p.Stream(data)
	if err != nil {
		return nil, err
	}
	doc, err := s.Next()
	switch {
	case err == io.EOF:
		return nil, p.Errorf(yamlnode.Pos{Line: 1, Column: 1}, "", emptyConfig)
	case err != nil:
		return nil, err
	}
	switch extra, err := s.Next(); {
	case err == nil:
		return nil, p.ErrorAt(extra, "", "a second YAML document: a configuration file holds exactly one")
	case err != io.EOF:
		return nil, err
	}
	return p.Top(doc, emptyConfig)
}

// tournament checks the top-level mapping and fills in the defaults. A configuration without a
// name is named after nameFile's base.
func (p *parser) tournament(top *yaml.Node, nameFile string) (*Tournament, error) {
	t := &Tournament{
		File:   p.File,
		Seed:   defaultSeed,
		Games:  defaultGames,
		Format: RoundRobin,
		Rules:  Rules{Pairs: []int{defaultPairs}, PlayersPerGame: defaultPlayersPerGame, Pass: rules.PassNever},
		Output: defaultOutput,
		// The default of luck_adjusted.
		LuckAdjusted: true,
	}
	entries, err := p.Mapping(top, "", "name", "seed", "games", "workers", "paired", "luck_adjusted", "format", "rules", "players", "output", "stop", "records")
	if err != nil {
		return nil, err
	}
	var (
		named                                    bool
		paired, playersKey, perGameVal, stopNode *yaml.Node
	)
	at := &t.Positions
	for _, e := range entries {
		var err error
		pos := yamlnode.PosOf(e.Val)
		switch e.Key {
		case "name":
			named, at.Name = true, pos
			t.Name, err = p.Text(e.Val, e.Key)
			switch {
			case err != nil:
			case !validName(t.Name, ""):
				err = p.ErrorAt(e.Val, e.Key, "%s is not a valid name: it must match [A-Za-z0-9._-]+ and not be \".\" or \"..\"", yamlnode.Quote(t.Name))
			case len(t.Name) > MaxNameLength:
				err = p.ErrorAt(e.Val, e.Key, "%d characters: a name (a folder name) has at most %d", len(t.Name), MaxNameLength)
			}
		case "seed":
			at.Seed = pos
			t.Seed, err = p.Uint64(e.Val, e.Key)
		case "games":
			at.Games = pos
			t.Games, err = p.IntIn(e.Val, e.Key, 1, bound(p.opts.MaxGames))
		case "workers":
			at.Workers = pos
			t.Workers, err = p.IntIn(e.Val, e.Key, 0, bound(p.opts.MaxWorkers))
		case "paired":
			paired, at.Paired = e.Val, pos
			t.Paired, err = p.Bool(e.Val, e.Key)
		case "luck_adjusted":
			at.LuckAdjusted = pos
			t.LuckAdjusted, err = p.Bool(e.Val, e.Key)
		case "format":
			at.Format = pos
			var s string
			if s, err = p.Text(e.Val, e.Key); err == nil {
				t.Format, err = parseFormat(s)
				err = p.Wrap(e.Val, e.Key, err)
			}
		case "rules":
			perGameVal, err = p.rules(e.Val, &t.Rules, &at.Rules)
		case "players":
			playersKey, at.Players = e.KeyNode, pos
			t.Players, err = p.players(e.Val)
		case "stop":
			stopNode, at.Stop = e.Val, pos
			t.Stop, err = p.stop(e.Val)
		case "records":
			at.Records = pos
			t.Records, err = p.IntIn(e.Val, e.Key, 0, MaxRecords)
		case "output":
			at.Output = pos
			t.Output, err = p.Text(e.Val, e.Key)
			if err == nil && t.Output == "" {
				err = p.ErrorAt(e.Val, e.Key, "must not be empty")
			} else if err == nil {
				if bad := CheckPath(t.Output); bad != nil {
					err = p.ErrorAt(e.Val, e.Key, "%v", bad)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if !named {
		base := filepath.Base(nameFile)
		t.Name = strings.TrimSuffix(base, filepath.Ext(base))
		if !validName(t.Name, "") || len(t.Name) > MaxNameLength {
			return nil, p.ErrorAt(top, "", "no name given, and the file name's base %s is not a valid name (it must match [A-Za-z0-9._-]+ and not be \".\" or \"..\"): add a name key", yamlnode.Quote(t.Name))
		}
	}
	if playersKey == nil {
		return nil, p.ErrorAt(top, "", "missing key \"players\" (a non-empty list of players)")
	}
	if err := p.crossCheck(t, playersKey, paired, perGameVal, stopNode); err != nil {
		return nil, err
	}
	return t, nil
}

// crossCheck checks what keys say together: paired deals need two players per game and the
// sequential test paired deals; a format needs enough players. The nodes are those of the keys
// the errors point at (nil when not given).
func (p *parser) crossCheck(t *Tournament, playersKey, paired, perGameVal, stopNode *yaml.Node) error {
	perGame := t.Rules.PlayersPerGame
	if t.Paired && perGame != 2 { // t.Paired only where the key says so
		return p.ErrorAt(paired, "paired", "true needs rules.players_per_game 2, but it is %d", perGame)
	}
	if t.Stop != nil && t.Stop.SPRT != nil && !t.Paired {
		return p.ErrorAt(stopNode, "stop.sprt", "needs paired deals (paired: true, two players per game)")
	}
	switch t.Format {
	case RoundRobin:
		if len(t.Players) < perGame {
			return p.ErrorAt(playersKey, "players", "round-robin with rules.players_per_game %d needs at least %d players, got %d", perGame, perGame, len(t.Players))
		}
	case Gauntlet:
		if perGame < 2 {
			at := perGameVal
			if at == nil {
				at = playersKey
			}
			return p.ErrorAt(at, "rules.players_per_game", "gauntlet needs at least 2 players per game, got %d", perGame)
		}
		if len(t.Players) < 2 {
			return p.ErrorAt(playersKey, "players", "gauntlet needs at least 2 players, got %d", len(t.Players))
		}
	}
	return nil
}

// bound returns the largest value a key with the given bound accepts (0: no bound).
func bound(max int) int64 {
	if max <= 0 {
		return math.MaxInt
	}
	return int64(max)
}

// rules checks the rules mapping into r, recording the positions of its values in at, and returns
// the value node of players_per_game (nil if it is not given).
func (p *parser) rules(n *yaml.Node, r *Rules, at *RulesPositions) (perGame *yaml.Node, err error) {
	entries, err := p.Mapping(n, "rules", "pairs", "singletons", "players_per_game", "pass", "copies", "flips", "turn_limit", "board")
	if err != nil {
		return nil, err
	}
	// A board preset first: the keys given beside it override its values.
	for _, e := range entries {
		if e.Key != "board" {
			continue
		}
		at.Board = yamlnode.PosOf(e.Val)
		var s string
		var b rules.Board
		if s, err = p.Text(e.Val, "rules.board"); err == nil {
			b, err = rules.ParseBoard(s)
			err = p.Wrap(e.Val, "rules.board", err)
		}
		if err != nil {
			return nil, err
		}
		r.Pairs, r.Variant = []int{b.Pairs}, b.Variant
	}
	var pairsNode, copiesNode *yaml.Node
	for _, e := range entries {
		path := "rules." + e.Key
		pos := yamlnode.PosOf(e.Val)
		switch e.Key {
		case "pairs":
			at.Pairs, pairsNode = pos, e.Val
			r.Pairs, err = p.pairs(e.Val, path)
		case "copies":
			at.Copies, copiesNode = pos, e.Val
			var k int
			if k, err = p.IntIn(e.Val, path, rules.DefaultCopies, rules.MaxCopies); err == nil && k%2 != 0 {
				err = p.ErrorAt(e.Val, path, "%d: must be even (any two cards of a face match, so a face of k cards makes k/2 pairs)", k)
			}
			r.Variant.Copies = k
			if k == rules.DefaultCopies {
				r.Variant.Copies = 0
			}
		case "flips":
			at.Flips = pos
			var s string
			if s, err = p.Text(e.Val, path); err == nil {
				r.Variant.Flips, err = rules.ParseFlips(s)
				err = p.Wrap(e.Val, path, err)
			}
		case "turn_limit":
			at.TurnLimit = pos
			r.Variant.TurnLimit, err = p.IntIn(e.Val, path, 1, math.MaxInt32)
		case "singletons":
			at.Singletons = pos
			r.Singletons, err = p.IntIn(e.Val, path, 0, int64(max(p.opts.MaxPairs, 0)))
		case "players_per_game":
			perGame, at.PlayersPerGame = e.Val, pos
			r.PlayersPerGame, err = p.IntIn(e.Val, path, 1, rules.MaxPlayers)
		case "pass":
			at.Pass = pos
			var s string
			if s, err = p.Text(e.Val, path); err == nil {
				r.Pass, err = rules.ParsePassRule(s)
				err = p.Wrap(e.Val, path, err)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	for i, k := range r.Pairs {
		if err := r.Variant.ValidateDeal(k); err != nil {
			switch {
			case copiesNode != nil:
				return nil, p.ErrorAt(copiesNode, "rules.copies", "%v", err)
			case pairsNode != nil && pairsNode.Kind == yaml.SequenceNode:
				return nil, p.ErrorAt(pairsNode.Content[i], fmt.Sprintf("rules.pairs[%d]", i), "%v", err)
			case pairsNode != nil:
				return nil, p.ErrorAt(pairsNode, "rules.pairs", "%v", err)
			}
			return nil, p.ErrorAt(n, "rules.board", "%v", err)
		}
	}
	return perGame, nil
}

// pairs checks rules.pairs: a deal size or a non-empty list of distinct deal sizes.
func (p *parser) pairs(n *yaml.Node, path string) ([]int, error) {
	if n.Kind == yaml.ScalarNode {
		k, err := p.IntIn(n, path, 1, int64(p.opts.MaxPairs))
		if err != nil {
			return nil, err
		}
		return []int{k}, nil
	}
	if n.Kind != yaml.SequenceNode {
		if err := p.CheckAlias(n, path); err != nil {
			return nil, err
		}
		return nil, p.ErrorAt(n, path, "expected a deal size or a list of deal sizes, got %s", yamlnode.Describe(n))
	}
	if err := p.CheckTag(n, path); err != nil {
		return nil, err
	}
	if len(n.Content) == 0 {
		return nil, p.ErrorAt(n, path, "must not be empty")
	}
	pairs := make([]int, 0, len(n.Content))
	for i, c := range n.Content {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		k, err := p.IntIn(c, ipath, 1, int64(p.opts.MaxPairs))
		if err != nil {
			return nil, err
		}
		if j := slices.Index(pairs, k); j >= 0 {
			return nil, p.ErrorAt(c, ipath, "deal size %d is already listed at %s[%d]", k, path, j)
		}
		pairs = append(pairs, k)
	}
	return pairs, nil
}

// stop checks the stop mapping: precision (a number > 0) and sprt (d > 0, 0 < alpha, beta and
// alpha + beta < 1). An empty mapping is no rule.
func (p *parser) stop(n *yaml.Node) (*Stop, error) {
	entries, err := p.Mapping(n, "stop", "precision", "sprt")
	if err != nil {
		return nil, err
	}
	st := &Stop{}
	for _, e := range entries {
		path := "stop." + e.Key
		switch e.Key {
		case "precision":
			if st.Precision, err = p.Number(e.Val, path); err == nil && !(st.Precision > 0) {
				err = p.ErrorAt(e.Val, path, "must be a positive number of pairs per game, got %g", st.Precision)
			}
		case "sprt":
			st.SPRT, err = p.sprt(e.Val, path)
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
	entries, err := p.Mapping(n, path, "d", "alpha", "beta")
	if err != nil {
		return nil, err
	}
	var t SPRT
	seen := map[string]bool{}
	for _, e := range entries {
		var x float64
		if x, err = p.Number(e.Val, path+"."+e.Key); err != nil {
			return nil, err
		}
		seen[e.Key] = true
		switch e.Key {
		case "d":
			if !(x > 0) {
				return nil, p.ErrorAt(e.Val, path+".d", "must be a positive number of pairs per game, got %g", x)
			}
			t.D = x
		case "alpha", "beta":
			if !(x > 0 && x < 1) {
				return nil, p.ErrorAt(e.Val, path+"."+e.Key, "must be between 0 and 1, got %g", x)
			}
			if e.Key == "alpha" {
				t.Alpha = x
			} else {
				t.Beta = x
			}
		}
	}
	for _, k := range []string{"d", "alpha", "beta"} {
		if !seen[k] {
			return nil, p.ErrorAt(n, path, "missing key %q (give d, alpha and beta)", k)
		}
	}
	if t.Alpha+t.Beta >= 1 {
		return nil, p.ErrorAt(n, path, "alpha + beta must be below 1, got %g", t.Alpha+t.Beta)
	}
	return &t, nil
}

// parseFormat parses a format name.
func parseFormat(s string) (Format, error) {
	for f, name := range formatNames() {
		if s == name {
			return Format(f), nil
		}
	}
	return 0, fmt.Errorf("unknown format %s (allowed: %s)", yamlnode.Quote(s), strings.Join(formatNames(), ", "))
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
