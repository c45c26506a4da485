package main

import (
	"math/big"
	"strings"
	"testing"
)

// With perfect memory and a fixed lru or handover-uniform capacity at three or more seats
// --distribution gives every seat's distribution, whose probabilities add up to 1 and whose mean
// is the seat's expected pairs, for every seat for itself, policies per seat and a best reply,
// under every pass rule and under a turn limit (decay forgetting too); with six pairs unknown under pass rule always every seat passes, a stalemate
// at once that gives every seat two pairs.
func TestSolveSeatsDistribution(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--pairs", "4", "--players", "3"},
		{"--pairs", "4", "--unknown", "3", "--seats", "optimal,safe,daring", "--pass", "always"},
		{"--pairs", "4", "--memory", "3", "--forget", "lru", "--seats", "safe,best-response,safe", "--pass", "two-known"},
		{"--pairs", "4", "--memory", "2", "--forget", "handover-uniform", "--players", "4"},
		{"--pairs", "4", "--players", "3", "--turn-limit", "5"},
		{"--pairs", "4", "--memory", "3", "--forget", "lru", "--seats", "optimal,best-response,safe", "--pass", "two-known", "--turn-limit", "6"},
		{"--pairs", "4", "--unknown", "2", "--forget", "decay", "--q", "0.25", "--players", "3", "--pass", "always", "--turn-limit", "5"},
	} {
		var got seatsDistJSON
		seatsDecode(t, &got, append(args, "--value-only", "--distribution")...)
		p := len(got.BySeat)
		if p < 3 || len(got.Dists) != p {
			t.Fatalf("%v: %d seats' distributions, %d seats' pairs", args, len(got.Dists), p)
		}
		for s, d := range got.Dists {
			total, mean := new(big.Rat), new(big.Rat)
			for _, sh := range d.Shares {
				pr := ratOf(t, sh.Prob.Exact)
				total.Add(total, pr)
				// Shares count in p-ths of a pair under a pass rule.
				share := big.NewRat(int64(sh.Share*float64(p)+0.5), int64(p))
				mean.Add(mean, share.Mul(share, pr))
			}
			if d.Seat != s || total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(ratOf(t, got.BySeat[s].Exact)) != 0 {
				t.Errorf("%v: seat %d (%d): probabilities add up to %s, mean %s, expected pairs %s", args, s, d.Seat, total.RatString(), mean.RatString(), got.BySeat[s].Exact)
			}
		}
	}
	out, stderr, code := runArgs(t, "solve", "--pairs", "6", "--players", "3", "--pass", "always", "--distribution")
	if code != exitOK || strings.Count(out, "share  2.0: 1.000000 (1)") != 3 || !strings.Contains(out, "score distribution, seat 2:") {
		t.Errorf("a stalemate at once: exit %d, %s\n%s", code, stderr, out)
	}
}
