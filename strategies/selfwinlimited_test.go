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
// or handover-uniform memory, under every pass rule (at every seat, beside daring and safe in its
// seating's table, and win-best-response against safe and against win-optimal), and checks the
// engine's play against the solver (checkEngineSelfWin).
func TestEnginePlaysSelfWinUnderLimitedMemory(t *testing.T) {
	win, reply, safe, daring := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	twoKnown, always := rules.PassTwoKnown, rules.PassAlways
	games := []selfWinGame{
		{pairs: 5, capacity: 3, forget: lru, seats: []rules.Policy{win, win, win}},
		{pairs: 5, capacity: 3, forget: hu, seats: []rules.Policy{win, win, win}},
		{pairs: 4, capacity: 3, forget: lru, rule: always, seats: []rules.Policy{win, win, win}},
		{pairs: 5, capacity: 2, forget: lru, seats: []rules.Policy{daring, win, safe}},
		{pairs: 5, capacity: 3, forget: hu, seats: []rules.Policy{reply, safe, safe}, opponent: safe},
		{pairs: 5, capacity: 3, forget: lru, seats: []rules.Policy{win, reply, win}, opponent: win},
		{pairs: 6, capacity: 3, forget: hu, rule: twoKnown, seats: []rules.Policy{win, win, win}},
		{pairs: 5, capacity: 3, forget: hu, rule: always, seats: []rules.Policy{daring, win, safe}},
		{pairs: 6, capacity: 4, forget: lru, rule: twoKnown, seats: []rules.Policy{win, reply, win}, opponent: win},
	}
	deals := 20000
	if testing.Short() {
		games, deals = games[:3], 5000
	}
	for _, g := range games {
		checkEngineSelfWin(t, g, deals)
	}
}

// selfWinGame is a game of three seats with a shared memory for checkEngineSelfWin.
type selfWinGame struct {
	pairs, capacity int
	forget          rules.Forgetting
	decay           float64 // under decay forgetting, the probability q
	fluctuation     int     // σ of a fluctuating capacity
	// capacityMatters: under a fluctuating capacity, the solver's choices depend on the capacity
	// drawn in some state the table check reaches (checkFluctStandingsTable then requires it).
	capacityMatters bool
	rule            rules.PassRule
	seats           []rules.Policy
	opponent        rules.Policy // of the win-best-response seat
}

// checkEngineSelfWin builds the seats of g, checks that each seat that plays to win plays the
// solver's table of its seating at every count state, standings and pass streak, plays deals
// random deals with the engine (under a pass rule, where every seat may pass, some end in a
// stalemate), and compares every seat's rates of wins and draws and its mean pairs (a stalemate
// adding a third of the pairs left to every seat) with the solver's probabilities and expected
// pairs, within 4.5 standard errors. The engine flips a uniformly random position nobody
// remembers, as the model assumes of a card forgotten; averaging over every deal with a fixed
// order of flips would not give the model's expectation under forgetting.
func checkEngineSelfWin(t *testing.T, g selfWinGame, deals int) {
	t.Helper()
	ctx := context.Background()
	reply, win := rules.PolicyWinBestResponse, rules.PolicyWinOptimal
	name := fmt.Sprintf("%d pairs, %s(%d), pass %s, %v", g.pairs, g.forget, g.capacity, g.rule, g.seats)
	tables := strategies.NewTables()
	env := strategies.Env{MaxPairs: g.pairs, Players: 3, Pass: g.rule, Tables: tables}
	mem := rules.Memory{Capacity: g.capacity, Forget: g.forget, Decay: g.decay, Fluctuation: g.fluctuation}
	model := exact.Model{Pass: g.rule, Memory: mem}
	mu := exact.SeatLineup(g.seats...)
	players := make([]sim.Player, 3)
	checkedTable := false
	for s, p := range g.seats {
		forget := g.forget
		spec := strategies.Spec{Name: p.String(), Policy: p.String(),
			Memory: strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(g.capacity)}}
		if g.decay > 0 {
			spec.Memory.Decay = ptrTo(g.decay)
		}
		if g.fluctuation > 0 {
			spec.Memory.Fluctuation = ptrTo(g.fluctuation)
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
		if p.PlaysToWin() && testing.Short() && checkedTable {
			continue // the short form checks the first table that plays to win against a second solve
		}
		checkedTable = checkedTable || p.PlaysToWin()
		if p.PlaysToWin() && g.fluctuation > 0 {
			checkFluctStandingsTable(t, name, s, players[s].Table, model, exact.RotateSeats(mu, s), g.pairs, g.capacityMatters)
		} else if p.PlaysToWin() {
			checkStandingsTable(t, name, s, players[s].Table, model, exact.RotateSeats(mu, s), g.pairs)
		}
	}
	gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Pass: g.rule, Players: players})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res, err := exact.EvaluateStandings(ctx, field.Float{}, model, mu, rules.State{N: g.pairs, J: g.pairs}, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var tally seatRates
	stalemates := 0
	for d := range uint64(deals) {
		if err := gm.Play(sim.GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		o := gm.Outcome()
		if o.Stalemate {
			stalemates++
		}
		tally.add(o)
	}
	if stalemates == 0 && g.rule != rules.PassNever && g.seats[0] == win && g.seats[2] == win {
		t.Errorf("%s: no stalemate in %d deals", name, deals)
	}
	tally.check(t, name, res, 4.5)
}

// seatRates counts three seats' wins (the most pairs alone), draws (the most, shared) and pairs,
// the pairs left at the end shared equally, over engine games.
type seatRates struct {
	games                       int
	wins, draws, pairs, pairsSq [3]float64
}

// add counts one game's outcome.
func (c *seatRates) add(o *sim.Outcome) {
	c.games++
	most, top := mostOf(o.Pairs)
	for s, x := range o.Pairs {
		v := float64(x) + float64(o.Left)/3
		c.pairs[s] += v
		c.pairsSq[s] += v * v
		if x == most && top == 1 {
			c.wins[s]++
		} else if x == most {
			c.draws[s]++
		}
	}
}

// check checks every seat's win and draw rates and mean pairs against the model's res, within k
// standard errors.
func (c *seatRates) check(t *testing.T, name string, res exact.SelfWinResult[float64], k float64) {
	t.Helper()
	n := float64(c.games)
	for s := range 3 {
		rate := func(what string, x, want float64) {
			p := x / n
			se := math.Sqrt(max(p*(1-p), 1e-4) / n)
			if math.Abs(p-want) > k*se {
				t.Errorf("%s: seat %d's %s rate %.4f ± %.4f over %d deals, the model %.4f", name, s, what, p, se, c.games, want)
			}
		}
		rate("win", c.wins[s], res.Win[s])
		rate("draw", c.draws[s], res.Draw[s])
		mean := c.pairs[s] / n
		se := math.Sqrt((c.pairsSq[s]/n - mean*mean) / n)
		if math.Abs(mean-res.Pairs[s]) > k*se {
			t.Errorf("%s: seat %d takes %.4f ± %.4f pairs, the model %.4f", name, s, mean, se, res.Pairs[s])
		}
	}
}

// checkStandingsTable checks that a seat's table holds the solver's choice of seat 0 of lineup mu
// (the game's seen from that seat) at every count state the memory holds, every standings and,
// under a pass rule, every pass streak, where the table must pass somewhere.
func checkStandingsTable(t *testing.T, name string, seat int, tab *rules.ChoiceTable, model exact.Model, mu exact.Lineup, maxPairs int) {
	t.Helper()
	want, err := exact.PolicyTable(context.Background(), field.Rat{}, model, mu, maxPairs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if tab.Standings() == nil || want.Standings() == nil {
		t.Fatalf("%s: seat %d's table has no standings", name, seat)
	}
	streaks := 1
	if model.Pass != rules.PassNever {
		streaks = mu.Players
	}
	if l := tab.Standings().PassLevels(); l != streaks {
		t.Fatalf("%s: seat %d's table has %d pass streaks, want %d", name, seat, l, streaks)
	}
	checked, passes := 0, 0
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
						for k := range streaks {
							got, ok := tab.Standings().LookupPasses(st, pairs, k)
							w, wok := want.Standings().LookupPasses(st, pairs, k)
							if !ok || !wok || got != w {
								t.Errorf("%s: seat %d in %v with pairs %v at streak %d plays %v (%v), the solver %v (%v)", name, seat, st, pairs, k, got, ok, w, wok)
							}
							checked++
							if got == rules.Pass {
								passes++
							}
						}
					}
				}
			}
		}
	}
	if checked == 0 || (passes == 0) != (model.Pass == rules.PassNever) {
		t.Fatalf("%s: %d states checked, %d passes under pass rule %s", name, checked, passes, model.Pass)
	}
}
