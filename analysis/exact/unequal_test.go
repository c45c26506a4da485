package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

var unequalChoiceSets = []rules.ChoiceSet{
	rules.NewChoiceSet(rules.Daring, rules.Safe),
	rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass),
}

// sharedLead is seat 0's expected lead in the shared model of memory mem, for the given policies.
func sharedLead(t *testing.T, pass rules.PassRule, cs rules.ChoiceSet, mem rules.Memory, pol [2]rules.Policy, n int) *big.Rat {
	t.Helper()
	m := exact.Model{Pass: pass, Choices: cs, Memory: mem}
	res, err := exact.Evaluate(context.Background(), field.Rat{}, m,
		exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	return res.ExpectedLead
}

func unequalLead(t *testing.T, u exact.Unequal, n int) *big.Rat {
	t.Helper()
	res, err := exact.EvaluateUnequal(context.Background(), field.Rat{}, u, n)
	if err != nil {
		t.Fatal(err)
	}
	return res.ExpectedLead
}

func TestUnequalOfEqualCapacitiesIsSharedLRU(t *testing.T) {
	pols := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyParity, rules.PolicyOptimal},
	}
	for _, cs := range unequalChoiceSets {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			if !cs.Has(rules.Pass) && pass != rules.PassNever {
				continue
			}
			for _, m := range []int{2, 3, 5} {
				for _, pol := range pols {
					for _, n := range []int{1, 4, 9} {
						name := fmt.Sprintf("%s/%s/lru%d/%v/n%d", cs, pass, m, pol, n)
						mem := rules.Memory{Capacity: m, Forget: rules.ForgetLRU}
						want := sharedLead(t, pass, cs, mem, pol, n)
						got := unequalLead(t, exact.Unequal{Pass: pass, Choices: cs, Capacity: [2]int{m, m}, Policy: pol}, n)
						if got.Cmp(want) != 0 {
							t.Errorf("%s: lead %s, shared lru %s", name, got.RatString(), want.RatString())
						}
					}
				}
			}
		}
	}
}

func TestUnequalOfCapacitiesOfTheDealIsPerfectMemory(t *testing.T) {
	for _, cs := range unequalChoiceSets {
		for _, pol := range [][2]rules.Policy{{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyParity}} {
			for _, n := range []int{2, 5, 8} {
				want := sharedLead(t, rules.PassNever, cs, rules.Memory{}, pol, n)
				u := exact.Unequal{Choices: cs, Capacity: [2]int{n, n + 3}, Policy: pol}
				if got := unequalLead(t, u, n); got.Cmp(want) != 0 {
					t.Errorf("%s/%v/n%d: lead %s, perfect memory %s", cs, pol, n, got.RatString(), want.RatString())
				}
			}
		}
	}
}

func TestUnequalRefusesWhatItCannotSolve(t *testing.T) {
	ds := rules.NewChoiceSet(rules.Daring, rules.Safe)
	for _, tc := range []struct {
		u    exact.Unequal
		want string
	}{
		{exact.Unequal{Capacity: [2]int{7, 5}}, "known-first"},
		{exact.Unequal{Choices: ds, Capacity: [2]int{1, 5}}, "capacity 1"},
		{exact.Unequal{Choices: ds, Capacity: [2]int{7, 5}, Policy: [2]rules.Policy{rules.PolicyBestResponse, rules.PolicyOptimal}}, "best-response"},
		{exact.Unequal{Choices: rules.NewChoiceSet(rules.Daring), Capacity: [2]int{7, 5}, Policy: [2]rules.Policy{rules.PolicySafe, rules.PolicyOptimal}}, "safe"},
	} {
		_, err := exact.EvaluateUnequal(context.Background(), field.Float{}, tc.u, 6)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %q", tc.u, err, tc.want)
		}
	}
}
