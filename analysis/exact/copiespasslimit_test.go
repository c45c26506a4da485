package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesPassLimitLineups returns the lineups checked under a pass rule and a turn limit: two
// seats (copiesPassLineups), and three seats every seat for itself, a policy per seat and a best
// reply.
func copiesPassLimitLineups() []Lineup {
	three := Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	reply := Lineup{Players: 3, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
	return append(copiesPassLineups(), three, SeatLineup(rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring), reply)
}

// TestCopiesPassLimitTwoEqualsPairModel checks that with two copies of a face under pass rules
// two-known and always and a turn limit the copies model gives the (n, j) model's values under
// the same rule and limit exactly (limit.go at two seats, limitpassseats.go at three), in every
// state up to 4 pairs (3 with -short) with every number of turns left up to 6 (4): the lineup's
// value, every choice's lead or every seat's pairs, the policy's choice, and at two seats both
// seats' score distributions.
func TestCopiesPassLimitTwoEqualsPairModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs, maxLimit := testSize(2, 3, 4), testSize(3, 4, 6)
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range copiesPassLimitLineups() {
			for limit := 1; limit <= maxLimit; limit++ {
				m := Model{Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				name := fmt.Sprintf("pass %s, turn limit %d, %s", pass, limit, lineupName(mu))
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
							g := got.Values[i]
							if g.Choice != w.Choice || g.Pairs.Cmp(w.Pairs) != 0 || (mu.Players == 2 && g.Lead.Cmp(w.Lead) != 0) {
								t.Errorf("%s in %v: %s pairs %v lead %v, want %s %v %v", name, rs, g.Choice, g.Pairs, g.Lead, w.Choice, w.Pairs, w.Lead)
							}
							for s := range w.PairsBySeat {
								if g.PairsBySeat[s].Cmp(w.PairsBySeat[s]) != 0 {
									t.Errorf("%s in %v: %s seat %d pairs %v, want %v", name, rs, g.Choice, s, g.PairsBySeat[s], w.PairsBySeat[s])
								}
							}
						}
						if got.PolicyChoice != want.PolicyChoice {
							t.Errorf("%s in %v: choice %s, want %s", name, rs, got.PolicyChoice, want.PolicyChoice)
						}
						if mu.Players != 2 {
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
							if gd.Prob[i].Cmp(wd.Prob[i]) != 0 || gd.Prob1[i].Cmp(wd.Prob1[i]) != 0 {
								t.Errorf("%s in %v: share %d/2 has probabilities %v and %v, want %v and %v", name, rs, i, gd.Prob[i], gd.Prob1[i], wd.Prob[i], wd.Prob1[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestCopiesPassLimitBeyondGameEqualsNoLimit checks that under a pass rule a turn limit no game
// from the state reaches gives the values without a limit exactly: every turn but a pass takes a
// pair or turns up a card never seen (at most 3n of them), and p passes in a row end the game, so
// p(3n + 1) turns are enough. Two and three seats, two and three faces of four cards.
func TestCopiesPassLimitBeyondGameEqualsNoLimit(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range copiesPassLimitLineups() {
			for _, pairs := range []int{4, testSize(4, 4, 6)} {
				st, err := StartCopiesState(pairs, 4)
				if err != nil {
					t.Fatal(err)
				}
				free := Model{Pass: pass, Variant: rules.Variant{Copies: 4}}
				limited := free
				limited.Variant.TurnLimit = mu.Players * (3*pairs + 1)
				name := fmt.Sprintf("pass %s, %d pairs, %s", pass, pairs, lineupName(mu))
				want, err := CopiesChoiceValues(ctx, f, free, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := CopiesChoiceValues(ctx, f, limited, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if d := sameResult(got.Value, want.Value); d != "" {
					t.Errorf("%s: %s", name, d)
				}
				if got.PolicyChoice != want.PolicyChoice || len(got.Values) != len(want.Values) {
					t.Fatalf("%s: choice %s of %d, without a limit %s of %d", name, got.PolicyChoice, len(got.Values), want.PolicyChoice, len(want.Values))
				}
				for i, w := range want.Values {
					if g := got.Values[i]; g.Choice != w.Choice || g.Pairs.Cmp(w.Pairs) != 0 {
						t.Errorf("%s: %s pairs %v, without a limit %v", name, g.Choice, g.Pairs, w.Pairs)
					}
				}
				if mu.Players != 2 {
					continue
				}
				gd, err := CopiesDistribution(ctx, f, limited, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				wd, err := CopiesDistribution(ctx, f, free, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for i := range wd.Prob {
					if gd.Prob[i].Cmp(wd.Prob[i]) != 0 {
						t.Errorf("%s: share %d/2 has probability %v, without a limit %v", name, i, gd.Prob[i], wd.Prob[i])
					}
				}
			}
		}
	}
}

// TestCopiesPassLimitFloatAgrees checks the copies model under a pass rule and a turn limit in
// float64 against exact rationals: every seat's pairs from the start of three faces of four cards.
func TestCopiesPassLimitFloatAgrees(t *testing.T) {
	ctx := context.Background()
	st, err := StartCopiesState(6, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range copiesPassLimitLineups() {
			m := Model{Pass: pass, Variant: rules.Variant{Copies: 4, TurnLimit: 7}}
			r, err := EvaluateCopies(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			x, err := EvaluateCopies(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range r.PairsBySeat {
				if w, _ := p.Float64(); !nearlyEqual(w, x.PairsBySeat[i]) {
					t.Errorf("pass %s, %s: seat %d pairs %v exact, %v in float64", pass, lineupName(mu), i, w, x.PairsBySeat[i])
				}
			}
		}
	}
}
