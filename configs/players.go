package configs

import (
	"fmt"
	"math"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"memsim/configs/internal/yamlnode"
	"memsim/sim/rules"
)

// players checks the players list.
func (p *parser) players(n *yaml.Node) ([]Player, error) {
	const path = "players"
	if err := p.Kind(n, path, yaml.SequenceNode, "a list of players"); err != nil {
		return nil, err
	}
	if len(n.Content) == 0 {
		return nil, p.ErrorAt(n, path, "must not be empty")
	}
	players := make([]Player, 0, len(n.Content))
	first := make(map[string]int) // player name -> index of the entry that first used it
	for i, c := range n.Content {
		pl, nameVal, err := p.player(c, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		if j, dup := first[pl.Name]; dup {
			return nil, p.ErrorAt(nameVal, fmt.Sprintf("%s[%d].name", path, i),
				"duplicate player name %s: players[%d] (line %d) already uses it", yamlnode.Quote(pl.Name), j, players[j].Pos.Line)
		}
		first[pl.Name] = i
		players = append(players, pl)
	}
	return players, nil
}

// player checks one entry of the players list; it also returns the entry's name value.
func (p *parser) player(n *yaml.Node, path string) (pl Player, nameVal *yaml.Node, err error) {
	if err := p.Kind(n, path, yaml.MappingNode, "a mapping with keys name, policy, opponent, memory, choices (or command, options, time_per_move, games_in_flight, on_error)"); err != nil {
		return pl, nil, err
	}
	entries, err := p.Mapping(n, path, "name", "policy", "opponent", "memory", "choices", "command", "options", "time_per_move", "games_in_flight", "on_error")
	if err != nil {
		return pl, nil, err
	}
	pl.Pos = yamlnode.PosOf(n)
	pl.MemoryPos, pl.ChoicesPos = pl.Pos, pl.Pos
	var policyVal, opponentVal, commandVal *yaml.Node
	var ext External
	var processKeys []*yaml.Node // options, time_per_move, on_error: only with a command
	for _, e := range entries {
		kpath := path + "." + e.Key
		switch e.Key {
		case "name":
			nameVal = e.Val
			if pl.Name, err = p.Text(e.Val, kpath); err == nil {
				switch {
				case pl.Name == "":
					err = p.ErrorAt(e.Val, kpath, "must not be empty")
				case !validName(pl.Name, "+"):
					err = p.ErrorAt(e.Val, kpath, "%s is not a valid player name: it must match [A-Za-z0-9._+-]+", yamlnode.Quote(pl.Name))
				}
			}
		case "policy":
			policyVal = e.Val
			if pl.Policy, err = p.Text(e.Val, kpath); err == nil && !slices.Contains(p.opts.Policies, pl.Policy) {
				err = p.ErrorAt(e.Val, kpath, "unknown policy %s (allowed: %s)", yamlnode.Quote(pl.Policy), list(p.opts.Policies))
			}
		case "opponent":
			opponentVal = e.Val
			pl.Opponent, err = p.Text(e.Val, kpath)
		case "memory":
			pl.MemoryPos = yamlnode.PosOf(e.Val)
			pl.Memory, err = p.memory(e.Val, kpath)
		case "choices":
			pl.ChoicesPos = yamlnode.PosOf(e.Val)
			pl.Choices, err = p.choices(e.Val, kpath)
		case "command":
			commandVal = e.Val
			ext.CommandPos = yamlnode.PosOf(e.Val)
			ext.Command, err = p.command(e.Val, kpath)
		case "options":
			processKeys = append(processKeys, e.KeyNode)
			ext.Options, err = p.options(e.Val, kpath)
		case "time_per_move":
			processKeys = append(processKeys, e.KeyNode)
			ext.TimePerMove, err = p.timePerMove(e.Val, kpath)
		case "games_in_flight":
			processKeys = append(processKeys, e.KeyNode)
			ext.GamesInFlight, err = p.IntIn(e.Val, kpath, 1, MaxGamesInFlight)
		case "on_error":
			processKeys = append(processKeys, e.KeyNode)
			if ext.OnError, err = p.Text(e.Val, kpath); err == nil && ext.OnError != OnErrorStop && ext.OnError != OnErrorForfeit {
				err = p.ErrorAt(e.Val, kpath, "unknown value %s (allowed: %s, %s)", yamlnode.Quote(ext.OnError), OnErrorStop, OnErrorForfeit)
			}
		}
		if err != nil {
			return pl, nil, err
		}
	}
	switch {
	case nameVal == nil:
		return pl, nil, p.ErrorAt(n, path, "missing key \"name\"")
	case policyVal != nil && commandVal != nil:
		return pl, nil, p.ErrorAt(commandVal, path+".command", "a player has a policy or a command, not both (the policy is %s)", yamlnode.Quote(pl.Policy))
	case commandVal != nil:
		if opponentVal != nil {
			return pl, nil, p.ErrorAt(opponentVal, path+".opponent", "only allowed with %s, not with a command", p.replies())
		}
		if ext.OnError == "" {
			ext.OnError = OnErrorStop
		}
		pl.External = &ext
		return pl, nameVal, nil
	case len(processKeys) > 0:
		k := processKeys[0]
		return pl, nil, p.ErrorAt(k, path+"."+k.Value, "only allowed with a command (a player process, docs/protocol.md)")
	case policyVal == nil:
		return pl, nil, p.ErrorAt(n, path, "missing key \"policy\" (allowed: %s) or \"command\" (a player process)", list(p.opts.Policies))
	}
	allowed := p.opponents(pl.Policy)
	switch {
	case allowed == nil && opponentVal != nil:
		return pl, nil, p.ErrorAt(opponentVal, path+".opponent", "only allowed with %s (the policy is %s)", p.replies(), yamlnode.Quote(pl.Policy))
	case allowed != nil && opponentVal == nil:
		return pl, nil, p.ErrorAt(n, path, "policy %s needs an opponent (allowed: %s)", pl.Policy, list(allowed))
	case opponentVal != nil && !slices.Contains(allowed, pl.Opponent):
		return pl, nil, p.ErrorAt(opponentVal, path+".opponent", "unknown opponent %s (allowed: %s)", yamlnode.Quote(pl.Opponent), list(allowed))
	}
	return pl, nameVal, nil
}

// choices checks a player's choice set: a non-empty list of distinct choice names that includes
// daring.
func (p *parser) choices(n *yaml.Node, path string) (*rules.ChoiceSet, error) {
	if err := p.Kind(n, path, yaml.SequenceNode, "a list of choices (daring, safe, known-first, pass)"); err != nil {
		return nil, err
	}
	var cs []rules.Choice
	for i, c := range n.Content {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		name, err := p.Text(c, ipath)
		if err != nil {
			return nil, err
		}
		ch, err := rules.ParseChoice(name)
		if err != nil {
			return nil, p.Wrap(c, ipath, err)
		}
		if slices.Contains(cs, ch) {
			return nil, p.ErrorAt(c, ipath, "choice %s is already listed", ch)
		}
		cs = append(cs, ch)
	}
	set := rules.NewChoiceSet(cs...)
	if err := set.Validate(); err != nil {
		return nil, p.Wrap(n, path, err)
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
	if err := p.Kind(n, path, yaml.MappingNode, "a mapping with keys capacity, forget, scope, q, fluctuation"); err != nil {
		return m, err
	}
	entries, err := p.Mapping(n, path, "capacity", "forget", "scope", "q", "fluctuation")
	if err != nil {
		return m, err
	}
	var qVal *yaml.Node
	for _, e := range entries {
		kpath := path + "." + e.Key
		switch e.Key {
		case "capacity":
			var c int
			if c, err = p.IntIn(e.Val, kpath, 0, math.MaxInt); err == nil {
				if c == 1 {
					err = p.ErrorAt(e.Val, kpath, "must be 0 (no limit) or at least 2, got 1")
				}
				m.Capacity = &c
			}
		case "forget":
			var s string
			if s, err = p.Text(e.Val, kpath); err == nil {
				var f rules.Forgetting
				f, err = rules.ParseForgetting(s)
				err = p.Wrap(e.Val, kpath, err)
				m.Forget = &f
			}
		case "scope":
			var s string
			if s, err = p.Text(e.Val, kpath); err == nil {
				var sc rules.Scope
				sc, err = rules.ParseScope(s)
				err = p.Wrap(e.Val, kpath, err)
				m.Scope = &sc
			}
		case "fluctuation":
			var f int
			if f, err = p.IntIn(e.Val, kpath, 0, rules.MaxFluctuation); err == nil {
				m.Fluctuation = &f
			}
		case "q":
			qVal = e.Val
			var q float64
			if q, err = p.Number(e.Val, kpath); err == nil {
				if !(q > 0 && q <= 1) {
					err = p.ErrorAt(e.Val, kpath, "must be in (0, 1], got %s", yamlnode.Short(e.Val.Value))
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
		return MemorySpec{}, p.ErrorAt(qVal, path+".q", "only allowed with forget: decay (forget is not given)")
	case qVal != nil && *m.Forget != rules.ForgetDecay:
		return MemorySpec{}, p.ErrorAt(qVal, path+".q", "only allowed with forget: decay (forget is %s)", m.Forget)
	}
	return m, nil
}

// list joins names for an "allowed:" list ("none" for no name).
func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
