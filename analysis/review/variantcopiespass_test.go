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

// copiesPassTurn is a turn of a copies game under a pass rule as the test walks it from the
// record's moves, independently of the review: the state of faces at its start, whether the
// turn before was the other seat's pass, whether a pair was known whole at its start, the mover
// and its lead so far (its pairs less the other seat's).
type copiesPassTurn struct {
	state      exact.CopiesState
	afterPass  bool
	whole      bool
	turn       int
	seat, lead int
}

// walkCopiesPass walks the moves of a two-seat game with k copies of a face, card by card, and
// returns its turns: a turn is a pass line, or two cards; two cards of a face make a pair, which
// leaves the table and keeps the move; two cards seen before that are not a pair are a pass.
func walkCopiesPass(t *testing.T, k, faces int, moves []record.Move) []copiesPassTurn {
	t.Helper()
	seen := map[int]int{} // position → face, for the cards seen and still on the table
	var taken [2]int
	seat := 0
	left := make([]int, faces)
	for i := range left {
		left[i] = k
	}
	var out []copiesPassTurn
	afterPass := false
	for i := 0; i < len(moves); {
		st := exact.CopiesState{Unknown: make([]int, k/2), Half: make([]int, k/2)}
		whole := false
		seenOf := make([]int, faces)
		for _, fc := range seen {
			seenOf[fc]++
		}
		for fc := range faces {
			switch {
			case left[fc] == 0:
			case seenOf[fc] >= 2:
				whole = true
			case seenOf[fc] == 1:
				st.Half[left[fc]/2-1]++
			default:
				st.Unknown[left[fc]/2-1]++
			}
		}
		out = append(out, copiesPassTurn{state: st, afterPass: afterPass, whole: whole, turn: len(out),
			seat: seat, lead: taken[seat] - taken[1-seat]})
		if moves[i].Pass {
			afterPass = true
			seat = 1 - seat
			i++
			continue
		}
		a, b := moves[i], moves[i+1]
		i += 2
		_, aSeen := seen[a.Pos]
		_, bSeen := seen[b.Pos]
		switch {
		case a.Face == b.Face:
			delete(seen, a.Pos)
			delete(seen, b.Pos)
			left[a.Face] -= 2
			taken[seat]++
			afterPass = false
		case aSeen && bSeen:
			afterPass = true
			seat = 1 - seat
		default:
			seen[a.Pos], seen[b.Pos] = a.Face, b.Face
			afterPass = false
			seat = 1 - seat
		}
	}
	return out
}

// checkCopiesPassReview checks the review of game g, k copies of a face under a pass rule, turn
// by turn: each turn with no pair known whole is a decision at the state of faces and pass flag
// the test walks from the record, whose options are the copies model's CopiesChoiceValues at that
// state (with the turns left as the model's limit under a turn limit), but a pass just after the
// other seat's pass, the stalemate: the pairs left shared, lead 0. It also checks that a pass not
// just after a pass is worth minus the other seat's best at the next decision, just after it.
func checkCopiesPassReview(t *testing.T, g *record.Game, wantMade [][]rules.Choice) {
	t.Helper()
	ctx := context.Background()
	k, faces := g.Rules.Variant.CopiesOf(), g.Rules.Variant.Faces(g.Rules.Pairs)
	r, err := review.VariantGame(ctx, field.Rat{}, g, true)
	if err != nil {
		t.Fatal(err)
	}
	checkCopiesWinReview(t, g, r)
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	var want []copiesPassTurn
	for _, w := range walkCopiesPass(t, k, faces, g.Moves) {
		if !w.whole {
			want = append(want, w)
		}
	}
	if len(r.Decisions) != len(want) || len(want) != len(wantMade) {
		t.Fatalf("%d decisions, want %d (%d choices made)", len(r.Decisions), len(want), len(wantMade))
	}
	zero := new(big.Rat)
	for i, w := range want {
		d := r.Decisions[i]
		if d.Turn != w.turn || d.Faces != w.state.String() || d.AfterPass != w.afterPass {
			t.Fatalf("decision %d: turn %d, faces %s, after a pass %v; want turn %d, %s, %v", i, d.Turn+1, d.Faces, d.AfterPass, w.turn+1, w.state, w.afterPass)
		}
		m := exact.Model{Pass: g.Rules.Pass, Variant: g.Rules.Variant}
		if lim := g.Rules.Variant.TurnLimit; lim > 0 {
			m.Variant.TurnLimit = lim - w.turn
		}
		cs, err := exact.CopiesChoiceValues(ctx, field.Rat{}, m, mu, w.state)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Options) != len(cs.Values) {
			t.Fatalf("decision %d: %d options, want the model's %d", i, len(d.Options), len(cs.Values))
		}
		best := -1
		for j, cv := range cs.Values {
			pairs, lead := cv.Pairs, cv.Lead
			if cv.Choice == rules.Pass && w.afterPass {
				pairs, lead = big.NewRat(int64(w.state.Pairs()), 2), zero
			}
			o := d.Options[j]
			if o.Choice != cv.Choice || o.Pairs.Cmp(pairs) != 0 || o.Lead.Cmp(lead) != 0 {
				t.Errorf("decision %d (%s, after a pass %v) option %d: %v %v pairs, lead %v; want %v %v, %v",
					i, w.state, w.afterPass, j, o.Choice, o.Pairs, o.Lead, cv.Choice, pairs, lead)
			}
			if best < 0 || lead.Cmp(d.Options[best].Lead) > 0 {
				best = j
			}
		}
		if !slices.Equal(d.Made, wantMade[i]) || d.Chosen < 0 || !slices.Contains(wantMade[i], d.Options[d.Chosen].Choice) {
			t.Fatalf("decision %d: made %v, chosen %d; want %v", i, d.Made, d.Chosen, wantMade[i])
		}
		for _, c := range wantMade[i] { // credited with the best of the choices made
			if l, ok := optionLead(d.Options, c); ok && l.Cmp(d.Options[d.Chosen].Lead) > 0 {
				t.Errorf("decision %d: credited with %v, but %v of the choices made is better", i, d.Options[d.Chosen].Choice, c)
			}
		}
		cost := new(big.Rat).Sub(d.Options[best].Lead, d.Options[d.Chosen].Lead)
		cost.Quo(cost, big.NewRat(2, 1))
		if d.CostPairs.Cmp(cost) != 0 {
			t.Errorf("decision %d: cost %v pairs, want %v", i, d.CostPairs, cost)
		}
		// A pass not just after a pass hands the same faces to the other seat just after it.
		if d.Options[d.Chosen].Choice == rules.Pass && !w.afterPass && i+1 < len(want) && want[i+1].turn == w.turn+1 {
			next := r.Decisions[i+1]
			pass, ok := optionLead(d.Options, rules.Pass)
			if !ok || pass.Cmp(new(big.Rat).Neg(next.Options[next.Best].Lead)) != 0 {
				t.Errorf("decision %d: the pass is worth a lead of %v, the other seat's best just after it %v", i, pass, next.Options[next.Best].Lead)
			}
		}
	}
}

// optionLead returns the lead of choice c among opts.
func optionLead(opts []review.ChoiceOption[*big.Rat], c rules.Choice) (*big.Rat, bool) {
	for _, o := range opts {
		if o.Choice == c {
			return o.Lead, true
		}
	}
	return nil, false
}

// TestVariantReviewOfCopiesUnderPassAlwaysStalemate checks a game of four copies of a face under
// pass rule always that ends in a stalemate. Deal 0 0 1 1 0 0 1 1. Seat 0 passes at the start;
// seat 1, just after the pass, turns two new cards (daring, a miss); seat 0 passes with both faces
// half-known, and seat 1 passes again: the stalemate, two pairs each.
func TestVariantReviewOfCopiesUnderPassAlwaysStalemate(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 4, Pass: rules.PassAlways, Variant: rules.Variant{Copies: 4}},
		record.PassMove(),
		record.Flip(0, 0), record.Flip(2, 1),
		record.PassMove(),
		record.PassMove())
	g.Ended = true
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	if !g.Result.Stalemate || g.Result.Scores[0] != 2 {
		t.Fatalf("result %+v, want a stalemate of two pairs each", g.Result)
	}
	pass, daring := []rules.Choice{rules.Pass}, []rules.Choice{rules.Daring}
	checkCopiesPassReview(t, g, [][]rules.Choice{pass, daring, pass, pass})
}

// TestVariantReviewOfCopiesUnderPassTwoKnown checks a game of four copies of a face under pass
// rule two-known, with a pass line and a pass made by turning two remembered cards. Deal 0 0 1 1
// 0 0 1 1. Seat 0 misses (0 and 2); seat 1 passes with two remembered cards; seat 0, just after
// the pass, takes a pair of face 1 and then of face 0 with a new card and the remembered one,
// then misses (4 and 6); seat 1 passes by turning 4 and 6 again, and seat 0 takes the last two
// pairs.
func TestVariantReviewOfCopiesUnderPassTwoKnown(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 4, Pass: rules.PassTwoKnown, Variant: rules.Variant{Copies: 4}},
		record.Flip(0, 0), record.Flip(2, 1),
		record.PassMove(),
		record.Flip(3, 1), record.Flip(2, 1),
		record.Flip(1, 0), record.Flip(0, 0),
		record.Flip(4, 0), record.Flip(6, 1),
		record.Flip(4, 0), record.Flip(6, 1),
		record.Flip(5, 0), record.Flip(4, 0),
		record.Flip(7, 1), record.Flip(6, 1))
	if !g.Result.Over || g.Result.Scores[0] != 4 {
		t.Fatalf("result %+v, want seat 0 to take the four pairs", g.Result)
	}
	pass, daring, take := []rules.Choice{rules.Pass}, []rules.Choice{rules.Daring}, []rules.Choice{rules.Daring, rules.Safe}
	checkCopiesPassReview(t, g, [][]rules.Choice{daring, pass, take, take, daring, pass, take, take})
}

// TestVariantReviewOfCopiesUnderPassAndTurnLimit checks a game of four copies of a face under
// pass rule always and a turn limit of 4: a pass uses a turn, and each decision's values are the
// model's with the turns left. Deal 0 0 1 1 0 0 1 1.
func TestVariantReviewOfCopiesUnderPassAndTurnLimit(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 4, Pass: rules.PassAlways, Variant: rules.Variant{Copies: 4, TurnLimit: 4}},
		record.Flip(0, 0), record.Flip(2, 1),
		record.PassMove(),
		record.Flip(4, 0), record.Flip(0, 0),
		record.PassMove())
	if !g.Result.Over || !g.Result.Limited {
		t.Fatalf("result %+v, want a game ended by the turn limit", g.Result)
	}
	pass, daring, take := []rules.Choice{rules.Pass}, []rules.Choice{rules.Daring}, []rules.Choice{rules.Daring, rules.Safe}
	checkCopiesPassReview(t, g, [][]rules.Choice{daring, pass, take, pass})
}

// TestVariantReviewOfCopiesUnderPassWithoutModel checks that a copies game under a pass rule
// that no model covers, with singletons, still says it has no values, and why.
func TestVariantReviewOfCopiesUnderPassWithoutModel(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 2, Singletons: 1, Pass: rules.PassAlways, Variant: rules.Variant{Copies: 4}},
		record.PassMove())
	_, err := review.VariantGame(context.Background(), field.Rat{}, g, true)
	if !errors.Is(err, review.ErrNoVariantModel) || !strings.Contains(err.Error(), "copies 4 with singletons") {
		t.Fatalf("error %v, want one of no exact model of copies 4 with singletons", err)
	}
}
