package exact_test

// The win objective at two seats under blind flips with a shared lru or handover-uniform memory
// of fixed capacity, under the pass rules two-known and always and under a turn limit
// (docs/models.md §4.13, §4.17, §4.18), checked card by card without the count formulas: a game
// tree over explicit tables and memories (every card of every turn, the memory's recency order
// kept, blindCardTurn), the lead, the turns left and the pass streak counted turn by turn. Without
// a turn limit the tree is cut at a horizon of turns far beyond the game's length, a game still
// running there scored by its lead, so the tree's values converge to the game's.

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

// winVal is a position's value for its mover: the score P(win) + P(draw)/2 and P(draw).
type winVal struct{ score, draw float64 }

// blindWinTree plays two seats to win at card level. A seat plays win-optimal by the solver's
// table (looked up at the count state, the lead, whether the other seat just passed and, under
// a limit, the turns left), or by the card-level search (search: each mover maximises its own
// score, the first best choice in the order daring, safe, known-first, pass, which is the
// self-play's value whatever the ties); win-best-response maximises its own score against the
// other seat's play; a fixed policy makes its own choice.
type blindWinTree struct {
	m      cardMemory
	rule   rules.PassRule
	limit  int // 0: none (the tree's horizon then scores a running game by its lead)
	pols   [2]rules.Policy
	tables [2]*rules.ChoiceTable
	search bool
	keyer  *blindLimitGame
	memo   map[string]winVal
}

// blindWinFinal is the value of a game over at lead d for the seat to move.
func blindWinFinal(d int) winVal {
	switch {
	case d > 0:
		return winVal{1, 0}
	case d < 0:
		return winVal{0, 0}
	}
	return winVal{0.5, 1}
}

// value returns the value for the mover (seat) at lead d (its pairs less the other seat's) with
// left turns left (the horizon without a limit), after streak passes in a row.
func (g *blindWinTree) value(t *testing.T, w *cardWorld, left, seat, d, streak int) winVal {
	st, err := w.countState()
	if err != nil {
		t.Fatal(err)
	}
	if left == 0 || st.N == 0 {
		return blindWinFinal(d)
	}
	k := fmt.Sprintf("%s|%d|%d", g.keyer.key(w, left, seat), d, streak)
	if v, ok := g.memo[k]; ok {
		return v
	}
	var v winVal
	pol := g.pols[seat]
	switch {
	case pol == rules.PolicyWinBestResponse || (pol == rules.PolicyWinOptimal && g.search):
		have := false
		for _, c := range rules.Choices() {
			if !rules.Legal(st, c, g.rule) {
				continue
			}
			if x := g.after(t, w, left, seat, d, streak, c); !have || x.score > v.score+1e-13 {
				v, have = x, true
			}
		}
	case pol == rules.PolicyWinOptimal:
		at := st
		at.Lead = d
		var c rules.Choice
		var ok bool
		if g.limit > 0 {
			c, ok = g.tables[seat].LookupTurnsLeft(at, streak == 1, left)
		} else {
			c, ok = g.tables[seat].Lookup(at, streak == 1)
		}
		if !ok {
			t.Fatalf("seat %d's table has no choice at %v, %d turns left, streak %d", seat, at, left, streak)
		}
		v = g.after(t, w, left, seat, d, streak, c)
	default:
		v = g.after(t, w, left, seat, d, streak, pol.Decide(st))
	}
	g.memo[k] = v
	return v
}

// after returns the mover's value of choice c in w with left turns left at lead d after streak
// passes in a row: a pass hands the other seat the same table with one turn fewer (a second pass
// in a row ends the game, the lead as it is); any other turn is played card by card.
func (g *blindWinTree) after(t *testing.T, w *cardWorld, left, seat, d, streak int, c rules.Choice) winVal {
	flip := func(x winVal) winVal { return winVal{1 - x.score, x.draw} }
	if c == rules.Pass {
		if streak == 1 {
			return blindWinFinal(d)
		}
		return flip(g.value(t, w, left-1, 1-seat, -d, 1))
	}
	var out winVal
	blindCardTurn(w, g.m, c, pickOldest, func(p *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		pf, _ := p.Float64()
		var x winVal
		if cont {
			x = g.value(t, w2, left-1, seat, d+mg, 0)
		} else {
			// The other seat takes the pairs known whole first, a turn each.
			gain, rest := ng, left-1
			if g.limit > 0 {
				gain = min(ng, left-1)
				rest = left - 1 - gain
			}
			x = flip(g.value(t, w2, rest, 1-seat, gain-d, 0))
		}
		out.score += pf * x.score
		out.draw += pf * x.draw
	})
	return out
}

// blindWinCase is one model of the card-level comparison: a pass rule, a turn limit (0: none)
// and the largest deal compared.
type blindWinCase struct {
	rule        rules.PassRule
	limit, maxN int
}

// TestBlindLimitedWinPassLimitCardLevel compares, at two seats under blind flips with a shared
// lru memory of capacity 2 and 3 and handover-uniform of 3, under the pass rules two-known and
// always without a limit, under turn limits 3 and 6 (pass rule never) and 3 (always), the solver
// with the card-level game tree from every state of up to 3 pairs and leads -1 .. 1: the mover's
// score and P(draw) (WinDrawLoss) when the seats play the solver's tables (win-optimal against
// itself, win-best-response against safe and daring against win-best-response, a reply's score
// only); the score of win-optimal's self-play found by the card-level search, which reads no
// table; and every legal choice's score now (WinChoiceValues). With -short: lru of capacity 2
// and handover-uniform of 3, pass rule always without a limit and with a limit of 4, up to 3
// pairs, and pass rule two-known without a limit up to 2 pairs, win-optimal against itself.
func TestBlindLimitedWinPassLimitCardLevel(t *testing.T) {
	ctx := context.Background()
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	mems := blindLimitedMemories(2, 3)
	cases := []blindWinCase{{rules.PassTwoKnown, 0, 3}, {rules.PassAlways, 0, 3}, {rules.PassNever, 3, 3}, {rules.PassNever, 6, 3},
		{rules.PassAlways, 3, 3}}
	lineups := [][2]rules.Policy{{W, W}, {B, rules.PolicySafe}, {rules.PolicyDaring, B}}
	if testing.Short() {
		mems, cases, lineups = shortBlindMemories(), []blindWinCase{{rules.PassAlways, 4, 3}, {rules.PassTwoKnown, 0, 2}}, lineups[:1]
	}
	// horizon cuts the tree without a limit: the chance that a game of 3 pairs is still running
	// after it is far below the tolerance.
	const horizon, tol = 240, 1e-9
	compared := 0
	for _, m := range mems {
		for _, cs := range cases {
			model := blindWinModel(m)
			model.Pass, model.Variant.TurnLimit = cs.rule, cs.limit
			depth := cs.limit
			if depth == 0 {
				depth = horizon
			}
			for _, pols := range lineups {
				name := fmt.Sprintf("%v, %v, limit %d, %v", m, cs.rule, cs.limit, pols)
				mu := exact.Lineup{Players: 2, Policy: pols[0], Opponent: pols[1]}
				play := &blindWinTree{m: m, rule: cs.rule, limit: cs.limit, pols: pols, keyer: newBlindLimitGame(m, nil, pickOldest), memo: map[string]winVal{}}
				for s, p := range pols {
					if p != W {
						continue
					}
					var err error
					if play.tables[s], err = exact.PolicyTable[float64](ctx, field.Float{}, model, exact.Lineup{Players: 2, Policy: p, Opponent: pols[1-s]}, cs.maxN); err != nil {
						t.Fatalf("%s: seat %d's table: %v", name, s, err)
					}
				}
				var search *blindWinTree
				if pols == [2]rules.Policy{W, W} {
					search = &blindWinTree{m: m, rule: cs.rule, limit: cs.limit, pols: pols, search: true, keyer: play.keyer, memo: map[string]winVal{}}
				}
				reply := pols[0] == B || pols[1] == B
				for n := 1; n <= cs.maxN; n++ {
					for j := m.jMin(n); j <= n; j++ {
						for d := -1; d <= 1; d++ {
							st := rules.State{N: n, J: j, Lead: d}
							at := fmt.Sprintf("%s, %v", name, st)
							wdl, err := exact.WinDrawLoss[float64](ctx, field.Float{}, model, mu, st)
							if err != nil {
								t.Fatalf("%s: WinDrawLoss: %v", at, err)
							}
							w := newCardWorld(rules.State{N: n, J: j}, nil)
							got := winVal{wdl[0].Win + wdl[0].Draw/2, wdl[0].Draw}
							want := play.value(t, w, depth, 0, d, 0)
							compared++
							if math.Abs(got.score-want.score) > tol || (!reply && math.Abs(got.draw-want.draw) > tol) {
								t.Errorf("%s: the mover's score and draw: solver %.12f %.12f, card level %.12f %.12f", at, got.score, got.draw, want.score, want.draw)
							}
							if search != nil {
								sv := search.value(t, w, depth, 0, d, 0)
								compared++
								if math.Abs(got.score-sv.score) > tol {
									t.Errorf("%s: win-optimal's score: solver %.12f, card-level search %.12f", at, got.score, sv.score)
								}
							}
							if reply {
								continue
							}
							choices, err := exact.WinChoiceValues[float64](ctx, field.Float{}, model, mu, st)
							if err != nil {
								t.Fatalf("%s: WinChoiceValues: %v", at, err)
							}
							legal := 0
							for _, c := range rules.Choices() {
								if !rules.Legal(rules.State{N: n, J: j}, c, cs.rule) {
									continue
								}
								legal++
								cv, ok := choices.Of(c)
								if !ok {
									t.Errorf("%s: WinChoiceValues lacks legal choice %v", at, c)
									continue
								}
								want := play.after(t, w, depth, 0, d, 0, c)
								compared++
								if math.Abs(cv.Score-want.score) > tol {
									t.Errorf("%s, %v now: score %.12f from WinChoiceValues, %.12f card by card", at, c, cv.Score, want.score)
								}
							}
							if len(choices.Values) != legal {
								t.Errorf("%s: WinChoiceValues gives %d choices, the card-level game has %d legal", at, len(choices.Values), legal)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d values with the card-level game tree", compared)
}

// TestBlindLimitedWinLimitIdentities checks, at two seats under blind flips, exactly: a shared lru
// or handover-uniform memory of capacity 2n under a turn limit that never binds (with perfect
// memory every turn but a pass turns up a new card or takes a pair, at most 3n such turns, and no
// two passes come in a row, so 6n + 2 turns never end a game) gives the
// perfect-memory values to win without a limit, under pass rules never and always, from the full
// deal of 3 pairs at leads -1 .. 1. With -short: lru, pass rule never, 2 pairs.
func TestBlindLimitedWinLimitIdentities(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	W := rules.PolicyWinOptimal
	maxN, minN := 3, 3
	forgets := []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	lineups := []exact.Lineup{{Players: 2, Policy: W, Opponent: W}, {Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe}}
	passRules := []rules.PassRule{rules.PassNever, rules.PassAlways}
	if testing.Short() {
		maxN, minN, forgets, lineups, passRules = 2, 2, forgets[:1], lineups[:1], passRules[:1]
	}
	for _, rule := range passRules {
		perfect := blindWinModel(cardMemory{})
		perfect.Pass = rule
		for _, fg := range forgets {
			limited := blindWinModel(cardMemory{capacity: 2 * maxN, forget: fg})
			limited.Pass, limited.Variant.TurnLimit = rule, 6*maxN+2
			for _, mu := range lineups {
				for n := minN; n <= maxN; n++ {
					for j := n; j <= n; j++ {
						for lead := -1; lead <= 1; lead++ {
							st := rules.State{N: n, J: j, Lead: lead}
							at := fmt.Sprintf("%v, %v, %v-%v, %v", limited.Memory, rule, mu.Policy, mu.Opponent, st)
							a, err := exact.WinDrawLoss(ctx, f, limited, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", at, err)
							}
							b, err := exact.WinDrawLoss(ctx, f, perfect, mu, st)
							if err != nil {
								t.Fatalf("%s: perfect: %v", at, err)
							}
							for r := range 2 {
								if a[r].Win.Cmp(b[r].Win) != 0 || a[r].Draw.Cmp(b[r].Draw) != 0 {
									t.Errorf("%s, order %d: limited under a never-binding limit %v/%v, perfect without a limit %v/%v", at, r, a[r].Win, a[r].Draw, b[r].Win, b[r].Draw)
								}
							}
						}
					}
				}
			}
		}
	}
}
