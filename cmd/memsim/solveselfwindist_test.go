package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// With --distribution, win-optimal at three or more seats gives every seat's distribution of its
// final share: the JSON's seat_distributions equal exact.SeatsScoreDistribution's entry by entry
// (exact rationals and float64), each seat's mean share equals its expected pairs of the win
// solve, and the text prints the same shares.
func TestSolveWinSeatsDistributionIsTheSolvers(t *testing.T) {
	t.Parallel()
	W, B, O, S := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe
	type tcase struct {
		args []string
		m    exact.Model
		mu   exact.Lineup
		st   rules.State
	}
	every := func(p int) exact.Lineup { return exact.Lineup{Players: p, Policy: W, Opponent: W} }
	seats := func(pol ...rules.Policy) exact.Lineup {
		mu := exact.Lineup{Players: len(pol), Policy: pol[0], Opponent: pol[1], PerSeat: true}
		copy(mu.Seats[:], pol)
		return mu
	}
	cases := []tcase{
		{[]string{"--players", "3", "--pairs", "4", "--policy", "win-optimal"}, exact.Model{}, every(3), rules.State{N: 4, J: 4}},
		// Pass rule always: some games end in a stalemate, which shares the pairs left.
		{[]string{"--players", "3", "--pairs", "4", "--unknown", "2", "--pass", "always", "--policy", "win-optimal"},
			exact.Model{Pass: rules.PassAlways}, every(3), rules.State{N: 4, J: 2}},
		{[]string{"--players", "3", "--pairs", "3", "--pass", "always", "--seats", "win-optimal,optimal,safe"},
			exact.Model{Pass: rules.PassAlways}, seats(W, O, S), rules.State{N: 3, J: 3}},
		{[]string{"--players", "3", "--pairs", "3", "--flips", "blind", "--policy", "win-best-response", "--opponent", "win-optimal"},
			exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}, exact.Lineup{Players: 3, Policy: B, Opponent: W}, rules.State{N: 3, J: 3}},
		{[]string{"--players", "3", "--pairs", "3", "--unknown", "2", "--singletons", "1", "--policy", "win-optimal"},
			exact.Model{Singletons: 1}, every(3), rules.State{N: 3, J: 2, S: 1, F: 1}},
		// A forgotten card hands the same count state to the next seat.
		{[]string{"--players", "3", "--pairs", "3", "--memory", "2", "--forget", "lru", "--policy", "win-optimal"},
			exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}}, every(3), rules.State{N: 3, J: 3}},
	}
	if !testing.Short() {
		cases = append(cases, tcase{[]string{"--players", "4", "--pairs", "3", "--flips", "blind", "--policy", "win-best-response", "--opponent", "win-optimal"},
			exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}, exact.Lineup{Players: 4, Policy: B, Opponent: W}, rules.State{N: 3, J: 3}})
		cases = append(cases, tcase{[]string{"--players", "5", "--pairs", "4", "--pass", "two-known", "--policy", "win-optimal"},
			exact.Model{Pass: rules.PassTwoKnown}, every(5), rules.State{N: 4, J: 4}})
		cases = append(cases, tcase{[]string{"--players", "3", "--pairs", "3", "--memory", "3", "--forget", "handover-uniform", "--pass", "always", "--seats", "win-optimal,safe,daring"},
			exact.Model{Pass: rules.PassAlways, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}}, seats(W, S, rules.PolicyDaring), rules.State{N: 3, J: 3}})
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			want, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, tc.m, tc.mu, tc.st)
			if err != nil {
				t.Fatal(err)
			}
			wantF, err := exact.SeatsScoreDistribution(ctx, field.Float{}, tc.m, tc.mu, tc.st)
			if err != nil {
				t.Fatal(err)
			}
			run := func(extra ...string) (answer.SelfWin, string) {
				t.Helper()
				out, stderr, code := runArgs(t, append(append([]string{"solve", "--distribution", "--value-only"}, tc.args...), extra...)...)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				var res answer.SelfWin
				if len(extra) > 0 && extra[len(extra)-1] == "--json" {
					if err := json.Unmarshal([]byte(out), &res); err != nil {
						t.Fatalf("%v in %s", err, out)
					}
				}
				return res, out
			}
			res, _ := run("--json")
			resF, _ := run("--float", "--json")
			if len(res.SeatDistributions) != tc.mu.Players || len(resF.SeatDistributions) != tc.mu.Players {
				t.Fatalf("%d and %d seats' distributions, want %d", len(res.SeatDistributions), len(resF.SeatDistributions), tc.mu.Players)
			}
			_, text := run()
			for s, sd := range res.SeatDistributions {
				if sd.Seat != s || len(sd.Shares) != len(want.Prob[s]) || len(resF.SeatDistributions[s].Shares) != len(want.Prob[s]) {
					t.Fatalf("seat %d: seat %d with %d shares, want %d", s, sd.Seat, len(sd.Shares), len(want.Prob[s]))
				}
				mean := new(big.Rat)
				var lines strings.Builder
				fmt.Fprintf(&lines, "score distribution, seat %d:\n", s)
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
					if sh.Probability.Float != 0 {
						fmt.Fprintf(&lines, "  share %s: %s\n", seatShareText(sh.Share), human(sh.Probability))
					}
				}
				if e := res.ExpectedBySeat[s].Exact; mean.RatString() != e {
					t.Errorf("seat %d: the distribution's mean %s, the win solve's expected pairs %s", s, mean.RatString(), e)
				}
				if !strings.Contains(text, lines.String()) {
					t.Errorf("seat %d: the text has no\n%s\nin\n%s", s, lines.String(), text)
				}
			}
		})
	}
}

// --distribution with a policy that plays to win at three or more seats refuses, in one line
// naming the flags and why, the models whose distribution the forward pass does not solve.
func TestSolveWinSeatsDistributionRefusals(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--players", "3", "--pairs", "4", "--policy", "win-optimal", "--distribution"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--memory", "4", "--forget", "decay", "--q", "0.5"}, "memsim solve: --distribution with --players 3: memory decay(4, q=0.5): every seat's score distribution at 3 players with a policy that plays to win is solved with perfect memory or lru and handover-uniform of a fixed capacity, not decay"},
		{[]string{"--turn-limit", "5"}, "memsim solve: --distribution with --players 3: turn limit 5: every seat's score distribution at 3 players with a policy that plays to win is solved without a turn limit"},
		{[]string{"--copies", "4", "--pairs", "4"}, "memsim solve: --distribution with --players 3: copies 4:"},
		{[]string{"--memory", "4", "--forget", "lru", "--fluctuation", "1"}, "memsim solve: --fluctuation 1 with --distribution"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			out, stderr, code := runArgs(t, append(append([]string{}, base...), tt.args...)...)
			if code != exitUsage || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and one line starting %q", code, out, stderr, exitUsage, tt.want)
			}
		})
	}
}
