//go:build !race

package review_test

// raceEnabled reports whether the tests run under the race detector (race_on_test.go).
const raceEnabled = false
