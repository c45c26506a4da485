package strategies_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysSelfWinUnderLimitedMemory builds win-optimal at three seats with a shared lru
// or handover-uniform memory (at every seat, beside daring and safe in its seating's table, and
// win-best-response against safe and against win-optimal), checks that each seat plays the
// solver's table of its seating at every count state and standings, plays random deals with the
// engine, and compares every seat's rates of wins and draws and its mean pairs with the solver's
// probabilities and expected pairs, within 4.5 standard errors. The engine flips a uniformly random
// position nobody remembers, as the model assumes of a card forgotten; averaging over every deal
// with a fixed order of flips would not give the model's expectation under forgetting.
func TestEnginePlaysSelfWinUnderLimitedMemory(t *testing.T) {
	win, reply, safe, daring := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring
	type game = selfWinGame
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	games := []game{
		{5, 3, lru, []rules.Policy{win, win, win}, 0, 0},
		{5, 3, hu, []rules.Policy{win, win, win}, 0, 0},
		{5, 2, lru, []rules.Policy{daring, win, safe}, 0, 0},
		{5, 3, hu, []rules.Policy{reply, safe, safe}, safe, 0},
		{5, 3, lru, []rules.Policy{win, reply, win}, win, 0},
	}
	deals := 20000
	if testing.Short() {
		games, deals = games[:2], 6000
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, deals)
	}
}

// selfWinGame is a game of three seats with a shared memory for checkEngineSelfWin.
type selfWinGame struct {
	pairs, capacity int
	forget          rules.Forgetting
	seats           []rules.Policy
	opponent        rules.Policy // of the win-best-response seat
	decay           float64      // under decay forgetting, the probability q
}

// checkEngineSelfWin builds the seats of g, checks that each seat that plays to win plays the
// solver's table of its seating at every count state and standings, plays deals random deals
// with the engine, and compares every seat's rates of wins and draws and its mean pairs with the
// solver's probabilities and expected pairs, within 4.5 standard errors.
func checkEngineSelfWin(t *testing.T, g selfWinGame, deals int) {
	t.Helper()
	ctx := context.Background()
	reply, win := rules.PolicyWinBestResponse, rules.PolicyWinOptimal
	{
		name := fmt.Sprintf("%d pairs, %s(%d), %v", g.pairs, g.forget, g.capacity, g.seats)
		tables := strategies.NewTables()
		env := strategies.Env{MaxPairs: g.pairs, Players: 3, Pass: rules.PassNever, Tables: tables}
		mem := rules.Memory{Capacity: g.capacity, Forget: g.forget, Decay: g.decay}
		model := exact.Model{Memory: mem}
		mu := exact.SeatLineup(g.seats...)
		players := make([]sim.Player, 3)
		for s, p := range g.seats {
			forget := g.forget
			spec := strategies.Spec{Name: p.String(), Policy: p.String(),
				Memory: strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(g.capacity)}}
			if g.decay > 0 {
				spec.Memory.Decay = ptrTo(g.decay)
			}
			if p == reply {
				spec.Opponent = g.opponent.String()
			}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if b.Exact == nil || b.Exact.Memory != mem {
				t.Fatalf("%s: seat %d is valued in %+v, want %v", name, s, b.Exact, mem)
			}
			players[s] = b.Player
			if mu.SelfWinMixed() && p == win {
				tab, err := tables.SeatWinTable(ctx, model, exact.RotateSeats(mu, s), g.pairs)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				players[s].Table = tab
			}
			if p.PlaysToWin() {
				checkStandingsTable(t, name, s, players[s].Table, model, exact.RotateSeats(mu, s), g.pairs)
			}
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := exact.EvaluateStandings(ctx, field.Float{}, model, mu, rules.State{N: g.pairs, J: g.pairs}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var wins, draws, pairs, pairsSq [3]float64
		for d := range uint64(deals) {
			if err := gm.Play(sim.GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			o := gm.Outcome()
			most, top := -1, 0
			for _, x := range o.Pairs {
				switch {
				case x > most:
					most, top = x, 1
				case x == most:
					top++
				}
			}
			for s, x := range o.Pairs {
				pairs[s] += float64(x)
				pairsSq[s] += float64(x * x)
				if x == most && top == 1 {
					wins[s]++
				} else if x == most {
					draws[s]++
				}
			}
		}
		n := float64(deals)
		for s := range 3 {
			rate := func(what string, k, want float64) {
				p := k / n
				se := math.Sqrt(max(p*(1-p), 1e-4) / n)
				if math.Abs(p-want) > 4.5*se {
					t.Errorf("%s: seat %d's %s rate %.4f ± %.4f over %d deals, the model %.4f", name, s, what, p, se, deals, want)
				}
			}
			rate("win", wins[s], res.Win[s])
			rate("draw", draws[s], res.Draw[s])
			mean := pairs[s] / n
			se := math.Sqrt((pairsSq[s]/n - mean*mean) / n)
			if math.Abs(mean-res.Pairs[s]) > 4.5*se {
				t.Errorf("%s: seat %d takes %.4f ± %.4f pairs, the model %.4f", name, s, mean, se, res.Pairs[s])
			}
		}
	}
}

// checkStandingsTable checks that a seat's table holds the solver's choice of seat 0 of lineup mu
// (the game's seen from that seat) at every count state the memory holds and every standings.
func checkStandingsTable(t *testing.T, name string, seat int, tab *rules.ChoiceTable, model exact.Model, mu exact.Lineup, maxPairs int) {
	t.Helper()
	want, err := exact.PolicyTable(context.Background(), field.Rat{}, model, mu, maxPairs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if tab.Standings() == nil || want.Standings() == nil {
		t.Fatalf("%s: seat %d's table has no standings", name, seat)
	}
	checked := 0
	for n := 1; n <= maxPairs; n++ {
		lo := 0
		if c := model.Memory.Capacity; c > 0 {
			lo = max(0, n-c)
		}
		for j := lo; j <= n; j++ {
			st := rules.State{N: n, J: j}
			for a := 0; a <= maxPairs-n; a++ {
				for b := 0; a+b <= maxPairs-n; b++ {
					for c := 0; a+b+c <= maxPairs-n; c++ {
						pairs := []int{a, b, c}
						got, ok := tab.Standings().Lookup(st, pairs)
						w, wok := want.Standings().Lookup(st, pairs)
						if !ok || !wok || got != w {
							t.Errorf("%s: seat %d in %v with pairs %v plays %v (%v), the solver %v (%v)", name, seat, st, pairs, got, ok, w, wok)
						}
						checked++
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatalf("%s: no state checked", name)
	}
}
