package strategies_test

import (
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// TestEnginePlaysCopiesTables plays a table read by the state of faces (known-first wherever a
// card is remembered, so that the face it flips first matters; and safe) on every deal of three
// faces of four cards and of two faces of six, and compares the engine's averages with those of a
// card-by-card reference, exactly.
func TestEnginePlaysCopiesTables(t *testing.T) {
	for _, d := range []struct{ faces, copies int }{{3, 4}, {2, 6}} {
		for _, pick := range []rules.Choice{rules.KnownFirst, rules.Safe} {
			choose := func(m copiesMove) rules.Choice {
				for i := 1; i < len(m.counts); i += 2 {
					if m.counts[i] > 0 {
						return pick
					}
				}
				return rules.Daring
			}
			ct := rules.NewCopiesTable(d.copies)
			copiesStates(d.faces, d.copies, func(counts []int) {
				if err := ct.Set(counts, choose(copiesMove{counts: counts})); err != nil {
					t.Fatal(err)
				}
			})
			pairs := d.faces * d.copies / 2
			tab, err := rules.NewCopiesChoiceTable(pairs, ct)
			if err != nil {
				t.Fatal(err)
			}
			g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: rules.Variant{Copies: d.copies},
				Players: []sim.Player{{Name: "a", Table: tab}, {Name: "b", Table: tab}}})
			if err != nil {
				t.Fatal(err)
			}
			var engLead, engTurns, refLead, refTurns int
			i := uint64(0)
			everyDeal(d.faces, d.copies, func(deal []int) {
				if err := g.PlayDeal(sim.GameID{Seed: 1, Index: i}, deal, nil); err != nil {
					t.Fatal(err)
				}
				i++
				o := g.Outcome()
				engLead += o.Pairs[0] - o.Pairs[1]
				engTurns += o.Turns
				ref := refCopiesGame(deal, copiesRef{copies: d.copies, seats: 2}, choose)
				refLead += ref.pairs[0] - ref.pairs[1]
				refTurns += ref.turns
			})
			if engLead != refLead || engTurns != refTurns {
				t.Errorf("%d faces of %d, %s: engine lead %d turns %d over %d deals, reference %d and %d",
					d.faces, d.copies, pick, engLead, engTurns, i, refLead, refTurns)
			}
		}
	}
}
