package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// playFrom plays a deal of pairs only to the end as playVariantDeal does (perfect shared memory,
// pass rule never, docs/models.md §1.7 and §5.2), from a table on which the cards at the positions
// of known are remembered already.
func playFrom(face []int, known []bool, players int, v variantGame, decide func(seat int, st rules.State) rules.Choice) gameTally {
	L := len(face)
	partner := make([]int, L)
	for i := range partner {
		for k := range face {
			if k != i && face[k] == face[i] {
				partner[i] = k
			}
		}
	}
	present := make([]bool, L)
	for i := range present {
		present[i] = true
	}
	known = append([]bool(nil), known...)
	res := gameTally{pairs: make([]int64, players)}
	left, mover := L/2, 0
	take := func(a, b int) {
		present[a], present[b] = false, false
		res.pairs[mover]++
		left--
	}
	lowest := func(ok func(i int) bool) int {
		for i := range L {
			if present[i] && ok(i) {
				return i
			}
		}
		return -1
	}
	for left > 0 && (v.limit == 0 || res.turns < int64(v.limit)) {
		res.turns++
		if a := lowest(func(i int) bool { return known[i] && known[partner[i]] }); a >= 0 {
			take(a, partner[a])
			continue
		}
		var st rules.State
		for i := range L {
			if present[i] && i < partner[i] {
				st.N++
				if !known[i] && !known[partner[i]] {
					st.J++
				}
			}
		}
		choice := decide(mover, st)
		a := lowest(func(i int) bool { return !known[i] })
		var b int
		switch {
		case !v.blind && known[partner[a]]:
			b = partner[a]
		case choice == rules.Safe:
			b = lowest(func(i int) bool { return known[i] })
		default:
			if b = lowest(func(i int) bool { return !known[i] && i != a }); b < 0 {
				b = lowest(func(i int) bool { return known[i] })
			}
		}
		lucky := !known[b]
		known[a], known[b] = true, true
		if partner[a] == b {
			if lucky {
				res.lucky++
			}
			take(a, b)
			continue
		}
		mover = (mover + 1) % players
	}
	return res
}

// averageFrom plays every arrangement of the state (n, j), the first n - j positions holding
// remembered cards of different faces, seat 0 making choice first at the first decision and every
// seat its policy afterwards, and returns the exact averages: every seat's pairs, turns and lucky
// matches.
func averageFrom(n, j, players int, v variantGame, first rules.Choice, pols []rules.Policy) (pairs []*big.Rat, turns, lucky *big.Rat) {
	h := n - j
	known := make([]bool, 2*n)
	for i := range h {
		known[i] = true
	}
	sum := gameTally{pairs: make([]int64, players)}
	deals := int64(0)
	for _, d := range dealsOf(n, 0) {
		distinct := map[int]bool{}
		for _, x := range d[:h] {
			distinct[x] = true
		}
		if len(distinct) < h {
			continue
		}
		deals++
		decided := false
		r := playFrom(d, known, players, v, func(seat int, st rules.State) rules.Choice {
			if !decided {
				decided = true
				return first
			}
			return pols[seat].Decide(st)
		})
		for i, x := range r.pairs {
			sum.pairs[i] += x
		}
		sum.turns += r.turns
		sum.lucky += r.lucky
	}
	avg := func(x int64) *big.Rat { return big.NewRat(x, deals) }
	for _, x := range sum.pairs {
		pairs = append(pairs, avg(x))
	}
	return pairs, avg(sum.turns), avg(sum.lucky)
}

// TestLimitChoiceValuesMatchEveryDeal plays, from states with remembered cards, every arrangement
// of the unknown cards card by card, daring or safe first and fixed policies afterwards, under
// turn limits with sequential and blind flips, and compares the averages with the choices' values
// ChoiceValues gives: every seat's pairs at two and three seats, and with one player the pairs
// taken, turns and lucky matches.
func TestLimitChoiceValuesMatchEveryDeal(t *testing.T) {
	ctx := context.Background()
	compared := 0
	for _, blind := range []bool{false, true} {
		for _, limit := range []int{1, 2, 3, 5} {
			g := variantGame{blind: blind, limit: limit}
			model := exact.Model{Variant: rules.Variant{TurnLimit: limit}}
			if blind {
				model.Variant.Flips = rules.FlipsBlind
			}
			for _, st := range []rules.State{{N: 2, J: 1}, {N: 3, J: 2}, {N: 3, J: 1}, {N: 3, J: 3}} {
				for _, players := range []int{1, 2, 3} {
					for _, pol := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
						mu := exact.Lineup{Players: players, Policy: pol, Opponent: rules.PolicyDaring}
						pols := []rules.Policy{pol, rules.PolicyDaring, rules.PolicyDaring}
						cs, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						for _, first := range []rules.Choice{rules.Daring, rules.Safe} {
							v, ok := cs.Of(first)
							if !ok {
								continue
							}
							name := fmt.Sprintf("%v, %v, %d players, %v now then %v", model.Variant, st, players, first, pol)
							pairs, turns, lucky := averageFrom(st.N, st.J, players, g, first, pols)
							check := func(what string, got, want *big.Rat) {
								t.Helper()
								compared++
								if got == nil || got.Cmp(want) != 0 {
									t.Errorf("%s: %s = %v from ChoiceValues, %s over every deal", name, what, got, want.RatString())
								}
							}
							check("Pairs", v.Pairs, pairs[0])
							for i := range players {
								check(fmt.Sprintf("PairsBySeat[%d]", i), v.PairsBySeat[i], pairs[i])
							}
							if players == 1 {
								check("Turns", v.Turns, turns)
								check("Lucky", v.Lucky, lucky)
							}
							if players == 2 {
								check("Lead", v.Lead, new(big.Rat).Sub(pairs[0], pairs[1]))
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d choices' values with card-level play over every deal", compared)
}

// TestLimitChoiceValuesBeyondTheGameChangeNothing checks that, under a limit no game from the
// state reaches (2(3n + s) + 1 turns with perfect memory), every legal choice's values, the best
// choices and the policy's choice are those without a limit, exactly, and that the policy's own
// choice is worth the state's value; and likewise the choices' values to win.
func TestLimitChoiceValuesBeyondTheGameChangeNothing(t *testing.T) {
	ctx := context.Background()
	type matchup struct {
		players  int
		pol, opp rules.Policy
	}
	matchups := []matchup{
		{1, rules.PolicyOptimal, rules.PolicyOptimal}, {1, rules.PolicySafe, rules.PolicySafe},
		{2, rules.PolicyOptimal, rules.PolicyOptimal}, {2, rules.PolicySafe, rules.PolicyDaring},
		{2, rules.PolicyBestResponse, rules.PolicyParity}, {2, rules.PolicyOptimal, rules.PolicySafe},
		{3, rules.PolicyOptimal, rules.PolicyOptimal}, {3, rules.PolicyDaring, rules.PolicyOptimal},
		{2, rules.PolicyWinOptimal, rules.PolicyWinOptimal}, {2, rules.PolicyOptimal, rules.PolicyWinOptimal},
	}
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			if exact.RaceEnabled && pass == rules.PassAlways {
				continue // the smallest size under the race detector
			}
			for _, mt := range matchups {
				if (mt.players != 2 || testing.Short() && mt.pol.PlaysToWin()) && pass != rules.PassNever {
					continue
				}
				for n := 1; n <= maxN; n++ {
					if n > 2 && mt.pol.PlaysToWin() {
						continue
					}
					for j := 0; j <= n; j++ {
						model := exact.Model{Pass: pass, Variant: rules.Variant{Flips: flips}}
						mu := exact.Lineup{Players: mt.players, Policy: mt.pol, Opponent: mt.opp}
						st := rules.State{N: n, J: j, Lead: 1}
						if mt.players != 2 {
							st.Lead = 0
						}
						name := fmt.Sprintf("%v, pass %v, %d players %v vs %v, %v", model.Variant, pass, mt.players, mt.pol, mt.opp, st)
						want, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						model.Variant.TurnLimit = 2*3*n + 1
						got, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						compareChoices(t, name, got, want)
						if mt.players != 2 || mt.pol == rules.PolicyBestResponse || n > 2 || (testing.Short() && (pass != rules.PassNever || j != n-1)) {
							continue // the leads make the values to win the slowest
						}
						gotWin, err := exact.WinChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						model.Variant.TurnLimit = 0
						wantWin, err := exact.WinChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						compareWinChoices(t, name, gotWin, wantWin)
					}
				}
			}
		}
	}
}

// compareChoices reports where the choices' values got differ from want, and where the policy's
// choice is not worth got's value.
func compareChoices(t *testing.T, name string, got, want exact.Choices[*big.Rat]) {
	t.Helper()
	eq := func(what string, a, b *big.Rat) {
		t.Helper()
		if (a == nil) != (b == nil) || (a != nil && a.Cmp(b) != 0) {
			t.Errorf("%s: %s = %v under the limit, %v without", name, what, a, b)
		}
	}
	if got.PolicyChoice != want.PolicyChoice || fmt.Sprint(got.Best) != fmt.Sprint(want.Best) || len(got.Values) != len(want.Values) {
		t.Errorf("%s: policy's choice %v, best %v, %d choices under the limit; %v, %v, %d without", name,
			got.PolicyChoice, got.Best, len(got.Values), want.PolicyChoice, want.Best, len(want.Values))
		return
	}
	for i, g := range got.Values {
		w := want.Values[i]
		what := g.Choice.String()
		if g.Choice != w.Choice || g.Best != w.Best {
			t.Errorf("%s: choice %d is %v (best %v) under the limit, %v (best %v) without", name, i, g.Choice, g.Best, w.Choice, w.Best)
		}
		if len(g.PairsBySeat) > 1 || w.Turns == nil {
			eq(what+" pairs", g.Pairs, w.Pairs)
			eq(what+" lead", g.Lead, w.Lead)
			for s := range w.PairsBySeat {
				eq(fmt.Sprintf("%s pairs of seat %d", what, s), g.PairsBySeat[s], w.PairsBySeat[s])
			}
			wantDiff := w.Diff
			if len(w.PairsBySeat) == 2 {
				// Under a limit two players' choices differ in lead: twice the pairs when the
				// pairs add up to those on the table.
				wantDiff = new(big.Rat).Add(w.Diff, w.Diff)
			}
			eq(what+" diff", g.Diff, wantDiff)
		} else {
			eq(what+" turns", g.Turns, w.Turns)
			eq(what+" lucky", g.Lucky, w.Lucky)
			eq(what+" pairs", g.Pairs, big.NewRat(int64(got.State.N), 1))
		}
		if g.Choice == got.PolicyChoice && len(g.PairsBySeat) > 0 {
			eq(what+" (the policy's) pairs against the state's", g.Pairs, got.Value.ExpectedPairs)
		}
	}
}

// compareWinChoices reports where the choices' values to win got differ from want.
func compareWinChoices(t *testing.T, name string, got, want exact.WinChoices[*big.Rat]) {
	t.Helper()
	if got.PolicyChoice != want.PolicyChoice || fmt.Sprint(got.Best) != fmt.Sprint(want.Best) || len(got.Values) != len(want.Values) {
		t.Errorf("%s: to win: policy's choice %v, best %v under the limit; %v, %v without", name, got.PolicyChoice, got.Best, want.PolicyChoice, want.Best)
		return
	}
	for i, g := range got.Values {
		w := want.Values[i]
		if g.Choice != w.Choice || g.Win.Cmp(w.Win) != 0 || g.Draw.Cmp(w.Draw) != 0 || g.Loss.Cmp(w.Loss) != 0 {
			t.Errorf("%s: to win, %v: %v/%v/%v under the limit, %v: %v/%v/%v without", name, g.Choice, g.Win, g.Draw, g.Loss, w.Choice, w.Win, w.Draw, w.Loss)
		}
	}
	if got.Value.Win.Cmp(want.Value.Win) != 0 || got.Value.Draw.Cmp(want.Value.Draw) != 0 {
		t.Errorf("%s: to win, the state's value %v/%v under the limit, %v/%v without", name, got.Value.Win, got.Value.Draw, want.Value.Win, want.Value.Draw)
	}
}

// tableCellOf is what a strategy table says of one state, for comparisons.
type tableCellOf struct {
	value, code, best, choice, values string
}

// tableOf returns the cells of the optimal strategy table of m up to maxPairs pairs with t turns
// left (every cell without a limit), by state.
func tableOf(t *testing.T, m exact.Model, maxPairs, turnsLeft int) map[rules.State]tableCellOf {
	t.Helper()
	out := map[rules.State]tableCellOf{}
	err := exact.Table[*big.Rat](context.Background(), field.Rat{}, m, maxPairs, func(c *exact.TableCell[*big.Rat]) error {
		if c.TurnsLeft != turnsLeft {
			return nil
		}
		var values []string
		for _, ch := range rules.Choices() {
			if c.Legal[ch] {
				values = append(values, ch.String()+"="+c.ChoiceValue[ch].RatString())
			}
		}
		out[c.State] = tableCellOf{c.Value.RatString(), fmt.Sprint(c.Code), fmt.Sprint(c.Best), c.Choice.String(), fmt.Sprint(values)}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLimitTableBeyondTheGameIsTheTable checks that the layer of the optimal strategy table with
// more turns left than any game from its states lasts (2(3n + s) + 1 with perfect memory) is the
// table without a limit, cell by cell, under every pass rule and both flip rules, and that the
// table's cells agree with the choices' values of the same state and turns left.
func TestLimitTableBeyondTheGameIsTheTable(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 4
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			m := exact.Model{Pass: pass, Variant: rules.Variant{Flips: flips}}
			want := tableOf(t, m, maxPairs, 0)
			limit := 2*3*maxPairs + 1
			m.Variant.TurnLimit = limit
			got := tableOf(t, m, maxPairs, limit)
			if len(got) != len(want) {
				t.Fatalf("%v, pass %v: %d cells with %d turns left, %d without a limit", m.Variant, pass, len(got), limit, len(want))
			}
			for st, w := range want {
				if g := got[st]; g != w {
					t.Errorf("%v, pass %v, %v: %+v with %d turns left, %+v without a limit", m.Variant, pass, st, g, limit, w)
				}
			}
			// With 3 turns left, the cells against the choices' values.
			m.Variant.TurnLimit = 3
			layer := tableOf(t, m, maxPairs, 3)
			for st, cell := range layer {
				cs, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st)
				if err != nil {
					t.Fatal(err)
				}
				var values []string
				for _, v := range cs.Values {
					values = append(values, v.Choice.String()+"="+v.Pairs.RatString())
				}
				if cell.values != fmt.Sprint(values) || cell.best != fmt.Sprint(cs.Best) || cell.value != cs.Value.ExpectedPairs.RatString() {
					t.Errorf("%v, pass %v, %v, 3 turns left: table %+v, choices' values %v best %v value %v", m.Variant, pass, st, cell, values, cs.Best, cs.Value.ExpectedPairs.RatString())
				}
			}
		}
	}
}
