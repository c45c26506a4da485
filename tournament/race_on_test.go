//go:build race

package tournament_test

// raceEnabled reports whether the tests run under the race detector, which slows the engine
// down several times: the negative controls of the validation suite then play the families of
// perfect and lru memory, solitaire, three players and the win objective under pass rule never
// only (make test-long plays every family).
const raceEnabled = true
