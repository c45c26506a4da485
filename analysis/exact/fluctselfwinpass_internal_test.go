package exact

import (
	"testing"

	"memsim/sim/rules"
)

// TestFluctSelfWinPassWithoutFluctuationIsFixedCapacity checks, in exact rationals, that the win
// objective at three seats under a fluctuating capacity and the pass rules two-known and always
// gives, with σ = 0, the fixed capacity's values under the same pass rule
// (selfishwinlimitedpass.go) in every state and standings, and with a capacity that never binds
// perfect memory's (selfishwinpass.go); every state's scores add up to 1; float64 agrees.
func TestFluctSelfWinPassWithoutFluctuationIsFixedCapacity(t *testing.T) {
	n := 3
	if testing.Short() {
		n = 2
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			fixed := rules.Memory{Capacity: 2, Forget: fg}
			if fg == rules.ForgetHandoverUniform {
				fixed.Capacity = 3
			}
			compareFluctSelfWinFixed(t, Model{Memory: fixed, Pass: pass}, Model{Memory: fixed, Pass: pass}, 3, n)
			if testing.Short() && fg == rules.ForgetLRU {
				continue
			}
			never := rules.Memory{Capacity: n + 2, Forget: fg, Fluctuation: 1} // m - σ = n + 1
			compareFluctSelfWinFixed(t, Model{Memory: never, Pass: pass}, Model{Pass: pass}, 3, n)
		}
	}
}
