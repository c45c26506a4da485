package exact_test

// The policies that play to win (docs/models.md §4.13) under decay forgetting with singletons and
// under blind flips with decay forgetting (§4.14, §4.17), checked against value iteration on the
// card-level turns (every deal of the cards not remembered, each remembered card forgotten with
// probability q at the hand-over, then the capacity's excess), with the lead in the state.

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

// withPasses returns the card-level chain ch with the passes legal under rule, each forgetting
// among the remembered cards card by card.
func withPasses(ch cardChain, m cardMemory, rule rules.PassRule) (passChain, error) {
	pc := passChain{chain: ch, pass: map[rules.State][]cardStep{}}
	for st := range ch {
		if !rules.Legal(st, rules.Pass, rule) {
			continue
		}
		steps, err := decayPassSteps(st, m)
		if err != nil {
			return passChain{}, err
		}
		pc.pass[st] = steps
	}
	return pc, nil
}

// blindDecayChain builds the card-level turn distributions under blind flips of every state with
// at most maxN pairs that memory m holds.
func blindDecayChain(m cardMemory, maxN int) (cardChain, error) {
	ch := cardChain{}
	for n := 1; n <= maxN; n++ {
		for j := m.jMin(n); j <= n; j++ {
			st := rules.State{N: n, J: j}
			ch[st] = map[rules.Choice][]cardStep{}
			for _, c := range threeChoices {
				if !rules.Legal(st, c, rules.PassNever) {
					continue
				}
				d, err := blindCardDist(st, nil, m, c, pickOldest)
				if err != nil {
					return nil, err
				}
				for k, p := range d.pruned() {
					f, _ := p.Float64()
					ch[st][c] = append(ch[st][c], cardStep{f, k})
				}
			}
		}
	}
	return ch, nil
}

// TestDecaySinglesWinIsCardLevel compares win-optimal self-play (every state and lead, every
// legal choice's score, the choice just after a pass) and a win best response to safe under decay
// forgetting with singletons with value iteration on the card-level turns and passes, under every
// pass rule, up to 3 pairs (2 with -short, fewer memories).
func TestDecaySinglesWinIsCardLevel(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	ctx := context.Background()
	compared := 0
	for _, dc := range decaySinglesCases() {
		// capacity, singletons, q: the pass rules checked.
		keep := map[[2]int]float64{{0, 1}: 0.5, {3, 2}: 0.25, {2, 1}: 0.25}
		if q, ok := keep[[2]int{dc.mem.Capacity, dc.singles}]; !ok || q != dc.mem.Decay {
			continue
		}
		passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
		if testing.Short() {
			if dc.mem.Capacity != 0 {
				continue
			}
			passRules = passRules[:1]
		}
		chain, err := decaySinglesChain(dc.decayCase, maxN, dc.singles)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range passRules {
			pc, err := withPasses(chain, dc.card, rule)
			if err != nil {
				t.Fatal(err)
			}
			model := exact.Model{Memory: dc.mem, Singletons: dc.singles, Pass: rule}
			t.Run(fmt.Sprintf("%v/s=%d/%v", dc.card, dc.singles, rule), func(t *testing.T) {
				compared += checkWinOnChain(t, ctx, pc, model, maxN)
			})
		}
	}
	t.Logf("compared %d states' win values with the card-level iteration", compared)
}

// TestBlindDecayWinIsCardLevel compares the policies that play to win under blind flips with
// decay forgetting (q = 1/4, no capacity and capacity 3) with value iteration on the card-level
// blind turns and passes, as TestDecaySinglesWinIsCardLevel does, under every pass rule, up to 4
// pairs (3 with -short: pass rule never without a capacity, two-known with one).
func TestBlindDecayWinIsCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	compared := 0
	for _, dc := range decayCases() {
		if dc.mem.Decay != 0.25 || dc.mem.Capacity == 2 || (testing.Short() && dc.mem.Capacity != 0) {
			continue
		}
		passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
		if testing.Short() {
			passRules = passRules[:1]
		}
		chain, err := blindDecayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range passRules {
			pc, err := withPasses(chain, dc.card, rule)
			if err != nil {
				t.Fatal(err)
			}
			model := exact.Model{Memory: dc.mem, Pass: rule, Variant: rules.Variant{Flips: rules.FlipsBlind}}
			t.Run(fmt.Sprintf("%v/%v", dc.card, rule), func(t *testing.T) {
				compared += checkWinOnChain(t, ctx, pc, model, maxN)
			})
		}
	}
	t.Logf("compared %d states' win values with the card-level iteration", compared)
}

// TestDecayWinSinglesBlindIdentities checks the policies that play to win under decay forgetting
// with singletons and under blind flips against models they must agree with: q = 1e-9 scores as
// perfect memory does (float64); a win best response to safe scores at least what the best response in pairs
// does against safe, and win-optimal's score from the deal is 1/2 plus half the lead's sign's
// expectation (the win, draw and loss probabilities of its score distribution, exact); under
// blind flips with q = 1 nothing is remembered at a turn's start, so only daring is legal (pass
// rule two-known needs two known cards) and win-optimal plays as daring does. -short checks the
// last only.
func TestDecayWinSinglesBlindIdentities(t *testing.T) {
	ctx := context.Background()
	blind := rules.Variant{Flips: rules.FlipsBlind}
	wo := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, tc := range []struct {
		model exact.Model
		st    rules.State
	}{
		{exact.Model{Singletons: 1, Pass: rules.PassAlways}, rules.State{N: 2, J: 2, S: 1, F: 1}},
		{exact.Model{Variant: blind}, rules.State{N: 3, J: 1, Lead: 1}},
		{exact.Model{Singletons: 2}, rules.State{N: 3, J: 2, S: 2, F: 1, Lead: -1}},
		{exact.Model{Variant: blind, Pass: rules.PassTwoKnown}, rules.State{N: 4, J: 4}},
	} {
		if testing.Short() {
			break
		}
		tiny := tc.model
		tiny.Memory = rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}
		x, err := exact.WinDrawLoss(ctx, field.Float{}, tiny, wo, tc.st)
		if err != nil {
			t.Fatal(err)
		}
		y, err := exact.WinDrawLoss(ctx, field.Float{}, tc.model, wo, tc.st)
		if err != nil {
			t.Fatal(err)
		}
		// Choices of equal score may be broken apart by q's tiny effect: the scores agree.
		if sx, sy := x[0].Win+x[0].Draw/2, y[0].Win+y[0].Draw/2; math.Abs(sx-sy) > 1e-6 {
			t.Errorf("%+v, %v: q = 1e-9 wins %v draws %v, perfect memory %v %v", tc.model, tc.st, x[0].Win, x[0].Draw, y[0].Win, y[0].Draw)
		}
		m := tc.model
		m.Memory = rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}
		score := func(mu exact.Lineup) *big.Rat {
			d, err := exact.Distribution(ctx, field.Rat{}, m, mu, tc.st)
			if err != nil {
				t.Fatalf("%+v, %v, %v: %v", m, mu, tc.st, err)
			}
			s := new(big.Rat).Mul(d.Draw, big.NewRat(1, 2))
			return s.Add(s, d.Win)
		}
		win := score(exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe})
		pairs := score(exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe})
		if win.Cmp(pairs) < 0 {
			t.Errorf("%+v, %v: the win best response to safe scores %s, the best response in pairs %s", m, tc.st, win.RatString(), pairs.RatString())
		}
		a, err := exact.WinDrawLoss(ctx, field.Rat{}, m, wo, tc.st)
		if err != nil {
			t.Fatal(err)
		}
		got := new(big.Rat).Mul(a[0].Draw, big.NewRat(1, 2))
		if got.Add(got, a[0].Win); got.Cmp(score(wo)) != 0 {
			t.Errorf("%+v, %v: win-optimal's WinDrawLoss scores %s, its distribution %s", m, tc.st, got.RatString(), score(wo).RatString())
		}
	}
	for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
		m := exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 1}, Variant: blind, Pass: rule}
		st := rules.State{N: 4, J: 4}
		a, err := exact.WinDrawLoss(ctx, field.Rat{}, m, wo, st)
		if err != nil {
			t.Fatal(err)
		}
		d, err := exact.Distribution(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyDaring}, st)
		if err != nil {
			t.Fatal(err)
		}
		if a[0].Win.Cmp(d.Win) != 0 || a[0].Draw.Cmp(d.Draw) != 0 {
			t.Errorf("q = 1, blind, %v: win-optimal wins %s draws %s, daring against daring %s %s", rule, a[0].Win.RatString(), a[0].Draw.RatString(), d.Win.RatString(), d.Draw.RatString())
		}
	}
}

// TestBlindDecayWinLimitCardLevel compares, at two seats under blind flips with decay forgetting
// (q = 1/4, no capacity; capacity 3 too without -short) and turn limits 3 and 5 (pass rule never),
// the solver with the card-level game tree (blindWinTree: every card of every turn, each card
// remembered at a hand-over forgotten with probability q in every combination), from every state
// of up to 3 pairs (2 with -short, limit 3) and leads -1 .. 1: the mover's score and P(draw) with
// win-optimal's table against itself and the card-level search's score, which reads no table,
// and a win best response to safe's score.
func TestBlindDecayWinLimitCardLevel(t *testing.T) {
	ctx := context.Background()
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	mems := []cardMemory{{forget: rules.ForgetDecay, q: big.NewRat(1, 4)}, {capacity: 3, forget: rules.ForgetDecay, q: big.NewRat(1, 4)}}
	limits, maxN := []int{3, 5}, 3
	if testing.Short() {
		mems, limits, maxN = mems[:1], limits[:1], 2
	}
	const tol = 1e-9
	compared := 0
	for _, m := range mems {
		for _, limit := range limits {
			model := exact.Model{Memory: rules.Memory{Capacity: m.capacity, Forget: rules.ForgetDecay, Decay: 0.25},
				Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
			for _, pols := range [][2]rules.Policy{{W, W}, {B, rules.PolicySafe}} {
				name := fmt.Sprintf("%v, limit %d, %v", m, limit, pols)
				mu := exact.Lineup{Players: 2, Policy: pols[0], Opponent: pols[1]}
				keyer := newBlindLimitGame(m, nil, pickOldest)
				play := &blindWinTree{m: m, rule: rules.PassNever, limit: limit, pols: pols, keyer: keyer, memo: map[string]winVal{}}
				var search *blindWinTree
				if pols[0] == W {
					tab, err := exact.PolicyTable[float64](ctx, field.Float{}, model, mu, maxN)
					if err != nil {
						t.Fatalf("%s: table: %v", name, err)
					}
					play.tables = [2]*rules.ChoiceTable{tab, tab}
					search = &blindWinTree{m: m, rule: rules.PassNever, limit: limit, pols: pols, search: true, keyer: keyer, memo: map[string]winVal{}}
				}
				for n := 1; n <= maxN; n++ {
					for j := m.jMin(n); j <= n; j++ {
						for d := -1; d <= 1; d++ {
							st := rules.State{N: n, J: j, Lead: d}
							wdl, err := exact.WinDrawLoss[float64](ctx, field.Float{}, model, mu, st)
							if err != nil {
								t.Fatalf("%s, %v: %v", name, st, err)
							}
							w := newCardWorld(rules.State{N: n, J: j}, nil)
							got := winVal{wdl[0].Win + wdl[0].Draw/2, wdl[0].Draw}
							want := play.value(t, w, limit, 0, d, 0)
							compared++
							if math.Abs(got.score-want.score) > tol || (search != nil && math.Abs(got.draw-want.draw) > tol) {
								t.Errorf("%s, %v: score and draw: solver %.12f %.12f, card level %.12f %.12f", name, st, got.score, got.draw, want.score, want.draw)
							}
							if search != nil {
								if sv := search.value(t, w, limit, 0, d, 0); math.Abs(got.score-sv.score) > tol {
									t.Errorf("%s, %v: win-optimal's score: solver %.12f, card-level search %.12f", name, st, got.score, sv.score)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d values with the card-level game tree", compared)
}

// winLimit is the score P(win) + P(draw)/2 of role r moving in st at lead d with t turns left on
// the card-level chain (pass rule never): role 0 maximises its own score, role 1 too when opp is
// nil, otherwise plays opp; a pair left known whole is taken by the next seat in a turn of its
// own, memoised in memo.
func (ch cardChain) winLimit(r int, st rules.State, d, t int, opp func(rules.State) rules.Choice, memo map[string]float64) float64 {
	if t == 0 || st.N == 0 {
		return winFinal(d) + 0.5
	}
	key := fmt.Sprint(r, st, d, t)
	if v, ok := memo[key]; ok {
		return v
	}
	best := math.Inf(-1)
	for _, c := range threeChoices {
		_, ok := ch[st][c]
		if !ok || (r == 1 && opp != nil && c != opp(st)) {
			continue
		}
		best = math.Max(best, ch.winChoiceLimit(r, st, d, t, c, opp, memo))
	}
	memo[key] = best
	return best
}

// winChoiceLimit is the score of choice c to role r in st at lead d with t turns left, then the
// play of winLimit.
func (ch cardChain) winChoiceLimit(r int, st rules.State, d, t int, c rules.Choice, opp func(rules.State) rules.Choice, memo map[string]float64) float64 {
	x := 0.0
	for _, s := range ch[st][c] {
		if s.key.cont {
			x += s.p * ch.winLimit(r, s.key.next, d+s.key.moverGain, t-1, opp, memo)
			continue
		}
		g := min(s.key.nextGain, t-1)
		x += s.p * (1 - ch.winLimit(1-r, s.key.next, -d+g, t-1-g, opp, memo))
	}
	return x
}

// TestDecaySinglesWinLimitCardLevel compares the policies that play to win under decay forgetting
// with singletons and a turn limit (pass rule never; limits 2 and 5, 3 with -short) with the
// card-level recursion over the turns left (winLimit): win-optimal's score and every legal
// choice's at every state of up to 3 pairs (2 with -short) and lead -1 .. 1, and a win best
// response to safe's score.
func TestDecaySinglesWinLimitCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, limits := 3, []int{2, 5}
	if testing.Short() {
		maxN, limits = 2, []int{3}
	}
	compared := 0
	for _, dc := range decaySinglesCases() {
		if dc.mem.Decay != 0.5 || dc.mem.Capacity != 3 || (testing.Short() && dc.singles != 1) {
			continue
		}
		chain, err := decaySinglesChain(dc.decayCase, maxN, dc.singles)
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range limits {
			model := exact.Model{Memory: dc.mem, Singletons: dc.singles, Variant: rules.Variant{TurnLimit: limit}}
			for _, lc := range []struct {
				mu  exact.Lineup
				opp func(rules.State) rules.Choice
			}{
				{exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, nil},
				{exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe}, rules.PolicySafe.Decide},
			} {
				name := fmt.Sprintf("%v, s=%d, limit %d, %v", dc.card, dc.singles, limit, lc.mu)
				memo := map[string]float64{}
				for st := range chain {
					for d := -1; d <= 1; d++ {
						at := st
						at.Lead = d
						wc, err := exact.WinChoiceValues(ctx, field.Float{}, model, lc.mu, at)
						if err != nil {
							t.Fatalf("%s, %v: %v", name, at, err)
						}
						compared++
						v := wc.Value
						if want := chain.winLimit(0, st, d, limit, lc.opp, memo); math.Abs(v.Win+v.Draw/2-want) > 1e-9 {
							t.Errorf("%s, %v: score %v, card level %v", name, at, v.Win+v.Draw/2, want)
						}
						for _, cv := range wc.Values {
							if want := chain.winChoiceLimit(0, st, d, limit, cv.Choice, lc.opp, memo); math.Abs(cv.Score-want) > 1e-9 {
								t.Errorf("%s, %v, %v now: score %v, card level %v", name, at, cv.Choice, cv.Score, want)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d states' scores with the card-level recursion", compared)
}
