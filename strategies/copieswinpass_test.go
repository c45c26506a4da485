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

// TestEnginePlaysCopiesWinPassTable builds win-optimal (against itself) and win-best-response to
// safe and to daring under copies of a face with pass rules two-known and always at two seats,
// plays every deal of two and three faces of four cards and two of six with the engine, and
// compares every seat's score, wins and draws over the deals with a card-by-card reference that
// reads the copies model's table to win at the mover's lead, just after a pass or not, exactly,
// and seat 0's wins and draws with the model's probabilities.
func TestEnginePlaysCopiesWinPassTable(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies int
		pass          rules.PassRule
		opponent      string
	}
	games := []game{
		{2, 4, rules.PassAlways, ""}, {3, 4, rules.PassAlways, ""}, {3, 4, rules.PassTwoKnown, ""},
		{2, 6, rules.PassTwoKnown, ""}, {3, 4, rules.PassAlways, "safe"}, {3, 4, rules.PassTwoKnown, "daring"},
	}
	if testing.Short() {
		games = []game{{2, 4, rules.PassAlways, ""}, {3, 4, rules.PassTwoKnown, ""}, {2, 4, rules.PassAlways, "safe"}}
	}
	passes := 0
	for _, g := range games {
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies}
		policy := "win-optimal"
		if g.opponent != "" {
			policy = "win-best-response"
		}
		name := fmt.Sprintf("%d faces of %d, pass %s, %s %s", g.faces, g.copies, g.pass, policy, g.opponent)
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
		table, err := exact.CopiesWinPolicyTable(ctx, field.Rat{}, model, mu, pairs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		choose := func(m copiesMove) rules.Choice {
			if m.seat == 1 && p1.Fixed() {
				return safeOrDaring(p1, m.counts)
			}
			c, ok := table.LookupLeadPassesKey(rules.AppendCopiesKey(nil, m.counts), m.lead(), m.passes)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v at lead %d after %d passes", name, m.counts, m.lead(), m.passes)
			}
			if c == rules.Pass {
				passes++
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
		everyDeal(g.faces, g.copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sh := gm.Outcome().Share
			tally(&got, [2]int{int(sh[0]), int(sh[1])})
			ref := refCopiesGame(deal, copiesRef{copies: g.copies, seats: 2}, choose)
			tally(&want, [2]int{ref.share[0], ref.share[1]})
			count++
		})
		if got != want {
			t.Errorf("%s: the engine's half pairs, wins and draws by seat over %d deals %v, the reference %v", name, count, got, want)
		}
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		wc, err := exact.CopiesWinChoiceValues(ctx, field.Rat{}, model, mu, start, 0)
		if err != nil {
			t.Fatal(err)
		}
		if w, d := big.NewRat(got[0][1], count), big.NewRat(got[0][2], count); w.Cmp(wc.Value.Win) != 0 || d.Cmp(wc.Value.Draw) != 0 {
			t.Errorf("%s: seat 0 wins %v and draws %v of the deals, the copies model %v and %v", name, w, d, wc.Value.Win, wc.Value.Draw)
		}
	}
	if passes == 0 {
		t.Error("no table passed in any game")
	}
}
