package tournament

import "context"

// ValidateWrongExpectation is Validate with a negative control: seat 0 of every two-player matchup
// is checked against seat 1's exact expectation, which the checks must reject.
func (s *Suite) ValidateWrongExpectation(ctx context.Context, o ValidateOptions) (*Validation, error) {
	return s.validate(ctx, o, controls{wrongExpectation: true})
}

// ValidateBiasedLuck is Validate with luck tables biased by delta pairs in favour of every daring
// choice, which the checks of the luck-adjusted means must reject.
func (s *Suite) ValidateBiasedLuck(ctx context.Context, o ValidateOptions, delta float64) (*Validation, error) {
	return s.validate(ctx, o, controls{biasedLuck: delta})
}

// ValidateTwoPlayerOptimal is Validate with the expectation of every matchup of three or more
// seats that plays optimal taken from the two-player optimum's choices, which the engine does not
// play: the checks must reject it where the two optima differ.
func (s *Suite) ValidateTwoPlayerOptimal(ctx context.Context, o ValidateOptions) (*Validation, error) {
	return s.validate(ctx, o, controls{twoPlayerOptimal: true})
}

// ValidateSpreadTurns is Validate with solitaire's games checked against a distribution of the
// number of turns wider than the exact one, with the same mean, which the G test of the turns
// must reject.
func (s *Suite) ValidateSpreadTurns(ctx context.Context, o ValidateOptions) (*Validation, error) {
	return s.validate(ctx, o, controls{spreadTurns: true})
}
