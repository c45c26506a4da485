package exact_test

import (
	"context"
	"fmt"
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// ExampleBestResponseToSeats answers, at three seats, a player given as a table (here the safe
// policy written out, as a player's table comes) at both other seats: eight pairs, perfect memory,
// in exact rationals. Moving first, the reply makes what the best reply to safe itself makes
// (docs/models.md §4.7, "A best reply at three or more seats": 4.234029 against optimal's
// 3.064613), and it gains over optimal at every position in the order of play.
func ExampleBestResponseToSeats() {
	ctx, model := context.Background(), exact.Model{}
	table, err := rules.FixedChoiceTable(rules.PolicySafe, 8, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := exact.BestResponseToSeats[*big.Rat](ctx, field.Rat{}, model, table, 3, 8)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k := range res.Players {
		fmt.Printf("moving %d of 3: reply %s pairs, optimal %s, gain %s\n", k+1,
			res.Pairs[k].FloatString(6), res.Optimal[k].FloatString(6), res.Gain[k].FloatString(6))
	}
	// Output:
	// moving 1 of 3: reply 4.234029 pairs, optimal 3.064613, gain 1.169415
	// moving 2 of 3: reply 4.597528 pairs, optimal 2.081802, gain 2.515726
	// moving 3 of 3: reply 2.909132 pairs, optimal 2.698118, gain 0.211014
}
