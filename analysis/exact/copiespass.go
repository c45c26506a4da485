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
// playing to win (copieswinpass.go), without a turn limit.
func checkCopiesPass(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	switch {
	case mu.Players >= 3 && mu.TwoPlayerOptimal:
		return fmt.Errorf("copies %d, pass %s: with %d players every seat's own optimum and fixed policies are solved, not the two-player optimum's choices (its choice after a pass does not say what to do after several)", k, m.Pass, mu.Players)
	case mu.Players >= 3 && (isSelfWin(mu) || mu.playsToWinCopies()):
		return fmt.Errorf("copies %d, pass %s: with %d players the policies that play to win are solved under pass never only (allowed: optimal, best-response, safe, daring)", k, m.Pass, mu.Players)
	case mu.playsToWinCopies() && m.Variant.TurnLimit > 0:
		return fmt.Errorf("copies %d, pass %s, turn limit %d: win-optimal and win-best-response are solved under this pass rule without a turn limit (or under pass never with one)", k, m.Pass, m.Variant.TurnLimit)
	case m.Variant.TurnLimit > 0:
		return fmt.Errorf("copies %d, pass %s: a turn limit is solved under pass never only", k, m.Pass)
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

// optimalPass computes the two-player optimum in c, where the mover may pass: the best lead of
// the other choices, or 0 (the stalemate the other seat can force by passing back) when that is
// negative (docs/models.md §4.5). A pass is worth minus the other seat's best answer in the same
// state, the larger of its best other choice and passing back; the optimum passes where every
// other choice loses, and passes again just after a pass.
func (s *copiesSolver[T]) optimalPass(c *copiesCell[T]) {
	f := s.f
	vals, top := s.nonPassLeads(c, func(x *copiesCell[T], _ bool) T { return x.opt })
	reply := top
	if f.Cmp(reply, s.zero) < 0 {
		reply = s.zero
	}
	vals[rules.Pass] = f.Sub(s.zero, reply)
	c.optDev = vals
	c.optChoice = s.firstBest(c, vals)
	c.opt = vals[c.optChoice]
}

// leadsPass computes, under a pass rule, the two roles' leads just after a pass by the other
// seat (leadAfter) and otherwise (lead), and their choices. A pass just after a pass is a
// stalemate, lead 0; a pass otherwise is worth minus the other role's lead just after it. A
// best-response role takes, at each flag, the first choice with the largest lead, the other role's
// choices being fixed by its policy; fixed policies never pass, and optimal makes its one choice
// at both flags.
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
	choose := func(r int, v [rules.NumChoices]T) rules.Choice {
		switch p := s.pol[r]; p {
		case rules.PolicyOptimal:
			return c.optChoice
		case rules.PolicyBestResponse:
			return s.firstBest(c, v)
		default:
			return fixedChoice(c, p)
		}
	}
	for r := range 2 { // just after a pass: passing again is the stalemate
		v := vals[r]
		v[rules.Pass] = s.zero
		c.brAfter[r] = choose(r, v)
		c.leadAfter[r] = v[c.brAfter[r]]
	}
	for r := range 2 {
		v := vals[r]
		v[rules.Pass] = s.f.Sub(s.zero, c.leadAfter[1-r])
		c.brChoice[r] = choose(r, v)
		c.lead[r] = v[c.brChoice[r]]
	}
	if !c.legal[rules.Pass] {
		c.brAfter, c.leadAfter = c.brChoice, c.lead // no pass can have been made here
	}
}

// passLead returns role r's lead after it passes in c, a state solved under a pass rule: minus the
// other role's lead just after the pass.
func (s *copiesSolver[T]) passLead(c *copiesCell[T], r int) T {
	return s.f.Sub(s.zero, c.leadAfter[1-r])
}
