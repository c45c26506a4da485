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

// A game under a rule variant (docs/models.md §1.7) is judged a turn at a time, in the choices
// of the variant's exact model (§3.2): each turn that begins with no pair known whole is one
// decision, whose options are the legal choices (daring, safe, known-first, pass) valued by the
// model, the choice made now and both seats playing optimally (or to win) afterwards. The turn's
// cards say which choice was made: under blind flips its two named cards (two unseen cards are
// daring, a remembered card and an unseen one safe or known-first, with copies of a face as with
// two), with sequential flips the first card and the second card named once the first was seen. A turn may fit more than
// one choice (a new first card whose partner was seen is turned by daring and safe alike): the
// review credits it with the best of them. A turn that begins with a pair known whole is the
// model's taking of that pair, and not a decision. Under pass rule two-known or always (with
// copies of a face too) the choices other than the pass are valued alike whether the other seat
// just passed or not, since they clear the flag; a pass just after the other seat's pass is the
// stalemate, which shares the pairs left (lead 0), and a pass otherwise hands the same table to
// the other seat just after a pass. The luck of a turn's cards is measured as the
// standard review's (variantluck.go).

// ErrNoVariantModel is the error of a game under a rule variant that no exact model covers: more
// than two copies of a face with singletons, and blind flips with singletons.
var ErrNoVariantModel = errors.New("no exact model")

// VariantModel returns the exact model a game under a rule variant is judged in: perfect memory,
// the game's pass rule, singletons, choice set and variant, or an error wrapping
// ErrNoVariantModel that names the rules no model covers.
func VariantModel(r record.Rules) (exact.Model, error) {
	m := exact.Model{Pass: r.Pass, Singletons: r.Singletons, Choices: r.Choices, Variant: r.Variant}
	v := r.Variant
	switch {
	case v.CopiesOf() > 2 && r.Singletons > 0:
		return m, fmt.Errorf("%w of copies %d with singletons", ErrNoVariantModel, v.CopiesOf())
	case v.Flips == rules.FlipsBlind && r.Singletons > 0:
		return m, fmt.Errorf("%w of blind flips with singletons", ErrNoVariantModel)
	}
	return m, nil
}

// ChoiceOption is a choice of the model open at a turn, with its value to the mover.
type ChoiceOption[T any] struct {
	Choice rules.Choice
	// Pairs is the mover's expected pairs from the turn on (taken within the turn limit); Lead
	// its expected pairs less the other seat's from the turn on, which the optimum maximises;
	// Win its win score, P(win) + P(draw)/2 (zero when the review has no win values).
	Pairs, Lead, Win T
}

// TurnDecision is one turn of a game under a rule variant, judged in the model's choices.
type TurnDecision[T any] struct {
	// Turn is the turn's index in the game (from 0), Seat the mover, Move the index in Game.Moves
	// of the turn's first move.
	Turn, Seat, Move int
	// State is the count state at the start of the turn, with the mover's lead; TurnsLeft the
	// turns left under a turn limit, this one included (0 without a limit); Faces the state of
	// faces with more than two copies of a face (empty otherwise); AfterPass whether the turn
	// before was the other seat's pass.
	State     rules.State
	TurnsLeft int
	Faces     string
	AfterPass bool
	// Options are the legal choices. Made lists the choices the turn's cards fit, and Chosen is
	// the index in Options of the best of them, or -1 when the turn fits none (outside the
	// model: no cost is counted) or, for a decision not yet made, -1.
	Options []ChoiceOption[T]
	Made    []rules.Choice
	Chosen  int
	// Best is the index in Options of the optimum's choice (the largest lead) and BestWin of the
	// choice with the largest win score; CostPairs is half the lead lost against the optimum's
	// choice (the pairs lost where the seats' pairs add up to those on the table), CostWin the
	// win score lost against the best.
	Best, BestWin      int
	CostPairs, CostWin T
	// LuckPairs and LuckWin are the luck of the cards the turn turned at random (variantluck.go):
	// the mover's value once they are seen, at the next decision or the game's end, less the
	// option credited; in pairs half the change of the lead, as CostPairs. Zero for a turn not
	// judged, and for the last turn of a game that stops before the next decision.
	LuckPairs, LuckWin T
}

// VariantReview is the review of one game under a rule variant.
type VariantReview[T any] struct {
	Game *record.Game
	// Model is the exact model the game is judged in; Win reports whether the win scores are part
	// of the review.
	Model     exact.Model
	Win       bool
	Decisions []TurnDecision[T]
	// Seats sum up each seat's decisions: their costs and their luck.
	Seats [2]Seat[T]
	// Through is seat 0's evaluation through the game: its expected final pairs (its pairs so far
	// included) and win score at each decision, under optimal play from there (Through[0] the
	// start, when the game's first turn is a decision), and its result when the game is over.
	Through []Point[T]
}

// VariantGame reviews game g, under a rule variant, in field f: every turn that begins with no
// pair known whole is valued by the variant's exact model, and, when win is set, in win score too
// (both seats playing to win afterwards, at the mover's lead so far).
func VariantGame[T any](ctx context.Context, f field.Field[T], g *record.Game, win bool) (*VariantReview[T], error) {
	vw, err := newVariantWalker(f, g, win)
	if err != nil {
		return nil, err
	}
	var ds []TurnDecision[T]
	var faces []exact.CopiesState
	for k, turn := range g.Turns {
		if turn.End == record.EndUnfinished {
			break
		}
		if turn.Before.Whole == 0 {
			d, st := vw.position(k, turn.Seat, turn.First, turn.Before)
			d.Made = vw.made(turn)
			ds, faces = append(ds, d), append(faces, st)
		}
		vw.play(turn)
	}
	if err := vw.value(ctx, ds, faces); err != nil {
		return nil, err
	}
	for i := range ds {
		vw.decide(&ds[i])
	}
	vw.r.Decisions = ds
	vw.addLuck()
	return vw.r, nil
}

// VariantNext returns the decision the seat to move faces in game g under a rule variant, a game
// in progress: the choices of the turn it is to begin, or, when the game stops after a turn's
// first card, of the turn it is in (valued at its start). Chosen is -1 and there are no costs.
// It returns nil and no error when the turn begins with a pair known whole, which the model's
// players take (no decision).
func VariantNext[T any](ctx context.Context, f field.Field[T], g *record.Game, win bool) (*TurnDecision[T], error) {
	if g.Result.Over {
		return nil, errors.New("the game is over: there is no decision to make")
	}
	vw, err := newVariantWalker(f, g, win)
	if err != nil {
		return nil, err
	}
	k, seat, first, before := len(g.Turns), g.Result.Mover, len(g.Moves), g.Result.Next
	if n := len(g.Turns); n > 0 && g.Turns[n-1].End == record.EndUnfinished {
		last := g.Turns[n-1]
		k, seat, first, before = n-1, last.Seat, last.First, last.Before
	}
	for _, turn := range g.Turns[:k] {
		vw.play(turn)
	}
	if before.Whole > 0 {
		return nil, nil
	}
	d, st := vw.position(k, seat, first, before)
	ds := []TurnDecision[T]{d}
	if err := vw.value(ctx, ds, []exact.CopiesState{st}); err != nil {
		return nil, err
	}
	ds[0].Chosen = -1
	return &ds[0], nil
}

// variantWalker walks the turns of a variant game, keeping the table as a perfect memory sees it.
type variantWalker[T any] struct {
	f     field.Field[T]
	g     *record.Game
	m     exact.Model
	win   bool
	r     *VariantReview[T]
	faces int // the pair faces, 0 .. faces-1
	// seen[pos] says the card at pos has been seen, gone[pos] that it has left the table, face[pos]
	// the face it showed.
	seen, gone []bool
	face       []int
}

func newVariantWalker[T any](f field.Field[T], g *record.Game, win bool) (*variantWalker[T], error) {
	if g.Rules.Seats != 2 {
		return nil, ErrSeats
	}
	m, err := VariantModel(g.Rules)
	if err != nil {
		return nil, err
	}
	n := g.Rules.Cards()
	vw := &variantWalker[T]{f: f, g: g, m: m, win: win, faces: g.Rules.Variant.Faces(g.Rules.Pairs),
		seen: make([]bool, n), gone: make([]bool, n), face: make([]int, n),
		r: &VariantReview[T]{Game: g, Model: m, Win: win}}
	z := f.FromInt(0)
	for i := range vw.r.Seats {
		vw.r.Seats[i] = Seat[T]{LostPairs: z, LostWin: z, LuckPairs: z, LuckWin: z}
		if i < len(g.Players) {
			vw.r.Seats[i].Name = g.Players[i].Name
		}
	}
	return vw, nil
}

// play updates the table with a turn's cards: seen, and taken when they made a pair.
func (vw *variantWalker[T]) play(turn record.Turn) {
	for i := turn.First; i < turn.First+turn.Moves; i++ {
		if mv := vw.g.Moves[i]; !mv.Pass {
			vw.seen[mv.Pos], vw.face[mv.Pos] = true, mv.Face
			if turn.End == record.EndPair {
				vw.gone[mv.Pos] = true
			}
		}
	}
}

// seenOfFace reports whether a card of face other than the one at pos is seen on the table.
func (vw *variantWalker[T]) seenOfFace(face, pos int) bool {
	for p, s := range vw.seen {
		if s && !vw.gone[p] && p != pos && vw.face[p] == face {
			return true
		}
	}
	return false
}

// anySeen reports whether a card other than the one at pos is seen on the table.
func (vw *variantWalker[T]) anySeen(pos int) bool {
	for p, s := range vw.seen {
		if s && !vw.gone[p] && p != pos {
			return true
		}
	}
	return false
}

// made returns the choices a completed turn's cards fit, as the table stood before it.
func (vw *variantWalker[T]) made(turn record.Turn) []rules.Choice {
	a := vw.g.Moves[turn.First]
	if a.Pass {
		return []rules.Choice{rules.Pass}
	}
	b := vw.g.Moves[turn.First+1]
	aSeen, bSeen := vw.seen[a.Pos], vw.seen[b.Pos]
	if vw.g.Rules.Variant.Flips == rules.FlipsBlind {
		switch {
		case !aSeen && !bSeen:
			return []rules.Choice{rules.Daring}
		case aSeen != bSeen:
			return []rules.Choice{rules.Safe, rules.KnownFirst}
		}
		return []rules.Choice{rules.Pass} // two seen cards that are not a pair
	}
	if aSeen {
		if bSeen {
			return []rules.Choice{rules.Pass}
		}
		return []rules.Choice{rules.KnownFirst}
	}
	both := []rules.Choice{rules.Daring, rules.Safe}
	switch {
	case a.Face >= vw.faces: // a new singleton: a seen card if there is one, else a new card
		if bSeen == vw.anySeen(a.Pos) {
			return both
		}
	case vw.seenOfFace(a.Face, a.Pos): // its partner is seen: take it
		if bSeen && b.Face == a.Face {
			return both
		}
	case bSeen:
		return []rules.Choice{rules.Safe}
	default:
		return []rules.Choice{rules.Daring}
	}
	return nil
}

// copiesState returns the state of faces of the table as it stands (no pair known whole).
func (vw *variantWalker[T]) copiesState() exact.CopiesState {
	k := vw.g.Rules.Variant.CopiesOf()
	st := exact.CopiesState{Unknown: make([]int, k/2), Half: make([]int, k/2)}
	seen, gone := make([]int, vw.faces), make([]int, vw.faces)
	for p, s := range vw.seen {
		switch {
		case !s || vw.face[p] >= vw.faces:
		case vw.gone[p]:
			gone[vw.face[p]]++
		default:
			seen[vw.face[p]]++
		}
	}
	// A face has its k cards less those taken on the table, one of them remembered when seen.
	for fc := range vw.faces {
		r := k - gone[fc]
		if r == 0 {
			continue
		}
		if seen[fc] > 0 {
			st.Half[r/2-1]++
		} else {
			st.Unknown[r/2-1]++
		}
	}
	return st
}

// position returns the decision of the turn seat begins on table before, not yet valued, and,
// with more than two copies of a face, the state of faces.
func (vw *variantWalker[T]) position(k, seat, first int, before record.Table) (TurnDecision[T], exact.CopiesState) {
	d := TurnDecision[T]{Turn: k, Seat: seat, Move: first, State: before.State(seat), AfterPass: before.AfterPass, Chosen: -1}
	if lim := vw.g.Rules.Variant.TurnLimit; lim > 0 {
		d.TurnsLeft = lim - before.Turn
	}
	var st exact.CopiesState
	if vw.g.Rules.Variant.CopiesOf() > 2 {
		st = vw.copiesState()
		d.Faces = st.String()
	}
	return d, st
}

// value sets the options of the decisions ds, faces their states of faces under more than two
// copies of a face. Under a turn limit or more copies one solve values them all (the choices'
// values of a state with t turns left do not depend on the limit counted from), and under more
// copies one solve values them at every lead for the win scores; otherwise each is solved from its
// state.
func (vw *variantWalker[T]) value(ctx context.Context, ds []TurnDecision[T], faces []exact.CopiesState) error {
	f, m, v := vw.f, vw.m, vw.g.Rules.Variant
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	cs := make([]exact.Choices[T], len(ds))
	ws := make([]exact.WinChoices[T], len(ds))
	var err error
	switch {
	case len(ds) == 0:
	case v.CopiesOf() > 2:
		at := make([]exact.CopiesTurnState, len(ds))
		for i, d := range ds {
			at[i] = exact.CopiesTurnState{State: faces[i], TurnsLeft: d.TurnsLeft}
		}
		if cs, err = exact.CopiesChoiceValuesAt(ctx, f, m, mu, at); err != nil {
			return fmt.Errorf("the choices' values: %w", err)
		}
		if vw.win {
			leads := make([]int, len(ds))
			for i, d := range ds {
				leads[i] = d.State.Lead
			}
			if ws, err = exact.CopiesWinChoiceValuesAt(ctx, f, m, wmu, at, leads); err != nil {
				return fmt.Errorf("the choices' win scores: %w", err)
			}
		}
	case v.TurnLimit > 0:
		at := make([]exact.TurnState, len(ds))
		for i, d := range ds {
			at[i] = exact.TurnState{State: d.State.Counts(), TurnsLeft: d.TurnsLeft}
		}
		if cs, err = exact.ChoiceValuesAt(ctx, f, m, mu, at); err != nil {
			return fmt.Errorf("the choices' values: %w", err)
		}
		if vw.win {
			for i, d := range ds {
				at[i].State = d.State
			}
			if ws, err = exact.WinChoiceValuesAt(ctx, f, m, wmu, at); err != nil {
				return fmt.Errorf("the choices' win scores: %w", err)
			}
		}
	default:
		for i, d := range ds {
			if cs[i], err = exact.ChoiceValues(ctx, f, m, mu, d.State.Counts()); err != nil {
				return fmt.Errorf("turn %d: the choices' values in %v: %w", d.Turn+1, d.State, err)
			}
			if !vw.win {
				continue
			}
			if ws[i], err = exact.WinChoiceValues(ctx, f, m, wmu, d.State); err != nil {
				return fmt.Errorf("turn %d: the choices' win scores in %v: %w", d.Turn+1, d.State, err)
			}
		}
	}
	for i := range ds {
		vw.options(&ds[i], cs[i], ws[i])
	}
	return nil
}

// options sets d's options from the values of its choices, cs, and their win scores, ws.
func (vw *variantWalker[T]) options(d *TurnDecision[T], cs exact.Choices[T], ws exact.WinChoices[T]) {
	f, g := vw.f, vw.g
	stalemate := d.AfterPass && g.Rules.Pass != rules.PassNever
	for _, cv := range cs.Values {
		o := ChoiceOption[T]{Choice: cv.Choice, Pairs: cv.Pairs, Lead: cv.Lead, Win: f.FromInt(0)}
		if w, ok := ws.Of(cv.Choice); ok && vw.win {
			o.Win = w.Score
		}
		if cv.Choice == rules.Pass && stalemate {
			// A pass after a pass ends the game: the pairs left are shared.
			o.Pairs, o.Lead = f.FromFrac(int64(d.State.N), 2), f.FromInt(0)
			if vw.win {
				o.Win = finalScore(f, d.State.Lead)
			}
		}
		d.Options = append(d.Options, o)
	}
	d.Best, d.BestWin = 0, 0
	for i, o := range d.Options {
		if f.Cmp(o.Lead, d.Options[d.Best].Lead) > 0 {
			d.Best = i
		}
		if f.Cmp(o.Win, d.Options[d.BestWin].Win) > 0 {
			d.BestWin = i
		}
	}
	d.CostPairs, d.CostWin = f.FromInt(0), f.FromInt(0)
	d.LuckPairs, d.LuckWin = f.FromInt(0), f.FromInt(0)
}

// finalScore returns the win score of a game over at lead d: 1, 1/2 or 0.
func finalScore[T any](f field.Field[T], d int) T {
	switch {
	case d > 0:
		return f.FromInt(1)
	case d < 0:
		return f.FromInt(0)
	}
	return f.FromFrac(1, 2)
}

// decide sets d's chosen option, the best of those the turn's cards fit, and its costs, and adds
// them to the seat's sums.
func (vw *variantWalker[T]) decide(d *TurnDecision[T]) {
	f := vw.f
	d.Chosen = -1
	for i, o := range d.Options {
		for _, c := range d.Made {
			if o.Choice == c && (d.Chosen < 0 || f.Cmp(o.Lead, d.Options[d.Chosen].Lead) > 0) {
				d.Chosen = i
			}
		}
	}
	s := &vw.r.Seats[d.Seat]
	if d.Chosen < 0 || len(d.Options) < 2 {
		return
	}
	c, best := d.Options[d.Chosen], d.Options[d.Best]
	d.CostPairs = f.Div(f.Sub(best.Lead, c.Lead), f.FromInt(2))
	if vw.win {
		d.CostWin = f.Sub(d.Options[d.BestWin].Win, c.Win)
		for _, mc := range d.Made { // the best to win of the choices the cards fit
			if o, ok := optionOf(d.Options, mc); ok && f.Cmp(f.Sub(d.Options[d.BestWin].Win, o.Win), d.CostWin) < 0 {
				d.CostWin = f.Sub(d.Options[d.BestWin].Win, o.Win)
			}
		}
	}
	s.Decisions++
	if f.IsZero(d.CostPairs) {
		s.Best++
	}
	if f.IsZero(d.CostWin) {
		s.BestWin++
	}
	s.LostPairs, s.LostWin = f.Add(s.LostPairs, d.CostPairs), f.Add(s.LostWin, d.CostWin)
}

// optionOf returns the option of choice c.
func optionOf[T any](opts []ChoiceOption[T], c rules.Choice) (ChoiceOption[T], bool) {
	for _, o := range opts {
		if o.Choice == c {
			return o, true
		}
	}
	return ChoiceOption[T]{}, false
}

// VariantJudge judges decision d, valued by VariantNext before its turn was played, once game g
// holds the whole turn: the choices its cards fit, the one credited and the costs (in d's copy
// returned; the seats' sums are not kept), in win score too when win is set as it was for
// VariantNext. It solves nothing, so that a coach values each decision once.
func VariantJudge[T any](f field.Field[T], g *record.Game, d TurnDecision[T], win bool) (TurnDecision[T], error) {
	if d.Turn >= len(g.Turns) || g.Turns[d.Turn].End == record.EndUnfinished {
		return d, fmt.Errorf("turn %d: not played to its end", d.Turn+1)
	}
	vw, err := newVariantWalker(f, g, win)
	if err != nil {
		return d, err
	}
	for _, turn := range g.Turns[:d.Turn] {
		vw.play(turn)
	}
	d.Made = vw.made(g.Turns[d.Turn])
	d.CostPairs, d.CostWin = f.FromInt(0), f.FromInt(0)
	vw.decide(&d)
	return d, nil
}
