package exact

import (
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The cost of every seat's score distribution at three or more seats for a lineup in which a seat
// plays to win (winseatsdist.go): the seats' tables, then the forward pass over every count state,
// the ways the pairs taken so far split among the p seats, the mover and the pass streak.

// The work of one position of the forward pass (count state, pass streak, mover, every seat's
// pairs), in operations of float64 (see Estimate): a map look-up of the mover's choice, its
// outcomes and a map insertion for each. Exact rationals weigh a position of a deal of N pairs
// winSeatsRational·(N + 1) times (the probabilities' fractions grow with the deal).
const (
	opsWinSeatsPosition = 60
	winSeatsRational    = 1.5
	winSeatsEntryBytes  = 96 // a position's key and value in a Go map, with the map's overhead
)

// winSeatsPositions returns the positions of the forward pass from a deal of pairs pairs at p
// seats, s singletons, streaks pass streaks, and the most held at once (those of two deal sizes).
func winSeatsPositions(p, pairs, s, streaks int) (total, live float64) {
	row := make([]float64, pairs+1)
	for n := 0; n <= pairs; n++ {
		// The pairs taken, pairs - n, split among p seats: C(k+p-1, p-1) ways.
		k := pairs - n
		ways := 1.0
		for i := 1; i < p; i++ {
			ways = ways * float64(k+i) / float64(i)
		}
		row[n] = float64(n+1) * float64(s+1) * ways * float64(p) * float64(streaks)
		total += row[n]
	}
	for n := 1; n <= pairs; n++ {
		live = max(live, row[n]+row[n-1])
	}
	return total, max(live, row[0])
}

// winSeatsDistCost returns the cost of every seat's score distribution of lineup mu, in which a
// seat plays to win, from a deal of pairs pairs in model m.
func winSeatsDistCost[T any](f field.Field[T], m Model, mu Lineup, pairs int) (Cost, error) {
	if err := CheckSeatsDistribution(m, mu); err != nil {
		return Cost{}, err
	}
	tables := Cost{}
	seen := map[string]bool{}
	for k := range mu.Players {
		lu := RotateSeats(mu, k)
		name := fmt.Sprint(lu.SeatPolicies())
		if seen[name] {
			continue
		}
		seen[name] = true
		c, err := estimate(f, m, lu, max(pairs, 1), CallPolicyTable)
		if err != nil {
			return Cost{}, fmt.Errorf("seat %d's table: %w", k, err)
		}
		// The tables are held together during the forward pass.
		tables = Cost{Ops: tables.Ops + c.Ops, Bytes: tables.Bytes + c.Bytes}
	}
	streaks := 1
	if m.Pass != rules.PassNever {
		streaks = mu.Players
	}
	total, live := winSeatsPositions(mu.Players, pairs, m.Singletons, streaks)
	ops, entry := opsWinSeatsPosition*total, float64(winSeatsEntryBytes)
	if _, exact := any(f).(field.Rat); exact {
		ops *= winSeatsRational * float64(pairs+1)
		entry += ratBytes + 2*8*float64(pairs+1)
	}
	// The final standings: every split of the pairs (in units) among the seats.
	final := 1.0
	for i := 1; i < mu.Players; i++ {
		final = final * float64(pairs*streaks+i) / float64(i)
	}
	bytes := gcHeadroom * (live + final) * entry
	if math.IsInf(bytes, 0) || math.IsNaN(bytes) {
		bytes = math.MaxFloat64
	}
	return Cost{Ops: tables.Ops + ops, Bytes: tables.Bytes + bytes}, nil
}
