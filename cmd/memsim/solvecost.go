package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
)

// This file holds what memsim solve does before solving: it estimates the work and memory of the
// request (exact.Estimate), refuses one beyond bigSeconds or bigBytes unless --big is given, and
// shows the progress of a long solve on a terminal.

// The most a solve may take without --big: its estimated time on one core (exact.Cost.Seconds)
// and memory.
const (
	bigSeconds = 30
	bigBytes   = 2 << 30
)

// progressSeconds is the estimated time beyond which a solve shows its progress on a terminal.
const progressSeconds = 2

// costFlags are the flags that shape the cost of a request, in the order a refusal names them.
var costFlags = []string{"gerez", "cards", "table", "pairs-max", "pairs", "singletons", "memory", "forget", "fluctuation",
	"pass", "players", "policy", "opponent", "distribution", "turns-max", "flips", "turn-limit", "float", "json"}

// cost returns the estimated cost of the request q.
func (q *solveQuery) cost() (exact.Cost, error) {
	if q.selfWin() && !q.table {
		return q.selfWinCost()
	}
	if q.table && q.selfWin() && q.model.Memory.Fluctuation > 0 {
		return q.fluctSelfWinTableCost()
	}
	if q.table && q.matchup.Players >= 3 {
		return q.seatsTableCost()
	}
	if q.table && q.matchup.Players == 1 {
		return exact.Estimate(q.model, q.matchup, q.pairsMax, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	}
	if q.dist && q.matchup.Players == 1 && q.turnsMax > 0 {
		c, err := exact.Estimate(q.model, q.matchup, q.state.N, exact.Options{Float: q.float})
		return c.Then(answer.TurnsCost(c, q.turnsMax)), err
	}
	if q.policyTableText() {
		return exact.Estimate(q.model, q.matchup, q.pairsMax, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	}
	if q.table {
		call := exact.CallTable
		if q.matchup.Policy.PlaysToWin() {
			call = exact.CallWinTable
		}
		return exact.Estimate(q.model, q.matchup, q.pairsMax, exact.Options{Call: call, Float: q.float})
	}
	c, err := answer.Estimate(q.model, q.matchup, q.state, q.dist, q.float)
	return c.Then(q.winCost), err
}

// checkCost refuses, unless big, a request whose cost c is beyond bigSeconds or bigBytes, with
// one line naming the flags of fs given on the command line that shape it.
func checkCost(c exact.Cost, big bool, fs *flag.FlagSet) error {
	if big || (c.Seconds() <= bigSeconds && c.Bytes <= bigBytes) {
		return nil
	}
	set := given(fs)
	var named []string
	for _, name := range costFlags {
		if !set[name] {
			continue
		}
		f := fs.Lookup(name)
		if isBool(f) {
			named = append(named, "--"+name)
		} else {
			named = append(named, "--"+name+" "+f.Value.String())
		}
	}
	return usagef("%s: about %s operations and %s, about %s on one core; add --big to solve it anyway",
		strings.Join(named, " "), sci(c.Ops), byteSize(c.Bytes), duration(c.Seconds()))
}

// startSolveProgress shows the progress of a solve of cost c on w, when w is a terminal and the
// solve is estimated to take more than progressSeconds; done counts the operations done (see
// exact.WithProgress). It returns nil when it shows nothing.
func startSolveProgress(w io.Writer, c exact.Cost, done *atomic.Int64) *progress {
	if c.Seconds() <= progressSeconds || !isTerminal(w) {
		return nil
	}
	p := &progress{name: "memsim solve", what: "solving", done: done, total: int64(math.Min(c.Ops, math.MaxInt64/4)), stop: make(chan struct{})}
	p.run(w, false, plainEvery) // a bar: w is a terminal
	return p
}

// sci formats x in scientific notation with two significant digits: 3.1e10.
func sci(x float64) string {
	if x < 1 {
		return "0"
	}
	e := math.Floor(math.Log10(x))
	m := x / math.Pow(10, e)
	if math.Round(m*10)/10 >= 10 {
		m, e = m/10, e+1
	}
	return fmt.Sprintf("%.1fe%d", m, int(e))
}

// byteSize formats a number of bytes to about two digits: 780 MB, 8.1 GB, 192 GB, 3.2 TB.
func byteSize(b float64) string {
	v, unit := b/1e12, "TB"
	switch {
	case b < 1e9:
		return fmt.Sprintf("%.0f MB", math.Max(1, b/1e6))
	case b < 1e12:
		v, unit = b/1e9, "GB"
	case v >= 1000:
		return sci(v) + " TB"
	}
	if v < 10 {
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

// duration formats a time in seconds for people, to about two digits: 40 s, 9 min, 3.2 h,
// 5 days, 2.0e3 years.
func duration(s float64) string {
	const minute, hour, day, year = 60, 3600, 86400, 365.25 * 86400
	switch {
	case s < 90:
		return fmt.Sprintf("%.0f s", s)
	case s < 90*minute:
		return fmt.Sprintf("%.0f min", s/minute)
	case s < 48*hour:
		return fmt.Sprintf("%.0f h", s/hour)
	case s < year:
		return fmt.Sprintf("%.0f days", s/day)
	}
	if s < 100*year {
		return fmt.Sprintf("%.0f years", s/year)
	}
	return sci(s/year) + " years"
}
