package review_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// anyRecord returns a game the record's referee accepts, built by proposing moves at random (a
// pass, or any card on the table) and keeping those the referee allows: passes where the rule
// allows them, a first move that is a pass, play that goes on after a stalemate, two seen cards
// that are not a pair under any rule. It stops when the game is over or after maxMoves moves.
func anyRecord(t *testing.T, r record.Rules, rng *rand.Rand, maxMoves int) *record.Game {
	t.Helper()
	cards := r.Cards()
	deal := make([]int, cards)
	for i := range deal {
		if i < 2*r.Pairs {
			deal[i] = i / 2
		} else {
			deal[i] = r.Pairs + i - 2*r.Pairs
		}
	}
	rng.Shuffle(cards, func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	g := &record.Game{Rules: r, Deal: deal}
	for tries := 0; len(g.Moves) < maxMoves && tries < 50*maxMoves; tries++ {
		m := record.Flip(0, 0)
		if rng.IntN(4) == 0 {
			m = record.PassMove()
		} else {
			m.Pos = rng.IntN(cards)
			m.Face = deal[m.Pos]
		}
		try := &record.Game{Rules: r, Deal: deal, Moves: append(slices.Clone(g.Moves), m)}
		if try.Check() != nil {
			continue
		}
		g = try
		if g.Result.Over {
			break
		}
	}
	return g
}

// TestReviewOfAnyAcceptedRecordHoldsTogether reviews every prefix of games the reader accepts,
// of every kind (singletons, passes under every rule, play after a stalemate, two seen cards
// that are not a pair under the rule never, unfinished turns, a first move that is a pass), and
// asks Next about each prefix not over: neither may fail, the review starts at a value and has
// a point of its evaluation per decision (a game with no move included), the move made is among
// the options, and a decision whose move made has the best value of the model's options costs
// nothing.
func TestReviewOfAnyAcceptedRecordHoldsTogether(t *testing.T) {
	t.Parallel()
	const pairs = 3
	ctx := context.Background()
	games := 12
	if testing.Short() {
		games = 3
	}
	choiceSets := []rules.ChoiceSet{rules.NewChoiceSet(rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass), rules.NewChoiceSet(rules.Daring),
		rules.NewChoiceSet(rules.Daring, rules.Pass)}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, singletons := range []int{0, 1} {
			for ci, cs := range choiceSets {
				r := record.Rules{Pairs: pairs, Singletons: singletons, Seats: 2, Pass: pass, Choices: cs}
				g0 := &record.Game{Rules: r}
				v, err := review.NewValues(ctx, field.Float{}, review.Model(g0), pairs, true)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(pass), uint64(singletons*10+ci)))
				for seed := range games {
					g := anyRecord(t, r, rng, 40)
					for k := 0; k <= len(g.Moves); k++ {
						name := fmt.Sprintf("pass %v, %d singletons, choices %v, game %d, %d moves", pass, singletons, cs, seed, k)
						checkPrefix(t, ctx, v, g, k, k == 0 || k == len(g.Moves), name)
					}
				}
			}
		}
	}
}

// checkPrefix reviews the first k moves of g and asks Next about them; draw asks for the review's
// JSON form too.
func checkPrefix(t *testing.T, ctx context.Context, v *review.Values[float64], g *record.Game, k int, draw bool, name string) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s: panic: %v", name, p)
		}
	}()
	for _, ended := range []bool{false, true} {
		prefix := &record.Game{Rules: g.Rules, Deal: g.Deal, Moves: slices.Clone(g.Moves[:k]), Ended: ended}
		for i := range prefix.Moves {
			prefix.Moves[i].Seat = -1
		}
		if err := prefix.Check(); err != nil {
			if ended {
				continue // not a stalemate here
			}
			t.Fatalf("%s: %v", name, err)
		}
		rv, err := review.Game(ctx, v, prefix)
		if err != nil {
			t.Fatalf("%s: review: %v", name, err)
		}
		if len(rv.Evaluation()) != len(rv.Decisions)+1 {
			t.Fatalf("%s: %d points of evaluation for %d decisions", name, len(rv.Evaluation()), len(rv.Decisions))
		}
		if draw {
			rv.JSON(v, 1)
		}
		for _, d := range rv.Decisions {
			if d.Chosen < 0 || d.Chosen >= len(d.Options) {
				t.Fatalf("%s: turn %d card %d: chosen %d of %d options", name, d.Turn, d.Card, d.Chosen, len(d.Options))
			}
			c := d.Options[d.Chosen]
			if c.Model && c.Pairs == d.BestPairs && d.CostPairs != 0 {
				t.Errorf("%s: turn %d card %d: the model's best move in pairs costs %v", name, d.Turn, d.Card, d.CostPairs)
			}
			if c.Model && c.Win == d.BestWin && d.CostWin != 0 {
				t.Errorf("%s: turn %d card %d: the model's best move in win score costs %v", name, d.Turn, d.Card, d.CostWin)
			}
			if c.Model && (d.CostPairs < 0 || d.CostWin < 0) {
				t.Errorf("%s: turn %d card %d: a move of the model gains on the model's best (%v, %v)", name, d.Turn, d.Card, d.CostPairs, d.CostWin)
			}
		}
		if prefix.Result.Over {
			if _, err := review.Next(ctx, v, prefix); err == nil {
				t.Errorf("%s: Next gives a decision in a game that is over", name)
			}
			continue
		}
		next, err := review.Next(ctx, v, prefix)
		if err != nil {
			t.Fatalf("%s: Next: %v", name, err)
		}
		if len(next.Options) == 0 {
			t.Errorf("%s: Next gives no option", name)
		}
	}
}

// TestReviewOfAGameWithNoMoveIsItsStart checks the review of a record that stops before its
// first move: of one pair, seat 0 takes it on its first turn, so it expects 1 pair and wins.
func TestReviewOfAGameWithNoMoveIsItsStart(t *testing.T) {
	ctx := context.Background()
	g := &record.Game{Rules: record.Rules{Pairs: 1, Seats: 2}}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	v, err := review.NewValues(ctx, field.Rat{}, review.Model(g), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	r, err := review.Game(ctx, v, g)
	if err != nil {
		t.Fatal(err)
	}
	one := big.NewRat(1, 1)
	if r.StartPairs == nil || r.StartPairs.Cmp(one) != 0 || r.StartWin == nil || r.StartWin.Cmp(one) != 0 {
		t.Fatalf("start %v pairs, win %v; want 1 and 1", r.StartPairs, r.StartWin)
	}
	if ev := r.Evaluation(); len(ev) != 1 || ev[0].Pairs.Cmp(one) != 0 {
		t.Errorf("evaluation %v, want the start alone", ev)
	}
	r.JSON(v, 1)
	if _, err := review.Figure(field.Rat{}, r); err != nil {
		t.Errorf("figure: %v", err)
	}
}
