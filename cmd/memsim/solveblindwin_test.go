package main

import (
	"strconv"
	"testing"

	"memsim/analysis/exact/answer"
	"memsim/sim/rules"
	"memsim/strategies"
)

// --table --players 3 --flips blind --policy win-optimal prints, in every count state at every
// standings, the choice the engine's win-optimal player reads from its table at three seats under
// blind flips: with perfect memory and with a shared lru or handover-uniform memory.
func TestSolveSeatsWinTableBlindIsTheEngines(t *testing.T) {
	t.Parallel()
	mems := []rules.Memory{{}, {Capacity: 2, Forget: rules.ForgetLRU}}
	if !testing.Short() {
		mems = append(mems, rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform})
	}
	const pairsMax = 3
	for _, mem := range mems {
		args := []string{"--table", "--pairs-max", strconv.Itoa(pairsMax), "--players", "3", "--flips", "blind", "--policy", "win-optimal"}
		if mem.Capacity > 0 {
			args = append(args, "--memory", strconv.Itoa(mem.Capacity), "--forget", mem.Forget.String())
		}
		var tab answer.SeatsWinTable
		seatsDecode(t, &tab, args...)
		env := strategies.Env{MaxPairs: pairsMax, Players: 3, Pass: rules.PassNever, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		st := buildEngineTable(t, "win-optimal", "", mem, env).Standings()
		if st == nil {
			t.Fatalf("%q: the engine's table is not read by the standings", args)
		}
		compared := 0
		for _, c := range tab.Cells {
			if c.Pairs == 0 {
				continue
			}
			pairs := make([]int, len(c.Deficits))
			for s, d := range c.Deficits {
				pairs[s] = c.Pairs + 1 - d
			}
			state := rules.State{N: c.Pairs, J: c.Unknown}
			got, ok := st.Lookup(state, pairs)
			if !ok || got.String() != c.Choice {
				t.Errorf("%q: %v at standings %v: printed %s, the engine's %s (found %v)", args, state, c.Deficits, c.Choice, got, ok)
			}
			compared++
		}
		if compared == 0 {
			t.Fatalf("%q: no cell compared", args)
		}
	}
}

// --table --policy win-optimal --flips blind with a shared lru or handover-uniform memory prints,
// for every state and lead, the choice the engine's two-seat table makes there.
func TestSolveWinTableBlindLimitedIsTheEngines(t *testing.T) {
	t.Parallel()
	cases := []policyTableCase{
		{policy: "win-optimal", pairsMax: 4, blind: true, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, pass: rules.PassNever},
	}
	if !testing.Short() {
		cases = append(cases,
			policyTableCase{policy: "win-optimal", pairsMax: 5, blind: true, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}, pass: rules.PassNever},
			policyTableCase{policy: "win-best-response", opponent: "safe", pairsMax: 4, blind: true, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, pass: rules.PassNever})
	}
	for _, c := range cases {
		args := c.args()
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		tab := c.engineTable(t)
		cells := readPolicyTable(t, c, out)
		for _, cell := range cells {
			want, ok := tab.Lookup(cell.st, cell.afterPass)
			if !ok || cell.choice != want {
				t.Errorf("%q: %v lead %d: printed %s, the engine's %s", args, cell.st, cell.st.Lead, cell.choice, want)
			}
		}
		if want := countStates(c); len(cells) != want {
			t.Errorf("%q: %d choices printed, want %d", args, len(cells), want)
		}
	}
}
