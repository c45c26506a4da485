package main

import (
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// TestSolveFluctuationBlindTable prints the optimum's and best-response's tables under a
// fluctuating capacity and blind flips and checks that the header names blind flips and that
// every letter is the first best choice of the exact model under blind flips (which differs from
// the sequential game's in some state: the check would catch a table of the sequential game).
func TestSolveFluctuationBlindTable(t *testing.T) {
	t.Parallel()
	blind := rules.Variant{Flips: rules.FlipsBlind}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: fg, Fluctuation: 1}
		for _, mu := range []exact.Lineup{
			{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		} {
			args := []string{"solve", "--memory", "3", "--forget", fg.String(), "--fluctuation", "1", "--flips", "blind",
				"--table", "--pairs-max", "4", "--float"}
			if mu.Policy == rules.PolicyBestResponse {
				args = append(args, "--policy", "best-response", "--opponent", mu.Opponent.String())
			}
			out, stderr, code := runArgs(t, args...)
			if code != exitOK {
				t.Fatalf("%q: exit %d: %s", args, code, stderr)
			}
			head, _, _ := strings.Cut(out, "\n")
			if !strings.HasSuffix(head, ", blind flips") {
				t.Errorf("%q: the header %q does not name blind flips", args, head)
			}
			if n := checkFluctVariantTableLetters(t, strings.Join(args, " "), out, blind, mem, rules.PassNever, mu, false); n == 0 {
				t.Errorf("%q: no letter checked in\n%s", args, out)
			}
		}
	}
}
