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

// TestEnginePlaysSelfWinLimitedLimitTables builds win-optimal at three seats with a shared lru,
// handover-uniform or decay memory (with and without a capacity) under a turn limit, under every
// pass rule (at every seat, beside daring and safe in its seating's table, and win-best-response
// beside win-optimal);
// checks that every layer of turns left of each such seat's table holds at the full deal and the
// states part known, no pairs so far and uneven standings, the choice the solver's evaluation
// under that many turns makes (EvaluateStandings with the limit set to the turns left, a sweep
// apart from the table's); plays random deals with the engine and compares every seat's rates of
// wins and draws and its mean pairs (a stalemate adding a third of the pairs left to every seat)
// with the solver's values, within 4.5 standard errors.
func TestEnginePlaysSelfWinLimitedLimitTables(t *testing.T) {
	ctx := context.Background()
	win, reply, safe, daring := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring
	type game struct {
		pairs, capacity, limit int
		forget                 rules.Forgetting
		rule                   rules.PassRule
		seats                  []rules.Policy
		short                  bool
		q                      float64 // decay forgetting's probability
	}
	lru, hu, decay := rules.ForgetLRU, rules.ForgetHandoverUniform, rules.ForgetDecay
	games := []game{
		{4, 3, 6, lru, rules.PassNever, []rules.Policy{win, win, win}, true, 0},
		{4, 2, 7, hu, rules.PassAlways, []rules.Policy{daring, win, safe}, true, 0},
		{5, 3, 8, hu, rules.PassNever, []rules.Policy{win, reply, win}, false, 0},
		{5, 3, 9, lru, rules.PassAlways, []rules.Policy{win, win, win}, false, 0},
		{3, 0, 6, decay, rules.PassAlways, []rules.Policy{win, win, win}, true, 0.5},
		{4, 2, 8, decay, rules.PassNever, []rules.Policy{win, safe, daring}, false, 0.2},
		{4, 0, 7, decay, rules.PassTwoKnown, []rules.Policy{reply, win, win}, false, 0.1},
	}
	deals := 20000
	if testing.Short() {
		deals = 4000
	}
	for _, g := range games {
		if testing.Short() && !g.short {
			continue
		}
		name := fmt.Sprintf("%d pairs, %s(%d), limit %d, pass %s, %v", g.pairs, g.forget, g.capacity, g.limit, g.rule, g.seats)
		v := rules.Variant{TurnLimit: g.limit}
		tables := strategies.NewTables()
		env := strategies.Env{MaxPairs: g.pairs, Players: 3, Pass: g.rule, Variant: v, Tables: tables}
		mem := rules.Memory{Capacity: g.capacity, Forget: g.forget, Decay: g.q}
		model := exact.Model{Pass: g.rule, Memory: mem, Variant: v}
		mu := exact.SeatLineup(g.seats...)
		players := make([]sim.Player, 3)
		layersChecked := map[string]bool{}
		for s, p := range g.seats {
			forget := g.forget
			spec := strategies.Spec{Name: p.String(), Policy: p.String(),
				Memory: strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(g.capacity)}}
			if g.q > 0 {
				spec.Memory.Decay = ptrTo(g.q)
			}
			if p == reply {
				spec.Opponent = win.String()
			}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if b.Exact == nil || b.Exact.Memory != mem {
				t.Fatalf("%s: seat %d is valued in %+v, want %v", name, s, b.Exact, mem)
			}
			players[s] = b.Player
			seen := exact.RotateSeats(mu, s)
			if mu.SelfWinMixed() && p == win {
				tab, err := tables.SeatWinTable(ctx, model, seen, g.pairs)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				players[s].Table = tab
			}
			if key := fmt.Sprint(seen.SeatPolicies()); p.PlaysToWin() && !layersChecked[key] {
				// Seats whose seating is the same lineup play the same table: checked once.
				layersChecked[key] = true
				checkLimitLayers(t, fmt.Sprintf("%s, seat %d", name, s), players[s].Table, model, seen, g.pairs)
			}
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Pass: g.rule, Variant: v, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := exact.EvaluateStandings(ctx, field.Float{}, model, mu, rules.State{N: g.pairs, J: g.pairs}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var wins, draws, pairs, pairsSq [3]float64
		for d := range uint64(deals) {
			if err := gm.Play(sim.GameID{Seed: 13, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			o := gm.Outcome()
			most, top := mostOf(o.Pairs)
			for s, x := range o.Pairs {
				v := float64(x)
				if o.Stalemate {
					v += float64(o.Left) / 3
				}
				pairs[s] += v
				pairsSq[s] += v * v
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
			se := math.Sqrt(max(pairsSq[s]/n-mean*mean, 1e-4) / n)
			if math.Abs(mean-res.Pairs[s]) > 4.5*se {
				t.Errorf("%s: seat %d takes %.4f ± %.4f pairs, the model %.4f", name, s, mean, se, res.Pairs[s])
			}
		}
	}
}

// checkLimitLayers checks that every layer of turns left of a seat's table holds, at the count
// states of maxPairs-1 and maxPairs pairs the memory holds (of maxPairs-2 under -short), from no pairs so
// far and uneven standings (one of them under -short), the choice of seat 0 of lineup mu that the solver's evaluation makes
// with that many turns left.
func checkLimitLayers(t *testing.T, name string, tab *rules.ChoiceTable, model exact.Model, mu exact.Lineup, maxPairs int) {
	t.Helper()
	limit := model.Variant.TurnLimit
	if tab.TurnLimit() != limit {
		t.Fatalf("%s: the table has %d layers of turns left, want %d", name, tab.TurnLimit(), limit)
	}
	checked := 0
	for left := 1; left <= limit; left++ {
		if testing.Short() && left > 2 && left < limit {
			continue // the short form checks the layers of 1, 2 and all the turns left
		}
		m := model
		m.Variant.TurnLimit = left
		lo, hi := maxPairs-1, maxPairs
		if testing.Short() {
			lo, hi = maxPairs-2, maxPairs-2
		}
		for n := max(lo, 1); n <= hi; n++ {
			for j := max(0, n-model.Memory.Capacity); j <= n; j++ {
				st := rules.State{N: n, J: j}
				for i, standings := range [][]int{{0, 0, 0}, {0, 2, 1}} {
					if testing.Short() && i != (j+left)%2 {
						continue
					}
					res, err := exact.EvaluateStandings(context.Background(), field.Rat{}, m, mu, st, standings)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got, ok := tab.StandingsTurnsLeft(left).LookupPasses(st, standings, 0)
					if !ok || got != res.Choice {
						t.Errorf("%s: %d turns left, %v, standings %v: the table plays %v (%v), the solver %v", name, left, st, standings, got, ok, res.Choice)
					}
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Fatalf("%s: no layer checked", name)
	}
}
