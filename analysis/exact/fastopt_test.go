package exact_test

import (
	"context"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fastTable returns the exact optimal table of m up to maxN, keyed by state, computed with the
// smooth-denominator path on or off.
func fastTable(t *testing.T, m exact.Model, maxN int, fast bool) map[rules.State]exact.TableCell[*big.Rat] {
	t.Helper()
	defer exact.SetFastExact(fast)()
	return idTable(t, m, maxN)
}

// TestFastExactIsTheGeneralPath checks the exact optimal sweep of models without forgetting
// (ratOpt: choices compared by their numerators over a common denominator, values reduced by
// divisibility tests against the primes of that denominator) against the general path (big.Rat
// arithmetic with a gcd per operation, choices compared with big.Rat.Cmp) on every state: the
// same value, the same lead for every legal choice (as reduced fractions), the same best choices
// (ties included: the test fails if a family has none), choice and code. The long form goes to
// n = 200 for perfect memory under each pass rule.
func TestFastExactIsTheGeneralPath(t *testing.T) {
	big := idShort(40, 200)
	mid := idShort(30, 120)
	small := idShort(12, 40)
	tests := []struct {
		fam  idFamily
		maxN int
	}{
		{idPerfect(rules.PassNever), big},
		{idPerfect(rules.PassTwoKnown), big},
		{idPerfect(rules.PassAlways), mid},
		{idFamily{"published/pass=two-known", exact.Model{Pass: rules.PassTwoKnown,
			Choices: rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)}}, big},
		{idFamily{"published/pass=never", exact.Model{Choices: rules.NewChoiceSet(rules.Daring, rules.Safe)}}, mid},
		{idFamily{"daring-known-first/pass=always", exact.Model{Pass: rules.PassAlways,
			Choices: rules.NewChoiceSet(rules.Daring, rules.KnownFirst, rules.Pass)}}, small},
		{idSingletons(1, rules.PassNever), small},
		{idSingletons(2, rules.PassTwoKnown), small},
		{idSingletons(3, rules.PassAlways), small},
	}
	for _, tt := range tests {
		t.Run(tt.fam.name, func(t *testing.T) {
			fast := fastTable(t, tt.fam.model, tt.maxN, true)
			slow := fastTable(t, tt.fam.model, tt.maxN, false)
			if len(fast) != len(slow) || len(fast) == 0 {
				t.Fatalf("%d cells, general path %d", len(fast), len(slow))
			}
			ties := 0
			for st, want := range slow {
				got, ok := fast[st]
				if !ok {
					t.Fatalf("%v missing", st)
				}
				if !sameRat(got.Value, want.Value) {
					t.Errorf("%v: value %s, general path %s", st, idRS(got.Value), idRS(want.Value))
				}
				for _, ch := range rules.Choices() {
					if got.Legal[ch] != want.Legal[ch] || got.Legal[ch] && !sameRat(got.ChoiceValue[ch], want.ChoiceValue[ch]) {
						t.Errorf("%v: %v legal %v value %s, general path %v %s", st, ch, got.Legal[ch],
							idRS(got.ChoiceValue[ch]), want.Legal[ch], idRS(want.ChoiceValue[ch]))
					}
				}
				if !slices.Equal(got.Best, want.Best) || got.Choice != want.Choice || got.Code != want.Code {
					t.Errorf("%v: best %v choice %v code %d, general path %v %v %d", st, got.Best, got.Choice, got.Code,
						want.Best, want.Choice, want.Code)
				}
				if len(want.Best) > 1 {
					ties++
				}
			}
			if ties == 0 {
				t.Errorf("no state with tied best choices: the ties are not tested")
			}
		})
	}
}

// sameRat reports whether a and b are the same reduced fraction, numerator and denominator.
func sameRat(a, b *big.Rat) bool {
	return a != nil && b != nil && a.Num().Cmp(b.Num()) == 0 && a.Denom().Cmp(b.Denom()) == 0
}

// TestSelfPlayNeedsNoOtherSweep checks the values memsim solve --pairs gives for two optimal
// seats, read off the optimal sweep alone (the lead, and each seat's pairs (n ± lead)/2), against
// the same matchup solved as a matchup: optimal against its best response, which the general
// two-seat and per-seat sweeps evaluate and which, optimal play being an equilibrium, is worth
// the same to each seat.
func TestSelfPlayNeedsNoOtherSweep(t *testing.T) {
	maxN := bySize(5, 8, 16)
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	br := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyBestResponse}
	for _, fam := range []idFamily{idPerfect(rules.PassNever), idPerfect(rules.PassTwoKnown), idPerfect(rules.PassAlways),
		idSingletons(1, rules.PassNever), idLimited(rules.ForgetLRU, 3, rules.PassNever),
		idLimited(rules.ForgetHandoverUniform, 4, rules.PassTwoKnown)} {
		t.Run(fam.name, func(t *testing.T) {
			for _, st := range idStates(fam.model, 1, maxN) {
				got, want := idEval(t, fam.model, self, st), idEval(t, fam.model, br, st)
				if !sameRat(got.ExpectedLead, want.ExpectedLead) || !sameRat(got.ExpectedPairs, want.ExpectedPairs) ||
					len(got.PairsBySeat) != 2 || !sameRat(got.PairsBySeat[1], want.PairsBySeat[1]) {
					t.Errorf("%v: lead %s pairs %v, as a matchup %s %v", st, idRS(got.ExpectedLead), got.PairsBySeat,
						idRS(want.ExpectedLead), want.PairsBySeat)
				}
				fl, err := exact.Evaluate[float64](context.Background(), field.Float{}, fam.model, self, st)
				if err != nil {
					t.Fatal(err)
				}
				if f, _ := got.ExpectedLead.Float64(); !closeTo(fl.ExpectedLead, f) {
					t.Errorf("%v: float lead %v, exact %v", st, fl.ExpectedLead, f)
				}
			}
		})
	}
}

func closeTo(a, b float64) bool {
	d := a - b
	return d < 1e-9 && d > -1e-9
}
