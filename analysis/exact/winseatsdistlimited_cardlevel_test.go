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

// A check of every seat's score distribution at three and four seats for lineups that play to win
// under lru and handover-uniform memory of a fixed capacity against play card by card: the
// card-level positions (table, shared memory in its recency order, every seat's pairs so far,
// mover, pass streak; buildPassWinGraph) reached from the full deal, every seat taking the choice
// its table gives (PolicyTable of the lineup seen from the seat, exact rationals) at the count
// state it sees, read by the standings and the pass streak as the engine reads them. The
// probability of every position is carried forward turn by turn until what is still in play is
// below 1e-15, so a forgotten card that hands the same table on is followed as often as it
// happens, without the count states' outcomes or the forward pass's linear solve.

// winSeatsCardFinals returns the probability of every seat's final pairs (in p-ths of a pair, by
// absolute seat) of the card-level play of graph g, each seat following tabs.
func winSeatsCardFinals(t *testing.T, g *passWinGraph, pass rules.PassRule, tabs []*rules.ChoiceTable) (map[string]float64, bool) {
	t.Helper()
	p := g.players
	choice := make([]rules.Choice, len(g.node))
	for i := range g.node {
		if g.ended(i) {
			continue
		}
		tab := tabs[g.node[i].mover]
		var ok bool
		switch s := tab.Standings(); {
		case s != nil && pass == rules.PassNever:
			choice[i], ok = s.Lookup(g.st[i], g.relative(i))
		case s != nil:
			choice[i], ok = s.LookupPasses(g.st[i], g.relative(i), g.node[i].streak)
		case pass == rules.PassNever:
			choice[i], ok = tab.Lookup(g.st[i], false)
		default:
			choice[i], ok = tab.LookupPasses(g.st[i], g.node[i].streak)
		}
		if !ok || g.steps[i][choice[i]] == nil {
			t.Fatalf("seat %d: no legal choice in %v at standings %v, streak %d (%v)", g.node[i].mover, g.st[i], g.relative(i), g.node[i].streak, choice[i])
		}
	}
	finals := map[string]float64{}
	stalemate := false
	mass := make([]float64, len(g.node))
	mass[0] = 1
	for range 1_000_000 {
		next := make([]float64, len(g.node))
		live := 0.0
		for i, pr := range mass {
			if pr == 0 {
				continue
			}
			for _, s := range g.steps[i][choice[i]] {
				if !g.ended(s.to) {
					next[s.to] += pr * s.p
					live += pr * s.p
					continue
				}
				fin := make([]int, p)
				for k := range fin {
					fin[k] = p*g.node[s.to].pairs[k] + g.st[s.to].N
				}
				finals[fmt.Sprint(fin)] += pr * s.p
				stalemate = stalemate || g.node[s.to].over
			}
		}
		mass = next
		if live < 1e-15 {
			return finals, stalemate
		}
	}
	t.Fatal("the card-level play did not end")
	return nil, false
}

// TestWinSeatsDistributionLimitedMemoryMatchesCardPlay compares every seat's whole distribution
// of its pairs from SeatsScoreDistribution (exact rationals and float64) with card-level play
// under lru and handover-uniform of capacity 2 and 3: every seat win-optimal, win-optimal beside
// fixed policies and optimal, win-best-response at one seat, under pass rules never, two-known
// and always (a stalemate reached without -short), three pairs at three seats (four, and two
// pairs at four seats, without -short).
func TestWinSeatsDistributionLimitedMemoryMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	W, B, O, S, D := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	type tcase struct {
		mem       cardMemory
		pass      rules.PassRule
		seats     []rules.Policy
		n         int
		stalemate bool
	}
	cases := []tcase{
		{cardMemory{capacity: 2, forget: lru}, rules.PassNever, []rules.Policy{W, W, W}, 3, false},
		{cardMemory{capacity: 3, forget: hu}, rules.PassAlways, []rules.Policy{W, S, D}, 3, false},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{cardMemory{capacity: 2, forget: hu}, rules.PassNever, []rules.Policy{D, O, W}, 3, false},
			tcase{cardMemory{capacity: 3, forget: hu}, rules.PassAlways, []rules.Policy{W, W, W}, 3, true},
			tcase{cardMemory{capacity: 2, forget: lru}, rules.PassTwoKnown, []rules.Policy{B, W, W}, 3, false},
			tcase{cardMemory{capacity: 3, forget: lru}, rules.PassAlways, []rules.Policy{W, W, W}, 4, true},
			tcase{cardMemory{capacity: 2, forget: hu}, rules.PassNever, []rules.Policy{W, W, W, W}, 2, false})
	}
	for _, tc := range cases {
		m := exact.Model{Pass: tc.pass, Memory: memoryOf(tc.mem)}
		mu := exact.SeatLineup(tc.seats...)
		p := len(tc.seats)
		name := fmt.Sprintf("%v %s %v n=%d", tc.mem, tc.pass, tc.seats, tc.n)
		tabs := make([]*rules.ChoiceTable, p)
		for k := range tabs {
			tab, err := exact.PolicyTable(ctx, field.Rat{}, m, exact.RotateSeats(mu, k), tc.n)
			if err != nil {
				t.Fatalf("%s: seat %d's table: %v", name, k, err)
			}
			tabs[k] = tab
		}
		g, err := buildPassWinGraph(tc.mem, m, winPos{w: newCardWorld(rules.State{N: tc.n, J: tc.n}, nil), pairs: make([]int, p)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		joint, stalemate := winSeatsCardFinals(t, g, tc.pass, tabs)
		if stalemate != tc.stalemate {
			t.Errorf("%s: a stalemate reached %v, the check expects %v", name, stalemate, tc.stalemate)
		}
		want := make([][]float64, p)
		for s := range want {
			want[s] = make([]float64, p*tc.n+1)
		}
		for k, pr := range joint {
			fin := splitInts(k)
			for s := range p {
				want[s][fin[s]] += pr
			}
		}
		st := rules.State{N: tc.n, J: tc.n}
		ex, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fl, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		step := p / ex.Unit
		for s := range p {
			for i := range want[s] {
				var e, x float64
				if i%step == 0 {
					e, _ = ex.Prob[s][i/step].Float64()
					x = fl.Prob[s][i/step]
				}
				if math.Abs(e-want[s][i]) > 1e-9 || math.Abs(x-want[s][i]) > 1e-9 {
					t.Errorf("%s: seat %d takes %d/%d pairs: card play %.12f, exact %.12f, float64 %.12f", name, s, i, p, want[s][i], e, x)
				}
			}
		}
	}
}

// splitInts parses a list of integers formatted by fmt.Sprint.
func splitInts(s string) []int {
	var out []int
	var x int
	in := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			x, in = 10*x+int(r-'0'), true
		case in:
			out, x, in = append(out, x), 0, false
		}
	}
	return out
}
