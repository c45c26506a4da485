package main

import (
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// --table --policy best-response --opponent B under a fluctuating capacity (two seats) prints, per
// capacity drawn (and turns left under a limit), the reply's first best choice of each state as
// exact.FluctChoiceValues (just after a pass exact.FluctChoiceValuesAfterPass) gives it for the
// lineup best-response to B: every letter of every block is checked, and some tables differ from
// the optimum's, so that the optimum's table printed for the reply's fails.
func TestSolveFluctReplyTableIsTheReplysBestChoice(t *testing.T) {
	t.Parallel()
	const pairsMax = 4
	tests := []struct {
		forget   rules.Forgetting
		pass     rules.PassRule
		opponent rules.Policy
		limit    int
	}{
		{rules.ForgetLRU, rules.PassNever, rules.PolicySafe, 0},
		{rules.ForgetHandoverUniform, rules.PassAlways, rules.PolicySafe, 0},
		{rules.ForgetLRU, rules.PassTwoKnown, rules.PolicySafe, 3},
		{rules.ForgetHandoverUniform, rules.PassNever, rules.PolicyDaring, 0},
	}
	differs := 0
	for _, tt := range tests {
		args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(pairsMax), "--memory", "3", "--forget", tt.forget.String(),
			"--fluctuation", "1", "--pass", tt.pass.String(), "--policy", "best-response", "--opponent", tt.opponent.String(), "--float"}
		optArgs := append([]string(nil), args[:len(args)-5]...)
		optArgs = append(optArgs, "--float")
		if tt.limit > 0 {
			args = append(args, "--turn-limit", strconv.Itoa(tt.limit))
			optArgs = append(optArgs, "--turn-limit", strconv.Itoa(tt.limit))
		}
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		if want := "# best-response to " + tt.opponent.String() + " strategy table:"; !strings.HasPrefix(out, want) {
			t.Errorf("%q: heading %q, want %q", args, strings.SplitN(out, "\n", 2)[0], want)
		}
		opt, stderr, code := runArgs(t, optArgs...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", optArgs, code, stderr)
		}
		mem := rules.Memory{Capacity: 3, Forget: tt.forget, Fluctuation: 1}
		mu := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: tt.opponent}
		checked := checkFluctTableLetters(t, strings.Join(args, " "), out, mem, tt.pass, mu, tt.limit > 0)
		if checked < 20 {
			t.Errorf("%q: checked %d letters in\n%s", args, checked, out)
		}
		if _, body, _ := strings.Cut(out, "\nc="); !strings.HasSuffix(opt, "\nc="+body) {
			differs++
		}
	}
	if differs == 0 {
		t.Errorf("every reply's table is the optimum's: the cases do not tell them apart")
	}
}
