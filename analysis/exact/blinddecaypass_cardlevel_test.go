package exact_test

// Blind flips with decay forgetting under the pass rules two-known and always and in solitaire
// (docs/models.md §4.17, §4.14), checked against the chain of card-level turns: a pass is a
// hand-over, so each remembered card is forgotten with probability q in every combination
// (decayHandOver) before the next seat moves, and a pass answered by a pass at every other seat
// ends the game in a stalemate whatever was forgotten in between.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// decayPassDist enumerates a pass in st card by card under decay memory m: nothing is flipped,
// and the hand-over forgets every subset of the remembered cards.
func decayPassDist(st rules.State, m cardMemory) (d dist, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("card-level pass: %v", r)
		}
	}()
	w := newCardWorld(st, nil)
	w.old = make([]bool, len(w.present))
	for _, x := range w.mem {
		w.old[x] = true
	}
	d = dist{}
	decayHandOver(w, m, big.NewRat(1, 1), 0, func(p *big.Rat, w *cardWorld, cont bool, mg, ng int) {
		next, err := w.countState()
		if err != nil {
			panic(err)
		}
		d.add(outKey{cont, mg, ng, next}, p)
	})
	return d, nil
}

// TestBlindDecayPassGameMatchesCardLevel compares every state's values under blind flips, decay
// forgetting (q = 1/4 without a capacity and with capacity 3; q = 1/2 with capacity 2 without
// -short) and the pass rules two-known and always (up to 4 pairs; 3 with -short) with the exact
// solution of the card-level chain with the pass streak: fixed policies at two and three seats,
// the two-player optimum's and a best response's tables played at both streaks, and at three
// seats the optimum of every seat for itself with each choice's value at every streak.
func TestBlindDecayPassGameMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	lineups := []blindLineup{
		{mu: exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}},
		{mu: exact.Lineup{Players: 3, Policy: rules.PolicyDaring, Opponent: rules.PolicySafe}},
		{exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
		{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, true},
		{exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
	}
	compared := 0
	for _, dc := range decayCases() {
		keep := dc.mem.Decay == 0.25 && dc.mem.Capacity != 2
		if !testing.Short() && dc.mem.Decay == 0.5 && dc.mem.Capacity == 2 {
			keep = true
		}
		if !keep || (testing.Short() && dc.mem.Capacity == 0) {
			continue
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			if testing.Short() && rule == rules.PassTwoKnown {
				continue
			}
			model := exact.Model{Pass: rule, Memory: dc.mem, Variant: rules.Variant{Flips: rules.FlipsBlind}}
			compared += compareBlindPassChain(t, ctx, dc.card, model, lineups, maxN)
		}
	}
	t.Logf("compared %d exact values with the card-level chain", compared)
}

// TestBlindDecaySolitaireMatchesCardLevel compares the expected turns of solitaire under blind
// flips and decay forgetting (q = 1/4 and 1/2, without a capacity and with capacity 2 and 3; up
// to 4 pairs, 3 with -short) with the card-level chain: the fixed policies and the optimum found
// by policy iteration in the chain.
func TestBlindDecaySolitaireMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	compared := 0
	for _, dc := range decayCases() {
		if dc.mem.Decay == 1 || (testing.Short() && dc.mem.Decay == 0.5) {
			continue
		}
		model := exact.Model{Memory: dc.mem, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		compared += compareBlindSolitaire(t, ctx, dc.card, model, maxN)
	}
	t.Logf("compared %d expected turns with the card-level chain", compared)
}

// TestBlindDecayPassIdentities checks blind flips with decay forgetting under the pass rules and
// in solitaire against other models: with q = 1 nothing is remembered at the start of a turn, so
// solitaire takes the blind recursion T(n) = 1 + (1/(2n-1)) T(n-1) + (1 - 1/(2n-1)) T(n) turns,
// T(n) = (2n - 1) + T(n-1), that is n^2; with a tiny q the values approach perfect memory's
// under the same pass rule (the two-player optimum, a best response, fixed policies at three and
// four seats; not the optimum of every seat for itself, whose ties can select another
// equilibrium) and solitaire's; and float64 agrees with exact rationals.
func TestBlindDecayPassIdentities(t *testing.T) {
	ctx := context.Background()
	maxN := 5
	if testing.Short() {
		maxN = 3
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	solo := exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}
	for n := 1; n <= maxN; n++ {
		st := rules.State{N: n, J: n}
		for _, capacity := range []int{0, 3} {
			gone := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 1}, Variant: blind}
			res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, gone, solo, st)
			if err != nil {
				t.Fatalf("q=1, capacity %d, n=%d: %v", capacity, n, err)
			}
			if res.ExpectedTurns.Cmp(big.NewRat(int64(n*n), 1)) != 0 {
				t.Errorf("q=1, capacity %d, n=%d: solitaire takes %s turns, the recursion %d", capacity, n, res.ExpectedTurns.RatString(), n*n)
			}
		}
		tinyMem := rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}
		cases := []struct {
			pass rules.PassRule
			mu   exact.Lineup
		}{
			{rules.PassNever, solo},
			{rules.PassTwoKnown, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
			{rules.PassAlways, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}},
			{rules.PassAlways, exact.Lineup{Players: 3, Policy: rules.PolicyDaring, Opponent: rules.PolicySafe}},
			{rules.PassTwoKnown, exact.Lineup{Players: 4, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}},
		}
		for _, tc := range cases {
			perfect := exact.Model{Pass: tc.pass, Variant: blind}
			want, err := exact.Evaluate[float64](ctx, field.Float{}, perfect, tc.mu, st)
			if err != nil {
				t.Fatalf("perfect, %v, %v: %v", tc.pass, tc.mu, err)
			}
			tiny := perfect
			tiny.Memory = tinyMem
			got, err := exact.Evaluate[float64](ctx, field.Float{}, tiny, tc.mu, st)
			if err != nil {
				t.Fatalf("q=1e-9, %v, %v: %v", tc.pass, tc.mu, err)
			}
			if tc.mu.Players == 1 && math.Abs(got.ExpectedTurns-want.ExpectedTurns) > 1e-6 {
				t.Errorf("q=1e-9, n=%d: solitaire takes %v turns, %v with perfect memory", n, got.ExpectedTurns, want.ExpectedTurns)
			}
			for s := 0; s < tc.mu.Players && tc.mu.Players > 1; s++ {
				if math.Abs(got.PairsBySeat[s]-want.PairsBySeat[s]) > 1e-6 {
					t.Errorf("q=1e-9, %v, %v, n=%d: seat %d expects %v, %v with perfect memory", tc.pass, tc.mu, n, s, got.PairsBySeat[s], want.PairsBySeat[s])
				}
			}
			model := perfect
			model.Memory = rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.25}
			ex, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, tc.mu, st)
			if err != nil {
				t.Fatalf("%v, %v, %v: %v", model.Memory, tc.pass, tc.mu, err)
			}
			fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, tc.mu, st)
			if err != nil {
				t.Fatalf("%v, %v, %v, float64: %v", model.Memory, tc.pass, tc.mu, err)
			}
			if tc.mu.Players == 1 {
				if x, _ := ex.ExpectedTurns.Float64(); math.Abs(fl.ExpectedTurns-x) > 1e-12 {
					t.Errorf("%v, n=%d: solitaire takes %v turns in float64, %v in exact rationals", model.Memory, n, fl.ExpectedTurns, x)
				}
			}
			for s := 0; s < tc.mu.Players && tc.mu.Players > 1; s++ {
				if x, _ := ex.PairsBySeat[s].Float64(); math.Abs(fl.PairsBySeat[s]-x) > 1e-12 {
					t.Errorf("%v, %v, %v, n=%d: seat %d expects %v in float64, %v in exact rationals", model.Memory, tc.pass, tc.mu, n, s, fl.PairsBySeat[s], x)
				}
			}
		}
	}
}
