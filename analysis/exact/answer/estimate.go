package answer

import (
	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// Estimate returns the cost of Solve with the same model, lineup, state and dist, in float64
// when float and otherwise in exact rationals: the sum of the solver's calls Solve makes (see
// exact.Estimate). An error is the solver's refusal of the request.
func Estimate(m exact.Model, mu exact.Lineup, st rules.State, dist, float bool) (exact.Cost, error) {
	c, err := exact.Estimate(m, mu, st.N, exact.Options{Float: float})
	if err != nil {
		return c, err
	}
	var more exact.Cost
	switch {
	case dist && mu.Players == 1:
		more = TurnsCost(c, exact.DefaultMaxTurns(st.N, st.S))
	case dist:
		more, err = exact.Estimate(m, mu, st.N, exact.Options{Call: exact.CallDistribution, Float: float})
	case mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin():
		more, err = exact.Estimate(m, mu, st.N, exact.Options{Call: exact.CallWinDrawLoss, Float: float})
	}
	return c.Then(more), err
}
