package review_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// checkCopiesWinReview checks the win scores of review r of game g, k copies of a face, turn by
// turn against the copies model's win values computed directly: each decision is at the state of
// faces, pass flag, mover and lead so far the test walks from the record (walkCopiesPass), and
// its options' win scores are CopiesWinChoiceValues' at that state and the mover's lead, with the
// turns left as the model's limit under a turn limit, but a pass just after the other seat's
// pass, the stalemate, which is the lead so far's result (1, 1/2 or 0). The best to win, the
// cost in win score of the choices the turn's cards fit and seat 0's evaluation through the
// game are checked against them too.
func checkCopiesWinReview(t *testing.T, g *record.Game, r *review.VariantReview[*big.Rat]) {
	t.Helper()
	if !r.Win {
		t.Fatal("a review of copies at two seats gives no win scores")
	}
	ctx := context.Background()
	k, faces := g.Rules.Variant.CopiesOf(), g.Rules.Variant.Faces(g.Rules.Pairs)
	var want []copiesPassTurn
	for _, w := range walkCopiesPass(t, k, faces, g.Moves) {
		if !w.whole {
			want = append(want, w)
		}
	}
	if len(r.Decisions) != len(want) || len(r.Through) < len(want) {
		t.Fatalf("%d decisions and %d points of the evaluation, want %d decisions", len(r.Decisions), len(r.Through), len(want))
	}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	one, half := big.NewRat(1, 1), big.NewRat(1, 2)
	for i, w := range want {
		d := r.Decisions[i]
		if d.Turn != w.turn || d.Seat != w.seat || d.State.Lead != w.lead {
			t.Fatalf("decision %d: turn %d, seat %d at lead %d; want turn %d, seat %d at lead %d", i, d.Turn+1, d.Seat, d.State.Lead, w.turn+1, w.seat, w.lead)
		}
		m := exact.Model{Pass: g.Rules.Pass, Variant: g.Rules.Variant}
		if lim := g.Rules.Variant.TurnLimit; lim > 0 {
			m.Variant.TurnLimit = lim - w.turn
		}
		ws, err := exact.CopiesWinChoiceValues(ctx, field.Rat{}, m, wmu, w.state, w.lead)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Options) != len(ws.Values) {
			t.Fatalf("decision %d: %d options, want the model's %d", i, len(d.Options), len(ws.Values))
		}
		best := new(big.Rat).SetInt64(-1)
		for j, wv := range ws.Values {
			score := wv.Score
			if wv.Choice == rules.Pass && w.afterPass { // the stalemate: the lead so far decides
				switch {
				case w.lead > 0:
					score = one
				case w.lead < 0:
					score = new(big.Rat)
				default:
					score = half
				}
			}
			if o := d.Options[j]; o.Choice != wv.Choice || o.Win.Cmp(score) != 0 {
				t.Errorf("decision %d (%s, lead %d, after a pass %v) option %d: %v win %v; want %v %v",
					i, w.state, w.lead, w.afterPass, j, o.Choice, o.Win, wv.Choice, score)
			}
			if score.Cmp(best) > 0 {
				best = score
			}
		}
		if d.Options[d.BestWin].Win.Cmp(best) != 0 {
			t.Errorf("decision %d: best to win %v at %v, want %v", i, d.Options[d.BestWin].Choice, d.Options[d.BestWin].Win, best)
		}
		if d.Chosen >= 0 && len(d.Options) > 1 {
			made := new(big.Rat).SetInt64(-1) // the best to win of the choices the cards fit
			for _, o := range d.Options {
				for _, c := range d.Made {
					if o.Choice == c && o.Win.Cmp(made) > 0 {
						made = o.Win
					}
				}
			}
			if cost := new(big.Rat).Sub(best, made); d.CostWin.Cmp(cost) != 0 {
				t.Errorf("decision %d: costs %v win, want %v", i, d.CostWin, cost)
			}
		}
		seat0 := best // seat 0's win score at the decision, both seats playing to win
		if w.seat != 0 {
			seat0 = new(big.Rat).Sub(one, best)
		}
		if r.Through[i].Win.Cmp(seat0) != 0 {
			t.Errorf("decision %d: seat 0's evaluation %v win, want %v", i, r.Through[i].Win, seat0)
		}
	}
}

// TestVariantReviewOfCopiesWinScoresUnderTurnLimit checks the win scores of a game of four copies
// of a face under a turn limit of 4 and pass rule never, whose last turn is seat 0's, behind by a
// pair. Deal 0 0 1 1 0 0 1 1. Seat 0 misses (0 and 2); seat 1 takes a pair of face 1 with a new
// card and the one seen, then turns a new card of face 1 and the card of face 0 seen (safe, a
// miss); seat 0, at lead -1 with one turn left, takes a pair: a draw.
func TestVariantReviewOfCopiesWinScoresUnderTurnLimit(t *testing.T) {
	g := variantGame(t, record.Rules{Pairs: 4, Variant: rules.Variant{Copies: 4, TurnLimit: 4}},
		record.Flip(0, 0), record.Flip(2, 1),
		record.Flip(3, 1), record.Flip(2, 1),
		record.Flip(6, 1), record.Flip(0, 0),
		record.Flip(7, 1), record.Flip(6, 1))
	if !g.Result.Over || !g.Result.Limited || g.Result.Scores[0] != g.Result.Scores[1] {
		t.Fatalf("result %+v, want a draw ended by the turn limit", g.Result)
	}
	r, err := review.VariantGame(context.Background(), field.Rat{}, g, true)
	if err != nil {
		t.Fatal(err)
	}
	checkCopiesWinReview(t, g, r)
	d := r.Decisions[len(r.Decisions)-1]
	if d.Seat != 0 || d.State.Lead != -1 || d.TurnsLeft != 1 {
		t.Fatalf("the last decision: seat %d at lead %d, %d turns left; want seat 0 at lead -1, 1 left", d.Seat, d.State.Lead, d.TurnsLeft)
	}
	// Behind by a pair with one turn left, a draw at best: both faces have a card seen, so a new
	// card's partner is known and daring or safe takes a pair for sure (win score 1/2).
	if w := d.Options[d.BestWin].Win; w.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("the last decision: best win score %v, want 1/2", w)
	}
}
