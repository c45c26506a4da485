package exact

import "memsim/sim/rules"

// The copies model under a turn limit (docs/models.md §4.16, §4.18): the state of faces gains the
// turns left, t. Every turn uses one, and a pair a turn leaves remembered whole costs the next seat
// a turn of its own, taken only when one is left (copiesSolver.after); with t = 0 the game is over
// and the pairs left count for nobody. No state refers to itself, so the memoised recursion of the
// copies model solves it as it is, over the states and numbers of turns left a game reaches. The
// values (EvaluateCopies) and the choices' values (CopiesChoiceValues) are solved; the engine's
// table, the distribution and the tournaments' exact values are not, so that Model.Validate
// refuses copies with a turn limit and only the copies model's own calls take it.

// withoutCopiesLimit returns m without its turn limit when it has more than two copies of a face:
// the model the copies model's calls validate, as they solve the limit themselves.
func (m Model) withoutCopiesLimit() Model {
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		m.Variant.TurnLimit = 0
	}
	return m
}
