package exact_test

// The win objective under blind flips with a shared memory of fixed capacity (docs/models.md
// §4.13, §4.17), checked card by card: every deal's turns are played with blindCardTurn (every
// card at every unremembered position, the memory in its recency order), the seats' choices read
// from the solver's tables, and the values of that play found by value iteration over the
// card-level positions (winGraph, selfishwinlimited_cardlevel_test.go). No count formula is used.

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// blindWinModel is the solver's model of card memory m under blind flips, pass rule never.
func blindWinModel(m cardMemory) exact.Model {
	return exact.Model{Pass: rules.PassNever, Memory: memoryOf(m), Variant: rules.Variant{Flips: rules.FlipsBlind}}
}

// shortBlindMemories are the memories of the short tests: lru of capacity 2, which forgets at
// three pairs (a new first card evicts), and handover-uniform of 3.
func shortBlindMemories() []cardMemory {
	return []cardMemory{{capacity: 2, forget: rules.ForgetLRU}, {capacity: 3, forget: rules.ForgetHandoverUniform}}
}

// checkBlindWinTwoSeats plays lineup mu (two seats) card by card from the full deal of n pairs
// under blind flips and memory m: a win-optimal seat reads the solver's table at its lead, a
// win-best-response seat is card-level value iteration maximising its score. Every position's
// P(win) and P(draw) for its mover must be the solver's (WinDrawLoss), and a win-optimal mover
// must gain nothing by a one-step deviation.
func checkBlindWinTwoSeats(t *testing.T, m cardMemory, mu exact.Lineup, n int) int {
	t.Helper()
	return checkBlindWinTwoSeatsFrom(t, m, blindWinModel(m), mu, rules.State{N: n, J: n})
}

// checkBlindWinTwoSeatsFrom is checkBlindWinTwoSeats in model (blind flips, memory m) from the
// full deal start, which may hold singletons.
func checkBlindWinTwoSeatsFrom(t *testing.T, m cardMemory, model exact.Model, mu exact.Lineup, start rules.State) int {
	t.Helper()
	ctx := context.Background()
	n := start.N
	g, err := buildWinGraph(m, model, winPos{w: newCardWorld(start, nil), pairs: []int{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	pol := [2]rules.Policy{mu.Policy, mu.Opponent}
	var tabs [2]*rules.ChoiceTable
	for s, p := range pol {
		if p == rules.PolicyWinBestResponse {
			continue
		}
		if tabs[s], err = exact.PolicyTable[float64](ctx, field.Float{}, model, exact.Lineup{Players: 2, Policy: p, Opponent: pol[1-s]}, n); err != nil {
			t.Fatalf("seat %d's table: %v", s, err)
		}
	}
	leadAt := func(i int) rules.State {
		st, p := g.st[i], g.pos[i]
		st.Lead = p.pairs[p.mover] - p.pairs[1-p.mover]
		return st
	}
	vals, err := g.evaluate(func(i int) rules.Choice {
		c, ok := tabs[g.pos[i].mover].Lookup(leadAt(i), false)
		if !ok {
			t.Fatalf("no choice at %v", leadAt(i))
		}
		return c
	}, func(i int) bool { return pol[g.pos[i].mover] == rules.PolicyWinBestResponse })
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-9
	compared := 0
	solved := map[string][2]exact.WDL[float64]{}
	for i, pos := range g.pos {
		if g.st[i].N == 0 {
			continue
		}
		st := leadAt(i)
		seat := pos.mover
		key := fmt.Sprint(st, seat)
		wdl, ok := solved[key]
		if !ok {
			wdl, err = exact.WinDrawLoss[float64](ctx, field.Float{}, model, exact.Lineup{Players: 2, Policy: pol[seat], Opponent: pol[1-seat]}, st)
			if err != nil {
				t.Fatalf("WinDrawLoss(%v): %v", st, err)
			}
			solved[key] = wdl
		}
		v := vals[i]
		got := []float64{wdl[0].Win, wdl[0].Draw}
		want := []float64{v.win[seat], v.draw[seat]}
		switch {
		case pol[1-seat] == rules.PolicyWinBestResponse:
			// The reply's ties move the others' values; its own score is compared at its turns.
			got, want = nil, nil
		case pol[seat] == rules.PolicyWinBestResponse:
			// Its ties move its P(win) and P(draw), not its score.
			got, want = []float64{wdl[0].Win + wdl[0].Draw/2}, []float64{v.score[seat]}
		}
		for x := range got {
			if math.Abs(got[x]-want[x]) > tol {
				t.Errorf("%v, %v, position %s (%v): the mover's value %d solver %.12f, card level %.12f", m, pol, pos.key(), st, x, got[x], want[x])
			}
			compared++
		}
		if pol[seat] != rules.PolicyWinOptimal {
			continue
		}
		own := v.score[seat]
		for c, steps := range g.steps[i] {
			dev := 0.0
			for _, s := range steps {
				dev += s.p * vals[s.to].score[seat]
			}
			if dev > own+tol {
				t.Errorf("%v, position %s (%v): deviating to %v gives the mover %.12f, its choice %.12f", m, pos.key(), st, c, dev, own)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no value compared")
	}
	return compared
}

// TestBlindLimitedWinTwoSeatsCardLevel plays win-optimal against itself and win-best-response
// against safe and daring card by card under blind flips with lru of capacity 2 and 3 and
// handover-uniform of 3.
func TestBlindLimitedWinTwoSeatsCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := []exact.Lineup{
		{Players: 2, Policy: W, Opponent: W},
		{Players: 2, Policy: B, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: B},
	}
	ns := []int{3, 4}
	mems := blindLimitedMemories(2, 3)
	if testing.Short() {
		ns, lineups, mems = []int{3}, lineups[:2], shortBlindMemories()
	}
	total := 0
	for _, m := range mems {
		for _, mu := range lineups {
			for _, n := range ns {
				t.Run(fmt.Sprintf("%v/%v-%v/n=%d", m, mu.Policy, mu.Opponent, n), func(t *testing.T) {
					total += checkBlindWinTwoSeats(t, m, mu, n)
				})
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// TestBlindLimitedWinSeatsCardLevel plays every seat win-optimal, win-optimal beside fixed
// policies, and a win-best-response seat beside fixed policies, card by card under blind flips with lru of capacity 2
// and 3 and handover-uniform of 3 at three seats, from the full deal with no pairs taken and with
// uneven pairs so far; and the perfect-memory table the engine plays (a memory that never forgets
// at card level).
func TestBlindLimitedWinSeatsCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{B, rules.PolicySafe, rules.PolicyDaring},
	}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}}
	n := 3
	mems := blindLimitedMemories(2, 3)
	if testing.Short() {
		lineups, starts, mems = lineups[1:2], starts[:1], shortBlindMemories()
	}
	total := 0
	for _, m := range mems {
		for _, seats := range lineups {
			for _, start := range starts {
				t.Run(fmt.Sprintf("%v/%v/%v", m, seats, start), func(t *testing.T) {
					total += checkWinCardLevelModel(t, m, blindWinModel(m), exact.SeatLineup(seats...), n, start)
				})
			}
		}
	}
	// Perfect memory: lru of capacity 2n forgets nothing at card level.
	perfect := blindWinModel(cardMemory{})
	t.Run("perfect", func(t *testing.T) {
		total += checkWinCardLevelModel(t, cardMemory{capacity: 2 * n, forget: rules.ForgetLRU}, perfect, exact.SeatLineup(W, W, W), n, []int{0, 0, 0})
	})
	t.Logf("compared %d values with card-level play", total)
}

// TestBlindLimitedWinCapacityIdentity checks that a shared memory of capacity 2n or more gives
// the perfect-memory values of the win objective under blind flips: at two seats every state and
// lead (WinDrawLoss), at three and four seats every seat's score and pairs, whose perfect-memory
// values the copies model computes by the state of faces (a second method).
func TestBlindLimitedWinCapacityIdentity(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	perfect := blindWinModel(cardMemory{})
	maxN := 4
	W := rules.PolicyWinOptimal
	lineups := [][]rules.Policy{{W, W, W}, {W, rules.PolicyDaring, W}, {W, W, W, W}}
	forgets := []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	if testing.Short() {
		maxN, lineups, forgets = 3, lineups[:2], forgets[:1]
	}
	for _, fg := range forgets {
		limited := blindWinModel(cardMemory{capacity: 2 * maxN, forget: fg})
		mu := exact.Lineup{Players: 2, Policy: W, Opponent: rules.PolicySafe}
		for n := 1; n <= maxN; n++ {
			for j := 0; j <= n; j++ {
				for lead := -1; lead <= 1; lead++ {
					st := rules.State{N: n, J: j, Lead: lead}
					a, err := exact.WinDrawLoss(ctx, f, limited, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					b, err := exact.WinDrawLoss(ctx, f, perfect, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					for r := range 2 {
						if a[r].Win.Cmp(b[r].Win) != 0 || a[r].Draw.Cmp(b[r].Draw) != 0 {
							t.Errorf("%v, %v, order %d: limited %v/%v, perfect %v/%v", limited.Memory, st, r, a[r].Win, a[r].Draw, b[r].Win, b[r].Draw)
						}
					}
				}
			}
		}
		for _, seats := range lineups {
			mu := exact.SeatLineup(seats...)
			st := rules.State{N: maxN, J: maxN}
			standings := make([]int, len(seats))
			standings[1] = 1
			a, err := exact.EvaluateStandings(ctx, f, limited, mu, st, standings)
			if err != nil {
				t.Fatal(err)
			}
			b, err := exact.EvaluateStandings(ctx, f, perfect, mu, st, standings)
			if err != nil {
				t.Fatal(err)
			}
			for s := range seats {
				if a.Score[s].Cmp(b.Score[s]) != 0 || a.Pairs[s].Cmp(b.Pairs[s]) != 0 {
					t.Errorf("%v, %v: seat %d: limited score %v pairs %v, perfect (copies model) %v %v", limited.Memory, seats, s, a.Score[s], a.Pairs[s], b.Score[s], b.Pairs[s])
				}
			}
		}
	}
}
