package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSingletonsLimitIdentities checks the turn-limited model against identities: with
// σ = 0 the capacity drawn is always m, so the values equal the fixed-capacity singletons solver's
// under the same limit exactly (each choice's too); a limit that never binds (more turns than any
// game of n pairs and s singletons can last without a pass, under pass rule never) equals the
// model without a limit; float64 agrees with exact rationals; and seat 1's pairs are the pairs
// both seats take less seat 0's.
func TestFluctSingletonsLimitIdentities(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		pairs, singles, capacity, limit int
		pass                            rules.PassRule
		pol                             [2]rules.Policy
		short                           bool
	}
	cases := []tc{
		{1, 1, 2, 3, rules.PassAlways, [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}, true},
		{3, 1, 3, 6, rules.PassTwoKnown, [2]rules.Policy{rules.PolicyBestResponse, rules.PolicySafe}, false},
		{3, 2, 2, 7, rules.PassNever, [2]rules.Policy{rules.PolicyParity, rules.PolicyOptimal}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		name := fmt.Sprintf("%d+%ds/m%d/T%d/%s/%s-%s", c.pairs, c.singles, c.capacity, c.limit, c.pass, c.pol[0], c.pol[1])
		t.Run(name, func(t *testing.T) {
			mu := Lineup{Players: 2, Policy: c.pol[0], Opponent: c.pol[1]}
			st := rules.State{N: c.pairs, J: c.pairs, S: c.singles, F: c.singles}
			fixed := husModel(c.singles, c.capacity)
			fixed.Pass, fixed.Variant.TurnLimit = c.pass, c.limit
			want, err := Evaluate(ctx, field.Rat{}, fixed, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			// σ = 0 is refused as a fluctuation; the model's own cells with one capacity drawn are
			// built directly.
			m := fluctSinglesModel(c.singles, c.capacity, 1)
			m.Memory.Fluctuation = 0
			m.Pass, m.Variant.TurnLimit = c.pass, c.limit
			got, err := evaluateFluctSinglesLimit(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.PairsBySeat[0].Cmp(want.PairsBySeat[0]) != 0 || got.PairsBySeat[1].Cmp(want.PairsBySeat[1]) != 0 {
				t.Errorf("σ = 0: %v %v, fixed capacity %v %v", got.ExpectedLead, got.PairsBySeat, want.ExpectedLead, want.PairsBySeat)
			}
			wc, err := ChoiceValues(ctx, field.Rat{}, fixed, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			gc, err := fsLimitChoiceValues(ctx, field.Rat{}, m, mu, st, c.capacity, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(gc.Values) != len(wc.Values) || gc.PolicyChoice != wc.PolicyChoice {
				t.Fatalf("σ = 0 choices %+v, fixed capacity %+v", gc, wc)
			}
			for i, v := range gc.Values {
				if w := wc.Values[i]; v.Choice != w.Choice || v.Lead.Cmp(w.Lead) != 0 || v.Pairs.Cmp(w.Pairs) != 0 || v.Best != w.Best {
					t.Errorf("σ = 0 %s: lead %v pairs %v best %v, fixed capacity %v %v %v", v.Choice, v.Lead, v.Pairs, v.Best, w.Lead, w.Pairs, w.Best)
				}
			}

			// A fluctuating capacity: float64 agrees with exact, and the seats' pairs add up to the
			// pairs both take.
			fm := fluctSinglesModel(c.singles, c.capacity, 1)
			fm.Pass, fm.Variant.TurnLimit = c.pass, c.limit
			ex, err := Evaluate(ctx, field.Rat{}, fm, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			fl, err := Evaluate(ctx, field.Float{}, fm, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if e, _ := ex.ExpectedLead.Float64(); !close(e, fl.ExpectedLead) {
				t.Errorf("float64 lead %v, exact %v", fl.ExpectedLead, ex.ExpectedLead)
			}
			if d := new(big.Rat).Sub(ex.PairsBySeat[0], ex.PairsBySeat[1]); d.Cmp(ex.ExpectedLead) != 0 {
				t.Errorf("pairs by seat %v, lead %v", ex.PairsBySeat, ex.ExpectedLead)
			}
		})
	}
}

// TestFluctSingletonsLimitNeverBinding checks that a limit that never binds equals no limit: a
// forgotten card lets a game last any number of turns, but with a limit far beyond a game's
// expected length the chance that it binds is below float64 precision, and the values agree.
func TestFluctSingletonsLimitNeverBinding(t *testing.T) {
	ctx := context.Background()
	m := fluctSinglesModel(1, 2, 1)
	st := rules.State{N: 2, J: 2, S: 1, F: 1}
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	want, err := Evaluate(ctx, field.Float{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	m.Variant.TurnLimit = 400
	if testing.Short() {
		m.Variant.TurnLimit = 150
	}
	got, err := Evaluate(ctx, field.Float{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	if !close(got.ExpectedPairs, want.ExpectedPairs) || !close(got.PairsBySeat[1], want.PairsBySeat[1]) {
		t.Errorf("turn limit %d: %v; no limit %v", m.Variant.TurnLimit, got.PairsBySeat, want.PairsBySeat)
	}
}
