// Package review judges the decisions of a recorded game of Memory (docs/records.md) against
// the exact values of its model: for every card a seat chose to turn, the value of each option
// open then, in expected pairs (both seats playing optimally afterwards) and in win score
// (P(win) + P(draw)/2, both seats playing to win afterwards), the option taken and what it cost;
// for every card turned at random, the luck of what it showed. The values are those of perfect
// memory: a review says what a player who remembered every card shown would have done.
//
// A turn is two decisions. The first is which card to turn first: a card of a pair known whole
// (take it), a new card, a seen card, or a pass. The second, once the first card is seen, is which
// card to turn second: the first card's partner when it is known, a new card, or a seen card. The
// options the model's players have (docs/models.md §3) are marked; an option outside them, such
// as leaving a known pair on the table, is valued all the same.
package review

import (
	"context"
	"errors"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// Option is one move open at a decision, with its value to the mover.
type Option[T any] struct {
	// Move names the option: see the Move constants.
	Move string
	// Model reports whether the model's players may make this move (docs/models.md §3): an
	// option outside the model is valued all the same.
	Model bool
	// Pairs is the mover's expected pairs from the start of the turn on (the pairs of this turn
	// included), both seats playing optimally afterwards; Win is its win score, both playing to
	// win afterwards (zero when the review has no win values).
	Pairs, Win T
}

// Names of the moves at a decision.
const (
	MoveTakeKnown  = "take a known pair"  // first card: a card of a pair known whole
	MoveNew        = "a new card"         // a card never seen, at random
	MoveHalfKnown  = "a half-known card"  // first card: the seen card of a pair whose other card is hidden
	MoveSeenSingle = "a seen singleton"   // first card: a singleton seen before
	MovePass       = "pass"               // first card: no card at all
	MovePartner    = "its partner"        // second card: the first card's partner, seen
	MoveSeen       = "a seen card"        // second card: a seen card that is not the first card's partner
	MoveKnownOther = "another known card" // second card after a known first card: a pass, as it turns nothing new
	moveNone       = ""
)

// Decision is the choice of one card (or of a pass), with the options open then.
type Decision[T any] struct {
	// Turn is the turn's index in the game (from 0), Seat the mover, Card 1 or 2.
	Turn, Seat, Card int
	// Move is the index in Game.Moves of the move made.
	Move int
	// State is the count state at the start of the turn (record.Table.State), Whole the pairs
	// then known whole, AfterPass whether the turn before was the other seat's pass.
	State     rules.State
	Whole     int
	AfterPass bool
	// Revealed, for a second card, says what the first card was: "a card of an unknown pair",
	// "the partner of a seen card", "an unseen singleton", or the move it was.
	Revealed string
	// Options are the moves open, Chosen the index of the one made.
	Options []Option[T]
	Chosen  int
	// BestPairs and BestWin are the best values of the model's options, each measure on its own;
	// CostPairs and CostWin what the move made lost against them (negative for a move outside the
	// model that does better than the model's best).
	BestPairs, BestWin T
	CostPairs, CostWin T
	// LuckPairs and LuckWin are the luck of the card the move turned, when it was a new card:
	// the value once it is seen less the value before (zero otherwise).
	LuckPairs, LuckWin T
}

// Seat sums up one seat's decisions.
type Seat[T any] struct {
	Name string
	// Decisions counts the decisions with more than one option; Best those at the model's best
	// value in expected pairs (BestWin: in win score).
	Decisions, Best, BestWin int
	// LostPairs and LostWin add up the decisions' costs; LuckPairs and LuckWin their luck.
	LostPairs, LostWin T
	LuckPairs, LuckWin T
}

// Review is the review of one game.
type Review[T any] struct {
	Game *record.Game
	// Win reports whether the win scores are part of the review.
	Win bool
	// StartPairs and StartWin are seat 0's value at the start; the final values are the game's
	// scores and result.
	StartPairs, StartWin T
	Decisions            []Decision[T]
	Seats                [2]Seat[T]
	// Through[k] is seat 0's expected final pairs and win score after k decisions (Through[0] at
	// the start): the evaluation through the game.
	Through []score[T]
}

// Point is seat 0's value at a point of the game.
type Point[T any] struct{ Pairs, Win T }

// Evaluation returns seat 0's expected final pairs (its pairs so far included) and win score
// after each decision, the start first.
func (r *Review[T]) Evaluation() []Point[T] {
	out := make([]Point[T], len(r.Through))
	for i, s := range r.Through {
		out[i] = Point[T]{s.pairs, s.win}
	}
	return out
}

// ErrSeats is the error of a game whose seats the review cannot value: the exact values are those
// of two seats.
var ErrSeats = errors.New("a review needs a two-seat game: the exact values are those of two seats")

// VariantError is the error of a game under a rule variant (docs/models.md §1.7): the review's
// values are those of the standard game, and it has none for the variant.
type VariantError struct {
	Variant rules.Variant
}

// Error says that the review has no values for the variant.
func (e *VariantError) Error() string {
	return fmt.Sprintf("the review has no values for %s: its exact values are those of the standard game", e.Variant)
}

// checkStandard returns a *VariantError for a game under a rule variant.
func checkStandard(g *record.Game) error {
	if v := g.Rules.Variant; !v.Standard() {
		return &VariantError{Variant: v}
	}
	return nil
}

// Model returns the exact model a game is reviewed in: perfect memory, the game's pass rule,
// singletons and choice set.
func Model(g *record.Game) exact.Model {
	return exact.Model{Pass: g.Rules.Pass, Singletons: g.Rules.Singletons, Choices: g.Rules.Choices}
}

// Game reviews game g with values v, which must be of g's model (Model(g)) and cover its pairs.
func Game[T any](ctx context.Context, v *Values[T], g *record.Game) (*Review[T], error) {
	if g.Rules.Seats != 2 {
		return nil, ErrSeats
	}
	if err := checkStandard(g); err != nil {
		return nil, err
	}
	if m := Model(g); v.model != m || v.maxPairs < g.Rules.Pairs {
		return nil, fmt.Errorf("the values are of %d pairs in another model than the game's", v.maxPairs)
	}
	w := walker[T]{e: evaluator[T]{v: v}, g: g, f: v.f, r: &Review[T]{Game: g, Win: v.Win()}}
	return w.walk(ctx)
}

// walker walks a game's turns.
type walker[T any] struct {
	e evaluator[T]
	f field.Field[T]
	g *record.Game
	r *Review[T]
	// seen[pos] says the card at pos was seen before the current move.
	seen []bool
	// pos0 is seat 0's expected final value now.
	now score[T]
}

func (w *walker[T]) walk(ctx context.Context) (*Review[T], error) {
	g, f := w.g, w.f
	w.seen = make([]bool, g.Rules.Cards())
	for i := range w.r.Seats {
		w.r.Seats[i] = Seat[T]{LostPairs: f.FromInt(0), LostWin: f.FromInt(0), LuckPairs: f.FromInt(0), LuckWin: f.FromInt(0)}
		if i < len(g.Players) {
			w.r.Seats[i].Name = g.Players[i].Name
		}
	}
	// The start: seat 0 to move on the table as dealt (a game may stop before its first move).
	start := w.e.moverAt(tableOf(record.Turn{Seat: 0, Before: record.Table{Pairs: g.Rules.Pairs, Unknown: g.Rules.Pairs,
		Singletons: g.Rules.Singletons, UnseenSingletons: g.Rules.Singletons, Taken: make([]int, g.Rules.Seats)}}))
	w.r.StartPairs, w.r.StartWin = start.pairs, start.win
	w.now = start
	w.r.Through = append(w.r.Through, start)
	for k, turn := range g.Turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w.turn(k, turn, tableOf(turn))
	}
	return w.r, nil
}

// tableOf returns the table at the start of a recorded turn, the mover's lead included.
func tableOf(turn record.Turn) table {
	b := turn.Before
	t := table{n: b.Pairs, j: b.Unknown, w: b.Whole, h: b.Pairs - b.Unknown - b.Whole, s: b.Singletons,
		f: b.UnseenSingletons, afterPass: b.AfterPass}
	t.d = b.Taken[turn.Seat] - b.Taken[1-turn.Seat]
	return t
}

// allowed returns which second cards the model's players turn after a first card of class c in
// table t: the known partner; after a new card of an unknown pair, a new card (daring) or, where
// safe is open, a seen card; after a seen first card (known-first), a new card or, where a pass
// is open, a seen one (two seen cards that are not a pair are a pass); after a new singleton, a
// seen card if there is one, else a new card (docs/models.md §3.2).
func (w *walker[T]) allowed(t table) func(c class, o option) bool {
	m := w.e.v.model
	st := rules.State{N: t.n - t.w, J: t.j, S: t.s, F: t.f}
	passOK := m.Legal(st, rules.Pass)
	safeOK := m.Choices.Has(rules.Safe)
	seen := t.seen() > 0
	return func(c class, o option) bool {
		switch c {
		case classWhole, classNewPartner:
			return o == optPartner
		case classHalf, classSingleton:
			return o == optNew || o == optSeen && passOK
		case classNewPair:
			return o == optNew || o == optSeen && safeOK
		case classNewSingle:
			return o == optSeen && seen || o == optNew && !seen
		}
		return false
	}
}

// classify returns the class of a card turned at pos with face, as the table showed it before the
// turn: seen cards by their pair's state, new ones by what they turned out to be.
func (w *walker[T]) classify(pos, face int) class {
	g := w.g
	partner := -1
	if face < g.Rules.Pairs {
		for _, m := range g.Moves {
			if !m.Pass && m.Face == face && m.Pos != pos && w.seen[m.Pos] {
				partner = m.Pos
				break
			}
		}
	}
	switch {
	case w.seen[pos] && partner >= 0:
		return classWhole
	case w.seen[pos] && face < g.Rules.Pairs:
		return classHalf
	case w.seen[pos]:
		return classSingleton
	case partner >= 0:
		return classNewPartner
	case face < g.Rules.Pairs:
		return classNewPair
	}
	return classNewSingle
}

// revealed names a first card's class for a second card's decision.
var revealed = [...]string{
	classWhole:      "a card of a pair known whole",
	classHalf:       "the seen card of a half-known pair",
	classSingleton:  "a seen singleton",
	classNewPair:    "a new card of an unknown pair",
	classNewPartner: "a new card whose partner was seen",
	classNewSingle:  "a new singleton",
}

// turn reviews one turn: its first decision and, when it has one, its second.
func (w *walker[T]) turn(k int, turn record.Turn, t table) {
	g, e := w.g, w.e
	base := Decision[T]{Turn: k, Seat: turn.Seat, Card: 1, Move: turn.First, State: turn.Before.State(turn.Seat),
		Whole: t.w, AfterPass: t.afterPass}

	// The first decision.
	d := base
	first := g.Moves[turn.First]
	chosen := MovePass
	var x class
	if !first.Pass {
		x = w.classify(first.Pos, first.Face)
		chosen = firstMove[x]
	}
	d.Options = w.firstOptions(t, first.Pass)
	w.decide(&d, chosen)
	if !first.Pass && x >= classNew {
		// The luck of the new first card: the value once it is seen, less the value before.
		sc, _ := e.bestSecondOrAny(t, x, w.allowed(t))
		w.luck(&d, sc)
	}
	w.record(d, turn, t)
	w.markSeen(turn, 1)
	if turn.Moves < 2 {
		return
	}

	// The second decision.
	d = base
	d.Card, d.Move, d.Revealed = 2, turn.First+1, revealed[x]
	second := g.Moves[turn.First+1]
	_, _, partnerSeen, firstSeen := afterFirst(t, x)
	var y option
	switch {
	case second.Face == first.Face && partnerSeen:
		y = optPartner
	case !w.seenBefore(second.Pos, turn):
		y = optNew
	default:
		y = optSeen
	}
	d.Options = w.secondOptions(t, x, y)
	w.decide(&d, secondMove(y, firstSeen))
	if y == optNew {
		w.luck(&d, w.realized(t, x, first, second))
	}
	w.record(d, turn, t)
	w.markSeen(turn, 2)
}

// firstMove names the first card of each class (a new card's class is what it turned out to be).
var firstMove = [...]string{classWhole: MoveTakeKnown, classHalf: MoveHalfKnown, classSingleton: MoveSeenSingle,
	classNew: MoveNew, classNewPair: MoveNew, classNewPartner: MoveNew, classNewSingle: MoveNew}

// secondMove names a second-card option; a seen card after a seen first card is another known
// card.
func secondMove(o option, firstSeen bool) string {
	switch {
	case o == optPartner:
		return MovePartner
	case o == optNew:
		return MoveNew
	case firstSeen:
		return MoveKnownOther
	}
	return MoveSeen
}

// firstOptions returns the options for the first card of a turn begun in t; pass lists the
// pass even where the rule does not allow one (a record that holds one).
func (w *walker[T]) firstOptions(t table, pass bool) []Option[T] {
	e, m := w.e, w.e.v.model
	allowed := w.allowed(t)
	modelFirst := t.w == 0
	var opts []Option[T]
	for _, c := range []struct {
		move  string
		c     class
		model bool
	}{
		{MoveTakeKnown, classWhole, true},
		{MoveNew, classNew, modelFirst},
		{MoveHalfKnown, classHalf, modelFirst && m.Choices.Has(rules.KnownFirst)},
		{MoveSeenSingle, classSingleton, modelFirst && t.h == 0 && m.Choices.Has(rules.KnownFirst)},
	} {
		if sc, ok := e.first(t, c.c, allowed); ok {
			opts = append(opts, Option[T]{Move: c.move, Model: c.model, Pairs: sc.pairs, Win: sc.win})
		}
	}
	if w.passAllowed(t) || pass {
		sc := e.pass(t)
		st := rules.State{N: t.n - t.w, J: t.j, S: t.s, F: t.f}
		opts = append(opts, Option[T]{Move: MovePass, Model: modelFirst && m.Legal(st, rules.Pass), Pairs: sc.pairs, Win: sc.win})
	}
	return opts
}

// secondOptions returns the options for the second card of a turn begun in t, after a first card
// of class x. Two seen cards that are not a pair are a pass: after a seen first card, a seen
// second card is an option only where the pass rule allows a pass, or where the record holds it
// (made: a player that forgot may have made it).
func (w *walker[T]) secondOptions(t table, x class, made option) []Option[T] {
	allowed := w.allowed(t)
	_, _, _, firstSeen := afterFirst(t, x)
	var opts []Option[T]
	only := !w.passAllowed(t) && made != optSeen
	if _, ok := w.e.second(t, x, optNew); !ok {
		only = false // no other card to turn: the seen one is the only move left
	}
	for _, o := range []option{optPartner, optNew, optSeen} {
		if o == optSeen && firstSeen && only {
			continue
		}
		if sc, ok := w.e.second(t, x, o); ok {
			opts = append(opts, Option[T]{Move: secondMove(o, firstSeen), Model: allowed(x, o), Pairs: sc.pairs, Win: sc.win})
		}
	}
	return opts
}

// Next returns the decision the seat to move faces now in game g, a game in progress (not over):
// its first card, or, when the game stops after a turn's first card, its second; the options
// are valued as in a review, Chosen is -1 and there are no costs or luck. It is the question a
// coach answers: what is each move worth here?
func Next[T any](ctx context.Context, v *Values[T], g *record.Game) (*Decision[T], error) {
	if g.Result.Over {
		return nil, errors.New("the game is over: there is no decision to make")
	}
	if g.Rules.Seats != 2 {
		return nil, ErrSeats
	}
	if err := checkStandard(g); err != nil {
		return nil, err
	}
	if m := Model(g); v.model != m || v.maxPairs < g.Rules.Pairs {
		return nil, fmt.Errorf("the values are of %d pairs in another model than the game's", v.maxPairs)
	}
	w := walker[T]{e: evaluator[T]{v: v}, g: g, f: v.f, r: &Review[T]{Game: g, Win: v.Win()}}
	w.seen = make([]bool, g.Rules.Cards())
	for i := range w.r.Seats {
		w.r.Seats[i] = Seat[T]{LostPairs: v.f.FromInt(0), LostWin: v.f.FromInt(0), LuckPairs: v.f.FromInt(0), LuckWin: v.f.FromInt(0)}
	}
	if n := len(g.Turns); n > 0 && g.Turns[n-1].End == record.EndUnfinished {
		// The second card of the last turn: the turns before it, then its first card.
		for k, turn := range g.Turns[:n-1] {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			w.turn(k, turn, tableOf(turn))
		}
		turn := g.Turns[n-1]
		t := tableOf(turn)
		first := g.Moves[turn.First]
		x := w.classify(first.Pos, first.Face)
		d := &Decision[T]{Turn: n - 1, Seat: turn.Seat, Card: 2, Move: turn.First + 1, State: turn.Before.State(turn.Seat),
			Whole: t.w, AfterPass: t.afterPass, Revealed: revealed[x], Chosen: -1}
		d.Options = w.secondOptions(t, x, noOption)
		w.best(d)
		return d, nil
	}
	next := record.Turn{Seat: g.Result.Mover, Before: g.Result.Next, First: len(g.Moves)}
	t := tableOf(next)
	d := &Decision[T]{Turn: len(g.Turns), Seat: next.Seat, Card: 1, Move: len(g.Moves), State: next.Before.State(next.Seat),
		Whole: t.w, AfterPass: t.afterPass, Chosen: -1}
	d.Options = w.firstOptions(t, false)
	w.best(d)
	return d, nil
}

// passAllowed reports whether the pass rule lets the mover pass in t, judged by the cards the
// table has shown.
func (w *walker[T]) passAllowed(t table) bool {
	switch w.g.Rules.Pass {
	case rules.PassTwoKnown:
		return t.seen() >= 2
	case rules.PassAlways:
		return true
	}
	return false
}

// decide sets the chosen option of d, the best values of the model's options (of every option
// when the model has none here) and the costs.
func (w *walker[T]) decide(d *Decision[T], move string) {
	f := w.f
	d.Chosen = -1
	for i, o := range d.Options {
		if o.Move == move {
			d.Chosen = i
		}
	}
	if d.Chosen < 0 {
		panic(fmt.Sprintf("review: turn %d card %d: the move made (%s) is not among the options", d.Turn, d.Card, move))
	}
	w.best(d)
	c := d.Options[d.Chosen]
	d.CostPairs, d.CostWin = f.Sub(d.BestPairs, c.Pairs), f.Sub(d.BestWin, c.Win)
	// A move the field finds as good as the best costs nothing (in float64, not a rounding error).
	if f.Cmp(c.Pairs, d.BestPairs) == 0 {
		d.CostPairs = f.FromInt(0)
	}
	if f.Cmp(c.Win, d.BestWin) == 0 {
		d.CostWin = f.FromInt(0)
	}
	d.LuckPairs, d.LuckWin = f.FromInt(0), f.FromInt(0)
}

// best sets the best values of d's model options (of every option when the model has none).
func (w *walker[T]) best(d *Decision[T]) {
	f := w.f
	anyModel := false
	for _, o := range d.Options {
		anyModel = anyModel || o.Model
	}
	have := false
	for _, o := range d.Options {
		if anyModel && !o.Model {
			continue
		}
		if !have || f.Cmp(o.Pairs, d.BestPairs) > 0 {
			d.BestPairs = o.Pairs
		}
		if !have || f.Cmp(o.Win, d.BestWin) > 0 {
			d.BestWin = o.Win
		}
		have = true
	}
}

// luck sets the luck of d's random card: the value once it is seen, sc, less the chosen option's.
func (w *walker[T]) luck(d *Decision[T], sc score[T]) {
	c := d.Options[d.Chosen]
	d.LuckPairs = w.f.Sub(sc.pairs, c.Pairs)
	if w.r.Win {
		d.LuckWin = w.f.Sub(sc.win, c.Win)
	}
}

// record adds decision d of a turn begun in t to the review: the seat's sums and seat 0's value
// once the decision is made and its card seen.
func (w *walker[T]) record(d Decision[T], turn record.Turn, t table) {
	f := w.f
	w.r.Decisions = append(w.r.Decisions, d)
	s := &w.r.Seats[d.Seat]
	if len(d.Options) > 1 {
		s.Decisions++
		if f.IsZero(d.CostPairs) {
			s.Best++
		}
		if f.IsZero(d.CostWin) {
			s.BestWin++
		}
	}
	s.LostPairs, s.LostWin = f.Add(s.LostPairs, d.CostPairs), f.Add(s.LostWin, d.CostWin)
	s.LuckPairs, s.LuckWin = f.Add(s.LuckPairs, d.LuckPairs), f.Add(s.LuckWin, d.LuckWin)
	c := d.Options[d.Chosen]
	mover := score[T]{pairs: f.Add(c.Pairs, d.LuckPairs), win: f.Add(c.Win, d.LuckWin)}
	seat0 := score[T]{pairs: f.FromInt(int64(turn.Before.Taken[0])), win: mover.win}
	if d.Seat == 0 {
		seat0.pairs = f.Add(seat0.pairs, mover.pairs)
	} else {
		seat0.pairs = f.Add(seat0.pairs, f.Sub(f.FromInt(int64(t.n)), mover.pairs))
		seat0.win = f.Sub(f.FromInt(1), mover.win)
	}
	if !w.r.Win {
		seat0.win = f.FromInt(0)
	}
	w.r.Through = append(w.r.Through, seat0)
}

// markSeen marks the cards of the turn's first moves as seen.
func (w *walker[T]) markSeen(turn record.Turn, moves int) {
	for i := turn.First; i < turn.First+moves; i++ {
		if m := w.g.Moves[i]; !m.Pass {
			w.seen[m.Pos] = true
		}
	}
}

// seenBefore reports whether the card at pos had been seen before the turn (the turn's first
// card is marked seen by then, but a second card is never the first).
func (w *walker[T]) seenBefore(pos int, _ record.Turn) bool { return w.seen[pos] }

// realized returns the value to the mover of the end of a turn whose second card, second, was new,
// after the first card, first, of class x, in table t at the turn's start.
func (w *walker[T]) realized(t table, x class, first, second record.Move) score[T] {
	after, partnerHidden, _, _ := afterFirst(t, x)
	k := revealSingle
	switch {
	case second.Face == first.Face:
		k = revealLucky
	case second.Face < w.g.Rules.Pairs && w.classify(second.Pos, second.Face) == classNewPartner:
		k = revealHidden
	case second.Face < w.g.Rules.Pairs:
		k = revealPair
	}
	_, sc := w.e.newBranch(after, partnerHidden, k)
	return sc
}
