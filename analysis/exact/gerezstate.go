package exact

import (
	"context"
	"errors"
	"fmt"
)

// errFound ends a sweep once it has reached the state asked about (SolveGerez, ChoiceValues).
var errFound = errors.New("found")

// SolveGerez solves the one state s of Gerez's model (see Gerez): it sweeps the states with at
// most s.K cards up to s and returns its cell. A state that is not one of the model's (see
// GerezState.Valid) is an error.
func SolveGerez(ctx context.Context, s GerezState) (*GerezCell, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("%v is not a state of Gerez's model: it needs k and P even and k >= (k + P)/2 >= B >= P >= 0", s)
	}
	var cell *GerezCell
	err := Gerez(ctx, s.K, func(c *GerezCell) error {
		if c.State != s {
			return nil
		}
		cell = c
		return errFound
	})
	if err != nil && err != errFound {
		return nil, fmt.Errorf("solving %v: %w", s, err)
	}
	return cell, nil
}
