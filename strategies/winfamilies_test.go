package strategies_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// winVariantGame is a game of three seats playing to win with a shared decay memory, with
// singletons or under blind flips, for checkEngineSelfWinVariant.
type winVariantGame struct {
	pairs, singletons int
	decay             float64
	flips             rules.Flips
	rule              rules.PassRule
	seats             []rules.Policy
	opponent          rules.Policy // of the win-best-response seat
}

// checkEngineSelfWinVariant builds the seats of g, checks that each seat that plays to win plays
// the solver's table of its seating (seen from that seat) at every count state with every count
// of unseen singletons, every standings and pass streak, plays deals random deals with the
// engine, and compares every seat's rates of wins and draws and its mean pairs (a stalemate adding
// a third of the pairs left to every seat) with the solver's, within 4 standard errors.
func checkEngineSelfWinVariant(t *testing.T, g winVariantGame, deals int) {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("%d pairs, %d singletons, decay %v, %s, pass %s, %v", g.pairs, g.singletons, g.decay, g.flips, g.rule, g.seats)
	variant := rules.Variant{Flips: g.flips}
	env := strategies.Env{MaxPairs: g.pairs, Singletons: g.singletons, Players: 3, Pass: g.rule, Variant: variant, Tables: strategies.NewTables()}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: g.decay}
	model := exact.Model{Pass: g.rule, Singletons: g.singletons, Memory: mem, Variant: variant}
	mu := exact.SeatLineup(g.seats...)
	players := make([]sim.Player, 3)
	for s, p := range g.seats {
		forget := rules.ForgetDecay
		spec := strategies.Spec{Name: p.String(), Policy: p.String(), Memory: strategies.MemoryOverride{Forget: &forget, Decay: ptrTo(g.decay)}}
		if p == rules.PolicyWinBestResponse {
			spec.Opponent = g.opponent.String()
		}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Exact == nil || b.Exact.Memory != mem || strings.Contains(b.Table, "no exact model") {
			t.Fatalf("%s: seat %d is valued in %+v (table %q), want %v", name, s, b.Exact, b.Table, mem)
		}
		players[s] = b.Player
		if mu.SelfWinMixed() && p == rules.PolicyWinOptimal {
			tab, err := env.Tables.SeatWinTable(ctx, model, exact.RotateSeats(mu, s), g.pairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players[s].Table = tab
		}
		if p.PlaysToWin() {
			checkVariantStandingsTable(t, name, s, players[s].Table, model, exact.RotateSeats(mu, s), g.pairs)
		}
	}
	gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Singletons: g.singletons, Pass: g.rule, Variant: variant, Players: players})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res, err := exact.EvaluateStandings(ctx, field.Float{}, model, mu, rules.State{N: g.pairs, J: g.pairs, S: g.singletons, F: g.singletons}, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var tally seatRates
	for d := range uint64(deals) {
		if err := gm.Play(sim.GameID{Seed: 13, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tally.add(gm.Outcome())
	}
	tally.check(t, name, res, 4)
}

// checkVariantStandingsTable checks that a seat's table holds the solver's choice of seat 0 of
// lineup mu at every count state the solver's table has (every count of unseen singletons), every
// standings and every pass streak.
func checkVariantStandingsTable(t *testing.T, name string, seat int, tab *rules.ChoiceTable, model exact.Model, mu exact.Lineup, maxPairs int) {
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
	checked := 0
	s := model.Singletons
	for n := 1; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= s; f++ {
				st := rules.State{N: n, J: j, S: s, F: f}
				for a := 0; a <= maxPairs-n; a++ {
					for b := 0; a+b <= maxPairs-n; b++ {
						for c := 0; a+b+c <= maxPairs-n; c++ {
							standings := []int{a, b, c}
							for k := range streaks {
								w, wok := want.Standings().LookupPasses(st, standings, k)
								if !wok {
									continue
								}
								got, ok := tab.Standings().LookupPasses(st, standings, k)
								if !ok || got != w {
									t.Errorf("%s: seat %d in %v with pairs %v at streak %d plays %v (%v), the solver %v", name, seat, st, standings, k, got, ok, w)
								}
								checked++
							}
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatalf("%s: seat %d: no state checked", name, seat)
	}
}

// TestEnginePlaysSelfWinUnderDecayWithSingletons builds win-optimal at three seats with a shared
// decay memory in deals with singletons (every seat, beside safe and daring in its seating's table,
// and win-best-response against win-optimal), under the pass rules never and always, and checks
// the engine's play against the solver (checkEngineSelfWinVariant).
func TestEnginePlaysSelfWinUnderDecayWithSingletons(t *testing.T) {
	win, reply, safe, daring := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring
	// The exact decay table of three seats with singletons costs seconds beyond 2 pairs.
	games := []winVariantGame{
		{pairs: 2, singletons: 1, decay: 0.25, seats: []rules.Policy{win, win, win}},
		{pairs: 2, singletons: 1, decay: 0.5, rule: rules.PassAlways, seats: []rules.Policy{daring, win, safe}},
		{pairs: 2, singletons: 1, decay: 0.25, seats: []rules.Policy{win, reply, win}, opponent: win},
	}
	deals := 4000
	if testing.Short() {
		t.Skip("the exact decay table of three seats with singletons takes longer than -short allows")
	}
	for _, g := range games {
		checkEngineSelfWinVariant(t, g, deals)
	}
}

// TestEnginePlaysSelfWinUnderBlindDecay builds win-optimal at three seats under blind flips with
// a shared decay memory (every seat, beside safe and daring in its seating's table, and
// win-best-response against win-optimal), under the pass rules never and always, and checks the
// engine's play against the solver (checkEngineSelfWinVariant).
func TestEnginePlaysSelfWinUnderBlindDecay(t *testing.T) {
	win, reply, safe, daring := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe, rules.PolicyDaring
	blind := rules.FlipsBlind
	games := []winVariantGame{
		{pairs: 3, decay: 0.25, flips: blind, seats: []rules.Policy{win, win, win}},
		{pairs: 2, decay: 0.5, flips: blind, rule: rules.PassAlways, seats: []rules.Policy{safe, daring, win}},
		{pairs: 2, decay: 0.25, flips: blind, seats: []rules.Policy{reply, win, win}, opponent: win},
	}
	deals := 4000
	if testing.Short() {
		t.Skip("the exact decay table of three seats under blind flips takes longer than -short allows")
	}
	for _, g := range games {
		checkEngineSelfWinVariant(t, g, deals)
	}
}

// TestEnginePlaysWinUnderBlindSingletons builds win-optimal and win-best-response against safe at
// two seats under blind flips with singletons and perfect memory, under the pass rules never and
// always, checks that each plays the solver's table at every count state, unseen singletons and
// lead (just after a pass as well), and plays it against its opponent with the engine: the rates
// of wins, draws and losses of the first seat and its mean pairs lie within 4 standard errors of
// WinDrawLoss's and Evaluate's from the full deal.
func TestEnginePlaysWinUnderBlindSingletons(t *testing.T) {
	ctx := context.Background()
	type game struct {
		pairs, singletons int
		rule              rules.PassRule
		mu                exact.Lineup
	}
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	games := []game{
		{4, 2, rules.PassNever, exact.Lineup{Players: 2, Policy: W, Opponent: W}},
		{4, 1, rules.PassAlways, exact.Lineup{Players: 2, Policy: W, Opponent: W}},
		{4, 2, rules.PassNever, exact.Lineup{Players: 2, Policy: B, Opponent: rules.PolicySafe}},
		{3, 2, rules.PassTwoKnown, exact.Lineup{Players: 2, Policy: B, Opponent: rules.PolicyDaring}},
	}
	deals := 20000
	if testing.Short() {
		games, deals = games[:1], 300
		games[0].pairs = 2
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	for _, g := range games {
		name := fmt.Sprintf("%d pairs, %d singletons, pass %s, %s/%s", g.pairs, g.singletons, g.rule, g.mu.Policy, g.mu.Opponent)
		env := strategies.Env{MaxPairs: g.pairs, Singletons: g.singletons, Players: 2, Pass: g.rule, Variant: blind, Tables: strategies.NewTables()}
		model := exact.Model{Pass: g.rule, Singletons: g.singletons, Variant: blind}
		build := func(p, opp rules.Policy) sim.Player {
			spec := strategies.Spec{Name: p.String(), Policy: p.String()}
			if p == B {
				spec.Opponent = opp.String()
			}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if strings.Contains(b.Table, "no exact model") {
				t.Fatalf("%s: %s plays %q", name, p, b.Table)
			}
			return b.Player
		}
		first := build(g.mu.Policy, g.mu.Opponent)
		want, err := exact.PolicyTable(ctx, field.Rat{}, model, g.mu, g.pairs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checked := 0
		for n := 1; n <= g.pairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= g.singletons; f++ {
					for d := -(g.pairs - n); d <= g.pairs-n; d++ {
						st := rules.State{N: n, J: j, S: g.singletons, F: f, Lead: d}
						for _, after := range []bool{false, true} {
							w, wok := want.Lookup(st, after)
							if !wok {
								continue
							}
							got, ok := first.Table.Lookup(st, after)
							if !ok || got != w {
								t.Errorf("%s: %v, after a pass %v: the player plays %v (%v), the solver %v", name, st, after, got, ok, w)
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
		second := build(g.mu.Opponent, g.mu.Policy)
		gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Singletons: g.singletons, Pass: g.rule, Variant: blind, Players: []sim.Player{first, second}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st := rules.State{N: g.pairs, J: g.pairs, S: g.singletons, F: g.singletons}
		wdl, err := exact.WinDrawLoss[float64](ctx, field.Float{}, model, g.mu, st)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := exact.Evaluate[float64](ctx, field.Float{}, model, g.mu, st)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var win, draw, loss, sum, sumSq float64
		for i := range uint64(deals) {
			if err := gm.Play(sim.GameID{Seed: 17, DealStream: 1, PlayStream: 2, Index: i}, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			o := gm.Outcome()
			a, b := o.Pairs[0], o.Pairs[1]
			switch {
			case a > b:
				win++
			case a == b:
				draw++
			default:
				loss++
			}
			v := float64(a) + float64(o.Left)/2
			sum += v
			sumSq += v * v
		}
		n := float64(deals)
		for _, c := range []struct {
			what      string
			k, expect float64
		}{{"win", win, wdl[0].Win}, {"draw", draw, wdl[0].Draw}, {"loss", loss, wdl[0].Loss}} {
			p := c.k / n
			se := math.Sqrt(max(p*(1-p), 1e-4) / n)
			if math.Abs(p-c.expect) > 4*se {
				t.Errorf("%s: %s rate %.4f ± %.4f over %d deals, the model %.4f", name, c.what, p, se, deals, c.expect)
			}
		}
		mean := sum / n
		se := math.Sqrt((sumSq/n - mean*mean) / n)
		if math.Abs(mean-res.ExpectedPairs) > 4*se {
			t.Errorf("%s: %.4f ± %.4f pairs, the model %.4f", name, mean, se, res.ExpectedPairs)
		}
	}
}
