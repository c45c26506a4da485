package exact_test

import (
	"context"
	"fmt"
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// ExampleBestResponseTo evaluates a player given as a table (here the daring policy written out,
// as a player's table comes) and answers it, in a two-pair game with perfect memory. The values
// follow by hand from docs/models.md §4.2 (see the derivation of E(2, 2) in example_test.go): at
// the start nothing is remembered, so the mover plays daring whatever its policy, takes both
// pairs with probability 1/3 and hands the opponent (2, 0), both pairs known, otherwise. No state
// with a choice is reached, so the best response makes what optimal makes: 2/3 moving first,
// 2 - 2/3 = 4/3 moving second.
func ExampleBestResponseTo() {
	ctx, model := context.Background(), exact.Model{Pass: rules.PassNever}
	table, err := rules.FixedChoiceTable(rules.PolicyDaring, 2, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	val, err := exact.EvaluateTable[*big.Rat](ctx, field.Rat{}, model, table, rules.PolicyOptimal, rules.State{N: 2, J: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("the table's player, moving first against optimal:", val.ExpectedPairs.RatString())
	res, err := exact.BestResponseTo[*big.Rat](ctx, field.Rat{}, model, table, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, order := range []string{"first", "second"} {
		fmt.Printf("best response moving %s: %s pairs, optimal %s, gain %s\n", order,
			res.Pairs[k].RatString(), res.Optimal[k].RatString(), res.Gain[k].RatString())
	}
	// Output:
	// the table's player, moving first against optimal: 2/3
	// best response moving first: 2/3 pairs, optimal 2/3, gain 0
	// best response moving second: 4/3 pairs, optimal 4/3, gain 0
}
