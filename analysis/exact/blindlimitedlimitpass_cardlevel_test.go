package exact_test

// Blind flips with a shared memory of fixed capacity under a turn limit with the pass rules
// two-known and always, and in solitaire (docs/models.md §4.17, §4.18), checked card by card
// without the count formulas: a game tree over explicit tables and memories (every card of every
// turn, the memory's recency order kept), the turns left and the pass streak counted down and up
// turn by turn, and the choices of the searching seats found by searching that tree.

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// blindLimitPassTree plays blind flips with a shared memory under a turn limit and a pass rule at
// card level, with players seats (1: solitaire). A pass shows no card: the next seat moves on
// the same table with one turn fewer and the streak one longer; the players-th pass in a row ends
// the game in a stalemate, n/players pairs to each seat, whatever the turns left. A searching
// seat (optimal, best-response) makes the first choice of largest objective in the order daring,
// safe, known-first, pass: at two seats its expected lead, at three or more its own expected
// pairs, in solitaire the most expected pairs and, among those, the fewest expected turns.
type blindLimitPassTree struct {
	m      cardMemory
	rule   rules.PassRule
	pols   []rules.Policy
	pick   pickRule
	keyer  *blindLimitGame
	memo   map[string][]*big.Rat
	choice map[string]rules.Choice
}

func newBlindLimitPassTree(m cardMemory, rule rules.PassRule, pols []rules.Policy, pick pickRule) *blindLimitPassTree {
	return &blindLimitPassTree{m: m, rule: rule, pols: pols, pick: pick, keyer: newBlindLimitGame(m, pols, pick),
		memo: map[string][]*big.Rat{}, choice: map[string]rules.Choice{}}
}

// searchZero returns a value vector of zeros for a card-level search of players seats: every
// seat's expected pairs, in solitaire the pairs taken and the turns played.
func searchZero(players int) []*big.Rat {
	out := make([]*big.Rat, max(players, 2))
	for i := range out {
		out[i] = new(big.Rat)
	}
	return out
}

// searchBetter reports whether value a beats b for a searching seat of players: in solitaire more
// pairs, then fewer turns; at two seats a larger lead; at more seats more pairs of its own.
func searchBetter(players int, a, b []*big.Rat, seat int) bool {
	switch players {
	case 1:
		if c := a[0].Cmp(b[0]); c != 0 {
			return c > 0
		}
		return a[1].Cmp(b[1]) < 0
	case 2:
		la := new(big.Rat).Sub(a[seat], a[1-seat])
		lb := new(big.Rat).Sub(b[seat], b[1-seat])
		return la.Cmp(lb) > 0
	}
	return a[seat].Cmp(b[seat]) > 0
}

func (g *blindLimitPassTree) key(w *cardWorld, left, seat, streak int) string {
	return fmt.Sprintf("%s|%d", g.keyer.key(w, left, seat), streak)
}

// value returns the value vector from w with left turns left, seat to move after streak passes
// in a row.
func (g *blindLimitPassTree) value(w *cardWorld, left, seat, streak int) []*big.Rat {
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
			if !rules.Legal(st, c, g.rule) {
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

// after returns the value vector when seat makes choice c in w with left turns left after streak
// passes, every position after it played by the seats' choices.
func (g *blindLimitPassTree) after(w *cardWorld, left, seat, streak int, c rules.Choice) []*big.Rat {
	players := len(g.pols)
	out := searchZero(len(g.pols))
	if c == rules.Pass {
		if streak == players-1 {
			st, _ := w.countState()
			for s := range players {
				out[s].SetFrac64(int64(st.N), int64(players))
			}
			return out
		}
		return g.value(w, left-1, (seat+1)%players, streak+1)
	}
	blindCardTurn(w, g.m, c, g.pick, func(p *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		who, gain, rest := seat, mg, left-1
		if !cont {
			who = (seat + 1) % players
			gain = min(ng, left-1)
			rest = left - 1 - gain
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
					x.Add(x, big.NewRat(1, 1)) // this turn
					if !cont {
						x.Add(x, big.NewRat(int64(gain), 1)) // a turn for each pair known whole taken
					}
				}
			}
			out[s].Add(out[s], x.Mul(x, p))
		}
	})
	return out
}

// TestBlindLimitedTurnLimitPassMatchesCardLevel compares, under blind flips with a shared lru
// memory of capacity 2 and 3 and handover-uniform of 3, the pass rules two-known and always and
// turn limits 1, 3 and 6 (every state of up to 4 pairs; with -short lru of capacity 3 and
// handover-uniform of 3, pass rule always, a limit of 4, up to 3 pairs, the optima only), the
// solver with the card-level game tree: every seat's expected pairs (Evaluate) of the two-player
// optimum, a best response to daring, safe against daring and every seat for itself at three
// seats (whose stalemate at the third pass in a row can beat a last turn), every legal
// choice's values now (ChoiceValues), and the choice the solver's table (PolicyTable) makes with
// each number of turns left after no pass and after a pass (every streak at three seats), which
// must be the tree's.
func TestBlindLimitedTurnLimitPassMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, limits, mems := 4, []int{1, 3, 6}, blindLimitedMemories(2, 3)
	passRules := []rules.PassRule{rules.PassTwoKnown, rules.PassAlways}
	lineups := [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyDaring},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
	}
	if testing.Short() {
		maxN, limits, mems, passRules = 3, []int{4}, blindLimitedMemories(3), []rules.PassRule{rules.PassAlways}
		lineups = [][]rules.Policy{lineups[0], lineups[3]}
	}
	compared := 0
	for _, rule := range passRules {
		for _, cm := range mems {
			for _, pols := range lineups {
				mu := lineupOf(pols)
				tree := newBlindLimitPassTree(cm, rule, pols, pickOldest)
				for _, limit := range limits {
					model := blindModel(cm)
					model.Pass, model.Variant.TurnLimit = rule, limit
					name := fmt.Sprintf("%v, %v, limit %d, %v", cm, rule, limit, pols)
					searched := pols[0] == rules.PolicyOptimal || pols[0] == rules.PolicyBestResponse
					var table *rules.ChoiceTable
					if searched {
						var err error
						if table, err = exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN); err != nil {
							t.Fatalf("%s: PolicyTable: %v", name, err)
						}
					}
					for n := 1; n <= maxN; n++ {
						for j := cm.jMin(n); j <= n; j++ {
							st := rules.State{N: n, J: j}
							at := fmt.Sprintf("%s, %v", name, st)
							res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", at, err)
							}
							choices, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
							if err != nil {
								t.Fatalf("%s: ChoiceValues: %v", at, err)
							}
							w := newCardWorld(st, nil)
							e := tree.value(w, limit, 0, 0)
							for s := range pols {
								compared++
								if res.PairsBySeat[s].Cmp(e[s]) != 0 {
									t.Errorf("%s: seat %d expects %s from Evaluate, %s card by card", at, s, res.PairsBySeat[s].RatString(), e[s].RatString())
								}
							}
							legal := 0
							for _, c := range rules.Choices() {
								if rules.Legal(st, c, rule) {
									legal++
								}
							}
							if len(choices.Values) != legal {
								t.Errorf("%s: ChoiceValues gives %d choices, the card-level game has %d legal", at, len(choices.Values), legal)
							}
							for _, cv := range choices.Values {
								ce := tree.after(w, limit, 0, 0, cv.Choice)
								for s := range pols {
									compared++
									if cv.PairsBySeat[s].Cmp(ce[s]) != 0 {
										t.Errorf("%s, %v now: seat %d expects %s from ChoiceValues, %s card by card", at, cv.Choice, s, cv.PairsBySeat[s].RatString(), ce[s].RatString())
									}
								}
							}
							if table == nil {
								continue
							}
							for left := 1; left <= limit; left++ {
								for streak := range len(pols) {
									tree.value(w, left, 0, streak)
									want := tree.choice[tree.key(w, left, 0, streak)]
									var got rules.Choice
									var ok bool
									if len(pols) == 2 {
										got, ok = table.LookupTurnsLeft(st, streak == 1, left)
									} else {
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
				}
			}
		}
	}
	t.Logf("compared %d values and choices with the card-level game tree", compared)
}

// TestBlindLimitedTurnLimitSolitaireMatchesCardLevel compares solitaire under blind flips with a
// shared lru memory of capacity 2 and 3 and handover-uniform of 3 and turn limits 1, 4 and 8
// (every state of up to 4 pairs; with -short lru of capacity 2 and handover-uniform of 3, a limit
// of 6, up to 3 pairs) with the card-level game tree: the pairs taken within the limit and the
// turns played (Evaluate) of every fixed policy and of the optimum (the most pairs, then the
// fewest turns), and the optimum's choice with each number of turns left in the solver's table.
func TestBlindLimitedTurnLimitSolitaireMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, limits, mems := 4, []int{1, 4, 8}, blindLimitedMemories(2, 3)
	if testing.Short() {
		maxN, limits = 3, []int{6}
		mems = []cardMemory{{capacity: 2, forget: rules.ForgetLRU}, {capacity: 3, forget: rules.ForgetHandoverUniform}}
	}
	compared := 0
	for _, cm := range mems {
		for _, pol := range append([]rules.Policy{rules.PolicyOptimal}, fixedPolicies...) {
			mu := exact.Lineup{Players: 1, Policy: pol}
			tree := newBlindLimitPassTree(cm, rules.PassNever, []rules.Policy{pol}, pickNewest)
			for _, limit := range limits {
				model := blindModel(cm)
				model.Variant.TurnLimit = limit
				name := fmt.Sprintf("%v, limit %d, %v", cm, limit, pol)
				var table *rules.ChoiceTable
				if pol == rules.PolicyOptimal {
					var err error
					if table, err = exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN); err != nil {
						t.Fatalf("%s: PolicyTable: %v", name, err)
					}
				}
				for n := 1; n <= maxN; n++ {
					for j := cm.jMin(n); j <= n; j++ {
						st := rules.State{N: n, J: j}
						at := fmt.Sprintf("%s, %v", name, st)
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", at, err)
						}
						w := newCardWorld(st, nil)
						e := tree.value(w, limit, 0, 0)
						compared += 2
						if res.ExpectedPairs.Cmp(e[0]) != 0 || res.ExpectedTurns.Cmp(e[1]) != 0 {
							t.Errorf("%s: %s pairs in %s turns from Evaluate, %s in %s card by card", at,
								res.ExpectedPairs.RatString(), res.ExpectedTurns.RatString(), e[0].RatString(), e[1].RatString())
						}
						if table == nil {
							continue
						}
						for left := 1; left <= limit; left++ {
							tree.value(w, left, 0, 0)
							want := tree.choice[tree.key(w, left, 0, 0)]
							got, ok := table.LookupTurnsLeft(st, false, left)
							compared++
							if !ok || got != want {
								t.Errorf("%s, %d turns left: the solver's table plays %v (%v), the card-level search %v", at, left, got, ok, want)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d values and choices with the card-level game tree", compared)
}

// TestBlindLimitedTurnLimitPassIdentities checks blind flips with a shared memory of fixed
// capacity under a turn limit with the pass rules two-known and always, and in solitaire, against
// identities: a capacity of 2n or more never forgets a card of n pairs, so it gives the values of
// perfect memory under the same limit and pass rule exactly; float64 agrees with exact rationals;
// and, at two seats and in solitaire, a limit of 600 turns (300 with -short, 3 pairs only), which a
// game with forgetting almost never reaches, gives the values without a limit within 1e-9
// (float64).
func TestBlindLimitedTurnLimitPassIdentities(t *testing.T) {
	ctx := context.Background()
	minN, maxN, limits, far := 1, 5, []int{2, 5, 9}, 600
	if testing.Short() {
		minN, maxN, limits, far = 3, 3, []int{4}, 300
	}
	type setup struct {
		rule rules.PassRule
		mu   exact.Lineup
	}
	setups := []setup{
		{rules.PassTwoKnown, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		{rules.PassAlways, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
		{rules.PassAlways, exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		{rules.PassTwoKnown, exact.SeatLineup(rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring)},
		{rules.PassNever, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}},
	}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for n := minN; n <= maxN; n++ {
			st := rules.State{N: n, J: n}
			for _, capacity := range []int{max(3, 2*n), 3} {
				mem := rules.Memory{Capacity: capacity, Forget: fg}
				for _, su := range setups {
					perfect := exact.Model{Pass: su.rule, Variant: rules.Variant{Flips: rules.FlipsBlind}}
					model := perfect
					model.Memory = mem
					for _, limit := range limits {
						model.Variant.TurnLimit, perfect.Variant.TurnLimit = limit, limit
						name := fmt.Sprintf("%v, %v, %v, n=%d, limit %d", mem, su.rule, su.mu, n, limit)
						got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, su.mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, su.mu, st)
						if err != nil {
							t.Fatalf("%s, float64: %v", name, err)
						}
						want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, perfect, su.mu, st)
						if err != nil {
							t.Fatalf("%s, perfect memory: %v", name, err)
						}
						for s := range su.mu.Players {
							if capacity >= 2*n && got.PairsBySeat[s].Cmp(want.PairsBySeat[s]) != 0 {
								t.Errorf("%s: seat %d expects %s, %s with perfect memory", name, s, got.PairsBySeat[s].RatString(), want.PairsBySeat[s].RatString())
							}
							if x, _ := got.PairsBySeat[s].Float64(); !within(fl.PairsBySeat[s], x, 1e-12) {
								t.Errorf("%s: seat %d expects %v in float64, %v in exact rationals", name, s, fl.PairsBySeat[s], x)
							}
						}
						if su.mu.Players == 1 && capacity >= 2*n && got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 {
							t.Errorf("%s: %s turns, %s with perfect memory", name, got.ExpectedTurns.RatString(), want.ExpectedTurns.RatString())
						}
					}
					if su.mu.Players >= 3 {
						// At three or more seats a pass streak can come back without end: the
						// finite horizon's backward induction need not pick the equilibrium the
						// solver without a limit gives (pass rule always, 4 pairs: every seat
						// passes from the start without a limit, seat 0 dares within 300 turns).
						continue
					}
					model.Variant.TurnLimit = 0
					free, err := exact.Evaluate[float64](ctx, field.Float{}, model, su.mu, st)
					if err != nil {
						t.Fatalf("%v, %v, %v, no limit: %v", mem, su.rule, su.mu, err)
					}
					model.Variant.TurnLimit = far
					long, err := exact.Evaluate[float64](ctx, field.Float{}, model, su.mu, st)
					if err != nil {
						t.Fatalf("%v, %v, %v, limit %d: %v", mem, su.rule, su.mu, far, err)
					}
					if su.mu.Players == 1 {
						// Solitaire takes every pair without a limit; its values are the turns.
						long.PairsBySeat, free.PairsBySeat = []float64{long.ExpectedPairs}, []float64{float64(n)}
					}
					for s := range su.mu.Players {
						if !within(long.PairsBySeat[s], free.PairsBySeat[s], 1e-9) {
							t.Errorf("%v, %v, %v, n=%d: seat %d expects %v within %d turns, %v without a limit", mem, su.rule, su.mu, n, s, long.PairsBySeat[s], far, free.PairsBySeat[s])
						}
					}
					if su.mu.Players == 1 && !within(long.ExpectedTurns, free.ExpectedTurns, 1e-9) {
						t.Errorf("%v, n=%d: %v turns within %d turns, %v without a limit", mem, n, long.ExpectedTurns, far, free.ExpectedTurns)
					}
				}
			}
		}
	}
}
