package exact

import (
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctSelfWinTableLimit returns the largest deal size a player of win-optimal at players seats
// (3 to 8, every seat playing it) can play under the fluctuating capacity of model m: the largest
// whose sweep (FluctSelfWinTables, in float64) is estimated at most SelfWinTableOps operations,
// and at most WinTableLimit. It is 0 where the model has no such table.
func FluctSelfWinTableLimit(m Model, players int) int {
	return fluctSelfWinTableLimitOf(m, winLineup(players))
}

// FluctSelfWinMixedTableLimit is FluctSelfWinTableLimit for a seat that plays to win beside
// seats of other policies (FluctSelfWinLineupTables): a position per mover's seat, after the
// tables the other seats follow.
func FluctSelfWinMixedTableLimit(m Model, players int) int {
	pol := make([]rules.Policy, players)
	for i := range pol {
		pol[i] = rules.PolicySafe
	}
	pol[0] = rules.PolicyWinOptimal
	return fluctSelfWinTableLimitOf(m, SeatLineup(pol...))
}

func fluctSelfWinTableLimitOf(m Model, mu Lineup) int {
	n := 0
	for n < WinTableLimit {
		c, err := estimateFluctSelfWin(field.Float{}, m, mu, n+1, CallEvaluate)
		if err != nil || c.Ops > SelfWinTableOps {
			break
		}
		n++
	}
	return n
}
