package strategies_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestCopiesHandoverEngineReadsTheChoiceJustAfterAPass plays, under pass rule always, four copies
// of a face and a shared handover-uniform memory of capacity 2, best-response to safe against a
// second best-response to safe built from the same table. In the start state of faces (every
// card unknown) the table passes, but just after a pass it plays daring (a second pass would be a
// stalemate): so the first seat passes, and the second, just after that pass, must flip two cards
// rather than pass. An engine that read the ordinary entry just after a pass would end every game
// in a stalemate on its second turn. In the optimum's self-play (and best-response to the
// optimum) the two entries agree in every state, and safe and daring never pass, so no lineup of
// the exact model reaches a state where they differ: this lineup of two table players does.
func TestCopiesHandoverEngineReadsTheChoiceJustAfterAPass(t *testing.T) {
	ctx := context.Background()
	const copies, capacity = 4, 2
	v := rules.Variant{Copies: copies}
	for _, pairs := range []int{4, 6} {
		env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: rules.PassAlways, Variant: v, Tables: strategies.NewTables()}
		spec := strategies.Spec{Policy: "best-response", Opponent: "safe", Memory: handoverOverride(capacity)}
		var seats []sim.Player
		for i := range 2 {
			spec.Name = fmt.Sprintf("seat%d", i)
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			seats = append(seats, b.Player)
		}
		ct := seats[0].Table.Copies()
		start := make([]int, copies)
		start[copies-2] = pairs * 2 / copies // every face unknown, all its cards on the table
		normal, ok1 := ct.LookupAfterPass(start, false)
		after, ok2 := ct.LookupAfterPass(start, true)
		if !ok1 || !ok2 || normal != rules.Pass || after != rules.Daring {
			t.Fatalf("%d pairs: the table's start entries are %s (%v) and just after a pass %s (%v); the test needs pass and daring",
				pairs, normal, ok1, after, ok2)
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: rules.PassAlways, Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		games := 40
		stalemates := 0
		for i := range games {
			var log sim.Log
			if err := g.Play(sim.GameID{Seed: 5, Index: uint64(i)}, &log); err != nil {
				t.Fatal(err)
			}
			if len(log.Turns) < 2 {
				t.Fatalf("%d pairs, game %d: %d turns", pairs, i, len(log.Turns))
			}
			first, second := log.Turns[0], log.Turns[1]
			if first.End != "pass" || first.Seat != 0 {
				t.Errorf("%d pairs, game %d: seat %d's first turn ends %q, the table passes", pairs, i, first.Seat, first.End)
			}
			if second.End == "pass" || len(second.Flips) != 2 || second.Seat != 1 {
				t.Errorf("%d pairs, game %d: seat %d's turn just after the pass ends %q with %d flips, the table plays daring there",
					pairs, i, second.Seat, second.End, len(second.Flips))
			}
			if g.Outcome().Stalemate {
				stalemates++
			}
		}
		t.Logf("%d pairs: %d of %d games ended in a stalemate", pairs, stalemates, games)
	}
}
