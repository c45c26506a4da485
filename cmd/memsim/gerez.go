package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sync/atomic"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
)

// solveGerez answers memsim solve --gerez: one state <k, B, P> of Gerez's model, its value in
// cards and its optimal tactics, printed like the output of Gerez's program.
func solveGerez(ctx context.Context, fl solveFlags, fs *flag.FlagSet, inv invocation) error {
	set, stdout := given(fs), inv.stdout
	for _, name := range []string{"pairs", "unknown", "singletons", "unseen-singletons", "memory", "forget", "pass", "choices", "players", "policy", "opponent", "table", "pairs-max", "distribution", "float", "first", "value-only", "copies", "faces", "q", "opponent-memory", "seats", "two-player-optimal", "lead", "flips", "turn-limit"} {
		if set[name] {
			return usagef("--%s does not go with --gerez (Gerez's model is perfect memory, two players, pass always)", name)
		}
	}
	s := exact.GerezState{K: fl.cards, B: fl.known, P: fl.paired}
	switch {
	case !set["cards"]:
		return requiredWith("--cards K", "--gerez", "the cards on the table (even, 2 to 400)")
	case s.K < 2 || s.K%2 != 0 || s.K > 400:
		return usagef("--cards %d: must be even, between 2 and 400", s.K)
	case s.P%2 != 0:
		return usagef("--paired %d: must be even", s.P)
	case !s.Valid():
		return usagef("<%d, %d, %d> is not a state: it needs k >= (k + P)/2 >= B >= P >= 0", s.K, s.B, s.P)
	}
	c := gerezCost(fl)
	if err := checkCost(c, fl.big, fs); err != nil {
		return err
	}
	var done atomic.Int64
	prog := startSolveProgress(inv.stderr, c, &done)
	cell, err := exact.SolveGerez(exact.WithProgress(ctx, &done), s)
	prog.finish()
	if err != nil {
		return err
	}
	g := answer.NewGerez(cell)
	out := checkedStdout(stdout)
	if fl.json {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		return out.result(enc.Encode(g))
	}
	fmt.Fprintf(out, "%v, Gerez's model (perfect memory, pass always), exact arithmetic\n", s)
	fmt.Fprintf(out, "value (cards of the %d on the table the mover collects): %f (%s)\n", s.K, g.Value.Float, g.Value.Exact)
	fmt.Fprintln(out, "optimal tactics:")
	for _, b := range g.Best {
		fmt.Fprintf(out, "  %s\n", b)
	}
	return out.result(nil)
}

// gerezCost returns the estimated cost of memsim solve --gerez with the flags fl.
func gerezCost(fl solveFlags) exact.Cost { return exact.EstimateGerez(fl.cards) }
