package strategies_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysCopiesWinPassLimitTable builds win-optimal (against itself) and
// win-best-response to safe under four copies of a face with pass rules two-known and always and
// a turn limit at two seats, plays every deal of two faces (and three without -short) with the
// engine, and compares every seat's score, wins and draws over the deals with a card-by-card
// reference that reads the copies model's table to win at the mover's lead, in the layer of the
// turns left, just after a pass or not, exactly, and seat 0's wins and draws with the model's
// probabilities.
func TestEnginePlaysCopiesWinPassLimitTable(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, limit int
		pass         rules.PassRule
		opponent     string
	}
	games := []game{{2, 3, rules.PassAlways, ""}, {2, 5, rules.PassTwoKnown, "safe"}}
	if !testing.Short() {
		games = append(games, game{2, 4, rules.PassAlways, "safe"}, game{3, 5, rules.PassAlways, ""}, game{3, 6, rules.PassTwoKnown, ""}, game{3, 4, rules.PassTwoKnown, "daring"})
	}
	passes, afterPass := 0, 0
	for _, g := range games {
		const copies = 4
		pairs := g.faces * copies / 2
		v := rules.Variant{Copies: copies, TurnLimit: g.limit}
		policy := "win-optimal"
		if g.opponent != "" {
			policy = "win-best-response"
		}
		name := fmt.Sprintf("%d faces of %d, pass %s, turn limit %d, %s %s", g.faces, copies, g.pass, g.limit, policy, g.opponent)
		env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: g.pass, Variant: v, Tables: strategies.NewTables()}
		build := func(policy, opponent string) sim.Player {
			b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return b.Player
		}
		other := g.opponent
		if other == "" {
			other = policy
		}
		seats := []sim.Player{build(policy, g.opponent), build(other, "")}
		model := exact.Model{Variant: v, Pass: g.pass}
		p1, err := rules.ParsePolicy(other)
		if err != nil {
			t.Fatal(err)
		}
		p0 := rules.PolicyWinOptimal
		if g.opponent != "" {
			p0 = rules.PolicyWinBestResponse
		}
		mu := exact.Lineup{Players: 2, Policy: p0, Opponent: p1}
		layers, err := exact.CopiesWinPolicyTurnTables(ctx, field.Rat{}, model, mu, pairs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		choose := func(m copiesMove) rules.Choice {
			if m.seat == 1 && p1.Fixed() {
				return safeOrDaring(p1, m.counts)
			}
			key := rules.AppendCopiesKey(nil, m.counts)
			c, ok := layers[m.left-1].LookupLeadPassesKey(key, m.lead(), m.passes)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v at lead %d with %d turns left after %d passes", name, m.counts, m.lead(), m.left, m.passes)
			}
			if c == rules.Pass {
				passes++
			}
			if m.passes > 0 {
				if o, _ := layers[m.left-1].LookupLeadPassesKey(key, m.lead(), 0); o != c {
					afterPass++
				}
			}
			return c
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: g.pass, Players: seats})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got, want [2][3]int64 // each seat's half pairs, wins and draws
		tally := func(out *[2][3]int64, sh [2]int) {
			for s := range 2 {
				out[s][0] += int64(sh[s])
				switch d := sh[s] - sh[1-s]; {
				case d > 0:
					out[s][1]++
				case d == 0:
					out[s][2]++
				}
			}
		}
		count := int64(0)
		everyDeal(g.faces, copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sh := gm.Outcome().Share
			tally(&got, [2]int{int(sh[0]), int(sh[1])})
			ref := refCopiesGame(deal, copiesRef{copies: copies, seats: 2, limit: g.limit}, choose)
			tally(&want, [2]int{ref.share[0], ref.share[1]})
			count++
		})
		if got != want {
			t.Errorf("%s: the engine's half pairs, wins and draws by seat over %d deals %v, the reference %v", name, count, got, want)
		}
		start, err := exact.StartCopiesState(pairs, copies)
		if err != nil {
			t.Fatal(err)
		}
		cs, wc, err := exact.CopiesWinValues(ctx, field.Rat{}, model, mu, start, 0)
		if err != nil {
			t.Fatal(err)
		}
		if w, d := big.NewRat(got[0][1], count), big.NewRat(got[0][2], count); w.Cmp(wc.Value.Win) != 0 || d.Cmp(wc.Value.Draw) != 0 {
			t.Errorf("%s: seat 0 wins %v and draws %v of the deals, the copies model %v and %v", name, w, d, wc.Value.Win, wc.Value.Draw)
		}
		if p := big.NewRat(got[0][0], 2*count); p.Cmp(cs.Value.ExpectedPairs) != 0 {
			t.Errorf("%s: seat 0 takes %v pairs a deal, the copies model %v", name, p, cs.Value.ExpectedPairs)
		}
	}
	if passes == 0 {
		t.Error("no table passed in any game")
	}
	if afterPass == 0 {
		t.Error("no table chose otherwise just after a pass than it would have without one")
	}
}
