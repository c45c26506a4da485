package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of solitaire's distribution of the number of turns with singletons
// under a shared handover-uniform memory: every deal of husingles_cardlevel_test.go played from
// its first turn (every card unseen) by one player, each turn's flips and forgetting drawn card by
// card (husDeal.turn). A turn costs one; a turn that leaves a pair known whole costs the next turn
// too, which takes it; under a turn limit that turn is played only when the limit leaves one, and
// the game ends when the table is cleared or the limit reached.

// husSoloTurnsCard returns the probability that the game from st (no pair known whole) with turns
// turns left (turns < 0: no limit) takes exactly t turns, and whether it ends cleared, summed over
// the turns' draws; choose gives the player's choice in a count state with that many turns left.
type husSoloTurnsCard struct {
	d        *husDeal
	singles  int
	capacity int
	choose   func(st rules.State, left int) rules.Choice
	memo     map[[3]int64]float64
}

// prob is the probability that the game from st with left turns left (left < 0: no limit) ends
// after exactly t more turns, cleared when cleared is set, stopped by the limit otherwise.
func (c *husSoloTurnsCard) prob(st husCardState, left, t int, cleared bool) float64 {
	if st.present == 0 {
		if t == 0 && cleared {
			return 1
		}
		return 0
	}
	if left == 0 {
		if t == 0 && !cleared {
			return 1
		}
		return 0
	}
	if t <= 0 {
		return 0
	}
	cl := int64(0)
	if cleared {
		cl = 1
	}
	key := [3]int64{int64(st.present)<<32 | int64(st.mem), int64(left)<<32 | int64(t), cl}
	if v, ok := c.memo[key]; ok {
		return v
	}
	ch := c.choose(c.d.counts(st, c.singles), left)
	next := func(l int) int {
		if l < 0 {
			return l
		}
		return l - 1
	}
	p := 0.0
	for _, e := range c.d.turn(st, ch, c.capacity) {
		l := next(left)
		if f := c.d.fullPair(e.to); f >= 0 {
			if l == 0 { // no turn left to take the pair known whole
				if t == 1 && !cleared {
					p += e.p
				}
				continue
			}
			p += e.p * c.prob(c.d.take(e.to, f), next(l), t-2, cleared)
			continue
		}
		p += e.p * c.prob(e.to, l, t-1, cleared)
	}
	c.memo[key] = p
	return p
}

// husSoloTurnsCardLevel returns the card-level probabilities of exactly t turns, t = 0 .. maxTurns,
// from the start of a game, averaged over every deal, and the probability that the limit stops it
// with pairs on the table.
func husSoloTurnsCardLevel(pairs, singles, capacity, limit, maxTurns int, choose func(st rules.State, left int) rules.Choice) ([]float64, float64) {
	deals := husDeals(pairs, singles)
	prob := make([]float64, maxTurns+1)
	stopped := 0.0
	left := -1
	if limit > 0 {
		left = limit
	}
	for i := range deals {
		c := &husSoloTurnsCard{d: &deals[i], singles: singles, capacity: capacity, choose: choose, memo: map[[3]int64]float64{}}
		st := husCardState{present: 1<<pairs - 1}
		for t := range prob {
			prob[t] += c.prob(st, left, t, true) / float64(len(deals))
			if limit > 0 {
				s := c.prob(st, left, t, false) / float64(len(deals))
				prob[t] += s
				stopped += s
			}
		}
	}
	return prob, stopped
}

// TestHandoverSingletonsSoloTurnsMatchCardPlay compares solitaire's distribution of the number of
// turns (SolitaireTurns) from the start of a game with the card-level reference's, averaged over
// every deal, for optimal (the solver's choices played card by card) and safe, without a limit
// (up to a number of turns, the tail the rest) and under a turn limit (the probability that the
// limit stops the game too); and checks that its mean equals the expected turns of Evaluate:
// exactly under a limit, to 1e-9 without one once the tail is below 1e-12.
func TestHandoverSingletonsSoloTurnsMatchCardPlay(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		pairs, singles, capacity, limit int
		short                           bool
	}
	cases := []tc{{2, 2, 3, 0, true}, {2, 2, 3, 4, true}, {3, 1, 2, 0, false}, {2, 1, 2, 5, false}, {3, 1, 3, 7, false}, {2, 2, 3, 6, false}}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe} {
			if testing.Short() && pol == rules.PolicySafe {
				continue
			}
			t.Run(fmt.Sprintf("%d+%ds/m%d/limit%d/%s", c.pairs, c.singles, c.capacity, c.limit, pol), func(t *testing.T) {
				m := husModel(c.singles, c.capacity)
				m.Variant.TurnLimit = c.limit
				mu := Lineup{Players: 1, Policy: pol, Opponent: pol}
				var choose func(st rules.State, left int) rules.Choice
				if c.limit > 0 {
					l, err := newHUSLimit(ctx, field.Float{}, m, mu, c.pairs)
					if err != nil {
						t.Fatal(err)
					}
					choose = func(st rules.State, left int) rules.Choice { return l.layers[left][l.s.at[st]].ch[0] }
				} else {
					s, err := newHUSSolver(ctx, field.Float{}, m, mu, c.pairs)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.solve(); err != nil {
						t.Fatal(err)
					}
					choose = func(st rules.State, _ int) rules.Choice { return s.cells[s.at[st]].soloChoice }
				}
				maxTurns := 4 * (c.pairs + c.singles)
				if testing.Short() {
					maxTurns = 10
				}
				st := rules.State{N: c.pairs, J: c.pairs, S: c.singles, F: c.singles}
				d, err := SolitaireTurns(ctx, field.Float{}, m, pol, st, maxTurns)
				if err != nil {
					t.Fatal(err)
				}
				want, stopped := husSoloTurnsCardLevel(c.pairs, c.singles, c.capacity, c.limit, maxTurns, choose)
				tail := 1.0
				for k, w := range want {
					tail -= w
					if math.Abs(d.Prob[k]-w) > 1e-9 {
						t.Errorf("%d turns: probability %.12f, card level %.12f", k, d.Prob[k], w)
					}
				}
				if math.Abs(d.Tail-tail) > 1e-9 || math.Abs(d.Stopped-stopped) > 1e-9 {
					t.Errorf("tail %.12f, stopped %.12f; card level %.12f, %.12f", d.Tail, d.Stopped, tail, stopped)
				}
				if c.limit == 0 && d.Tail < 1e-3 && d.Prob[maxTurns] == 0 {
					t.Errorf("the distribution ends before %d turns under a memory that forgets", maxTurns)
				}
				// The mean against Evaluate's expected turns.
				if c.limit > 0 {
					dr, err := SolitaireTurns(ctx, field.Rat{}, m, pol, st, c.limit)
					if err != nil {
						t.Fatal(err)
					}
					res, err := Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					mean := new(big.Rat)
					for k, p := range dr.Prob {
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(k), 1)))
					}
					if mean.Cmp(res.ExpectedTurns) != 0 || dr.Tail.Sign() != 0 {
						t.Errorf("mean %v turns (tail %v), Evaluate %v", mean, dr.Tail, res.ExpectedTurns)
					}
					return
				}
				long, err := SolitaireTurns(ctx, field.Float{}, m, pol, st, 400)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Evaluate(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				mean := 0.0
				for k, p := range long.Prob {
					mean += float64(k) * p
				}
				if long.Tail > 1e-12 || math.Abs(mean-res.ExpectedTurns) > 1e-9 {
					t.Errorf("mean %.12f turns (tail %g), Evaluate %.12f", mean, long.Tail, res.ExpectedTurns)
				}
			})
		}
	}
}
