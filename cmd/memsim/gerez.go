package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"memsim/analysis/exact"
	"memsim/analysis/field"
)

// solveGerez answers memsim solve --gerez: one state <k, B, P> of Gerez's model, its value in
// cards and its optimal tactics, printed like the output of Gerez's program.
func solveGerez(ctx context.Context, fl solveFlags, set map[string]bool, stdout io.Writer) error {
	for _, name := range []string{"pairs", "unknown", "singletons", "unseen-singletons", "memory", "forget", "pass", "choices", "players", "policy", "opponent", "table", "pairs-max", "distribution", "float"} {
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
	var cell *exact.GerezCell
	err := exact.Gerez(ctx, s.K, func(c *exact.GerezCell) error {
		if c.State == s {
			cp := *c
			cell = &cp
		}
		return nil
	})
	if err != nil {
		return err
	}
	best := make([]string, 0, len(cell.Best)+1)
	for _, t := range cell.Best {
		best = append(best, t.String())
	}
	if cell.PassBest {
		best = append(best, "pass")
	}
	if fl.json {
		type tv struct {
			Tactic string `json:"tactic"`
			Value  number `json:"value"`
		}
		out := struct {
			State   map[string]int `json:"state"`
			Value   number         `json:"value"`
			Best    []string       `json:"best"`
			Tactics []tv           `json:"tactics"`
		}{State: map[string]int{"cards": s.K, "known": s.B, "paired": s.P}, Value: num(field.Rat{}, cell.Value), Best: best}
		for i, t := range cell.Tactics {
			out.Tactics = append(out.Tactics, tv{t.String(), num(field.Rat{}, cell.Values[i])})
		}
		out.Tactics = append(out.Tactics, tv{"pass", num(field.Rat{}, cell.PassValue)})
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	f, _ := cell.Value.Float64()
	fmt.Fprintf(stdout, "%v, Gerez's model (perfect memory, pass always), exact arithmetic\n", s)
	fmt.Fprintf(stdout, "value (cards of the %d on the table the mover collects): %f (%s)\n", s.K, f, cell.Value.RatString())
	fmt.Fprintln(stdout, "optimal tactics:")
	for _, b := range best {
		fmt.Fprintf(stdout, "  %s\n", b)
	}
	return nil
}
