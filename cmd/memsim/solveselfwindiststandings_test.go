package main

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// With --standings and --distribution, every seat's distribution of its share of the pairs left
// (its pairs so far not counted) is the library's from those standings: the JSON's
// seat_distributions equal exact.SeatsScoreDistributionFrom's entry by entry (exact rationals and
// float64), each seat's mean equals the expected pairs the win solve gives from those standings,
// and the text says the pairs so far are not counted.
func TestSolveSeatsDistributionFromStandingsIsTheSolvers(t *testing.T) {
	t.Parallel()
	W, O, S, D := rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	seats := func(pol ...rules.Policy) exact.Lineup {
		mu := exact.Lineup{Players: len(pol), Policy: pol[0], Opponent: pol[1], PerSeat: true}
		copy(mu.Seats[:], pol)
		return mu
	}
	cases := []struct {
		args      []string
		m         exact.Model
		mu        exact.Lineup
		st        rules.State
		standings []int
	}{
		// Under pass rule always the standings change win-optimal's choices and its pairs.
		{[]string{"--players", "3", "--pairs", "4", "--pass", "always", "--policy", "win-optimal", "--standings", "0,0,2"},
			exact.Model{Pass: rules.PassAlways}, exact.Lineup{Players: 3, Policy: W, Opponent: W}, rules.State{N: 4, J: 4}, []int{0, 0, 2}},
		{[]string{"--players", "3", "--pairs", "3", "--memory", "2", "--forget", "lru", "--seats", "win-optimal,win-optimal,safe", "--standings", "2,0,1"},
			exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}}, seats(W, W, S), rules.State{N: 3, J: 3}, []int{2, 0, 1}},
		// No seat plays to win: the standings change no choice.
		{[]string{"--players", "3", "--pairs", "3", "--seats", "optimal,safe,daring", "--standings", "0,3,1"},
			exact.Model{}, seats(O, S, D), rules.State{N: 3, J: 3}, []int{0, 3, 1}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			want, err := exact.SeatsScoreDistributionFrom(ctx, field.Rat{}, tc.m, tc.mu, tc.st, tc.standings)
			if err != nil {
				t.Fatal(err)
			}
			wantF, err := exact.SeatsScoreDistributionFrom(ctx, field.Float{}, tc.m, tc.mu, tc.st, tc.standings)
			if err != nil {
				t.Fatal(err)
			}
			run := func(extra ...string) string {
				t.Helper()
				out, stderr, code := runArgs(t, append(append([]string{"solve", "--distribution", "--value-only"}, tc.args...), extra...)...)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				return out
			}
			var res, resF answer.SelfWin
			for _, r := range []struct {
				out string
				to  *answer.SelfWin
			}{{run("--json"), &res}, {run("--float", "--json"), &resF}} {
				if err := json.Unmarshal([]byte(r.out), r.to); err != nil {
					t.Fatalf("%v in %s", err, r.out)
				}
			}
			if len(res.SeatDistributions) != tc.mu.Players || len(resF.SeatDistributions) != tc.mu.Players {
				t.Fatalf("%d and %d seats' distributions, want %d", len(res.SeatDistributions), len(resF.SeatDistributions), tc.mu.Players)
			}
			for s, sd := range res.SeatDistributions {
				if len(sd.Shares) != len(want.Prob[s]) || len(resF.SeatDistributions[s].Shares) != len(want.Prob[s]) {
					t.Fatalf("seat %d: %d shares, want %d", s, len(sd.Shares), len(want.Prob[s]))
				}
				mean := new(big.Rat)
				for i, sh := range sd.Shares {
					if sh.Share != float64(i)/float64(want.Unit) {
						t.Errorf("seat %d: share %d is %v, want %v", s, i, sh.Share, float64(i)/float64(want.Unit))
					}
					if sh.Probability.Exact != want.Prob[s][i].RatString() {
						t.Errorf("seat %d, share %v: %s, want %s", s, sh.Share, sh.Probability.Exact, want.Prob[s][i].RatString())
					}
					if got := resF.SeatDistributions[s].Shares[i].Probability.Float; got != wantF.Prob[s][i] {
						t.Errorf("seat %d, share %v, float64: %v, want %v", s, sh.Share, got, wantF.Prob[s][i])
					}
					p, _ := new(big.Rat).SetString(sh.Probability.Exact)
					mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), int64(want.Unit))))
				}
				if e := res.ExpectedBySeat[s].Exact; mean.RatString() != e {
					t.Errorf("seat %d: the distribution's mean %s, the win solve's expected pairs %s", s, mean.RatString(), e)
				}
			}
			if text := run(); !strings.Contains(text, "its pairs so far not counted") {
				t.Errorf("the text does not say the pairs so far are not counted:\n%s", text)
			}
		})
	}
}
