package main

import (
	"math/big"
	"strings"
	"testing"
)

// seatsDistJSON is the part of solve's JSON that holds every seat's expected pairs and
// distribution.
type seatsDistJSON struct {
	BySeat []struct {
		Exact string `json:"exact"`
	} `json:"expected_pairs_by_seat"`
	Dists []struct {
		Seat   int `json:"seat"`
		Shares []struct {
			Share float64 `json:"share"`
			Prob  struct {
				Exact string `json:"exact"`
			} `json:"probability"`
		} `json:"shares"`
	} `json:"seat_distributions"`
}

// Under a fluctuating capacity at three or more seats --distribution gives every seat's
// distribution, whose probabilities add up to 1 and whose mean is the seat's expected pairs, for
// every seat for itself, policies per seat and a best reply, under every pass rule; a stalemate at
// once prints every seat's third of the pairs.
func TestSolveFluctuationSeatsDistribution(t *testing.T) {
	t.Parallel()
	pairs := "4"
	if testing.Short() {
		pairs = "3" // every lineup and pass rule at 3 pairs, all of them unknown
	}
	base := []string{"--pairs", pairs, "--unknown", "3", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--value-only", "--distribution"}
	for _, extra := range [][]string{
		{"--players", "3"},
		{"--seats", "optimal,safe,daring", "--pass", "always"},
		{"--seats", "safe,best-response,safe", "--pass", "two-known"},
	} {
		var got seatsDistJSON
		seatsDecode(t, &got, append(append([]string(nil), base...), extra...)...)
		if len(got.Dists) != 3 || len(got.BySeat) != 3 {
			t.Fatalf("%v: %d seats' distributions, %d seats' pairs", extra, len(got.Dists), len(got.BySeat))
		}
		for s, d := range got.Dists {
			total, mean := new(big.Rat), new(big.Rat)
			for _, p := range d.Shares {
				pr := ratOf(t, p.Prob.Exact)
				total.Add(total, pr)
				share := new(big.Rat).SetFloat64(p.Share)
				if p.Share != float64(int(p.Share)) {
					// A share after a stalemate: i/3 of a pair.
					share.SetFrac64(int64(p.Share*3+0.5), 3)
				}
				mean.Add(mean, share.Mul(share, pr))
			}
			if d.Seat != s || total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(ratOf(t, got.BySeat[s].Exact)) != 0 {
				t.Errorf("%v: seat %d (%d): probabilities add up to %s, mean %s, expected pairs %s", extra, s, d.Seat, total.RatString(), mean.RatString(), got.BySeat[s].Exact)
			}
		}
	}
	out, stderr, code := runArgs(t, "solve", "--pairs", "5", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--players", "3", "--pass", "always", "--distribution")
	if code != exitOK || strings.Count(out, "share 1.6667: 1.000000 (1)") != 3 || !strings.Contains(out, "score distribution, seat 2:") {
		t.Errorf("a stalemate at once: exit %d, %s\n%s", code, stderr, out)
	}
}
