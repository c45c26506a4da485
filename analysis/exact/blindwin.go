package exact

import "memsim/sim/rules"

// The win objective under blind flips (docs/models.md §4.13, §4.17). At two seats the lead sweep
// (win.go) reads the outcomes of the blind turn (blind.go) under perfect memory and a shared lru
// or handover-uniform memory of fixed capacity alike, keeping three rows of deal sizes. At three
// to eight seats the sweep of the count states at every standings (selfishwin.go) does the same:
// under a shared limited memory it gives the values, each choice's values and the table, and
// under perfect memory the table the engine plays (the values there come from the copies model,
// copiesselfwin.go, which solves the same game by the state of faces). Under the pass rules
// two-known and always the pass streak joins the cycles of a count state that a forgotten card
// hands to itself (selfishwinlimitedpass.go): a pass shows no card, so it forgets nothing under
// blind flips either. Under a turn limit the sweep over the turns left (selfishwinlimit.go)
// reads the same outcomes, a turn that hands the next seat two pairs known whole using a turn for
// each while one is left, at every pass rule, as it does under perfect memory.

// blindOnly reports whether variant v is the standard game but for blind flips: two copies of a
// face and no turn limit.
func blindOnly(v rules.Variant) bool {
	return v.Flips == rules.FlipsBlind && v.CopiesOf() == rules.DefaultCopies && v.TurnLimit == 0
}

// isBlindLimitedSelfWin reports whether lineup mu in model m is the win objective at three or more
// seats under blind flips with a shared memory of fixed capacity and no turn limit, which the
// sweep of the count states solves (selfishwin.go, selfishwinlimited.go).
func isBlindLimitedSelfWin(m Model, mu Lineup) bool {
	return isSelfWin(mu) && blindOnly(m.Variant) && !m.Memory.Perfect()
}
