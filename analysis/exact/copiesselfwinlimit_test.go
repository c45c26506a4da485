package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesSelfWinLimitModel returns the copies model of k cards to a face under the turn limit and
// flip rule given.
func copiesSelfWinLimitModel(k, limit int, blind bool) Model {
	m := Model{Variant: rules.Variant{Copies: k, TurnLimit: limit}}
	if blind {
		m.Variant.Flips = rules.FlipsBlind
	}
	return m
}

// TestCopiesSelfWinLimitMatchesCardSearch compares every seat's score under a turn limit, at
// three seats every seat win-optimal and win-best-response beside safe, with a search over every
// deal card by card in which every turn uses one of the turns left, from no pairs and from uneven
// standings, under sequential and blind flips.
func TestCopiesSelfWinLimitMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	decks := []struct{ faces, copies int }{{2, 4}, {3, 2}}
	lineups := []struct {
		mu  Lineup
		pol []rules.Policy
	}{
		{Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
			[]rules.Policy{rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal}},
		{Lineup{Players: 3, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
			[]rules.Policy{rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicySafe}},
	}
	for _, d := range decks {
		all := everyDeal(d.faces, d.copies)
		pairs := d.faces * d.copies / 2
		st, err := StartCopiesState(pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for limit := 1; limit <= 4; limit++ {
			for _, blind := range []bool{false, true} {
				m := copiesSelfWinLimitModel(d.copies, limit, blind)
				for _, l := range lineups {
					for _, standings := range [][]int{nil, {1, 0, 1}} {
						name := fmt.Sprintf("%d faces of %d, limit %d, blind %v, %v, standings %v", d.faces, d.copies, limit, blind, l.pol, standings)
						res, err := EvaluateCopiesSelfWin(ctx, f, m, l.mu, st, standings)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want := newWinSearch(all, l.pol, blind, limit, rules.PassNever).value(startCards(len(all[0]), 3, standings, limit, 0))
						sameRats(t, name+": P(most pairs)", res.Score, want[:len(res.Score)])
					}
				}
			}
		}
	}
}

// TestCopiesSelfWinLongLimitIsNoLimit checks that a turn limit no game reaches, 3n turns for n
// pairs, gives the values and every choice's values without a limit exactly.
func TestCopiesSelfWinLongLimitIsNoLimit(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, c := range []struct {
		copies, pairs int
		pol           []rules.Policy
		blind         bool
	}{
		{4, 4, []rules.Policy{rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal}, false},
		{4, 4, []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyOptimal}, true},
		{6, 3, []rules.Policy{rules.PolicyDaring, rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal}, false},
	} {
		st, err := StartCopiesState(c.pairs, c.copies)
		if err != nil {
			t.Fatal(err)
		}
		mu := SeatLineup(c.pol...)
		free, err := EvaluateCopiesSelfWin(ctx, f, copiesSelfWinLimitModel(c.copies, 0, c.blind), mu, st, []int{0, 1, 0, 0}[:len(c.pol)])
		if err != nil {
			t.Fatal(err)
		}
		limited, err := EvaluateCopiesSelfWin(ctx, f, copiesSelfWinLimitModel(c.copies, 3*c.pairs, c.blind), mu, st, []int{0, 1, 0, 0}[:len(c.pol)])
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("copies %d, %d pairs, %v, blind %v", c.copies, c.pairs, c.pol, c.blind)
		sameSelfWinValues(t, name, &limited.SelfWinValues, &free.SelfWinValues)
		if limited.Choice != free.Choice {
			t.Errorf("%s: choice %s, without a limit %s", name, limited.Choice, free.Choice)
		}
		for ch, v := range free.Choices {
			if (v == nil) != (limited.Choices[ch] == nil) {
				t.Errorf("%s: %s legal %v, without a limit %v", name, rules.Choice(ch), limited.Choices[ch] != nil, v != nil)
				continue
			}
			if v != nil {
				sameSelfWinValues(t, fmt.Sprintf("%s, %s", name, rules.Choice(ch)), limited.Choices[ch], v)
			}
		}
	}
}

func sameSelfWinValues(t *testing.T, name string, got, want *SelfWinValues[*big.Rat]) {
	t.Helper()
	sameRats(t, name+": score", got.Score, want.Score)
	sameRats(t, name+": alone", got.Win, want.Win)
	sameRats(t, name+": tied", got.Draw, want.Draw)
	sameRats(t, name+": pairs", got.Pairs, want.Pairs)
}

// TestCopiesSelfWinLimitScoresAddUp checks under a turn limit that the seats' scores sum to 1,
// that alone and tied bound a seat's score, and that the expected pairs taken by the limit sum
// to at most the pairs on the table (fewer where a limit ends games early), for every legal choice
// too; and that float64 agrees with the exact values.
func TestCopiesSelfWinLimitScoresAddUp(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		copies, pairs, players, limit int
		blind                         bool
	}{{4, 6, 3, 5, false}, {6, 6, 4, 7, false}, {4, 4, 5, 3, true}, {8, 8, 3, 6, true}} {
		m := copiesSelfWinLimitModel(c.copies, c.limit, c.blind)
		mu := Lineup{Players: c.players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		st, err := StartCopiesState(c.pairs, c.copies)
		if err != nil {
			t.Fatal(err)
		}
		exactRes, err := EvaluateCopiesSelfWin(ctx, field.Rat{}, m, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		floatRes, err := EvaluateCopiesSelfWin(ctx, field.Float{}, m, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("copies %d, %d pairs, %d seats, limit %d, blind %v", c.copies, c.pairs, c.players, c.limit, c.blind)
		vals := []*SelfWinValues[*big.Rat]{&exactRes.SelfWinValues}
		for _, v := range exactRes.Choices {
			if v != nil {
				vals = append(vals, v)
			}
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
			if score.Cmp(big.NewRat(1, 1)) != 0 || pairs.Cmp(big.NewRat(int64(c.pairs), 1)) > 0 {
				t.Errorf("%s: scores sum to %v, pairs to %v", name, score.RatString(), pairs.RatString())
			}
		}
		for s := range exactRes.Score {
			x, _ := exactRes.Score[s].Float64()
			if d := x - floatRes.Score[s]; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s: seat %d: float64 %v, exact %v", name, s, floatRes.Score[s], x)
			}
		}
	}
}

// TestCopiesSelfWinLimitTwoSeatsIsCopiesWin checks that at two seats under a turn limit the
// score, P(most pairs) with a tie shared, is the two-player win objective's P(win) + P(draw)/2
// under copies and the same limit, at several leads so far, under sequential and blind flips.
func TestCopiesSelfWinLimitTwoSeatsIsCopiesWin(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	half := big.NewRat(1, 2)
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, c := range []struct{ copies, pairs, limit int }{{4, 4, 3}, {4, 6, 5}, {6, 6, 4}} {
		for _, blind := range []bool{false, true} {
			m := copiesSelfWinLimitModel(c.copies, c.limit, blind)
			st, err := StartCopiesState(c.pairs, c.copies)
			if err != nil {
				t.Fatal(err)
			}
			s, err := buildCopiesSelfWin(ctx, f, m, []rules.Policy{rules.PolicyWinOptimal, rules.PolicyWinOptimal})
			if err != nil {
				t.Fatal(err)
			}
			for _, standings := range [][]int{{0, 0}, {2, 0}, {0, 1}} {
				d := make([]int, 2)
				rules.Deficits(d, standings, c.pairs)
				cell, err := s.get(st.vec(), d, 0, c.limit, 0)
				if err != nil {
					t.Fatal(err)
				}
				_, win, err := CopiesWinValues(ctx, f, m, mu, st, standings[0]-standings[1])
				if err != nil {
					t.Fatal(err)
				}
				want := new(big.Rat).Add(win.Value.Win, new(big.Rat).Mul(half, win.Value.Draw))
				if got := cell.vals[0]; got.Cmp(want) != 0 {
					t.Errorf("copies %d, %d pairs, limit %d, blind %v, standings %v: score %v, two-player win %v", c.copies, c.pairs, c.limit, blind, standings, got.RatString(), want.RatString())
				}
			}
		}
	}
}

// TestCopiesSelfWinLimitTables checks that the tables under a turn limit have a layer per turn
// left, each choice that of the solver's state at those turns left, and that the table without
// a limit is refused under one and the layers without one.
func TestCopiesSelfWinLimitTables(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	mu := Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	m := copiesSelfWinLimitModel(4, 4, false)
	layers, err := CopiesSelfWinPolicyTurnTables(ctx, f, m, mu, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 4 {
		t.Fatalf("%d layers, want 4", len(layers))
	}
	start, err := StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	// The start of the deal with every turn left, and after a first turn's miss (both faces
	// half-known) with one turn fewer.
	for _, c := range []struct {
		st CopiesState
		tl int
	}{{start, 4}, {CopiesState{Unknown: []int{0, 0}, Half: []int{0, 2}}, 3}} {
		res, err := EvaluateCopiesSelfWin(ctx, f, copiesSelfWinLimitModel(4, c.tl, false), mu, c.st, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := layers[c.tl-1].LookupStandingsKey(rules.AppendCopiesKey(nil, c.st.vec()), []int{0, 0, 0})
		if !ok || got != res.Choice {
			t.Errorf("%v, %d turns left: table %s (%v), solver %s", c.st, c.tl, got, ok, res.Choice)
		}
	}
	if _, err := CopiesSelfWinPolicyTable(ctx, f, m, mu, 4); err == nil {
		t.Error("a table without layers under a turn limit: no error")
	}
	if _, err := CopiesSelfWinPolicyTurnTables(ctx, f, copiesSelfWinLimitModel(4, 0, false), mu, 4); err == nil {
		t.Error("layers without a turn limit: no error")
	}
}
