package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The copies model under pass rules two-known and always, two players (docs/models.md §4.5,
// §4.16). A pass flips nothing: it hands the same state of faces to the other seat with the flag
// "a pass was just made" set, and a pass with the flag set ends the game in a stalemate that
// shares the pairs left equally, lead 0. Every other turn takes a pair or turns up a card that was
// not remembered and clears the flag, so a state refers to itself through the pass only, and the
// memoised recursion solves each state's four values (the lead of either role to move, just after
// a pass or not) in closed form once the states after it are solved. Two-known asks, as §1.4 does,
// for two remembered cards on the table at the start of the turn: with every pair remembered whole
// taken first, one card of each of two half-known faces, H >= 2; passing flips those two cards,
// which are not a pair.

// copiesPassLegal reports whether the mover in v may pass under model m's pass rule and choice
// set: two-known with at least two remembered cards (rules.PassRule.Allows counts them in the
// state's rules.State), always at any time.
func copiesPassLegal(v copiesVec, m Model) bool {
	if !m.Choices.Has(rules.Pass) {
		return false
	}
	return m.Pass.Allows(v.state().RulesState())
}

// checkCopiesPass reports whether the copies model m, whose pass rule is two-known or always,
// solves the matchup mu: two players, each optimal, best-response, safe or daring, or a role
// playing to win (copieswinpass.go), with or without a turn limit; three or more seats, each
// optimal for itself (or the two-player optimum's choices, Lineup.TwoPlayerOptimal),
// best-response, safe or daring.
func checkCopiesPass(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	switch {
	case mu.Players >= 3 && (isSelfWin(mu) || mu.playsToWinCopies()):
		return fmt.Errorf("copies %d, pass %s: with %d players the policies that play to win are solved under pass never only (allowed: optimal, best-response, safe, daring)", k, m.Pass, mu.Players)
	}
	return nil
}

// nonPassLeads returns the lead of every legal choice of c but the pass, the game going on as val
// reads the states after it (flag cleared), and the largest of them.
func (s *copiesSolver[T]) nonPassLeads(c *copiesCell[T], val func(x *copiesCell[T], next bool) T) ([rules.NumChoices]T, T) {
	var vals [rules.NumChoices]T
	top := s.zero
	have := false
	for _, ch := range rules.Choices() {
		if !c.legal[ch] || ch == rules.Pass {
			continue
		}
		vals[ch] = s.leadOf(c, ch, val)
		if !have || s.f.Cmp(vals[ch], top) > 0 {
			top, have = vals[ch], true
		}
	}
	return vals, top
}

// firstBest returns the first legal choice of c, in the order daring, safe, known-first, pass,
// whose value in vals is the largest.
func (s *copiesSolver[T]) firstBest(c *copiesCell[T], vals [rules.NumChoices]T) rules.Choice {
	best := rules.Daring
	for _, ch := range rules.Choices() {
		if c.legal[ch] && ch != rules.Daring && s.f.Cmp(vals[ch], vals[best]) > 0 {
			best = ch
		}
	}
	return best
}

// preparePass sets, where the mover in c (the state v) may pass, the cell the pass leads to: the
// same state, solved first with one turn fewer under a turn limit, or c itself without one.
func (s *copiesSolver[T]) preparePass(c *copiesCell[T], v copiesVec) error {
	if !c.legal[rules.Pass] {
		return nil
	}
	if s.limit == 0 {
		c.passNext = c
		return nil
	}
	nx, err := s.get(v.key(), c.t-1)
	if err != nil {
		return err
	}
	c.passNext = nx
	return nil
}

// optimalPass computes the two-player optimum in c, where the mover may pass (docs/models.md
// §4.5, §4.18): just after a pass, the best lead of the other choices or 0, the stalemate of
// passing again; otherwise the best lead of the other choices or minus the other seat's optimum
// just after the pass, in the same state (with one turn fewer under a turn limit). Without a limit
// the optimum passes where every other choice loses, and again just after a pass, the same choice
// at both flags; under a limit the choices at the two flags may differ.
func (s *copiesSolver[T]) optimalPass(c *copiesCell[T]) {
	f := s.f
	vals, _ := s.nonPassLeads(c, func(x *copiesCell[T], _ bool) T { return x.opt })
	after := vals
	after[rules.Pass] = s.zero
	c.optAfterChoice = s.firstBest(c, after)
	c.optAfter = after[c.optAfterChoice]
	vals[rules.Pass] = f.Sub(s.zero, c.passNext.optAfter)
	c.optDev = vals
	c.optChoice = s.firstBest(c, vals)
	c.opt = vals[c.optChoice]
}

// leadsPass computes, under a pass rule, the two roles' leads just after a pass by the other
// seat (leadAfter) and otherwise (lead), and their choices. A pass just after a pass is a
// stalemate, lead 0; a pass otherwise is worth minus the other role's lead just after it, in the
// same state (with one turn fewer under a turn limit). A best-response role takes, at each flag,
// the first choice with the largest lead, the other role's choices being fixed by its policy;
// fixed policies never pass, and optimal makes the optimum's choice at each flag. Under a turn
// limit each role's total follows its choice: a stalemate credits both seats with the pairs left.
func (s *copiesSolver[T]) leadsPass(c *copiesCell[T]) {
	var vals [2][rules.NumChoices]T
	for r := range 2 {
		vals[r], _ = s.nonPassLeads(c, func(x *copiesCell[T], next bool) T {
			if next {
				return x.lead[1-r]
			}
			return x.lead[r]
		})
	}
	choose := func(r int, v [rules.NumChoices]T, after bool) rules.Choice {
		switch p := s.pol[r]; p {
		case rules.PolicyOptimal:
			if after {
				return c.optAfterChoice
			}
			return c.optChoice
		case rules.PolicyBestResponse:
			return s.firstBest(c, v)
		default:
			return fixedChoice(c, p)
		}
	}
	nx := c.passNext
	for r := range 2 { // just after a pass: passing again is the stalemate
		v := vals[r]
		v[rules.Pass] = s.zero
		c.brAfter[r] = choose(r, v, true)
		c.leadAfter[r] = v[c.brAfter[r]]
		if s.limit > 0 {
			c.totalAfter[r] = s.passTotal(c, r, c.brAfter[r], true)
		}
	}
	for r := range 2 {
		v := vals[r]
		if c.legal[rules.Pass] {
			v[rules.Pass] = s.f.Sub(s.zero, nx.leadAfter[1-r])
		}
		c.brChoice[r] = choose(r, v, false)
		c.lead[r] = v[c.brChoice[r]]
		if s.limit > 0 {
			c.total[r] = s.passTotal(c, r, c.brChoice[r], false)
		}
	}
	if !c.legal[rules.Pass] {
		// No pass can have been made here.
		c.brAfter, c.leadAfter, c.totalAfter = c.brChoice, c.lead, c.total
	}
}

// passTotal returns, under a turn limit, the pairs both seats take by the limit after choice ch
// of role r in c, just after a pass (after) or not, the roles' policies played afterwards: a pass
// just after a pass is the stalemate, which credits them with every pair left; a pass otherwise
// leads to the other role's total just after it.
func (s *copiesSolver[T]) passTotal(c *copiesCell[T], r int, ch rules.Choice, after bool) T {
	switch {
	case ch == rules.Pass && after:
		return s.f.FromInt(int64(c.pairs))
	case ch == rules.Pass:
		return c.passNext.totalAfter[1-r]
	}
	return s.totalOf(c, ch, func(x *copiesCell[T], next bool) T {
		if next {
			return x.total[1-r]
		}
		return x.total[r]
	})
}

// passLead returns role r's lead after it passes in c, a state solved under a pass rule: minus the
// other role's lead just after the pass.
func (s *copiesSolver[T]) passLead(c *copiesCell[T], r int) T {
	return s.f.Sub(s.zero, c.passNext.leadAfter[1-r])
}
