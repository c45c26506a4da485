package exact

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesTwoBlindEqualsPairModel checks that with two copies of a face under blind flips the
// copies model gives the (n, j) model's values under blind flips (blind.go), exactly, in every
// state up to 6 pairs, without a turn limit and under limits of 3 and 7 turns (with -short up to
// 4 pairs, under a limit of 5), and the same score distributions up to 3 pairs.
func TestCopiesTwoBlindEqualsPairModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs := testSize(3, 4, 6)
	limits := []int{0, 3, 7}
	if testing.Short() {
		limits = []int{0, 5}
	}
	for _, limit := range limits {
		m := Model{Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
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
						t.Errorf("limit %d, %s in (%d, %d): %s", limit, lineupName(mu), n, j, d)
					}
					if mu.Players != 2 || mu.PerSeat || n > 3 {
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
							t.Errorf("limit %d, %s in (%d, %d): share %d/2 has probability %v, want %v", limit, lineupName(mu), n, j, i, gd.Prob[i], wd.Prob[i])
						}
					}
				}
			}
		}
	}
}

// TestCopiesBlindSeatsAddUpToThePairs checks that without a turn limit the seats' expected pairs
// add up to the pairs on the table under blind flips, from the start and from states with
// half-known faces of several sizes, at one to five seats.
func TestCopiesBlindSeatsAddUpToThePairs(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	states := []string{"4:3u", "4:2u+1h,2:1u+1h", "6:2u", "6:1h,4:1u+1h,2:1h", "8:2u"}
	for _, s := range states {
		for _, k := range []int{4, 6, 8} {
			st, err := ParseCopiesState(s, k)
			if err != nil {
				continue // a state of more copies than the deck has
			}
			m := Model{Variant: rules.Variant{Copies: k, Flips: rules.FlipsBlind}}
			for _, mu := range []Lineup{
				{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
				{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				{Players: 5, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				SeatLineup(rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal),
			} {
				res, err := EvaluateCopies(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				sum := new(big.Rat)
				for _, p := range res.PairsBySeat {
					sum.Add(sum, p)
				}
				if want := big.NewRat(int64(st.Pairs()), 1); sum.Cmp(want) != 0 {
					t.Errorf("copies %d, %v, %s: the seats' pairs add up to %v, want %v", k, st, lineupName(mu), sum, want)
				}
			}
		}
	}
}
