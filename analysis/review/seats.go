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

// A game of three to eight seats is judged a turn at a time in the choices of the optimum of
// every seat for itself (docs/models.md §4.7): each turn that begins with no pair known whole is
// one decision, whose options are the legal choices (daring, safe, known-first, pass), each
// valued in the mover's expected pairs from the turn on, the choice made now and every seat
// maximising its own expected pairs afterwards. Under pass rule two-known or always the values
// depend on the pass streak, the seats that passed in a row just before the turn (a pass line,
// or two seen cards that are not a pair): the pass at the last streak is the stalemate, which
// shares the pairs left. The turn's cards say which choice was made, as in the review of a game
// under a rule variant (variant.go); a turn that fits no legal choice is outside the model and
// not judged, and a turn that begins with a pair known whole is the model's taking of that pair,
// not a decision. The values are those of perfect memory; there are no win scores.

// ErrNoSeatsValues is the error of a game of three or more seats the review has no values for:
// a rule variant, or a seat count outside 3 to rules.MaxPlayers.
var ErrNoSeatsValues = errors.New("no values")

// SeatsModel returns the exact model a game of three or more seats is judged in: perfect memory,
// the game's pass rule, singletons and choice set; or an error wrapping ErrNoSeatsValues that
// says why there is none.
func SeatsModel(r record.Rules) (exact.Model, error) {
	m := exact.Model{Pass: r.Pass, Singletons: r.Singletons, Choices: r.Choices}
	switch {
	case r.Seats < 3 || r.Seats > rules.MaxPlayers:
		return m, fmt.Errorf("%w for %d seats: the review of every seat for itself needs 3 to %d", ErrNoSeatsValues, r.Seats, rules.MaxPlayers)
	case !r.Variant.Standard():
		return m, fmt.Errorf("%w for %s at %d seats: the review of three or more seats values the standard game", ErrNoSeatsValues, r.Variant, r.Seats)
	}
	return m, nil
}

// SeatsOption is a legal choice at a turn of a game of three or more seats, with the mover's
// expected pairs from the turn on (the pairs of this turn included), the choice made now and every
// seat for itself afterwards.
type SeatsOption[T any] struct {
	Choice rules.Choice
	Pairs  T
}

// SeatsDecision is one turn of a game of three or more seats, judged in the model's choices.
type SeatsDecision[T any] struct {
	// Turn is the turn's index in the game (from 0), Seat the mover, Move the index in Game.Moves
	// of the turn's first move.
	Turn, Seat, Move int
	// State is the count state at the start of the turn; Passes the pass streak, the seats that
	// passed in a row just before the turn (0 under pass rule never).
	State  rules.State
	Passes int
	// Options are the legal choices, in the order daring, safe, known-first, pass. Made lists
	// the choices the turn's cards fit; Chosen is the index in Options of the best of them, or -1
	// when the turn fits none (outside the model, not judged) or is not yet made.
	Options []SeatsOption[T]
	Made    []rules.Choice
	Chosen  int
	// Best is the index of the first option with the most expected pairs for the mover; Cost is
	// what the choice credited lost against it.
	Best int
	Cost T
	// Luck is the luck of the cards the turn turned at random: the mover's expected final pairs
	// once they are seen (at the next decision, or the game's result) less its expected final
	// pairs under the option credited. Zero for a turn not judged, a turn that turned no new
	// card, and the last turn of a game that stops before the next decision.
	Luck T
	// BySeat is every seat's expected pairs from the turn on, in seat order, every seat playing
	// the optimum from the turn on (the mover included).
	BySeat []T
}

// SeatsSeat sums up one seat's decisions in a game of three or more seats.
type SeatsSeat[T any] struct {
	Name string
	// Decisions counts the judged decisions with more than one option, Best those at the best
	// value; Lost adds up their costs and Luck the luck of the seat's turns.
	Decisions, Best int
	Lost, Luck      T
}

// SeatsReview is the review of a game of three or more seats.
type SeatsReview[T any] struct {
	Game  *record.Game
	Model exact.Model
	// Start is every seat's expected pairs at the start, in seat order, every seat playing the
	// optimum (nil when the game's first turn is not a decision).
	Start     []T
	Decisions []SeatsDecision[T]
	Seats     []SeatsSeat[T]
}

// SeatsGame reviews game g, of three to eight seats, in field f: every turn that begins with no
// pair known whole is valued by the optimum of every seat for itself (docs/models.md §4.7).
func SeatsGame[T any](ctx context.Context, f field.Field[T], g *record.Game) (*SeatsReview[T], error) {
	return seatsGame(ctx, f, g, rules.Memory{})
}

// seatsGame reviews game g, of three to eight seats, with the seats sharing memory mem.
func seatsGame[T any](ctx context.Context, f field.Field[T], g *record.Game, mem rules.Memory) (*SeatsReview[T], error) {
	sw, err := newSeatsWalker(f, g, mem)
	if err != nil {
		return nil, err
	}
	var ds []SeatsDecision[T]
	passes := 0
	for k, turn := range g.Turns {
		if turn.End == record.EndUnfinished {
			break
		}
		if sw.decision(turn.Before) {
			d := sw.position(k, turn.Seat, turn.First, turn.Before, passes)
			d.Made = sw.made(turn)
			ds = append(ds, d)
			sw.fresh = append(sw.fresh, sw.newCard(turn))
		}
		end := sw.end(turn)
		sw.play(turn)
		passes = sw.nextPasses(passes, end)
	}
	if err := sw.value(ctx, ds); err != nil {
		return nil, err
	}
	r := &SeatsReview[T]{Game: g, Model: sw.vw.m, Decisions: ds, Seats: make([]SeatsSeat[T], g.Rules.Seats)}
	z := f.FromInt(0)
	for i := range r.Seats {
		r.Seats[i] = SeatsSeat[T]{Lost: z, Luck: z}
		if i < len(g.Players) {
			r.Seats[i].Name = g.Players[i].Name
		}
	}
	for i := range ds {
		sw.decide(&ds[i], r)
	}
	sw.addLuck(r, sw.fresh)
	if len(ds) > 0 && ds[0].Turn == 0 {
		r.Start = ds[0].BySeat
	}
	return r, nil
}

// SeatsNext returns the decision the seat to move faces in game g of three or more seats, a game
// in progress: the choices of the turn it is to begin, or, when the game stops after a turn's
// first card, of the turn it is in (valued at its start). Chosen is -1 and there is no cost. It
// returns nil and no error when the turn begins with a pair known whole, which the model's
// players take (no decision).
func SeatsNext[T any](ctx context.Context, f field.Field[T], g *record.Game) (*SeatsDecision[T], error) {
	return SeatsNextMemory(ctx, f, g, rules.Memory{})
}

// SeatsNextMemory is SeatsNext with the seats sharing memory mem (SeatsMemoryModel).
func SeatsNextMemory[T any](ctx context.Context, f field.Field[T], g *record.Game, mem rules.Memory) (*SeatsDecision[T], error) {
	if g.Result.Over {
		return nil, errors.New("the game is over: there is no decision to make")
	}
	sw, err := newSeatsWalker(f, g, mem)
	if err != nil {
		return nil, err
	}
	k, seat, first, before := len(g.Turns), g.Result.Mover, len(g.Moves), g.Result.Next
	if n := len(g.Turns); n > 0 && g.Turns[n-1].End == record.EndUnfinished {
		last := g.Turns[n-1]
		k, seat, first, before = n-1, last.Seat, last.First, last.Before
	}
	passes := 0
	for _, turn := range g.Turns[:k] {
		end := sw.end(turn)
		sw.play(turn)
		passes = sw.nextPasses(passes, end)
	}
	if !sw.decision(before) {
		return nil, nil
	}
	ds := []SeatsDecision[T]{sw.position(k, seat, first, before, passes)}
	if err := sw.value(ctx, ds); err != nil {
		return nil, err
	}
	return &ds[0], nil
}

// seatsWalker walks the turns of a game of three or more seats.
type seatsWalker[T any] struct {
	vw *variantWalker[T] // the table as a perfect memory sees it, and the choices a turn fits
	p  int
	// lru is the shared lru memory the game is judged by, nil for perfect memory.
	lru *lruView
	// fresh says, for each decision in order, whether its turn turned a card the memory did not
	// hold.
	fresh []bool
}

func newSeatsWalker[T any](f field.Field[T], g *record.Game, mem rules.Memory) (*seatsWalker[T], error) {
	m, err := SeatsMemoryModel(g.Rules, mem)
	if err != nil {
		return nil, err
	}
	n := g.Rules.Cards()
	vw := &variantWalker[T]{f: f, g: g, m: m, faces: g.Rules.Pairs,
		seen: make([]bool, n), gone: make([]bool, n), face: make([]int, n)}
	sw := &seatsWalker[T]{vw: vw, p: g.Rules.Seats}
	if !mem.Perfect() {
		sw.lru = newLRUView(n, mem.Capacity)
	}
	return sw, nil
}

// decision reports whether a turn that begins on table before is a decision: no pair is known
// whole to the memory.
func (sw *seatsWalker[T]) decision(before record.Table) bool {
	if sw.lru != nil {
		return !sw.lru.whole()
	}
	return before.Whole == 0
}

// made returns the choices a completed turn's cards fit, as the memory stood before it.
func (sw *seatsWalker[T]) made(turn record.Turn) []rules.Choice {
	if sw.lru != nil {
		return sw.lru.made(sw.vw.g, turn)
	}
	return sw.vw.made(turn)
}

// newCard reports whether a turn turned a card the memory did not hold.
func (sw *seatsWalker[T]) newCard(turn record.Turn) bool {
	if sw.lru != nil {
		return sw.lru.newCard(sw.vw.g, turn)
	}
	return turnsNewCard(sw.vw.g, turn)
}

// end returns how a turn ended as the memory saw it before the turn: under a limited memory a
// turn of two cards it held that are not a pair is a pass, and two cards that are not a pair with
// one of them not held a miss.
func (sw *seatsWalker[T]) end(turn record.Turn) record.TurnEnd {
	if sw.lru == nil || turn.End == record.EndPair || turn.End == record.EndUnfinished {
		return turn.End
	}
	if made := sw.lru.made(sw.vw.g, turn); len(made) == 1 && made[0] == rules.Pass {
		return record.EndPass
	}
	return record.EndMiss
}

// play applies a turn's cards to the table and the memory.
func (sw *seatsWalker[T]) play(turn record.Turn) {
	sw.vw.play(turn)
	if sw.lru != nil {
		sw.lru.play(sw.vw.g, turn)
	}
}

// nextPasses returns the pass streak after a turn that ended with end, the streak before it
// passes: a pass (a pass line, or two seen cards that are not a pair) adds one, any other turn
// ends the streak. Under pass rule never there is no streak.
func (sw *seatsWalker[T]) nextPasses(passes int, end record.TurnEnd) int {
	if end != record.EndPass || sw.vw.m.Pass == rules.PassNever {
		return 0
	}
	return min(passes+1, sw.p-1)
}

// position returns the decision of the turn seat begins on table before at a pass streak, not
// yet valued.
func (sw *seatsWalker[T]) position(k, seat, first int, before record.Table, passes int) SeatsDecision[T] {
	st := before.State(seat).Counts()
	if sw.lru != nil {
		st = sw.lru.state(before.Pairs)
	}
	return SeatsDecision[T]{Turn: k, Seat: seat, Move: first, State: st, Passes: passes, Chosen: -1}
}

// seatsCell is what a review keeps of a cell of the table of every seat for itself.
type seatsCell[T any] struct {
	legal  [rules.NumChoices]bool
	value  [rules.NumChoices]T
	bySeat []T // in order from the mover
}

type seatsKey struct {
	st     rules.State
	passes int
}

// errSeatsDone stops the table's sweep once every cell asked for is found.
var errSeatsDone = errors.New("every cell found")

// value sets the options of the decisions ds from one sweep of the table of every seat for
// itself up to the largest state among them.
func (sw *seatsWalker[T]) value(ctx context.Context, ds []SeatsDecision[T]) error {
	if len(ds) == 0 {
		return nil
	}
	f := sw.vw.f
	want := map[seatsKey]*seatsCell[T]{}
	most := 0
	for _, d := range ds {
		want[seatsKey{d.State, d.Passes}] = nil
		most = max(most, d.State.N)
	}
	left := len(want)
	err := exact.SelfishTable(ctx, f, sw.vw.m, sw.p, most, func(c *exact.TableCell[T]) error {
		key := seatsKey{c.State.Counts(), c.Passes}
		if v, ok := want[key]; !ok || v != nil {
			return nil
		}
		cell := &seatsCell[T]{legal: c.Legal, bySeat: append([]T(nil), c.BySeat...)}
		for _, ch := range rules.Choices() {
			if c.Legal[ch] {
				cell.value[ch] = c.ChoiceValue[ch]
			}
		}
		want[key] = cell
		if left--; left == 0 {
			return errSeatsDone
		}
		return nil
	})
	if err != nil && !errors.Is(err, errSeatsDone) {
		return fmt.Errorf("the choices' values at %d seats: %w", sw.p, err)
	}
	for i := range ds {
		d := &ds[i]
		cell := want[seatsKey{d.State, d.Passes}]
		if cell == nil {
			return fmt.Errorf("turn %d: %v at pass streak %d: not reached by the table", d.Turn+1, d.State, d.Passes)
		}
		for _, ch := range rules.Choices() {
			if cell.legal[ch] {
				d.Options = append(d.Options, SeatsOption[T]{Choice: ch, Pairs: cell.value[ch]})
			}
		}
		d.Best = 0
		for j, o := range d.Options {
			if f.Cmp(o.Pairs, d.Options[d.Best].Pairs) > 0 {
				d.Best = j
			}
		}
		d.BySeat = make([]T, sw.p)
		for j, v := range cell.bySeat {
			d.BySeat[(d.Seat+j)%sw.p] = v
		}
		d.Cost, d.Luck = f.FromInt(0), f.FromInt(0)
	}
	return nil
}

// decide sets d's chosen option, the best of those the turn's cards fit, and its cost, and adds
// them to the seat's sums in r.
func (sw *seatsWalker[T]) decide(d *SeatsDecision[T], r *SeatsReview[T]) {
	f := sw.vw.f
	d.Chosen = -1
	for i, o := range d.Options {
		for _, c := range d.Made {
			if o.Choice == c && (d.Chosen < 0 || f.Cmp(o.Pairs, d.Options[d.Chosen].Pairs) > 0) {
				d.Chosen = i
			}
		}
	}
	if d.Chosen < 0 || len(d.Options) < 2 {
		return
	}
	d.Cost = f.Sub(d.Options[d.Best].Pairs, d.Options[d.Chosen].Pairs)
	s := &r.Seats[d.Seat]
	s.Decisions++
	if f.IsZero(d.Cost) {
		s.Best++
	}
	s.Lost = f.Add(s.Lost, d.Cost)
}

// addLuck sets the luck of every judged decision that turned a new card and adds it to the
// seats' sums: the mover's expected final pairs at the next decision (its pairs so far plus its
// entry of the next decision's BySeat), or its score when the game is over, less its pairs
// before the turn and the option credited.
func (sw *seatsWalker[T]) addLuck(r *SeatsReview[T], fresh []bool) {
	f, g := sw.vw.f, sw.vw.g
	ds := r.Decisions
	for k := range ds {
		d := &ds[k]
		if d.Chosen < 0 || !fresh[k] {
			continue
		}
		var after T
		switch {
		case k+1 < len(ds):
			next := ds[k+1]
			after = f.Add(f.FromInt(int64(g.Turns[next.Turn].Before.Taken[d.Seat])), next.BySeat[d.Seat])
		case g.Result.Over:
			// Scores are whole pairs, or shares of a stalemate: n/p pairs left to each seat.
			left := g.Result.Left
			after = f.Add(f.FromInt(int64(g.Result.Taken[d.Seat])), f.FromFrac(int64(left), int64(sw.p)))
			if !g.Result.Stalemate {
				after = f.FromInt(int64(g.Result.Taken[d.Seat]))
			}
		default:
			continue // the turn's outcome is not valued yet: the game stops before the next decision
		}
		before := f.Add(f.FromInt(int64(g.Turns[d.Turn].Before.Taken[d.Seat])), d.Options[d.Chosen].Pairs)
		d.Luck = f.Sub(after, before)
		s := &r.Seats[d.Seat]
		s.Luck = f.Add(s.Luck, d.Luck)
	}
}

// turnsNewCard reports whether a turn turned a card nobody had seen before it.
func turnsNewCard(g *record.Game, turn record.Turn) bool {
	for i := turn.First; i < turn.First+turn.Moves; i++ {
		mv := g.Moves[i]
		if mv.Pass {
			continue
		}
		seenBefore := false
		for j := 0; j < turn.First; j++ {
			if o := g.Moves[j]; !o.Pass && o.Pos == mv.Pos {
				seenBefore = true
				break
			}
		}
		if !seenBefore {
			return true
		}
	}
	return false
}

// SeatsJudge judges decision d, valued by SeatsNext before its turn was played, once game g holds
// the whole turn: the choices its cards fit, the one credited and the cost (in d's copy
// returned). It solves nothing, so that a coach values each decision once.
func SeatsJudge[T any](f field.Field[T], g *record.Game, d SeatsDecision[T]) (SeatsDecision[T], error) {
	return SeatsJudgeMemory(f, g, d, rules.Memory{})
}

// SeatsJudgeMemory is SeatsJudge with the seats sharing memory mem (SeatsMemoryModel).
func SeatsJudgeMemory[T any](f field.Field[T], g *record.Game, d SeatsDecision[T], mem rules.Memory) (SeatsDecision[T], error) {
	if d.Turn >= len(g.Turns) || g.Turns[d.Turn].End == record.EndUnfinished {
		return d, fmt.Errorf("turn %d: not played to its end", d.Turn+1)
	}
	sw, err := newSeatsWalker(f, g, mem)
	if err != nil {
		return d, err
	}
	for _, turn := range g.Turns[:d.Turn] {
		sw.play(turn)
	}
	d.Made = sw.made(g.Turns[d.Turn])
	d.Cost = f.FromInt(0)
	r := &SeatsReview[T]{Seats: make([]SeatsSeat[T], sw.p)}
	for i := range r.Seats {
		r.Seats[i] = SeatsSeat[T]{Lost: f.FromInt(0), Luck: f.FromInt(0)}
	}
	sw.decide(&d, r)
	return d, nil
}
