package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesHandoverSolitaireIdentities checks solitaire under a shared handover-uniform memory
// with copies, in exact rationals: a capacity of the deck's cards gives the perfect-memory copies
// model's expected turns and lucky matches and every choice's; two copies give the pairs game's
// handover-uniform solitaire (§4.4); float64 agrees with the rationals.
func TestCopiesHandoverSolitaireIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	pols := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}, {6, 6}}
	if !testing.Short() {
		decks = append(decks, deck{8, 4}, deck{6, 4})
	}
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pols {
			mu := Lineup{Players: 1, Policy: p, Opponent: p}
			name := fmt.Sprintf("%d pairs of %d cards, solitaire %s", d.pairs, d.copies, p)
			got, err := EvaluateCopies(ctx, f, handoverCopies(2*d.pairs, d.copies), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, f, Model{Variant: rules.Variant{Copies: d.copies}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
				t.Errorf("%s: %v turns, %v lucky; perfect memory %v, %v", name, got.ExpectedTurns, got.ExpectedLucky, want.ExpectedTurns, want.ExpectedLucky)
			}
			small, err := EvaluateCopies(ctx, field.Float{}, handoverCopies(3, d.copies), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			exact, err := EvaluateCopies(ctx, f, handoverCopies(3, d.copies), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if x, _ := exact.ExpectedTurns.Float64(); math.Abs(small.ExpectedTurns-x) > 1e-9 {
				t.Errorf("%s, capacity 3: float64 %v turns, rationals %v", name, small.ExpectedTurns, x)
			}
		}
		// Every choice's values from a state with remembered cards of faces of different sizes.
		v := make(copiesVec, d.copies)
		v[copiesClass(d.copies, 1)], v[copiesClass(2, 1)], v[copiesClass(2, 0)] = 1, 1, 1
		mid := v.state()
		mu := Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		got, err := CopiesChoiceValues(ctx, f, handoverCopies(2*mid.Pairs(), d.copies), mu, mid)
		if err != nil {
			t.Fatal(err)
		}
		want, err := CopiesChoiceValues(ctx, f, Model{Variant: rules.Variant{Copies: d.copies}}, mu, mid)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Values) != len(want.Values) || got.PolicyChoice != want.PolicyChoice {
			t.Fatalf("%v: %d choices (%s), perfect memory %d (%s)", mid, len(got.Values), got.PolicyChoice, len(want.Values), want.PolicyChoice)
		}
		for i := range got.Values {
			g, w := got.Values[i], want.Values[i]
			if g.Choice != w.Choice || g.Turns.Cmp(w.Turns) != 0 || g.Lucky.Cmp(w.Lucky) != 0 || g.Best != w.Best {
				t.Errorf("%v: %s %v turns %v lucky (best %v), perfect memory %s %v %v (best %v)", mid, g.Choice, g.Turns, g.Lucky, g.Best, w.Choice, w.Turns, w.Lucky, w.Best)
			}
		}
	}
	// Two copies: the pairs game's handover-uniform solitaire.
	for _, capacity := range []int{2, 3, 4} {
		for _, n := range []int{3, 5} {
			for _, p := range pols {
				mu := Lineup{Players: 1, Policy: p, Opponent: p}
				m := handoverCopies(capacity, 2)
				st, err := StartCopiesState(n, 2)
				if err != nil {
					t.Fatal(err)
				}
				got, err := EvaluateCopies(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Evaluate(ctx, f, Model{Memory: m.Memory}, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
					t.Errorf("two copies, capacity %d, %d pairs, solitaire %s: %v turns, %v lucky; pairs model %v, %v",
						capacity, n, p, got.ExpectedTurns, got.ExpectedLucky, want.ExpectedTurns, want.ExpectedLucky)
				}
			}
		}
	}
}
