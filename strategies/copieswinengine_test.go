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

// copiesWinGame is a deck and a lineup of two seats under copies of a face whose engine play
// playCopiesWinGame checks: every seat win-optimal, or (opponent set) win-best-response to it.
type copiesWinGame struct {
	faces, copies, limit int
	pass                 rules.PassRule
	flips                rules.Flips
	opponent             string
}

// policies returns the seats' policy names.
func (g copiesWinGame) policies() (string, string) {
	if g.opponent == "" {
		return "win-optimal", "win-optimal"
	}
	return "win-best-response", g.opponent
}

// String names the game in a message.
func (g copiesWinGame) String() string {
	p0, p1 := g.policies()
	return fmt.Sprintf("%d faces of %d, %s flips, pass %s, turn limit %d, %s against %s", g.faces, g.copies, g.flips, g.pass, g.limit, p0, p1)
}

// copiesWinPlay is what playCopiesWinGame counts over a game's deals.
type copiesWinPlay struct {
	// passes counts the reference's passes; afterPass the choices just after a pass that differ
	// from the table's choice at streak 0.
	passes, afterPass int
}

// playCopiesWinGame builds the game's seats with strategies.Build, plays every deal of the deck
// with the engine, and compares every seat's score (a stalemate's share included), wins and
// draws over the deals with a card-by-card reference (refCopiesGame) that reads the copies
// model's table to win at the mover's lead, in the layer of the turns left, at the pass streak,
// exactly; and seat 0's wins, draws and expected pairs with the model's values.
func playCopiesWinGame(ctx context.Context, t *testing.T, g copiesWinGame) copiesWinPlay {
	t.Helper()
	var out copiesWinPlay
	pairs := g.faces * g.copies / 2
	v := rules.Variant{Copies: g.copies, TurnLimit: g.limit, Flips: g.flips}
	policy, other := g.policies()
	env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: g.pass, Variant: v, Tables: strategies.NewTables()}
	build := func(policy, opponent string) sim.Player {
		b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}, env)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		return b.Player
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
	var layers []*rules.CopiesTable
	if g.limit == 0 {
		var ct *rules.CopiesTable
		ct, err = exact.CopiesWinPolicyTable(ctx, field.Rat{}, model, mu, pairs)
		layers = []*rules.CopiesTable{ct}
	} else {
		layers, err = exact.CopiesWinPolicyTurnTables(ctx, field.Rat{}, model, mu, pairs)
	}
	if err != nil {
		t.Fatalf("%s: %v", g, err)
	}
	choose := func(m copiesMove) rules.Choice {
		if m.seat == 1 && p1.Fixed() {
			return safeOrDaring(p1, m.counts)
		}
		layer := layers[max(m.left, 1)-1]
		key := rules.AppendCopiesKey(nil, m.counts)
		c, ok := layer.LookupLeadPassesKey(key, m.lead(), m.passes)
		if !ok {
			t.Fatalf("%s: the model's table has no choice in %v at lead %d with %d turns left after %d passes", g, m.counts, m.lead(), m.left, m.passes)
		}
		if c == rules.Pass {
			out.passes++
		}
		if m.passes > 0 {
			if o, _ := layer.LookupLeadPassesKey(key, m.lead(), 0); o != c {
				out.afterPass++
			}
		}
		return c
	}
	gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: g.pass, Players: seats})
	if err != nil {
		t.Fatalf("%s: %v", g, err)
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
	ref := copiesRef{copies: g.copies, seats: 2, limit: g.limit, blind: g.flips == rules.FlipsBlind}
	everyDeal(g.faces, g.copies, func(deal []int) {
		if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		sh := gm.Outcome().Share
		tally(&got, [2]int{int(sh[0]), int(sh[1])})
		r := refCopiesGame(deal, ref, choose)
		tally(&want, [2]int{r.share[0], r.share[1]})
		count++
	})
	if got != want {
		t.Errorf("%s: the engine's half pairs, wins and draws by seat over %d deals %v, the reference %v", g, count, got, want)
	}
	start, err := exact.StartCopiesState(pairs, g.copies)
	if err != nil {
		t.Fatal(err)
	}
	cs, wc, err := exact.CopiesWinValues(ctx, field.Rat{}, model, mu, start, 0)
	if err != nil {
		t.Fatalf("%s: %v", g, err)
	}
	if w, d := big.NewRat(got[0][1], count), big.NewRat(got[0][2], count); w.Cmp(wc.Value.Win) != 0 || d.Cmp(wc.Value.Draw) != 0 {
		t.Errorf("%s: seat 0 wins %v and draws %v of the deals, the copies model %v and %v", g, w, d, wc.Value.Win, wc.Value.Draw)
	}
	if p := big.NewRat(got[0][0], 2*count); p.Cmp(cs.Value.ExpectedPairs) != 0 {
		t.Errorf("%s: seat 0 takes %v pairs a deal, the copies model %v", g, p, cs.Value.ExpectedPairs)
	}
	return out
}
