package exact_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// winFinal is the centred win value of a game that ends at lead d.
func winFinal(d int) float64 {
	switch {
	case d > 0:
		return 0.5
	case d < 0:
		return -0.5
	}
	return 0
}

// passWin holds card-level centred win values (P(win) + P(draw)/2 - 1/2) under a pass rule:
// v[r][flag][st with its lead], role r to move, flag 1 just after a pass.
type passWin [2][2]map[rules.State]float64

// get returns role r's value with the flag at st and lead d: the final value once decided.
func (v *passWin) get(r, flag int, st rules.State, d int) float64 {
	if st.N == 0 || d > st.N || -d > st.N {
		return winFinal(d)
	}
	st.Lead = d
	return v[r][flag][st]
}

// choiceValue is the value of choice c to role r moving at lead d with the flag in st.
func (pc passChain) choiceValue(v *passWin, r, flag int, st rules.State, d int, c rules.Choice) float64 {
	x := 0.0
	if c == rules.Pass {
		if flag == 1 {
			return winFinal(d)
		}
		for _, s := range pc.pass[st] {
			x -= s.p * v.get(1-r, 1, s.key.next, -d)
		}
		return x
	}
	for _, s := range pc.chain[st][c] {
		if s.key.cont {
			x += s.p * v.get(r, 0, s.key.next, d+s.key.moverGain)
		} else {
			x -= s.p * v.get(1-r, 0, s.key.next, -d+s.key.nextGain)
		}
	}
	return x
}

// legalChoices returns the legal choices of st on the card-level chain.
func (pc passChain) legalChoices(st rules.State) []rules.Choice {
	var out []rules.Choice
	for _, c := range rules.Choices() {
		if _, ok := pc.chain[st][c]; ok {
			out = append(out, c)
		} else if _, ok := pc.pass[st]; ok && c == rules.Pass {
			out = append(out, c)
		}
	}
	return out
}

// winIterate iterates the win values on the card-level game with passes: role 0 maximises its
// own; role 1 does too when opp is nil (win-optimal self-play, both roles the same), otherwise
// plays opp.
func (pc passChain) winIterate(maxN int, opp func(rules.State) rules.Choice) *passWin {
	v := &passWin{}
	for r := range 2 {
		v[r] = [2]map[rules.State]float64{{}, {}}
	}
	best := func(r, flag int, st rules.State, d int) float64 {
		x := math.Inf(-1)
		for _, c := range pc.legalChoices(st) {
			x = math.Max(x, pc.choiceValue(v, r, flag, st, d, c))
		}
		return x
	}
	for range 100_000 {
		delta := 0.0
		for st := range pc.chain {
			for d := -st.N; d <= st.N; d++ {
				key := st
				key.Lead = d
				for flag := range 2 {
					for r := range 2 {
						var x float64
						switch {
						case r == 0 || opp == nil:
							x = best(r, flag, st, d)
						default:
							x = pc.choiceValue(v, r, flag, st, d, opp(st))
						}
						delta = math.Max(delta, math.Abs(x-v[r][flag][key]))
						v[r][flag][key] = x
					}
				}
			}
		}
		if delta < 1e-14 {
			break
		}
	}
	return v
}

// TestDecayWinPassIsCardLevel compares the policies that play to win under decay forgetting and
// the pass rules two-known and always with value iteration on the card-level turns and passes:
// win-optimal self-play's score and every legal choice's, the table's choice just after a pass,
// and a win best response to safe's win, draw and loss and every choice's score.
func TestDecayWinPassIsCardLevel(t *testing.T) {
	const maxN = 3
	ctx := context.Background()
	for _, dc := range []decayCase{
		{cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 5)}, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}},
		{cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 5)}, rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.2}},
		{cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)}, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}},
		{cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 2)}, rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}},
	} {
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			pc, err := newPassChain(dc.card, rule, maxN)
			if err != nil {
				t.Fatal(err)
			}
			model := exact.Model{Memory: dc.mem, Pass: rule}
			t.Run(dc.card.String()+"/"+rule.String(), func(t *testing.T) {
				checkWinOnChain(t, ctx, pc, model, maxN)
			})
		}
	}
}

// checkWinOnChain compares the policies that play to win under model with value iteration on the
// card-level chain pc (turns and passes) of up to maxN pairs: win-optimal self-play's score and
// every legal choice's at every state and lead, the table's choice just after a pass (under a pass
// rule), and a win
// best response to safe's win, draw and loss and every choice's score at maxN pairs. It returns
// the number of states compared.
func checkWinOnChain(t *testing.T, ctx context.Context, pc passChain, model exact.Model, maxN int) int {
	t.Helper()
	wo := pc.winIterate(maxN, nil)
	self := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	compared := 0
	err := exact.WinTable(ctx, field.Float{}, model, self, maxN, func(c *exact.WinCell[float64]) error {
		st, d := c.State.Counts(), c.State.Lead
		if _, ok := pc.chain[st]; !ok {
			return nil
		}
		compared++
		if want := wo.get(0, 0, st, d); math.Abs(c.Value-0.5-want) > 1e-9 {
			t.Errorf("win-optimal, %v: score %v, card level %v", c.State, c.Value, want+0.5)
		}
		for _, ch := range pc.legalChoices(st) {
			if want := pc.choiceValue(wo, 0, 0, st, d, ch); !c.Legal[ch] || math.Abs(c.ChoiceValue[ch]-0.5-want) > 1e-9 {
				t.Errorf("win-optimal, %v, %v: score %v (legal %v), card level %v", c.State, ch, c.ChoiceValue[ch], c.Legal[ch], want+0.5)
			}
		}
		return nil
	})
	if err != nil || compared == 0 {
		t.Fatalf("WinTable: %v, %d compared", err, compared)
	}
	table, err := exact.PolicyTable(ctx, field.Float{}, model, self, maxN)
	if err != nil {
		t.Fatal(err)
	}
	for key := range wo[0][1] {
		if model.Pass == rules.PassNever {
			break
		}
		c, ok := table.Lookup(key, true)
		if !ok {
			t.Fatalf("%v: no choice after a pass", key)
		}
		st := key.Counts()
		if got, want := pc.choiceValue(wo, 0, 1, st, key.Lead, c), wo.get(0, 1, st, key.Lead); math.Abs(got-want) > 1e-9 {
			t.Errorf("win-optimal after a pass, %v: the table's %v scores %v, the best %v", key, c, got+0.5, want+0.5)
		}
	}
	br := pc.winIterate(maxN, rules.PolicySafe.Decide)
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe}
	for key, want := range br[0][0] {
		if key.N != maxN {
			continue
		}
		wc, err := exact.WinChoiceValues(ctx, field.Float{}, model, mu, key)
		if err != nil {
			t.Fatal(err)
		}
		v := wc.Value
		if sum := v.Win + v.Draw + v.Loss; math.Abs(sum-1) > 1e-9 || math.Abs(v.Win+v.Draw/2-0.5-want) > 1e-9 {
			t.Errorf("win best response to safe, %v: %v (sum %v), card level score %v", key, v, sum, want+0.5)
		}
		for _, cv := range wc.Values {
			if want := pc.choiceValue(br, 0, 0, key.Counts(), key.Lead, cv.Choice); math.Abs(cv.Score-0.5-want) > 1e-9 {
				t.Errorf("win best response to safe, %v, %v: score %v, card level %v", key, cv.Choice, cv.Score, want+0.5)
			}
		}
	}
	return compared
}

// TestDecayWinPassIdentities checks the policies that play to win under decay forgetting and a
// pass rule against models they must agree with: a capacity of 2n equals none, q = 1e-9 is
// perfect memory under the same pass rule, and the win, draw and loss probabilities, the score
// distribution and the expected pairs agree.
func TestDecayWinPassIdentities(t *testing.T) {
	ctx := context.Background()
	const n = 3
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range []exact.Lineup{
			{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
			{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
			{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyWinOptimal},
		} {
			for _, st := range []rules.State{{N: n, J: n}, {N: n, J: 1, Lead: -1}} {
				none := exact.Model{Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}}
				wide := none
				wide.Memory.Capacity = 2 * n
				a, err := exact.WinDrawLoss(ctx, field.Rat{}, none, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				b, err := exact.WinDrawLoss(ctx, field.Rat{}, wide, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				sum := new(big.Rat).Add(a[0].Win, a[0].Draw)
				if sum.Add(sum, a[0].Loss); sum.Cmp(big.NewRat(1, 1)) != 0 || a[0].Win.Cmp(b[0].Win) != 0 || a[0].Draw.Cmp(b[0].Draw) != 0 {
					t.Errorf("%v, %v, %v: no capacity %s/%s/%s, capacity %d %s/%s", rule, mu, st, a[0].Win.RatString(), a[0].Draw.RatString(),
						a[0].Loss.RatString(), 2*n, b[0].Win.RatString(), b[0].Draw.RatString())
				}
				d, err := exact.Distribution(ctx, field.Rat{}, none, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				res, err := exact.Evaluate(ctx, field.Rat{}, none, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				mean := new(big.Rat)
				for i, p := range d.Prob {
					mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
				}
				if d.Win.Cmp(a[0].Win) != 0 || d.Draw.Cmp(a[0].Draw) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
					t.Errorf("%v, %v, %v: distribution win %s draw %s mean %s; WinDrawLoss %s %s; Evaluate %s", rule, mu, st,
						d.Win.RatString(), d.Draw.RatString(), mean.RatString(), a[0].Win.RatString(), a[0].Draw.RatString(), res.ExpectedPairs.RatString())
				}
				tiny := exact.Model{Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}}
				x, err := exact.WinDrawLoss(ctx, field.Float{}, tiny, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				y, err := exact.WinDrawLoss(ctx, field.Float{}, exact.Model{Pass: rule}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(x[0].Win-y[0].Win) > 1e-6 || math.Abs(x[0].Draw-y[0].Draw) > 1e-6 {
					t.Errorf("%v, %v, %v: q = 1e-9 wins %v draws %v, perfect memory %v %v", rule, mu, st, x[0].Win, x[0].Draw, y[0].Win, y[0].Draw)
				}
			}
		}
	}
}

// Under pass rule two-known a pass needs two known cards: with q = 1 every hand-over forgets
// them all, so that from a deal with nothing known no seat can pass and the values are pass rule
// never's.
func TestDecayWinPassWithoutPassesIsNever(t *testing.T) {
	ctx := context.Background()
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: 1}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	st := rules.State{N: 4, J: 4}
	a, err := exact.WinDrawLoss(ctx, field.Rat{}, exact.Model{Memory: mem}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	b, err := exact.WinDrawLoss(ctx, field.Rat{}, exact.Model{Memory: mem, Pass: rules.PassTwoKnown}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	if a[0].Win.Cmp(b[0].Win) != 0 || a[0].Draw.Cmp(b[0].Draw) != 0 {
		t.Errorf("q = 1: pass rule never wins %s draws %s, two-known %s %s", a[0].Win.RatString(), a[0].Draw.RatString(), b[0].Win.RatString(), b[0].Draw.RatString())
	}
}
