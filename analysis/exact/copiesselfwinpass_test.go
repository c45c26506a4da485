package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesSelfWinPassMatchesCardSearch compares the win objective at three seats under copies
// and pass rules two-known and always with the search over every deal card by card
// (copiesWinSearch), at 2 faces of 4 cards and 3 faces of 2: every seat's score, alone, tied and
// expected pairs (a stalemate's share included), and those of every legal choice of the mover,
// at every pass streak, from no pairs and from uneven standings, several lineups, without a turn
// limit and under one.
func TestCopiesSelfWinPassMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	decks := []struct{ faces, copies int }{{2, 4}, {3, 2}}
	lineups := [][]rules.Policy{
		{rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal},
		{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, rules.PolicyWinOptimal, rules.PolicySafe},
	}
	passes := 0
	for _, d := range decks {
		all := everyDeal(d.faces, d.copies)
		pairs := d.faces * d.copies / 2
		for ri, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for _, limit := range []int{0, 5} {
				m := Model{Variant: rules.Variant{Copies: d.copies, TurnLimit: limit}, Pass: rule}
				for li, pol := range lineups {
					// Under -short each deck, rule and limit is checked with one of the lineups.
					if testing.Short() && (li+ri+limit/5+d.copies/2)%3 != 0 {
						continue
					}
					mu := SeatLineup(pol...)
					w := newWinSearch(all, pol, false, limit, rule)
					for _, standings := range [][]int{nil, {1, 0, 2}} {
						if testing.Short() && (standings == nil) == (li == 0) {
							continue
						}
						for k := range 3 {
							name := fmt.Sprintf("%d faces of %d, pass %s, limit %d, %v, standings %v, streak %d", d.faces, d.copies, rule, limit, pol, standings, k)
							st, err := StartCopiesState(pairs, d.copies)
							if err != nil {
								t.Fatal(err)
							}
							res, err := EvaluateCopiesSelfWinPasses(ctx, f, m, mu, st, standings, k)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							start := startCards(len(all[0]), 3, standings, limit, k)
							sameSearchValues(t, name, &res.SelfWinValues, w.value(start), start.pairs)
							c := start.clone()
							if limit > 0 {
								c.left-- // the turn the choices are made in
							}
							for ch, want := range w.options(c) {
								got := res.Choices[ch]
								if !pol[0].PlaysToWin() && want == nil {
									continue // the search plays a fixed policy's own choice only
								}
								if (got == nil) != (want == nil) {
									t.Errorf("%s: %s has values %v, the search %v", name, rules.Choice(ch), got != nil, want != nil)
									continue
								}
								if got != nil {
									sameSearchValues(t, fmt.Sprintf("%s, %s", name, rules.Choice(ch)), got, want, start.pairs)
								}
							}
							if res.Choice == rules.Pass {
								passes++
							}
						}
					}
				}
			}
		}
	}
	if passes == 0 {
		t.Errorf("no position compared has a pass chosen: want some")
	}
}

// sameSearchValues compares the solver's values with the search's vectors want (by absolute
// seat, seat 0 to move; the pairs counting the standings before the start).
func sameSearchValues(t *testing.T, name string, got *SelfWinValues[*big.Rat], want []*big.Rat, standings []int) {
	t.Helper()
	p := len(standings)
	pairs := make([]*big.Rat, p)
	for s := range pairs {
		pairs[s] = new(big.Rat).Sub(want[swPairs*p+s], big.NewRat(int64(standings[s]), 1))
	}
	sameRats(t, name+": P(most pairs)", got.Score, want[swScore*p:(swScore+1)*p])
	sameRats(t, name+": alone", got.Win, want[swWin*p:(swWin+1)*p])
	sameRats(t, name+": tied", got.Draw, want[swDraw*p:(swDraw+1)*p])
	sameRats(t, name+": expected pairs", got.Pairs, pairs)
}

// TestCopiesSelfWinPassTwoCopiesIsSelfWinPass checks that with two cards to a face the values
// under pass rules two-known and always equal those of the standard game's win objective at
// three and four seats under the same rule, every vector, every choice's and the choice, from no
// pairs and from uneven standings, with and without a turn limit.
func TestCopiesSelfWinPassTwoCopiesIsSelfWinPass(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, c := range []struct{ players, pairs, limit int }{{3, 3, 0}, {3, 2, 5}, {3, 4, 0}, {4, 3, 0}, {3, 3, 6}} {
		if testing.Short() && c.pairs+c.players > 6 {
			continue
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for _, standings := range [][]int{nil, []int{0, 2, 1, 0}[:c.players]} {
				if testing.Short() && standings == nil {
					continue
				}
				m := Model{Pass: rule, Variant: rules.Variant{TurnLimit: c.limit}}
				mu := Lineup{Players: c.players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
				st, err := StartCopiesState(c.pairs, 2)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%d seats, %d pairs, limit %d, pass %s, standings %v", c.players, c.pairs, c.limit, rule, standings)
				got, err := EvaluateCopiesSelfWin(ctx, f, m, mu, st, standings)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := EvaluateSelfWin(ctx, f, m, c.players, rules.State{N: c.pairs, J: c.pairs}, standings)
				if err != nil {
					t.Fatalf("%s: standard game: %v", name, err)
				}
				sameSelfWinValues(t, name, &got.SelfWinValues, &want.SelfWinValues)
				if got.Choice != want.Choice {
					t.Errorf("%s: choice %s, standard game %s", name, got.Choice, want.Choice)
				}
				for ch := range rules.NumChoices {
					switch g, w := got.Choices[ch], want.Choices[ch]; {
					case (g == nil) != (w == nil):
						t.Errorf("%s: %s legal %v, standard game %v", name, rules.Choice(ch), g != nil, w != nil)
					case g != nil:
						sameSelfWinValues(t, fmt.Sprintf("%s, %s", name, rules.Choice(ch)), g, w)
					}
				}
			}
		}
	}
}

// TestCopiesSelfWinPassScoresAddUp checks under pass rules two-known and always that the seats'
// scores sum to 1, that alone and tied bound a seat's score, that the expected pairs (a
// stalemate's shares included) sum to the pairs on the table without a turn limit and to at most
// them under one, for every legal choice too (a pass among them) and at every streak, and that
// float64 agrees with the exact values.
func TestCopiesSelfWinPassScoresAddUp(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		copies, pairs, players, limit int
		rule                          rules.PassRule
		pol                           []rules.Policy
	}{
		{4, 6, 3, 0, rules.PassAlways, nil},
		{4, 6, 3, 0, rules.PassTwoKnown, []rules.Policy{rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe}},
		{6, 6, 4, 0, rules.PassTwoKnown, nil},
		{4, 4, 3, 7, rules.PassAlways, []rules.Policy{rules.PolicyDaring, rules.PolicyWinOptimal, rules.PolicyOptimal}},
	} {
		if testing.Short() && c.pairs > 4 {
			continue
		}
		m := Model{Variant: rules.Variant{Copies: c.copies, TurnLimit: c.limit}, Pass: c.rule}
		mu := Lineup{Players: c.players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		if c.pol != nil {
			mu = SeatLineup(c.pol...)
		}
		st, err := StartCopiesState(c.pairs, c.copies)
		if err != nil {
			t.Fatal(err)
		}
		for k := range c.players {
			name := fmt.Sprintf("copies %d, %d pairs, %d seats, limit %d, pass %s, %v, streak %d", c.copies, c.pairs, c.players, c.limit, c.rule, mu.SeatPolicies(), k)
			exactRes, err := EvaluateCopiesSelfWinPasses(ctx, field.Rat{}, m, mu, st, nil, k)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			floatRes, err := EvaluateCopiesSelfWinPasses(ctx, field.Float{}, m, mu, st, nil, k)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			vals := []*SelfWinValues[*big.Rat]{&exactRes.SelfWinValues}
			for _, v := range exactRes.Choices {
				if v != nil {
					vals = append(vals, v)
				}
			}
			if c.rule == rules.PassAlways && exactRes.Choices[rules.Pass] == nil {
				t.Errorf("%s: a pass is legal and has no values", name)
			}
			for _, v := range vals {
				score, pairs := new(big.Rat), new(big.Rat)
				for s := range v.Score {
					score.Add(score, v.Score[s])
					pairs.Add(pairs, v.Pairs[s])
					if v.Win[s].Cmp(v.Score[s]) > 0 || new(big.Rat).Add(v.Win[s], v.Draw[s]).Cmp(v.Score[s]) < 0 {
						t.Errorf("%s: seat %d: alone %v and tied %v do not bound its score %v", name, s, v.Win[s], v.Draw[s], v.Score[s])
					}
				}
				n := big.NewRat(int64(c.pairs), 1)
				if score.Cmp(big.NewRat(1, 1)) != 0 || (c.limit == 0 && pairs.Cmp(n) != 0) || pairs.Cmp(n) > 0 {
					t.Errorf("%s: scores sum to %v, pairs to %v", name, score.RatString(), pairs.RatString())
				}
			}
			for s := range exactRes.Score {
				for _, pair := range [][2]any{{exactRes.Score[s], floatRes.Score[s]}, {exactRes.Pairs[s], floatRes.Pairs[s]}} {
					x, _ := pair[0].(*big.Rat).Float64()
					if d := x - pair[1].(float64); d > 1e-12 || d < -1e-12 {
						t.Errorf("%s: seat %d: float64 %v, exact %v", name, s, pair[1], x)
					}
				}
			}
		}
	}
}
