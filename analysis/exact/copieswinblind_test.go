package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// playBlind plays choice ch of role r at lead d (role 0's), t turns left, under blind flips, card
// by card: both cards are named before either is turned up. Daring names two unknown cards (the
// unknown card and the first remembered one when a single unknown card is left); safe and
// known-first name the remembered card of a face with the most cards on the table (the first
// among equals) and an unknown card. Two cards of a face are taken and the mover goes on; else
// the cards turned up are remembered, and the next seat's turn starts by taking the pairs so
// remembered whole.
func (s *winSearch) playBlind(c cardTable, ch rules.Choice, r, d, t int) winNode {
	gain := 1 - 2*r // a pair for role r moves role 0's lead by gain
	handOver := func(c cardTable) winNode { return s.start(c, 1-r, d, t-1) }
	// take takes two cards of face f, fromRem of them remembered.
	take := func(c cardTable, f, fromRem int) winNode {
		c = c.clone()
		c.left[f] -= 2
		c.rem[f] -= fromRem
		x := s.start(c, r, d+gain, t-1)
		x.lead = new(big.Rat).Add(x.lead, big.NewRat(int64(gain), 1))
		return x
	}
	// withRemembered names the remembered card of face f and an unknown card.
	withRemembered := func(f int) winNode {
		sum := zeroNode()
		draw(c, func(g int, p *big.Rat) {
			if g == f {
				sum = sum.add(p, take(c, f, 1))
				return
			}
			c2 := c.clone()
			c2.rem[g]++
			sum = sum.add(p, handOver(c2))
		})
		return sum
	}
	if ch != rules.Daring {
		f := -1
		for g := range c.left {
			if c.rem[g] > 0 && (f < 0 || c.left[g] > c.left[f]) {
				f = g
			}
		}
		return withRemembered(f)
	}
	if c.unknown() == 1 {
		for f := range c.rem {
			if c.rem[f] > 0 {
				return withRemembered(f)
			}
		}
	}
	sum := zeroNode()
	draw(c, func(f int, p *big.Rat) {
		// The first card, of face f, is turned up with the second: drawn from the other unknown
		// cards.
		first := c.clone()
		first.rem[f]++
		draw(first, func(g int, q *big.Rat) {
			pq := new(big.Rat).Mul(p, q)
			if g == f {
				sum = sum.add(pq, take(c, f, 0))
				return
			}
			c2 := first.clone()
			c2.rem[g]++
			sum = sum.add(pq, handOver(c2))
		})
	})
	return sum
}

// TestCopiesWinBlindMatchesCardSearch checks the copies model's values to win under blind flips
// against the card-level search from the start of small decks (two faces of four cards, three of
// four, two of six), without a turn limit and under limits of 1 to 5 turns, at leads 0, 1 and -2:
// win-optimal against itself and win-best-response to safe and to daring, with every choice and
// without safe (-short: the larger decks without a limit and under a limit of 3 turns, every
// choice given, win-best-response to safe only). It compares the lineup's and every choice's probabilities to win and draw, and at
// lead 0 the expected lead and the distribution of the result.
func TestCopiesWinBlindMatchesCardSearch(t *testing.T) {
	noSafe := rules.NewChoiceSet(rules.Daring, rules.KnownFirst)
	every := []rules.ChoiceSet{rules.FullChoices, noSafe}
	opps := []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring}
	decks := []struct {
		faces, copies int
		limits        []int
		choices       []rules.ChoiceSet
		opps          []rules.Policy
	}{
		{2, 4, []int{0, 1, 2, 3, 4, 5}, every, opps},
		{3, 4, []int{0, 1, 2, 3, 4, 5}, every, opps},
		{2, 6, []int{0, 1, 2, 3, 4, 5}, every, opps},
	}
	if testing.Short() {
		// The larger decks without a limit and under one, each choice given.
		for i := 1; i < len(decks); i++ {
			decks[i].limits, decks[i].choices, decks[i].opps = []int{0, 3}, every[:1], opps[:2]
		}
	}
	for _, dk := range decks {
		for _, limit := range dk.limits {
			for _, choices := range dk.choices {
				for _, opp := range dk.opps {
					if opp == rules.PolicySafe && !choices.Has(rules.Safe) {
						continue
					}
					checkBlindWin(t, dk.faces, dk.copies, limit, choices, opp)
				}
			}
		}
	}
}

// checkBlindWin compares the copies model's values to win under blind flips with the card-level
// search from the start of the given faces: win-optimal against itself, or win-best-response to
// the fixed policy opp.
func checkBlindWin(t *testing.T, faces, copies, limit int, choices rules.ChoiceSet, opp rules.Policy) {
	t.Helper()
	ctx, f := context.Background(), field.Rat{}
	pol := rules.PolicyWinBestResponse
	if opp == rules.PolicyWinOptimal {
		pol = rules.PolicyWinOptimal
	}
	mu := Lineup{Players: 2, Policy: pol, Opponent: opp}
	m := Model{Variant: rules.Variant{Copies: copies, Flips: rules.FlipsBlind, TurnLimit: limit}, Choices: choices}
	name := fmt.Sprintf("%d faces of %d, blind flips, turn limit %d, choices %s, %s vs %s", faces, copies, limit, choices, pol, opp)
	s := &winSearch{copies: copies, fixed: opp, choices: choices, limit: limit, blind: true, memo: map[string]winNode{}}
	c := cardTable{left: make([]int, faces), rem: make([]int, faces)}
	for i := range c.left {
		c.left[i] = copies
	}
	st, err := StartCopiesState(faces*copies/2, copies)
	if err != nil {
		t.Fatal(err)
	}
	for _, lead := range []int{0, 1, -2} {
		cs, got, err := CopiesWinValues(ctx, f, m, mu, st, lead)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := s.start(c, 0, lead, limit)
		if w := winWDL(f, want.u, want.draw); got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 {
			t.Errorf("%s, lead %d: win %v draw %v, search %v and %v", name, lead, got.Value.Win, got.Value.Draw, w.Win, w.Draw)
		}
		if cs.Value.ExpectedLead.Cmp(want.lead) != 0 {
			t.Errorf("%s, lead %d: expected lead %v, search %v", name, lead, cs.Value.ExpectedLead, want.lead)
		}
		for _, v := range got.Values {
			x := s.play(c, v.Choice, 0, lead, limit)
			if w := winWDL(f, x.u, x.draw); v.Win.Cmp(w.Win) != 0 || v.Draw.Cmp(w.Draw) != 0 {
				t.Errorf("%s, lead %d, %s now: win %v draw %v, search %v and %v", name, lead, v.Choice, v.Win, v.Draw, w.Win, w.Draw)
			}
		}
		if lead != 0 {
			continue
		}
		dist, err := CopiesDistribution(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		mean := new(big.Rat)
		for i, p := range dist.Prob {
			mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
		}
		if w := winWDL(f, want.u, want.draw); dist.Win.Cmp(w.Win) != 0 || dist.Draw.Cmp(w.Draw) != 0 || mean.Cmp(cs.Value.PairsBySeat[0]) != 0 {
			t.Errorf("%s: distribution wins %v draws %v, seat 0's mean %v; search %v and %v, expected pairs %v", name, dist.Win, dist.Draw, mean, w.Win, w.Draw, cs.Value.PairsBySeat[0])
		}
		if dist.Prob1 == nil {
			continue // without a limit every pair is taken: seat 0's mean gives the lead
		}
		mean1 := new(big.Rat)
		for i, p := range dist.Prob1 {
			mean1.Add(mean1, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
		}
		if lead := new(big.Rat).Sub(mean, mean1); lead.Cmp(want.lead) != 0 {
			t.Errorf("%s: the distributions' lead %v, search %v", name, lead, want.lead)
		}
	}
}
