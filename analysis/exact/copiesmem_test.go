package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

func handoverCopies(capacity, copies int) Model {
	return Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}, Variant: rules.Variant{Copies: copies}}
}

var copiesMemLineups = []Lineup{
	{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
	{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
	{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal},
	{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal},
}

// TestCopiesHandoverLargeCapacityIsPerfectMemory checks that a handover-uniform memory that
// holds every card of the deck gives the perfect-memory copies model's values and choices' values,
// in exact rationals.
func TestCopiesHandoverLargeCapacityIsPerfectMemory(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}, {6, 6}}
	if !testing.Short() {
		decks = append(decks, deck{8, 4}, deck{8, 8})
	}
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range copiesMemLineups {
			name := fmt.Sprintf("%d pairs of %d cards, %s", d.pairs, d.copies, lineupName(mu))
			got, err := EvaluateCopies(ctx, f, handoverCopies(2*d.pairs, d.copies), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, f, Model{Variant: rules.Variant{Copies: d.copies}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
				t.Errorf("%s: lead %v, perfect memory %v", name, got.ExpectedLead, want.ExpectedLead)
			}
		}
		// Every choice's value from a state with remembered cards of faces of different sizes.
		v := make(copiesVec, d.copies)
		v[copiesClass(d.copies, 1)], v[copiesClass(2, 1)], v[copiesClass(2, 0)] = 1, 1, 1
		mid := v.state()
		mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		got, err := CopiesChoiceValues(ctx, f, handoverCopies(2*mid.Pairs(), d.copies), mu, mid)
		if err != nil {
			t.Fatal(err)
		}
		want, err := CopiesChoiceValues(ctx, f, Model{Variant: rules.Variant{Copies: d.copies}}, mu, mid)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Values) != len(want.Values) {
			t.Fatalf("%v: %d choices, perfect memory %d", mid, len(got.Values), len(want.Values))
		}
		for i := range got.Values {
			if got.Values[i].Choice != want.Values[i].Choice || got.Values[i].Lead.Cmp(want.Values[i].Lead) != 0 {
				t.Errorf("%v: %s %v, perfect memory %s %v", mid, got.Values[i].Choice, got.Values[i].Lead, want.Values[i].Choice, want.Values[i].Lead)
			}
		}
	}
}

// TestCopiesHandoverTwoCopiesIsPairsModel checks that two copies of a face give the pairs game's
// handover-uniform model (§4.4) exactly, every lineup, capacities 2 to 4.
func TestCopiesHandoverTwoCopiesIsPairsModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs := 5
	if !testing.Short() {
		maxPairs = 8
	}
	for capacity := 2; capacity <= 4; capacity++ {
		for n := 1; n <= max(maxPairs, 2*capacity); n++ { // the optimum departs from daring at 8 pairs, capacity 4
			st, err := StartCopiesState(n, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, mu := range copiesMemLineups {
				m := handoverCopies(capacity, 2)
				got, err := evaluateCopiesMem(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Evaluate(ctx, f, Model{Memory: m.Memory}, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
					t.Errorf("handover-uniform(%d), %d pairs, %s: lead %v, pairs model %v", capacity, n, lineupName(mu), got.ExpectedLead, want.ExpectedLead)
				}
			}
		}
	}
}

// TestCopiesHandoverOptimumIsEquilibrium checks that no seat gains by answering the optimum
// otherwise: the best response to optimal is worth what optimal is, and the optimum is worth at
// least safe's and daring's lead against it.
func TestCopiesHandoverOptimumIsEquilibrium(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, d := range []struct{ pairs, copies, capacity int }{{6, 4, 2}, {6, 4, 3}, {6, 6, 3}} {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		m := handoverCopies(d.capacity, d.copies)
		lead := func(p, q rules.Policy) *big.Rat {
			r, err := EvaluateCopies(ctx, f, m, Lineup{Players: 2, Policy: p, Opponent: q}, st)
			if err != nil {
				t.Fatal(err)
			}
			return r.ExpectedLead
		}
		opt := lead(rules.PolicyOptimal, rules.PolicyOptimal)
		if br := lead(rules.PolicyBestResponse, rules.PolicyOptimal); br.Cmp(opt) != 0 {
			t.Errorf("%+v: best response to optimal %v, optimal %v", d, br, opt)
		}
		for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
			if x := lead(p, rules.PolicyOptimal); x.Cmp(opt) > 0 {
				t.Errorf("%+v: %s against optimal %v, more than optimal's %v", d, p, x, opt)
			}
		}
	}
}
