package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// winPassSearch is a card-level game-tree search of the win objective under k copies of a face,
// perfect memory and a pass rule, two seats: every face by name, its cards on the table and how
// many of them are remembered, the unknown cards drawn one by one with the weights of their faces,
// the lead of seat 0 (role 0) so far, the seat to move, whether the other seat has just passed and,
// under a turn limit, the turns left. A pass flips nothing and hands the move over; a pass just
// after a pass ends the game, the pairs left shared equally (docs/models.md §1.4, §1.5). Under a
// limit every turn uses one, a pass too, a pair remembered whole takes a turn of its own, and the
// game ends when none is left, at the lead so far. At every decision a mover that plays to win
// takes the first choice, in the order daring, safe, known-first, pass, with the largest
// P(win) - P(loss) for itself; role 1 plays win-optimal or a fixed policy. It knows nothing of
// the state of faces' classes.
type winPassSearch struct {
	copies  int
	fixed   rules.Policy // role 1's policy: win-optimal, safe or daring
	choices rules.ChoiceSet
	pass    rules.PassRule
	// limit, when positive, is the turn limit; the turns left t are read only then.
	limit int
	memo  map[string]winPassNode
}

// winPassNode is the value of a decision for role 0 (winNode) and the mover's choice.
type winPassNode struct {
	winNode
	choice rules.Choice
}

// start plays the start of a turn of role r at role 0's lead d, t turns left under a limit: the
// mover takes every pair it remembers whole (a turn each under a limit), then chooses; passed
// says that the other seat has just passed.
func (s *winPassSearch) start(c cardTable, r, d int, passed bool, t int) winNode {
	c = c.clone()
	taken := 0
	for f := range c.left {
		for c.rem[f] >= 2 && (s.limit == 0 || t > 0) {
			c.rem[f] -= 2
			c.left[f] -= 2
			taken += 1 - 2*r
			t--
		}
	}
	v := s.decide(c, r, d+taken, passed, t).winNode
	v.lead = new(big.Rat).Add(v.lead, big.NewRat(int64(taken), 1))
	return v
}

func (s *winPassSearch) legal(c cardTable, ch rules.Choice) bool {
	if !s.choices.Has(ch) {
		return false
	}
	rem := 0
	for f := range c.rem {
		rem += c.rem[f]
	}
	switch ch {
	case rules.Daring:
		return true
	case rules.Safe, rules.KnownFirst:
		return rem >= 1
	case rules.Pass:
		return s.pass == rules.PassAlways || (s.pass == rules.PassTwoKnown && rem >= 2)
	}
	return false
}

// decide returns the value of the mover's decision, no pair remembered whole, t turns left under
// a limit, and its choice.
func (s *winPassSearch) decide(c cardTable, r, d int, passed bool, t int) winPassNode {
	if c.unknown() == 0 || (s.limit > 0 && t <= 0) {
		return winPassNode{winNode: (&winSearch{}).end(d)}
	}
	if s.limit == 0 {
		t = 0 // no turn counted
	}
	key := fmt.Sprint(c.left, c.rem, r, d, passed, t)
	if v, ok := s.memo[key]; ok {
		return v
	}
	var best winPassNode
	var bestU *big.Rat
	for _, ch := range rules.Choices() {
		if !s.legal(c, ch) {
			continue
		}
		if r == 1 && s.fixed != rules.PolicyWinOptimal {
			want := rules.Daring
			if s.fixed == rules.PolicySafe && s.legal(c, rules.Safe) {
				want = rules.Safe
			}
			if ch != want {
				continue
			}
		}
		v := s.play(c, ch, r, d, passed, t)
		u := v.u
		if r == 1 {
			u = new(big.Rat).Neg(u) // role 1 maximises its own
		}
		if bestU == nil || u.Cmp(bestU) > 0 {
			best, bestU = winPassNode{v, ch}, u
		}
	}
	s.memo[key] = best
	return best
}

// play plays choice ch of role r at role 0's lead d, t turns left under a limit, card by card.
func (s *winPassSearch) play(c cardTable, ch rules.Choice, r, d int, passed bool, t int) winNode {
	if ch == rules.Pass {
		if passed {
			// The stalemate: the pairs left shared equally, the lead so far final.
			return (&winSearch{}).end(d)
		}
		return s.decide(c, 1-r, d, true, t-1).winNode // the pass uses a turn
	}
	gain := 1 - 2*r // a pair for role r moves role 0's lead by gain
	sum := zeroNode()
	handOver := func(c cardTable) winNode { return s.start(c, 1-r, d, false, t-1) }
	take := func(c cardTable, f int) winNode {
		c = c.clone()
		c.left[f] -= 2
		c.rem[f] = 0
		x := s.start(c, r, d+gain, false, t-1)
		x.lead = new(big.Rat).Add(x.lead, big.NewRat(int64(gain), 1))
		return x
	}
	second := func(c cardTable, f int) winNode {
		out := zeroNode()
		draw(c, func(g int, p *big.Rat) {
			if g == f {
				out = out.add(p, take(c, f))
				return
			}
			c2 := c.clone()
			c2.rem[g]++
			out = out.add(p, handOver(c2))
		})
		return out
	}
	if ch == rules.KnownFirst {
		f := -1
		for g := range c.left {
			if c.rem[g] > 0 && (f < 0 || c.left[g] > c.left[f]) {
				f = g
			}
		}
		return second(c, f)
	}
	draw(c, func(f int, p *big.Rat) {
		if c.rem[f] > 0 {
			sum = sum.add(p, take(c, f))
			return
		}
		c2 := c.clone()
		c2.rem[f]++
		if ch == rules.Safe {
			sum = sum.add(p, handOver(c2))
			return
		}
		sum = sum.add(p, second(c2, f))
	})
	return sum
}

// copiesStateOf returns the solver's state of faces of c.
func copiesStateOf(copies int, c cardTable) CopiesState {
	v := make(copiesVec, copies)
	for f, r := range c.left {
		if r > 0 {
			v[copiesClass(r, min(c.rem[f], 1))]++
		}
	}
	return v.state()
}

// TestCopiesWinPassMatchesCardSearch compares the copies model's win-optimal and
// win-best-response under pass rules two-known and always with the card-level search: seat 0's
// probabilities to win and draw and every legal choice's (the choice made now, the lineup
// afterwards), the policy's choice with and without a pass just made, the expected lead and the
// score distribution's wins, draws and mean, from the start of small decks and from states with
// remembered cards of faces of two sizes, at several leads.
func TestCopiesWinPassMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type start struct {
		copies    int
		left, rem []int
	}
	starts := []start{
		{4, []int{4, 4}, []int{0, 0}},
		{2, []int{2, 2, 2}, []int{0, 0, 0}},
		{4, []int{4, 2}, []int{1, 1}},
		{6, []int{6, 4}, []int{1, 1}},
		{4, []int{2, 4, 2}, []int{1, 1, 0}},
	}
	if !testing.Short() {
		starts = append(starts, start{4, []int{4, 4, 4}, []int{0, 0, 0}}, start{6, []int{6, 6}, []int{0, 0}}, start{2, []int{2, 2, 2, 2}, []int{1, 0, 0, 0}})
	}
	noSafe := rules.NewChoiceSet(rules.Daring, rules.KnownFirst, rules.Pass)
	passes := 0
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, choices := range []rules.ChoiceSet{rules.FullChoices, noSafe} {
			for _, opp := range []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring} {
				if opp == rules.PolicySafe && !choices.Has(rules.Safe) {
					continue
				}
				pol := rules.PolicyWinBestResponse
				if opp == rules.PolicyWinOptimal {
					pol = rules.PolicyWinOptimal
				}
				mu := Lineup{Players: 2, Policy: pol, Opponent: opp}
				for i, sc := range starts {
					if testing.Short() && (!choices.Full() || opp == rules.PolicyDaring) && i > 0 {
						continue // every start under every choice set and lineup in the long run
					}
					m := Model{Variant: rules.Variant{Copies: sc.copies}, Pass: pass, Choices: choices}
					c := cardTable{left: sc.left, rem: sc.rem}
					st := copiesStateOf(sc.copies, c)
					name := fmt.Sprintf("pass %s, choices %s, %v, %s vs %s", pass, choices, st, pol, opp)
					s := &winPassSearch{copies: sc.copies, fixed: opp, choices: choices, pass: pass, memo: map[string]winPassNode{}}
					solver, err := newCopiesSolver(ctx, f, m, mu)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					cell, err := solver.get(st.vec().key(), 0)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, lead := range []int{0, 1, -2} {
						got, err := CopiesWinChoiceValues(ctx, f, m, mu, st, lead)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want := s.decide(c, 0, lead, false, 0)
						if w := winWDL(f, want.u, want.draw); got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 {
							t.Errorf("%s, lead %d: win %v draw %v, search %v and %v", name, lead, got.Value.Win, got.Value.Draw, w.Win, w.Draw)
						}
						if got.PolicyChoice != want.choice {
							t.Errorf("%s, lead %d: seat 0 chooses %s, search %s", name, lead, got.PolicyChoice, want.choice)
						}
						legal := 0
						for _, ch := range rules.Choices() {
							if s.legal(c, ch) {
								legal++
							}
						}
						if len(got.Values) != legal {
							t.Errorf("%s, lead %d: %d legal choices, search %d", name, lead, len(got.Values), legal)
						}
						for _, v := range got.Values {
							x := s.play(c, v.Choice, 0, lead, false, 0)
							if w := winWDL(f, x.u, x.draw); v.Win.Cmp(w.Win) != 0 || v.Draw.Cmp(w.Draw) != 0 {
								t.Errorf("%s, lead %d, %s now: win %v draw %v, search %v and %v", name, lead, v.Choice, v.Win, v.Draw, w.Win, w.Draw)
							}
						}
						if s.legal(c, rules.Pass) {
							after := s.decide(c, 0, lead, true, 0)
							a := cell.winAt(true)
							if ch := a.ch[0][a.at(lead)]; ch != after.choice {
								t.Errorf("%s, lead %d: just after a pass seat 0 chooses %s, search %s", name, lead, ch, after.choice)
							}
							if w := winWDL(f, after.u, after.draw); lead >= -st.Pairs() && lead <= st.Pairs() {
								got := winWDL(f, a.u[0][a.at(lead)], a.draw[0][a.at(lead)])
								if got.Win.Cmp(w.Win) != 0 || got.Draw.Cmp(w.Draw) != 0 {
									t.Errorf("%s, lead %d, just after a pass: win %v draw %v, search %v and %v", name, lead, got.Win, got.Draw, w.Win, w.Draw)
								}
							}
							if after.choice == rules.Pass || want.choice == rules.Pass {
								passes++
							}
						}
					}
					want := s.decide(c, 0, 0, false, 0)
					res, err := EvaluateCopies(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if res.ExpectedLead.Cmp(want.lead) != 0 {
						t.Errorf("%s: expected lead %v, search %v", name, res.ExpectedLead, want.lead)
					}
					dist, err := CopiesDistribution(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					mean, total := new(big.Rat), new(big.Rat)
					for i, p := range dist.Prob {
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
						total.Add(total, p)
					}
					w := winWDL(f, want.u, want.draw)
					if dist.Win.Cmp(w.Win) != 0 || dist.Draw.Cmp(w.Draw) != 0 || mean.Cmp(res.ExpectedPairs) != 0 || total.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("%s: distribution wins %v draws %v, mean %v, total %v; search %v and %v, expected pairs %v", name, dist.Win, dist.Draw, mean, total, w.Win, w.Draw, res.ExpectedPairs)
					}
				}
			}
		}
	}
	if passes == 0 {
		t.Error("no state compared in which a seat passes")
	}
}
