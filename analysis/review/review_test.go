package review_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// hashTable returns a choice table that plays a legal choice picked by a hash of the state, so
// that games hold every kind of turn.
func hashTable(t *testing.T, m exact.Model, pairs, salt int) *rules.ChoiceTable {
	t.Helper()
	tb, err := rules.NewChoiceTable(pairs, m.Singletons)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= m.Singletons; f++ {
				for _, after := range []bool{false, true} {
					st := rules.State{N: n, J: j, S: m.Singletons, F: f}
					var legal []rules.Choice
					for _, c := range rules.Choices() {
						if m.Legal(st, c) {
							legal = append(legal, c)
						}
					}
					h := n*131 + j*31 + f*7 + salt*101
					if after {
						h += 3
					}
					tb.Set(st, after, legal[h%len(legal)])
				}
			}
		}
	}
	return tb
}

// playRecord plays a game in the engine and returns its record.
func playRecord(t testing.TB, m exact.Model, pairs int, seats [2]*rules.ChoiceTable, deal uint64) *record.Game {
	t.Helper()
	setup := sim.Setup{Pairs: pairs, Singletons: m.Singletons, Pass: m.Pass,
		Players: []sim.Player{{Name: "a", Table: seats[0]}, {Name: "b", Table: seats[1]}}}
	game, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	var l sim.Log
	if err := game.Play(sim.GameID{Seed: 3, PlayStream: 1, Index: deal}, &l); err != nil {
		t.Fatal(err)
	}
	g := &record.Game{Rules: record.Rules{Pairs: pairs, Singletons: m.Singletons, Seats: 2, Pass: m.Pass},
		Ended: game.Outcome().Stalemate}
	for _, turn := range l.Turns {
		if len(turn.Flips) == 0 {
			g.Moves = append(g.Moves, record.PassMove())
		}
		for _, c := range turn.Flips {
			g.Moves = append(g.Moves, record.Flip(c.Pos, c.Face))
		}
	}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	return g
}

// seat0 returns a mover's value as seat 0 sees it: its expected final pairs (pairs so far
// included) and its win score.
func seat0(d review.Decision[*big.Rat], pairs, win *big.Rat, g *record.Game) (*big.Rat, *big.Rat) {
	turn := g.Turns[d.Turn]
	p := new(big.Rat).SetInt64(int64(turn.Before.Taken[0]))
	if d.Seat == 0 {
		return p.Add(p, pairs), win
	}
	p.Add(p, new(big.Rat).Sub(new(big.Rat).SetInt64(int64(turn.Before.Pairs)), pairs))
	return p, new(big.Rat).Sub(big.NewRat(1, 1), win)
}

// TestReviewValuesAddUpToTheResult checks a review's values against each other and against the
// game's result, in games the engine plays under every pass rule, with singletons, between
// policies that make every kind of choice: the best value at each decision is the value the
// decision before left (once its card was seen), and the value after the last decision is the
// game's result, seat 0's pairs and its win (1, 1/2 or 0). So the start value, the costs and the
// luck add up exactly to the result.
func TestReviewValuesAddUpToTheResult(t *testing.T) {
	t.Parallel()
	const pairs = 6
	deals := uint64(8)
	if testing.Short() {
		deals = 4
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, singletons := range []int{0, 1} {
			m := exact.Model{Pass: pass, Singletons: singletons}
			v, err := review.NewValues(context.Background(), field.Rat{}, m, pairs, true)
			if err != nil {
				t.Fatal(err)
			}
			for deal := range deals {
				g := playRecord(t, m, pairs, [2]*rules.ChoiceTable{hashTable(t, m, pairs, 0), hashTable(t, m, pairs, int(deal))}, deal)
				r, err := review.Game(context.Background(), v, g)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("pass %v, %d singletons, deal %d", pass, singletons, deal)
				through := r.Evaluation()
				if len(through) != len(r.Decisions)+1 {
					t.Fatalf("%s: %d points for %d decisions", name, len(through), len(r.Decisions))
				}
				for k, d := range r.Decisions {
					p, w := seat0(d, d.BestPairs, d.BestWin, g)
					if p.Cmp(through[k].Pairs) != 0 || w.Cmp(through[k].Win) != 0 {
						t.Errorf("%s: decision %d (turn %d card %d): best %v, %v as seat 0 sees it; the decision before left %v, %v",
							name, k, d.Turn, d.Card, p.RatString(), w.RatString(), through[k].Pairs.RatString(), through[k].Win.RatString())
					}
				}
				last := through[len(through)-1]
				res := g.Result
				wantWin := big.NewRat(1, 2)
				switch {
				case res.Scores[0] > res.Scores[1]:
					wantWin = big.NewRat(1, 1)
				case res.Scores[0] < res.Scores[1]:
					wantWin = new(big.Rat)
				}
				wantPairs := new(big.Rat).SetFloat64(res.Scores[0])
				if last.Pairs.Cmp(wantPairs) != 0 || last.Win.Cmp(wantWin) != 0 {
					t.Errorf("%s: the review ends at %v pairs, win %v; the game at %v, %v", name,
						last.Pairs.RatString(), last.Win.RatString(), wantPairs.RatString(), wantWin.RatString())
				}
			}
		}
	}
}

// TestOptimalPlayCostsNothing checks that a game both seats play with the optimal policy's table
// has no decision that costs pairs, and that a game of the daring policy where safe is strictly
// better somewhere shows a cost there.
func TestOptimalPlayCostsNothing(t *testing.T) {
	t.Parallel()
	const pairs = 8
	ctx := context.Background()
	m := exact.Model{}
	v, err := review.NewValues(ctx, field.Rat{}, m, pairs, false)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := exact.PolicyTable(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, pairs)
	if err != nil {
		t.Fatal(err)
	}
	daring, err := rules.FixedChoiceTable(rules.PolicyDaring, pairs, 0)
	if err != nil {
		t.Fatal(err)
	}
	costly := 0
	for deal := range uint64(20) {
		g := playRecord(t, m, pairs, [2]*rules.ChoiceTable{opt, daring}, deal)
		r, err := review.Game(ctx, v, g)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range r.Decisions {
			if d.CostPairs.Sign() < 0 || d.Seat == 0 && d.CostPairs.Sign() != 0 {
				t.Errorf("deal %d: seat %d's decision at turn %d card %d costs %v pairs", deal, d.Seat, d.Turn, d.Card, d.CostPairs.RatString())
			}
			if !d.Options[d.Chosen].Model {
				t.Errorf("deal %d: turn %d card %d: %q is outside the model, but both seats play the model", deal, d.Turn, d.Card, d.Options[d.Chosen].Move)
			}
			if d.Seat == 1 && d.CostPairs.Sign() > 0 {
				costly++
			}
		}
		if r.Seats[0].LostPairs.Sign() != 0 {
			t.Errorf("deal %d: the optimal seat lost %v pairs", deal, r.Seats[0].LostPairs.RatString())
		}
	}
	if costly == 0 {
		t.Error("the daring seat never chose worse than optimal in 20 games")
	}
}

// randomRecord returns the record of a game played by picking, at every flip, a card on the table
// uniformly at random, and passing now and then where the rule allows: play of every kind, most
// of it outside the model (known pairs left on the table, partners not taken).
func randomRecord(t *testing.T, m exact.Model, pairs int, seed uint64) *record.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	cards := 2*pairs + m.Singletons
	deal := make([]int, cards)
	for i := range deal {
		if i < 2*pairs {
			deal[i] = i / 2
		} else {
			deal[i] = pairs + i - 2*pairs
		}
	}
	rng.Shuffle(cards, func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	g := &record.Game{Rules: record.Rules{Pairs: pairs, Singletons: m.Singletons, Seats: 2, Pass: m.Pass}, Deal: deal}
	gone := make([]bool, cards)
	seen := make([]bool, cards)
	passes := 0 // turns in a row that were passes: two end the game in a stalemate
	for left := pairs; left > 0 && len(g.Moves) < 400 && passes < 2; {
		known := 0
		for p, s := range seen {
			if s && !gone[p] {
				known++
			}
		}
		if (m.Pass == rules.PassAlways || m.Pass == rules.PassTwoKnown && known >= 2) && rng.IntN(8) == 0 {
			g.Moves = append(g.Moves, record.PassMove())
			passes++
			continue
		}
		var on []int
		for p := range cards {
			if !gone[p] {
				on = append(on, p)
			}
		}
		a := on[rng.IntN(len(on))]
		b := a
		for b == a {
			b = on[rng.IntN(len(on))]
		}
		g.Moves = append(g.Moves, record.Flip(a, deal[a]), record.Flip(b, deal[b]))
		if seen[a] && seen[b] && deal[a] != deal[b] && m.Pass != rules.PassNever {
			passes++
		} else {
			passes = 0
		}
		seen[a], seen[b] = true, true
		if deal[a] == deal[b] {
			gone[a], gone[b] = true, true
			left--
		}
	}
	g.Ended = passes == 2
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestReviewOfRandomPlayAddsUp checks the same identities as TestReviewValuesAddUpToTheResult in
// games of random play, where most moves are outside the model, under every pass rule: the best
// value at each decision is what the decision before left, and a finished game ends at its
// result.
func TestReviewOfRandomPlayAddsUp(t *testing.T) {
	t.Parallel()
	const pairs = 5
	seeds := uint64(10)
	if testing.Short() {
		seeds = 5
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, singletons := range []int{0, 2} {
			m := exact.Model{Pass: pass, Singletons: singletons}
			v, err := review.NewValues(context.Background(), field.Rat{}, m, pairs, true)
			if err != nil {
				t.Fatal(err)
			}
			outside := 0
			for seed := range seeds {
				g := randomRecord(t, m, pairs, seed)
				r, err := review.Game(context.Background(), v, g)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("pass %v, %d singletons, seed %d", pass, singletons, seed)
				through := r.Evaluation()
				for k, d := range r.Decisions {
					if !d.Options[d.Chosen].Model {
						outside++
					}
					p, w := seat0(d, d.BestPairs, d.BestWin, g)
					if p.Cmp(through[k].Pairs) != 0 || w.Cmp(through[k].Win) != 0 {
						t.Errorf("%s: decision %d (turn %d card %d, %s after %s): best %v, %v as seat 0 sees it; the decision before left %v, %v",
							name, k, d.Turn, d.Card, d.Options[d.Chosen].Move, d.Revealed, p.RatString(), w.RatString(), through[k].Pairs.RatString(), through[k].Win.RatString())
						break
					}
				}
				if g.Result.Over {
					last := through[len(through)-1]
					if want := new(big.Rat).SetFloat64(g.Result.Scores[0]); last.Pairs.Cmp(want) != 0 {
						t.Errorf("%s: the review ends at %v pairs, the game at %v", name, last.Pairs.RatString(), want.RatString())
					}
				}
			}
			if outside == 0 {
				t.Errorf("pass %v: random play made no move outside the model", pass)
			}
		}
	}
}

// TestNextIsTheReviewsDecision checks the coach's question against the review: for every move of
// games of random play, the decision Next gives on the game up to that move has the options,
// values and best values of the review's decision at that move.
func TestNextIsTheReviewsDecision(t *testing.T) {
	t.Parallel()
	const pairs = 4
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		m := exact.Model{Pass: pass, Singletons: 1}
		v, err := review.NewValues(context.Background(), field.Rat{}, m, pairs, true)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(4) {
			g := randomRecord(t, m, pairs, seed)
			r, err := review.Game(context.Background(), v, g)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range r.Decisions {
				prefix := &record.Game{Rules: g.Rules, Moves: slices.Clone(g.Moves[:d.Move])}
				for i := range prefix.Moves {
					prefix.Moves[i].Seat = -1
				}
				if err := prefix.Check(); err != nil {
					t.Fatal(err)
				}
				next, err := review.Next(context.Background(), v, prefix)
				if err != nil {
					t.Fatalf("pass %v, seed %d, move %d: %v", pass, seed, d.Move, err)
				}
				knownOther := func(o review.Option[*big.Rat]) bool { return o.Move == review.MoveKnownOther }
				if pass == rules.PassNever && !slices.ContainsFunc(next.Options, knownOther) {
					// Two seen cards that are not a pair are a pass, which the rule never does
					// not allow: the review lists it where the record holds it, Next only where
					// it is the one move left.
					d.Options = slices.DeleteFunc(slices.Clone(d.Options), knownOther)
				}
				if next.Chosen != -1 || next.Seat != d.Seat || next.Card != d.Card || len(next.Options) != len(d.Options) ||
					next.BestPairs.Cmp(d.BestPairs) != 0 || next.BestWin.Cmp(d.BestWin) != 0 {
					t.Fatalf("pass %v, seed %d, move %d: Next gives seat %d card %d, %d options, best %v; the review seat %d card %d, %d options, best %v",
						pass, seed, d.Move, next.Seat, next.Card, len(next.Options), next.BestPairs, d.Seat, d.Card, len(d.Options), d.BestPairs)
				}
				for i, o := range next.Options {
					if w := d.Options[i]; o.Move != w.Move || o.Model != w.Model || o.Pairs.Cmp(w.Pairs) != 0 || o.Win.Cmp(w.Win) != 0 {
						t.Errorf("pass %v, seed %d, move %d: option %d is %+v in Next, %+v in the review", pass, seed, d.Move, i, o, w)
					}
				}
			}
		}
	}
}
