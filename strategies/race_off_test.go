//go:build !race

package strategies_test

// raceEnabled reports whether the tests run under the race detector, which slows the engine
// down several times: the statistical tests then play fewer games.
const raceEnabled = false
