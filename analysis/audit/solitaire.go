package audit

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// solitaireMaxN is the largest deal the solitaire claims are checked at.
const solitaireMaxN = 1000

// SolitaireCurves are the optimal solitaire player's expected turns and lucky matches from the
// start of every deal of n = 0..solitaireMaxN pairs, perfect memory, in float64; Err says why
// they are missing.
type SolitaireCurves struct {
	Turns, Lucky []float64
	Err          error
}

// SolitaireCurve computes SolitaireCurves with the solver.
func SolitaireCurve(ctx context.Context) SolitaireCurves {
	c := SolitaireCurves{Turns: make([]float64, solitaireMaxN+1), Lucky: make([]float64, solitaireMaxN+1)}
	c.Err = exact.Solitaire(ctx, field.Float{}, exact.Model{}, rules.PolicyOptimal, solitaireMaxN, func(st rules.State, t, l float64) error {
		if st.J == st.N {
			c.Turns[st.N], c.Lucky[st.N] = t, l
		}
		return nil
	})
	return c
}

// AuditSolitaire checks Velleman & Warrington's solitaire claims: the expected number of turns
// (3 - 2 ln 2) n + 7/8 - 2 ln 2 + o(1) (VW-ASYM) and expected lucky matches tending to ln 2
// (VW-LUCKY), with the solver's expectations c for n up to 1000 (float64) and a simulation.
func AuditSolitaire(ctx context.Context, c SolitaireCurves, sim Simulator, simN int) []Finding {
	turns, lucky := c.Turns, c.Lucky
	asym := Finding{ID: "VW-ASYM", Claim: "solitaire turns = (3 - 2 ln 2) n + 7/8 - 2 ln 2 + o(1)",
		Published: "(3 - 2 ln 2) n + 7/8 - 2 ln 2 + o(1)"}
	luck := Finding{ID: "VW-LUCKY", Claim: "expected lucky matches tend to ln 2", Published: fmt.Sprintf("ln 2 = %.6f", math.Ln2)}
	if c.Err != nil {
		asym.Verdict, asym.Reason = Inconclusive, "the solver failed: "+c.Err.Error()
		luck.Verdict, luck.Reason = Inconclusive, asym.Reason
		return []Finding{asym, luck}
	}
	formula := func(n int) float64 { return (3-2*math.Ln2)*float64(n) + 7.0/8 - 2*math.Ln2 }
	gap := func(n int) float64 { return turns[n] - formula(n) }
	lgap := func(n int) float64 { return lucky[n] - math.Ln2 }
	asym.Exact = fmt.Sprintf("n = 10: %.4f (formula %.4f); n = 100: %.4f (%.4f); n = 1000: %.4f (%.4f)",
		turns[10], formula(10), turns[100], formula(100), turns[1000], formula(1000))
	luck.Exact = fmt.Sprintf("n = 10: %.6f; n = 100: %.6f; n = 1000: %.6f", lucky[10], lucky[100], lucky[1000])
	asym.Verdict, asym.Reason = tendsToZero("the solver's expectation minus the formula", gap)
	luck.Verdict, luck.Reason = tendsToZero("the solver's expectation minus ln 2", lgap)
	if sim != nil {
		t, thw, l, lhw, err := sim.Solitaire(ctx, simN)
		if err == nil {
			asym.Simulated = fmt.Sprintf("n = %d: %s (exact %.4f)", simN, simString(t, thw), turns[simN])
			luck.Simulated = fmt.Sprintf("n = %d: %s (exact %.4f)", simN, simString(l, lhw), lucky[simN])
		}
	}
	return []Finding{asym, luck}
}

// tendsToZero judges a sequence that should tend to 0: confirmed when its size at n = 1000 is
// below 0.001 and has shrunk from n = 10 to 100 to 1000; refuted when it is above 0.01 at
// n = 1000 or has grown; inconclusive otherwise.
func tendsToZero(what string, gap func(int) float64) (Verdict, string) {
	a, b, c := math.Abs(gap(10)), math.Abs(gap(100)), math.Abs(gap(1000))
	desc := fmt.Sprintf("%s is %.2g at n = 10, %.2g at n = 100, %.2g at n = 1000", what, gap(10), gap(100), gap(1000))
	switch {
	case c < 1e-3 && c < b && b < a:
		return Confirmed, desc + ": it tends to 0"
	case c > 1e-2 || c > a:
		return Refuted, desc + ": it does not tend to 0"
	}
	return Inconclusive, desc
}
