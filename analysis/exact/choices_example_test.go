package exact_test

import (
	"context"
	"fmt"
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// ExampleChoiceValues asks what to play in (n=2, j=1): two pairs, one card remembered. The values
// follow by hand (see the derivation of E(2, 1) in example_test.go): the first unknown card is the
// remembered card's partner with probability 1/3, and then the mover takes both pairs whatever it
// chose. Otherwise daring's second card is the new card's partner half the time (both pairs) and
// the remembered card's partner the other half (the other seat takes both): 1/3·2 + 2/3·1 = 4/3
// pairs; safe and known-first hand the other seat both pairs: 1/3·2 = 2/3. To win, at a lead of 0,
// daring takes both pairs with probability 1/3 + 2/3·1/2 = 2/3, the others with 1/3.
func ExampleChoiceValues() {
	ctx, model := context.Background(), exact.Model{Pass: rules.PassNever}
	st := rules.State{N: 2, J: 1}
	optimal := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	pairs, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, optimal, st)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range pairs.Values {
		fmt.Printf("%s: %s pairs (%s against the best)\n", v.Choice, v.Pairs.RatString(), v.Diff.RatString())
	}
	fmt.Println("best for pairs:", pairs.Best)
	winOptimal := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	win, err := exact.WinChoiceValues[*big.Rat](ctx, field.Rat{}, model, winOptimal, st)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range win.Values {
		fmt.Printf("%s: wins %s, score %s\n", v.Choice, v.Win.RatString(), v.Score.RatString())
	}
	fmt.Println("best to win:", win.Best)
	// Output:
	// daring: 4/3 pairs (0 against the best)
	// safe: 2/3 pairs (-2/3 against the best)
	// known-first: 2/3 pairs (-2/3 against the best)
	// best for pairs: [daring]
	// daring: wins 2/3, score 2/3
	// safe: wins 1/3, score 1/3
	// known-first: wins 1/3, score 1/3
	// best to win: [daring]
}
