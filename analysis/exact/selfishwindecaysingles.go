package exact

import "memsim/sim/rules"

// The win objective at three or more seats under decay forgetting with singletons and under
// blind flips with decay forgetting (docs/models.md §4.7, "Win objective", §4.14, §4.17). The
// sweeps of decay forgetting (selfishwindecay.go, selfishwindecaypass.go, selfishwinlimit.go)
// take a turn's outcomes from decayTurn: with singletons a hand-over forgets seen singletons as
// it forgets the lone cards of half-known pairs (decaySinglesOutcomes), so a row of n pairs holds
// every known count and every count of seen singletons; under blind flips a turn can leave two
// pairs known whole, which the next seat takes if the hand-over forgets neither of their cards
// (blindDecayOutcomes), so an outcome may leave the row for the one of n - 2 pairs.

// decayTurn appends to outs and probs the outcomes of a turn (or a pass) begun in st with choice
// c under decay forgetting in model m: blind flips, singletons, or pairs only.
func decayTurn[T any](h *decayHand[T], m Model, st rules.State, c rules.Choice, outs []Outcome, probs []T) ([]Outcome, []T) {
	switch {
	case m.Variant.Flips == rules.FlipsBlind:
		return blindDecayOutcomes(h, st, c, outs, probs) // blinddecay.go
	case st.S > 0:
		return decaySinglesOutcomes(h, st, c, outs, probs) // decaysingles.go
	}
	return decayOutcomes(h, st, c, outs, probs)
}

// decayPlace numbers the count states of a row of the win objective under decay: by unknown pairs
// j, then unknown singletons f (j without singletons).
func (w *selfWin[T]) decayPlace(st rules.State) int {
	return st.J*(w.m.Singletons+1) + st.F
}
