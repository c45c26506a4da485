package exact_test

// Blind flips with decay forgetting under a turn limit (docs/models.md §4.17, §4.14, §4.18),
// checked card by card without the count formulas: a game tree over explicit tables and memories
// (every card of every blind turn, each remembered card forgotten with probability q at the
// hand-over in every combination, then the capacity's excess among the old cards), the turns left
// counted down and the pass streak counted up turn by turn, a pass a hand-over that forgets too,
// and the choices of the searching seats found by searching that tree.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// blindDecayLimitTree plays blind flips with a shared decay memory under a turn limit and a pass
// rule at card level, with players seats (1: solitaire). A pass shows no card: the hand-over
// forgets every subset of the remembered cards (decayHandOver), and the next seat moves on that
// table with one turn fewer and the streak one longer; the players-th pass in a row ends the game
// in a stalemate, n/players pairs to each seat, whatever the turns left. A searching seat
// (optimal, best-response) makes the first choice of largest objective in the order daring,
// safe, known-first, pass: at two seats its expected lead, at three or more its own expected
// pairs, in solitaire the most expected pairs and, among those, the fewest expected turns.
type blindDecayLimitTree struct {
	m      cardMemory
	rule   rules.PassRule
	pols   []rules.Policy
	pick   pickRule
	keyer  *blindLimitGame
	memo   map[string][]*big.Rat
	choice map[string]rules.Choice
}

func newBlindDecayLimitTree(m cardMemory, rule rules.PassRule, pols []rules.Policy, pick pickRule) *blindDecayLimitTree {
	return &blindDecayLimitTree{m: m, rule: rule, pols: pols, pick: pick, keyer: newBlindLimitGame(m, pols, pick),
		memo: map[string][]*big.Rat{}, choice: map[string]rules.Choice{}}
}

func (g *blindDecayLimitTree) key(w *cardWorld, left, seat, streak int) string {
	return fmt.Sprintf("%s|%d", g.keyer.key(w, left, seat), streak)
}

// value returns the value vector from w with left turns left, seat to move after streak passes
// in a row.
func (g *blindDecayLimitTree) value(w *cardWorld, left, seat, streak int) []*big.Rat {
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
func (g *blindDecayLimitTree) after(w *cardWorld, left, seat, streak int, c rules.Choice) []*big.Rat {
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
		w0 := w.clone()
		w0.old = make([]bool, len(w0.present))
		for _, x := range w0.mem {
			w0.old[x] = true
		}
		decayHandOver(w0, g.m, big.NewRat(1, 1), 0, func(p *big.Rat, w2 *cardWorld, _ bool, _, _ int) {
			next := g.value(w2, left-1, (seat+1)%players, streak+1)
			for s := range out {
				out[s].Add(out[s], new(big.Rat).Mul(p, next[s]))
			}
		})
		return out
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

// blindDecayLimitModel is the solver's model of decay case dc under blind flips, pass rule rule
// and turn limit limit.
func blindDecayLimitModel(dc decayCase, rule rules.PassRule, limit int) exact.Model {
	return exact.Model{Pass: rule, Memory: dc.mem, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
}

// TestBlindDecayUnderTurnLimitMatchesCardLevel compares, under blind flips with a shared decay
// memory (q = 1/4 without a capacity and with capacity 3; q = 1/2 with capacity 2 without
// -short), the pass rules never, two-known and always and turn limits 1 and 4 (every state of
// up to 3 pairs; with -short q = 1/4 and capacity 3, pass rules never and always, a limit of 3,
// up to 2 pairs, the optima only), the solver with the card-level game tree: every seat's expected pairs
// (Evaluate) of the two-player optimum, a best response to daring, safe against daring and every
// seat for itself at three seats, every legal choice's values now (ChoiceValues), the choice the
// solver's table (PolicyTable) makes with each number of turns left after each pass streak, which
// must be the tree's, and under pass rule never at two seats the score distribution of both seats
// with seat 0's win, draw and loss (Distribution).
func TestBlindDecayUnderTurnLimitMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, limits := 3, []int{1, 4}
	passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	lineups := [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyDaring},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
	}
	var cases []decayCase
	for _, dc := range decayCases() {
		if (dc.mem.Decay == 0.25 && dc.mem.Capacity != 2) || (dc.mem.Decay == 0.5 && dc.mem.Capacity == 2) {
			cases = append(cases, dc)
		}
	}
	if testing.Short() {
		maxN, limits, passRules = 2, []int{3}, []rules.PassRule{rules.PassNever, rules.PassAlways}
		cases = []decayCase{cases[1]}
		lineups = [][]rules.Policy{lineups[0], lineups[3]}
	}
	compared := 0
	for _, rule := range passRules {
		for _, dc := range cases {
			for _, pols := range lineups {
				mu := lineupOf(pols)
				tree := newBlindDecayLimitTree(dc.card, rule, pols, pickOldest)
				for _, limit := range limits {
					model := blindDecayLimitModel(dc, rule, limit)
					name := fmt.Sprintf("%v, %v, limit %d, %v", dc.mem, rule, limit, pols)
					var table *rules.ChoiceTable
					if pols[0] == rules.PolicyOptimal || pols[0] == rules.PolicyBestResponse {
						var err error
						if table, err = exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN); err != nil {
							t.Fatalf("%s: PolicyTable: %v", name, err)
						}
					}
					for n := 1; n <= maxN; n++ {
						for j := dc.card.jMin(n); j <= n; j++ {
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
							if rule == rules.PassNever && len(pols) == 2 {
								d, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, st)
								if err != nil {
									t.Fatalf("%s: Distribution: %v", at, err)
								}
								g := newBlindLimitGame(dc.card, pols, pickOldest)
								checkLimitDistribution(t, at, n, d, g.value(w, limit, 0))
								compared++
							}
							if table == nil {
								continue
							}
							streaks := 1
							if rule != rules.PassNever {
								streaks = len(pols)
							}
							for left := 1; left <= limit; left++ {
								for streak := range streaks {
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

// TestBlindDecayTurnLimitSolitaireMatchesCardLevel compares solitaire under blind flips with a
// shared decay memory (q = 1/4 without a capacity and with capacity 3) and turn limits 1, 4 and
// 7 (every state of up to 3 pairs; with -short capacity 3 and a limit of 4) with the card-level
// game tree: the pairs taken within the limit and the turns played (Evaluate) of daring, safe and
// the optimum (the most pairs, then the fewest turns; with -short the optimum only), and the
// optimum's choice with each number of turns left in the solver's table.
func TestBlindDecayTurnLimitSolitaireMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, limits := 3, []int{1, 4, 7}
	var cases []decayCase
	for _, dc := range decayCases() {
		if dc.mem.Decay == 0.25 && dc.mem.Capacity != 2 {
			cases = append(cases, dc)
		}
	}
	pols := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring}
	if testing.Short() {
		limits, cases, pols = []int{4}, cases[1:], pols[:1]
	}
	compared := 0
	for _, dc := range cases {
		for _, pol := range pols {
			mu := exact.Lineup{Players: 1, Policy: pol}
			tree := newBlindDecayLimitTree(dc.card, rules.PassNever, []rules.Policy{pol}, pickNewest)
			for _, limit := range limits {
				model := blindDecayLimitModel(dc, rules.PassNever, limit)
				name := fmt.Sprintf("%v, limit %d, %v", dc.mem, limit, pol)
				var table *rules.ChoiceTable
				if pol == rules.PolicyOptimal {
					var err error
					if table, err = exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN); err != nil {
						t.Fatalf("%s: PolicyTable: %v", name, err)
					}
				}
				for n := 1; n <= maxN; n++ {
					for j := dc.card.jMin(n); j <= n; j++ {
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

// TestBlindDecayUnderTurnLimitIdentities checks blind flips with decay forgetting under a turn
// limit against a second method and identities, at two seats:
//   - with q = 1 every turn starts with nothing remembered, so only daring is legal under pass
//     rule never and the mover takes a pair with probability 1/(2n - 1) at each flip of two cards:
//     the seats' expected pairs A_t(n) (mover) and B_t(n) follow A_t(n) = p (1 + A_{t-1}(n-1)) +
//     (1 - p) B_{t-1}(n), B_t(n) = p B_{t-1}(n-1) + (1 - p) A_{t-1}(n), p = 1/(2n - 1);
//   - a limit of 600 turns, which a game with q = 1/5 almost never reaches, gives the values
//     without a limit within 1e-9 (float64), every pass rule, and in solitaire (with -short 3
//     pairs, capacity 3, a limit of 300);
//   - q = 10^-7, almost never forgetting, gives the values of blind flips with perfect memory
//     (with capacity 3: a shared handover-uniform memory of capacity 3, which forgets the excess
//     as decay's capacity does) under the same limit and pass rule within 1e-4 (float64): seat
//     0's lead at two seats, its pairs in solitaire;
//   - float64 agrees with exact rationals.
func TestBlindDecayUnderTurnLimitIdentities(t *testing.T) {
	ctx := context.Background()
	minN, maxN, limits, far := 1, 5, []int{1, 2, 5, 9}, 600
	if testing.Short() {
		minN, maxN, limits, far = 3, 3, []int{4}, 300
	}
	capacities := []int{0, 3}
	if testing.Short() {
		capacities = capacities[1:]
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	one := big.NewRat(1, 1)
	// a[t][n], b[t][n]: the mover's and the other seat's expected pairs with q = 1.
	maxT := limits[len(limits)-1]
	a := make([][]*big.Rat, maxT+1)
	b := make([][]*big.Rat, maxT+1)
	for tt := range a {
		a[tt], b[tt] = make([]*big.Rat, maxN+1), make([]*big.Rat, maxN+1)
		for n := range a[tt] {
			a[tt][n], b[tt][n] = new(big.Rat), new(big.Rat)
			if tt == 0 || n == 0 {
				continue
			}
			p := big.NewRat(1, int64(2*n-1))
			miss := new(big.Rat).Sub(one, p)
			a[tt][n].Add(new(big.Rat).Mul(p, new(big.Rat).Add(one, a[tt-1][n-1])), new(big.Rat).Mul(miss, b[tt-1][n]))
			b[tt][n].Add(new(big.Rat).Mul(p, b[tt-1][n-1]), new(big.Rat).Mul(miss, a[tt-1][n]))
		}
	}
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
	}
	for n := 1; n <= maxN; n++ {
		st := rules.State{N: n, J: n}
		for _, capacity := range []int{0, 3} {
			for _, limit := range limits {
				v := blind
				v.TurnLimit = limit
				allGone := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 1}, Variant: v}
				for _, mu := range lineups[:2] {
					got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, allGone, mu, st)
					if err != nil {
						t.Fatalf("q=1, %v, n=%d, limit %d: %v", mu, n, limit, err)
					}
					if got.PairsBySeat[0].Cmp(a[limit][n]) != 0 || got.PairsBySeat[1].Cmp(b[limit][n]) != 0 {
						t.Errorf("q=1, capacity %d, %v, n=%d, limit %d: the seats expect %s and %s, the recursion %s and %s", capacity, mu, n, limit,
							got.PairsBySeat[0].RatString(), got.PairsBySeat[1].RatString(), a[limit][n].RatString(), b[limit][n].RatString())
					}
				}
			}
		}
	}
	type setup struct {
		rule rules.PassRule
		mu   exact.Lineup
	}
	setups := []setup{
		{rules.PassNever, lineups[0]}, {rules.PassNever, lineups[1]}, {rules.PassAlways, lineups[2]},
		{rules.PassTwoKnown, lineups[0]}, {rules.PassNever, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}},
	}
	for n := minN; n <= maxN; n++ {
		st := rules.State{N: n, J: n}
		for _, su := range setups {
			for _, capacity := range capacities {
				mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.2}
				model := exact.Model{Pass: su.rule, Memory: mem, Variant: blind}
				name := fmt.Sprintf("%v, %v, %v, n=%d", mem, su.rule, su.mu, n)
				free, err := exact.Evaluate[float64](ctx, field.Float{}, model, su.mu, st)
				if err != nil {
					t.Fatalf("%s, no limit: %v", name, err)
				}
				model.Variant.TurnLimit = far
				long, err := exact.Evaluate[float64](ctx, field.Float{}, model, su.mu, st)
				if err != nil {
					t.Fatalf("%s, limit %d: %v", name, far, err)
				}
				if su.mu.Players == 1 {
					// Solitaire takes every pair without a limit; its values are the turns.
					long.PairsBySeat, free.PairsBySeat = []float64{long.ExpectedPairs}, []float64{float64(n)}
					if !within(long.ExpectedTurns, free.ExpectedTurns, 1e-9) {
						t.Errorf("%s: %v turns within %d turns, %v without a limit", name, long.ExpectedTurns, far, free.ExpectedTurns)
					}
				}
				for s := range su.mu.Players {
					if !within(long.PairsBySeat[s], free.PairsBySeat[s], 1e-9) {
						t.Errorf("%s: seat %d expects %v within %d turns, %v without a limit", name, s, long.PairsBySeat[s], far, free.PairsBySeat[s])
					}
				}
				for _, limit := range limits {
					model.Variant.TurnLimit = limit
					got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, su.mu, st)
					if err != nil {
						t.Fatalf("%s, limit %d: %v", name, limit, err)
					}
					fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, su.mu, st)
					if err != nil {
						t.Fatalf("%s, limit %d, float64: %v", name, limit, err)
					}
					tiny := model
					tiny.Memory.Decay = 1e-7
					near, err := exact.Evaluate[float64](ctx, field.Float{}, tiny, su.mu, st)
					if err != nil {
						t.Fatalf("%s, limit %d, q = 1e-7: %v", name, limit, err)
					}
					perfect := exact.Model{Pass: su.rule, Variant: model.Variant}
					if capacity > 0 {
						perfect.Memory = rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
					}
					want, err := exact.Evaluate[float64](ctx, field.Float{}, perfect, su.mu, st)
					if err != nil {
						t.Fatalf("%s, limit %d, perfect memory: %v", name, limit, err)
					}
					for s := range su.mu.Players {
						if x, _ := got.PairsBySeat[s].Float64(); !within(fl.PairsBySeat[s], x, 1e-12) {
							t.Errorf("%s, limit %d: seat %d expects %v in float64, %v in exact rationals", name, limit, s, fl.PairsBySeat[s], x)
						}
					}
					// A searching seat's objective is continuous in q, not every seat's pairs: at
					// q = 0 choices of equal lead can differ in pairs, and q = 1e-7 breaks the tie.
					nearObj, wantObj := near.PairsBySeat[0], want.PairsBySeat[0]
					if su.mu.Players == 2 {
						nearObj -= near.PairsBySeat[1]
						wantObj -= want.PairsBySeat[1]
					}
					if math.Abs(nearObj-wantObj) > 1e-4 {
						t.Errorf("%s, limit %d: seat 0's objective is %v with q = 1e-7, %v without decay", name, limit, nearObj, wantObj)
					}
				}
			}
		}
	}
}
