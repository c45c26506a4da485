package configs

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// YAML returns the resolved configuration (every default filled in) as YAML text that Parse
// accepts and that parses back to an equal Tournament (with the same Options). File and the
// positions (Positions, Player.Pos, Player.MemoryPos, Player.ChoicesPos) are not part of the
// text; an empty memory (no field given) is left out. The text is for people and files: what
// identifies a configuration is Identity.
func (t *Tournament) YAML() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Tournament %s, resolved: every default filled in.\n", yamlString(t.Name))
	fmt.Fprintf(&b, "name: %s\n", yamlString(t.Name))
	fmt.Fprintf(&b, "seed: %d\n", t.Seed)
	fmt.Fprintf(&b, "games: %d\n", t.Games)
	fmt.Fprintf(&b, "workers: %d\n", t.Workers)
	fmt.Fprintf(&b, "paired: %t\n", t.Paired)
	fmt.Fprintf(&b, "luck_adjusted: %t\n", t.LuckAdjusted)
	fmt.Fprintf(&b, "format: %s\n", yamlString(t.Format.String()))
	b.WriteString("rules:\n")
	pairs := make([]string, len(t.Rules.Pairs))
	for i, k := range t.Rules.Pairs {
		pairs[i] = strconv.Itoa(k)
	}
	fmt.Fprintf(&b, "  pairs: [%s]\n", strings.Join(pairs, ", "))
	fmt.Fprintf(&b, "  singletons: %d\n", t.Rules.Singletons)
	fmt.Fprintf(&b, "  players_per_game: %d\n", t.Rules.PlayersPerGame)
	fmt.Fprintf(&b, "  pass: %s\n", yamlString(t.Rules.Pass.String()))
	if v := t.Rules.Variant; !v.Standard() {
		// The variant's keys, written out only for a variant, so that the resolved text of a
		// standard game stays as it was.
		fmt.Fprintf(&b, "  copies: %d\n", v.CopiesOf())
		fmt.Fprintf(&b, "  flips: %s\n", yamlString(v.Flips.String()))
		if v.TurnLimit > 0 {
			fmt.Fprintf(&b, "  turn_limit: %d\n", v.TurnLimit)
		}
	}
	b.WriteString("players:\n")
	for _, pl := range t.Players {
		fields := []string{"name: " + yamlString(pl.Name)}
		if x := pl.External; x != nil {
			fields = append(fields, x.yaml()...)
		} else {
			fields = append(fields, "policy: "+yamlString(pl.Policy))
		}
		if pl.Opponent != "" {
			fields = append(fields, "opponent: "+yamlString(pl.Opponent))
		}
		if mem := pl.Memory.yaml(); mem != "" {
			fields = append(fields, "memory: "+mem)
		}
		if pl.Choices != nil {
			fields = append(fields, "choices: ["+strings.ReplaceAll(pl.Choices.String(), ",", ", ")+"]")
		}
		fmt.Fprintf(&b, "  - {%s}\n", strings.Join(fields, ", "))
	}
	fmt.Fprintf(&b, "output: %s\n", yamlString(t.Output))
	fmt.Fprintf(&b, "records: %d\n", t.Records)
	if t.Stop != nil {
		b.WriteString("stop:\n")
		if t.Stop.Precision > 0 {
			fmt.Fprintf(&b, "  precision: %s\n", strconv.FormatFloat(t.Stop.Precision, 'g', -1, 64))
		}
		if s := t.Stop.SPRT; s != nil {
			fmt.Fprintf(&b, "  sprt: {d: %s, alpha: %s, beta: %s}\n", strconv.FormatFloat(s.D, 'g', -1, 64),
				strconv.FormatFloat(s.Alpha, 'g', -1, 64), strconv.FormatFloat(s.Beta, 'g', -1, 64))
		}
	}
	return b.Bytes()
}

// yaml returns the memory as a YAML flow mapping, or "" if no field is given.
func (m MemorySpec) yaml() string {
	var fields []string
	if m.Capacity != nil {
		fields = append(fields, "capacity: "+strconv.Itoa(*m.Capacity))
	}
	if m.Forget != nil {
		fields = append(fields, "forget: "+yamlString(m.Forget.String()))
	}
	if m.Scope != nil {
		fields = append(fields, "scope: "+yamlString(m.Scope.String()))
	}
	if m.Q != nil {
		fields = append(fields, "q: "+strconv.FormatFloat(*m.Q, 'g', -1, 64))
	}
	if m.Fluctuation != nil {
		fields = append(fields, "fluctuation: "+strconv.Itoa(*m.Fluctuation))
	}
	if len(fields) == 0 {
		return ""
	}
	return "{" + strings.Join(fields, ", ") + "}"
}

// yamlString writes s as a YAML scalar that reads back as the string s: plain when it is a word
// YAML cannot take for anything else, double-quoted otherwise. (Go's quoting is valid YAML
// double-quoted style for the valid UTF-8 that YAML strings are.)
func yamlString(s string) string {
	plain := s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
	for i := 0; plain && i < len(s); i++ {
		c := s[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '-' || c == '+'
	}
	if plain {
		switch strings.ToLower(s) {
		case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
			plain = false
		}
	}
	if plain {
		return s
	}
	return strconv.Quote(s)
}

// yaml returns the keys of a player process, as flow-style YAML fields.
func (x *External) yaml() []string {
	args := make([]string, len(x.Command))
	for i, a := range x.Command {
		args[i] = yamlString(a)
	}
	fields := []string{"command: [" + strings.Join(args, ", ") + "]"}
	if len(x.Options) > 0 {
		names := slices.Sorted(maps.Keys(x.Options))
		opts := make([]string, len(names))
		for i, name := range names {
			var v string
			switch val := x.Options[name].(type) {
			case bool:
				v = strconv.FormatBool(val)
			case float64:
				v = strconv.FormatFloat(val, 'g', -1, 64)
				if !strings.ContainsAny(v, ".eE") {
					v += ".0" // a float, as read back
				}
			default:
				v = yamlString(fmt.Sprint(val))
			}
			opts[i] = yamlString(name) + ": " + v
		}
		fields = append(fields, "options: {"+strings.Join(opts, ", ")+"}")
	}
	if x.TimePerMove > 0 {
		fields = append(fields, "time_per_move: "+yamlString(x.TimePerMove.String()))
	}
	if x.GamesInFlight > 0 {
		fields = append(fields, "games_in_flight: "+strconv.Itoa(x.GamesInFlight))
	}
	return append(fields, "on_error: "+yamlString(x.OnError))
}
