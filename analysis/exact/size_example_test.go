package exact_test

import (
	"errors"
	"fmt"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// A program checks a request against the solver's bounds before it solves, and falls back to
// float64 when exact rationals would take too long.
func ExampleCheckSize() {
	model := exact.Model{Pass: rules.PassNever}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	inFloat := false
	err := exact.CheckSize(model, mu, 100, inFloat)
	var se *exact.SizeError
	if errors.As(err, &se) && se.TooManyPairs() {
		fmt.Println(err)
		inFloat = true
		err = exact.CheckSize(model, mu, 100, inFloat)
	}
	fmt.Println("in float64:", inFloat, "error:", err)
	// Output:
	// 100 pairs: must be at most 60 (or solve in float64)
	// in float64: true error: <nil>
}
