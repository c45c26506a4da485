package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSeatsChoiceValuesMatchCardPlay plays small deals card by card at three seats under a
// fluctuating capacity (fsPlayer, fspPlayer: the cards of fluct_cardlevel_test.go) with each
// capacity the first turn can draw and each legal choice made there, the lineup played
// afterwards (an optimal seat reading FluctSelfishTable's layer of the capacity drawn), and
// compares every seat's expected pairs with FluctSeatsChoiceValues': under pass rule never, and
// under a pass rule at every pass streak.
func TestFluctSeatsChoiceValuesMatchCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	type tcase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		pass               rules.PassRule
		known              []int // the cards known at the start, of different pairs
		seats              [][]rules.Policy
	}
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, 3, 12, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {o, s, d}}},
		{rules.ForgetHandoverUniform, 2, 1, 3, 12, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.ForgetHandoverUniform, 2, 1, 3, 16, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {d, o, s}}},
			tcase{rules.ForgetLRU, 3, 2, 3, 16, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {s, d, o}}},
			tcase{rules.ForgetLRU, 2, 1, 3, 14, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {o, s, d}}},
			tcase{rules.ForgetHandoverUniform, 2, 1, 4, 12, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {s, o, o}}})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Pass: tc.pass}
		tab, err := exact.FluctSelfishTable(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		opt := fspFromTable(t, fmt.Sprintf("%s %s", tc.pass, mem), tc.pass, tab, nil)
		pols := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d)}
		start := rules.State{N: tc.n, J: tc.n - len(tc.known)}
		newGame := func() *flGame { return newFlDeal(tc.n, tc.known) }
		// play plays from the start with capacity c drawn for the first turn at streak streak,
		// seat 0 making choice ch there; memo (under a pass rule) and plainMemo are shared by
		// plays of one lineup.
		play := func(seats []rules.Policy, ch rules.Choice, c, streak int, memo map[string]vec, plainMemo map[string][]float64) vec {
			first := func(st rules.State, c, streak int, first bool) rules.Choice {
				if first {
					return ch
				}
				return pols[seats[0]](st, c, streak, first)
			}
			choose := []fspChooser{first, pols[seats[1]], pols[seats[2]]}
			if tc.pass != rules.PassNever {
				pl := &fspPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth, choose: choose, memo: memo}
				return pl.turn(newGame(), 0, streak, tc.depth, c)
			}
			var plain []func(rules.State, int, bool) rules.Choice
			for _, f := range choose {
				plain = append(plain, func(st rules.State, c int, first bool) rules.Choice { return f(st, c, 0, first) })
			}
			pl := &fsPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth, choose: plain, memo: plainMemo}
			return pl.turn(newGame(), 0, tc.depth, c)
		}
		streaks := 1
		if tc.pass != rules.PassNever {
			streaks = 3
		}
		for _, seats := range tc.seats {
			mu := exact.SeatLineup(seats...)
			memo, plainMemo := map[string]vec{}, map[string][]float64{}
			for c := max(2, tc.m-tc.sigma); c <= tc.m+tc.sigma; c++ {
				for l := range streaks {
					name := fmt.Sprintf("%s %s/%v/n=%d/c=%d/streak %d", tc.pass, mem, seats, tc.n, c, l)
					cs, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, m, mu, start, c, l)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, ch := range rules.Choices() {
						v, ok := cs.Of(ch)
						if ok != rules.Legal(start, ch, tc.pass) {
							t.Fatalf("%s: %s legal %t, the model says %t", name, ch, ok, !ok)
						}
						if !ok {
							continue
						}
						got := play(seats, ch, c, l, memo, plainMemo)
						for i := range 3 {
							if diff := math.Abs(got[i] - v.PairsBySeat[i]); diff > float64(tc.n)*got[3]+1e-9 {
								t.Errorf("%s: %s: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, ch, i, got[i], got[3], v.PairsBySeat[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestFluctSeatsChoiceValuesIdentities checks each choice's values at three seats under a
// fluctuating capacity against other methods, in exact rationals: with σ = 0 they are those of
// the fixed capacity (ChoiceValues); with a capacity that never binds (2n or more) those of
// perfect memory; the seats' values add up to the pairs left; the lineup's value is that of its
// choice, which is the best for the mover outside FluctSelfishGaps' states; the values of the
// lineup after each capacity drawn, weighted by the draw, are Evaluate's before it; and float64
// agrees.
func TestFluctSeatsChoiceValuesIdentities(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lineups := []exact.Lineup{{Players: 3, Policy: o, Opponent: o}, exact.SeatLineup(o, s, d)}
	n, caps, drawnFrom := 3, 1, 2
	type rule struct {
		pass   rules.PassRule
		forget rules.Forgetting
	}
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	combos := []rule{{rules.PassNever, lru}, {rules.PassAlways, hu}}
	if !testing.Short() {
		caps, drawnFrom = 3, 3
		n = 4
		combos = append(combos, rule{rules.PassNever, hu}, rule{rules.PassAlways, lru}, rule{rules.PassTwoKnown, lru}, rule{rules.PassTwoKnown, hu})
		lineups = append(lineups, exact.Lineup{Players: 4, Policy: o, Opponent: o})
	}
	for _, cb := range combos {
		pass, forget := cb.pass, cb.forget
		for _, mu := range lineups {
			name := fmt.Sprintf("%s %s %v", pass, forget, mu.SeatPolicies())
			// σ = 0: the fixed capacity's choices.
			fixed := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: forget}, Pass: pass}
			fl := fixed
			fl.Memory.Fluctuation = 0
			for j := n - 3; j <= n; j++ {
				st := rules.State{N: n, J: j}
				got, err := exact.FluctSeatsChoiceValues(ctx, f, fl, mu, st, 3, 0)
				if err != nil {
					t.Fatalf("%s σ=0 %v: %v", name, st, err)
				}
				want, err := exact.ChoiceValues(ctx, f, fixed, mu, st)
				if err != nil {
					t.Fatalf("%s fixed %v: %v", name, st, err)
				}
				sameChoices(t, fmt.Sprintf("%s σ=0 %v", name, st), got, want)
			}
			// A capacity that never binds: perfect memory's choices.
			wide := exact.Model{Memory: rules.Memory{Capacity: 2*n + 1, Forget: forget, Fluctuation: 1}, Pass: pass}
			perfect := exact.Model{Pass: pass}
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j}
				for c := 2 * n; c < 2*n+caps; c++ {
					got, err := exact.FluctSeatsChoiceValues(ctx, f, wide, mu, st, c, 0)
					if err != nil {
						t.Fatalf("%s wide %v c=%d: %v", name, st, c, err)
					}
					want, err := exact.ChoiceValues(ctx, f, perfect, mu, st)
					if err != nil {
						t.Fatalf("%s perfect %v: %v", name, st, err)
					}
					sameChoices(t, fmt.Sprintf("%s wide %v c=%d", name, st, c), got, want)
				}
			}
			// A capacity that binds: the sum, the policy's choice, the draw, float64.
			m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}, Pass: pass}
			var gaps []exact.FluctSelfishGap[*big.Rat]
			if !mu.PerSeat {
				var err error
				if gaps, err = exact.FluctSelfishGaps(ctx, f, m, mu.Players, n); err != nil {
					t.Fatal(err)
				}
			}
			for j := n - drawnFrom + 1; j <= n; j++ {
				st := rules.State{N: n, J: j}
				before, err := exact.Evaluate(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				drawn := make([]*big.Rat, mu.Players)
				for i := range drawn {
					drawn[i] = new(big.Rat)
				}
				for c := 2; c <= 4; c++ {
					label := fmt.Sprintf("%s %v c=%d", name, st, c)
					for l := range mu.Players {
						if l > 0 && pass == rules.PassNever {
							break
						}
						cs, err := exact.FluctSeatsChoiceValues(ctx, f, m, mu, st, c, l)
						if err != nil {
							t.Fatalf("%s streak %d: %v", label, l, err)
						}
						checkChoiceSums(t, fmt.Sprintf("%s streak %d", label, l), cs, n)
						gap := slices.ContainsFunc(gaps, func(g exact.FluctSelfishGap[*big.Rat]) bool {
							return g.State == st && g.Capacity == min(c, n+1) && g.Passes == l
						})
						if !mu.PerSeat && !gap && !slices.Contains(cs.Best, cs.PolicyChoice) {
							t.Errorf("%s streak %d: the optimum plays %s, the best are %v", label, l, cs.PolicyChoice, cs.Best)
						}
						if l == 0 {
							for i, v := range cs.Value.PairsBySeat {
								drawn[i].Add(drawn[i], new(big.Rat).Mul(v, big.NewRat(1, 3)))
							}
						}
						fc, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, m, mu, st, c, l)
						if err != nil {
							t.Fatalf("%s streak %d float64: %v", label, l, err)
						}
						for i, v := range cs.Values {
							for seat, x := range v.PairsBySeat {
								want, _ := x.Float64()
								if math.Abs(fc.Values[i].PairsBySeat[seat]-want) > 1e-9 {
									t.Errorf("%s streak %d: %s seat %d: float64 %.12f, exact %.12f", label, l, v.Choice, seat, fc.Values[i].PairsBySeat[seat], want)
								}
							}
						}
					}
				}
				for i := range drawn {
					if drawn[i].Cmp(before.PairsBySeat[i]) != 0 {
						t.Errorf("%s %v: seat %d: values after the draw weighted %s, before it %s", name, st, i, drawn[i].RatString(), before.PairsBySeat[i].RatString())
					}
				}
			}
		}
	}
}

// sameChoices checks that got and want list the same legal choices with the same values for every
// seat, the same best choices and the same policy's choice and value.
func sameChoices(t *testing.T, name string, got, want exact.Choices[*big.Rat]) {
	t.Helper()
	if len(got.Values) != len(want.Values) {
		t.Errorf("%s: %d legal choices, want %d", name, len(got.Values), len(want.Values))
		return
	}
	for i, v := range got.Values {
		w := want.Values[i]
		if v.Choice != w.Choice {
			t.Errorf("%s: choice %d is %s, want %s", name, i, v.Choice, w.Choice)
			continue
		}
		for seat, x := range v.PairsBySeat {
			if x.Cmp(w.PairsBySeat[seat]) != 0 {
				t.Errorf("%s: %s: seat %d: %s, want %s", name, v.Choice, seat, x.RatString(), w.PairsBySeat[seat].RatString())
			}
		}
	}
	if !slices.Equal(got.Best, want.Best) {
		t.Errorf("%s: best %v, want %v", name, got.Best, want.Best)
	}
	if got.PolicyChoice != want.PolicyChoice {
		t.Errorf("%s: the policy plays %s, want %s", name, got.PolicyChoice, want.PolicyChoice)
	}
	for seat, x := range got.Value.PairsBySeat {
		if x.Cmp(want.Value.PairsBySeat[seat]) != 0 {
			t.Errorf("%s: the policy's value: seat %d: %s, want %s", name, seat, x.RatString(), want.Value.PairsBySeat[seat].RatString())
		}
	}
}

// checkChoiceSums checks that every choice's values of the seats add up to the n pairs left.
func checkChoiceSums(t *testing.T, name string, cs exact.Choices[*big.Rat], n int) {
	t.Helper()
	for _, v := range cs.Values {
		sum := new(big.Rat)
		for _, x := range v.PairsBySeat {
			sum.Add(sum, x)
		}
		if sum.Cmp(big.NewRat(int64(n), 1)) != 0 {
			t.Errorf("%s: %s: the seats' values add up to %s, not %d", name, v.Choice, sum.RatString(), n)
		}
	}
}
