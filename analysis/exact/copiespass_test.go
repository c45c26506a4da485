package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesPassLineups are the two-player lineups the copies model solves under a pass rule.
func copiesPassLineups() []Lineup {
	two := func(p, o rules.Policy) Lineup { return Lineup{Players: 2, Policy: p, Opponent: o} }
	return []Lineup{
		two(rules.PolicyOptimal, rules.PolicyOptimal),
		two(rules.PolicyOptimal, rules.PolicySafe),
		two(rules.PolicySafe, rules.PolicyOptimal),
		two(rules.PolicySafe, rules.PolicyDaring),
		two(rules.PolicyBestResponse, rules.PolicyOptimal),
		two(rules.PolicyBestResponse, rules.PolicySafe),
		two(rules.PolicyBestResponse, rules.PolicyDaring),
	}
}

// TestCopiesPassTwoEqualsPairModel checks that with two copies of a face the copies model under
// pass rules two-known and always gives the (n, j) model's values under the same rule exactly, in
// every state up to 6 pairs, under sequential and blind flips: the lineup's value, every choice's
// value, the score distribution (up to 4 pairs) and the tables' choices just after a pass and
// otherwise.
func TestCopiesPassTwoEqualsPairModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs := testSize(4, 6, 6)
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			m := Model{Pass: pass, Variant: rules.Variant{Flips: flips}}
			for _, mu := range copiesPassLineups() {
				name := fmt.Sprintf("%s flips, pass %s, %s", flips, pass, lineupName(mu))
				for n := 1; n <= maxPairs; n++ {
					for j := 0; j <= n; j++ {
						st := CopiesState{Unknown: []int{j}, Half: []int{n - j}}
						rs := rules.State{N: n, J: j}
						got, err := CopiesChoiceValues(ctx, f, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want, err := ChoiceValues(ctx, f, m, mu, rs)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if d := sameResult(got.Value, want.Value); d != "" {
							t.Errorf("%s in %v: %s", name, rs, d)
						}
						if len(got.Values) != len(want.Values) {
							t.Errorf("%s in %v: %d legal choices, want %d", name, rs, len(got.Values), len(want.Values))
							continue
						}
						for i, w := range want.Values {
							if g := got.Values[i]; g.Choice != w.Choice || g.Lead.Cmp(w.Lead) != 0 || g.Best != w.Best {
								t.Errorf("%s in %v: %s lead %v best %v, want %s %v %v", name, rs, g.Choice, g.Lead, g.Best, w.Choice, w.Lead, w.Best)
							}
						}
						if got.PolicyChoice != want.PolicyChoice {
							t.Errorf("%s in %v: choice %s, want %s", name, rs, got.PolicyChoice, want.PolicyChoice)
						}
						if n > 4 {
							continue
						}
						gd, err := CopiesDistribution(ctx, f, m, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						wd, err := Distribution(ctx, f, m, mu, rs)
						if err != nil {
							t.Fatal(err)
						}
						for i := range wd.Prob {
							if gd.Prob[i].Cmp(wd.Prob[i]) != 0 {
								t.Errorf("%s in %v: share %d/2 has probability %v, want %v", name, rs, i, gd.Prob[i], wd.Prob[i])
							}
						}
					}
				}
				if mu.Policy != rules.PolicyOptimal && mu.Policy != rules.PolicyBestResponse {
					continue
				}
				got, err := CopiesPolicyTable(ctx, f, m, mu, maxPairs)
				if err != nil {
					t.Fatal(err)
				}
				want, err := PolicyTable(ctx, f, m, mu, maxPairs)
				if err != nil {
					t.Fatal(err)
				}
				found := 0
				for n := 1; n <= maxPairs; n++ {
					for j := 0; j <= n; j++ {
						for _, after := range []bool{false, true} {
							c, ok := got.LookupAfterPass([]int{j, n - j}, after)
							if !ok {
								continue
							}
							found++
							if w, _ := want.Lookup(rules.State{N: n, J: j}, after); c != w {
								t.Errorf("%s in (%d, %d), after a pass %v: choice %v, want %v", name, n, j, after, c, w)
							}
						}
					}
				}
				if found < maxPairs*maxPairs {
					t.Errorf("%s: %d choices compared", name, found)
				}
			}
		}
	}
}

// TestCopiesPassWithoutPassingEqualsNever checks that under a pass rule the copies model gives the
// values of pass rule never wherever no seat passes: for safe against daring (fixed policies never
// pass), for every lineup with pass left out of the choice set, and for optimal play in the deals
// whose optimum passes in no state a game reaches.
func TestCopiesPassWithoutPassingEqualsNever(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	noPass := rules.NewChoiceSet(rules.Daring, rules.Safe, rules.KnownFirst)
	optimal := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	decks := []struct{ pairs, copies int }{{4, 4}, {6, 4}, {6, 6}, {8, 8}, {8, 4}}
	optimalCompared, optimalPasses := 0, 0
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for _, mu := range copiesPassLineups() {
				for _, set := range []rules.ChoiceSet{rules.FullChoices, noPass} {
					if set.Full() && (mu.Policy != rules.PolicySafe || mu.Opponent != rules.PolicyDaring) {
						continue
					}
					never := Model{Variant: rules.Variant{Copies: d.copies}, Choices: set}
					m := never
					m.Pass = pass
					got, err := EvaluateCopies(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					want, err := EvaluateCopies(ctx, f, never, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if diff := sameResult(got, want); diff != "" {
						t.Errorf("%v, pass %s, choices %s, %s: %s", st, pass, set, lineupName(mu), diff)
					}
				}
			}
			m := Model{Variant: rules.Variant{Copies: d.copies}, Pass: pass}
			s, err := newCopiesSolver(ctx, f, m, optimal)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.get(st.vec().key(), 0); err != nil {
				t.Fatal(err)
			}
			passes := false
			for _, c := range s.memo {
				passes = passes || c.optChoice == rules.Pass
			}
			if passes {
				optimalPasses++
				continue
			}
			optimalCompared++
			got, err := EvaluateCopies(ctx, f, m, optimal, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, f, Model{Variant: m.Variant}, optimal, st)
			if err != nil {
				t.Fatal(err)
			}
			if diff := sameResult(got, want); diff != "" {
				t.Errorf("%v, pass %s, optimal, which never passes: %s", st, pass, diff)
			}
		}
	}
	if optimalCompared == 0 || optimalPasses == 0 {
		t.Errorf("optimal compared with never in %d deals and passing in %d: want both", optimalCompared, optimalPasses)
	}
}

// TestCopiesPassFloatAgreesWithRationals checks that float64 gives the rationals' values and
// choices under pass rules, from the start of four and six copies and from a state with
// half-known faces of several sizes.
func TestCopiesPassFloatAgreesWithRationals(t *testing.T) {
	ctx := context.Background()
	states := []string{"4:6u", "6:3u", "4:2u+1h,2:1u+2h", "8:1u+1h,6:1h,2:1u"}
	copies := []int{4, 6, 4, 8}
	for i, text := range states {
		st, err := ParseCopiesState(text, copies[i])
		if err != nil {
			t.Fatal(err)
		}
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			m := Model{Variant: rules.Variant{Copies: copies[i]}, Pass: pass}
			for _, mu := range copiesPassLineups() {
				r, err := CopiesChoiceValues(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				x, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s, pass %s, %s", text, pass, lineupName(mu))
				close := func(a *big.Rat, b float64) bool {
					fa, _ := a.Float64()
					return math.Abs(fa-b) <= 1e-12*math.Max(1, math.Abs(fa))
				}
				if !close(r.Value.ExpectedLead, x.Value.ExpectedLead) {
					t.Errorf("%s: lead %v, float64 %v", name, r.Value.ExpectedLead.FloatString(15), x.Value.ExpectedLead)
				}
				if r.PolicyChoice != x.PolicyChoice || len(r.Values) != len(x.Values) {
					t.Errorf("%s: choice %s of %d, float64 %s of %d", name, r.PolicyChoice, len(r.Values), x.PolicyChoice, len(x.Values))
					continue
				}
				for k, v := range r.Values {
					if !close(v.Lead, x.Values[k].Lead) {
						t.Errorf("%s: %s lead %v, float64 %v", name, v.Choice, v.Lead.FloatString(15), x.Values[k].Lead)
					}
				}
			}
		}
	}
}

// TestCopiesPassRefusesWhatItDoesNotSolve checks the one-line refusals under a pass rule: the
// policies that play to win at three seats, with and without a turn limit.
func TestCopiesPassRefusesWhatItDoesNotSolve(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	st, err := StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	m := Model{Variant: rules.Variant{Copies: 4}, Pass: rules.PassAlways}
	limited := m
	limited.Variant.TurnLimit = 5
	for _, c := range []struct {
		m  Model
		mu Lineup
	}{
		{m, Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}},
		{m, SeatLineup(rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe)},
		{limited, Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}},
	} {
		if _, err := EvaluateCopies(ctx, f, c.m, c.mu, st); err == nil {
			t.Errorf("%s, turn limit %d: solved, want a refusal", lineupName(c.mu), c.m.Variant.TurnLimit)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s, turn limit %d: a refusal of more than one line: %v", lineupName(c.mu), c.m.Variant.TurnLimit, err)
		}
	}
}
