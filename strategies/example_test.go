package strategies_test

import (
	"context"
	"fmt"

	"memsim/sim"
	"memsim/strategies"
)

// Lowest takes known pairs, otherwise flips the lowest face-down position it does not remember.
// It is the example of a new policy in docs/tournaments.md.
type Lowest struct{}

// Flip implements sim.Strategy.
func (Lowest) Flip(v *sim.View) sim.Move {
	if !v.Second {
		if a, _, ok := v.KnownPair(); ok {
			return sim.FlipAt(a)
		}
	} else if p, ok := v.PartnerOf(v.First.Pos); ok {
		return sim.FlipAt(p)
	}
	for pos := 0; pos < v.Cards(); pos++ {
		if _, known := v.Remembers(pos); v.OnTable(pos) && !known && !(v.Second && pos == v.First.Pos) {
			return sim.FlipAt(pos)
		}
	}
	return sim.FlipUnknown()
}

// A strategy of one's own plays against a built-in player on the worker pool.
func Example_customStrategy() {
	ctx := context.Background()
	env := strategies.Env{MaxPairs: 8, Players: 2}
	greedy, err := strategies.Build(ctx, strategies.Spec{Name: "greedy", Policy: "greedy-random"}, env)
	if err != nil {
		fmt.Println(err)
		return
	}
	lowest := sim.Player{Name: "lowest", NewStrategy: func() sim.Strategy { return Lowest{} }}
	m := sim.Match{
		Setup:  sim.Setup{Pairs: 8, Players: []sim.Player{lowest, greedy.Player}},
		Orders: [][]int{{0, 1}, {1, 0}},
		Deals:  1000,
		Seed:   1, DealStream: 1, PlayStream: 2,
	}
	res, err := m.Play(ctx, 0, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := res.Orders[0]
	fmt.Printf("lowest moving first: %d games, %d won, %d drawn, %d lost\n", t.Games, t.Wins[0], t.Draws[0], t.Losses[0])
	// Output:
	// lowest moving first: 1000 games, 678 won, 135 drawn, 187 lost
}
