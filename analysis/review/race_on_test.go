//go:build race

package review_test

// raceEnabled reports whether the tests run under the race detector, which slows the exact
// solves of every turn down many times: the every-deal tests then play their smallest deals.
const raceEnabled = true
