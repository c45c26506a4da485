package main

import (
	"context"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// streakCase is a state after the draw at three or more seats under a fluctuating lru capacity
// that holds every known card of the state whatever capacity is drawn (known cards <= M - S), so
// that a pass hands the next seat the same state with a capacity drawn afresh.
type streakCase struct {
	players, pairs, unknown, memory, fluct int
	pass                                   rules.PassRule
}

func (c streakCase) args(capacity, streak int) []string {
	return []string{"--pairs", strconv.Itoa(c.pairs), "--unknown", strconv.Itoa(c.unknown), "--players", strconv.Itoa(c.players),
		"--memory", strconv.Itoa(c.memory), "--forget", "lru", "--fluctuation", strconv.Itoa(c.fluct), "--pass", c.pass.String(),
		"--capacity", strconv.Itoa(capacity), "--streak", strconv.Itoa(streak)}
}

func streakCases() []streakCase {
	out := []streakCase{{players: 3, pairs: 3, unknown: 1, memory: 3, fluct: 1, pass: rules.PassAlways}}
	if !testing.Short() {
		out = append(out,
			streakCase{players: 3, pairs: 4, unknown: 2, memory: 3, fluct: 1, pass: rules.PassTwoKnown},
			streakCase{players: 4, pairs: 3, unknown: 2, memory: 3, fluct: 1, pass: rules.PassAlways})
	}
	return out
}

// --streak K with --capacity C at three or more seats prints, at every pass streak, every seat's
// values of the state and each legal choice's, as exact.FluctSeatsChoiceValues gives them at that
// streak; --first X gives the listed value of X.
func TestSolveFluctuationSeatsStreakIsTheAPIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range streakCases() {
		m := exact.Model{Pass: c.pass, Memory: rules.Memory{Capacity: c.memory, Forget: rules.ForgetLRU, Fluctuation: c.fluct}}
		mu := exact.Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		st := rules.State{N: c.pairs, J: c.unknown}
		lo, hi := max(2, c.memory-c.fluct), c.memory+c.fluct
		if testing.Short() {
			lo, hi = c.memory, c.memory // the other capacities in the long form
		}
		for capacity := lo; capacity <= hi; capacity++ {
			for k := range c.players {
				args := c.args(capacity, k)
				var got choicesByJSON
				seatsDecode(t, &got, args...)
				want, err := exact.FluctSeatsChoiceValues(ctx, field.Rat{}, m, mu, st, capacity, k)
				if err != nil {
					t.Fatalf("%v c=%d streak %d: %v", st, capacity, k, err)
				}
				sameVector(t, strings.Join(args, " "), got.seatsByJSON, want.Value.PairsBySeat)
				if got.ChoiceValues.PolicyChoice != want.PolicyChoice.String() {
					t.Errorf("%q: optimal plays %s, the API %s", args, got.ChoiceValues.PolicyChoice, want.PolicyChoice)
				}
				if len(got.ChoiceValues.Values) != len(want.Values) {
					t.Fatalf("%q: %d choices, the API %d", args, len(got.ChoiceValues.Values), len(want.Values))
				}
				for i, v := range got.ChoiceValues.Values {
					if v.Choice != want.Values[i].Choice.String() {
						t.Fatalf("%q: choice %d is %s, the API's %s", args, i, v.Choice, want.Values[i].Choice)
					}
					sameVector(t, strings.Join(args, " ")+" "+v.Choice, v.seatsByJSON, want.Values[i].PairsBySeat)
					if k != c.players-1 || capacity != c.memory {
						continue
					}
					var first seatsByJSON
					seatsDecode(t, &first, append(append([]string(nil), args...), "--first", v.Choice)...)
					sameVector(t, strings.Join(args, " ")+" --first "+v.Choice, first, want.Values[i].PairsBySeat)
				}
			}
		}
	}
}

// A pass at streak K < P-1 hands the next seat the same state at streak K+1 with a capacity
// drawn afresh (uniform on M-S .. M+S), so its value printed at streak K is the average of the
// values printed at streak K+1 over the capacities, turned to seat 0's order; a pass at streak
// P-1 ends the game in a stalemate, every seat taking an equal share of the pairs left.
func TestSolveFluctuationSeatsStreakPassIsTheNextStreak(t *testing.T) {
	t.Parallel()
	for _, c := range streakCases() {
		p := c.players
		lo, hi := max(2, c.memory-c.fluct), c.memory+c.fluct
		// next[k] is the average over the draw of every seat's values at streak k.
		next := make([][]*big.Rat, p)
		passAt := make([][]*big.Rat, p) // the pass's values at streak k, with capacity M drawn
		for k := range p {
			if testing.Short() && k < p-1 {
				continue // the streaks that hand over in the long form; the stalemate here
			}
			next[k] = make([]*big.Rat, p)
			for i := range next[k] {
				next[k][i] = new(big.Rat)
			}
			for capacity := lo; capacity <= hi; capacity++ {
				var got choicesByJSON
				seatsDecode(t, &got, c.args(capacity, k)...)
				for i, v := range got.BySeat {
					next[k][i].Add(next[k][i], new(big.Rat).Mul(ratOf(t, v.Exact), big.NewRat(1, int64(hi-lo+1))))
				}
				for _, v := range got.ChoiceValues.Values {
					if v.Choice == rules.Pass.String() && capacity == c.memory {
						passAt[k] = make([]*big.Rat, p)
						for i, x := range v.BySeat {
							passAt[k][i] = ratOf(t, x.Exact)
						}
					}
				}
			}
		}
		for k := range p {
			if testing.Short() && k < p-1 {
				continue
			}
			if passAt[k] == nil {
				t.Fatalf("%v streak %d: no pass listed", c, k)
			}
			for i := range p {
				want := big.NewRat(int64(c.pairs), int64(p))
				if k < p-1 {
					// Seat i from the mover is seat i-1 from the next seat.
					want = next[k+1][(i-1+p)%p]
				}
				if passAt[k][i].Cmp(want) != 0 {
					t.Errorf("%v streak %d: pass gives seat %d %s, want %s", c, k, i, passAt[k][i].RatString(), want.RatString())
				}
			}
		}
	}
}

// sameVector reports a difference between every seat's values printed and the API's.
func sameVector(t *testing.T, what string, got seatsByJSON, want []*big.Rat) {
	t.Helper()
	if len(got.BySeat) != len(want) {
		t.Fatalf("%s: %d seats, the API %d", what, len(got.BySeat), len(want))
	}
	for i, v := range got.BySeat {
		if ratOf(t, v.Exact).Cmp(want[i]) != 0 {
			t.Errorf("%s: seat %d %s, the API %s", what, i, v.Exact, want[i].RatString())
		}
	}
}

// --streak goes with --fluctuation S --capacity C, three or more seats and a pass rule, 0 to P-1;
// anything else is a one-line error naming the flag.
func TestSolveStreakBadInput(t *testing.T) {
	t.Parallel()
	fluct := []string{"solve", "--pairs", "4", "--unknown", "3", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{append(fluct, "--players", "3", "--pass", "always", "--capacity", "3", "--streak", "3"),
			"memsim solve: --streak 3: must be between 0 and 2 (the seats that passed in a row before seat 0's turn, of 3)"},
		{append(fluct, "--players", "3", "--pass", "always", "--capacity", "3", "--streak", "-1"),
			"memsim solve: --streak -1: must be between 0 and 2 (the seats that passed in a row before seat 0's turn, of 3)"},
		{append(fluct, "--players", "3", "--capacity", "3", "--streak", "1"),
			"memsim solve: --streak 1 with --pass never: no seat ever passes (give --pass two-known or always)"},
		{append(fluct, "--players", "3", "--pass", "always", "--streak", "1"),
			"memsim solve: --capacity C is required with --fluctuation 1 --streak 1: the capacity drawn for seat 0's turn, whose pass streak --streak gives"},
		{append(fluct, "--pass", "always", "--capacity", "3", "--streak", "1"),
			"memsim solve: --streak 1 with --players 2: the pass streak is of 3 or more seats (2 players: --after-pass)"},
		{[]string{"solve", "--pairs", "4", "--players", "3", "--pass", "always", "--streak", "1"},
			"memsim solve: --streak 1 goes with --fluctuation S --capacity C, 3 or more players and --pass two-known or always (without a fluctuating capacity the values are of the turn after no pass)"},
		{[]string{"solve", "--table", "--pairs-max", "3", "--players", "3", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--pass", "always", "--streak", "1"},
			"memsim solve: --streak does not go with --table (the table has a choice per pass streak)"},
	} {
		wantUsageError(t, tt.args, tt.want)
	}
}
