package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// blindSingles enumerates the outcomes of a turn under blind flips with singletons and perfect
// memory (docs/models.md §4.17, "Singletons"): k = n - j half-known pairs, j unknown pairs, f
// unseen singletons, u = n + j + f unknown cards. Daring names two unknown cards, uniform among
// the u(u - 1)/2 pairs of them; a singleton among them is then seen and never matches. Safe names
// an unknown card and a remembered one, a half-known pair's card when there is one, otherwise a
// seen singleton, which are the two cards known-first flips: both have known-first's outcomes.
func (t *turn) blindSingles(c rules.Choice) {
	n, j, f := t.st.N, t.st.J, t.st.F
	k, u := n-j, int64(t.st.Unknown())
	switch {
	case c == rules.Pass:
		t.emit(EventPass, Frac{1, 1}, t.st, false, 0, 0)
	case c == rules.Daring && u >= 2:
		pairs := u * (u - 1) / 2
		// Both cards of an unknown pair: taken, and the mover moves again.
		t.emit(EventLucky, Frac{int64(j), pairs}, t.at(n-1, k, f), true, 1, 0)
		// Two remembered cards' partners: the next seat takes both pairs first.
		t.emit(EventTwoKnownPartners, Frac{int64(k * (k - 1) / 2), pairs}, t.at(n-2, k-2, f), false, 0, 2)
		// A remembered card's partner and a new pair card: the next seat takes that pair first.
		t.emit(EventNewThenKnownPartner, Frac{int64(2 * k * j), pairs}, t.at(n-1, k, f), false, 0, 1)
		// A remembered card's partner and an unseen singleton.
		t.emit(EventKnownPartnerAndSingleton, Frac{int64(k * f), pairs}, t.at(n-1, k-1, f-1), false, 0, 1)
		// Two new cards of different pairs.
		t.emit(EventTwoNew, Frac{int64(2 * j * (j - 1)), pairs}, t.at(n, k+2, f), false, 0, 0)
		// A new pair card and an unseen singleton.
		t.emit(EventNewThenSingleton, Frac{int64(2 * j * f), pairs}, t.at(n, k+1, f-1), false, 0, 0)
		// Two unseen singletons.
		t.emit(EventTwoSingletons, Frac{int64(f * (f - 1) / 2), pairs}, t.at(n, k, f-2), false, 0, 0)
	case c == rules.Daring:
		// One unknown card left (n = 1, j = 0, f = 0): the second card named is the remembered
		// pair card, its partner.
		t.emit(EventFirstHit, Frac{1, 1}, t.at(n-1, k-1, f), true, 1, 0)
	default:
		t.knownFirst()
	}
}

// checkBlindSinglesLineup refuses the lineups of blind flips with singletons that are not solved:
// the policies that play to win. Three to eight seats under every pass rule, with or without a
// turn limit, are the sweeps of perfect memory (selfishpass.go, limitpassseats.go) reading these
// outcomes.
func checkBlindSinglesLineup(m Model, mu Lineup) error {
	if m.Variant.Flips != rules.FlipsBlind || m.Singletons == 0 {
		return nil
	}
	for _, p := range []rules.Policy{mu.Policy, mu.Opponent} {
		if p != rules.PolicyWinOptimal && p != rules.PolicyWinBestResponse {
			continue
		}
		if mu.Players != 2 || mu.PerSeat || !m.Memory.Perfect() {
			return fmt.Errorf("policy %s: blind flips with singletons are solved to win at two seats with perfect memory only", p)
		}
	}
	return nil
}
