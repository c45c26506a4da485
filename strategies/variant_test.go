package strategies

import (
	"context"
	"slices"
	"strings"
	"testing"

	"memsim/sim/rules"
	"memsim/strategies/external"
)

// Under a rule variant the policies played card by card build, the policies of the exact models
// build where the variant is solved (copies under either flip rule, with or without a turn limit;
// blind flips and a turn limit with two copies),
// with the variant's model as their exact model, and the others are refused with an error naming
// the rule.
func TestBuildUnderVariants(t *testing.T) {
	ctx := context.Background()
	variants := []rules.Variant{{Copies: 4}, {Copies: 4, TurnLimit: 6}, {Copies: 4, Flips: rules.FlipsBlind}, {Flips: rules.FlipsBlind}, {TurnLimit: 20}}
	for _, v := range variants {
		env := Env{MaxPairs: 8, Players: 2, Variant: v, Tables: NewTables()}
		allowed := VariantPolicies(v)
		for _, name := range Names() {
			spec := Spec{Name: "p", Policy: name}
			if name == "best-response" || name == "win-best-response" {
				spec.Opponent = "safe"
			}
			b, err := Build(ctx, spec, env)
			wantExact := slices.Contains([]string{"optimal", "best-response", "safe", "daring", "win-optimal", "win-best-response"}, name)
			switch {
			case slices.Contains(allowed, name) && err != nil:
				t.Errorf("%v: %s: %v", v, name, err)
			case slices.Contains(allowed, name) && v.CopiesOf() != rules.DefaultCopies && (b.Exact != nil) != wantExact:
				t.Errorf("%v: %s: exact model %v, want %v", v, name, b.Exact != nil, wantExact)
			case slices.Contains(allowed, name) && (name == "random" || name == "greedy-random") && b.Exact != nil:
				t.Errorf("%v: %s: has an exact model", v, name)
			case !slices.Contains(allowed, name) && (err == nil || !strings.Contains(err.Error(), v.String())):
				t.Errorf("%v: %s: error %v, want one naming the rule %q", v, name, err, v)
			case !slices.Contains(allowed, name) && !strings.Contains(err.Error(), "policy "+name+" "):
				t.Errorf("%v: %s: error %q, want one naming the policy as written", v, name, err)
			}
		}
		// A player process is seated under every variant; its handshake says whether it plays it.
		if _, err := Build(ctx, Spec{Name: "x", External: &external.Command{Argv: []string{"sh"}}}, env); err != nil {
			t.Errorf("%v: a player process: %v", v, err)
		}
	}
	if slices.Contains(VariantPolicies(rules.Variant{Copies: 4}), "parity") {
		t.Error("parity is allowed with copies 4")
	}
}
