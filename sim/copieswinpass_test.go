package sim_test

import (
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// TestCopiesLeadTableReadsThePassFlag plays tables to win under copies and pass rule always whose
// choice just after a pass differs from the choice otherwise: seat 0 passes at the start, and seat
// 1, which plays daring otherwise, passes back just after a pass, so the game ends at once in the
// stalemate, each seat with half the pairs. Read without the flag, seat 1 would play daring.
func TestCopiesLeadTableReadsThePassFlag(t *testing.T) {
	const copies, faces = 4, 2
	pairs := faces * copies / 2
	first, back := rules.NewCopiesLeadTable(copies), rules.NewCopiesLeadTable(copies)
	copiesStates(faces, copies, func(counts []int) {
		n := 0
		for i, a := range counts {
			n += (i/2 + 1) * a
		}
		for d := -(n + 1); d <= n+1; d++ {
			for _, set := range []struct {
				tab         *rules.CopiesTable
				now, passed rules.Choice
			}{{first, rules.Pass, rules.Daring}, {back, rules.Daring, rules.Pass}} {
				if err := set.tab.SetLead(counts, d, set.now); err != nil {
					t.Fatal(err)
				}
				if err := set.tab.SetLeadAfterPass(counts, d, set.passed); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	var players []sim.Player
	for i, ct := range []*rules.CopiesTable{first, back} {
		tab, err := rules.NewCopiesChoiceTable(pairs, ct)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, tablePlayer(string(rune('a'+i)), rules.Memory{}, tab))
	}
	g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: rules.Variant{Copies: copies}, Pass: rules.PassAlways, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(20) {
		if err := g.Play(sim.GameID{Seed: 7, Index: i}, nil); err != nil {
			t.Fatal(err)
		}
		if sh := g.Outcome().Share; sh[0] != pairs || sh[1] != pairs {
			t.Fatalf("game %d: the seats score %v half pairs, want %d each (a pass, a pass back)", i, sh, pairs)
		}
	}
}

// copiesStates calls visit with every state of faces (rules.CopiesTable) of at most faces faces
// with copies cards each.
func copiesStates(faces, copies int, visit func(counts []int)) {
	counts := make([]int, copies)
	var rec func(class, left int)
	rec = func(class, left int) {
		if class == copies {
			visit(counts)
			return
		}
		for a := 0; a <= left; a++ {
			counts[class] = a
			rec(class+1, left-a)
		}
		counts[class] = 0
	}
	rec(0, faces)
}
