//go:build race

package tournament_test

// raceEnabled reports whether the tests run under the race detector, which slows the engine
// down several times: the negative controls of the validation suite then play one tournament of
// each of the families of perfect and lru memory, solitaire, three players and the win objective
// under pass rule never, up to raceControlPairs pairs, and an edit of the results far too many
// score counts holds fewer of them (make test-long plays and reads them all).
const raceEnabled = true
