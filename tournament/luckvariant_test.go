package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// variantLuckSuite is a small suite of the rule variants with exact models (copies alone, under a
// turn limit and under blind flips), two perfect-memory table players per game.
const variantLuckSuite = `name: copies
seed: 1
games: 300
rules: {pairs: [6, 10], copies: 4}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
---
name: blind
seed: 2
games: 300
rules: {pairs: [6, 10], flips: blind}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
---
name: limit
seed: 3
games: 300
rules: {pairs: [6, 10], turn_limit: 8}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
---
name: copies-limit
seed: 4
games: 300
rules: {pairs: [8], copies: 4, turn_limit: 8}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
---
name: copies-blind
seed: 5
games: 300
rules: {pairs: [8], copies: 4, flips: blind}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
`

// TestValidateChecksVariantLuck validates a suite of the rule variants that are luck-adjusted
// (copies, blind flips, a turn limit, copies under a turn limit, copies under blind flips): every
// matchup has adjusted checks, all pass against the
// exact values, and with every daring choice's advantage biased by 0.05 pairs many adjusted checks
// fail while the raw ones, on the same games, do not.
func TestValidateChecksVariantLuck(t *testing.T) {
	ctx := context.Background()
	cfgs, err := configs.ParseSuite("variants.yaml", []byte(variantLuckSuite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	suite, err := tournament.NewSuite(ctx, cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	count := func(res *tournament.Validation) (adjusted, rejectedAdjusted, rejectedOther int) {
		for _, c := range res.Checks {
			isAdjusted := strings.Contains(c.Name, "/adjusted pairs")
			if isAdjusted {
				adjusted++
			}
			switch {
			case c.Rejected && isAdjusted:
				rejectedAdjusted++
			case c.Rejected:
				rejectedOther++
			}
		}
		return adjusted, rejectedAdjusted, rejectedOther
	}
	res, err := suite.Validate(ctx, tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	adjusted, rej, other := count(res)
	if rej > 0 || other > 0 {
		t.Errorf("%d of %d adjusted checks and %d other checks rejected; want none", rej, adjusted, other)
	}
	families := map[string]int{}
	for _, c := range res.Checks {
		if strings.Contains(c.Name, "/adjusted pairs") {
			families[c.Family]++
		}
	}
	// Two deal sizes (one under copies with a limit or blind flips), six seat orders, seat 0; under
	// a turn limit seat 1 too, whose share is not the pairs dealt less seat 0's.
	for f, want := range map[string]int{"copies": 12, "blind": 12, "turn-limit": 24, "copies-limit": 12, "copies-blind": 6} {
		if families[f] != want {
			t.Errorf("family %s: %d adjusted checks, want %d", f, families[f], want)
		}
	}
	res, err = suite.ValidateBiasedLuck(ctx, tournament.ValidateOptions{Level: 0.01}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	adjusted, rej, other = count(res)
	t.Logf("biased luck: %d of %d adjusted checks rejected, %d other checks", rej, adjusted, other)
	if rej < adjusted/6 {
		t.Errorf("%d of %d adjusted checks rejected under biased luck, want many", rej, adjusted)
	}
	if other > 0 {
		t.Errorf("%d raw checks rejected: the bias must touch only the adjusted means", other)
	}
}

// TestLimitLuckReportsNoLead checks the luck-adjusted estimate of two-player matchups under a turn
// limit, where the pairs left count for nobody: each seat's adjusted mean is reported, and no
// adjusted lead (which would assume that the two
// seats' pairs add up to the deal) is reported or judged; without a limit the lead is reported.
func TestLimitLuckReportsNoLead(t *testing.T) {
	const src = `seed: 5
games: 200
rules: {pairs: [6], copies: 4, turn_limit: 8}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
`
	for _, c := range []struct {
		src      string
		wantLead bool
	}{
		{src, false},
		{strings.Replace(src, "copies: 4, turn_limit: 8", "turn_limit: 8", 1), false},
		{strings.Replace(src, ", turn_limit: 8", "", 1), true},
	} {
		tr, err := parse(t, c.src)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		res, err := tr.Play(ctx, tournament.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tr.Report(ctx, res)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range r.Matchups {
			la := m.LuckAdjusted
			if la == nil || len(la.MeanPairs) != 2 {
				t.Fatalf("%v: luck-adjusted estimate %+v, want one for both seats", m.Players, la)
			}
			if got := la.MeanLead != nil; got != c.wantLead {
				t.Errorf("%q, %v: adjusted lead reported %v, want %v", c.src, m.Players, got, c.wantLead)
			}
			for _, o := range m.OutsideAdjustedCI() {
				if o == "lead" {
					t.Errorf("%q, %v: the lead judged outside its adjusted interval", c.src, m.Players)
				}
			}
		}
	}
}
