package main

import (
	"context"
	"fmt"
	"io"
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// demoCommand returns memsim demo.
func demoCommand() *command {
	return &command{
		name: "demo",
		usage: []string{
			"memsim demo",
		},
		short: "a short tour of the solver",
		long: `
Prints a short tour of the exact solver: what each policy is worth against the others in a
12-pair game, the optimal strategy table up to 12 pairs, and solitaire.
`,
		run: runDemo,
	}
}

// runDemo prints a short tour of the exact solver: what each policy is worth against the others
// in a 12-pair game, the optimal strategy table up to 12 pairs, and solitaire. It is what
// make run runs until the simulator's tournaments land.
func runDemo(ctx context.Context, c *command, inv invocation, args []string) int {
	fs := newFlagSet("memsim demo")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	if fs.NArg() > 0 {
		return exitFor(fs.Name(), usagef("unexpected argument %q (demo takes no arguments)", fs.Arg(0)), inv.stderr)
	}
	return exitFor(fs.Name(), demo(ctx, inv.stdout), inv.stderr)
}

func demo(ctx context.Context, w io.Writer) error {
	const n = 12
	var f field.Rat
	perfect := exact.Model{}
	start := rules.State{N: n, J: n}
	policies := []rules.Policy{rules.PolicyOptimal, rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring}

	fmt.Fprintf(w, "Memory with %d pairs, perfect shared memory, two players, exact values.\n\n", n)
	fmt.Fprintln(w, "Expected pairs of the first player (row) against the second (column):")
	fmt.Fprintf(w, "%-14s", "")
	for _, b := range policies {
		fmt.Fprintf(w, "%10s", b)
	}
	fmt.Fprintln(w)
	for _, a := range append(policies, rules.PolicyBestResponse) {
		fmt.Fprintf(w, "%-14s", a)
		for _, b := range policies {
			r, err := exact.Evaluate(ctx, f, perfect, exact.Lineup{Players: 2, Policy: a, Opponent: b}, start)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%10.5f", f.Float64(r.ExpectedPairs))
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\nOptimal strategy table, perfect memory (row n; one code per j = 1..n;\n")
	fmt.Fprintf(w, "0 safe is better, 1 daring is better, 2 equal or no choice):\n")
	row := -1
	err := exact.Table(ctx, f, perfect, n, func(c *exact.TableCell[*big.Rat]) error {
		if c.State.J == 0 {
			return nil
		}
		if c.State.N != row {
			if row >= 0 {
				fmt.Fprintln(w)
			}
			row = c.State.N
			fmt.Fprintf(w, "%3d:", row)
		}
		fmt.Fprintf(w, " %d", c.Code)
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w)

	solo, err := exact.Evaluate(ctx, f, perfect, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}, start)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nSolitaire with %d pairs: %s turns and %s lucky matches expected.\n",
		n, human(answer.NumberOf(f, solo.ExpectedTurns)), human(answer.NumberOf(f, solo.ExpectedLucky)))
	fmt.Fprintln(w, "\nMore: memsim solve -h")
	return nil
}
