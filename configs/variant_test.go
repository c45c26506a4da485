package configs

import (
	"bytes"
	"reflect"
	"testing"

	"memsim/sim/rules"
)

// TestRuleVariants checks the rule keys of the variants: a board expands to its deal and rules,
// keys beside it override them, the games are luck-adjusted by default as the standard game's
// are, and the resolved text parses back to the same rules.
func TestRuleVariants(t *testing.T) {
	tests := []struct {
		rules   string
		pairs   []int
		variant rules.Variant
	}{
		{"{}", []int{12}, rules.Variant{}},
		{"{copies: 2}", []int{12}, rules.Variant{}},
		{"{pairs: 26, copies: 4}", []int{26}, rules.Variant{Copies: 4}},
		{"{pairs: [6, 12], copies: 6, flips: blind}", []int{6, 12}, rules.Variant{Copies: 6, Flips: rules.FlipsBlind}},
		{"{turn_limit: 30}", []int{12}, rules.Variant{TurnLimit: 30}},
		{"{flips: sequential}", []int{12}, rules.Variant{}},
		{"{board: tournament-32}", []int{32}, rules.Variant{}},
		{"{board: deck-52-rank}", []int{26}, rules.Variant{Copies: 4}},
		{"{board: deck-52-colour}", []int{26}, rules.Variant{Copies: 26}},
		{"{board: popgym-hard}", []int{26}, rules.Variant{Copies: 4, TurnLimit: 52}},
		{"{board: popgym-medium, turn_limit: 500}", []int{52}, rules.Variant{Copies: 52, TurnLimit: 500}},
		{"{board: deck-52-rank, pairs: [2, 26], copies: 2}", []int{2, 26}, rules.Variant{}},
	}
	for _, tt := range tests {
		src := "rules: " + tt.rules + "\n" + two
		tour, err := Parse("v.yaml", []byte(src), testOptions())
		if err != nil {
			t.Fatalf("%s: %v", tt.rules, err)
		}
		r := tour.Rules
		if !reflect.DeepEqual(r.Pairs, tt.pairs) || r.Variant != tt.variant || !tour.LuckAdjusted {
			t.Errorf("%s: pairs %v, variant %+v, luck-adjusted %v; want %v, %+v, true", tt.rules, r.Pairs, r.Variant, tour.LuckAdjusted, tt.pairs, tt.variant)
		}
		back, err := Parse("v.yaml", tour.YAML(), testOptions())
		if err != nil {
			t.Fatalf("%s: the resolved text does not parse: %v\n%s", tt.rules, err, tour.YAML())
		}
		if back.Rules.Variant != r.Variant || !bytes.Equal(back.Identity(), tour.Identity()) {
			t.Errorf("%s: the resolved text gives %+v, want %+v", tt.rules, back.Rules.Variant, r.Variant)
		}
	}
}

// A variant changes the identity; writing out the standard rules does not.
func TestVariantIdentity(t *testing.T) {
	base := identityOf(t, "p.yaml", two)
	if got := identityOf(t, "p.yaml", "rules: {copies: 2, flips: sequential}\n"+two); !bytes.Equal(got, base) {
		t.Errorf("the standard rules written out change the identity:\n%s\n%s", got, base)
	}
	seen := map[string]string{string(base): "standard"}
	for _, r := range []string{"{copies: 4}", "{flips: blind}", "{turn_limit: 9}", "{turn_limit: 10}"} {
		id := string(identityOf(t, "p.yaml", "rules: "+r+"\n"+two))
		if other, ok := seen[id]; ok {
			t.Errorf("rules %s have the identity of %s", r, other)
		}
		seen[id] = r
	}
}
