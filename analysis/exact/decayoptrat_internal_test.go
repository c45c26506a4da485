package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// decayOptState is what the self-play optimum of the decay model decides in one state.
type decayOptState struct {
	opt    *big.Rat
	choice rules.Choice
	legal  [rules.NumChoices]bool
	dev    [rules.NumChoices]*big.Rat
	best   [rules.NumChoices]bool
}

// decayOptTermByTerm returns the self-play optimum of model m in every state up to n pairs, rows
// solved term by term in big.Rat (field.Rat's generic path, termRat).
func decayOptTermByTerm(t *testing.T, m Model, n int) map[rules.State]decayOptState {
	t.Helper()
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep[*big.Rat](termRat{}, m, mu, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	out := map[rules.State]decayOptState{}
	err = w.run(context.Background(), n, func(st rules.State) error {
		s := decayOptState{opt: w.at(st).opt, choice: w.optChoice, legal: w.legal, best: w.optBest}
		for _, c := range rules.Choices() {
			if w.legal[c] {
				s.dev[c] = w.optDev[c]
			}
		}
		out[st] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// decayRatModels are decay models the exact optimum's tests run: with and without a capacity,
// small and large q, every choice or daring and safe only.
func decayRatModels() []Model {
	daringSafe := rules.NewChoiceSet(rules.Daring, rules.Safe)
	mem := func(capacity int, q float64) rules.Memory {
		return rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q}
	}
	return []Model{
		{Memory: mem(0, 0.1)},
		{Memory: mem(0, 0.5)},
		{Memory: mem(0, 1)},
		{Memory: mem(0, 0.1), Choices: daringSafe},
		{Memory: mem(4, 0.1)},
		{Memory: mem(3, 0.5), Choices: daringSafe},
	}
}

// TestDecayOptimumFromOneStateAgreesWithTermByTerm checks the exact optimum of the decay model
// where it keeps only the values asked for: Evaluate's value (only the last state's value is
// reduced) and ChoiceValues' (only sweep.from's), from every state up to 12 pairs (8 in the
// short form), against the rows solved term by term in big.Rat: the value, every legal choice's
// lead, the choice made and which choices are best.
func TestDecayOptimumFromOneStateAgreesWithTermByTerm(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 8
	}
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	ctx := context.Background()
	for _, m := range decayRatModels() {
		t.Run(fmt.Sprintf("%v %v", m.Memory, m.Choices), func(t *testing.T) {
			want := decayOptTermByTerm(t, m, n)
			checked := 0
			for st, s := range want {
				if st.N == 0 || (testing.Short() && st.N < n-2) {
					continue
				}
				res, err := Evaluate[*big.Rat](ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if res.ExpectedLead.Cmp(s.opt) != 0 {
					t.Errorf("%v: Evaluate's lead %s, want %s", st, res.ExpectedLead.RatString(), s.opt.RatString())
				}
				ch, err := ChoiceValues[*big.Rat](ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if ch.Value.ExpectedLead.Cmp(s.opt) != 0 || ch.PolicyChoice != s.choice {
					t.Errorf("%v: ChoiceValues' lead %s and choice %v, want %s and %v", st,
						ch.Value.ExpectedLead.RatString(), ch.PolicyChoice, s.opt.RatString(), s.choice)
				}
				legal := 0
				for _, c := range rules.Choices() {
					if s.legal[c] {
						legal++
					}
				}
				if len(ch.Values) != legal {
					t.Fatalf("%v: %d choices' values, want %d", st, len(ch.Values), legal)
				}
				for _, v := range ch.Values {
					if v.Lead.Cmp(s.dev[v.Choice]) != 0 || v.Best != s.best[v.Choice] {
						t.Errorf("%v: %v's lead %s best %t, want %s %t", st, v.Choice, v.Lead.RatString(), v.Best,
							s.dev[v.Choice].RatString(), s.best[v.Choice])
					}
				}
				checked++
			}
			if checked == 0 {
				t.Fatal("no state checked")
			}
		})
	}
}

// decayOptDecisions runs the exact optimum of model m up to n pairs, d comparing the choices,
// and returns in every state the choice made and which choices are best, written out.
func decayOptDecisions(t *testing.T, m Model, n int, d *decayOptRat) []string {
	t.Helper()
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep[*big.Rat](field.Rat{}, m, mu, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	w.decayRat = d
	var out []string
	err = w.run(context.Background(), n, func(st rules.State) error {
		out = append(out, fmt.Sprintf("%v %v %v %v", st, w.optChoice, w.legal, w.optBest))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecayOptimumFloatBoundDecidesAsExactChecks checks the float64 bound that decides most of
// the exact optimum's comparisons: the choices made and the best choices in every state up to 30
// pairs (12 in the short form) are those found comparing every choice exactly, and those found
// with every value reduced to lowest terms (a visitor reading them).
func TestDecayOptimumFloatBoundDecidesAsExactChecks(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 12
	}
	for _, m := range decayRatModels() {
		t.Run(fmt.Sprintf("%v %v", m.Memory, m.Choices), func(t *testing.T) {
			float := decayOptDecisions(t, m, n, newDecayOptRat(false))
			exact := newDecayOptRat(false)
			exact.exactChecks = true
			want := decayOptDecisions(t, m, n, exact)
			reduced := decayOptDecisions(t, m, n, newDecayOptRat(true))
			if len(float) != len(want) || len(reduced) != len(want) || len(want) == 0 {
				t.Fatalf("%d, %d and %d states", len(float), len(want), len(reduced))
			}
			for i := range want {
				if float[i] != want[i] || reduced[i] != want[i] {
					t.Fatalf("state %d: float64 bound %s, exact %s, reduced %s", i, float[i], want[i], reduced[i])
				}
			}
		})
	}
}

// TestDecayOptimumAgreesWithFloatAt60Pairs compares the exact optimum of decay(q = 0.1) without
// a capacity, its values kept over common denominators (none reduced), with float64's, to 1e-9
// in every state up to 60 pairs.
func TestDecayOptimumAgreesWithFloatAt60Pairs(t *testing.T) {
	if testing.Short() {
		t.Skip("60 pairs in exact rationals take seconds")
	}
	const n = 60
	m := Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}}
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep[*big.Rat](field.Rat{}, m, mu, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	d := newDecayOptRat(false)
	w.decayRat = d
	var got []float64
	err = w.run(context.Background(), n, func(st rules.State) error {
		k := st.N - st.J
		if st.N == 0 {
			got = append(got, 0)
			return nil
		}
		got = append(got, ratToFloat(d.cur.num[k], d.cur.den))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := decayOptimalValues(t, field.Float{}, m, n)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d states, want %d", len(got), len(want))
	}
	for i := range got {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("state %d: exact %v, float64 %v", i, got[i], want[i])
		}
	}
}
