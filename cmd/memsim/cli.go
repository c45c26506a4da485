package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// interleave lets flags and arguments come in any order, as users of most command lines expect
// (memsim run CONFIG --shard 1/4, memsim merge SHARD... --out DIR): it moves every flag of args,
// with its value, before the arguments, keeping the order of each, and ends the flags with "--"
// so that fs.Parse takes the rest as arguments. A value flag takes the next word as its value
// unless written --flag=value; a boolean flag never does (--quiet=false). "--" ends the flags:
// what follows it is arguments, even when it begins with a dash; so is a lone "-". An unknown
// flag is kept among the flags, so that fs.Parse reports it; so is a value flag that ends args.
func interleave(fs *flag.FlagSet, args []string) []string {
	flags := make([]string, 0, len(args)+1)
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBool(f) {
			if i+1 == len(args) {
				return flags // a value flag without its value: fs.Parse says so
			}
			i++
			flags = append(flags, args[i])
		}
	}
	return append(append(flags, "--"), rest...)
}

// isBool reports whether f is a boolean flag, which takes no separate value.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// given returns the names of the flags set on the command line. A flag not given takes its
// default; a value given is taken as it is, so that 0 given explicitly is checked like any
// other value rather than standing for the default.
func given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// flagNames lists fs's flags as they are written, --name.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
	return names
}

// printFlags prints fs's flags as -h shows them: --name VALUE, then the description and any
// default other than the zero value, unless the description says its default itself, as
// "(default: the configuration's)".
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, use := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		switch f.DefValue {
		case "", "0", "0s", "false":
		default:
			use += defaultText(f, use)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(use, "\n", "\n    \t"))
	})
}

// defaultText is what -h adds to the description use of flag f to give its default, " (default
// 5s)", or "" when use says it already.
func defaultText(f *flag.Flag, use string) string {
	switch g, ok := f.Value.(flag.Getter); {
	case strings.Contains(use, "(default"):
		return ""
	case ok && isString(g.Get()):
		return fmt.Sprintf(" (default %q)", f.DefValue)
	}
	return fmt.Sprintf(" (default %s)", f.DefValue)
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// suggest returns what word was probably meant among candidates ("run", or "--games"), or ""
// when nothing is close: the candidates nearest to it by edit distance (transpositions count as
// one edit), within a third of its length (at least one edit), or that it begins (with two
// letters at least) or that begin it (--output for --out); case and leading dashes do not count.
// Two or three equally near are joined by "or"; more are no suggestion.
func suggest(word string, candidates []string) string {
	bare := func(s string) string { return strings.ToLower(strings.TrimLeft(s, "-")) }
	w := bare(word)
	if w == "" {
		return ""
	}
	limit := max(1, len([]rune(w))/3)
	best, bestDist := []string(nil), -1
	for _, c := range candidates {
		b := bare(c)
		d := distance(w, b)
		if d > limit {
			if !(len(w) >= 2 && strings.HasPrefix(b, w)) && !(len(b) >= 3 && strings.HasPrefix(w, b)) {
				continue
			}
			d = limit + 1 // a prefix ranks after every near miss
		}
		switch {
		case bestDist < 0 || d < bestDist:
			best, bestDist = []string{c}, d
		case d == bestDist && !slices.Contains(best, c):
			best = append(best, c)
		}
	}
	if len(best) > 3 {
		return ""
	}
	return strings.Join(best, " or ")
}

// distance is the optimal string alignment distance between a and b: the least number of
// insertions, deletions, substitutions and transpositions of adjacent letters that turn a into b.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance between s[:i] and t[:j].
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
