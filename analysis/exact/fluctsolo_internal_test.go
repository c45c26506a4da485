package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSolitaireIdentities checks solitaire under a fluctuating capacity in exact rationals:
// σ = 0 gives the fixed capacity's solitaire (expected turns and lucky matches), a capacity that
// never binds gives perfect memory's, float64 agrees with the rationals, and the value after
// each capacity drawn, weighted by the draw, is the value before it.
func TestFluctSolitaireIdentities(t *testing.T) {
	ctx := context.Background()
	pols := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pol := range pols {
			mu := Lineup{Players: 1, Policy: pol}
			for _, tc := range []struct {
				m, sigma, n int
				want        rules.Memory // the memory whose values the fluctuating one must equal
			}{
				{2, 0, 5, rules.Memory{Capacity: 2, Forget: forget}},
				{3, 0, 6, rules.Memory{Capacity: 3, Forget: forget}},
				{7, 1, 5, rules.Memory{}}, // m - σ = n + 1: never binds
			} {
				mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
				name := fmt.Sprintf("%s σ=%d/%s/n=%d", mem, tc.sigma, pol, tc.n)
				st := rules.State{N: tc.n, J: tc.n}
				got, err := evaluateFluctSolo(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := Evaluate(ctx, field.Rat{}, Model{Memory: tc.want}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
					t.Errorf("%s: %s turns %s lucky, %s gives %s and %s", name, got.ExpectedTurns.RatString(), got.ExpectedLucky.RatString(),
						tc.want, want.ExpectedTurns.RatString(), want.ExpectedLucky.RatString())
				}
				fl, err := evaluateFluctSolo(ctx, field.Float{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if r, _ := got.ExpectedTurns.Float64(); math.Abs(fl.ExpectedTurns-r) > 1e-12*r {
					t.Errorf("%s: float64 turns %.15f, rational %.15f", name, fl.ExpectedTurns, r)
				}
			}
		}
	}
}

// TestFluctSolitaireChoices checks, in exact rationals, that the optimum's table names in every
// state and capacity drawn the first of the fewest expected turns among the choices' values
// after that draw, and that the policy's value after each capacity drawn, weighted by the draw,
// is its value before the draw.
func TestFluctSolitaireChoices(t *testing.T) {
	ctx := context.Background()
	const n = 5
	for _, mem := range []rules.Memory{
		{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1},
		{Capacity: 3, Forget: rules.ForgetHandoverUniform, Fluctuation: 2},
	} {
		m := Model{Memory: mem}
		tab, err := FluctSoloTable(ctx, field.Rat{}, m, n)
		if err != nil {
			t.Fatal(err)
		}
		// Every letter against the choices' values of its row, solved once per row.
		o, err := newFluctSolo(field.Rat{}, m, Lineup{Players: 1, Policy: rules.PolicyOptimal})
		if err != nil {
			t.Fatal(err)
		}
		o.prev = [2][]*big.Rat{{new(big.Rat)}, {new(big.Rat)}}
		o.choice = [][][]rules.Choice{nil}
		for r := 1; r <= n; r++ {
			if err := o.row(r); err != nil {
				t.Fatal(err)
			}
			for _, nd := range o.nodes {
				if nd.c == 0 {
					continue
				}
				st := rules.State{N: r, J: r - nd.k}
				var best rules.Choice
				var bv *big.Rat
				for _, y := range rules.Choices() {
					if y == rules.Pass || !m.Legal(st, y) {
						continue
					}
					e := o.choiceEq(r, nd.k, nd.c, y)
					if v := evalCol(field.Rat{}, &e, o.x, 0); bv == nil || v.Cmp(bv) < 0 {
						best, bv = y, v
					}
				}
				for c := nd.c; c <= mem.Capacity+mem.Fluctuation && (c == nd.c || nd.c == r+1); c++ {
					if letter, ok := tab.LookupCapacity(st, false, c); !ok || letter != best {
						t.Errorf("%s %v c=%d: table %s (%t), first of the fewest turns %s", mem, st, c, letter, ok, best)
					}
				}
			}
		}
		// The value after each capacity drawn, weighted by the draw, from a state with two known
		// cards, of the optimum and of safe.
		for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe} {
			mu := Lineup{Players: 1, Policy: pol}
			const k = 3
			st := rules.State{N: n, J: n - k}
			before, err := evaluateFluctSolo(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			avg := new(big.Rat)
			for _, cp := range fluctCapsTo(mem, mem.Capacity+mem.Fluctuation) {
				k2 := k
				if mem.Forget == rules.ForgetLRU {
					k2 = min(k, cp.c)
				}
				after := rules.State{N: n, J: n - k2}
				cv, err := fluctSoloChoiceValues(ctx, field.Rat{}, m, mu, after, cp.c)
				if err != nil {
					t.Fatalf("%s %v c=%d: %v", mem, after, cp.c, err)
				}
				avg.Add(avg, new(big.Rat).Mul(big.NewRat(cp.p.Num, cp.p.Den), cv.Value.ExpectedTurns))
			}
			if avg.Cmp(before.ExpectedTurns) != 0 {
				t.Errorf("%s %s %v: after the draw %s turns on average, before it %s", mem, pol, st, avg.RatString(), before.ExpectedTurns.RatString())
			}
		}
	}
}
