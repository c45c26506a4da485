//go:build race

package sim_test

// raceEnabled reports whether the tests run under the race detector, which slows the engine
// down several times: the statistical tests then play fewer deals, and the luck of every deal of
// the rule variants leaves out the game of three faces of four copies.
const raceEnabled = true
