package sim

import (
	"errors"
	"fmt"
	"testing"
)

// TestFirstFailure checks which of the workers' errors a match reports: a game's own failure
// before one another game caused, and the lowest game index among equals.
func TestFirstFailure(t *testing.T) {
	own := func(name string) error { return errors.New(name) }
	stopped := func(name string) error { return fmt.Errorf("%s: %w", name, ErrStopped) }
	tests := []struct {
		name string
		errs []error
		at   []uint64
		want string
	}{
		{"none", []error{nil, nil}, []uint64{0, 0}, ""},
		{"lowest index", []error{own("b"), own("a")}, []uint64{9, 3}, "a"},
		{"own before stopped", []error{stopped("s"), own("o")}, []uint64{1, 2000}, "o"},
		{"own before stopped, either order", []error{own("o"), stopped("s")}, []uint64{2000, 1}, "o"},
		{"stopped only: lowest index", []error{stopped("s9"), nil, stopped("s2")}, []uint64{9, 0, 2}, "s2: " + ErrStopped.Error()},
	}
	for _, tt := range tests {
		got := firstFailure(tt.errs, tt.at)
		if (got == nil && tt.want != "") || (got != nil && got.Error() != tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, got, tt.want)
		}
	}
}
