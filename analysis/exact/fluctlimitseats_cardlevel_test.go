package exact_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// flSeatsLimitTable returns seat 0's table of lineup mu under the fluctuating capacity and turn
// limit of m at three or more seats, as the engine reads it: a layer per capacity drawn, each a
// layer per turns left (exact.FluctLimitSeatsTables).
func flSeatsLimitTable(t *testing.T, m exact.Model, mu exact.Lineup, n int) *rules.ChoiceTable {
	t.Helper()
	lo, layers, err := exact.FluctLimitSeatsTables(context.Background(), field.Float{}, m, mu, n)
	if err != nil {
		t.Fatal(err)
	}
	byCap := make([]*rules.ChoiceTable, len(layers))
	for i, turns := range layers {
		if byCap[i], err = rules.NewTurnChoiceTable(turns); err != nil {
			t.Fatal(err)
		}
	}
	tab, err := rules.NewCapacityChoiceTable(lo, byCap)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// fspLimitChooser returns the chooser that reads tab at the capacity drawn, the turns left of the
// player's turn (pl.left) and the pass streak, failing the test where it holds no legal choice.
func fspLimitChooser(t *testing.T, name string, pass rules.PassRule, tab *rules.ChoiceTable, pl **fspPlayer) fspChooser {
	return func(st rules.State, c, streak int, _ bool) rules.Choice {
		ch, ok := tab.LookupCapacityTurnsLeftPasses(st, streak, c, (*pl).left)
		if !ok || !rules.Legal(st, ch, pass) {
			t.Fatalf("%s: no legal choice in %v with capacity %d, %d turns left, streak %d (%v, %t)", name, st, c, (*pl).left, streak, ch, ok)
		}
		return ch
	}
}

// TestFluctLimitSeatsMatchesCardPlay plays every deal of three pairs card by card at three seats
// under a fluctuating capacity cut after the turn limit (the pairs left counting for nobody), every
// capacity drawn at every turn and every pass counted as the engine counts them, and compares
// every seat's pairs with the exact model's: every seat for itself found card by card (each seat
// making, at each of its turns, the choice worth the most to it within the turns left), the same
// read from the optimum's table by capacity, turns left and streak, policies per seat,
// best-response at seat 0 found card by card against the others, and each choice's values at the
// first turn with each capacity drawn at each streak.
func TestFluctLimitSeatsMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		forget   rules.Forgetting
		m, sigma int
		pass     rules.PassRule
		known    []int
		limits   []int
		n        int
	}
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, rules.PassNever, []int{0}, []int{5}, 3},
		{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0}, []int{4}, 3},
		{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0, 2, 4}, []int{3}, 3},
	}
	if !testing.Short() {
		cases = []tcase{
			{rules.ForgetLRU, 2, 1, rules.PassNever, nil, []int{1, 2, 3, 4, 5, 6}, 3},
			{rules.ForgetHandoverUniform, 2, 1, rules.PassNever, []int{0, 2}, []int{1, 3, 5, 6}, 3},
			{rules.ForgetLRU, 3, 1, rules.PassNever, []int{0}, []int{2, 4, 6}, 3},
			{rules.ForgetLRU, 2, 1, rules.PassAlways, []int{0}, []int{1, 2, 4, 6}, 3},
			{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0}, []int{3, 5}, 3},
			{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0, 2, 4}, []int{2, 4, 6}, 3},
			{rules.ForgetLRU, 3, 1, rules.PassTwoKnown, []int{0, 2, 4}, []int{3, 5}, 3},
			// Four pairs, three known: under lru a pair handed over known whole is taken with a
			// draw that can forget.
			{rules.ForgetLRU, 3, 1, rules.PassNever, []int{0, 2, 4}, []int{3, 4}, 4},
			{rules.ForgetHandoverUniform, 3, 2, rules.PassTwoKnown, []int{0, 2}, []int{2, 5}, 3},
		}
	}
	passed := false
	for _, tc := range cases {
		n := tc.n
		for _, limit := range tc.limits {
			mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
			m := exact.Model{Memory: mem, Pass: tc.pass, Variant: rules.Variant{TurnLimit: limit}}
			name := fmt.Sprintf("%s/%s/limit=%d", mem, tc.pass, limit)
			start := rules.State{N: n, J: n - len(tc.known)}
			var pl *fspPlayer
			newPlayer := func(choose ...fspChooser) *fspPlayer {
				pl = &fspPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: limit,
					choose: choose, memo: map[string]vec{}, pass: tc.pass}
				return pl
			}
			check := func(what string, got vec, want []float64) {
				for i := range 3 {
					if math.Abs(got[i]-want[i]) > 1e-9 {
						t.Errorf("%s %s: seat %d: card play %.12f, exact %.12f", name, what, i, got[i], want[i])
					}
				}
			}
			evaluate := func(mu exact.Lineup, st rules.State) []float64 {
				res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return res.PairsBySeat
			}
			// Every seat for itself, card by card and from the table.
			self := exact.SeatLineup(o, o, o)
			want := evaluate(self, start)
			p := newPlayer(nil, nil, nil)
			p.everyBest = true
			check("every seat for itself card by card", p.value(newFlDeal(n, tc.known), 0, 0, limit), want)
			tab := flSeatsLimitTable(t, m, self, n)
			opt := fspLimitChooser(t, name, tc.pass, tab, &pl)
			onPass := func(ch fspChooser) fspChooser {
				return func(st rules.State, c, streak int, first bool) rules.Choice {
					x := ch(st, c, streak, first)
					if x == rules.Pass {
						passed = true
					}
					return x
				}
			}
			check("every seat for itself from the table", newPlayer(onPass(opt), opt, opt).value(newFlDeal(n, tc.known), 0, 0, limit), want)
			// Policies per seat, and best-response at seat 0 found card by card.
			chooser := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d)}
			for _, seats := range [][]rules.Policy{{o, s, d}, {d, o, s}, {br, s, d}, {br, o, o}, {br, d, o}} {
				mu := exact.SeatLineup(seats...)
				p := newPlayer(chooser[seats[0]], chooser[seats[1]], chooser[seats[2]])
				if seats[0] == br {
					p.replies, p.reply = true, 0
				}
				check(fmt.Sprint(seats), p.value(newFlDeal(n, tc.known), 0, 0, limit), evaluate(mu, start))
			}
			// Each choice at the first turn, each capacity drawn, each streak; the optimum afterwards.
			streaks := 1
			if tc.pass != rules.PassNever {
				streaks = 3
			}
			for l := range streaks {
				for c0 := max(2, tc.m-tc.sigma); c0 <= tc.m+tc.sigma; c0++ {
					g := newFlDeal(n, tc.known)
					at := start
					if k := n - at.J; tc.forget == rules.ForgetLRU && k > c0 {
						at.J = n - c0
					}
					cs, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, m, self, at, c0, l)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, cv := range cs.Values {
						once := func(st rules.State, c, streak int, first bool) rules.Choice {
							if first {
								return cv.Choice
							}
							return opt(st, c, streak, first)
						}
						got := newPlayer(once, opt, opt).turn(g.clone(), 0, l, limit, c0)
						want := make([]float64, 3)
						copy(want, cv.PairsBySeat)
						check(fmt.Sprintf("%s with capacity %d at streak %d", cv.Choice, c0, l), got, want)
					}
				}
			}
		}
	}
	if !passed {
		t.Errorf("the optimum never passes in these games: the check does not reach a pass")
	}
}
