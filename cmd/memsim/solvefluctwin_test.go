package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The table of a policy that plays to win under a fluctuating capacity prints, in every block of a
// capacity drawn (and, under a pass rule, just after a pass), a row per n and lead whose letters
// are the choices the engine reads off exact.FluctWinTable by the state, the capacity and the lead.
func TestSolveFluctuationWinTableIsTheEnginesTable(t *testing.T) {
	t.Parallel()
	const pairsMax = 4
	for _, tc := range []struct {
		forget, pass string
		mu           exact.Lineup
	}{
		{"lru", "never", exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}},
		{"handover-uniform", "always", exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe}},
	} {
		args := []string{"solve", "--memory", "2", "--forget", tc.forget, "--fluctuation", "1", "--pass", tc.pass,
			"--table", "--pairs-max", strconv.Itoa(pairsMax), "--policy", tc.mu.Policy.String()}
		if tc.mu.Policy == rules.PolicyWinBestResponse {
			args = append(args, "--opponent", tc.mu.Opponent.String())
		}
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		forget, err := rules.ParseForgetting(tc.forget)
		if err != nil {
			t.Fatal(err)
		}
		pass, err := rules.ParsePassRule(tc.pass)
		if err != nil {
			t.Fatal(err)
		}
		mem := rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}
		tab, err := exact.FluctWinTable(context.Background(), field.Rat{}, exact.Model{Memory: mem, Pass: pass}, tc.mu, pairsMax)
		if err != nil {
			t.Fatal(err)
		}
		// The rows the printout must hold, block by block.
		var want []string
		for c := 2; c <= 3; c++ {
			for _, afterPass := range []bool{false, true} {
				if afterPass && pass == rules.PassNever {
					continue
				}
				head := fmt.Sprintf("c=%d", c)
				if afterPass {
					head += " after a pass"
				}
				want = append(want, head)
				for n := 1; n <= pairsMax; n++ {
					for d := -(pairsMax - n); d <= pairsMax-n; d++ {
						row := fmt.Sprintf("%d d=%d:", n, d)
						known := c // lru keeps at most c cards after the draw
						if forget == rules.ForgetHandoverUniform {
							known = 3
						}
						for j := max(1, n-known); j <= n; j++ {
							ch, ok := tab.LookupCapacity(rules.State{N: n, J: j, Lead: d}, afterPass, c)
							if !ok {
								t.Fatalf("%q: the table has no choice in n=%d j=%d d=%d c=%d", args, n, j, d, c)
							}
							row += " " + string(choiceLetters[ch])
						}
						want = append(want, row)
					}
				}
			}
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, "#") {
				got = append(got, line)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: the printout\n%s\nthe engine's table\n%s", args, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if !strings.Contains(out, "# "+tc.mu.Policy.String()) {
			t.Errorf("%q: the header does not name the policy:\n%s", args, out)
		}
	}
}

// With --distribution solve gives the score distribution of a policy that plays to win under a
// fluctuating capacity, whose win, draw and loss are those solve gives without it.
func TestSolveFluctuationWinDistribution(t *testing.T) {
	t.Parallel()
	base := append(append([]string(nil), fluctArgs...), "--pairs", "3", "--policy", "win-optimal", "--lead", "-1")
	out, stderr, code := runArgs(t, append(base, "--distribution")...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", base, code, stderr)
	}
	plain, stderr, code := runArgs(t, base...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", base, code, stderr)
	}
	for _, w := range []string{"  share  0.0: ", "  share  3.0: "} {
		if !strings.Contains(out, w) {
			t.Errorf("%q --distribution: no %q in\n%s", base, w, out)
		}
	}
	wins := regexp.MustCompile(`(?m)^.*seat 0 wins .*$`)
	if a, b := wins.FindString(out), wins.FindString(plain); a == "" || a != b {
		t.Errorf("%q: with --distribution %q, without %q", base, a, b)
	}
}

// The table of a policy that plays to win under a fluctuating capacity is refused, in one line,
// where the solver has no model of it.
func TestSolveFluctuationWinTableFlagErrors(t *testing.T) {
	t.Parallel()
	table := append(append([]string(nil), fluctArgs...), "--table", "--pairs-max", "3")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "win-best-response", "--opponent", "win-best-response"}, "memsim solve: --players 2 --policy win-best-response --opponent win-best-response: policy win-best-response against win-best-response: a reply to a reply has no exact model (allowed against: win-optimal, optimal, safe, daring, parity)"},
		{[]string{"--policy", "win-optimal", "--json"}, "memsim solve: --fluctuation 1 with --table --json: JSON is written for solitaire's table and the two-seat tables of optimal and best-response without a turn limit; this one is printed as text (leave out --json)"},
		{[]string{"--policy", "win-optimal", "--capacity", "2"}, "memsim solve: --capacity and --after-pass do not go with --table (the table has a block per capacity, and under a pass rule one just after a pass)"},
	} {
		wantUsageError(t, append(append([]string(nil), table...), tt.args...), tt.want)
	}
}
