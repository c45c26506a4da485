package exact_test

// Blind flips with singletons and perfect memory (docs/models.md §4.17, "Singletons") at three and
// four seats under the pass rules two-known and always, and under a turn limit at one to three
// seats, checked card by card without the count formulas: a game tree over explicit tables (every
// card each blind turn can show), the pass streak and the turns left counted turn by turn, and
// the choices of the searching seats found by searching that tree.

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// bsCardTurn enumerates one blind turn with singletons on w0, perfect memory: daring names two
// positions nobody remembers (the second, when there is no other, a remembered pair card); safe
// and known-first name a remembered card, a pair's when there is one, otherwise a seen singleton,
// and a position nobody remembers. Both cards are then seen; a matching pair is taken and the
// mover goes on, otherwise the next seat first takes every pair whose two cards are remembered.
func bsCardTurn(w0 *cardWorld, c rules.Choice, emit emitFunc) {
	one := big.NewRat(1, 1)
	if c == rules.Pass {
		emit(one, w0.clone(), false, 0, 0)
		return
	}
	rememberedCard := func(w *cardWorld) int {
		if y := w.pick(pickOldest, func(x int) bool { return w.partner(x) >= 0 }); y >= 0 {
			return y
		}
		return w.pick(pickOldest, func(int) bool { return true })
	}
	pool := w0.unremembered()
	for _, a := range pool {
		pa := ratMul(one, 1, len(pool))
		var seconds []int
		if c == rules.Daring {
			seconds = w0.unremembered(a)
		}
		if len(seconds) == 0 {
			y := rememberedCard(w0)
			if y < 0 {
				panic(fmt.Sprintf("%v with no second card to name: mem %v", c, w0.mem))
			}
			seconds = []int{y}
		}
		for _, b := range seconds {
			p := ratMul(pa, 1, len(seconds))
			w := w0.clone()
			if w.partner(a) == b {
				w.remove(a)
				w.remove(b)
				emit(p, w, true, 1, 0)
				continue
			}
			w.see(a, cardMemory{})
			w.see(b, cardMemory{})
			handOver(w, cardMemory{}, p, 0, emit)
		}
	}
}

// bsTree plays blind flips with singletons at card level with len(pols) seats (1: solitaire),
// under a pass rule and a turn limit (limit 0: none). A pass shows no card: the next seat moves
// on the same table (one turn fewer under a limit) after one more pass in a row; the players-th
// pass in a row ends the game in a stalemate, n/players pairs to each seat. Under a limit a pair
// left known whole costs the next seat a turn to take, and is not taken without one. A searching
// seat (optimal, best-response) makes the first choice of largest objective in the order
// daring, safe, known-first, pass: at two seats its expected lead, at three or more its own
// expected pairs, in solitaire the most pairs and, among those, the fewest turns.
type bsTree struct {
	model  exact.Model
	pols   []rules.Policy
	memo   map[string][]*big.Rat
	choice map[string]rules.Choice
}

func newBSTree(model exact.Model, pols []rules.Policy) *bsTree {
	return &bsTree{model: model, pols: pols, memo: map[string][]*big.Rat{}, choice: map[string]rules.Choice{}}
}

// key names a position up to the names of the cards: with perfect memory which pairs and
// singletons are remembered does not matter, only how many of each kind lie on the table.
func (g *bsTree) key(w *cardWorld, left, seat, streak int) string {
	var half, none, seenS, unseenS int
	for i := 0; i < w.pairs; i++ {
		if !w.present[2*i] {
			continue
		}
		if w.remembered(2*i) || w.remembered(2*i+1) {
			half++
		} else {
			none++
		}
	}
	for k := 0; k < w.singles; k++ {
		if w.remembered(2*w.pairs + k) {
			seenS++
		} else {
			unseenS++
		}
	}
	return fmt.Sprintf("%d,%d,%d,%d|%d|%d|%d", half, none, seenS, unseenS, left, seat, streak)
}

// value returns the value vector from w (left turns left, -1 without a limit), seat to move after
// streak passes in a row.
func (g *bsTree) value(w *cardWorld, left, seat, streak int) []*big.Rat {
	st, err := w.countState()
	if err != nil {
		panic(err)
	}
	if left == 0 || st.N == 0 {
		return searchZero(len(g.pols))
	}
	k := g.key(w, left, seat, streak)
	if v, ok := g.memo[k]; ok {
		return v
	}
	var best []*big.Rat
	var bestChoice rules.Choice
	pol := g.pols[seat]
	if pol != rules.PolicyOptimal && pol != rules.PolicyBestResponse {
		bestChoice = pol.Decide(st)
		best = g.after(w, left, seat, streak, bestChoice)
	} else {
		for _, c := range rules.Choices() {
			if !g.model.Legal(st, c) {
				continue
			}
			v := g.after(w, left, seat, streak, c)
			if best == nil || searchBetter(len(g.pols), v, best, seat) {
				best, bestChoice = v, c
			}
		}
	}
	g.memo[k], g.choice[k] = best, bestChoice
	return best
}

// after returns the value vector when seat makes choice c in w.
func (g *bsTree) after(w *cardWorld, left, seat, streak int, c rules.Choice) []*big.Rat {
	players := len(g.pols)
	out := searchZero(len(g.pols))
	dec := func(x int) int {
		if left < 0 {
			return -1
		}
		return left - x
	}
	if c == rules.Pass {
		if streak == players-1 {
			st, _ := w.countState()
			for s := range players {
				out[s].SetFrac64(int64(st.N), int64(players))
			}
			return out
		}
		return g.value(w, dec(1), (seat+1)%players, streak+1)
	}
	bsCardTurn(w, c, func(p *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		who, gain, rest := seat, mg, dec(1)
		if !cont {
			who, gain = (seat+1)%players, ng
			if left >= 0 {
				gain = min(ng, left-1)
				rest = left - 1 - gain
			}
		}
		next := g.value(w2, rest, who, 0)
		for s := range out {
			x := new(big.Rat).Set(next[s])
			if players > 1 && s == who {
				x.Add(x, big.NewRat(int64(gain), 1))
			}
			if players == 1 {
				switch s {
				case 0:
					x.Add(x, big.NewRat(int64(gain), 1))
				case 1:
					x.Add(x, big.NewRat(1, 1))
					if !cont {
						x.Add(x, big.NewRat(int64(gain), 1))
					}
				}
			}
			out[s].Add(out[s], x.Mul(x, p))
		}
	})
	return out
}

// bsTreeCase is one model and lineup the tree checks, with the limits it is solved at (0: none).
type bsTreeCase struct {
	pass   rules.PassRule
	pols   []rules.Policy
	limits []int
}

// checkBSTree compares the solver with the card-level tree in every state of up to maxN pairs
// and s singletons: every seat's expected pairs (Evaluate; in solitaire the pairs and turns),
// every legal choice's values now (ChoiceValues), and for a searching seat 0 the solver's table
// (PolicyTable) at every streak and number of turns left, which must make the tree's choice.
func checkBSTree(t *testing.T, maxN, s int, tc bsTreeCase) int {
	ctx := context.Background()
	compared := 0
	tree := newBSTree(bsModel(s, tc.pass), tc.pols)
	players := len(tc.pols)
	mu := lineupOf(append(tc.pols, tc.pols...))
	mu.Players = players
	searched := tc.pols[0] == rules.PolicyOptimal || tc.pols[0] == rules.PolicyBestResponse
	for _, limit := range tc.limits {
		model := bsModel(s, tc.pass)
		model.Variant.TurnLimit = limit
		name := fmt.Sprintf("s=%d, %v, limit %d, %v", s, tc.pass, limit, tc.pols)
		var table *rules.ChoiceTable
		if searched {
			var err error
			if table, err = exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN); err != nil {
				t.Fatalf("%s: PolicyTable: %v", name, err)
			}
		}
		left0 := limit
		if limit == 0 {
			left0 = -1
		}
		for _, st := range bsStates(maxN, s) {
			at := fmt.Sprintf("%s, %v", name, st)
			res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			w := newCardWorld(st, nil)
			e := tree.value(w, left0, 0, 0)
			if players == 1 {
				compared += 2
				if res.ExpectedPairs.Cmp(e[0]) != 0 || res.ExpectedTurns.Cmp(e[1]) != 0 {
					t.Errorf("%s: %s pairs in %s turns from Evaluate, %s in %s card by card", at,
						res.ExpectedPairs.RatString(), res.ExpectedTurns.RatString(), e[0].RatString(), e[1].RatString())
				}
			} else {
				sum := new(big.Rat)
				for i := range players {
					compared++
					sum.Add(sum, e[i])
					if res.PairsBySeat[i].Cmp(e[i]) != 0 {
						t.Errorf("%s: seat %d expects %s from Evaluate, %s card by card", at, i, res.PairsBySeat[i].RatString(), e[i].RatString())
					}
				}
				if limit == 0 && sum.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
					t.Errorf("%s: the seats' pairs add up to %s, not %d", at, sum.RatString(), st.N)
				}
				choices, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
				if err != nil {
					t.Fatalf("%s: ChoiceValues: %v", at, err)
				}
				legal := 0
				for _, c := range rules.Choices() {
					if model.Legal(st, c) {
						legal++
					}
				}
				if len(choices.Values) != legal {
					t.Errorf("%s: ChoiceValues gives %d choices, the card-level game has %d legal", at, len(choices.Values), legal)
				}
				for _, cv := range choices.Values {
					ce := tree.after(w, left0, 0, 0, cv.Choice)
					for i := range players {
						compared++
						if cv.PairsBySeat[i].Cmp(ce[i]) != 0 {
							t.Errorf("%s, %v now: seat %d expects %s from ChoiceValues, %s card by card", at, cv.Choice, i, cv.PairsBySeat[i].RatString(), ce[i].RatString())
						}
					}
				}
			}
			if table == nil {
				continue
			}
			lefts := []int{-1}
			if limit > 0 {
				lefts = nil
				for left := 1; left <= limit; left++ {
					lefts = append(lefts, left)
				}
			}
			streaks := players
			if tc.pass == rules.PassNever {
				streaks = 1
			}
			for _, left := range lefts {
				for streak := range streaks {
					tree.value(w, left, 0, streak)
					want := tree.choice[tree.key(w, left, 0, streak)]
					var got rules.Choice
					var ok bool
					switch {
					case left < 0 && players == 2:
						got, ok = table.Lookup(st, streak == 1)
					case left < 0:
						got, ok = table.LookupPasses(st, streak)
					case players <= 2:
						got, ok = table.LookupTurnsLeft(st, streak == 1, left)
					default:
						got, ok = table.LookupTurnsLeftPasses(st, streak, left)
					}
					compared++
					if !ok || got != want {
						t.Errorf("%s, %d turns left, streak %d: the solver's table plays %v (%v), the card-level search %v", at, left, streak, got, ok, want)
					}
				}
			}
		}
	}
	return compared
}

// TestBlindSinglesSeatsPassMatchesCardLevel compares blind flips with singletons at three and four
// seats under the pass rules two-known and always (up to 3 pairs with one and two singletons; with
// -short 2 pairs, two singletons, three seats, always) with the card-level tree: the optimum of
// every seat for itself (its choice at every pass streak found by the search), safe and daring,
// every seat's pairs adding up to n.
func TestBlindSinglesSeatsPassMatchesCardLevel(t *testing.T) {
	sizes, passes, seats := [][2]int{{3, 1}, {3, 2}}, []rules.PassRule{rules.PassTwoKnown, rules.PassAlways}, []int{3, 4}
	if testing.Short() {
		sizes, passes, seats = [][2]int{{2, 1}}, []rules.PassRule{rules.PassAlways}, []int{3}
	}
	compared := 0
	for _, size := range sizes {
		for _, pass := range passes {
			for _, p := range seats {
				for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
					if testing.Short() && pol != rules.PolicyOptimal {
						continue
					}
					pols := make([]rules.Policy, p)
					for i := range pols {
						pols[i] = pol
					}
					compared += checkBSTree(t, size[0], size[1], bsTreeCase{pass: pass, pols: pols, limits: []int{0}})
				}
			}
		}
	}
	t.Logf("compared %d values and choices with the card-level game tree", compared)
}

// TestBlindSinglesTurnLimitMatchesCardLevel compares blind flips with singletons under turn limits
// 2 and 5 (up to 3 pairs with one singleton and 2 pairs with two; with -short 2 pairs, one
// singleton, a limit of 2, the two-seat optimum under always) with the card-level tree: at two seats under every pass
// rule the two-player optimum, a best response to daring and safe against daring; in solitaire
// the optimum and the fixed policies (pairs taken and turns played); at three seats under never
// and always every seat for itself. The tables' choices by turns left (and pass streak) must be
// the search's.
func TestBlindSinglesTurnLimitMatchesCardLevel(t *testing.T) {
	sizes, limits := [][2]int{{3, 1}, {2, 2}}, []int{2, 5}
	O, D, S := rules.PolicyOptimal, rules.PolicyDaring, rules.PolicySafe
	cases := []bsTreeCase{}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		cases = append(cases,
			bsTreeCase{pass: pass, pols: []rules.Policy{O, O}},
			bsTreeCase{pass: pass, pols: []rules.Policy{rules.PolicyBestResponse, D}},
			bsTreeCase{pass: pass, pols: []rules.Policy{S, D}})
	}
	for _, pol := range []rules.Policy{O, S, D} {
		cases = append(cases, bsTreeCase{pass: rules.PassNever, pols: []rules.Policy{pol}})
	}
	cases = append(cases,
		bsTreeCase{pass: rules.PassNever, pols: []rules.Policy{O, O, O}},
		bsTreeCase{pass: rules.PassAlways, pols: []rules.Policy{O, O, O}})
	if testing.Short() {
		sizes, limits = [][2]int{{2, 1}}, []int{2}
		cases = []bsTreeCase{{pass: rules.PassAlways, pols: []rules.Policy{O, O}}}
	}
	compared := 0
	for _, size := range sizes {
		for _, tc := range cases {
			tc.limits = limits
			compared += checkBSTree(t, size[0], size[1], tc)
		}
	}
	t.Logf("compared %d values and choices with the card-level game tree", compared)
}
