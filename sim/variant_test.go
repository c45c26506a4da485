package sim_test

// The rule variants of docs/models.md §1.7: k copies of a face, blind flips and a turn limit.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// variantPlayers returns players of every kind the engine plays under the variants, for the given
// deal: random, greedy, and daring and safe tables.
func variantPlayers(t *testing.T, seats, pairs, singletons int, mem rules.Memory) []sim.Player {
	var ps []sim.Player
	for i := range seats {
		switch i % 4 {
		case 0:
			ps = append(ps, sim.Player{Name: fmt.Sprintf("random%d", i), Memory: mem,
				NewStrategy: func() sim.Strategy { return &randomStrategy{r: rand.New(rand.NewPCG(uint64(i), 17))} }})
		case 1:
			ps = append(ps, tablePlayer(fmt.Sprintf("daring%d", i), mem, fixedTable(t, rules.PolicyDaring, pairs, singletons)))
		case 2:
			ps = append(ps, strategyPlayer(fmt.Sprintf("greedy%d", i), mem, greedyRandom))
		case 3:
			ps = append(ps, tablePlayer(fmt.Sprintf("safe%d", i), mem, fixedTable(t, rules.PolicySafe, pairs, singletons)))
		}
	}
	return ps
}

// TestVariantConservation plays games of every variant and checks from the log alone that every
// card is taken at most once, only with a card of its face, that each face has its number of
// copies, that the turn limit holds and that the scores add up.
func TestVariantConservation(t *testing.T) {
	limited := 0 // games ended at the turn limit
	memories := []rules.Memory{perfect, {Capacity: 3, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate},
		{Forget: rules.ForgetDecay, Decay: 0.3}}
	for _, copies := range []int{2, 4, 6} {
		for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
			for _, limit := range []int{0, 7} {
				for mi, mem := range memories {
					for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
						v := rules.Variant{Copies: copies, Flips: flips, TurnLimit: limit}
						pairs, singles, seats := 3*copies/2, mi%2, 1+mi+copies/2
						setup := sim.Setup{Pairs: pairs, Singletons: singles, Pass: pass, Variant: v,
							Players: variantPlayers(t, seats, pairs, singles, mem)}
						t.Run(fmt.Sprintf("%v/%v/%v", v, mem, pass), func(t *testing.T) {
							limited += checkVariantGames(t, setup, 20)
						})
					}
				}
			}
		}
	}
	if limited == 0 {
		t.Error("no game ended at the turn limit: the setups do not exercise it")
	}
}

// checkVariantGames plays games of the setup with a log, checks them and returns the number that
// ended at the turn limit.
func checkVariantGames(t *testing.T, s sim.Setup, games int) (limited int) {
	g, err := sim.NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	copies := s.Variant.CopiesOf()
	faces := 2 * s.Pairs / copies
	lg := &sim.Log{}
	for i := range games {
		if err := g.Play(sim.GameID{Seed: 9, DealStream: 1, PlayStream: 2, Index: uint64(i)}, lg); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		o := g.Outcome()
		face := map[int]int{}
		taken := map[int]bool{}
		pairs := make([]int, len(s.Players))
		for _, tr := range lg.Turns {
			for _, c := range tr.Flips {
				if f, ok := face[c.Pos]; ok && f != c.Face {
					t.Fatalf("game %d, turn %d: card %d shows face %d, earlier %d", i, tr.Turn, c.Pos, c.Face, f)
				}
				if taken[c.Pos] {
					t.Fatalf("game %d, turn %d: card %d flipped after it was taken", i, tr.Turn, c.Pos)
				}
				face[c.Pos] = c.Face
			}
			if tr.End == "pair" {
				a, b := tr.Flips[0], tr.Flips[1]
				if a.Face != b.Face || a.Pos == b.Pos || a.Face >= faces {
					t.Fatalf("game %d, turn %d: took %v and %v", i, tr.Turn, a, b)
				}
				taken[a.Pos], taken[b.Pos] = true, true
				pairs[tr.Seat]++
			}
		}
		count := map[int]int{}
		for _, f := range face {
			count[f]++
		}
		for f, c := range count {
			if (f < faces && c > copies) || (f >= faces && c > 1) || f >= faces+s.Singletons {
				t.Fatalf("game %d: face %d on %d cards", i, f, c)
			}
		}
		sum := 0
		for seat, p := range o.Pairs {
			sum += p
			if p != pairs[seat] {
				t.Fatalf("game %d: seat %d has %d pairs, the log %d", i, seat, p, pairs[seat])
			}
			share := p * len(s.Players)
			if o.Stalemate {
				share += o.Left
			}
			if o.Share[seat] != share {
				t.Fatalf("game %d: seat %d's share is %d, want %d", i, seat, o.Share[seat], share)
			}
		}
		switch {
		case o.Limited && (o.Turns != s.Variant.TurnLimit || o.Left == 0 || o.Stalemate):
			t.Fatalf("game %d: ended at the turn limit after %d turns with %d pairs left (stalemate %v)", i, o.Turns, o.Left, o.Stalemate)
		case s.Variant.TurnLimit > 0 && o.Turns > s.Variant.TurnLimit:
			t.Fatalf("game %d: %d turns, the limit is %d", i, o.Turns, s.Variant.TurnLimit)
		case sum+o.Left != s.Pairs:
			t.Fatalf("game %d: %d pairs taken and %d left of %d", i, sum, o.Left, s.Pairs)
		case !o.Limited && !o.Stalemate && len(count) < faces:
			t.Fatalf("game %d: the table was cleared with %d of %d faces seen", i, len(count), faces)
		}
		if o.Limited {
			limited++
		}
	}
	return limited
}

// TestFirstTurnMatchProbability enumerates every deal of small decks and plays one daring turn,
// nothing yet known, on each: the share of deals where the two cards match must be (k-1)/(N-1)
// for N cards and k copies of a face (times the share 2·pairs/N of pair cards, with singletons),
// under sequential and blind flips alike.
func TestFirstTurnMatchProbability(t *testing.T) {
	for _, c := range []struct{ pairs, copies, singletons int }{
		{4, 4, 0}, {6, 6, 0}, {6, 4, 0}, {4, 4, 1}, {3, 2, 2},
	} {
		for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
			v := rules.Variant{Copies: c.copies, Flips: flips, TurnLimit: 1}
			name := fmt.Sprintf("pairs=%d,copies=%d,singletons=%d,%v", c.pairs, c.copies, c.singletons, flips)
			t.Run(name, func(t *testing.T) {
				setup := sim.Setup{Pairs: c.pairs, Singletons: c.singletons, Variant: v,
					Players: []sim.Player{tablePlayer("daring", perfect, fixedTable(t, rules.PolicyDaring, c.pairs, c.singletons))}}
				g, err := sim.NewGame(setup)
				if err != nil {
					t.Fatal(err)
				}
				faces := 2 * c.pairs / c.copies
				var cards []int
				for f := range faces {
					for range c.copies {
						cards = append(cards, f)
					}
				}
				for s := range c.singletons {
					cards = append(cards, faces+s)
				}
				deals, matched := 0, 0
				multisetPermutations(cards, func(deal []int) {
					if err := g.PlayDeal(sim.GameID{}, deal, nil); err != nil {
						t.Fatal(err)
					}
					deals++
					matched += g.Outcome().Pairs[0]
				})
				// The first card is a pair card with probability 2·pairs/n; its face has k-1 of the
				// other n-1 cards. A singleton first is followed by another unknown card, which
				// cannot match it.
				n := len(cards)
				num, den := 2*c.pairs*(c.copies-1), n*(n-1)
				if matched*den != num*deals {
					t.Errorf("%d of %d deals matched on the first turn, want a share of %d/%d", matched, deals, num, den)
				}
			})
		}
	}
}

// multisetPermutations calls visit with every distinct arrangement of the sorted values.
func multisetPermutations(values []int, visit func([]int)) {
	a := append([]int(nil), values...)
	for {
		visit(a)
		// The next arrangement in lexicographic order.
		i := len(a) - 2
		for i >= 0 && a[i] >= a[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := len(a) - 1
		for a[j] <= a[i] {
			j--
		}
		a[i], a[j] = a[j], a[i]
		for l, r := i+1, len(a)-1; l < r; l, r = l+1, r-1 {
			a[l], a[r] = a[r], a[l]
		}
	}
}

// TestShuffledFirstTurnMatchRate checks the engine's own shuffle of a deck of k copies: over many
// games, the rate of a first-turn match is (k-1)/(N-1) within five standard errors.
func TestShuffledFirstTurnMatchRate(t *testing.T) {
	const games = 20000
	for _, c := range []struct{ pairs, copies int }{{26, 4}, {26, 26}, {6, 2}} {
		setup := sim.Setup{Pairs: c.pairs, Variant: rules.Variant{Copies: c.copies, TurnLimit: 1},
			Players: []sim.Player{tablePlayer("daring", perfect, fixedTable(t, rules.PolicyDaring, c.pairs, 0))}}
		g, err := sim.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		matched := 0
		for i := range games {
			if err := g.Play(sim.GameID{Seed: 4, DealStream: 5, PlayStream: 6, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			matched += g.Outcome().Pairs[0]
		}
		p := float64(c.copies-1) / float64(2*c.pairs-1)
		se := math.Sqrt(p * (1 - p) / games)
		if got := float64(matched) / games; math.Abs(got-p) > 5*se {
			t.Errorf("pairs %d, copies %d: first-turn match rate %.4f, want %.4f ± %.4f", c.pairs, c.copies, got, p, 5*se)
		}
	}
}

// outcomeOf copies the parts of an outcome a variant can change.
type outcomeOf struct {
	Pairs, Share     []int
	Turns, Left      int
	Stalemate, Limit bool
}

func snapshot(o *sim.Outcome) outcomeOf {
	return outcomeOf{append([]int(nil), o.Pairs...), append([]int(nil), o.Share...), o.Turns, o.Left, o.Stalemate, o.Limited}
}

// playOutcomes plays games of the setup and returns their outcomes and, with logs, their logs.
func playOutcomes(t *testing.T, s sim.Setup, games int, withLog bool) ([]outcomeOf, []sim.Log) {
	t.Helper()
	g, err := sim.NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	var outs []outcomeOf
	var logs []sim.Log
	for i := range games {
		var lg *sim.Log
		if withLog {
			lg = &sim.Log{}
		}
		if err := g.Play(sim.GameID{Seed: 11, DealStream: 3, PlayStream: 4, Index: uint64(i)}, lg); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, snapshot(g.Outcome()))
		if lg != nil {
			logs = append(logs, *lg)
		}
	}
	return outs, logs
}

// standardSetups returns setups of the standard game across the engine's paths: perfect and
// limited memories with tables (the lean paths), and strategies.
func standardSetups(t *testing.T) map[string]sim.Setup {
	lru := rules.Memory{Capacity: 4, Forget: rules.ForgetLRU}
	return map[string]sim.Setup{
		"perfect tables": {Pairs: 8, Players: []sim.Player{
			tablePlayer("parity", perfect, fixedTable(t, rules.PolicyParity, 8, 0)),
			tablePlayer("safe", perfect, fixedTable(t, rules.PolicySafe, 8, 0))}},
		"lru tables": {Pairs: 8, Pass: rules.PassTwoKnown, Players: []sim.Player{
			tablePlayer("daring", lru, fixedTable(t, rules.PolicyDaring, 8, 0)),
			tablePlayer("parity", lru, fixedTable(t, rules.PolicyParity, 8, 0))}},
		"strategies": {Pairs: 7, Singletons: 2, Pass: rules.PassAlways, Players: variantPlayers(t, 3, 7, 2,
			rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform})},
	}
}

// TestTurnLimitBeyondGameChangesNothing plays the same games without a turn limit and with one no
// game reaches: the outcomes are identical.
func TestTurnLimitBeyondGameChangesNothing(t *testing.T) {
	for name, s := range standardSetups(t) {
		t.Run(name, func(t *testing.T) {
			want, _ := playOutcomes(t, s, 300, false)
			longest := 0
			for _, o := range want {
				longest = max(longest, o.Turns)
			}
			for _, limit := range []int{longest, 1 << 30} {
				s.Variant = rules.Variant{TurnLimit: limit}
				got, _ := playOutcomes(t, s, 300, false)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("turn limit %d: the outcomes differ from the game without a limit", limit)
				}
			}
		})
	}
}

// TestCopiesTwoIsTheStandardGame plays the same games with copies 2 written out and with the zero
// variant: the outcomes and logs are identical.
func TestCopiesTwoIsTheStandardGame(t *testing.T) {
	for name, s := range standardSetups(t) {
		t.Run(name, func(t *testing.T) {
			want, wantLogs := playOutcomes(t, s, 200, true)
			s.Variant = rules.Variant{Copies: 2}
			got, gotLogs := playOutcomes(t, s, 200, true)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotLogs, wantLogs) {
				t.Error("copies 2 plays other games than the standard game")
			}
		})
	}
}

// unknownThenUnknown takes a pair it remembers; otherwise it names an unknown card and then
// another (a remembered one when no other is left), whatever the first turned out to be: its
// second choice never depends on the first card's face.
func unknownThenUnknown(v *sim.View) sim.Move {
	a, b, ok := v.KnownPair()
	if !v.Second {
		if ok {
			return sim.FlipAt(a)
		}
		return sim.FlipUnknown()
	}
	if ok && a == v.First.Pos {
		return sim.FlipAt(b)
	}
	if otherUnknown(v) {
		return sim.FlipUnknown()
	}
	return sim.FlipRandom()
}

// otherUnknown reports whether a card the player does not remember is on the table besides the
// first card.
func otherUnknown(v *sim.View) bool {
	for pos := range v.Cards() {
		if _, ok := v.Remembers(pos); v.OnTable(pos) && !ok && pos != v.First.Pos {
			return true
		}
	}
	return false
}

// TestBlindFlipsChangeNothingForABlindStrategy plays a strategy whose second choice never depends
// on the first card under sequential and blind flips: the mean turns and scores agree within
// sampling error.
func TestBlindFlipsChangeNothingForABlindStrategy(t *testing.T) {
	const games = 4000
	for _, copies := range []int{2, 4} {
		mean := func(flips rules.Flips) (turns, seat0 []float64) {
			s := sim.Setup{Pairs: 8, Variant: rules.Variant{Copies: copies, Flips: flips}, Players: []sim.Player{
				strategyPlayer("a", perfect, unknownThenUnknown), strategyPlayer("b", perfect, unknownThenUnknown)}}
			outs, _ := playOutcomes(t, s, games, false)
			for _, o := range outs {
				turns = append(turns, float64(o.Turns))
				seat0 = append(seat0, float64(o.Pairs[0]))
			}
			return turns, seat0
		}
		seqTurns, seqSeat0 := mean(rules.FlipsSequential)
		blindTurns, blindSeat0 := mean(rules.FlipsBlind)
		for _, c := range []struct {
			what string
			a, b []float64
		}{{"turns", seqTurns, blindTurns}, {"seat 0's pairs", seqSeat0, blindSeat0}} {
			ma, va := meanVar(c.a)
			mb, vb := meanVar(c.b)
			se := math.Sqrt(va/games + vb/games)
			if math.Abs(ma-mb) > 5*se {
				t.Errorf("copies %d: mean %s %.3f sequential, %.3f blind (se of the difference %.3f)", copies, c.what, ma, mb, se)
			}
		}
	}
}

func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}

// TestBlindHidesTheFirstCard checks that under blind flips a strategy naming its second card does
// not see the first card's face unless it remembers it.
func TestBlindHidesTheFirstCard(t *testing.T) {
	peek := func(v *sim.View) sim.Move {
		if !v.Second {
			return unknownThenUnknown(v)
		}
		_, remembered := v.Remembers(v.First.Pos)
		if _, ok := v.PartnerOf(v.First.Pos); ok && !remembered {
			panic("the partner of a face-down first card")
		}
		if !remembered && v.First.Face != -1 {
			panic(fmt.Sprintf("first card's face %d shown before the second is named", v.First.Face))
		}
		return unknownThenUnknown(v)
	}
	s := sim.Setup{Pairs: 6, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 30},
		Players: []sim.Player{strategyPlayer("peek", perfect, peek)}}
	g, err := sim.NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if err := g.Play(sim.GameID{Index: uint64(i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVariantSetupErrors checks that malformed variants are refused with an error naming the rule.
func TestVariantSetupErrors(t *testing.T) {
	daring := []sim.Player{tablePlayer("d", perfect, fixedTable(t, rules.PolicyDaring, 12, 0))}
	for _, c := range []struct {
		setup sim.Setup
		want  string
	}{
		{sim.Setup{Pairs: 6, Variant: rules.Variant{Copies: 3}, Players: daring}, "copies 3: must be an even number from 2 to 64"},
		{sim.Setup{Pairs: 5, Variant: rules.Variant{Copies: 4}, Players: daring}, "5 pairs with copies 4"},
		{sim.Setup{Pairs: 6, Variant: rules.Variant{TurnLimit: -1}, Players: daring}, "turn limit -1"},
		{sim.Setup{Pairs: 6, Variant: rules.Variant{Flips: 7}, Players: daring}, "flip rule Flips(7): unknown"},
	} {
		_, err := sim.NewGame(c.setup)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.setup.Variant, err, c.want)
		}
	}
}
