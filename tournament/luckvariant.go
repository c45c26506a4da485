package tournament

import (
	"context"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
)

// setVariantLuck is setLuck for a game of a rule variant (docs/models.md §1.7, §5.6): its games
// are adjusted in the model's own mode only, from the luck table of the variant's exact model,
// when every seat follows a table and they all have one memory that model solves (for more than
// two copies of a face: perfect memory, pairs only, pass rule never). Other games of a variant
// are not adjusted ("").
func (c *luckTables) setVariantLuck(ctx context.Context, s *sim.Setup) (string, error) {
	k := len(s.Players)
	mem := s.Players[0].Memory
	for _, p := range s.Players {
		q := p.Memory
		if p.Table == nil || q.Capacity != mem.Capacity || q.Forget != mem.Forget || q.Scope != mem.Scope || q.Decay != mem.Decay || q.Fluctuation != 0 {
			return "", nil
		}
	}
	if !mem.Perfect() && mem.Scope != rules.ScopeShared && mem.Forget != rules.ForgetLRU {
		return "", nil // private memories that forget independently: no one model of the game
	}
	shared := mem
	shared.Scope = rules.ScopeShared
	v := s.Variant
	model := exact.Model{Pass: s.Pass, Singletons: s.Singletons, Memory: shared, Variant: v}
	switch {
	case model.Validate() != nil, k > 2 && s.Pass != rules.PassNever:
		return "", nil
	case exact.IsHUSingles(model):
		return "", nil // singletons under a handover-uniform memory have exact values but no luck table
	case v.CopiesOf() != rules.DefaultCopies && (!mem.Perfect() || s.Singletons > 0 || s.Pass != rules.PassNever):
		return "", nil // the copies model's scope (§4.16, §4.18), under sequential or blind flips
	case v.CopiesOf() != rules.DefaultCopies && exact.CopiesCells(c.maxPairs, v.CopiesOf(), v.TurnLimit) > exact.CopiesStateLimit:
		return "", nil // more states of faces (and turns left) than the copies model is solved for
	}
	t, err := c.get(ctx, model, k)
	if err != nil {
		return "", err
	}
	s.Luck = t
	return "the matchup's own model: " + t.Reference(), nil
}

// variantLuckSize returns the bytes of a luck table of a rule variant other than the standard
// game, for maxPairs pairs, singletons singletons and players seats: a layer per turn left under a
// turn limit, and with more than two copies of a face a slot per state of faces (and turns left).
func variantLuckSize(v rules.Variant, maxPairs, singletons, players int) float64 {
	if k := v.CopiesOf(); k != rules.DefaultCopies {
		states := exact.CopiesCells(maxPairs, k, v.TurnLimit)
		if states < 0 {
			return MaxLuckTableBytes + 1
		}
		return float64(states) * float64(players) * float64(1+rules.NumChoices) * 8
	}
	return luckSize(maxPairs, singletons, players) * float64(max(v.TurnLimit, 1))
}
