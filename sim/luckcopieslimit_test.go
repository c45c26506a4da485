package sim_test

import (
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
)

// copiesLimitGame is a small game of k copies of a face under a turn limit, every seat a table
// player with perfect memory.
type copiesLimitGame struct {
	copies, pairs, limit int
	seats                []rules.Policy
}

func (c copiesLimitGame) variant() rules.Variant {
	return rules.Variant{Copies: c.copies, TurnLimit: c.limit}
}

func (c copiesLimitGame) String() string {
	return fmt.Sprintf("copies=%d/n=%d/limit=%d/%v", c.copies, c.pairs, c.limit, c.seats)
}

// setup returns the game's setup adjusted by the luck table lt.
func (c copiesLimitGame) setup(t *testing.T, lt *rules.LuckTable) sim.Setup {
	m := exact.Model{Variant: c.variant()}
	s := sim.Setup{Pairs: c.pairs, Variant: c.variant(), Luck: lt}
	for i, p := range c.seats {
		s.Players = append(s.Players, tablePlayer(fmt.Sprint(i), rules.Memory{}, variantTable(t, m, p, len(c.seats), c.pairs)))
	}
	return s
}

// everyDealSums plays every deal of the setup's game once and returns every seat's summed scores
// and adjusted scores, the number of deals, and the smallest and largest adjusted score of seat 0.
func everyDealSums(t *testing.T, s sim.Setup) (raw, adj []float64, deals int, lo, hi float64) {
	t.Helper()
	g, err := sim.NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	k, copies := len(s.Players), s.Variant.CopiesOf()
	var faces []int
	for f := range s.Variant.Faces(s.Pairs) {
		for range copies {
			faces = append(faces, f)
		}
	}
	raw, adj = make([]float64, k), make([]float64, k)
	lo, hi = math.Inf(1), math.Inf(-1)
	multisetPermutations(faces, func(deal []int) {
		if err := g.PlayDeal(sim.GameID{Seed: 5, Index: uint64(deals)}, deal, nil); err != nil {
			t.Fatal(err)
		}
		o := g.Outcome()
		for i := range k {
			raw[i] += float64(o.Share[i]) / float64(k)
			adj[i] += o.Adjusted[i]
		}
		lo, hi = min(lo, o.Adjusted[0]), max(hi, o.Adjusted[0])
		deals++
	})
	return raw, adj, deals, lo, hi
}

// TestCopiesLimitLuckSumsToZeroOverEveryDeal plays every deal of small games of k copies of a face
// under turn limits 1 to 4: every deal is equally likely, so the luck terms, each of mean zero
// given what came before, sum to zero over the deals, and every seat's adjusted scores add up to
// its raw scores. Optimal self-play leaves one adjusted value. The deck of three faces of four
// cards is left out under the race detector.
func TestCopiesLimitLuckSumsToZeroOverEveryDeal(t *testing.T) {
	two := [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyOptimal, rules.PolicySafe},
		{rules.PolicySafe, rules.PolicyDaring},
	}
	var games []copiesLimitGame
	for limit := 1; limit <= 4; limit++ {
		for _, seats := range two {
			games = append(games, copiesLimitGame{4, 4, limit, seats}, copiesLimitGame{6, 6, limit, seats})
		}
	}
	games = append(games,
		copiesLimitGame{4, 4, 3, []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}},
		copiesLimitGame{4, 4, 4, []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal}},
	)
	if !raceEnabled {
		// Three faces of four cards: 34,650 deals, too many for the race detector's pace.
		games = append(games, copiesLimitGame{4, 6, 3, []rules.Policy{rules.PolicyOptimal, rules.PolicySafe}})
	}
	for _, c := range games {
		t.Run(c.String(), func(t *testing.T) {
			lt := luckTable(t, exact.Model{Variant: c.variant()}, len(c.seats), c.pairs)
			raw, adj, deals, lo, hi := everyDealSums(t, c.setup(t, lt))
			for i := range raw {
				if d := (adj[i] - raw[i]) / float64(deals); math.Abs(d) > 1e-9 {
					t.Errorf("seat %d: mean adjusted score %.12f, mean score %.12f over %d deals", i, adj[i]/float64(deals), raw[i]/float64(deals), deals)
				}
			}
			selfPlay := true
			for _, p := range c.seats {
				selfPlay = selfPlay && p == rules.PolicyOptimal
			}
			if selfPlay && hi-lo > 1e-9 {
				t.Errorf("optimal self-play: adjusted scores from %.15g to %.15g, want one value", lo, hi)
			}
		})
	}
}

// TestCopiesLimitLuckNeedsTheTurnsLeft checks that the every-deal identity catches a table that
// drops the turns left: every layer of the copies table under a turn limit filled with the values
// and advantages of the copies model without one.
func TestCopiesLimitLuckNeedsTheTurnsLeft(t *testing.T) {
	c := copiesLimitGame{4, 4, 3, []rules.Policy{rules.PolicyOptimal, rules.PolicySafe}}
	free := luckTable(t, exact.Model{Variant: rules.Variant{Copies: c.copies}}, 2, c.pairs)
	lt, err := rules.NewVariantLuckTable(c.variant(), rules.Memory{}, rules.PassNever, 0, 2, c.pairs, "no turns left")
	if err != nil {
		t.Fatal(err)
	}
	set := 0
	for _, counts := range statesOfFaces(c.copies, c.variant().Faces(c.pairs)) {
		key := rules.AppendCopiesKey(nil, counts)
		v := free.CopiesValues(key)
		if v == nil {
			continue
		}
		for left := 1; left <= c.limit; left++ {
			lt.SetCopiesTurnValue(counts, left, v)
			for _, ch := range rules.Choices() {
				if a := free.CopiesAdvantages(key, ch); !math.IsNaN(a[0]) {
					lt.SetCopiesTurnAdvantage(counts, left, ch, a)
				}
			}
		}
		set++
	}
	if set == 0 {
		t.Fatal("the table without a limit holds no state of faces")
	}
	raw, adj, deals, _, _ := everyDealSums(t, c.setup(t, lt))
	if d := (adj[0] - raw[0]) / float64(deals); math.Abs(d) < 1e-3 {
		t.Errorf("mean adjusted score %.6f, mean score %.6f: the values without the turns left are not caught", adj[0]/float64(deals), raw[0]/float64(deals))
	}
}

// statesOfFaces returns every state of faces (rules.CopiesTable's counts) of at most faces faces
// of k copies: k entries, each a number of faces, summing to at most faces.
func statesOfFaces(k, faces int) [][]int {
	var out [][]int
	counts := make([]int, k)
	var fill func(i, left int)
	fill = func(i, left int) {
		if i == k {
			out = append(out, append([]int(nil), counts...))
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			fill(i+1, left-c)
		}
	}
	fill(0, faces)
	return out
}
