package main

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// checkFluctTableLetters reads out, the output of solve --table under a fluctuating capacity (a
// block per capacity drawn, "c=", and under a turn limit per range of turns left, "t="), and
// checks every letter of every block, expanded over its range of turns left, against the first
// best choice of lineup mu under mem and pass as exact.FluctChoiceValues (just after a pass
// exact.FluctChoiceValuesAfterPass) gives it with that many turns left (limited) or without a
// limit. label names the output in errors. It returns the number of letters checked.
func checkFluctTableLetters(t *testing.T, label, out string, mem rules.Memory, pass rules.PassRule, mu exact.Lineup, limited bool) int {
	t.Helper()
	return checkFluctVariantTableLetters(t, label, out, rules.Variant{}, mem, pass, mu, limited)
}

// checkFluctVariantTableLetters is checkFluctTableLetters under rule variant v (its turn limit
// replaced by the turns left when limited).
func checkFluctVariantTableLetters(t *testing.T, label, out string, v rules.Variant, mem rules.Memory, pass rules.PassRule, mu exact.Lineup, limited bool) int {
	t.Helper()
	ctx := context.Background()
	c, afterPass, from, to, checked := 0, false, 1, 1, 0
	if limited {
		from, to = 0, 0
	}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "c="):
			afterPass = strings.HasSuffix(line, " after a pass")
			c, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "c="), " after a pass"))
		case strings.HasPrefix(line, "t="):
			r := strings.SplitN(strings.TrimPrefix(line, "t="), "..", 2)
			from, _ = strconv.Atoi(r[0])
			to = from
			if len(r) == 2 {
				to, _ = strconv.Atoi(r[1])
			}
		default:
			head, letters, _ := strings.Cut(line, ":")
			n, err := strconv.Atoi(head)
			if err != nil || c == 0 || from == 0 {
				t.Fatalf("%s: unexpected line %q in\n%s", label, line, out)
			}
			fields := strings.Fields(letters)
			j0 := n - len(fields) + 1
			for i, letter := range fields {
				st := rules.State{N: n, J: j0 + i}
				for left := from; left <= to; left++ {
					m := exact.Model{Memory: mem, Pass: pass, Variant: v}
					if limited {
						m.Variant.TurnLimit = left
					}
					values := exact.FluctChoiceValues[float64]
					if afterPass {
						values = exact.FluctChoiceValuesAfterPass[float64]
					}
					cv, err := values(ctx, field.Float{}, m, mu, st, c)
					if err != nil {
						t.Fatalf("%s: %v c=%d t=%d: %v", label, st, c, left, err)
					}
					if want := string(choiceLetters[cv.Best[0]]); letter != want {
						t.Errorf("%s: %v c=%d t=%d after a pass %t: table %s, the first best choice of %s-vs-%s %s",
							label, st, c, left, afterPass, letter, mu.Policy, mu.Opponent, want)
					}
					checked++
				}
			}
		}
	}
	return checked
}
