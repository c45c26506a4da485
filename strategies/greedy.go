package strategies

import "memsim/sim"

// GreedyRandom takes every pair it can: a pair it remembers both cards of, and the remembered
// partner of a card it has just turned up. Otherwise it flips at random, as Random does.
type GreedyRandom struct{}

// Flip implements sim.Strategy.
func (GreedyRandom) Flip(v *sim.View) sim.Move {
	if !v.Second {
		if a, _, ok := v.KnownPair(); ok {
			return sim.FlipAt(a)
		}
		return sim.FlipRandom()
	}
	if p, ok := v.PartnerOf(v.First.Pos); ok {
		return sim.FlipAt(p)
	}
	return sim.FlipRandom()
}
