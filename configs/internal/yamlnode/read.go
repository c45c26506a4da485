package yamlnode

import (
	"math"
	"math/big"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Entry is a key of a mapping whose value is not null.
type Entry struct {
	Key          string
	KeyNode, Val *yaml.Node
}

// Mapping checks that n is a mapping with the standard tag whose keys are distinct scalars
// among allowed, and returns its entries in order, leaving out those whose value is null (which
// count as absent). A merge key ("<<") is a key like any other: unknown unless allowed.
func (r *Reader) Mapping(n *yaml.Node, path string, allowed ...string) ([]Entry, error) {
	if err := r.Kind(n, path, yaml.MappingNode, "a mapping"); err != nil {
		return nil, err
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	entries := make([]Entry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := r.CheckAlias(k, path); err != nil {
			return nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, r.ErrorAt(k, path, "expected a key (one of %s), got %s", strings.Join(allowed, ", "), Describe(k))
		}
		if !slices.Contains(allowed, k.Value) {
			return nil, r.ErrorAt(k, path, "unknown key %s (allowed: %s)", Quote(k.Value), strings.Join(allowed, ", "))
		}
		if prev, dup := seen[k.Value]; dup {
			return nil, r.ErrorAt(k, path, "duplicate key %s (first at line %d, column %d)", Quote(k.Value), prev.Line, prev.Column)
		}
		seen[k.Value] = k
		if !IsNull(v) {
			entries = append(entries, Entry{Key: k.Value, KeyNode: k, Val: v})
		}
	}
	return entries, nil
}

// Kind checks that n is a collection of kind want (yaml.MappingNode or yaml.SequenceNode) with
// its standard tag; what describes the expected value in the error ("a list of players").
func (r *Reader) Kind(n *yaml.Node, path string, want yaml.Kind, what string) error {
	if err := r.CheckAlias(n, path); err != nil {
		return err
	}
	if n.Kind != want {
		return r.ErrorAt(n, path, "expected %s, got %s", what, Describe(n))
	}
	return r.CheckTag(n, path)
}

// CheckAlias refuses an alias node: a value must be written out.
func (r *Reader) CheckAlias(n *yaml.Node, path string) error {
	if n.Kind == yaml.AliasNode {
		return r.ErrorAt(n, path, "aliases (*%s) are not supported: write the value out", n.Value)
	}
	return nil
}

// CheckTag refuses a mapping or list with an explicit tag other than the standard one.
func (r *Reader) CheckTag(n *yaml.Node, path string) error {
	want := "!!map"
	if n.Kind == yaml.SequenceNode {
		want = "!!seq"
	}
	if t := n.ShortTag(); t != want {
		return r.ErrorAt(n, path, "unsupported tag %s", t)
	}
	return nil
}

// scalar checks that n is a scalar; what describes the expected value in the error.
func (r *Reader) scalar(n *yaml.Node, path, what string) error {
	if err := r.CheckAlias(n, path); err != nil {
		return err
	}
	if n.Kind != yaml.ScalarNode {
		return r.ErrorAt(n, path, "expected %s, got %s", what, Describe(n))
	}
	return nil
}

// Text returns the text of a scalar. Numbers, booleans and timestamps are taken as written (a
// name may be 2026); other tags are refused. The caller leaves out null values (Mapping does).
func (r *Reader) Text(n *yaml.Node, path string) (string, error) {
	if err := r.scalar(n, path, "a string"); err != nil {
		return "", err
	}
	switch scalarTag(n) {
	case "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
		return n.Value, nil
	}
	return "", r.ErrorAt(n, path, "expected a string, got %s", Describe(n))
}

// Bool returns the value of a true or false scalar (True and TRUE too; yes and on are strings).
func (r *Reader) Bool(n *yaml.Node, path string) (bool, error) {
	if err := r.scalar(n, path, "true or false"); err != nil {
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
	return false, r.ErrorAt(n, path, "expected true or false, got %s", Describe(n))
}

// Integer returns the value of an integer scalar, of any size. Integers are written as YAML
// resolves them: decimal, 0x hexadecimal, 0o or leading-0 octal, 0b binary, with optional
// underscores.
func (r *Reader) Integer(n *yaml.Node, path string) (*big.Int, error) {
	if err := r.scalar(n, path, "an integer"); err != nil {
		return nil, err
	}
	// The YAML library resolves integers beyond 64 bits (and -0) as floats.
	if t := scalarTag(n); t == "!!int" || t == "!!float" {
		if z, ok := new(big.Int).SetString(strings.ReplaceAll(n.Value, "_", ""), 0); ok {
			return z, nil
		}
	}
	return nil, r.ErrorAt(n, path, "expected an integer, got %s", Describe(n))
}

// IntIn returns the value of an integer scalar in [lo, hi] (an empty range refuses every value).
// With hi = math.MaxInt the range is open above, and the error says so.
func (r *Reader) IntIn(n *yaml.Node, path string, lo, hi int64) (int, error) {
	z, err := r.Integer(n, path)
	if err != nil {
		return 0, err
	}
	if z.IsInt64() && z.Int64() >= lo && z.Int64() <= hi {
		return int(z.Int64()), nil
	}
	switch {
	case hi == math.MaxInt && z.Sign() > 0:
		return 0, r.ErrorAt(n, path, "%s is too large (at most %d)", Short(z.String()), hi)
	case hi == math.MaxInt:
		return 0, r.ErrorAt(n, path, "must be at least %d, got %s", lo, Short(z.String()))
	}
	return 0, r.ErrorAt(n, path, "must be between %d and %d, got %s", lo, hi, Short(z.String()))
}

// Uint64 returns the value of a non-negative integer scalar that fits in 64 bits.
func (r *Reader) Uint64(n *yaml.Node, path string) (uint64, error) {
	z, err := r.Integer(n, path)
	switch {
	case err != nil:
		return 0, err
	case z.Sign() < 0:
		return 0, r.ErrorAt(n, path, "must not be negative, got %s", Short(z.String()))
	case !z.IsUint64():
		return 0, r.ErrorAt(n, path, "%s is too large (at most %d)", Short(z.String()), uint64(math.MaxUint64))
	}
	return z.Uint64(), nil
}

// Number returns the value of a numeric scalar: an integer or a float, which must be finite
// (.inf, -.inf and .nan are refused at n; the YAML library takes 1e309, beyond float64, as a
// string).
func (r *Reader) Number(n *yaml.Node, path string) (float64, error) {
	if err := r.scalar(n, path, "a number"); err != nil {
		return 0, err
	}
	if t := scalarTag(n); t == "!!int" || t == "!!float" {
		var f float64
		if n.Decode(&f) == nil {
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return 0, r.ErrorAt(n, path, "expected a finite number, got %s", Describe(n))
			}
			return f, nil
		}
	}
	return 0, r.ErrorAt(n, path, "expected a number, got %s", Describe(n))
}
