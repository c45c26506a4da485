package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesLineups lists the matchups the copies model is checked on.
func copiesLineups() []Lineup {
	two := func(p, o rules.Policy) Lineup { return Lineup{Players: 2, Policy: p, Opponent: o} }
	one := func(p rules.Policy) Lineup { return Lineup{Players: 1, Policy: p} }
	return []Lineup{
		two(rules.PolicyOptimal, rules.PolicyOptimal),
		two(rules.PolicySafe, rules.PolicyDaring),
		two(rules.PolicyDaring, rules.PolicySafe),
		two(rules.PolicyOptimal, rules.PolicySafe),
		two(rules.PolicyBestResponse, rules.PolicySafe),
		two(rules.PolicyBestResponse, rules.PolicyDaring),
		one(rules.PolicyOptimal), one(rules.PolicySafe), one(rules.PolicyDaring),
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		SeatLineup(rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal),
		SeatLineup(rules.PolicySafe, rules.PolicyDaring, rules.PolicySafe, rules.PolicyDaring),
	}
}

func lineupName(mu Lineup) string {
	if mu.PerSeat {
		return fmt.Sprintf("%dp per seat %v", mu.Players, mu.Seats[:mu.Players])
	}
	return fmt.Sprintf("%dp %s vs %s", mu.Players, mu.Policy, mu.Opponent)
}

// sameResult reports how two results differ, or "" when every value both give is equal.
func sameResult(a, b Result[*big.Rat]) string {
	eq := func(x, y *big.Rat) bool { return (x == nil) == (y == nil) && (x == nil || x.Cmp(y) == 0) }
	switch {
	case !eq(a.ExpectedPairs, b.ExpectedPairs):
		return fmt.Sprintf("pairs %v, want %v", a.ExpectedPairs, b.ExpectedPairs)
	case !eq(a.ExpectedTurns, b.ExpectedTurns) || !eq(a.ExpectedLucky, b.ExpectedLucky):
		return fmt.Sprintf("turns %v lucky %v, want %v and %v", a.ExpectedTurns, a.ExpectedLucky, b.ExpectedTurns, b.ExpectedLucky)
	case len(a.PairsBySeat) != len(b.PairsBySeat):
		return fmt.Sprintf("pairs by seat %v, want %v", a.PairsBySeat, b.PairsBySeat)
	}
	for i := range a.PairsBySeat {
		if !eq(a.PairsBySeat[i], b.PairsBySeat[i]) {
			return fmt.Sprintf("pairs by seat %v, want %v", a.PairsBySeat, b.PairsBySeat)
		}
	}
	return ""
}

// TestCopiesTwoEqualsPairModel checks that with two copies of a face the copies model gives the
// (n, j) model's values, exactly, in every state up to 7 pairs (score distributions up to 4), and
// the same optimal choices.
func TestCopiesTwoEqualsPairModel(t *testing.T) {
	ctx, f, m := context.Background(), field.Rat{}, Model{}
	maxPairs := testSize(5, 7, 7)
	for _, mu := range copiesLineups() {
		for n := 1; n <= maxPairs; n++ {
			for j := 0; j <= n; j++ {
				st := CopiesState{Unknown: []int{j}, Half: []int{n - j}}
				got, err := EvaluateCopies(ctx, f, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", lineupName(mu), err)
				}
				want, err := Evaluate(ctx, f, m, mu, rules.State{N: n, J: j})
				if err != nil {
					t.Fatalf("%s: %v", lineupName(mu), err)
				}
				if d := sameResult(got, want); d != "" {
					t.Errorf("%s in (%d, %d): %s", lineupName(mu), n, j, d)
				}
				if mu.Players != 2 || mu.PerSeat || n > 4 {
					continue
				}
				gd, err := CopiesDistribution(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				wd, err := Distribution(ctx, f, m, mu, rules.State{N: n, J: j})
				if err != nil {
					t.Fatal(err)
				}
				for i := range wd.Prob {
					if gd.Prob[i].Cmp(wd.Prob[i]) != 0 {
						t.Errorf("%s in (%d, %d): share %d/2 has probability %v, want %v", lineupName(mu), n, j, i, gd.Prob[i], wd.Prob[i])
					}
				}
			}
		}
	}
	for _, mu := range []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
		{Players: 1, Policy: rules.PolicyOptimal},
	} {
		got, err := CopiesPolicyTable(ctx, f, m, mu, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := PolicyTable(ctx, f, m, mu, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		// The table holds the states a game from (7, 7) reaches; (7, 6) is not among them.
		found := 0
		for n := 1; n <= maxPairs; n++ {
			for j := 0; j <= n; j++ {
				c, ok := got.Lookup([]int{j, n - j})
				if !ok {
					continue
				}
				found++
				if w, _ := want.Lookup(rules.State{N: n, J: j}, false); c != w {
					t.Errorf("%s in (%d, %d): choice %v, want %v", lineupName(mu), n, j, c, w)
				}
			}
		}
		if found != got.Len() || found < maxPairs*maxPairs/2 {
			t.Errorf("%s: %d states of %d in the table", lineupName(mu), found, got.Len())
		}
	}
}
