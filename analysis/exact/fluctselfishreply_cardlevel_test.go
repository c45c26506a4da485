package exact_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSeatsReplyMatchesCardPlay checks best-response at one of three seats under a
// fluctuating capacity against a reply found card by card: fspPlayer's replying seat maximises
// its own expected pairs by value iteration over the card-level positions (each turn the choice
// whose value to it within the turns left is the largest), the other seats following their
// policies (optimal reading FluctSelfishTable's layer of the capacity drawn). From deals of three
// pairs with cards known, under lru(3) and handover-uniform(3) with σ = 1 and pass rules never and
// always, it compares:
//   - every seat's expected pairs of the game with Evaluate's, the reply at seat 0 and at seat 1;
//   - with the reply at seat 0, for each capacity drawn for the first turn and each pass streak,
//     each legal choice's values (every seat's, the reply afterwards) with FluctSeatsChoiceValues'
//     and the lineup's value with the card-level reply's; the solver's choice there is among the
//     card-level best;
//   - at every turn of the replying seat the card play reaches, FluctSeatsReplyTable's choice is
//     among the card-level best, within the truncation's bound.
//
// The truncation after depth turns gives values that are at most n times the largest probability
// of an unfinished game (over the replying seat's policies) below the game's.
func TestFluctSeatsReplyMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	par := rules.PolicyParity
	type tcase struct {
		forget   rules.Forgetting
		pass     rules.PassRule
		n, depth int
		known    []int // the cards known at the start, of different pairs
		lineups  [][]rules.Policy
		opponent []rules.Policy // the lineups whose table is checked at every turn: br against these
	}
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	cases := []tcase{
		{lru, rules.PassNever, 3, 12, []int{0, 2}, [][]rules.Policy{{br, s, s}, {par, br, par}}, []rules.Policy{s, par}},
		{hu, rules.PassAlways, 3, 12, []int{0}, [][]rules.Policy{{br, o, o}}, []rules.Policy{o}},
		// The reply's policy iteration takes two rounds in the row of four pairs, where one
		// round leaves daring in (4, 2) and (4, 3) with capacity 2 and safe is worth 0.003 more.
		{lru, rules.PassTwoKnown, 4, 24, []int{0, 2}, [][]rules.Policy{{br, s, s}}, []rules.Policy{s}},
	}

	if !testing.Short() {
		cases = []tcase{
			{lru, rules.PassNever, 3, 16, []int{0, 2}, [][]rules.Policy{{br, s, s}, {br, o, o}, {br, d, d}, {br, o, d}, {s, br, d}}, []rules.Policy{s, o, d}},
			{hu, rules.PassNever, 3, 16, []int{0, 2}, [][]rules.Policy{{br, s, s}, {br, o, o}, {br, d, d}, {br, o, d}, {s, br, d}}, []rules.Policy{s, o, d}},
			{lru, rules.PassAlways, 3, 14, []int{0}, [][]rules.Policy{{br, s, s}, {br, o, o}, {br, d, o}, {o, br, s}}, []rules.Policy{s, o}},
			{hu, rules.PassAlways, 3, 14, []int{0}, [][]rules.Policy{{br, s, s}, {br, o, o}, {br, d, o}, {o, br, s}}, []rules.Policy{s, o}},
			{lru, rules.PassTwoKnown, 4, 24, []int{0, 2}, [][]rules.Policy{{br, s, s}, {br, o, o}}, []rules.Policy{s, o}},
			{hu, rules.PassAlways, 4, 24, []int{0}, [][]rules.Policy{{br, o, d}}, nil},
			{hu, rules.PassTwoKnown, 3, 14, []int{0, 2}, [][]rules.Policy{{br, par, par}, {par, br, o}}, []rules.Policy{par}},
		}
	}
	const m, sigma = 3, 1
	checked := 0 // turns of the replying seat checked with a bound below 0.001
	for _, tc := range cases {
		n := tc.n
		mem := rules.Memory{Capacity: m, Forget: tc.forget, Fluctuation: sigma}
		model := exact.Model{Memory: mem, Pass: tc.pass}
		tab, err := exact.FluctSelfishTable(ctx, field.Float{}, model, 3, n)
		if err != nil {
			t.Fatal(err)
		}
		opt := fspFromTable(t, fmt.Sprintf("%s %s", tc.pass, mem), tc.pass, tab, nil)
		pols := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d), par: fspFixed(par), br: nil}
		start := rules.State{N: n, J: n - len(tc.known)}
		newGame := func() *flGame { return newFlDeal(n, tc.known) }
		streaks := 1
		if tc.pass != rules.PassNever {
			streaks = 3
		}
		for _, seats := range tc.lineups {
			name := fmt.Sprintf("%s %s/%v", tc.pass, mem, seats)
			r := slices.Index(seats, br)
			mu := exact.SeatLineup(seats...)
			var choose []fspChooser
			for _, pol := range seats {
				choose = append(choose, pols[pol])
			}
			pl := &fspPlayer{lru: tc.forget == rules.ForgetLRU, m: m, sigma: sigma, p: 3, top: tc.depth,
				choose: choose, memo: map[string]vec{}, replies: true, reply: r, pass: tc.pass}
			if slices.Contains(tc.opponent, seats[(r+1)%3]) && seats[(r+1)%3] == seats[(r+2)%3] {
				reply, err := exact.FluctSeatsReplyTable(ctx, field.Float{}, model, 3, seats[(r+1)%3], n)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				pl.seen = func(st rules.State, c, streak int, vals map[rules.Choice]vec) {
					ch, ok := reply.LookupCapacityPasses(st, streak, c)
					if tc.pass == rules.PassNever {
						ch, ok = reply.LookupCapacity(st, false, c)
					}
					v, legal := vals[ch]
					if !ok || !legal {
						t.Fatalf("%s: the reply's table has %s (%t) in %v with capacity %d at streak %d, legal %t", name, ch, ok, st, c, streak, legal)
					}
					for _, w := range vals {
						if w[r] > v[r]+float64(n)*v[3]+1e-9 {
							t.Errorf("%s: %v with capacity %d at streak %d: the reply plays %s worth %.12f (unfinished %.2g), card play has %.12f", name, st, c, streak, ch, v[r], v[3], w[r])
						}
					}
					if float64(n)*v[3] < 1e-3 {
						checked++
					}
				}
			}
			// The game, every capacity drawn for the first turn, at every streak.
			for l := range streaks {
				got := pl.value(newGame(), 0, l, tc.depth)
				var want []float64
				if l == 0 {
					v, err := exact.Evaluate(ctx, field.Float{}, model, mu, start)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want = v.PairsBySeat
				} else {
					byStreak, err := exact.FluctSeatsStreakLineupValues(ctx, model, mu, start)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want = byStreak[l]
				}
				for i := range 3 {
					if math.Abs(got[i]-want[i]) > float64(n)*got[3]+1e-9 {
						t.Errorf("%s: streak %d: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, l, i, got[i], got[3], want[i])
					}
				}
			}
			if r != 0 {
				continue
			}
			// The first turn with each capacity drawn at each streak, each legal choice.
			for c := m - sigma; c <= m+sigma; c++ {
				for l := range streaks {
					label := fmt.Sprintf("%s c=%d streak %d", name, c, l)
					cs, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, model, mu, start, c, l)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					g := newGame()
					if _, taken := pl.startTurn(g, 0, tc.depth, c); taken {
						t.Fatalf("%s: the start has a pair known whole", label)
					}
					vals := pl.choiceValues(g, 0, l, tc.depth, c)
					if len(vals) != len(cs.Values) {
						t.Fatalf("%s: %d legal choices card by card, %d exact", label, len(vals), len(cs.Values))
					}
					top := math.Inf(-1)
					for _, v := range vals {
						top = max(top, v[0])
					}
					for _, cv := range cs.Values {
						got := vals[cv.Choice]
						for i := range 3 {
							if math.Abs(got[i]-cv.PairsBySeat[i]) > float64(n)*got[3]+1e-9 {
								t.Errorf("%s: %s: seat %d: card play %.12f (unfinished %.2g), exact %.12f", label, cv.Choice, i, got[i], got[3], cv.PairsBySeat[i])
							}
						}
					}
					mine := vals[cs.PolicyChoice]
					if mine == nil || mine[0] < top-float64(n)*mine[3]-1e-9 {
						t.Errorf("%s: the reply plays %s, card play's best gives it %.12f", label, cs.PolicyChoice, top)
					}
					bestVal := pl.best(g.clone(), 0, l, tc.depth, c)
					for i := range 3 {
						if math.Abs(bestVal[i]-cs.Value.PairsBySeat[i]) > float64(n)*bestVal[3]+1e-9 {
							t.Errorf("%s: the reply's value: seat %d: card play %.12f (unfinished %.2g), exact %.12f", label, i, bestVal[i], bestVal[3], cs.Value.PairsBySeat[i])
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no turn of the replying seat was checked against the table within 0.001")
	}
}
