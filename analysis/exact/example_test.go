package exact_test

import (
	"context"
	"fmt"
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The expected outputs below were derived by hand from docs/models.md §4.2 (perfect memory, two
// players, pass never), not copied from the solver. E(n, j) is the mover's expected pairs; k = n - j
// cards are known and u = n + j cards are unknown.
//
//   - E(n, 0) = n: every unknown card is the partner of a known one, so the mover takes them all.
//   - E(1, 1) = 1: two unknown cards, and they are the pair.
//   - E(2, 1): u = 3. The first card matches the known card with probability 1/3 (take it, then
//     E(1, 1) = 1 more: 2 pairs). Otherwise (2/3) it is new:
//     daring: of the 2 cards left, one is its partner (1 + E(1, 0) = 2) and one is the known
//     card's partner, which the opponent takes before taking the rest (2 - (1 + E(1, 0)) = 0),
//     so 1; safe: flip the known card, the opponent moves in (2, 0): 2 - E(2, 0) = 0.
//     Daring is better: E(2, 1) = 1/3*2 + 2/3*1 = 4/3; safe gives 1/3*2 + 2/3*0 = 2/3.
//     Known-first (the known card, then an unknown one): 1/3 its partner (1 + E(1, 1) = 2), 2/3 a
//     new card, after which the opponent moves in (2, 0) (0): also 2/3.
//   - E(2, 2): u = 4, nothing known, the first card is new and the second is forced among 3: 1/3
//     its partner (1 + E(1, 1) = 2), 2/3 a new card and the opponent moves in (2, 0) (0):
//     E(2, 2) = 2/3. The opponent expects 2 - 2/3 = 4/3, a lead of -2/3 for the mover.
//   - (2, 0) known-first: 1/2 the known card's partner (2 pairs in all), 1/2 the other known
//     card's partner, which the opponent takes, then it takes the last pair (0): 1, worse than
//     daring or safe, which both take a pair with the first card (2).

// ExampleEvaluate computes the mover's expected pairs at the start of a two-pair game with perfect
// memory, both players optimal.
func ExampleEvaluate() {
	model := exact.Model{Pass: rules.PassNever} // perfect memory, no singletons
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	start := rules.State{N: 2, J: 2}
	res, err := exact.Evaluate[*big.Rat](context.Background(), field.Rat{}, model, mu, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("E(2,2) =", res.ExpectedPairs.RatString())
	fmt.Println("lead =", res.ExpectedLead.RatString())
	fmt.Println("seats:", res.PairsBySeat[0].RatString(), res.PairsBySeat[1].RatString())
	// Output:
	// E(2,2) = 2/3
	// lead = -2/3
	// seats: 2/3 4/3
}

// ExampleTable prints the optimal strategy table of perfect memory up to two pairs.
func ExampleTable() {
	codes := map[int]string{exact.CodeSafe: "safe", exact.CodeDaring: "daring", exact.CodeEqual: "equal"}
	err := exact.Table[*big.Rat](context.Background(), field.Rat{}, exact.Model{}, 2, func(c *exact.TableCell[*big.Rat]) error {
		fmt.Printf("%v value %s code %s best %v\n", c.State, c.Value.RatString(), codes[c.Code], c.Best)
		if c.State == (rules.State{N: 2, J: 1}) {
			for _, ch := range rules.Choices() {
				if c.Legal[ch] {
					fmt.Printf("  %v: %s\n", ch, c.ChoiceValue[ch].RatString())
				}
			}
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// (n=1, j=0) value 1 code equal best [daring safe known-first]
	// (n=1, j=1) value 1 code equal best [daring]
	// (n=2, j=0) value 2 code equal best [daring safe]
	// (n=2, j=1) value 4/3 code daring best [daring]
	//   daring: 4/3
	//   safe: 2/3
	//   known-first: 2/3
	// (n=2, j=2) value 2/3 code equal best [daring]
}
