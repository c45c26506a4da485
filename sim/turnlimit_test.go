package sim_test

import (
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// A table for a turn limit is read with the turns left: a table that passes with one or two turns
// left and plays daring otherwise ends some games in a stalemate (two passes in a row), always at
// the limit (a mover that knows a pair whole takes it first, so not every game ends so); without a
// limit it plays daring throughout and never passes.
func TestTableReadsTheTurnsLeft(t *testing.T) {
	const pairs, limit = 6, 8
	layers := make([]*rules.ChoiceTable, limit)
	for i := range layers {
		c := rules.Daring
		if i < 2 {
			c = rules.Pass
		}
		l, err := rules.NewChoiceTable(pairs, 0)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= pairs; n++ {
			for j := 0; j <= n; j++ {
				l.Set(rules.State{N: n, J: j}, false, c)
				l.Set(rules.State{N: n, J: j}, true, c)
			}
		}
		layers[i] = l
	}
	table, err := rules.NewTurnChoiceTable(layers)
	if err != nil {
		t.Fatal(err)
	}
	players := []sim.Player{tablePlayer("a", perfect, table), tablePlayer("b", perfect, table)}
	limited := sim.Setup{Pairs: pairs, Pass: rules.PassAlways, Variant: rules.Variant{TurnLimit: limit}, Players: players}
	outs, _ := playOutcomes(t, limited, 300, false)
	stalemates := 0
	for i, o := range outs {
		switch {
		case o.Stalemate && o.Turns != limit:
			t.Fatalf("game %d: a stalemate after %d turns, not at the limit %d", i, o.Turns, limit)
		case o.Stalemate:
			stalemates++
		}
	}
	if stalemates == 0 {
		t.Fatal("no game ended in a stalemate at the limit")
	}
	free := sim.Setup{Pairs: pairs, Pass: rules.PassAlways, Players: players}
	outs, _ = playOutcomes(t, free, 300, false)
	for i, o := range outs {
		if o.Stalemate || o.Left > 0 {
			t.Fatalf("game %d without a limit: stalemate %v, %d pairs left", i, o.Stalemate, o.Left)
		}
	}
}

// The View of a strategy numbers the turns from 1 and gives the game's turn limit.
func TestViewNumbersTheTurns(t *testing.T) {
	const limit = 9
	var turns []int
	record := func(v *sim.View) sim.Move {
		if !v.Second {
			if v.TurnLimit != limit {
				panic("View.TurnLimit is not the game's limit")
			}
			turns = append(turns, v.Turn)
		}
		return unknownThenUnknown(v)
	}
	s := sim.Setup{Pairs: 8, Variant: rules.Variant{TurnLimit: limit}, Players: []sim.Player{strategyPlayer("r", perfect, record)}}
	outs, _ := playOutcomes(t, s, 20, false)
	i := 0
	for g, o := range outs {
		for k := 1; k <= o.Turns; k++ {
			if i >= len(turns) || turns[i] != k {
				t.Fatalf("game %d: turn %d seen as %v", g, k, turns[i:min(i+1, len(turns))])
			}
			i++
		}
	}
}
