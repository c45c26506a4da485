//go:build race

package main

// raceEnabled reports whether the tests run under the race detector, which slows the engine and
// the solver down many times: the documentation's examples of memsim validate, which play the
// whole embedded suite (a minute of CPU under the detector), are then left to make test-long.
const raceEnabled = true
