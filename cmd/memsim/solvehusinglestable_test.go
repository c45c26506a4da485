package main

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// husTableLetter reads a choice letter of a printed table.
func husTableLetter(t *testing.T, b byte) rules.Choice {
	t.Helper()
	for c, l := range choiceLetters {
		if l == b {
			return rules.Choice(c)
		}
	}
	t.Fatalf("letter %q is no choice", b)
	return 0
}

// husBestAfterPass returns the optimum's choice just after a pass by the other seat, from the
// choices' values after no pass: a choice that flips cards has the same outcomes either way, and a
// pass just after a pass ends the game in a stalemate (lead 0). The first best in the order of
// rules.Choices.
func husBestAfterPass(cs exact.Choices[*big.Rat]) rules.Choice {
	f := field.Rat{}
	best, bestLead := cs.Values[0].Choice, cs.Values[0].Lead
	for _, v := range cs.Values {
		lead := v.Lead
		if v.Choice == rules.Pass {
			lead = f.FromInt(0)
		}
		if f.Cmp(lead, bestLead) > 0 {
			best, bestLead = v.Choice, lead
		}
	}
	return best
}

// Every letter of the optimum's table with singletons under a handover-uniform memory is the
// first best choice of ChoiceValues in its state, under every pass rule; just after a pass, the
// best of the same values with a pass worth a stalemate.
func TestSolveHandoverSingletonsTableIsChoiceValuesBest(t *testing.T) {
	t.Parallel()
	pairsMax, capacity := 5, 3
	cases := []struct {
		pass               string
		singletons, unseen int
	}{{"never", 2, 2}, {"never", 2, 1}, {"two-known", 1, 1}, {"always", 2, 2}}
	if testing.Short() {
		cases = []struct {
			pass               string
			singletons, unseen int
		}{{"always", 2, 1}}
		pairsMax = 3
	}
	f := field.Rat{}
	for _, c := range cases {
		args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(pairsMax), "--singletons", strconv.Itoa(c.singletons),
			"--unseen-singletons", strconv.Itoa(c.unseen), "--memory", strconv.Itoa(capacity), "--forget", "handover-uniform", "--pass", c.pass}
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		pass, err := rules.ParsePassRule(c.pass)
		if err != nil {
			t.Fatal(err)
		}
		m := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform, Scope: rules.ScopeShared},
			Pass: pass, Singletons: c.singletons}
		mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		rows := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			head, cells, ok := strings.Cut(line, ":")
			n, err := strconv.Atoi(head)
			if !ok || err != nil {
				t.Fatalf("%v: line %q is no row", args, line)
			}
			rows++
			fields := strings.Fields(cells)
			seen := c.singletons - c.unseen
			j0 := max(1, n-(capacity-seen)) // at most capacity - seen half-known pairs
			if len(fields) != n-j0+1 {
				t.Fatalf("%v: row %q has %d cells, want j = %d..%d", args, line, len(fields), j0, n)
			}
			for i, cell := range fields {
				st := rules.State{N: n, J: j0 + i, S: c.singletons, F: c.unseen}
				cs, err := exact.ChoiceValues(context.Background(), f, m, mu, st)
				if err != nil {
					t.Fatalf("%v: %v", st, err)
				}
				if got := husTableLetter(t, cell[0]); got != cs.Best[0] {
					t.Errorf("%v pass %s: table %s, ChoiceValues' best %v", st, c.pass, got, cs.Best)
				}
				if pass == rules.PassNever {
					if len(cell) != 1 {
						t.Errorf("%v pass never: cell %q, want one letter", st, cell)
					}
					continue
				}
				if len(cell) != 2 {
					t.Fatalf("%v pass %s: cell %q, want two letters", st, c.pass, cell)
				}
				if got, want := husTableLetter(t, cell[1]), husBestAfterPass(cs); got != want {
					t.Errorf("%v pass %s just after a pass: table %s, best %s", st, c.pass, got, want)
				}
			}
		}
		if rows != pairsMax {
			t.Errorf("%v: %d rows, want %d", args, rows, pairsMax)
		}
	}
}

// Every letter of solitaire's table with singletons under a handover-uniform memory is the first
// choice of fewest expected turns that ChoiceValues gives in its state.
func TestSolveHandoverSingletonsSolitaireTableIsChoiceValuesBest(t *testing.T) {
	t.Parallel()
	const pairsMax, capacity, singletons, unseen = 4, 3, 2, 1
	args := []string{"solve", "--table", "--players", "1", "--pairs-max", strconv.Itoa(pairsMax), "--singletons", strconv.Itoa(singletons),
		"--unseen-singletons", strconv.Itoa(unseen), "--memory", strconv.Itoa(capacity), "--forget", "handover-uniform"}
	out, stderr, code := runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	m := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform, Scope: rules.ScopeShared}, Singletons: singletons}
	mu := exact.Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	lines := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var n, j int
		var letters string
		var turns float64
		if _, err := fmt.Sscan(strings.Replace(line, ":", "", 1), &n, &j, &letters, &turns); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		lines++
		st := rules.State{N: n, J: j, S: singletons, F: unseen}
		cs, err := exact.ChoiceValues(context.Background(), field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatalf("%v: %v", st, err)
		}
		if got := husTableLetter(t, letters[0]); got != cs.Best[0] {
			t.Errorf("%v: table %s, ChoiceValues' best %v", st, got, cs.Best)
		}
		if want := (field.Rat{}).Float64(cs.Value.ExpectedTurns); turns < want-1e-6 || turns > want+1e-6 {
			t.Errorf("%v: table's turns %v, Evaluate's %v", st, turns, want)
		}
	}
	if lines == 0 {
		t.Errorf("%v: no rows in\n%s", args, out)
	}
}

// The optimum's table with singletons under a handover-uniform memory is the same in float64 as
// in exact rationals, under every pass rule.
func TestSolveHandoverSingletonsTableFloatIsExact(t *testing.T) {
	if testing.Short() {
		t.Skip("the exact comparison with ChoiceValues covers the short form")
	}
	t.Parallel()
	for _, pass := range []string{"never", "two-known", "always"} {
		args := []string{"solve", "--table", "--pairs-max", "8", "--singletons", "2", "--memory", "3", "--forget", "handover-uniform", "--pass", pass}
		exactOut, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		floatOut, stderr, code := runArgs(t, append(args, "--float")...)
		if code != exitOK {
			t.Fatalf("%v --float: exit %d: %s", args, code, stderr)
		}
		if floatOut != exactOut {
			t.Errorf("%v: float64\n%s\nexact\n%s", args, floatOut, exactOut)
		}
	}
}
