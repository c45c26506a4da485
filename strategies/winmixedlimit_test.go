package strategies

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// A seat's win table in a lineup mixing win-optimal with other policies under a turn limit is
// built up to the largest deal the limit allows (exact.SelfWinLimitTableLimit, a sweep per turn
// left and per mover's seat), smaller than the mixed table's without a limit, and refused one pair
// beyond it with the limit named; within it the table has a layer per turn left.
func TestSeatWinTableUnderATurnLimitKeepsTheLimitsSize(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for i, c := range []struct {
		limit int
		seats []rules.Policy
	}{
		{5, []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyOptimal}},
		{60, []rules.Policy{rules.PolicyWinOptimal, rules.PolicyDaring, rules.PolicyWinOptimal}},
		{20, []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal}},
	} {
		m := exact.Model{Variant: rules.Variant{TurnLimit: c.limit}}
		mu := exact.SeatLineup(c.seats...)
		top := exact.SelfWinLimitTableLimit(mu.Players, c.limit, true)
		if top >= exact.SelfWinMixedTableLimit(mu.Players) {
			t.Fatalf("limit %d, %d seats: the limit's size %d is not below the size without a limit %d (the case tests nothing)", c.limit, mu.Players, top, exact.SelfWinMixedTableLimit(mu.Players))
		}
		_, err := (*Tables)(nil).SeatWinTable(ctx, m, mu, top+1)
		want := fmt.Sprintf("win-optimal at %d seats beside other policies is solved for deals of at most %d pairs, not %d", mu.Players, top, top+1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("limit %d, %v, %d pairs: error %v, want %q", c.limit, mu.SeatPolicies(), top+1, err, want)
		}
		if testing.Short() && i > 0 {
			continue // the tables of the longer limits in the long form
		}
		tab, err := (*Tables)(nil).SeatWinTable(ctx, m, mu, 2)
		if err != nil {
			t.Fatalf("limit %d, %v, 2 pairs: %v", c.limit, mu.SeatPolicies(), err)
		}
		if tab.TurnLimit() != c.limit {
			t.Errorf("limit %d, %v: a table of %d turn layers", c.limit, mu.SeatPolicies(), tab.TurnLimit())
		}
	}
}
