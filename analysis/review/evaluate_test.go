package review

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestPlansAgreeWithTheSolver checks the evaluator, which values a turn card by card from the
// solver's state values, against the solver's own value of each choice (a second method): in
// every state up to 6 pairs, under every pass rule, with and without singletons, each legal
// choice's expected pairs and win score at every lead equal the solver's, and the best of them
// is the state's value.
func TestPlansAgreeWithTheSolver(t *testing.T) {
	t.Parallel()
	maxPairs := 6
	if testing.Short() {
		maxPairs = 5
	}
	f := field.Rat{}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, singletons := range []int{0, 2} {
			m := exact.Model{Pass: pass, Singletons: singletons}
			v, err := NewValues(context.Background(), f, m, maxPairs, true)
			if err != nil {
				t.Fatal(err)
			}
			e := evaluator[*big.Rat]{v: v}
			checked := 0
			for key, cell := range v.win {
				tb := table{n: key.n, j: key.j, h: key.n - key.j, s: singletons, f: key.f, d: key.lead}
				pc := v.pairs[stateKey{key.n, key.j, key.f, 0}]
				for _, c := range rules.Choices() {
					sc, ok := e.plan(tb, c)
					if ok != cell.legal[c] {
						t.Errorf("pass %v, %v: %v playable %v, the solver's legal %v", pass, key, c, ok, cell.legal[c])
						continue
					}
					if !ok {
						continue
					}
					if sc.pairs.Cmp(pc.choice[c]) != 0 {
						t.Errorf("pass %v, s=%d, %+v: %v is worth %v pairs, the solver says %v", pass, singletons, key, c, sc.pairs.RatString(), pc.choice[c].RatString())
					}
					if sc.win.Cmp(cell.choice[c]) != 0 {
						t.Errorf("pass %v, s=%d, %+v: %v has win score %v, the solver says %v", pass, singletons, key, c, sc.win.RatString(), cell.choice[c].RatString())
					}
					checked++
				}
			}
			if checked < 100 {
				t.Errorf("pass %v: only %d choices checked", pass, checked)
			}
		}
	}
}
