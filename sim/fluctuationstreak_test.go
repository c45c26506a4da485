package sim_test

import (
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// TestCapacityTablesReadThePassStreak plays three seats with a shared memory whose capacity
// fluctuates, under pass rule always, from a table with a layer per capacity whose every layer
// passes unless two seats passed in a row before and plays daring after two: read at the streak,
// the third seat always plays, so no game ends in a stalemate and every pair is taken; a table
// read only by whether the previous seat passed would pass there too and end every game at once.
func TestCapacityTablesReadThePassStreak(t *testing.T) {
	const pairs, lo, hi = 4, 2, 4
	var layers []*rules.ChoiceTable
	for range hi - lo + 1 {
		layers = append(layers, streakTable(t, pairs))
	}
	tab, err := rules.NewCapacityChoiceTable(lo, layers)
	if err != nil {
		t.Fatal(err)
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: forget, Scope: rules.ScopeShared, Fluctuation: 1}
		players := make([]sim.Player, 3)
		for i := range players {
			players[i] = sim.Player{Name: "streak", Memory: mem, Table: tab}
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: rules.PassAlways, Players: players})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if err := g.Play(sim.GameID{Index: uint64(i), Seed: 7}, nil); err != nil {
				t.Fatal(err)
			}
			o := g.Outcome()
			taken := 0
			for _, p := range o.Pairs {
				taken += p
			}
			if o.Stalemate || taken != pairs {
				t.Fatalf("%s game %d: stalemate %v, %d of %d pairs taken", mem, i, o.Stalemate, taken, pairs)
			}
		}
	}
}
