package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// sameChoices reports how two lists of the choices' values differ, or "" when every value both
// give is equal.
func sameChoices(a, b Choices[*big.Rat]) string {
	eq := func(x, y *big.Rat) bool { return (x == nil) == (y == nil) && (x == nil || x.Cmp(y) == 0) }
	if a.PolicyChoice != b.PolicyChoice || fmt.Sprint(a.Best) != fmt.Sprint(b.Best) || len(a.Values) != len(b.Values) {
		return fmt.Sprintf("policy's choice %v, best %v, %d choices; want %v, %v, %d", a.PolicyChoice, a.Best, len(a.Values), b.PolicyChoice, b.Best, len(b.Values))
	}
	if d := sameResult(a.Value, b.Value); d != "" {
		return "the state's value: " + d
	}
	for i, x := range a.Values {
		y := b.Values[i]
		ok := x.Choice == y.Choice && x.Best == y.Best && eq(x.Pairs, y.Pairs) && eq(x.Lead, y.Lead) &&
			eq(x.Turns, y.Turns) && eq(x.Lucky, y.Lucky) && eq(x.Diff, y.Diff) && len(x.PairsBySeat) == len(y.PairsBySeat)
		for s := range x.PairsBySeat {
			ok = ok && eq(x.PairsBySeat[s], y.PairsBySeat[s])
		}
		if !ok {
			return fmt.Sprintf("%v: %+v, want %+v", x.Choice, x, y)
		}
	}
	return ""
}

// TestCopiesTwoWithLimitEqualsPairModel checks that with two copies of a face the copies model
// gives the (n, j) model's values and choices' values, exactly, in every state up to 5 pairs (3
// with -short), without a limit and under turn limits.
func TestCopiesTwoWithLimitEqualsPairModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs, limits := 5, []int{0, 1, 2, 3, 5, 8}
	if testing.Short() {
		maxPairs, limits = 3, []int{0, 1, 3, 8}
	}
	for _, limit := range limits {
		m := Model{Variant: rules.Variant{TurnLimit: limit}}
		for _, mu := range copiesLineups() {
			for n := 1; n <= maxPairs; n++ {
				for j := 0; j <= n; j++ {
					name := fmt.Sprintf("turn limit %d, %s in (%d, %d)", limit, lineupName(mu), n, j)
					st := CopiesState{Unknown: []int{j}, Half: []int{n - j}}
					got, err := EvaluateCopies(ctx, f, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want, err := Evaluate(ctx, f, m, mu, rules.State{N: n, J: j})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if d := sameResult(got, want); d != "" {
						t.Errorf("%s: %s", name, d)
					}
					gotCs, err := CopiesChoiceValues(ctx, f, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					wantCs, err := ChoiceValues(ctx, f, m, mu, rules.State{N: n, J: j})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if d := sameChoices(gotCs, wantCs); d != "" {
						t.Errorf("%s: the choices' values: %s", name, d)
					}
				}
			}
		}
	}
}

// TestCopiesLimitMatchesCardPlay plays every deal of small decks of four and six cards to a face
// card by card under turn limits, each seat playing safe or daring, and compares every seat's
// average pairs (with one player also the turns and lucky matches) with EvaluateCopies; and checks
// that a limit beyond any game (2·3n + 1 turns: every turn takes a pair or turns up a card not
// seen before, and a pair left whole costs one more) gives the values and the choices' values
// without a limit, for every lineup, from the start and from a state with half-known faces.
func TestCopiesLimitMatchesCardPlay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ faces, copies int }
	decks := []deck{{2, 4}, {3, 4}, {2, 6}}
	if testing.Short() {
		decks = []deck{{2, 4}, {2, 6}}
	}
	pols := []rules.Policy{rules.PolicySafe, rules.PolicyDaring}
	for _, dk := range decks {
		pairs := dk.faces * dk.copies / 2
		for _, limit := range []int{1, 2, 3, 5} {
			m := Model{Variant: rules.Variant{Copies: dk.copies, TurnLimit: limit}}
			for _, players := range []int{1, 2, 3} {
				for _, p := range pols {
					for _, o := range pols {
						if players == 1 && o != p {
							continue
						}
						seats := []rules.Policy{p, o, o}
						mu := Lineup{Players: players, Policy: p, Opponent: o}
						choose := func(seat, _ int, counts []int) rules.Choice {
							if seats[seat] == rules.PolicySafe && remembered(counts) > 0 {
								return rules.Safe
							}
							return rules.Daring
						}
						sum := make([]int64, players)
						var turns, lucky, count int64
						deals(dk.faces, dk.copies, func(deal []int) {
							ps, tu, lu := playCardGame(deal, nil, cardRules{copies: dk.copies, players: players, limit: limit}, choose)
							for i, x := range ps {
								sum[i] += int64(x)
							}
							turns, lucky, count = turns+int64(tu), lucky+int64(lu), count+1
						})
						start, err := StartCopiesState(pairs, dk.copies)
						if err != nil {
							t.Fatal(err)
						}
						res, err := EvaluateCopies(ctx, f, m, mu, start)
						if err != nil {
							t.Fatal(err)
						}
						name := fmt.Sprintf("%d faces of %d, turn limit %d, %s", dk.faces, dk.copies, limit, lineupName(mu))
						mean := func(x int64) *big.Rat { return big.NewRat(x, count) }
						for i := range sum {
							if res.PairsBySeat[i].Cmp(mean(sum[i])) != 0 {
								t.Errorf("%s: seat %d takes %v pairs, %v over every deal", name, i, res.PairsBySeat[i], mean(sum[i]))
							}
						}
						if players == 1 && (res.ExpectedTurns.Cmp(mean(turns)) != 0 || res.ExpectedLucky.Cmp(mean(lucky)) != 0) {
							t.Errorf("%s: turns %v lucky %v, %v and %v over every deal", name, res.ExpectedTurns, res.ExpectedLucky, mean(turns), mean(lucky))
						}
					}
				}
			}
		}
		for _, mu := range copiesLineups() {
			half := CopiesState{Unknown: make([]int, dk.copies/2), Half: make([]int, dk.copies/2)}
			half.Unknown[dk.copies/2-1], half.Half[dk.copies/2-1] = dk.faces-1, 1
			start, err := StartCopiesState(pairs, dk.copies)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range []CopiesState{start, half} {
				m := Model{Variant: rules.Variant{Copies: dk.copies}}
				want, err := CopiesChoiceValues(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				m.Variant.TurnLimit = 2*3*pairs + 1
				got, err := CopiesChoiceValues(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%v, %s, turn limit %d", st, lineupName(mu), m.Variant.TurnLimit)
				if d := sameResult(got.Value, want.Value); d != "" && mu.Players != 1 {
					t.Errorf("%s: %s", name, d)
				}
				for i, g := range got.Values {
					w := want.Values[i]
					if g.Choice != w.Choice || g.Best != w.Best || (mu.Players == 1 && g.Turns.Cmp(w.Turns) != 0) ||
						(mu.Players > 1 && g.Pairs.Cmp(w.Pairs) != 0) {
						t.Errorf("%s: %v: %+v under the limit, %+v without", name, g.Choice, g, w)
					}
				}
				if got.PolicyChoice != want.PolicyChoice {
					t.Errorf("%s: the policy plays %v under the limit, %v without", name, got.PolicyChoice, want.PolicyChoice)
				}
			}
		}
	}
}
