package sim_test

import (
	"context"
	"fmt"

	"memsim/sim"
	"memsim/sim/rules"
)

// Cautious is a strategy of one's own: it takes a pair it remembers; otherwise it flips a card it
// does not remember and, unless that card's partner is remembered (then it takes the pair), it
// turns over a card it remembers, revealing nothing new to the opponent (the safe move).
type Cautious struct{}

// Flip implements sim.Strategy.
func (Cautious) Flip(v *sim.View) sim.Move {
	if !v.Second {
		if a, _, ok := v.KnownPair(); ok {
			return sim.FlipAt(a)
		}
		return sim.FlipUnknown()
	}
	if p, ok := v.PartnerOf(v.First.Pos); ok {
		return sim.FlipAt(p)
	}
	for pos := 0; pos < v.Cards(); pos++ {
		if _, ok := v.Remembers(pos); ok && v.OnTable(pos) && pos != v.First.Pos {
			return sim.FlipAt(pos)
		}
	}
	return sim.FlipUnknown()
}

// A custom strategy plays a paired match against the daring policy, which the engine plays from
// its table: every deal once in each seat order, on the worker pool.
func Example_customStrategy() {
	daring, err := rules.FixedChoiceTable(rules.PolicyDaring, 10, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := sim.Match{
		Setup: sim.Setup{Pairs: 10, Players: []sim.Player{
			{Name: "cautious", NewStrategy: func() sim.Strategy { return Cautious{} }},
			{Name: "daring", Table: daring},
		}},
		Orders: [][]int{{0, 1}, {1, 0}},
		Deals:  2000,
		Seed:   1, DealStream: 1, PlayStream: 2,
	}
	res, err := m.Play(context.Background(), 0, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, t := range res.Orders {
		first := m.Setup.Players[m.Orders[k][0]].Name
		fmt.Printf("%s moves first: %d games, the first mover wins %d, draws %d, loses %d\n",
			first, t.Games, t.Wins[0], t.Draws[0], t.Losses[0])
	}
	// Output:
	// cautious moves first: 2000 games, the first mover wins 886, draws 223, loses 891
	// daring moves first: 2000 games, the first mover wins 740, draws 221, loses 1039
}
