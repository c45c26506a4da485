package strategies

import "memsim/sim"

// Random flips uniformly at random among the face-down cards it may legally flip, and takes
// nothing on purpose: it finds pairs only by chance.
type Random struct{}

// Flip implements sim.Strategy.
func (Random) Flip(*sim.View) sim.Move { return sim.FlipRandom() }
