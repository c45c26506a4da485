package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// limitTurnChooser returns a card player's choice function that reads the layer of tables with the
// turns left, turn counting from 1 under the limit.
func limitTurnChooser(t *testing.T, tables []*rules.CopiesTable, limit int) func(turn int, counts []int) rules.Choice {
	return func(turn int, counts []int) rules.Choice {
		c, ok := tables[limit-turn].Lookup(counts)
		if !ok {
			t.Fatalf("no choice in %v with %d turns left", counts, limit-turn+1)
		}
		return c
	}
}

// TestCopiesLimitTablesMatchCardPlay plays every deal of small decks card by card under turn
// limits, the table policies reading the layer of their tables with the turns left, and compares
// every seat's average pairs with EvaluateCopies and, for two players, the share of the deals in
// which each seat takes each number of pairs, and seat 0 wins, draws or loses, with
// CopiesDistribution, exactly.
func TestCopiesLimitTablesMatchCardPlay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ faces, copies int }
	decks := []deck{{2, 4}, {2, 6}, {3, 4}}
	if testing.Short() {
		decks = decks[:2]
	}
	lineups := []Lineup{
		{Players: 1, Policy: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
	}
	for _, dk := range decks {
		pairs := dk.faces * dk.copies / 2
		start, err := StartCopiesState(pairs, dk.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, 2, 3, 5} {
			m := Model{Variant: rules.Variant{Copies: dk.copies, TurnLimit: limit}}
			for _, mu := range lineups {
				name := fmt.Sprintf("%d faces of %d, turn limit %d, %s", dk.faces, dk.copies, limit, lineupName(mu))
				seats := []func(turn int, counts []int) rules.Choice{fixedChooser(mu.Policy), fixedChooser(mu.Opponent)}
				for i, p := range []rules.Policy{mu.Policy, mu.Opponent}[:mu.Players] {
					if p.Fixed() {
						continue
					}
					tm := Lineup{Players: mu.Players, Policy: p, Opponent: p}
					if i == 0 {
						tm = mu
					}
					tables, err := CopiesPolicyTurnTables(ctx, f, m, tm, pairs)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(tables) != limit {
						t.Fatalf("%s: %d layers, want %d", name, len(tables), limit)
					}
					seats[i] = limitTurnChooser(t, tables, limit)
				}
				sum := make([]int64, mu.Players)
				share := [2][]int64{make([]int64, pairs+1), make([]int64, pairs+1)}
				var count, win, draw, loss int64
				deals(dk.faces, dk.copies, func(deal []int) {
					ps, _, _ := playCardGame(deal, nil, cardRules{copies: dk.copies, players: mu.Players, limit: limit},
						func(seat, turn int, counts []int) rules.Choice { return seats[seat](turn, counts) })
					for i, x := range ps {
						sum[i] += int64(x)
						share[i][x]++
					}
					if mu.Players == 2 {
						switch {
						case ps[0] > ps[1]:
							win++
						case ps[0] == ps[1]:
							draw++
						default:
							loss++
						}
					}
					count++
				})
				mean := func(x int64) *big.Rat { return big.NewRat(x, count) }
				res, err := EvaluateCopies(ctx, f, m, mu, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i := range sum {
					if res.PairsBySeat[i].Cmp(mean(sum[i])) != 0 {
						t.Errorf("%s: seat %d takes %v pairs, %v over every deal", name, i, res.PairsBySeat[i], mean(sum[i]))
					}
				}
				if mu.Players != 2 {
					continue
				}
				d, err := CopiesDistribution(ctx, f, m, mu, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for s := range 2 {
					for i, p := range d.SeatProb(s) {
						want := new(big.Rat)
						if i%2 == 0 {
							want = mean(share[s][i/2])
						}
						if p.Cmp(want) != 0 {
							t.Errorf("%s: P(seat %d takes %d/2 pairs) = %v, %v over every deal", name, s, i, p, want)
						}
					}
				}
				for _, x := range []struct {
					what string
					got  *big.Rat
					want int64
				}{{"win", d.Win, win}, {"draw", d.Draw, draw}, {"loss", d.Loss, loss}} {
					if x.got.Cmp(mean(x.want)) != 0 {
						t.Errorf("%s: P(%s) = %v, %v over every deal", name, x.what, x.got, mean(x.want))
					}
				}
			}
		}
	}
}

// fixedChooser returns the choice function of a fixed policy under copies (safe where a card is
// remembered, else daring), or nil for a policy played from a table.
func fixedChooser(p rules.Policy) func(turn int, counts []int) rules.Choice {
	if !p.Fixed() {
		return nil
	}
	return func(_ int, counts []int) rules.Choice {
		if p == rules.PolicySafe && remembered(counts) > 0 {
			return rules.Safe
		}
		return rules.Daring
	}
}

// TestCopiesLimitSolitaireIsBestOfEveryPolicy checks the solitaire optimum under a turn limit
// against every policy over the states and turns left: at a deck of two faces of four cards, each
// assignment of a legal choice to every state with a remembered card and every number of turns
// left a game reaches is played over every deal card by card, and none may take more pairs on
// average than the optimum's table, which must take as many as the best of them.
func TestCopiesLimitSolitaireIsBestOfEveryPolicy(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	const faces, copies = 2, 4
	pairs := faces * copies / 2
	for _, limit := range []int{2, 3, 4} {
		m := Model{Variant: rules.Variant{Copies: copies, TurnLimit: limit}}
		mu := Lineup{Players: 1, Policy: rules.PolicyOptimal}
		tables, err := CopiesPolicyTurnTables(ctx, f, m, mu, pairs)
		if err != nil {
			t.Fatal(err)
		}
		// The decisions: the states with a remembered card, with each number of turns left, that
		// some policy reaches (every choice is a candidate there).
		type point struct {
			key  string
			left int
		}
		index := map[point]int{}
		var free []point
		assign := []int{} // the choice index of each decision, into choicesAt
		choicesAt := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}
		play := func(record bool) *big.Rat {
			var sum, count int64
			deals(faces, copies, func(deal []int) {
				ps, _, _ := playCardGame(deal, nil, cardRules{copies: copies, players: 1, limit: limit}, func(_, turn int, counts []int) rules.Choice {
					if remembered(counts) == 0 {
						return rules.Daring
					}
					pt := point{string(rules.AppendCopiesKey(nil, counts)), limit - turn + 1}
					i, ok := index[pt]
					if !ok {
						if !record {
							t.Fatalf("turn limit %d: a policy reaches %v with %d turns left, which no recorded policy did", limit, counts, pt.left)
						}
						i = len(free)
						index[pt] = i
						free = append(free, pt)
						assign = append(assign, 0)
					}
					return choicesAt[assign[i]]
				})
				sum += int64(ps[0])
				count++
			})
			return big.NewRat(sum, count)
		}
		// Record the decisions every policy reaches: grow the set until no assignment of the
		// decisions found so far reaches a new one.
		var best *big.Rat
		for grown := true; grown; {
			grown = false
			n := len(free)
			best = nil
			for code := range pow3(n) {
				for i, c := 0, code; i < n; i, c = i+1, c/3 {
					assign[i] = c % 3
				}
				v := play(true)
				if len(free) > n {
					grown = true
					break
				}
				if best == nil || v.Cmp(best) > 0 {
					best = v
				}
			}
		}
		var sum, count int64
		choose := limitTurnChooser(t, tables, limit)
		deals(faces, copies, func(deal []int) {
			ps, _, _ := playCardGame(deal, nil, cardRules{copies: copies, players: 1, limit: limit}, func(_, turn int, counts []int) rules.Choice { return choose(turn, counts) })
			sum += int64(ps[0])
			count++
		})
		got := big.NewRat(sum, count)
		t.Logf("turn limit %d: %d decisions, best of %d policies %v, the table %v", limit, len(free), pow3(len(free)), best, got)
		if got.Cmp(best) != 0 {
			t.Errorf("turn limit %d: the optimum's table takes %v pairs, the best of every policy %v", limit, got, best)
		}
	}
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}
