package tournament

import (
	"slices"
	"testing"

	"memsim/configs"
)

// seatingCount counts the seatings seatTuples lays out, for every format and seat count, up to
// where it stops counting (past MaxMatchups).
func TestSeatingCountCountsTheLayout(t *testing.T) {
	for _, format := range []configs.Format{configs.RoundRobin, configs.Gauntlet} {
		for p := 1; p <= 4; p++ {
			for k := p; k <= 120; k++ {
				laid := len(seatTuples(k, p, format))
				got := seatingCount(k, p, format)
				if laid > MaxMatchups && got > MaxMatchups {
					break // and so for more players
				}
				if got != laid {
					t.Errorf("%v, %d players, %d per game: counted %d seatings, laid out %d", format, k, p, got, laid)
				}
			}
		}
	}
}

// A round robin that lays out no more than MaxMatchups seat orders makes no more than
// MaxComparisons comparisons: the bound on comparisons only limits gauntlets.
func TestRoundRobinsWithinTheSeatOrdersAreWithinTheComparisons(t *testing.T) {
	for deals := 1; deals <= 8; deals++ {
		for k := 2; k <= 120; k++ {
			if seatingCount(k, 2, configs.RoundRobin) > MaxMatchups/deals {
				continue
			}
			if c := comparisonCount(k, 2); c > MaxComparisons/deals {
				t.Errorf("%d players at %d deal sizes: %d comparisons each, beyond %d in all", k, deals, c, MaxComparisons)
			}
		}
	}
}

// A gauntlet's seatings are the round robin's that seat the first player, in the same order.
func TestGauntletSeatingsAreTheRoundRobinsWithTheFirstPlayer(t *testing.T) {
	for p := 2; p <= 4; p++ {
		for k := p; k <= 9; k++ {
			var want [][]int
			for _, tu := range seatTuples(k, p, configs.RoundRobin) {
				if slices.Contains(tu, 0) {
					want = append(want, tu)
				}
			}
			got := seatTuples(k, p, configs.Gauntlet)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%d players, %d per game: %v, want %v", k, p, got, want)
			}
		}
	}
}
