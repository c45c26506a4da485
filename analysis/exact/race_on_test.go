//go:build race

package exact

// raceEnabled reports whether the tests run under the race detector, which slows exact
// arithmetic down many times. The solver starts no goroutines, so what the detector checks here
// does not grow with the deal: the exhaustive and identity tests then run at their smallest
// sizes, and make test-long runs them in full.
const raceEnabled = true
