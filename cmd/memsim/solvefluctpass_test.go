package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A fluctuating capacity under a pass rule at two seats gives the values and the score
// distribution, and refuses the turn just after a pass at three or more seats with one line.
func TestSolveFluctuationPass(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--memory", "3", "--forget", "handover-uniform", "--fluctuation", "1"}
	for _, pass := range []string{"two-known", "always"} {
		args := append(append([]string(nil), base...), "--pass", pass, "--distribution", "--float")
		stdout, stderr, code := runArgs(t, args...)
		if code != 0 || !strings.Contains(stdout, "pass "+pass) || !strings.Contains(stdout, "expected lead, seat 0:") || !strings.Contains(stdout, "share") {
			t.Errorf("solve %q: exit %d, stderr %q, stdout %q; want the values and the distribution", args, code, stderr, stdout)
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pass", "always", "--after-pass"}, "--after-pass goes with --fluctuation S --capacity C and --pass two-known or always"},
		{[]string{"--capacity", "3", "--after-pass"}, "--after-pass goes with --fluctuation S --capacity C and --pass two-known or always"},
		{[]string{"--pass", "always", "--table", "--pairs-max", "3", "--after-pass"}, "--capacity and --after-pass do not go with --table"},
		{[]string{"--pass", "always", "--players", "3", "--capacity", "3", "--after-pass"}, "--after-pass with three or more seats: the turn after a pass depends on how many seats passed in a row"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, append(base, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("solve %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
	wantUsageError(t, []string{"solve", "--pairs", "3", "--pass", "always", "--after-pass"}, "memsim solve: --after-pass goes with --fluctuation S --capacity C and --pass two-known or always")
}

// Under a pass rule --capacity lists each choice a pass included, with --after-pass just after a
// pass by seat 1 (where a pass is a stalemate, lead 0); --first values the state as the list's
// row of that choice does, and --json says after_pass.
func TestSolveFluctuationPassChoices(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--unknown", "1", "--memory", "3", "--forget", "handover-uniform", "--fluctuation", "2",
		"--pass", "always", "--capacity", "2"}
	passRow := regexp.MustCompile(`(?m)^  pass: +([0-9.]+ \([0-9/]+\)) pairs`)
	for _, after := range []bool{false, true} {
		args := append([]string(nil), base...)
		head := "capacity 2 drawn for seat 0's turn\n"
		if after {
			args = append(args, "--after-pass")
			head = "capacity 2 drawn for seat 0's turn, just after a pass by seat 1\n"
		}
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		if !strings.Contains(out, head) {
			t.Errorf("%q: no %q in\n%s", args, head, out)
		}
		pass := passRow.FindStringSubmatch(out)
		if pass == nil {
			t.Fatalf("%q: no value of pass in\n%s", args, out)
		}
		if after && pass[1] != "2.000000 (2)" {
			t.Errorf("%q: a pass just after a pass is worth %s, want the stalemate's 2 pairs of 4", args, pass[1])
		}
		first := append(append([]string(nil), args...), "--first", "pass", "--value-only")
		out, stderr, code = runArgs(t, first...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", first, code, stderr)
		}
		if w := "expected pairs, seat 0: " + pass[1] + "\n"; !strings.Contains(out, w) {
			t.Errorf("%q: no %q in\n%s", first, w, out)
		}
		js := append(append([]string(nil), args...), "--json", "--float")
		out, stderr, code = runArgs(t, js...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", js, code, stderr)
		}
		var res struct {
			Model struct {
				Capacity  int  `json:"capacity"`
				AfterPass bool `json:"after_pass"`
			} `json:"model"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%q: %v", js, err)
		}
		if res.Model.Capacity != 2 || res.Model.AfterPass != after {
			t.Errorf("%q: model capacity %d, after_pass %t; want 2, %t", js, res.Model.Capacity, res.Model.AfterPass, after)
		}
	}
}

// Under a pass rule --table prints, after each capacity's block, the block of the choices just
// after a pass, every choice the one the engine reads from the optimum's table.
func TestSolveFluctuationPassTableIsTheEngines(t *testing.T) {
	t.Parallel()
	const maxPairs = 5
	for _, forget := range []rules.Forgetting{rules.ForgetHandoverUniform, rules.ForgetLRU} {
		args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(maxPairs), "--memory", "3", "--forget", forget.String(),
			"--fluctuation", "2", "--pass", "always", "--float"}
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 2}, Pass: rules.PassAlways}
		tab, err := exact.FluctTable(context.Background(), field.Float{}, m, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		differs := false // a choice just after a pass other than the one without
		for c := 2; c <= 5; c++ {
			for _, after := range []bool{false, true} {
				if after {
					fmt.Fprintf(&want, "c=%d after a pass\n", c)
				} else {
					fmt.Fprintf(&want, "c=%d\n", c)
				}
				top := 5 // handover-uniform: up to m + σ known cards whatever the capacity drawn
				if forget == rules.ForgetLRU {
					top = c
				}
				for n := 1; n <= maxPairs; n++ {
					fmt.Fprintf(&want, "%d:", n)
					for j := max(1, n-top); j <= n; j++ {
						ch, ok := tab.LookupCapacity(rules.State{N: n, J: j}, after, c)
						if !ok {
							t.Fatalf("no choice in (%d, %d) with capacity %d", n, j, c)
						}
						before, _ := tab.LookupCapacity(rules.State{N: n, J: j}, false, c)
						differs = differs || before != ch
						fmt.Fprintf(&want, " %c", "DSKP"[ch])
					}
					want.WriteByte('\n')
				}
			}
		}
		if i := strings.Index(out, "c=2\n"); i < 0 || out[i:] != want.String() {
			t.Errorf("%q: the blocks differ from the engine's table, want\n%s\ngot\n%s", args, want.String(), out)
		}
		if !differs && forget == rules.ForgetHandoverUniform {
			t.Errorf("%q: no choice just after a pass differs from the one without: the blocks are not told apart", args)
		}
	}
}
