package strategies_test

import (
	"testing"

	"memsim/sim/rules"
)

// TestEnginePlaysSelfWinUnderDecayPass builds win-optimal at three seats with a shared decay
// memory under the pass rules two-known and always (at every seat without and with a capacity,
// beside daring and optimal in its seating's table, and win-best-response against safe and
// against win-optimal), checks that each seat plays the solver's table of its seating at every
// count state, standings and pass streak, and compares the engine's rates of wins and draws and
// mean pairs over random deals, some ending in a stalemate, with the solver's
// (checkEngineSelfWin).
func TestEnginePlaysSelfWinUnderDecayPass(t *testing.T) {
	win, reply, safe, daring, optimal := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal
	decay, twoKnown, always := rules.ForgetDecay, rules.PassTwoKnown, rules.PassAlways
	games := []selfWinGame{
		{pairs: 3, forget: decay, decay: 0.2, rule: always, seats: []rules.Policy{win, win, win}},
		{pairs: 3, forget: decay, decay: 0.5, rule: always, seats: []rules.Policy{win, win, win}},
		{pairs: 4, capacity: 3, forget: decay, decay: 0.1, rule: always, seats: []rules.Policy{win, win, win}},
		{pairs: 4, capacity: 2, forget: decay, decay: 0.1, rule: twoKnown, seats: []rules.Policy{daring, win, optimal}},
		{pairs: 4, forget: decay, decay: 0.2, rule: always, seats: []rules.Policy{reply, safe, safe}, opponent: safe},
		{pairs: 3, forget: decay, decay: 0.2, rule: always, seats: []rules.Policy{win, reply, win}, opponent: win},
	}
	deals := 20000
	if testing.Short() {
		games, deals = []selfWinGame{{pairs: 3, capacity: 2, forget: decay, decay: 0.5, rule: always, seats: []rules.Policy{win, win, win}}}, 4000
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, deals)
	}
}
