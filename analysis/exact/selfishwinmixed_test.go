package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Lineups that mix win-optimal with other policies at three or more seats (docs/models.md §4.7,
// "Win objective"), checked against the card-level search of selfishwin_test.go in which each
// seat either takes the choice best for its own P(most pairs) or follows its policy's table.

// seatDecisions returns the card-level search's choice of each seat of the lineup: nil at a
// win-optimal seat, the table of its policy (at this many seats) otherwise.
func seatDecisions(t *testing.T, m exact.Model, pols []rules.Policy, n int) []func(rules.State) rules.Choice {
	t.Helper()
	out := make([]func(rules.State) rules.Choice, len(pols))
	for i, p := range pols {
		if p == rules.PolicyWinOptimal {
			continue
		}
		tab, err := exact.PolicyTable(context.Background(), field.Rat{}, m, exact.Lineup{Players: len(pols), Policy: p, Opponent: p}, n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = tableDecide(t, tab)
	}
	return out
}

// TestCardLevelSelfWinMixed compares every seat's score, win and draw probabilities and expected
// pairs in lineups that mix win-optimal with optimal and fixed policies with the card-level search.
func TestCardLevelSelfWinMixed(t *testing.T) {
	ctx := context.Background()
	W, O, S, D, P := rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	full := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}
	type tc struct {
		n, s      int
		standings []int
		pols      []rules.Policy
	}
	var cases []tc
	for n := 1; n <= bySize(3, 3, 4); n++ {
		cases = append(cases, tc{n, 0, []int{0, 0, 0}, []rules.Policy{W, S, D}}, tc{n, 0, []int{0, 0, 0}, []rules.Policy{D, W, S}})
	}
	cases = append(cases, tc{bySize(3, 3, 4), 0, []int{0, 1, 0}, []rules.Policy{S, D, W}},
		tc{3, 0, []int{0, 0, 0}, []rules.Policy{W, W, P}}, tc{3, 0, []int{1, 0, 0}, []rules.Policy{O, S, W}},
		tc{3, 0, []int{0, 2, 1}, []rules.Policy{W, D, W}}, tc{2, 1, []int{0, 0, 0}, []rules.Policy{S, W, D}},
		tc{2, 0, []int{0, 0, 0, 0}, []rules.Policy{W, S, W, D}}, tc{bySize(2, 3, 3), 0, []int{0, 0, 0, 0}, []rules.Policy{P, W, O, S}},
		tc{2, 0, []int{1, 0, 2, 0}, []rules.Policy{D, D, W, S}},
	)
	for _, c := range cases {
		if exact.RaceEnabled && c.n >= 3 {
			continue // the smallest sizes under the race detector
		}
		t.Run(fmt.Sprintf("n=%d,s=%d/standings=%v/%v", c.n, c.s, c.standings, c.pols), func(t *testing.T) {
			m := exact.Model{Singletons: c.s}
			w := &winSearch{n: c.n, s: c.s, players: len(c.pols), choices: full, memo: map[string][4][]*big.Rat{},
				seats: seatDecisions(t, m, c.pols, c.n)}
			want := w.value(1<<(2*c.n+c.s)-1, 0, c.standings, 0)
			st := rules.State{N: c.n, J: c.n, S: c.s, F: c.s}
			got, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.pols...), st, c.standings)
			if err != nil {
				t.Fatal(err)
			}
			remaining := make([]*big.Rat, len(c.standings))
			for i, x := range want[wsPairs] {
				remaining[i] = new(big.Rat).Sub(x, big.NewRat(int64(c.standings[i]), 1))
			}
			for _, k := range []struct {
				name      string
				got, want []*big.Rat
			}{{"score", got.Score, want[wsScore]}, {"win", got.Win, want[wsWin]}, {"draw", got.Draw, want[wsDraw]}, {"pairs", got.Pairs, remaining}} {
				if ratsString(k.got) != ratsString(k.want) {
					t.Errorf("%s: solver %s, card level %s", k.name, ratsString(k.got), ratsString(k.want))
				}
			}
		})
	}
}

// TestSelfWinMixedEveryWinOptimal checks that the sweep with the mover's seat in the state, every
// seat playing win-optimal, gives the values and choices of the win objective of every seat for
// itself, from many states and standings.
func TestSelfWinMixedEveryWinOptimal(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		players, n, j, s, f int
		standings           []int
	}{
		{3, bySize(3, 3, 6), bySize(3, 3, 6), 0, 0, nil}, {3, 3, 2, 0, 0, []int{1, 0, 2}}, {3, 2, 1, 1, 1, []int{0, 3, 1}},
		{4, bySize(2, 2, 4), 1, 0, 0, []int{2, 0, 0, 1}}, {5, bySize(1, 1, 2), bySize(1, 1, 2), 0, 0, []int{0, 1, 0, 0, 1}},
	} {
		if exact.RaceEnabled && c.n >= 3 {
			continue // the smallest sizes under the race detector
		}
		m := exact.Model{Singletons: c.s}
		st := rules.State{N: c.n, J: c.j, S: c.s, F: c.f}
		want, err := exact.EvaluateSelfWin[*big.Rat](ctx, field.Rat{}, m, c.players, st, c.standings)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.EvaluateSelfWinSeats[*big.Rat](ctx, field.Rat{}, m, c.players, st, c.standings)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []struct {
			name      string
			got, want []*big.Rat
		}{{"score", got.Score, want.Score}, {"win", got.Win, want.Win}, {"draw", got.Draw, want.Draw}, {"pairs", got.Pairs, want.Pairs}} {
			if ratsString(k.got) != ratsString(k.want) {
				t.Errorf("%d seats, %v, standings %v: %s %s, every seat for itself %s", c.players, st, c.standings, k.name, ratsString(k.got), ratsString(k.want))
			}
		}
		if got.Choice != want.Choice {
			t.Errorf("%d seats, %v, standings %v: choice %v, every seat for itself %v", c.players, st, c.standings, got.Choice, want.Choice)
		}
	}
}

// TestSelfWinMixedScoresAndPairs checks that the seats' scores of mixed lineups add up to 1 and
// their expected pairs to the pairs on the table, in exact rationals and in float64.
func TestSelfWinMixedScoresAndPairs(t *testing.T) {
	ctx := context.Background()
	W, O, S, D, P := rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	lineups := [][]rules.Policy{{W, S, D}, {O, W, P}, {W, W, S, D}, {S, D, W, P, O}}
	if exact.RaceEnabled {
		lineups = lineups[:2] // three seats under the race detector
	}
	for _, pols := range lineups {
		n := bySize(2, 4, 6)
		if len(pols) > 3 {
			n = bySize(2, 2, 4)
		}
		st := rules.State{N: n, J: n}
		mu := exact.SeatLineup(pols...)
		got, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		score, pairs := new(big.Rat), new(big.Rat)
		for s := range pols {
			score.Add(score, got.Score[s])
			pairs.Add(pairs, got.Pairs[s])
		}
		if score.Cmp(big.NewRat(1, 1)) != 0 || pairs.Cmp(big.NewRat(int64(n), 1)) != 0 {
			t.Errorf("%v, %d pairs: scores sum to %s, pairs to %s", pols, n, score.RatString(), pairs.RatString())
		}
		fl, err := exact.EvaluateStandings[float64](ctx, field.Float{}, exact.Model{}, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		for s := range pols {
			if x, _ := got.Score[s].Float64(); fmt.Sprintf("%.12f", x) != fmt.Sprintf("%.12f", fl.Score[s]) {
				t.Errorf("%v, %d pairs, seat %d: score %v in rationals, %v in float64", pols, n, s, x, fl.Score[s])
			}
		}
	}
}

// TestSelfWinMixedFixedLineups checks lineups of optimal and fixed policies only, which the sweep
// of the standings follows seat by seat: every seat's expected pairs are those of SeatLineup.
func TestSelfWinMixedFixedLineups(t *testing.T) {
	ctx := context.Background()
	O, S, D, P := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	for _, pols := range [][]rules.Policy{{S, D, P}, {O, S, D}, {D, O, O, S}} {
		n := bySize(3, 5, 6)
		if len(pols) > 3 {
			n = bySize(2, 3, 4)
		}
		st := rules.State{N: n, J: n}
		mu := exact.SeatLineup(pols...)
		want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ratsString(got.Pairs) != ratsString(want.PairsBySeat) {
			t.Errorf("%v, %d pairs: pairs %s, SeatLineup %s", pols, n, ratsString(got.Pairs), ratsString(want.PairsBySeat))
		}
	}
}

// TestSelfWinMixedEvaluate checks that Evaluate of a mixed lineup gives the standings' values
// from no pairs taken, and that the table of seat k is seat 0's table of the lineup seen from k.
func TestSelfWinMixedEvaluate(t *testing.T) {
	ctx := context.Background()
	W, S, D := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring
	mu := exact.SeatLineup(S, W, D)
	n := bySize(3, 4, 6)
	st := rules.State{N: n, J: n}
	res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	want, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ratsString(res.ScoreBySeat) != ratsString(want.Score) || ratsString(res.PairsBySeat) != ratsString(want.Pairs) {
		t.Errorf("Evaluate: scores %s, pairs %s; standings %s, %s", ratsString(res.ScoreBySeat), ratsString(res.PairsBySeat),
			ratsString(want.Score), ratsString(want.Pairs))
	}
	rot := exact.RotateSeats(mu, 1)
	if got := fmt.Sprint(rot.SeatPolicies()); got != fmt.Sprint([]rules.Policy{W, D, S}) {
		t.Fatalf("lineup seen from seat 1: %s", got)
	}
	tab, err := exact.PolicyTable(ctx, field.Rat{}, exact.Model{}, rot, n)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Standings() == nil {
		t.Fatal("win-optimal's table in a mixed lineup has no standings")
	}
	// Seat 1 to move from every standings after seat 0 took a pair or none.
	for _, pairs := range [][]int{{0, 0, 0}, {0, 1, 0}, {1, 0, 2}} {
		r, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, exact.Model{}, rot, rules.State{N: n - 1, J: n - 2}, pairs)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := tab.Standings().Lookup(rules.State{N: n - 1, J: n - 2}, pairs)
		if !ok || c != r.Choice {
			t.Errorf("pairs %v: table %v (%v), solver %v", pairs, c, ok, r.Choice)
		}
	}
}

// TestSelfWinMixedRefusals checks the lineups and models a mixed lineup is not solved for.
func TestSelfWinMixedRefusals(t *testing.T) {
	ctx := context.Background()
	W, S := rules.PolicyWinOptimal, rules.PolicySafe
	st := rules.State{N: 3, J: 3}
	for _, c := range []struct {
		m    exact.Model
		mu   exact.Lineup
		want string
	}{
		{exact.Model{}, exact.SeatLineup(W, S, rules.PolicyWinBestResponse), "replies to win-optimal at every other seat or to optimal, safe, daring and parity"},
		{exact.Model{}, exact.SeatLineup(W, S, rules.PolicyBestResponse), "seat 2: policy best-response"},
	} {
		_, err := exact.Evaluate[float64](ctx, field.Float{}, c.m, c.mu, st)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one saying %q", c.mu.SeatPolicies(), err, c.want)
		}
	}
}

// TestSelfWinMixedEstimate checks that the estimate covers mixed lineups: more work than every
// seat playing win-optimal (the same states once per mover's seat), and the refusals of the solver.
func TestSelfWinMixedEstimate(t *testing.T) {
	W, S, D := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring
	all := exact.Lineup{Players: 3, Policy: W, Opponent: W}
	for _, float := range []bool{false, true} {
		for _, call := range []exact.Call{exact.CallEvaluate, exact.CallPolicyTable} {
			o := exact.Options{Call: call, Float: float}
			mixed, err := exact.Estimate(exact.Model{}, exact.SeatLineup(W, S, D), 10, o)
			if err != nil {
				t.Fatal(err)
			}
			every, err := exact.Estimate(exact.Model{}, all, 10, o)
			if err != nil {
				t.Fatal(err)
			}
			if mixed.Ops <= every.Ops || mixed.Bytes <= every.Bytes {
				t.Errorf("float %v, call %d: mixed %+v, every seat win-optimal %+v", float, call, mixed, every)
			}
		}
	}
	// Under decay a pass rule adds the pass streak to every block: more work than under never.
	decay := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}}
	never, err := exact.Estimate(decay, exact.SeatLineup(W, S, D), 10, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	decay.Pass = rules.PassAlways
	always, err := exact.Estimate(decay, exact.SeatLineup(W, S, D), 10, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if always.Ops <= never.Ops {
		t.Errorf("decay memory: pass rule always %+v, never %+v", always, never)
	}
}
