package configs

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"

	yaml "go.yaml.in/yaml/v4"

	"memsim/configs/internal/yamlnode"
)

// command checks a player's command: a non-empty list of strings, the program first.
func (p *parser) command(n *yaml.Node, path string) ([]string, error) {
	if err := p.Kind(n, path, yaml.SequenceNode, "a list of strings: the program and its arguments, e.g. [python3, my_player.py]"); err != nil {
		return nil, err
	}
	if len(n.Content) == 0 {
		return nil, p.ErrorAt(n, path, "must not be empty: the program and its arguments")
	}
	argv := make([]string, 0, len(n.Content))
	for i, c := range n.Content {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		s, err := p.Text(c, ipath)
		if err != nil {
			return nil, err
		}
		switch {
		case i == 0 && s == "":
			return nil, p.ErrorAt(c, ipath, "the program must not be empty")
		case strings.ContainsRune(s, 0):
			return nil, p.ErrorAt(c, ipath, "must not contain a NUL character")
		}
		argv = append(argv, s)
	}
	return argv, nil
}

// options checks a player's option values: a mapping of option names to booleans, numbers or
// strings. Numbers become float64, as the protocol carries them; whether the player declares the
// options is checked at its handshake.
func (p *parser) options(n *yaml.Node, path string) (map[string]any, error) {
	if err := p.Kind(n, path, yaml.MappingNode, "a mapping of option names to values"); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, err := p.Text(k, path)
		if err != nil {
			return nil, err
		}
		if name == "" || strings.IndexFunc(name, unicode.IsControl) >= 0 {
			return nil, p.ErrorAt(k, path, "option name %s: must be non-empty, without control characters", yamlnode.Quote(name))
		}
		if _, dup := out[name]; dup {
			return nil, p.ErrorAt(k, path+"."+name, "option %s is given twice", yamlnode.Quote(name))
		}
		vpath := path + "." + name
		if yamlnode.IsNull(v) {
			return nil, p.ErrorAt(v, vpath, "must have a value (a boolean, a number or a string); leave the option out for its default")
		}
		if err := p.CheckAlias(v, vpath); err != nil {
			return nil, err
		}
		if v.Kind != yaml.ScalarNode {
			return nil, p.ErrorAt(v, vpath, "expected a boolean, a number or a string, got %s", yamlnode.Describe(v))
		}
		switch v.ShortTag() {
		case "!!bool":
			out[name], err = p.Bool(v, vpath)
		case "!!int", "!!float":
			var x float64
			if x, err = p.Number(v, vpath); err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
				err = p.ErrorAt(v, vpath, "must be a finite number, got %s", yamlnode.Short(v.Value))
			}
			out[name] = x
		default:
			out[name], err = p.Text(v, vpath)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// timePerMove checks a player's time per move: a duration such as 50ms or 2s, from 1ms to
// MaxTimePerMove.
func (p *parser) timePerMove(n *yaml.Node, path string) (time.Duration, error) {
	s, err := p.Text(n, path)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, p.ErrorAt(n, path, "%s is not a duration (e.g. 50ms, 2s)", yamlnode.Quote(s))
	}
	if d < time.Millisecond || d > MaxTimePerMove {
		return 0, p.ErrorAt(n, path, "%s: must be from 1ms to %v", s, MaxTimePerMove)
	}
	return d, nil
}
