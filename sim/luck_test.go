package sim_test

// Luck-adjusted scores (docs/models.md §5.6), checked three ways: a hand-worked game whose every
// event is computed below from the rules alone; the exact mean over every deal of small games,
// where the luck must average to zero exactly, so that the adjusted mean is the solver's value;
// and the agreement of the engine's ways of adjusting the same games.

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
)

func luckTable(t testing.TB, m exact.Model, players, n int) *rules.LuckTable {
	t.Helper()
	lt, err := exact.LuckTable(context.Background(), m, players, n)
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

// unknownFirst flips a card it does not remember, or the remembered partner of the first card:
// with perfect memory, daring as a strategy, which the engine adjusts card by card.
func unknownFirst(v *sim.View) sim.Move {
	if !v.Second {
		if a, _, ok := v.KnownPair(); ok {
			return sim.FlipAt(a)
		}
	} else if p, ok := v.PartnerOf(v.First.Pos); ok {
		return sim.FlipAt(p)
	}
	return sim.FlipUnknown()
}

// TestLuckHandWorked plays two deals of two pairs, faces by position, with both seats flipping
// unknown cards (perfect memory; the engine flips the unseen position with the highest index
// first). The values of the positions, computed by hand for two players who play optimally
// (daring, the best move in each; E is the mover's expected pairs):
//
//	E(1, j) = 1 (the mover takes the last pair);
//	E(2, 0) = 2 (both pairs half known: the mover takes both);
//	E(2, 2) = 2/3: the second card matches the first with probability 1/3 (then 1 + E(1, 1) = 2),
//	         otherwise both pairs are half known and the other seat takes both.
//
// Deal [A, A, B, B]: seat 0 flips position 3 (B, nothing to learn: every first card is new) and
// position 2 (B: a lucky match, probability 1/3). Its expected score moves from 2/3 to 1 + E(1, 1)
// = 2: luck 2 - 2/3 = 4/3 for seat 0, -4/3 for seat 1. Seat 0 then takes A with certainty (no
// luck): it ends with 2 pairs, adjusted 2 - 4/3 = 2/3.
//
// Deal [A, B, B, A]: seat 0 flips B (position 3) then A (position 2), a miss (probability 2/3):
// its expected score falls from 2/3 to 0 (the other seat will take both): luck -2/3; seat 1's
// rises from 4/3 to 2: luck +2/3. Seat 1 then takes both pairs without luck. Seat 0's adjusted
// score is 0 + 2/3.
//
// In both deals every choice is optimal, so the adjusted scores are the values of the start,
// 2/3 and 4/3: the whole difference between the games was luck. The same games are adjusted
// card by card (strategies) and turn by turn from the model (daring tables).
func TestLuckHandWorked(t *testing.T) {
	lt := luckTable(t, exact.Model{}, 2, 2)
	daring := fixedTable(t, rules.PolicyDaring, 2, 0)
	setups := map[string]sim.Setup{
		"card by card": {Pairs: 2, Luck: lt, Players: []sim.Player{
			strategyPlayer("a", rules.Memory{}, unknownFirst), strategyPlayer("b", rules.Memory{}, unknownFirst)}},
		"from the model": {Pairs: 2, Luck: lt, Players: []sim.Player{
			tablePlayer("a", rules.Memory{}, daring), tablePlayer("b", rules.Memory{}, daring)}},
	}
	cases := []struct {
		deal     []int
		pairs    [2]int
		adjusted [2]float64
	}{
		{[]int{0, 0, 1, 1}, [2]int{2, 0}, [2]float64{2.0 / 3, 4.0 / 3}},
		{[]int{0, 1, 1, 0}, [2]int{0, 2}, [2]float64{2.0 / 3, 4.0 / 3}},
	}
	for name, s := range setups {
		g, err := sim.NewGame(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if err := g.PlayDeal(sim.GameID{}, c.deal, nil); err != nil {
				t.Fatal(err)
			}
			o := g.Outcome()
			for i := range 2 {
				if o.Pairs[i] != c.pairs[i] || math.Abs(o.Adjusted[i]-c.adjusted[i]) > 1e-12 {
					t.Errorf("%s, deal %v, seat %d: %d pairs, adjusted %.15g; want %d and %.15g",
						name, c.deal, i, o.Pairs[i], o.Adjusted[i], c.pairs[i], c.adjusted[i])
				}
			}
		}
	}
}

// luckCase is a setup whose exact expected scores the solver knows.
type luckCase struct {
	name  string
	model exact.Model
	mu    exact.Lineup
	setup sim.Setup
	// noVariance: every choice is the reference play's, so every game's adjusted score is the
	// value of the start.
	noVariance bool
}

// luckCases are small games of perfect memory, each played deterministically on a given deal:
// adjusted from the model (table players, several pass rules, singletons, three seats) and card
// by card (a strategy in the game).
func luckCases(t *testing.T, n, s int) []luckCase {
	var out []luckCase
	ctx := context.Background()
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		if s > 0 && pass != rules.PassNever {
			continue
		}
		m := exact.Model{Pass: pass, Singletons: s}
		lt := luckTable(t, m, 2, n)
		for _, pp := range [][2]rules.Policy{
			{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicyParity},
			{rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyParity, rules.PolicyOptimal}} {
			setup := sim.Setup{Pairs: n, Singletons: s, Pass: pass, Luck: lt, Players: []sim.Player{
				tablePlayer("a", rules.Memory{}, tableFor(t, m, pp[0], n)),
				tablePlayer("b", rules.Memory{}, tableFor(t, m, pp[1], n))}}
			out = append(out, luckCase{name: fmt.Sprintf("model/pass=%v/%v-vs-%v", pass, pp[0], pp[1]), model: m,
				mu: exact.Lineup{Players: 2, Policy: pp[0], Opponent: pp[1]}, setup: setup,
				noVariance: pp[0] == rules.PolicyOptimal && pp[1] == rules.PolicyOptimal})
		}
		if pass == rules.PassNever {
			// A strategy that plays daring: the game is adjusted card by card.
			setup := sim.Setup{Pairs: n, Singletons: s, Luck: lt, Players: []sim.Player{
				strategyPlayer("a", rules.Memory{}, unknownFirst),
				tablePlayer("b", rules.Memory{}, tableFor(t, m, rules.PolicyOptimal, n))}}
			out = append(out, luckCase{name: "card/daring-strategy-vs-optimal", model: m,
				mu: exact.Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal}, setup: setup})
		}
	}
	if s == 0 {
		m := exact.Model{}
		lt3, err := exact.LuckTable(ctx, m, 3, n)
		if err != nil {
			t.Fatal(err)
		}
		setup := sim.Setup{Pairs: n, Luck: lt3, Players: []sim.Player{
			tablePlayer("a", rules.Memory{}, fixedTable(t, rules.PolicyParity, n, 0)),
			tablePlayer("b", rules.Memory{}, fixedTable(t, rules.PolicySafe, n, 0)),
			tablePlayer("c", rules.Memory{}, fixedTable(t, rules.PolicySafe, n, 0))}}
		out = append(out, luckCase{name: "model/3-seats/parity-vs-safe", model: m,
			mu: exact.Lineup{Players: 3, Policy: rules.PolicyParity, Opponent: rules.PolicySafe}, setup: setup})
	}
	return out
}

// TestLuckAveragesToZeroOverEveryDeal plays every deal of small perfect-memory games, whose play
// is then deterministic: averaged over the deals (all equally likely), each seat's luck is exactly
// zero, so the mean adjusted score is the exact expected score; and the adjustment removes
// variance, all of it where every choice is the reference play's.
func TestLuckAveragesToZeroOverEveryDeal(t *testing.T) {
	type size struct{ n, s int }
	sizes := []size{{3, 0}, {4, 0}, {2, 1}, {3, 1}}
	if !testing.Short() {
		sizes = append(sizes, size{5, 0})
	}
	for _, sz := range sizes {
		for _, c := range luckCases(t, sz.n, sz.s) {
			t.Run(fmt.Sprintf("n=%d,s=%d/%s", sz.n, sz.s, c.name), func(t *testing.T) {
				g, err := sim.NewGame(c.setup)
				if err != nil {
					t.Fatal(err)
				}
				k := len(c.setup.Players)
				raw, adj := make([]float64, k), make([]float64, k)
				var rawSq, adjSq float64
				lo, hi := math.Inf(1), math.Inf(-1)
				deals := 0
				allDeals(sz.n, sz.s, func(faces []int) {
					if err := g.PlayDeal(sim.GameID{}, faces, nil); err != nil {
						t.Fatal(err)
					}
					o := g.Outcome()
					for i := range k {
						r := float64(o.Share[i]) / float64(k)
						raw[i] += r
						adj[i] += o.Adjusted[i]
					}
					r0 := float64(o.Share[0]) / float64(k)
					rawSq += r0 * r0
					adjSq += o.Adjusted[0] * o.Adjusted[0]
					lo, hi = min(lo, o.Adjusted[0]), max(hi, o.Adjusted[0])
					deals++
				})
				want := exactResult(t, c.model, c.mu, sz.n).PairsBySeat
				for i := range k {
					if got := adj[i] / float64(deals); math.Abs(got-want[i]) > 1e-9 {
						t.Errorf("seat %d: mean adjusted %.12f over %d deals, exact %.12f (raw mean %.12f)", i, got, deals, want[i], raw[i]/float64(deals))
					}
				}
				d := float64(deals)
				varRaw := rawSq/d - (raw[0]/d)*(raw[0]/d)
				varAdj := adjSq/d - (adj[0]/d)*(adj[0]/d)
				switch {
				case c.noVariance && hi-lo > 1e-12:
					t.Errorf("optimal self-play: adjusted scores from %.15g to %.15g, want one value", lo, hi)
				case c.noVariance:
				case !(varAdj < varRaw):
					t.Errorf("adjusted variance %g, raw %g: the adjustment removed nothing", varAdj, varRaw)
				}
			})
		}
	}
}

// TestLuckPathsAgree adjusts the same games in the engine's different ways, which must agree game
// by game: a shared limited memory on the lean path and on the general path (with a log), both
// from the model's advantages; and the same players with private memories of that kind, whose
// turns are adjusted one by one from each seat's own model (lru memories of one capacity hold the
// same cards, so they play the same games). Perfect memory likewise, lean and general.
func TestLuckPathsAgree(t *testing.T) {
	n, games := 8, 300
	if testing.Short() {
		games = 100
	}
	for _, mem := range []rules.Memory{{}, {Capacity: 3, Forget: rules.ForgetLRU}, {Capacity: 3, Forget: rules.ForgetHandoverUniform}} {
		m := exact.Model{Memory: mem}
		lt := luckTable(t, m, 2, n)
		perfect := luckTable(t, exact.Model{}, 2, n)
		opt, par := tableFor(t, m, rules.PolicyOptimal, n), tableFor(t, m, rules.PolicyParity, n)
		shared := sim.Setup{Pairs: n, Luck: lt, Players: []sim.Player{tablePlayer("a", mem, opt), tablePlayer("b", mem, par)}}
		variants := map[string]struct {
			setup sim.Setup
			log   bool
		}{
			"general path": {shared, true},
		}
		if !mem.Perfect() && mem.Forget == rules.ForgetLRU {
			priv := mem
			priv.Scope = rules.ScopePrivate
			a, b := tablePlayer("a", priv, opt), tablePlayer("b", priv, par)
			a.Luck, b.Luck = lt, lt
			variants["private memories, own models"] = struct {
				setup sim.Setup
				log   bool
			}{sim.Setup{Pairs: n, Luck: perfect, Players: []sim.Player{a, b}}, false}
		}
		base, err := sim.NewGame(shared)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range variants {
			g, err := sim.NewGame(v.setup)
			if err != nil {
				t.Fatal(err)
			}
			for i := range games {
				id := sim.GameID{Seed: 5, DealStream: 1, PlayStream: 2, Index: uint64(i)}
				if err := base.Play(id, nil); err != nil {
					t.Fatal(err)
				}
				want := append([]int(nil), base.Outcome().Pairs...)
				wantAdj := append([]float64(nil), base.Outcome().Adjusted...)
				var lg *sim.Log
				if v.log {
					lg = &sim.Log{}
				}
				if err := g.Play(id, lg); err != nil {
					t.Fatal(err)
				}
				o := g.Outcome()
				for s := range 2 {
					if o.Pairs[s] != want[s] || math.Abs(o.Adjusted[s]-wantAdj[s]) > 1e-9 {
						t.Fatalf("%v memory, %s, game %d, seat %d: %d pairs, adjusted %.12f; the lean path's %d and %.12f",
							mem, name, i, s, o.Pairs[s], o.Adjusted[s], want[s], wantAdj[s])
					}
				}
			}
		}
	}
}
