package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Policy names a way of choosing at the start of each turn.
type Policy uint8

const (
	// PolicyOptimal plays the choice that is optimal when both sides play it (two players); it is
	// read from the exact solver's table of the player's memory model.
	PolicyOptimal Policy = iota
	// PolicySafe makes the safe move wherever it is legal.
	PolicySafe
	// PolicyDaring always makes the daring move.
	PolicyDaring
	// PolicyParity is Alfthan's rule: daring when j is odd, safe when j is even.
	PolicyParity
	// PolicyBestResponse plays the best reply to a named opponent policy, maximising its own
	// expected pairs (at three or more seats against every other seat playing that policy); it is
	// computed by the exact solver.
	PolicyBestResponse
	// PolicyWinOptimal plays to win: it maximises P(win) + P(draw)/2 for the mover when both
	// sides play it (two players), so its choice depends on the lead so far (docs/models.md
	// §4.13); at three or more seats, P(most pairs) with ties shared when every seat plays it, its
	// choice depending on every seat's pairs so far (§4.7). It is computed by the exact solver.
	PolicyWinOptimal
	// PolicyWinBestResponse plays the best reply, under the win objective, to a named opponent
	// policy (at three or more seats, P(most pairs) against every other seat playing it); it is
	// computed by the exact solver.
	PolicyWinBestResponse
)

var policyNames = [...]string{
	PolicyOptimal:         "optimal",
	PolicySafe:            "safe",
	PolicyDaring:          "daring",
	PolicyParity:          "parity",
	PolicyBestResponse:    "best-response",
	PolicyWinOptimal:      "win-optimal",
	PolicyWinBestResponse: "win-best-response",
}

// String returns the policy's name.
func (p Policy) String() string { return nameOf(policyNames[:], p, "Policy") }

// PolicyNames lists the names ParsePolicy accepts.
func PolicyNames() []string { return append([]string(nil), policyNames[:]...) }

// ParsePolicy parses a policy name.
func ParsePolicy(name string) (Policy, error) {
	return parseName[Policy](policyNames[:], name, "policy", policyNames[:])
}

// Opponents lists the policies p can answer, for a policy defined as the reply to another
// (best-response); it is nil for a policy that stands alone.
// The configurations, the player builder and the exact solver all take this rule from here.
func (p Policy) Opponents() []Policy {
	switch p {
	case PolicyBestResponse:
		return []Policy{PolicyOptimal, PolicySafe, PolicyDaring, PolicyParity}
	case PolicyWinBestResponse:
		return []Policy{PolicyOptimal, PolicySafe, PolicyDaring, PolicyParity, PolicyWinOptimal}
	}
	return nil
}

// PlaysToWin reports whether the policy maximises P(win) + P(draw)/2 rather than the expected
// pairs: its choice depends on the mover's lead so far as well as on the count state. With three
// or more seats the objective is P(most pairs), a tie for the most shared.
func (p Policy) PlaysToWin() bool { return p == PolicyWinOptimal || p == PolicyWinBestResponse }

// CheckReply reports whether a player of policy p may answer opponent in a game of players seats:
// a policy that answers another needs one of its Opponents and at least two seats (at three or
// more, one seat replies and every other seat plays opponent; which models solve that is the
// exact solver's to say); a policy that stands alone takes no opponent (hasOpponent false);
// win-optimal needs at least two seats.
func (p Policy) CheckReply(opponent Policy, hasOpponent bool, players int) error {
	allowed := p.Opponents()
	switch {
	case p == PolicyWinOptimal && players < 2:
		return fmt.Errorf("policy %s plays to win, which is defined for 2 or more players, not %d", p, players)
	case allowed == nil && hasOpponent:
		return fmt.Errorf("policy %s takes no opponent", p)
	case allowed == nil:
		return nil
	case !hasOpponent:
		return fmt.Errorf("policy %s needs an opponent (allowed: %s)", p, policyList(allowed))
	case !slices.Contains(allowed, opponent):
		return fmt.Errorf("policy %s cannot answer %s (allowed: %s)", p, opponent, policyList(allowed))
	case players < 2:
		return fmt.Errorf("policy %s replies to other seats, which needs 2 or more players, not %d", p, players)
	}
	return nil
}

// policyList joins policy names for an "allowed:" list.
func policyList(ps []Policy) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.String()
	}
	return strings.Join(names, ", ")
}

// Fixed reports whether the policy's choice is a function of the state alone, defined here rather
// than computed by a solver.
func (p Policy) Fixed() bool { return p == PolicySafe || p == PolicyDaring || p == PolicyParity }

// Decide returns a fixed policy's choice in st. A fixed policy never passes and never plays
// known-first; where the safe move is not legal it plays daring. Decide panics for a policy that is
// not Fixed: the caller must look those up in a solver's table.
func (p Policy) Decide(st State) Choice {
	var c Choice
	switch p {
	case PolicySafe:
		c = Safe
	case PolicyDaring:
		c = Daring
	case PolicyParity:
		if st.J%2 == 1 {
			c = Daring
		} else {
			c = Safe
		}
	default:
		panic(fmt.Sprintf("rules: policy %s is not fixed", p))
	}
	if c == Safe && !Legal(st, Safe, PassNever) {
		c = Daring
	}
	return c
}
