package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// --table under a fluctuating capacity and a turn limit prints, per capacity drawn and turns
// left, the first best choice by lead of each state as exact.FluctChoiceValues (just after a pass
// exact.FluctChoiceValuesAfterPass) gives it with that many turns left: every letter of every
// block, expanded over its range of turns left, is checked.
func TestSolveFluctLimitTableIsTheBestChoiceByTurnsLeft(t *testing.T) {
	t.Parallel()
	const limit, pairsMax = 4, 4
	args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(pairsMax), "--memory", "3", "--forget", "lru", "--fluctuation", "1",
		"--turn-limit", strconv.Itoa(limit), "--pass", "two-known", "--float"}
	out, stderr, code := runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	checked := checkFluctTableLetters(t, strings.Join(args, " "), out, mem, rules.PassTwoKnown, mu, true)
	if want := 2 * 3 * limit * 10; checked < want/2 {
		t.Errorf("checked %d letters, expected about %d", checked, want)
	}
}

// Under a fluctuating capacity and a turn limit --capacity lists each choice with its pairs and
// lead by the limit, --first values the state as the list's row of that choice does, and
// --distribution gives seat 0's win, draw and loss.
func TestSolveFluctLimitCapacityAndDistribution(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--turn-limit", "4", "--pairs", "3", "--unknown", "1"}
	list := append(append([]string(nil), base...), "--capacity", "2")
	out, stderr, code := runArgs(t, list...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", list, code, stderr)
	}
	safe := regexp.MustCompile(`(?m)^  safe: +([0-9.]+ \([0-9/]+\)) pairs, lead ([-0-9.]+ \([-0-9/]+\))`).FindStringSubmatch(out)
	if safe == nil || !strings.Contains(out, "best: daring, for the lead and to win\n") {
		t.Fatalf("%q: no value of safe, or daring not the best, in\n%s", list, out)
	}
	first := append(append([]string(nil), list...), "--first", "safe", "--value-only")
	out, stderr, code = runArgs(t, first...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", first, code, stderr)
	}
	for _, w := range []string{"expected pairs, seat 0: " + safe[1] + "\n", "expected lead, seat 0:  " + safe[2] + "\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("%q: no %q in\n%s", first, w, out)
		}
	}
	dist := append(append([]string(nil), base...), "--distribution")
	out, stderr, code = runArgs(t, dist...)
	if code != exitOK || !strings.Contains(out, "seat 0 wins ") || !strings.Contains(out, "  share  0.0: ") {
		t.Errorf("%q: exit %d: %s\n%s", dist, code, stderr, out)
	}
}
