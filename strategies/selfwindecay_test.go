package strategies_test

import (
	"testing"

	"memsim/sim/rules"
)

// TestEnginePlaysSelfWinUnderDecay builds win-optimal at three seats with a shared decay memory
// (at every seat without and with a capacity, beside daring and optimal in its seating's table,
// and win-best-response against safe), checks that each seat plays the solver's table of its
// seating at every count state and standings, and compares the engine's rates of wins and draws
// and mean pairs over random deals with the solver's (checkEngineSelfWin).
func TestEnginePlaysSelfWinUnderDecay(t *testing.T) {
	win, reply, safe, daring, optimal := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal
	decay := rules.ForgetDecay
	games := []selfWinGame{
		{pairs: 4, forget: decay, decay: 0.2, seats: []rules.Policy{win, win, win}},
		{pairs: 4, capacity: 3, forget: decay, decay: 0.5, seats: []rules.Policy{win, win, win}},
		{pairs: 4, capacity: 2, forget: decay, decay: 0.1, seats: []rules.Policy{daring, win, optimal}},
		{pairs: 4, forget: decay, decay: 0.2, seats: []rules.Policy{reply, safe, safe}, opponent: safe},
	}
	deals := 20000
	if testing.Short() {
		games, deals = []selfWinGame{{pairs: 3, forget: decay, decay: 0.2, seats: []rules.Policy{win, win, win}}}, 4000
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, deals)
	}
}
