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

var husLineups = []Lineup{
	{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
	{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
	{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
}

// TestHandoverSingletonsLargeCapacityIsPerfectMemory: a capacity of 2n + s never forgets, so the
// values and each choice's values are perfect memory's with singletons (§4.3), exactly.
func TestHandoverSingletonsLargeCapacityIsPerfectMemory(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ n, s int }{{3, 1}, {4, 2}} {
		m := husModel(c.s, 2*c.n+c.s)
		perfect := Model{Singletons: c.s}
		for _, mu := range husLineups {
			st := rules.State{N: c.n, J: c.n - 1, S: c.s, F: c.s - 1}
			got, err := ChoiceValues(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ChoiceValues(ctx, field.Rat{}, perfect, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value.ExpectedLead.Cmp(want.Value.ExpectedLead) != 0 {
				t.Errorf("%v %s-%s: lead %v, perfect memory %v", st, mu.Policy, mu.Opponent, got.Value.ExpectedLead, want.Value.ExpectedLead)
			}
			if len(got.Values) != len(want.Values) {
				t.Fatalf("%v: %d choices, perfect memory %d", st, len(got.Values), len(want.Values))
			}
			for i, v := range got.Values {
				if v.Lead.Cmp(want.Values[i].Lead) != 0 {
					t.Errorf("%v %s-%s %s: lead %v, perfect memory %v", st, mu.Policy, mu.Opponent, v.Choice, v.Lead, want.Values[i].Lead)
				}
			}
		}
	}
}

// TestHandoverSingletonsWithoutSingletonsIsPairsModel: with no singletons the solver gives the
// pairs-only handover-uniform model's values (§4.4), exactly, in every state.
func TestHandoverSingletonsWithoutSingletonsIsPairsModel(t *testing.T) {
	ctx := context.Background()
	for _, capacity := range []int{2, 3} {
		m := Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}}
		for _, mu := range husLineups {
			s, err := newHUSSolver(ctx, field.Rat{}, m, mu, 5)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			for _, c := range s.cells {
				if c.st.N == 0 {
					continue
				}
				want, err := Evaluate(ctx, field.Rat{}, m, mu, c.st)
				if err != nil {
					t.Fatal(err)
				}
				if c.val[0].Cmp(want.ExpectedLead) != 0 {
					t.Errorf("m=%d %v %s-%s: lead %v, pairs model %v", capacity, c.st, mu.Policy, mu.Opponent, c.val[0], want.ExpectedLead)
				}
			}
		}
	}
}

// TestHandoverSingletonsFloatMatchesRational: the float64 path gives the exact values.
func TestHandoverSingletonsFloatMatchesRational(t *testing.T) {
	ctx := context.Background()
	m := husModel(2, 3)
	st := rules.State{N: 5, J: 5, S: 2, F: 2}
	for _, mu := range husLineups {
		r, err := Evaluate(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		x, err := Evaluate(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := r.ExpectedPairs.Float64()
		if d := x.ExpectedPairs - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s-%s: float64 %v, exact %v", mu.Policy, mu.Opponent, x.ExpectedPairs, want)
		}
	}
}

// TestHandoverSingletonsOutcomesMatchTurn: the solver's outcomes and Model.Outcomes, which the
// audit reads, give each successor the same probability.
func TestHandoverSingletonsOutcomesMatchTurn(t *testing.T) {
	for _, capacity := range []int{2, 3, 4} {
		m := husModel(2, capacity)
		for n := 1; n <= 4; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= 2; f++ {
					st := rules.State{N: n, J: j, S: 2, F: f}
					if st.Known() > capacity {
						continue
					}
					for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
						if !m.Legal(st, ch) {
							continue
						}
						got := map[string]*big.Rat{}
						for _, o := range husOutcomes(st, ch, capacity) {
							k := fmt.Sprintf("%v %v %d", o.next, o.keep, o.handed)
							if got[k] == nil {
								got[k] = new(big.Rat)
							}
							got[k].Add(got[k], big.NewRat(o.num, o.den))
						}
						want := map[string]*big.Rat{}
						for _, o := range m.Outcomes(st, ch, nil) {
							k := fmt.Sprintf("%v %v %d", o.Next, o.Continue, o.NextGain)
							if want[k] == nil {
								want[k] = new(big.Rat)
							}
							want[k].Add(want[k], big.NewRat(o.Prob.Num, o.Prob.Den))
						}
						if len(got) != len(want) {
							t.Errorf("m=%d %v %s: %v, Outcomes %v", capacity, st, ch, got, want)
							continue
						}
						for k, p := range want {
							if got[k] == nil || got[k].Cmp(p) != 0 {
								t.Errorf("m=%d %v %s: %s has %v, Outcomes %v", capacity, st, ch, k, got[k], p)
							}
						}
					}
				}
			}
		}
	}
}

// TestHandoverSingletonsRefusals: what the model does not solve is refused in one line saying why.
func TestHandoverSingletonsRefusals(t *testing.T) {
	ctx := context.Background()
	st := rules.State{N: 3, J: 3, S: 1, F: 1}
	two := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	lru := Model{Singletons: 1, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}
	for _, c := range []struct {
		name string
		m    Model
		mu   Lineup
		want string
	}{
		{"lru", lru, two, "does not say which card lru"},
		{"two-player optimum at three seats", husModel(1, 3), Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}, "two-player optimum"},
		{"win-optimal at three seats", husModel(1, 3), Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, "has no exact model"},
		{"to win", husModel(1, 3), Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, "no exact model"},
		{"two-player optimum at three seats under a turn limit", func() Model { m := husModel(1, 3); m.Variant.TurnLimit = 6; return m }(), Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}, "two-player optimum"},
	} {
		_, err := Evaluate(ctx, field.Float{}, c.m, c.mu, st)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
	}
	// The distribution is of the lead from here, whatever the lead so far.
	led := st
	led.Lead = 1
	if _, err := Distribution(ctx, field.Float{}, husModel(1, 3), two, led); err == nil || !strings.Contains(err.Error(), "lead 1") {
		t.Errorf("distribution from a lead of 1: error %v, want one naming the lead", err)
	}
}
