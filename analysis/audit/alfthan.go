package audit

import (
	"context"
	"fmt"
	"math"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// alfthanMaxN is the largest deal AL-PRESS is checked at.
const alfthanMaxN = 60

// OptimalShare returns the expected share of the n pairs of the player that is optimal within the
// choice set choices, against opponent, over both seat orders (perfect memory, pass never).
func OptimalShare(ctx context.Context, opponent rules.Policy, n int, choices rules.ChoiceSet) (float64, error) {
	st := rules.State{N: n, J: n}
	m := exact.Model{Choices: choices}
	first, err := exact.Evaluate(ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: opponent}, st)
	if err != nil {
		return 0, err
	}
	second, err := exact.Evaluate(ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: opponent, Opponent: rules.PolicyOptimal}, st)
	if err != nil {
		return 0, err
	}
	return (first.ExpectedPairs + float64(n) - second.ExpectedPairs) / (2 * float64(n)), nil
}

// AuditAlfthan checks AL-PRESS: against an always-daring opponent the optimal player collects
// about 55% of the pairs, against an always-safe one about 60% ("about": within one percentage
// point), the number of pairs unstated, in Alfthan's model (choices daring and safe). It finds the n = 1..60 where each holds; the claim is
// confirmed if some n satisfies both.
func AuditAlfthan(ctx context.Context, sim Simulator) Finding {
	fd := Finding{ID: "AL-PRESS", Claim: "optimal takes about 55% against daring, about 60% against safe", Published: "about 55% and about 60%, n not stated"}
	var both, daring55, safe60 []int
	share := map[rules.Policy][]float64{rules.PolicyDaring: make([]float64, alfthanMaxN+1), rules.PolicySafe: make([]float64, alfthanMaxN+1)}
	for n := 1; n <= alfthanMaxN; n++ {
		for _, opp := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe} {
			s, err := OptimalShare(ctx, opp, n, SourceChoices)
			if err != nil {
				fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
				return fd
			}
			share[opp][n] = s
		}
		d := math.Abs(share[rules.PolicyDaring][n]-0.55) <= 0.01
		s := math.Abs(share[rules.PolicySafe][n]-0.60) <= 0.01
		if d {
			daring55 = append(daring55, n)
		}
		if s {
			safe60 = append(safe60, n)
		}
		if d && s {
			both = append(both, n)
		}
	}
	at := func(n int) string {
		return fmt.Sprintf("n = %d: %.1f%% against daring, %.1f%% against safe", n, 100*share[rules.PolicyDaring][n], 100*share[rules.PolicySafe][n])
	}
	fd.Exact = strings.Join([]string{at(12), at(26), at(52)}, "; ")
	ranges := fmt.Sprintf("about 55%% against daring for n in %s; about 60%% against safe for n in %s", spans(daring55), spans(safe60))
	if len(both) > 0 {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("both hold for n in %s (%s)", spans(both), ranges)
	} else {
		fd.Verdict, fd.Reason = Refuted, "no n = 1..60 has both: "+ranges
	}
	if sim != nil {
		n := 26
		if len(both) > 0 {
			n = both[0]
		}
		d, dhw, err1 := sim.Share(ctx, "daring", n, SourceChoices)
		s, shw, err2 := sim.Share(ctx, "safe", n, SourceChoices)
		if err1 == nil && err2 == nil {
			fd.Simulated = fmt.Sprintf("n = %d: %s against daring, %s against safe", n, simString(d, dhw), simString(s, shw))
		}
	}
	return fd
}

// spans formats a sorted list of integers as ranges: "3-5, 9", or "none".
func spans(xs []int) string {
	if len(xs) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(xs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", xs[i], xs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
