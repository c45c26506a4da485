package exact

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// termRat is field.Rat under another type, so that the decay rows take the field's generic path,
// term by term in big.Rat, rather than the common-denominator one of field.Rat.
type termRat struct{ field.Rat }

// decayStates runs the sweep of lineup mu on model m up to n pairs in field f and returns, for
// every state, its values and decisions written out.
func decayStates[F field.Field[*big.Rat]](t *testing.T, f F, m Model, mu Lineup, n int) []string {
	t.Helper()
	w, err := newSweep[*big.Rat](f, m, mu, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	str := func(v *big.Rat) string {
		if v == nil {
			return "-"
		}
		return v.RatString()
	}
	var out []string
	err = w.run(context.Background(), n, func(st rules.State) error {
		c := w.at(st)
		var b strings.Builder
		fmt.Fprintf(&b, "%v opt %s lead %s %s choice %v solo %s %s", st, str(c.opt), str(c.lead[0]), str(c.lead[1]),
			w.optChoice, str(c.solo[0]), str(c.solo[1]))
		for _, ch := range rules.Choices() {
			if w.legal[ch] && w.needOpt {
				fmt.Fprintf(&b, " %v=%s best %t", ch, str(w.optDev[ch]), w.optBest[ch])
			}
		}
		for _, d := range c.dist {
			for _, v := range d {
				fmt.Fprintf(&b, " %s", str(v))
			}
		}
		out = append(out, b.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecayCommonDenominatorAgreesWithTermByTerm compares the exact rows of the decay model
// solved over common denominators (field.Rat) with the same rows solved term by term in big.Rat,
// at every state: values, every choice's value, the choices made and the lead distributions.
func TestDecayCommonDenominatorAgreesWithTermByTerm(t *testing.T) {
	n := 12 // a fraction of a second
	daringSafe := rules.NewChoiceSet(rules.Daring, rules.Safe)
	lineup := func(players int, p, o rules.Policy) Lineup {
		return Lineup{Players: players, Policy: p, Opponent: o}
	}
	tests := []struct {
		capacity int
		q        float64
		choices  rules.ChoiceSet
		mu       Lineup
		pairs    int
	}{
		{0, 0.1, rules.FullChoices, lineup(2, rules.PolicyOptimal, rules.PolicyOptimal), n},
		{0, 0.5, rules.FullChoices, lineup(2, rules.PolicyOptimal, rules.PolicyOptimal), n},
		{0, 0.1, daringSafe, lineup(2, rules.PolicyOptimal, rules.PolicyOptimal), n},
		{4, 0.1, rules.FullChoices, lineup(2, rules.PolicyOptimal, rules.PolicyOptimal), n},
		{3, 0.5, daringSafe, lineup(2, rules.PolicyOptimal, rules.PolicyOptimal), n},
		{0, 0.1, rules.FullChoices, lineup(2, rules.PolicySafe, rules.PolicyDaring), n},
		{4, 0.5, rules.FullChoices, lineup(2, rules.PolicyParity, rules.PolicySafe), n},
		{0, 0.5, rules.FullChoices, lineup(2, rules.PolicyBestResponse, rules.PolicySafe), n},
		{0, 0.1, rules.FullChoices, lineup(1, rules.PolicyOptimal, rules.PolicyOptimal), n},
		{0, 0.1, rules.FullChoices, lineup(3, rules.PolicySafe, rules.PolicyDaring), n / 2},
	}
	for _, tt := range tests {
		m := Model{Memory: rules.Memory{Capacity: tt.capacity, Forget: rules.ForgetDecay, Decay: tt.q}, Choices: tt.choices}
		name := fmt.Sprintf("m%d q%g %v %d %v-%v", tt.capacity, tt.q, tt.choices, tt.mu.Players, tt.mu.Policy, tt.mu.Opponent)
		t.Run(name, func(t *testing.T) {
			got := decayStates(t, field.Rat{}, m, tt.mu, tt.pairs)
			want := decayStates(t, termRat{}, m, tt.mu, tt.pairs)
			if len(got) != len(want) {
				t.Fatalf("%d states, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("state %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}

// decayOptimalValues returns the optimal value (the mover's lead) of every state up to n pairs of
// model m, in field f, as float64.
func decayOptimalValues[T any](t *testing.T, f field.Field[T], m Model, n int) []float64 {
	t.Helper()
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep(f, m, mu, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	err = w.run(context.Background(), n, func(st rules.State) error {
		out = append(out, f.Float64(w.at(st).opt))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecayExactAgreesWithFloatAt40Pairs compares the exact optimal values of decay(q = 0.1)
// without a capacity with float64's, to 1e-9, at every state up to 40 pairs.
func TestDecayExactAgreesWithFloatAt40Pairs(t *testing.T) {
	if testing.Short() {
		t.Skip("40 pairs in exact rationals take seconds")
	}
	m := Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}}
	got := decayOptimalValues(t, field.Rat{}, m, 40)
	want := decayOptimalValues(t, field.Float{}, m, 40)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d states, want %d", len(got), len(want))
	}
	for i := range got {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("state %d: exact %v, float64 %v", i, got[i], want[i])
		}
	}
}
