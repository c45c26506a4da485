package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// passLimitSearch plays the standard game card by card over every deal under a turn limit and a
// pass rule, every seat for itself: a seat that plays to win takes the first choice, in the order
// daring, safe, known-first, pass, with the largest own score; safe and daring follow their rule
// and never pass. It counts the pass streak itself: a pass uses a turn, and the players-th pass
// in a row ends the game, the pairs left shared equally, whatever the turns left.
type passLimitSearch struct {
	deals   [][]int
	players int
	rule    rules.PassRule
	blind   bool
	pol     []rules.Policy
	memo    map[string][]*big.Rat
	// base is copiesWinSearch's card handling (reveal, consistent deals) over the same deals.
	base *copiesWinSearch
}

// passCards is a search state: the table, every seat's pairs, the mover, the turns left and the
// seats that passed in a row just before this turn.
type passCards struct {
	cards
	streak int
}

func (c passCards) clone() passCards { return passCards{c.cards.clone(), c.streak} }

// value returns every seat's score then every seat's expected pairs, by absolute seat, from the
// start of c.seat's turn.
func (w *passLimitSearch) value(c passCards) []*big.Rat {
	k := fmt.Sprint(c.key(), c.streak)
	if v, ok := w.memo[k]; ok {
		return v
	}
	v := w.turn(c)
	w.memo[k] = v
	return v
}

// end returns the vectors of a game over with the pairs taken so far and shared pairs left to
// every seat: the seats with the most in total share a score of 1.
func (w *passLimitSearch) end(pairs []int, shared *big.Rat) []*big.Rat {
	p := w.players
	out := ratZeros(2 * p)
	totals := make([]*big.Rat, p)
	var most *big.Rat
	for s, x := range pairs {
		totals[s] = new(big.Rat).Add(big.NewRat(int64(x), 1), shared)
		out[p+s].Set(totals[s])
		if most == nil || totals[s].Cmp(most) > 0 {
			most = totals[s]
		}
	}
	top := 0
	for _, x := range totals {
		if x.Cmp(most) == 0 {
			top++
		}
	}
	for s, x := range totals {
		if x.Cmp(most) == 0 {
			out[s].SetFrac64(1, int64(top))
		}
	}
	return out
}

func (w *passLimitSearch) turn(c passCards) []*big.Rat {
	if c.left == 0 {
		return w.end(c.pairs, new(big.Rat))
	}
	left := 0
	for _, f := range c.obs {
		if f < gone {
			left++
		}
	}
	if left == 0 {
		return w.end(c.pairs, new(big.Rat))
	}
	c = c.clone()
	c.left-- // this turn
	// A pair remembered whole is taken first.
	for a, fa := range c.obs {
		if fa < 0 || fa >= gone {
			continue
		}
		if b := c.first(func(b, fb int) bool { return b != a && fb == fa }); b >= 0 {
			return w.take(c, a, b)
		}
	}
	known := 0
	for _, f := range c.obs {
		if f >= 0 && f < gone {
			known++
		}
	}
	canPass := w.rule == rules.PassAlways || (w.rule == rules.PassTwoKnown && known >= 2)
	var best []*big.Rat
	for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass} {
		switch {
		case ch == rules.Pass && !canPass, ch != rules.Daring && ch != rules.Pass && known == 0:
			continue
		case w.pol[c.seat] == rules.PolicyDaring && ch != rules.Daring:
			continue
		case w.pol[c.seat] == rules.PolicySafe && ch != map[bool]rules.Choice{true: rules.Safe, false: rules.Daring}[known > 0]:
			continue
		}
		var v []*big.Rat
		if ch == rules.Pass {
			v = w.passTurn(c, left/2)
		} else {
			v = w.play(c, ch)
		}
		if best == nil || v[c.seat].Cmp(best[c.seat]) > 0 {
			best = v
		}
	}
	return best
}

// passTurn is a pass with n pairs left: a stalemate at the players-th pass in a row, otherwise
// the next seat's turn one pass further.
func (w *passLimitSearch) passTurn(c passCards, n int) []*big.Rat {
	if c.streak == w.players-1 {
		return w.end(c.pairs, big.NewRat(int64(n), int64(w.players)))
	}
	nc := c.clone()
	nc.seat, nc.streak = (c.seat+1)%w.players, c.streak+1
	return w.value(nc)
}

// miss hands the move to the next seat, no pass made.
func (w *passLimitSearch) miss(c passCards) []*big.Rat {
	nc := c.clone()
	nc.seat, nc.streak = (c.seat+1)%w.players, 0
	return w.value(nc)
}

// take removes the cards at a and b, a pair of the mover, who moves again.
func (w *passLimitSearch) take(c passCards, a, b int) []*big.Rat {
	nc := c.clone()
	nc.obs[a], nc.obs[b] = gone+c.obs[a], gone+c.obs[b]
	nc.pairs[c.seat]++
	nc.streak = 0
	return w.value(nc)
}

// play returns the vectors after the mover's choice ch (not a pass) in c. Under blind flips both
// cards are named first: daring names two unseen cards (the last unseen one and its remembered
// match when one is left), safe and known-first a remembered card and an unseen one.
func (w *passLimitSearch) play(c passCards, ch rules.Choice) []*big.Rat {
	unseen := func(_, f int) bool { return f == -1 }
	reveal := func(c passCards, pos int, then func(c passCards) []*big.Rat) []*big.Rat {
		return w.base.reveal(c.cards, pos, func(nc cards) []*big.Rat { return then(passCards{nc, c.streak}) })
	}
	if w.blind && ch == rules.Daring {
		x := c.first(unseen)
		y := c.first(func(pos, f int) bool { return f == -1 && pos != x })
		if y < 0 {
			return reveal(c, x, func(c passCards) []*big.Rat {
				return w.take(c, x, c.first(func(p, f int) bool { return p != x && f == c.obs[x] }))
			})
		}
		return reveal(c, x, func(c passCards) []*big.Rat {
			return reveal(c, y, func(c passCards) []*big.Rat {
				if c.obs[x] == c.obs[y] {
					return w.take(c, x, y)
				}
				return w.miss(c)
			})
		})
	}
	if ch == rules.KnownFirst || w.blind {
		x := c.first(func(_, f int) bool { return f >= 0 && f < gone })
		y := c.first(unseen)
		return reveal(c, y, func(c passCards) []*big.Rat {
			if c.obs[y] == c.obs[x] {
				return w.take(c, x, y)
			}
			return w.miss(c)
		})
	}
	x := c.first(unseen)
	return reveal(c, x, func(c passCards) []*big.Rat {
		if p := c.first(func(p, f int) bool { return p != x && f == c.obs[x] }); p >= 0 {
			return w.take(c, x, p)
		}
		if ch == rules.Safe {
			return w.miss(c) // a remembered card of another face
		}
		y := c.first(unseen)
		return reveal(c, y, func(c passCards) []*big.Rat {
			if c.obs[x] == c.obs[y] {
				return w.take(c, x, y)
			}
			return w.miss(c)
		})
	})
}

// TestSelfWinLimitPassMatchesCardSearch compares every seat's score and expected pairs (a
// stalemate's share included) under a turn limit and the pass rules two-known and always, at three
// seats (two and three pairs) and four seats (two pairs), limits 1 to 6, sequential and blind
// flips, with a search over every deal card by card that counts the pass streak itself, from no
// pairs and from uneven standings, every seat win-optimal, win-best-response beside safe and
// win-optimal beside safe and daring.
func TestSelfWinLimitPassMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, c := range []struct{ players, pairs int }{{3, 2}, {3, 3}, {4, 2}} {
		if testing.Short() && c.pairs == 3 {
			continue
		}
		all := everyDeal(c.pairs, 2)
		for limit := 1; limit <= 6; limit++ {
			for ri, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
				if testing.Short() && (limit%2 == 0 || (c.pairs == 3 || c.players == 4) && (limit != 5 || rule == rules.PassTwoKnown)) {
					continue
				}
				// At three pairs the rules take the limits in turn: two-known the odd, always the even.
				if c.pairs == 3 && (limit%2 == 0) == (rule == rules.PassTwoKnown) {
					continue
				}
				for _, blind := range []bool{false, true} {
					if blind && (limit%3 != 0 || testing.Short() && (c.pairs+c.players > 5 || limit != 3)) {
						continue
					}
					m := Model{Pass: rule, Variant: rules.Variant{TurnLimit: limit}}
					if blind {
						m.Variant.Flips = rules.FlipsBlind
					}
					for li, pol := range selfWinLimitLineups(c.players) {
						// Under -short each limit, pass rule and flip mode at three seats is
						// checked with one of the three lineups, each lineup at several of them.
						if testing.Short() && c.players == 3 && (li+limit+ri+boolIndex(blind))%3 != 0 {
							continue
						}
						for si, standings := range [][]int{nil, []int{1, 0, 2, 0}[:c.players]} {
							// Under -short the standings alternate with the limit and pass rule.
							if testing.Short() && (si+limit/2+ri)%2 != 0 {
								continue
							}
							name := fmt.Sprintf("%d seats, %d pairs, limit %d, pass %s, blind %v, %v, standings %v", c.players, c.pairs, limit, rule, blind, pol, standings)
							res, err := EvaluateStandings(ctx, f, m, SeatLineup(pol...), rules.State{N: c.pairs, J: c.pairs}, standings)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							// reveal averages vectors of base.players entries: scores and pairs.
							base := &copiesWinSearch{deals: all, players: 2 * c.players}
							w := &passLimitSearch{deals: all, players: c.players, rule: rule, blind: blind, pol: pol, memo: map[string][]*big.Rat{}, base: base}
							start := passCards{cards: startCards(len(all[0]), c.players, standings, limit, 0)}
							want := w.value(start)
							sameRats(t, name+": P(most pairs)", res.Score, want[:c.players])
							// The search counts the pairs taken before the start; the model those to come.
							pairs := make([]*big.Rat, c.players)
							for s := range pairs {
								pairs[s] = new(big.Rat).Sub(want[c.players+s], big.NewRat(int64(start.pairs[s]), 1))
							}
							sameRats(t, name+": expected pairs", res.Pairs, pairs)
						}
					}
				}
			}
		}
	}
}

// TestSelfWinLimitPassLongLimitIsNoLimit checks under the pass rules two-known and always that a
// turn limit no game reaches (p(3n + 1) turns: at most p-1 passes before each of at most 3n other
// turns, then p passes) gives the values and every choice's values of the win objective under the
// pass rule without a limit (selfishwinpass.go) exactly, from the start and from a state part
// known at uneven standings.
func TestSelfWinLimitPassLongLimitIsNoLimit(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, c := range []struct {
		players int
		st      rules.State
	}{{3, rules.State{N: 3, J: 3}}, {3, rules.State{N: 4, J: 2}}, {4, rules.State{N: 2, J: 1}}} {
		if testing.Short() && c.st.N != 3 {
			continue
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for _, standings := range [][]int{nil, []int{2, 0, 1, 0}[:c.players]} {
				if testing.Short() && (rule == rules.PassTwoKnown) == (standings == nil) || c.st.N == 4 && rule == rules.PassTwoKnown {
					continue
				}
				base := Model{Pass: rule}
				m := base
				m.Variant.TurnLimit = c.players * (3*c.st.N + 1)
				name := fmt.Sprintf("%d seats, %v, pass %s, standings %v", c.players, c.st, rule, standings)
				got, err := EvaluateSelfWin(ctx, f, m, c.players, c.st, standings)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := EvaluateSelfWin(ctx, f, base, c.players, c.st, standings)
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

// TestSelfWinLimitPassTwoSeatsIsLimitWin checks that the sweep run at two seats under a turn
// limit and a pass rule gives the two-player win objective's P(win) + P(draw)/2, P(win) and
// P(draw) under the same limit and pass rule (limitwin.go), at several leads so far.
func TestSelfWinLimitPassTwoSeatsIsLimitWin(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	half := big.NewRat(1, 2)
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, st := range []rules.State{{N: 3, J: 3}, {N: 4, J: 2}} {
		for _, limit := range []int{1, 2, 4, 7} {
			if testing.Short() && (st.N > 3) != (limit == 4) {
				continue
			}
			for ri, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
				m := Model{Pass: rule, Variant: rules.Variant{TurnLimit: limit}}
				for si, standings := range [][]int{{0, 0}, {2, 0}, {0, 1}} {
					if testing.Short() && (si+limit+ri)%3 != 0 {
						continue // the short form takes the standings in turn
					}
					name := fmt.Sprintf("%v, limit %d, pass %s, standings %v", st, limit, rule, standings)
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

// TestSelfWinLimitPassScoresAddUp checks under a turn limit and a pass rule that the seats'
// scores sum to 1, that alone and tied bound a seat's score, that the expected pairs (a
// stalemate's shares included) sum to at most the pairs on the table, for every legal choice too
// (a pass among them), and that float64 agrees with the exact values, every seat win-optimal and
// in a mixed lineup.
func TestSelfWinLimitPassScoresAddUp(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		players, limit int
		rule           rules.PassRule
		st             rules.State
		pol            []rules.Policy
	}{
		{3, 4, rules.PassAlways, rules.State{N: 3, J: 3}, nil},
		{3, 5, rules.PassTwoKnown, rules.State{N: 4, J: 2}, nil},
		{4, 6, rules.PassAlways, rules.State{N: 3, J: 2}, []rules.Policy{rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyWinOptimal}},
		{3, 7, rules.PassTwoKnown, rules.State{N: 5, J: 3}, []rules.Policy{rules.PolicyDaring, rules.PolicyWinOptimal, rules.PolicySafe}},
	} {
		if testing.Short() && (c.st.N > 3 || c.players > 3) {
			continue
		}
		m := Model{Pass: c.rule, Variant: rules.Variant{TurnLimit: c.limit}}
		mu := Lineup{Players: c.players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		if c.pol != nil {
			mu = SeatLineup(c.pol...)
		}
		name := fmt.Sprintf("%d seats, %v, limit %d, pass %s, %v", c.players, c.st, c.limit, c.rule, mu.SeatPolicies())
		exactRes, err := EvaluateStandings(ctx, field.Rat{}, m, mu, c.st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		floatRes, err := EvaluateStandings(ctx, field.Float{}, m, mu, c.st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vals := []*SelfWinValues[*big.Rat]{&exactRes.SelfWinValues}
		for _, v := range exactRes.Choices {
			if v != nil {
				vals = append(vals, v)
			}
		}
		if exactRes.Choices[rules.Pass] == nil {
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
			if score.Cmp(big.NewRat(1, 1)) != 0 || pairs.Cmp(big.NewRat(int64(c.st.N), 1)) > 0 {
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
