package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysSelfWinUnderFluctuation builds win-optimal at every one of three seats with a
// shared lru or handover-uniform memory whose capacity fluctuates, checks that every seat's table
// holds the solver's choice at every count state, capacity drawn and standings, and plays random
// deals against the solver's win, draw and pairs (checkEngineSelfWin).
func TestEnginePlaysSelfWinUnderFluctuation(t *testing.T) {
	win := rules.PolicyWinOptimal
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	seats := []rules.Policy{win, win, win}
	games := []selfWinGame{
		{pairs: 3, capacity: 2, forget: lru, fluctuation: 1, seats: seats},
		{pairs: 4, capacity: 3, forget: lru, fluctuation: 1, seats: seats, capacityMatters: true},
		{pairs: 5, capacity: 3, forget: hu, fluctuation: 1, seats: seats, capacityMatters: true},
		{pairs: 4, capacity: 3, forget: hu, fluctuation: 2, seats: seats},
	}
	deals := 20000
	if testing.Short() {
		games, deals = games[:1], 4000
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, deals)
	}
}

// TestEnginePlaysSelfWinLineupUnderFluctuation builds win-optimal beside optimal, safe and daring,
// and win-best-response to safe or to win-optimal, at three seats with a shared lru or handover-uniform memory whose capacity fluctuates,
// checks that every seat's table that plays to win holds the solver's choice of its seating at every
// count state, capacity drawn and standings, and plays random deals against the solver's win,
// draw and pairs (checkEngineSelfWin).
func TestEnginePlaysSelfWinLineupUnderFluctuation(t *testing.T) {
	win, reply := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	games := []selfWinGame{
		{pairs: 3, capacity: 2, forget: lru, fluctuation: 1, seats: []rules.Policy{win, rules.PolicyOptimal, rules.PolicySafe}},
		{pairs: 3, capacity: 3, forget: hu, fluctuation: 1, seats: []rules.Policy{rules.PolicyDaring, win, rules.PolicySafe}},
		{pairs: 3, capacity: 2, forget: hu, fluctuation: 1, seats: []rules.Policy{reply, rules.PolicySafe, rules.PolicySafe}, opponent: rules.PolicySafe},
		{pairs: 3, capacity: 2, forget: lru, fluctuation: 1, seats: []rules.Policy{reply, win, win}, opponent: win},
	}
	deals := 6000
	if testing.Short() {
		// The short form: the first lineup in a deal of 2 pairs (3 in the full form).
		games, deals = []selfWinGame{{pairs: 2, capacity: 2, forget: lru, fluctuation: 1, seats: []rules.Policy{win, rules.PolicyOptimal, rules.PolicySafe}}}, 1000
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, deals)
	}
}

// TestEnginePlaysSelfWinPassUnderFluctuation builds win-optimal at two of three seats beside
// safe, with a shared lru or handover-uniform memory whose capacity fluctuates, under the
// pass rules always and two-known, checks that every seat's table holds the solver's choice at
// every count state, capacity drawn, standings and pass streak, and plays random deals against
// the solver's win, draw and pairs (checkEngineSelfWin; a stalemate shares the pairs left).
func TestEnginePlaysSelfWinPassUnderFluctuation(t *testing.T) {
	if testing.Short() {
		t.Skip("the exact tables of a pass rule take seconds (the analysis/exact card-level tests cover the model in the short form)")
	}
	win, safe := rules.PolicyWinOptimal, rules.PolicySafe
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	games := []selfWinGame{
		{pairs: 2, capacity: 2, forget: lru, fluctuation: 1, rule: rules.PassAlways, seats: []rules.Policy{win, win, safe}},
		{pairs: 2, capacity: 2, forget: hu, fluctuation: 1, rule: rules.PassTwoKnown, seats: []rules.Policy{safe, win, win}},
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, 6000)
	}
}

// checkFluctStandingsTable checks that a seat's table has a layer per capacity the solver tells
// apart (exact.FluctSelfWinLineupTables of mu, the game's lineup seen from the seat, in exact
// rationals), each holding the solver's choice at every count state the memory can hold with that
// capacity drawn, every standings and, under a pass rule, every pass streak; that a capacity
// beyond the layers reads the last one; and, where matters, that the choices depend on the
// capacity in some state checked, so that a player reading one layer whatever the capacity drawn
// is told apart.
func checkFluctStandingsTable(t *testing.T, name string, seat int, tab *rules.ChoiceTable, model exact.Model, mu exact.Lineup, maxPairs int, matters bool) {
	t.Helper()
	lo, layers, err := exact.FluctSelfWinLineupTables(context.Background(), field.Rat{}, model, mu, maxPairs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	hi := lo + len(layers) - 1
	if l, h, ok := tab.Capacities(); !ok || l != lo || h != hi {
		t.Fatalf("%s: seat %d's table has capacities %d .. %d (%v), the solver %d .. %d", name, seat, l, h, ok, lo, hi)
	}
	checked, differ := 0, 0
	for c := lo; c <= hi+1; c++ {
		want := layers[min(c, hi)-lo]
		got := tab.StandingsAt(0, c)
		if got == nil {
			t.Fatalf("%s: seat %d's table has no standings with capacity %d drawn", name, seat, c)
		}
		if got.PassLevels() != want.PassLevels() {
			t.Fatalf("%s: seat %d's table tells %d pass streaks apart with capacity %d drawn, the solver %d", name, seat, got.PassLevels(), c, want.PassLevels())
		}
		for n := 1; n <= maxPairs; n++ {
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j}
				for a := 0; a <= maxPairs-n; a++ {
					for b := 0; a+b <= maxPairs-n; b++ {
						for d := 0; a+b+d <= maxPairs-n; d++ {
							pairs := []int{a, b, d}
							for l := range want.PassLevels() {
								g, ok := got.LookupPasses(st, pairs, l)
								w, wok := want.LookupPasses(st, pairs, l)
								if ok != wok || g != w {
									t.Errorf("%s: seat %d in %v with capacity %d, pairs %v and pass streak %d plays %v (%v), the solver %v (%v)", name, seat, st, c, pairs, l, g, ok, w, wok)
								}
								if !wok {
									continue // more remembered cards than the memory holds with c drawn
								}
								checked++
								if o, ook := layers[len(layers)-1].LookupPasses(st, pairs, l); c < hi && ook && o != w {
									differ++
								}
							}
						}
					}
				}
			}
		}
	}
	if checked == 0 || (matters && differ == 0) {
		t.Fatalf("%s: %d states checked, %d whose choice depends on the capacity drawn", name, checked, differ)
	}
}

// TestSelfWinUnderPrivateFluctuationKeepsTheStandings builds win-optimal at three seats with a
// private lru memory whose capacity fluctuates, which has no exact model and plays the shared base
// capacity's table extended to the states of more remembered cards: the extension must keep the
// table's standings, each state taking the base table's choice at the same standings in the state
// with its remembered cards brought down to the base capacity.
func TestSelfWinUnderPrivateFluctuationKeepsTheStandings(t *testing.T) {
	ctx := context.Background()
	const maxPairs, capacity = 4, 2
	lru, private := rules.ForgetLRU, rules.ScopePrivate
	spec := strategies.Spec{Name: "win", Policy: "win-optimal",
		Memory: strategies.MemoryOverride{Forget: &lru, Capacity: ptrTo(capacity), Fluctuation: ptrTo(1), Scope: &private}}
	b, err := strategies.Build(ctx, spec, strategies.Env{MaxPairs: maxPairs, Players: 3, Pass: rules.PassNever})
	if err != nil {
		t.Fatal(err)
	}
	base := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: lru}}
	want, err := exact.PolicyTable(ctx, field.Rat{}, base, exact.Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, maxPairs)
	if err != nil {
		t.Fatal(err)
	}
	got := b.Player.Table.Standings()
	if got == nil || want.Standings() == nil {
		t.Fatalf("the player's table has standings %v, the solver's %v", got != nil, want.Standings() != nil)
	}
	beyond := 0
	for n := 1; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			near := rules.State{N: n, J: max(j, n-capacity)}
			for a := 0; a <= maxPairs-n; a++ {
				for c := 0; a+c <= maxPairs-n; c++ {
					pairs := []int{a, 0, c}
					g, ok := got.Lookup(st, pairs)
					w, wok := want.Standings().Lookup(near, pairs)
					if !ok || !wok || g != w {
						t.Errorf("%v with pairs %v: the player plays %v (%v), the base table in %v %v (%v)", st, pairs, g, ok, near, w, wok)
					}
					if near != st {
						beyond++
					}
				}
			}
		}
	}
	if beyond == 0 {
		t.Fatal("no state beyond the base capacity checked")
	}
}
