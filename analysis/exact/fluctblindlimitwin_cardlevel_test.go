package exact_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// playBlind plays daring or safe under blind flips with capacity c drawn, as flPlayer.playBlind
// does (fluctblind_cardlevel_test.go): both positions named before either card is turned up, the
// first one nobody remembers, the second another such for daring (the remembered card when none
// is left) and the least recently seen remembered card for safe.
func (p *fwPlayer) playBlind(g *flGame, mover, lead, depth, c int, ch rules.Choice) fwVal {
	var v fwVal
	fl := &flPlayer{lru: p.lru}
	xs := g.unremembered(-1)
	for _, a := range xs {
		var seconds []int
		if ch == rules.Daring {
			seconds = g.unremembered(a)
		}
		if len(seconds) == 0 {
			seconds = []int{g.mem[0]}
		}
		for _, b := range seconds {
			q := 1 / float64(len(xs)) / float64(len(seconds))
			h := g.clone()
			fl.blindSee(h, a, c)
			if b == a^1 {
				h.take(a, b)
				v = v.add(q, p.taken(h, mover, lead, depth))
				continue
			}
			fl.blindSee(h, b, c)
			v = v.add(q, p.handOver(h, mover, lead, depth, c))
		}
	}
	return v
}

// TestFluctBlindLimitWinMatchesCardPlay plays every deal of three pairs card by card under a
// fluctuating capacity (lru(2) and handover-uniform(2), σ 1) and blind flips cut after the turn
// limit, the game then decided by the lead so far, and compares seat 0's win and draw
// probabilities and expected lead with the exact model's: the policies read from the solver's
// tables by capacity, turns left and lead, and the score of the policies that play to win
// against a search card by card that maximises it at every position; under pass rules never and
// two-known.
func TestFluctBlindLimitWinMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyWinBestResponse},
	}
	forgets := []rules.Forgetting{rules.ForgetHandoverUniform}
	passes := []rules.PassRule{rules.PassNever, rules.PassTwoKnown}
	limits := []int{2, 3, 5}
	if testing.Short() {
		forgets, passes, limits, lineups = forgets[:1], passes[:1], []int{3}, lineups[:1]
	}
	const n = 3
	for _, forget := range forgets {
		for _, pass := range passes {
			for _, limit := range limits {
				mem := rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}
				m := exact.Model{Memory: mem, Pass: pass, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
				for _, mu := range lineups {
					lru := forget == rules.ForgetLRU
					play := &fwPlayer{lru: lru, m: 2, sigma: 1, pass: pass, limited: true, blind: true,
						left: flwRoles(t, m, mu, n, false), memo: map[string]fwVal{}}
					search := &fwPlayer{lru: lru, m: 2, sigma: 1, pass: pass, limited: true, blind: true,
						left: flwRoles(t, m, mu, n, true), memo: map[string]fwVal{}}
					for _, lead := range []int{0, 1} {
						st := rules.State{N: n, J: n, Lead: lead}
						name := fmt.Sprintf("%s/%s/limit=%d/%s-%s/%v", mem, pass, limit, mu.Policy, mu.Opponent, st)
						wdl, err := exact.WinDrawLoss(ctx, field.Float{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						got := play.value(flPosition(n, 0), 0, lead, limit)
						if math.Abs(got.win-wdl[0].Win) > 1e-9 || math.Abs(got.draw-wdl[0].Draw) > 1e-9 || math.Abs(got.lead-res.ExpectedLead) > 1e-9 {
							t.Errorf("%s: card play win %.12f draw %.12f lead %.12f, exact %.12f %.12f %.12f",
								name, got.win, got.draw, got.lead, wdl[0].Win, wdl[0].Draw, res.ExpectedLead)
						}
						if mu.Policy.PlaysToWin() {
							if s := search.value(flPosition(n, 0), 0, lead, limit).score(0, 0); math.Abs(s-wdl[0].Score(field.Float{})) > 1e-9 {
								t.Errorf("%s: exact score %.12f, the search card by card %.12f", name, wdl[0].Score(field.Float{}), s)
							}
						}
					}
				}
			}
		}
	}
}
