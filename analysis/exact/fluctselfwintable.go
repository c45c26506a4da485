package exact

import "memsim/analysis/field"

// FluctSelfWinTableLimit returns the largest deal size a player of win-optimal at players seats
// (3 to 8, every seat playing it) can play under the fluctuating capacity of model m: the largest
// whose sweep (FluctSelfWinTables, in float64) is estimated at most SelfWinTableOps operations,
// and at most WinTableLimit. It is 0 where the model has no such table.
func FluctSelfWinTableLimit(m Model, players int) int {
	mu := winLineup(players)
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
