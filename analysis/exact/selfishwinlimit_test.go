package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// selfWinLimitModel returns the standard game under a turn limit, sequential or blind flips.
func selfWinLimitModel(limit int, blind bool) Model {
	m := Model{Variant: rules.Variant{TurnLimit: limit}}
	if blind {
		m.Variant.Flips = rules.FlipsBlind
	}
	return m
}

// selfWinLimitLineups are lineups the win objective under a limit is checked with: every seat
// win-optimal, win-best-response beside safe, and win-optimal beside safe and daring.
func selfWinLimitLineups(p int) [][]rules.Policy {
	all := make([]rules.Policy, p)
	reply := make([]rules.Policy, p)
	mixed := make([]rules.Policy, p)
	for i := range all {
		all[i] = rules.PolicyWinOptimal
		reply[i] = rules.PolicySafe
		mixed[i] = []rules.Policy{rules.PolicySafe, rules.PolicyDaring}[i%2]
	}
	reply[0] = rules.PolicyWinBestResponse
	mixed[0] = rules.PolicyWinOptimal
	return [][]rules.Policy{all, reply, mixed}
}

// TestSelfWinLimitMatchesCardSearch compares every seat's score under a turn limit in the
// standard game, at three seats (two and three pairs) and four seats (two pairs), limits 1 to 5,
// with a search over every deal card by card in which every turn uses one of the turns left and
// with none left the pairs taken decide, from no pairs and from uneven standings, under sequential
// and blind flips.
func TestSelfWinLimitMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, c := range []struct{ players, pairs int }{{3, 2}, {3, 3}, {4, 2}} {
		if testing.Short() && c.pairs == 3 {
			continue
		}
		all := everyDeal(c.pairs, 2)
		for limit := 1; limit <= 5; limit++ {
			for _, blind := range []bool{false, true} {
				if testing.Short() && (c.pairs == 3 || c.players == 4) && (blind || limit%2 == 0) {
					continue
				}
				m := selfWinLimitModel(limit, blind)
				for li, pol := range selfWinLimitLineups(c.players) {
					// Under -short each limit and flip mode is checked with one of the three
					// lineups, each lineup at several of them.
					if testing.Short() && (li+limit+boolIndex(blind))%3 != 0 {
						continue
					}
					for _, standings := range [][]int{nil, []int{1, 0, 2, 0}[:c.players]} {
						name := fmt.Sprintf("%d seats, %d pairs, limit %d, blind %v, %v, standings %v", c.players, c.pairs, limit, blind, pol, standings)
						res, err := EvaluateStandings(ctx, f, m, SeatLineup(pol...), rules.State{N: c.pairs, J: c.pairs}, standings)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want := newWinSearch(all, pol, blind, limit, rules.PassNever).value(startCards(len(all[0]), c.players, standings, limit, 0))
						sameRats(t, name+": P(most pairs)", res.Score, want[:len(res.Score)])
					}
				}
			}
		}
	}
}

// TestSelfWinLimitIsCopiesModel compares the count state's values under a turn limit with the
// copies model's of two cards to a face under the same limit, a second method over the state of
// faces: every seat's score, alone, tied and expected pairs, the mover's choice and every legal
// choice's values, at three to five seats, several lineups (optimal among them, each at one of the
// limits), standings and limits, under sequential and blind flips.
func TestSelfWinLimitIsCopiesModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	cases := []struct{ players, pairs int }{{3, 3}, {4, 2}}
	if !testing.Short() {
		cases = append(cases, struct{ players, pairs int }{3, 4}, struct{ players, pairs int }{5, 2})
	}
	for _, c := range cases {
		lineups := selfWinLimitLineups(c.players)
		withOptimal := append([]rules.Policy(nil), lineups[0]...)
		withOptimal[1] = rules.PolicyOptimal
		lineups = append(lineups, withOptimal)
		for k, limit := range []int{2, c.pairs + 1, 2 * c.pairs} {
			for _, blind := range []bool{false, true} {
				if testing.Short() && blind == (limit == 2) {
					continue
				}
				m := selfWinLimitModel(limit, blind)
				start, err := StartCopiesState(c.pairs, 2)
				if err != nil {
					t.Fatal(err)
				}
				for li, pol := range lineups {
					// Each lineup is checked at one of the limits, every limit with one or two
					// of the lineups (under -short, under one of the flips).
					if (li+k)%3 != 0 {
						continue
					}
					mu := SeatLineup(pol...)
					for si, standings := range [][]int{nil, []int{0, 2, 1, 0, 1}[:c.players]} {
						if testing.Short() && (si+li+c.players)%2 != 0 {
							continue // the short form plays one of the standings, in turn
						}
						name := fmt.Sprintf("%d seats, %d pairs, limit %d, blind %v, %v, standings %v", c.players, c.pairs, limit, blind, pol, standings)
						got, err := EvaluateStandings(ctx, f, m, mu, rules.State{N: c.pairs, J: c.pairs}, standings)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want, err := EvaluateCopiesSelfWin(ctx, f, m, mu, start, standings)
						if err != nil {
							t.Fatalf("%s: copies: %v", name, err)
						}
						sameSelfWinValues(t, name, &got.SelfWinValues, &want.SelfWinValues)
						if got.Choice != want.Choice {
							t.Errorf("%s: choice %s, copies model %s", name, got.Choice, want.Choice)
						}
						for _, ch := range rules.Choices() {
							if (got.Choices[ch] == nil) != (want.Choices[ch] == nil) {
								t.Errorf("%s: %s legal %v, copies model %v", name, ch, got.Choices[ch] != nil, want.Choices[ch] != nil)
								continue
							}
							if got.Choices[ch] != nil {
								sameSelfWinValues(t, fmt.Sprintf("%s: %s", name, ch), got.Choices[ch], want.Choices[ch])
							}
						}
					}
				}
			}
		}
	}
}

// TestSelfWinLimitLongLimitIsNoLimit checks that a turn limit no game reaches (3n turns for n
// pairs, two more per singleton) gives the values and every choice's values of the win objective
// without a limit exactly, with and without singletons, from a state part known and uneven
// standings, every seat win-optimal and win-optimal beside optimal and daring.
func TestSelfWinLimitLongLimitIsNoLimit(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, c := range []struct {
		players int
		st      rules.State
	}{{3, rules.State{N: 3, J: 3}}, {3, rules.State{N: 3, J: 2, S: 1, F: 1}}, {4, rules.State{N: 2, J: 2, S: 1, F: 1}}, {3, rules.State{N: 4, J: 2, S: 1, F: 1}}} {
		if testing.Short() && c.st.N+c.players+c.st.S > 6 {
			continue
		}
		pol := []rules.Policy{rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicyDaring, rules.PolicyWinOptimal}[:c.players]
		for _, mu := range []Lineup{{Players: c.players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, SeatLineup(pol...)} {
			for _, standings := range [][]int{nil, []int{2, 0, 1, 0}[:c.players]} {
				base := Model{Singletons: c.st.S}
				m := base
				m.Variant.TurnLimit = 3*c.st.N + 2*c.st.S
				name := fmt.Sprintf("%d seats, %v, %v, standings %v", c.players, c.st, mu.SeatPolicies(), standings)
				got, err := EvaluateStandings(ctx, f, m, mu, c.st, standings)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := EvaluateStandings(ctx, f, base, mu, c.st, standings)
				if err != nil {
					t.Fatalf("%s: no limit: %v", name, err)
				}
				sameSelfWinValues(t, name, &got.SelfWinValues, &want.SelfWinValues)
				if got.Choice != want.Choice {
					t.Errorf("%s: choice %s, without a limit %s", name, got.Choice, want.Choice)
				}
				for _, ch := range rules.Choices() {
					if want.Choices[ch] != nil && got.Choices[ch] != nil {
						sameSelfWinValues(t, fmt.Sprintf("%s: %s", name, ch), got.Choices[ch], want.Choices[ch])
					} else if (want.Choices[ch] == nil) != (got.Choices[ch] == nil) {
						t.Errorf("%s: %s legal %v, without a limit %v", name, ch, got.Choices[ch] != nil, want.Choices[ch] != nil)
					}
				}
			}
		}
	}
}

// TestSelfWinLimitTwoSeatsIsLimitWin checks that the sweep run at two seats gives, under a turn
// limit, the two-player win objective's P(win) + P(draw)/2 (limitwin.go) for both seats, at several
// leads so far, with and without singletons, under sequential and blind flips.
func TestSelfWinLimitTwoSeatsIsLimitWin(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	half := big.NewRat(1, 2)
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, st := range []rules.State{{N: 3, J: 3}, {N: 5, J: 3, S: 1, F: 0}} {
		if testing.Short() && st.N > 3 {
			continue
		}
		// Blind flips with singletons have no exact model.
		for _, limit := range []int{1, 3, 6} {
			for _, blind := range []bool{false, st.S == 0} {
				m := selfWinLimitModel(limit, blind)
				m.Singletons = st.S
				for _, standings := range [][]int{{0, 0}, {2, 0}, {0, 1}} {
					name := fmt.Sprintf("%v, limit %d, blind %v, standings %v", st, limit, blind, standings)
					got, err := evaluateSelfWinLimit(ctx, f, m, 2, st, standings, nil, nil)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					at := st
					at.Lead = standings[0] - standings[1]
					wdl, err := limitWinDrawLoss(ctx, f, m, mu, at)
					if err != nil {
						t.Fatalf("%s: two-player win: %v", name, err)
					}
					want := new(big.Rat).Add(wdl[0].Win, new(big.Rat).Mul(half, wdl[0].Draw))
					if got.Score[0].Cmp(want) != 0 || got.Win[0].Cmp(wdl[0].Win) != 0 || got.Draw[0].Cmp(wdl[0].Draw) != 0 {
						t.Errorf("%s: score %v (alone %v, tied %v), two-player win %v (win %v, draw %v)", name,
							got.Score[0].RatString(), got.Win[0].RatString(), got.Draw[0].RatString(), want.RatString(), wdl[0].Win.RatString(), wdl[0].Draw.RatString())
					}
				}
			}
		}
	}
}

// TestSelfWinLimitScoresAddUp checks under a turn limit that the seats' scores sum to 1, that
// alone and tied bound a seat's score, that the expected pairs taken sum to at most the pairs on
// the table (fewer where the limit ends games early), for every legal choice too, and that
// float64 agrees with the exact values.
func TestSelfWinLimitScoresAddUp(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		players, limit int
		st             rules.State
		blind          bool
	}{{3, 3, rules.State{N: 3, J: 3}, false}, {3, 2, rules.State{N: 3, J: 3}, true}, {4, 3, rules.State{N: 3, J: 2, S: 1, F: 1}, false},
		{3, 5, rules.State{N: 6, J: 6}, false}, {4, 5, rules.State{N: 4, J: 3}, false}, {5, 3, rules.State{N: 4, J: 4, S: 1, F: 1}, false}, {3, 6, rules.State{N: 6, J: 6}, true}} {
		if testing.Short() && (c.st.N > 3 || c.players > 3) {
			continue
		}
		m := selfWinLimitModel(c.limit, c.blind)
		m.Singletons = c.st.S
		name := fmt.Sprintf("%d seats, %v, limit %d, blind %v", c.players, c.st, c.limit, c.blind)
		exactRes, err := EvaluateSelfWin(ctx, field.Rat{}, m, c.players, c.st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		floatRes, err := EvaluateSelfWin(ctx, field.Float{}, m, c.players, c.st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vals := []*SelfWinValues[*big.Rat]{&exactRes.SelfWinValues}
		for _, v := range exactRes.Choices {
			if v != nil {
				vals = append(vals, v)
			}
		}
		shortOf := false
		for _, v := range vals {
			score, pairs := new(big.Rat), new(big.Rat)
			for s := range v.Score {
				score.Add(score, v.Score[s])
				pairs.Add(pairs, v.Pairs[s])
				if v.Win[s].Cmp(v.Score[s]) > 0 || new(big.Rat).Add(v.Win[s], v.Draw[s]).Cmp(v.Score[s]) < 0 {
					t.Errorf("%s: seat %d: alone %v and tied %v do not bound its score %v", name, s, v.Win[s], v.Draw[s], v.Score[s])
				}
			}
			if score.Cmp(big.NewRat(1, 1)) != 0 || pairs.Cmp(big.NewRat(int64(c.st.N), 1)) > 0 {
				t.Errorf("%s: scores sum to %v, pairs to %v", name, score.RatString(), pairs.RatString())
			}
			shortOf = shortOf || pairs.Cmp(big.NewRat(int64(c.st.N), 1)) < 0
		}
		if !shortOf {
			t.Errorf("%s: the limit ends no game with pairs left, so the case checks nothing of it", name)
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

// TestSelfWinLimitTables checks that the engine's table under a turn limit has a layer per turn
// left whose choice, at every count state and standings, is the mover's choice of the solver's
// values with those turns left, every seat win-optimal and win-optimal beside safe and daring.
func TestSelfWinLimitTables(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	limit, maxPairs := 4, 3
	if testing.Short() {
		limit, maxPairs = 3, 2
	}
	m := selfWinLimitModel(limit, false)
	for _, mu := range []Lineup{{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, SeatLineup(rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring)} {
		tab, err := PolicyTable(ctx, f, m, mu, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		if tab.TurnLimit() != limit || tab.Standings() == nil {
			t.Fatalf("%v: table of %d layers, standings %v; want %d layers of standings", mu.SeatPolicies(), tab.TurnLimit(), tab.Standings() != nil, limit)
		}
		checked := 0
		for left := 1; left <= limit; left++ {
			ml := selfWinLimitModel(left, false)
			for n := 1; n <= maxPairs; n++ {
				for j := 0; j <= n; j++ {
					st := rules.State{N: n, J: j}
					for _, standings := range [][]int{{0, 0, 0}, {1, 0, 0}, {0, 2, 1}} {
						res, err := EvaluateStandings(ctx, f, ml, mu, st, standings)
						if err != nil {
							t.Fatal(err)
						}
						got, ok := tab.StandingsTurnsLeft(left).Lookup(st, standings)
						if !ok || got != res.Choice {
							t.Errorf("%v, %v, %d turns left, standings %v: table %s (%v), solver %s", mu.SeatPolicies(), st, left, standings, got, ok, res.Choice)
						}
						checked++
					}
				}
			}
		}
		if checked == 0 {
			t.Fatal("no state checked")
		}
	}
}

// boolIndex is 1 for true and 0 for false, to rotate the short forms' cases.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
