package exact_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// seatMemory returns the shared memory a seat's optimal table is made for: lru of capacity c, or
// perfect memory for 0.
func seatMemory(c int) rules.Memory {
	if c == 0 {
		return rules.Memory{}
	}
	return rules.Memory{Capacity: c, Forget: rules.ForgetLRU}
}

// Perfect memory against lru, solved by the unequal model (capacity 0), agrees with the game
// played card by card with a perfect memory that stores both cards of a pair and flips its least
// recently seen card where a remembered card is open.
func TestUnequalPerfectAgreesWithCardLevelGame(t *testing.T) {
	ctx := context.Background()
	ds := rules.NewChoiceSet(rules.Daring, rules.Safe)
	dsp := rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)
	opt, safe, daring := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	cases := []struct {
		n    int
		caps [2]int
		pol  [2]rules.Policy
		cs   rules.ChoiceSet
		pass rules.PassRule
	}{
		{3, [2]int{0, 2}, [2]rules.Policy{opt, opt}, ds, rules.PassNever},
		{3, [2]int{2, 0}, [2]rules.Policy{safe, opt}, ds, rules.PassNever},
		{4, [2]int{0, 2}, [2]rules.Policy{safe, daring}, ds, rules.PassNever},
		{4, [2]int{3, 0}, [2]rules.Policy{opt, safe}, dsp, rules.PassTwoKnown},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n%d/%v/%v/%s/%s", c.n, c.caps, c.pol, c.cs, c.pass), func(t *testing.T) {
			var tabs [2]*rules.ChoiceTable
			for s := range 2 {
				m := exact.Model{Pass: c.pass, Choices: c.cs, Memory: seatMemory(c.caps[s])}
				tab, err := exact.PolicyTable(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: c.pol[s], Opponent: opt}, c.n)
				if err != nil {
					t.Fatal(err)
				}
				tabs[s] = tab
			}
			choose := func(seat int, st rules.State, afterPass bool) rules.Choice {
				ch, ok := tabs[seat].Lookup(st, afterPass)
				if !ok {
					t.Fatalf("seat %d: no choice in %v", seat, st)
				}
				return ch
			}
			want := bruteLead(t, c.n, c.caps, c.pass, choose)
			u := exact.Unequal{Pass: c.pass, Choices: c.cs, Capacity: c.caps, Policy: c.pol}
			got, err := exact.EvaluateUnequal(ctx, field.Float{}, u, c.n)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.ExpectedLead-want) > 1e-9 {
				t.Errorf("lead %.12f, card-level game %.12f", got.ExpectedLead, want)
			}
		})
	}
}

// A perfect memory in the unequal model is an lru memory that never fills: against lru(b) it has
// the values of lru(a) for every a of at least the deal's pairs, and two perfect memories those
// of the shared perfect-memory model.
func TestUnequalPerfectIsLRUOfTheDeal(t *testing.T) {
	ds := rules.NewChoiceSet(rules.Daring, rules.Safe)
	pol := [2]rules.Policy{rules.PolicyOptimal, rules.PolicyParity}
	for _, n := range []int{2, 6} {
		for _, b := range []int{2, 3, 7} {
			for _, swap := range []bool{false, true} {
				perfect, bounded := [2]int{0, b}, [2]int{n + 1, b}
				if swap {
					perfect, bounded = [2]int{b, 0}, [2]int{b, n + 1}
				}
				got := unequalLead(t, exact.Unequal{Choices: ds, Capacity: perfect, Policy: pol}, n)
				want := unequalLead(t, exact.Unequal{Choices: ds, Capacity: bounded, Policy: pol}, n)
				if got.Cmp(want) != 0 {
					t.Errorf("n%d %v: lead %s, with lru(%d) %s", n, perfect, got.RatString(), n+1, want.RatString())
				}
			}
		}
		want := sharedLead(t, rules.PassNever, ds, rules.Memory{}, pol, n)
		if got := unequalLead(t, exact.Unequal{Choices: ds, Policy: pol}, n); got.Cmp(want) != 0 {
			t.Errorf("n%d, two perfect memories: lead %s, shared perfect memory %s", n, got.RatString(), want.RatString())
		}
	}
}
