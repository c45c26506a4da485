package exact_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A check of the win objective under a fluctuating capacity against play card by card (the
// positions of flGame, fluct_cardlevel_test.go): the game carries seat 0's lead so far, every turn
// draws its capacity, and a role either reads its choice off a table by the state, the capacity
// drawn and its own lead, or, given no table, makes at every card-level position the choice of
// largest score for itself, P(win) + P(draw)/2, by looking ahead through the whole game (a
// maximum over the choices, independent of the solver's policy iteration). Games that can last
// for ever are cut after a number of turns, the probability left unfinished bounding the error.

// fwVal is what a card-level position is worth to role 0: the probabilities that it ends ahead or
// level, its expected lead gained from here, and the probability that the game is unfinished
// within the turns looked at.
type fwVal struct{ win, draw, lead, tail float64 }

func (v fwVal) add(q float64, w fwVal) fwVal {
	return fwVal{v.win + q*w.win, v.draw + q*w.draw, v.lead + q*w.lead, v.tail + q*w.tail}
}

// score returns role r's P(win) + P(draw)/2 (role 1 wins when role 0 loses), a game unfinished
// within the turns looked at scoring cut for role 0 and 1 - cut for role 1.
func (v fwVal) score(r int, cut float64) float64 {
	s := v.win + v.draw/2 + cut*v.tail
	if r == 1 {
		s = 1 - s
	}
	return s
}

// fwPlayer plays card by card under a fluctuating capacity: lru or handover-uniform, base capacity
// m, fluctuation sigma, pass rule pass; choose[r] is role r's choice in a state (with its own
// lead) with capacity c drawn, just after a pass by the other seat or not, nil for a role that
// maximises its score position by position. A pass shows no card and hands the turn over (the
// hand-over forgetting down to the capacity drawn); a pass answered by a pass ends the game in a
// stalemate, decided by the lead so far.
type fwPlayer struct {
	lru      bool
	m, sigma int
	pass     rules.PassRule
	choose   [2]func(st rules.State, c int, afterPass bool) rules.Choice
	// cut is what a game unfinished within the turns looked at scores for role 0 in the search:
	// 0 gives a lower bound of role 0's score, 1 an upper bound.
	cut  float64
	memo map[string]fwVal
	// limited, when set, ends the game after depth turns, at the lead so far (a turn limit); left
	// then, when set for a role, replaces choose with a choice that reads the turns left, this one
	// included.
	limited bool
	left    [2]func(st rules.State, c, left int, afterPass bool) rules.Choice
	// blind, when set, plays daring and safe under blind flips (fluctblindlimitwin_cardlevel_test.go).
	blind bool
}

// value returns the worth of g with role mover to move at the start of a turn, role 0's lead
// being lead, within depth turns.
func (p *fwPlayer) value(g *flGame, mover, lead, depth int) fwVal {
	if !slices.Contains(g.present, true) {
		return fwVal{win: b2f(lead > 0), draw: b2f(lead == 0)}
	}
	if depth == 0 && p.limited {
		return fwVal{win: b2f(lead > 0), draw: b2f(lead == 0)}
	}
	if depth == 0 {
		return fwVal{tail: 1}
	}
	k := g.key(mover, depth) + string(rune(lead+64))
	if v, ok := p.memo[k]; ok {
		return v
	}
	var v fwVal
	q := 1 / float64(2*p.sigma+1)
	for d := -p.sigma; d <= p.sigma; d++ {
		v = v.add(q, p.turn(g.clone(), mover, lead, depth, max(2, p.m+d)))
	}
	p.memo[k] = v
	return v
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// taken returns the worth of g after role mover took a pair, the move staying with it.
func (p *fwPlayer) taken(g *flGame, mover, lead, depth int) fwVal {
	s := 1 - 2*mover
	v := p.value(g, mover, lead+s, depth-1)
	v.lead += float64(s)
	return v
}

// prepare starts a turn with capacity c drawn: lru forgets down to c; a pair known whole is taken
// first (done true, with its worth).
func (p *fwPlayer) prepare(g *flGame, mover, lead, depth, c int) (fwVal, bool) {
	if p.lru {
		for len(g.mem) > c {
			g.mem = g.mem[1:]
		}
	}
	for i := range g.old {
		g.old[i] = slices.Contains(g.mem, i)
	}
	if len(g.pending) >= 2 { // under blind flips there may be two pairs known whole, one a turn
		rest := slices.Clone(g.pending[2:])
		g.take(g.pending[0], g.pending[1])
		g.pending = rest
		return p.taken(g, mover, lead, depth), true
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			return p.taken(g, mover, lead, depth), true
		}
	}
	return fwVal{}, false
}

// state returns the count state of g seen by role mover, with its own lead.
func (p *fwPlayer) state(g *flGame, mover, lead int) rules.State {
	n := 0
	for c := 0; c < len(g.present); c += 2 {
		if g.present[c] {
			n++
		}
	}
	if mover == 1 {
		lead = -lead
	}
	return rules.State{N: n, J: n - len(g.mem), Lead: lead}
}

// turn plays a turn with capacity c drawn.
func (p *fwPlayer) turn(g *flGame, mover, lead, depth, c int) fwVal {
	afterPass := g.passed
	g.passed = false
	if v, done := p.prepare(g, mover, lead, depth, c); done {
		return v
	}
	st := p.state(g, mover, lead)
	if p.left[mover] != nil {
		return p.play(g, mover, lead, depth, c, p.left[mover](st, c, depth, afterPass), afterPass)
	}
	if p.choose[mover] != nil {
		return p.play(g, mover, lead, depth, c, p.choose[mover](st, c, afterPass), afterPass)
	}
	var best fwVal
	first := true
	for _, ch := range rules.Choices() {
		if !rules.Legal(st, ch, p.pass) {
			continue
		}
		v := p.play(g.clone(), mover, lead, depth, c, ch, afterPass)
		if first || v.score(mover, p.cut) > best.score(mover, p.cut) {
			best, first = v, false
		}
	}
	return best
}

// play plays choice ch in g with capacity c drawn, the turn's start done, just after a pass by
// the other seat or not.
func (p *fwPlayer) play(g *flGame, mover, lead, depth, c int, ch rules.Choice, afterPass bool) fwVal {
	var v fwVal
	if ch == rules.Pass {
		if afterPass {
			return fwVal{win: b2f(lead > 0), draw: b2f(lead == 0)} // a stalemate
		}
		g.passed = true
		return p.handOver(g, mover, lead, depth, c)
	}
	if p.blind && ch != rules.KnownFirst {
		return p.playBlind(g, mover, lead, depth, c, ch)
	}
	if ch == rules.KnownFirst {
		a := g.mem[0]
		g.touch(a)
		ys := g.unremembered(-1)
		for _, y := range ys {
			v = v.add(1/float64(len(ys)), p.afterSecond(g.clone(), a, y, mover, lead, depth, c))
		}
		return v
	}
	xs := g.unremembered(-1)
	for _, x := range xs {
		q := 1 / float64(len(xs))
		h := g.clone()
		if slices.Contains(h.mem, x^1) {
			h.take(x, x^1)
			v = v.add(q, p.taken(h, mover, lead, depth))
			continue
		}
		fl := &flPlayer{lru: p.lru}
		fl.store(h, x, c)
		if ch == rules.Safe && len(h.mem) >= 2 {
			for _, o := range h.mem {
				if o != x {
					h.touch(o)
					break
				}
			}
			v = v.add(q, p.handOver(h, mover, lead, depth, c))
			continue
		}
		ys := h.unremembered(x)
		for _, y := range ys {
			v = v.add(q/float64(len(ys)), p.afterSecond(h.clone(), x, y, mover, lead, depth, c))
		}
	}
	return v
}

// afterSecond ends a turn whose first card is a (seen, remembered) and second card y.
func (p *fwPlayer) afterSecond(g *flGame, a, y, mover, lead, depth, c int) fwVal {
	if y == a^1 {
		g.take(a, y)
		return p.taken(g, mover, lead, depth)
	}
	fl := &flPlayer{lru: p.lru}
	fl.second(g, y, c)
	return p.handOver(g, mover, lead, depth, c)
}

// handOver passes the turn: handover-uniform forgets old cards uniformly, one at a time, until c
// remain.
func (p *fwPlayer) handOver(g *flGame, mover, lead, depth, c int) fwVal {
	if !p.lru && len(g.mem) > c {
		var olds []int
		for _, x := range g.mem {
			if g.old[x] {
				olds = append(olds, x)
			}
		}
		var v fwVal
		for _, x := range olds {
			h := g.clone()
			h.drop(x)
			h.old[x] = false
			v = v.add(1/float64(len(olds)), p.handOver(h, mover, lead, depth, c))
		}
		return v
	}
	return p.value(g, 1-mover, lead, depth-1)
}

// fwRoles returns the card-level choices of the policies of lineup mu under model m in deals of
// at most n pairs, read from the solver's tables by the capacity drawn, the lead and the pass
// flag; nil for a role that plays to win when searched is set (it then maximises card by card).
// passes, when not nil, is set when a table passes.
func fwRoles(t *testing.T, m exact.Model, mu exact.Lineup, n int, searched bool, passes *bool) [2]func(rules.State, int, bool) rules.Choice {
	t.Helper()
	ctx := context.Background()
	var out [2]func(rules.State, int, bool) rules.Choice
	read := func(tab *rules.ChoiceTable) func(rules.State, int, bool) rules.Choice {
		return func(st rules.State, c int, afterPass bool) rules.Choice {
			ch, ok := tab.LookupCapacity(st, afterPass, c)
			if !ok {
				t.Fatalf("%s: no choice in %v with capacity %d (after a pass: %t)", m.Memory, st, c, afterPass)
			}
			if passes != nil && ch == rules.Pass {
				*passes = true
			}
			return ch
		}
	}
	for r, p := range [2]rules.Policy{mu.Policy, mu.Opponent} {
		switch {
		case p.PlaysToWin() && searched:
		case p.PlaysToWin():
			other := mu.Opponent
			if r == 1 {
				other = mu.Policy
			}
			tab, err := exact.FluctWinTable(ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: p, Opponent: other}, n)
			if err != nil {
				t.Fatal(err)
			}
			out[r] = read(tab)
		case p == rules.PolicyOptimal:
			tab, err := exact.FluctTable(ctx, field.Float{}, m, n)
			if err != nil {
				t.Fatal(err)
			}
			out[r] = read(tab)
		default:
			out[r] = func(st rules.State, _ int, _ bool) rules.Choice { return p.Decide(st) }
		}
	}
	return out
}

// TestFluctuationWinMatchesCardPlay plays deals of three pairs card by card under a fluctuating
// capacity, from the start at every lead and after every capacity drawn with every legal first
// choice, and compares seat 0's win, draw and loss probabilities and expected lead with the exact
// model's: the policies read from the solver's tables, and the score of the policies that play to
// win against a search card by card that maximises it at every position (win-optimal: both seats;
// win-best-response: its seat).
func TestFluctuationWinMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyParity}, // parity reads the state after the draw
	}
	type memCase struct {
		forget      rules.Forgetting
		m, sigma, n int
		lineups     []int // the lineups played, by index (nil: every one)
	}
	cases := []memCase{{rules.ForgetLRU, 2, 1, 3, nil}, {rules.ForgetHandoverUniform, 2, 1, 3, nil}}
	leads := []int{-1, 0, 1}
	if testing.Short() {
		// Both rules: one with a lineup that searches, one with a lineup that does not.
		cases[0].lineups, cases[1].lineups = []int{0}, []int{1}
		leads = []int{1}
	} else {
		// The reply to parity under lru(2, σ 1) only.
		cases[1].lineups = []int{0, 1, 2, 3}
		cases = append(cases, memCase{rules.ForgetHandoverUniform, 3, 2, 3, []int{0, 1, 2, 3}}, memCase{rules.ForgetLRU, 3, 1, 4, []int{1}})
	}
	const depth = 18
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem}
		for i, mu := range lineups {
			if tc.lineups != nil && !slices.Contains(tc.lineups, i) {
				continue
			}
			play := &fwPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma,
				choose: fwRoles(t, m, mu, tc.n, false, nil), memo: map[string]fwVal{}}
			// The search bounds the score from below and from above.
			var search [2]*fwPlayer
			for i := range search {
				search[i] = &fwPlayer{lru: play.lru, m: tc.m, sigma: tc.sigma, cut: float64(i),
					choose: fwRoles(t, m, mu, tc.n, true, nil), memo: map[string]fwVal{}}
			}
			searched := mu.Policy.PlaysToWin() // the search is of seat 0 (and of seat 1 when both play win-optimal)
			bracket := func(name string, want float64, value func(p *fwPlayer) fwVal) {
				lo, hi := value(search[0]).score(0, 0), value(search[1]).score(0, 1)
				// Looked at deep enough, the bounds are close (four pairs are looked at less deep).
				if want < lo-1e-9 || want > hi+1e-9 || hi-lo > 1e-4*math.Pow(100, float64(tc.n-3)) {
					t.Errorf("%s: exact score %.12f, the search card by card between %.12f and %.12f", name, want, lo, hi)
				}
			}
			depthAt := depth
			if tc.n > 3 {
				depthAt = 14
			}
			for lead := -tc.n; lead <= tc.n; lead++ {
				if testing.Short() && lead != -tc.n && lead != 0 && lead != 1 {
					continue // the short form starts lost, level and one ahead
				}
				st := rules.State{N: tc.n, J: tc.n, Lead: lead}
				name := fmt.Sprintf("%s/%s-%s/%v", mem, mu.Policy, mu.Opponent, st)
				wdl, err := exact.WinDrawLoss(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				g := flPosition(tc.n, 0)
				got := play.value(g, 0, lead, depthAt)
				tol := float64(tc.n)*got.tail + 1e-9
				if math.Abs(got.win-wdl[0].Win) > tol || math.Abs(got.draw-wdl[0].Draw) > tol || math.Abs(got.lead-res.ExpectedLead) > tol {
					t.Errorf("%s: card play win %.12f draw %.12f lead %.12f (unfinished %.2g), exact %.12f %.12f %.12f",
						name, got.win, got.draw, got.lead, got.tail, wdl[0].Win, wdl[0].Draw, res.ExpectedLead)
				}
				if searched {
					bracket(name, wdl[0].Score(field.Float{}), func(p *fwPlayer) fwVal { return p.value(flPosition(tc.n, 0), 0, lead, depthAt) })
				}
			}
			if tc.n > 3 {
				continue
			}
			// Every legal choice now, with every capacity drawn, at every lead.
			for c := max(2, tc.m-tc.sigma); c <= tc.m+tc.sigma; c++ {
				for k := 1; k <= min(tc.n, c); k++ {
					for _, lead := range leads {
						st := rules.State{N: tc.n, J: tc.n - k, Lead: lead}
						name := fmt.Sprintf("%s/%s-%s/%v/c=%d", mem, mu.Policy, mu.Opponent, st, c)
						pairs, win, err := exact.FluctWinChoiceValues(ctx, field.Float{}, m, mu, st, c)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for i, v := range win.Values {
							g := flPosition(tc.n, k)
							if _, done := play.prepare(g, 0, lead, depth, c); done {
								t.Fatalf("%s: a pair known whole in the position", name)
							}
							got := play.play(g, 0, lead, depth, c, v.Choice, false)
							tol := float64(tc.n)*got.tail + 1e-9
							if math.Abs(got.win-v.Win) > tol || math.Abs(got.draw-v.Draw) > tol || math.Abs(got.lead-pairs.Values[i].Lead) > tol {
								t.Errorf("%s: %s: card play win %.12f draw %.12f lead %.12f (unfinished %.2g), exact %.12f %.12f %.12f",
									name, v.Choice, got.win, got.draw, got.lead, got.tail, v.Win, v.Draw, pairs.Values[i].Lead)
							}
						}
						if !searched {
							continue
						}
						// The policy's own choice is worth the most, by the search.
						v, _ := win.Of(win.PolicyChoice)
						bracket(fmt.Sprintf("%s: %s", name, win.PolicyChoice), v.Score, func(p *fwPlayer) fwVal { return p.turn(flPosition(tc.n, k), 0, lead, depth, c) })
					}
				}
			}
		}
	}
}
