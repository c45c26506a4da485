package exact_test

// Blind flips with a shared memory of fixed capacity under a turn limit (docs/models.md §4.17,
// §4.18), checked card by card without the count formulas: a game tree over explicit tables and
// memories (every card of every turn, the memory's recency order kept), the turns left counted
// down turn by turn, and the choices of optimal and best-response found by searching that tree.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// limitScores is a distribution of the pairs each seat takes from a position on: a key holds every
// seat's pairs.
type limitScores map[[3]int]*big.Rat

// mean returns every seat's expected pairs under s.
func (s limitScores) mean(players int) []*big.Rat {
	out := make([]*big.Rat, players)
	for i := range out {
		out[i] = new(big.Rat)
	}
	for k, p := range s {
		for i := range out {
			out[i].Add(out[i], new(big.Rat).Mul(p, big.NewRat(int64(k[i]), 1)))
		}
	}
	return out
}

// blindLimitGame plays blind flips with a shared memory under a turn limit at card level: a seat
// whose policy is optimal or best-response chooses by searching the game tree (two seats: the
// largest expected lead; three: the most expected pairs for itself; the first such choice in the
// order daring, safe, known-first), any other seat plays its fixed policy on the count state read
// off the table.
type blindLimitGame struct {
	m       cardMemory
	players int
	pols    []rules.Policy
	pick    pickRule
	memo    map[string]limitScores
	choice  map[string]rules.Choice
}

func newBlindLimitGame(m cardMemory, pols []rules.Policy, pick pickRule) *blindLimitGame {
	return &blindLimitGame{m: m, players: len(pols), pols: pols, pick: pick,
		memo: map[string]limitScores{}, choice: map[string]rules.Choice{}}
}

// key names a position up to the names of the cards: the pairs are interchangeable, and so are
// the two cards of a pair, so a position is the sequence of its remembered cards' pairs in recency
// order, each named by its first place there, the pairs on the table that nobody remembers, the
// turns left and the seat to move. (At the start of a turn no card is pending and no pair is
// known whole, so every remembered card is of its own pair, and every recency order is the same
// position under another naming of the pairs; the turns themselves are played card by card on
// the table as it lies.)
func (g *blindLimitGame) key(w *cardWorld, left, seat int) string {
	label := map[int]int{}
	var b strings.Builder
	for _, c := range w.mem {
		p := w.partner(c)
		if p < 0 {
			panic(fmt.Sprintf("card %d is no pair card", c))
		}
		p = min(p, c) / 2
		l, ok := label[p]
		if !ok {
			l = len(label)
			label[p] = l
		}
		fmt.Fprintf(&b, "%d,", l)
	}
	unknown := 0
	for i := range w.pairs {
		if _, ok := label[i]; w.present[2*i] && !ok {
			unknown++
		}
	}
	fmt.Fprintf(&b, "|%d|%d|%d", unknown, left, seat)
	return b.String()
}

// searches reports whether seat s chooses by searching the tree.
func (g *blindLimitGame) searches(s int) bool {
	return g.pols[s] == rules.PolicyOptimal || g.pols[s] == rules.PolicyBestResponse
}

// value returns the distribution of the pairs every seat takes from w with left turns left and
// seat to move, seat's choice played in every position.
func (g *blindLimitGame) value(w *cardWorld, left, seat int) limitScores {
	st, err := w.countState()
	if err != nil {
		panic(err)
	}
	if left == 0 || st.N == 0 {
		return limitScores{{}: big.NewRat(1, 1)}
	}
	k := g.key(w, left, seat)
	if v, ok := g.memo[k]; ok {
		return v
	}
	var best limitScores
	var bestChoice rules.Choice
	if !g.searches(seat) {
		bestChoice = g.pols[seat].Decide(st)
		best = g.after(w, left, seat, bestChoice)
	} else {
		var bestObj *big.Rat
		for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
			if !rules.Legal(st, c, rules.PassNever) {
				continue
			}
			v := g.after(w, left, seat, c)
			obj := g.objective(v, seat)
			if bestObj == nil || obj.Cmp(bestObj) > 0 {
				best, bestObj, bestChoice = v, obj, c
			}
		}
	}
	g.memo[k], g.choice[k] = best, bestChoice
	return best
}

// objective is what a searching seat maximises: its lead over the other seat (two seats), or its
// own expected pairs.
func (g *blindLimitGame) objective(v limitScores, seat int) *big.Rat {
	e := v.mean(g.players)
	if g.players == 2 {
		return new(big.Rat).Sub(e[seat], e[1-seat])
	}
	return e[seat]
}

// after returns the distribution of every seat's pairs when seat makes choice c in w with left
// turns left, every position after it played by the seats' choices: the blind turn card by card,
// then, when the move passes, the next seat takes the pairs left known whole, one turn each while
// turns are left.
func (g *blindLimitGame) after(w *cardWorld, left, seat int, c rules.Choice) limitScores {
	out := limitScores{}
	blindCardTurn(w, g.m, c, g.pick, func(p *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		who, gain, rest := seat, mg, left-1
		if !cont {
			who = (seat + 1) % g.players
			gain = min(ng, left-1)
			rest = left - 1 - gain
		}
		for sk, q := range g.value(w2, rest, who) {
			sk[who] += gain
			x := new(big.Rat).Mul(p, q)
			if y, ok := out[sk]; ok {
				x.Add(x, y)
			}
			out[sk] = x
		}
	})
	return out
}

// blindLimitLineups are the lineups checked card by card: the two-player optimum, best-response
// to daring, safe against daring and every seat for itself at three seats; without -short also
// best-response to safe, each fixed policy against itself at two seats and parity at three.
func blindLimitLineups(short bool) [][]rules.Policy {
	out := [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyDaring},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
	}
	if !short {
		out = append(out, []rules.Policy{rules.PolicyBestResponse, rules.PolicySafe},
			[]rules.Policy{rules.PolicyParity, rules.PolicyParity, rules.PolicyParity})
		for _, p := range fixedPolicies {
			out = append(out, []rules.Policy{p, p})
		}
	}
	return out
}

// lineupOf returns the solver's lineup of seat policies pols (seat 0's policy, the others').
func lineupOf(pols []rules.Policy) exact.Lineup {
	return exact.Lineup{Players: len(pols), Policy: pols[0], Opponent: pols[1]}
}

// TestBlindLimitedUnderTurnLimitMatchesCardLevel compares, under blind flips with a shared lru
// memory of capacity 2 and 3 and handover-uniform of 3, turn limits 1, 2, 4 and 7 and every state
// of up to 4 pairs (with -short lru of capacity 2, a limit of 4, up to 3 pairs), the solver with
// the card-level game tree started from every recency order of the remembered cards, with both
// ways of naming the remembered card: every seat's expected pairs (Evaluate), at two seats the
// score distribution of both seats and seat 0's win, draw and loss (Distribution), every legal
// choice's values (ChoiceValues) and the choice the solver's table (PolicyTable) makes with each
// number of turns left, which must be the tree's.
func TestBlindLimitedUnderTurnLimitMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, limits, mems := 4, []int{1, 2, 4, 7}, blindLimitedMemories(2, 3)
	short := testing.Short()
	if short {
		maxN, limits = 3, []int{4}
		mems = []cardMemory{{capacity: 2, forget: rules.ForgetLRU}}
	}
	compared := 0
	for _, cm := range mems {
		for _, pols := range blindLimitLineups(short) {
			mu := lineupOf(pols)
			// The trees are shared by the limits: a position's key holds its turns left.
			games := []*blindLimitGame{newBlindLimitGame(cm, pols, pickOldest), newBlindLimitGame(cm, pols, pickNewest)}
			for _, limit := range limits {
				model := blindModel(cm)
				model.Variant.TurnLimit = limit
				name := fmt.Sprintf("%v, limit %d, %v", cm, limit, pols)
				searched := pols[0] == rules.PolicyOptimal || pols[0] == rules.PolicyBestResponse
				var table *rules.ChoiceTable
				if searched {
					var err error
					table, err = exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
					if err != nil {
						t.Fatalf("%s: PolicyTable: %v", name, err)
					}
				}
				for n := 1; n <= maxN; n++ {
					for j := max(0, n-cm.capacity); j <= n; j++ {
						st := rules.State{N: n, J: j}
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s, %v: %v", name, st, err)
						}
						var dist exact.ScoreDistribution[*big.Rat]
						var choices exact.Choices[*big.Rat]
						if len(pols) == 2 {
							if dist, err = exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, st); err != nil {
								t.Fatalf("%s, %v: Distribution: %v", name, st, err)
							}
						}
						if choices, err = exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st); err != nil {
							t.Fatalf("%s, %v: ChoiceValues: %v", name, st, err)
						}
						orders := [][]int{nil}
						if cm.lru() && (!short || st.Known() <= 2) {
							orders = permutations(st.Known())
						}
						for _, g := range games {
							for oi, order := range orders {
								w := newCardWorld(st, order)
								at := fmt.Sprintf("%s, %v, order %v, pick %v", name, st, order, g.pick)
								v := g.value(w, limit, 0)
								e := v.mean(len(pols))
								for s := range pols {
									compared++
									if res.PairsBySeat[s].Cmp(e[s]) != 0 {
										t.Errorf("%s: seat %d expects %s from Evaluate, %s card by card", at, s, res.PairsBySeat[s].RatString(), e[s].RatString())
									}
								}
								if oi > 0 {
									continue // the distribution and the choices' values are checked in the first order
								}
								if len(pols) == 2 {
									checkLimitDistribution(t, at, n, dist, v)
								}
								for _, cv := range choices.Values {
									ce := g.after(w, limit, 0, cv.Choice).mean(len(pols))
									for s := range pols {
										if cv.PairsBySeat[s].Cmp(ce[s]) != 0 {
											t.Errorf("%s, %v now: seat %d expects %s from ChoiceValues, %s card by card", at, cv.Choice, s, cv.PairsBySeat[s].RatString(), ce[s].RatString())
										}
									}
								}
								if table == nil {
									continue
								}
								for left := 1; left <= limit; left++ {
									g.value(w, left, 0)
									want := g.choice[g.key(w, left, 0)]
									got, ok := table.LookupTurnsLeft(st, false, left)
									if !ok || got != want {
										t.Errorf("%s, %d turns left: the solver's table plays %v (%v), the card-level search %v", at, left, got, ok, want)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d expected pairs with the card-level game tree", compared)
}

// checkLimitDistribution compares a two-seat score distribution of n pairs with the card-level one.
func checkLimitDistribution(t *testing.T, at string, n int, d exact.ScoreDistribution[*big.Rat], v limitScores) {
	t.Helper()
	p0, p1 := make([]*big.Rat, 2*n+1), make([]*big.Rat, 2*n+1)
	for i := range p0 {
		p0[i], p1[i] = new(big.Rat), new(big.Rat)
	}
	win, draw, loss := new(big.Rat), new(big.Rat), new(big.Rat)
	for k, p := range v {
		p0[2*k[0]].Add(p0[2*k[0]], p)
		p1[2*k[1]].Add(p1[2*k[1]], p)
		switch {
		case k[0] > k[1]:
			win.Add(win, p)
		case k[0] == k[1]:
			draw.Add(draw, p)
		default:
			loss.Add(loss, p)
		}
	}
	for i := range p0 {
		if i >= len(d.Prob) || d.Prob[i].Cmp(p0[i]) != 0 || i >= len(d.Prob1) || d.Prob1[i].Cmp(p1[i]) != 0 {
			t.Errorf("%s: seats' shares %d/2: Distribution %v and %v, card by card %s and %s", at, i, d.Prob, d.Prob1, p0[i].RatString(), p1[i].RatString())
			return
		}
	}
	if d.Win.Cmp(win) != 0 || d.Draw.Cmp(draw) != 0 || d.Loss.Cmp(loss) != 0 {
		t.Errorf("%s: win, draw, loss %s, %s, %s from Distribution, %s, %s, %s card by card", at,
			d.Win.RatString(), d.Draw.RatString(), d.Loss.RatString(), win.RatString(), draw.RatString(), loss.RatString())
	}
}

// TestBlindLimitedUnderTurnLimitIdentities checks blind flips with a shared memory of fixed
// capacity under a turn limit against identities: a capacity of 2n or more never forgets a card,
// so it gives the values of perfect memory under the same limit exactly; float64 agrees with
// exact rationals; and, as no finite limit bounds a game with forgetting, a limit of 600 turns
// gives the values without a limit within 1e-9 (float64), two to four seats.
func TestBlindLimitedUnderTurnLimitIdentities(t *testing.T) {
	ctx := context.Background()
	maxN, limits := 5, []int{1, 3, 6, 11}
	if testing.Short() {
		maxN, limits = 3, []int{4}
	}
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 4, Policy: rules.PolicyDaring, Opponent: rules.PolicySafe},
	}
	perfect := exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for n := 1; n <= maxN; n++ {
			st := rules.State{N: n, J: n}
			for _, capacity := range []int{max(3, 2*n), 3, 2} {
				if capacity == 2 && fg == rules.ForgetHandoverUniform {
					continue
				}
				mem := rules.Memory{Capacity: capacity, Forget: fg}
				for _, mu := range lineups {
					for _, limit := range limits {
						model, flat := perfect, perfect
						model.Memory, model.Variant.TurnLimit, flat.Variant.TurnLimit = mem, limit, limit
						name := fmt.Sprintf("%v, %v, n=%d, limit %d", mem, mu, n, limit)
						got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s, float64: %v", name, err)
						}
						want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, flat, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						for s := range mu.Players {
							if capacity >= 2*n && got.PairsBySeat[s].Cmp(want.PairsBySeat[s]) != 0 {
								t.Errorf("%s: seat %d expects %s, %s with perfect memory", name, s, got.PairsBySeat[s].RatString(), want.PairsBySeat[s].RatString())
							}
							if x, _ := got.PairsBySeat[s].Float64(); math.Abs(fl.PairsBySeat[s]-x) > 1e-12 {
								t.Errorf("%s: seat %d expects %v in float64, %v in exact rationals", name, s, fl.PairsBySeat[s], x)
							}
						}
					}
					model := perfect
					model.Memory = mem
					free, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
					if err != nil {
						t.Fatalf("%v, %v, no limit: %v", mem, mu, err)
					}
					model.Variant.TurnLimit = 600
					long, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
					if err != nil {
						t.Fatalf("%v, %v, limit 600: %v", mem, mu, err)
					}
					for s := range mu.Players {
						if math.Abs(long.PairsBySeat[s]-free.PairsBySeat[s]) > 1e-9 {
							t.Errorf("%v, %v, n=%d: seat %d expects %v within 600 turns, %v without a limit", mem, mu, n, s, long.PairsBySeat[s], free.PairsBySeat[s])
						}
					}
				}
			}
		}
	}
}
