package tournament

import "memsim/analysis/exact"

// fluctSeatsBeyondLimit reports whether a seating of seats seats at n pairs under the fluctuating
// capacity of model m is past the deal size whose exact values a tournament computes: at three or
// more seats every lineup, fixed policies included, is solved a seat's values per state after the
// draw, in exact rationals up to exact.FluctSelfishRationalLimit pairs (exact.FluctStreakRationalLimit
// under a pass rule other than never).
func fluctSeatsBeyondLimit(m exact.Model, seats, n int) bool {
	return seats > 2 && m.Memory.Fluctuation > 0 && n > m.SeatsRationalLimit(seats)
}
