package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/sim/rules"
)

// fluctTableKey names one letter of a table under a fluctuating capacity: the capacity drawn,
// after a pass or not, and the state's pairs and unknown pairs.
type fluctTableKey struct {
	c         int
	afterPass bool
	n, j      int
}

// fluctTextLetters reads the letters of the text of solve --table under a fluctuating capacity
// (blocks "c=C" and "c=C after a pass", rows "n: L L ..." ending at j = n).
func fluctTextLetters(t *testing.T, out string) map[fluctTableKey]byte {
	t.Helper()
	letters := map[fluctTableKey]byte{}
	c, afterPass := 0, false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "c="):
			afterPass = strings.HasSuffix(line, " after a pass")
			c, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "c="), " after a pass"))
		default:
			head, row, _ := strings.Cut(line, ":")
			n, err := strconv.Atoi(head)
			if err != nil || c == 0 {
				t.Fatalf("unexpected line %q in\n%s", line, out)
			}
			fields := strings.Fields(row)
			for i, l := range fields {
				letters[fluctTableKey{c, afterPass, n, n - len(fields) + 1 + i}] = l[0]
			}
		}
	}
	return letters
}

// The fluctuating capacity's tables in JSON hold, cell for cell, the letters of the text table,
// and every one is the first best choice exact.FluctChoiceValues (just after a pass
// FluctChoiceValuesAfterPass) gives with that capacity drawn: at two seats for optimal and
// best-response under pass rules never and two-known, under lru and handover-uniform, and for
// solitaire.
func TestSolveFluctTableJSONHoldsTheTextLetters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		forget string
		args   []string
		mu     exact.Lineup
	}{
		{"lru", nil, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		{"handover-uniform", []string{"--pass", "two-known"}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		{"lru", []string{"--policy", "best-response", "--opponent", "safe"}, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
		{"lru", []string{"--players", "1"}, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
	} {
		args := append([]string{"solve", "--memory", "3", "--forget", tc.forget, "--fluctuation", "1", "--table", "--pairs-max", "4", "--float"}, tc.args...)
		text, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		jargs := append(append([]string(nil), args...), "--json")
		out, stderr, code := runArgs(t, jargs...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", jargs, code, stderr)
		}
		var tab answer.PolicyTable
		if err := json.Unmarshal([]byte(out), &tab); err != nil {
			t.Fatalf("%q: %v in\n%s", jargs, err, out)
		}
		if m := tab.Model; m.Fluctuation != 1 || m.Forget != tc.forget || m.Players != tc.mu.Players || m.Policy != tc.mu.Policy.String() || m.PairsMax != 4 {
			t.Errorf("%q: model %+v", jargs, m)
		}
		passes := tc.mu.Players == 2 && len(tc.args) > 0 && tc.args[0] == "--pass"
		fromJSON := map[fluctTableKey]byte{}
		for _, cell := range tab.Cells {
			for i, name := range []string{cell.Choice, cell.ChoiceAfterPass} {
				if i == 1 && !passes {
					if name != "" {
						t.Errorf("%q: a choice after a pass %q without a pass rule", jargs, name)
					}
					continue
				}
				ch, err := rules.ParseChoice(name)
				if err != nil {
					t.Fatalf("%q: cell %+v: %v", jargs, cell, err)
				}
				fromJSON[fluctTableKey{cell.Capacity, i == 1, cell.Pairs, cell.Unknown}] = choiceLetters[ch]
			}
		}
		fromText := fluctTextLetters(t, text)
		if len(fromText) == 0 || len(fromJSON) != len(fromText) {
			t.Errorf("%q: %d letters in JSON, %d in the text", jargs, len(fromJSON), len(fromText))
		}
		for k, l := range fromText {
			if fromJSON[k] != l {
				t.Errorf("%q: %+v: JSON %q, text %q", jargs, k, fromJSON[k], l)
			}
		}
		// The JSON's letters as text blocks, checked against the choices' values.
		var b strings.Builder
		for c := 2; c <= 4; c++ {
			for _, after := range []bool{false, true} {
				if after && !passes {
					continue
				}
				fmt.Fprintf(&b, "c=%d%s\n", c, map[bool]string{true: " after a pass"}[after])
				for n := 1; n <= 4; n++ {
					fmt.Fprintf(&b, "%d:", n)
					for j := 1; j <= n; j++ {
						if l, ok := fromJSON[fluctTableKey{c, after, n, j}]; ok {
							fmt.Fprintf(&b, " %c", l)
						}
					}
					b.WriteByte('\n')
				}
			}
		}
		mem := rules.Memory{Capacity: 3, Fluctuation: 1, Forget: rules.ForgetLRU}
		if tc.forget != "lru" {
			mem.Forget = rules.ForgetHandoverUniform
		}
		pass := rules.PassNever
		if passes {
			pass = rules.PassTwoKnown
		}
		if checked := checkFluctTableLetters(t, strings.Join(jargs, " "), b.String(), mem, pass, tc.mu, false); checked != len(fromJSON) {
			t.Errorf("%q: %d letters checked against the choices' values, %d in the JSON", jargs, checked, len(fromJSON))
		}
	}
}
