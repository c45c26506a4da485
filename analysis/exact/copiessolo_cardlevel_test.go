package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestSolitaireTurnsWithCopiesMatchesCardPlay plays every deal of small decks with k copies of a
// face card by card (playCardGame, which reads no count formula), one player with perfect memory
// following daring, safe or optimal (read from the solver's table), and compares the histogram
// of the number of turns with SolitaireTurns exactly: every probability, nothing beyond the
// bound, and the distribution's mean is the expected turns.
func TestSolitaireTurnsWithCopiesMatchesCardPlay(t *testing.T) {
	type deck struct{ faces, copies int }
	decks := []deck{{1, 4}, {2, 4}, {1, 6}}
	if !testing.Short() {
		decks = append(decks, deck{3, 4}, deck{2, 6})
	}
	ctx, f := context.Background(), field.Rat{}
	for _, dk := range decks {
		pairs := dk.faces * dk.copies / 2
		m := Model{Variant: rules.Variant{Copies: dk.copies}}
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
			name := fmt.Sprintf("%d faces of %d, %s", dk.faces, dk.copies, p)
			mu := Lineup{Players: 1, Policy: p, Opponent: p}
			var tab *rules.CopiesTable
			if p == rules.PolicyOptimal {
				var err error
				if tab, err = CopiesPolicyTable(ctx, f, m, mu, pairs); err != nil {
					t.Fatal(err)
				}
			}
			choose := func(_, _ int, counts []int) rules.Choice {
				if tab != nil {
					c, ok := tab.Lookup(counts)
					if !ok {
						t.Fatalf("%s: no choice in %v", name, counts)
					}
					return c
				}
				known := 0
				for i := 1; i < len(counts); i += 2 {
					known += counts[i]
				}
				if p == rules.PolicySafe && known > 0 {
					return rules.Safe
				}
				return rules.Daring
			}
			maxTurns := 3*pairs + 2
			hist := make([]int64, maxTurns+1)
			var count int64
			deals(dk.faces, dk.copies, func(deal []int) {
				_, turns, _ := playCardGame(deal, nil, cardRules{copies: dk.copies, players: 1}, choose)
				hist[min(turns, maxTurns)]++
				count++
			})
			st := rules.State{N: pairs, J: pairs}
			d, err := SolitaireTurns(ctx, f, m, p, st, maxTurns)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if d.Tail.Sign() != 0 {
				t.Errorf("%s: P(more than %d turns) = %s, want 0", name, maxTurns, d.Tail.RatString())
			}
			mean := new(big.Rat)
			for k, x := range d.Prob {
				if want := big.NewRat(hist[k], count); x.Cmp(want) != 0 {
					t.Errorf("%s: P(%d turns) = %s, card play %s", name, k, x.RatString(), want.RatString())
				}
				mean.Add(mean, new(big.Rat).Mul(x, big.NewRat(int64(k), 1)))
			}
			start, err := StartCopiesState(pairs, dk.copies)
			if err != nil {
				t.Fatal(err)
			}
			res, err := EvaluateCopies(ctx, f, m, mu, start)
			if err != nil {
				t.Fatal(err)
			}
			if res.ExpectedTurns.Cmp(mean) != 0 {
				t.Errorf("%s: the distribution's mean %s, expected turns %s", name, mean.RatString(), res.ExpectedTurns.RatString())
			}
			fl, err := SolitaireTurns(ctx, field.Float{}, m, p, st, maxTurns)
			if err != nil {
				t.Fatal(err)
			}
			for k, x := range fl.Prob {
				if r, _ := d.Prob[k].Float64(); x-r > 1e-12 || r-x > 1e-12 {
					t.Errorf("%s: float64 P(%d turns) = %g, exact %g", name, k, x, r)
				}
			}
		}
	}
}
