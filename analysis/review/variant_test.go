package review_test

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// variantGame returns a checked two-seat game of the given rules and moves.
func variantGame(t *testing.T, r record.Rules, moves ...record.Move) *record.Game {
	t.Helper()
	r.Seats = 2
	g := &record.Game{Rules: r, Moves: moves}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestVariantReviewOfBlindFlipsByHand checks a game of two pairs under blind flips against values
// worked out by hand from docs/models.md §4.17. Deal 0 1 0 1. Seat 0 names cards 0 and 1 (its
// only choice, daring: of the six pairs of unknown cards two match, 2/6 · (1 + 1) + 4/6 · (2 - 1)
// = 4/3 pairs). Seat 1 then faces two remembered cards and their two hidden partners: safe
// (a remembered card and an unknown one) takes the pair half the time and then the other
// (2 pairs, a win), else hands the opponent that pair, after which the opponent takes the other
// too (0 pairs, a loss): 1 pair, win score 1/2, and known-first names the same cards; daring (two
// unknown cards) hands both pairs to the opponent: 0 pairs, 0 win. Seat 1 names 2 and 3 (daring):
// a cost of 1 pair and 1/2 win. Seat 0 then takes the two
// pairs known whole, which is no decision.
func TestVariantReviewOfBlindFlipsByHand(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 2, Variant: rules.Variant{Flips: rules.FlipsBlind}},
		record.Flip(0, 0), record.Flip(1, 1), record.Flip(2, 0), record.Flip(3, 1),
		record.Flip(0, 0), record.Flip(2, 0), record.Flip(1, 1), record.Flip(3, 1))
	r, err := review.VariantGame(context.Background(), field.Rat{}, g, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Decisions) != 2 {
		t.Fatalf("%d decisions, want 2", len(r.Decisions))
	}
	rat := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	type opt struct {
		c          rules.Choice
		pairs, win *big.Rat
	}
	for _, tc := range []struct {
		k          int
		opts       []opt
		chosen     rules.Choice
		cost, wcst *big.Rat
	}{
		{0, []opt{{rules.Daring, rat(4, 3), nil}}, rules.Daring, rat(0, 1), rat(0, 1)},
		{1, []opt{{rules.Daring, rat(0, 1), rat(0, 1)}, {rules.Safe, rat(1, 1), rat(1, 2)}, {rules.KnownFirst, rat(1, 1), rat(1, 2)}}, rules.Daring, rat(1, 1), rat(1, 2)},
	} {
		d := r.Decisions[tc.k]
		if len(d.Options) != len(tc.opts) {
			t.Fatalf("decision %d: %d options, want %d", tc.k, len(d.Options), len(tc.opts))
		}
		for i, o := range tc.opts {
			got := d.Options[i]
			if got.Choice != o.c || got.Pairs.Cmp(o.pairs) != 0 || o.win != nil && got.Win.Cmp(o.win) != 0 {
				t.Errorf("decision %d option %d: %v %v pairs, win %v; want %v %v, %v", tc.k, i, got.Choice, got.Pairs, got.Win, o.c, o.pairs, o.win)
			}
		}
		if d.Chosen < 0 || d.Options[d.Chosen].Choice != tc.chosen {
			t.Errorf("decision %d: chosen %d, want %v", tc.k, d.Chosen, tc.chosen)
		}
		if d.CostPairs.Cmp(tc.cost) != 0 || d.CostWin.Cmp(tc.wcst) != 0 {
			t.Errorf("decision %d: cost %v pairs, %v win; want %v, %v", tc.k, d.CostPairs, d.CostWin, tc.cost, tc.wcst)
		}
	}
	if s := r.Seats[1]; s.LostPairs.Cmp(rat(1, 1)) != 0 || s.Decisions != 1 || s.Best != 0 {
		t.Errorf("seat 1: lost %v pairs in %d decisions, %d best; want 1 in 1, 0 best", s.LostPairs, s.Decisions, s.Best)
	}
}

// TestVariantReviewBeyondTheLimitIsTheStandardReview checks that under a turn limit no game
// reaches, every turn's best values are those the standard game's review gives its first card,
// in games played by the engine under every pass rule, with singletons.
func TestVariantReviewBeyondTheLimitIsTheStandardReview(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		m            exact.Model
		pairs, deals int
	}{
		{exact.Model{Pass: rules.PassNever}, 3, 1},
		{exact.Model{Pass: rules.PassTwoKnown, Singletons: 1}, 2, 1},
		{exact.Model{Pass: rules.PassAlways}, 2, 2},
	} {
		m, pairs := tc.m, tc.pairs
		v, err := review.NewValues(ctx, field.Rat{}, m, pairs, true)
		if err != nil {
			t.Fatal(err)
		}
		for deal := range uint64(tc.deals) {
			g := playRecord(t, m, pairs, [2]*rules.ChoiceTable{hashTable(t, m, pairs, 1), hashTable(t, m, pairs, 2)}, deal)
			std, err := review.Game(ctx, v, g)
			if err != nil {
				t.Fatal(err)
			}
			lim := *g
			lim.Rules.Variant.TurnLimit = 2*(3*pairs+m.Singletons) + 1
			lim.Turns, lim.Result = nil, record.Result{}
			if err := lim.Check(); err != nil {
				t.Fatal(err)
			}
			r, err := review.VariantGame(ctx, field.Rat{}, &lim, true)
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for _, sd := range std.Decisions {
				if sd.Card != 1 || sd.Whole > 0 {
					continue
				}
				if k >= len(r.Decisions) {
					t.Fatalf("%v deal %d: fewer turn decisions than the standard review's first cards", m, deal)
				}
				d := r.Decisions[k]
				k++
				if d.Turn != sd.Turn {
					t.Fatalf("%v deal %d: decision %d is of turn %d, want %d", m, deal, k, d.Turn, sd.Turn)
				}
				if p, w := d.Options[d.Best].Pairs, d.Options[d.BestWin].Win; p.Cmp(sd.BestPairs) != 0 || w.Cmp(sd.BestWin) != 0 {
					t.Errorf("%v deal %d turn %d: best %v pairs, win %v; the standard review's %v, %v", m, deal, d.Turn+1, p, w, sd.BestPairs, sd.BestWin)
				}
			}
			if k != len(r.Decisions) {
				t.Errorf("%v deal %d: %d turn decisions, want %d", m, deal, len(r.Decisions), k)
			}
		}
	}
}

// TestVariantReviewOfCopies checks a game of four copies of a face: the state of faces at each
// turn, and the choice the turn's cards fit. Deal 0 0 1 1 0 0 1 1 (two faces of four cards).
func TestVariantReviewOfCopies(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 4, Variant: rules.Variant{Copies: 4}},
		record.Flip(0, 0), record.Flip(2, 1), // daring: a miss; both faces half-known
		record.Flip(3, 1), record.Flip(2, 1), // a new card of a half-known face, then the seen one: taken
		record.Flip(1, 0), record.Flip(0, 0), // the same: taken
	)
	r, err := review.VariantGame(context.Background(), field.Rat{}, g, true)
	if err != nil {
		t.Fatal(err)
	}
	checkCopiesWinReview(t, g, r)
	want := []struct {
		faces string
		made  []rules.Choice
	}{
		{"4:2u", []rules.Choice{rules.Daring}},
		{"4:2h", []rules.Choice{rules.Daring, rules.Safe}},
		{"4:1h,2:1u", []rules.Choice{rules.Daring, rules.Safe}},
	}
	if len(r.Decisions) != len(want) {
		t.Fatalf("%d decisions, want %d", len(r.Decisions), len(want))
	}
	for i, w := range want {
		d := r.Decisions[i]
		if d.Faces != w.faces || len(d.Made) != len(w.made) || d.Made[0] != w.made[0] {
			t.Errorf("decision %d: faces %s, made %v; want %s, %v", i, d.Faces, d.Made, w.faces, w.made)
		}
	}
	st, err := exact.ParseCopiesState("4:2h", 4)
	if err != nil {
		t.Fatal(err)
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	cs, err := exact.CopiesChoiceValues(context.Background(), field.Rat{}, exact.Model{Variant: rules.Variant{Copies: 4}}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Decisions[1]; len(d.Options) != len(cs.Values) || d.Options[0].Pairs.Cmp(cs.Values[0].Pairs) != 0 {
		t.Errorf("decision 2: options %v, want the copies model's %v", d.Options, cs.Values)
	}
}

// TestVariantReviewOfCopiesUnderBlindFlips checks a game of four copies of a face under blind
// flips: the state of faces at each turn, the choice the two named cards fit, and the options'
// values, those of the copies model under blind flips. Deal 0 0 1 1 0 0 1 1 (two faces of four
// cards).
func TestVariantReviewOfCopiesUnderBlindFlips(t *testing.T) {
	v := rules.Variant{Copies: 4, Flips: rules.FlipsBlind}
	g := variantGame(t, record.Rules{Pairs: 4, Variant: v},
		record.Flip(0, 0), record.Flip(2, 1), // daring: a miss; both faces half-known
		record.Flip(3, 1), record.Flip(1, 0), // two unseen cards: a miss again, both faces known whole
		record.Flip(0, 0), record.Flip(1, 0), record.Flip(2, 1), record.Flip(3, 1), // taken, no decision
		record.Flip(4, 0), record.Flip(7, 1), // daring
		record.Flip(5, 0), record.Flip(4, 0), // an unseen card and a remembered one: taken
	)
	r, err := review.VariantGame(context.Background(), field.Rat{}, g, true)
	if err != nil {
		t.Fatal(err)
	}
	checkCopiesWinReview(t, g, r)
	want := []struct {
		turn  int
		faces string
		made  []rules.Choice
	}{
		{0, "4:2u", []rules.Choice{rules.Daring}},
		{1, "4:2h", []rules.Choice{rules.Daring}},
		{4, "2:2u", []rules.Choice{rules.Daring}},
		{5, "2:2h", []rules.Choice{rules.Safe, rules.KnownFirst}},
	}
	if len(r.Decisions) != len(want) {
		t.Fatalf("%d decisions, want %d", len(r.Decisions), len(want))
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for i, w := range want {
		d := r.Decisions[i]
		if d.Turn != w.turn || d.Faces != w.faces || !slices.Equal(d.Made, w.made) || d.Chosen < 0 {
			t.Errorf("decision %d: turn %d, faces %s, made %v, chosen %d; want turn %d, %s, %v", i, d.Turn, d.Faces, d.Made, d.Chosen, w.turn, w.faces, w.made)
			continue
		}
		st, err := exact.ParseCopiesState(w.faces, 4)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := exact.CopiesChoiceValues(context.Background(), field.Rat{}, exact.Model{Variant: v}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Options) != len(cs.Values) {
			t.Fatalf("decision %d: %d options, want the model's %d", i, len(d.Options), len(cs.Values))
		}
		for k, o := range d.Options {
			if cv := cs.Values[k]; o.Choice != cv.Choice || o.Pairs.Cmp(cv.Pairs) != 0 || o.Lead.Cmp(cv.Lead) != 0 {
				t.Errorf("decision %d option %d: %v %v pairs, lead %v; the model's %v %v, %v", i, k, o.Choice, o.Pairs, o.Lead, cv.Choice, cv.Pairs, cv.Lead)
			}
		}
	}
}

// TestVariantReviewWithoutModel checks that blind flips with singletons have no model, named.
func TestVariantReviewWithoutModel(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 2, Singletons: 1, Variant: rules.Variant{Flips: rules.FlipsBlind}},
		record.Flip(0, 0), record.Flip(1, 0))
	_, err := review.VariantGame(context.Background(), field.Rat{}, g, true)
	if !errors.Is(err, review.ErrNoVariantModel) || !strings.Contains(err.Error(), "blind flips with singletons") {
		t.Fatalf("error %v, want one of no exact model of blind flips with singletons", err)
	}
}
