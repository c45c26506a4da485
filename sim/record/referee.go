package record

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"memsim/sim/rules"
)

// referee plays a game's moves against the rules, one at a time, and records its turns.
type referee struct {
	g      *Game
	r      Rules
	face   []int  // face[pos]: the face seen at pos, or -1
	gone   []bool // gone[pos]: the card's pair was taken
	shown  []int  // shown[face]: positions seen with the face (0 to the face's cards)
	onSeen []int  // onSeen[face]: the face's seen cards still on the table
	half   int    // pair faces with an odd number of seen cards on the table
	table  Table  // the counts, Taken included, kept up to date
	mover  int
	first  int // the position of the turn's face-up first card, or -1
	passes int // turns in a row that were passes
	lastMS int64
	// firstSeen reports that the turn's first card had been seen before the turn.
	firstSeen bool
	// moves is the number of moves refereed.
	moves int
}

// newReferee returns a referee for game g, whose rules are valid.
func newReferee(g *Game) (*referee, error) {
	r := g.Rules
	if err := r.Validate(); err != nil {
		return nil, fieldError("rules."+errField(err), err)
	}
	if len(g.Players) != 0 && len(g.Players) != r.Seats {
		return nil, fieldError("players", fmt.Errorf("%d players for %d seats", len(g.Players), r.Seats))
	}
	for i, p := range g.Players {
		switch {
		case p.Name == "":
			return nil, fieldError(fmt.Sprintf("players[%d].name", i), errors.New("is empty"))
		case p.Kind != "" && p.Kind != KindPerson && p.Kind != KindBuiltIn && p.Kind != KindProgram:
			return nil, fieldError(fmt.Sprintf("players[%d].kind", i), fmt.Errorf("%q is not a kind (allowed: %s, %s, %s)", p.Kind, KindPerson, KindBuiltIn, KindProgram))
		}
	}
	if g.Deal != nil {
		if err := checkDeal(g.Deal, r); err != nil {
			return nil, fieldError("deal", err)
		}
	}
	f := &referee{g: g, r: r, first: -1, lastMS: -1,
		face: make([]int, r.Cards()), gone: make([]bool, r.Cards()), shown: make([]int, r.Faces()),
		onSeen: make([]int, r.Faces())}
	for i := range f.face {
		f.face[i] = -1
	}
	f.table = Table{Pairs: r.Pairs, Unknown: r.Pairs, Singletons: r.Singletons, UnseenSingletons: r.Singletons,
		Taken: make([]int, r.Seats)}
	g.Turns = g.Turns[:0]
	return f, nil
}

// checkDeal reports whether deal lays out the faces of rules r.
func checkDeal(deal []int, r Rules) error {
	if len(deal) != r.Cards() {
		return fmt.Errorf("%d faces for %d cards", len(deal), r.Cards())
	}
	count := make([]int, r.Faces())
	for pos, face := range deal {
		if face < 0 || face >= len(count) {
			return fmt.Errorf("[%d]: face %d is out of range (0 to %d)", pos, face, len(count)-1)
		}
		count[face]++
		if want := wantCount(face, r); count[face] > want {
			return fmt.Errorf("[%d]: face %d lies at more than %d positions", pos, face, want)
		}
	}
	return nil
}

// wantCount returns the number of cards of face: the copies of a pair face (two in the standard
// game), one of a singleton.
func wantCount(face int, r Rules) int {
	if face < r.PairFaces() {
		return r.Variant.CopiesOf()
	}
	return 1
}

// moveError is an error in a move, with the field at fault ("" for the move as a whole).
type moveError struct {
	field string
	err   error
}

func (e *moveError) Error() string {
	if e.field == "" {
		return e.err.Error()
	}
	return e.field + ": " + e.err.Error()
}

func (e *moveError) Unwrap() error { return e.err }

func fieldError(field string, err error) error { return &moveError{field: field, err: err} }

// errField returns the field a Rules.Validate error names (its text up to the colon).
func errField(err error) string {
	field, _, ok := strings.Cut(err.Error(), ":")
	if !ok {
		return ""
	}
	return field
}

// next returns the seat that moves after the mover's turn ends without a pair.
func (f *referee) next() int { return (f.mover + 1) % f.r.Seats }

// play referees move m, setting its seat.
func (f *referee) play(m *Move) error {
	switch {
	case f.table.Pairs == 0:
		return errors.New("a move after the game's end: every pair is taken")
	case f.atLimit():
		return fmt.Errorf("a move after the game's end: the turn limit of %d turns is reached", f.r.Variant.TurnLimit)
	case m.Seat >= 0 && m.Seat != f.mover:
		return fieldError("seat", fmt.Errorf("%d is not the seat to move (%d)", m.Seat, f.mover))
	case m.Seat < -1:
		return fieldError("seat", fmt.Errorf("%d is out of range (0 to %d)", m.Seat, f.r.Seats-1))
	case m.MS < -1:
		return fieldError("ms", fmt.Errorf("%d is negative", m.MS))
	case m.MS >= 0 && m.MS < f.lastMS:
		return fieldError("ms", fmt.Errorf("%d is before the move before (%d)", m.MS, f.lastMS))
	}
	m.Seat = f.mover
	if m.Pass {
		if err := f.pass(); err != nil {
			return err
		}
	} else if err := f.flip(m.Pos, m.Face); err != nil {
		return err
	}
	if m.MS >= 0 {
		f.lastMS = m.MS
	}
	f.moves++
	return nil
}

// pass referees a pass line.
func (f *referee) pass() error {
	if f.first >= 0 {
		return errors.New("a pass in the middle of a turn (after its first card)")
	}
	switch {
	case f.r.Pass == rules.PassNever:
		return errors.New("a pass, which the pass rule never does not allow")
	case f.r.Pass == rules.PassTwoKnown && f.table.Known() < 2:
		return fmt.Errorf("a pass with %d seen cards on the table, which the pass rule two-known does not allow (it needs 2)", f.table.Known())
	}
	f.begin()
	f.endTurn(EndPass, 1)
	return nil
}

// atLimit reports whether the game has played every turn its turn limit allows, with no turn
// in progress.
func (f *referee) atLimit() bool {
	limit := f.r.Variant.TurnLimit
	return limit > 0 && f.table.Turn >= limit && f.first < 0
}

// begin starts a turn with the table as it is.
func (f *referee) begin() {
	before := f.table
	before.Taken = slices.Clone(f.table.Taken)
	f.g.Turns = append(f.g.Turns, Turn{Seat: f.mover, Before: before, First: f.moves})
}

// endTurn ends the current turn, of moves moves, with end.
func (f *referee) endTurn(end TurnEnd, moves int) {
	t := &f.g.Turns[len(f.g.Turns)-1]
	t.End, t.Moves = end, moves
	f.first = -1
	f.table.Turn++
	switch end {
	case EndPair:
		f.passes = 0
		f.table.AfterPass = false
	case EndMiss:
		f.passes = 0
		f.table.AfterPass = false
		f.mover = f.next()
	case EndPass:
		f.passes++
		f.table.AfterPass = f.r.Seats > 1
		f.mover = f.next()
	}
}

// flip referees the flip of the card at pos, which showed face.
func (f *referee) flip(pos, face int) error {
	r := f.r
	switch {
	case pos < 0 || pos >= r.Cards():
		return fieldError("pos", fmt.Errorf("%d is out of range (0 to %d)", pos, r.Cards()-1))
	case f.gone[pos]:
		return fieldError("pos", fmt.Errorf("the card at %d was taken with its pair", pos))
	case pos == f.first:
		return fieldError("pos", fmt.Errorf("the card at %d is the turn's first card, already face up", pos))
	case face < 0 || face >= r.Faces():
		return fieldError("face", fmt.Errorf("%d is out of range (0 to %d)", face, r.Faces()-1))
	case f.g.Deal != nil && f.g.Deal[pos] != face:
		return fieldError("face", fmt.Errorf("%d, but the deal has face %d at %d", face, f.g.Deal[pos], pos))
	case f.face[pos] >= 0 && f.face[pos] != face:
		return fieldError("face", fmt.Errorf("%d: position %d showed face %d before", face, pos, f.face[pos]))
	case f.face[pos] < 0 && f.shown[face] == wantCount(face, r):
		if n := wantCount(face, r); n != 2 {
			return fieldError("face", fmt.Errorf("%d: all %d cards of the face were seen before, at other positions", face, n))
		}
		return fieldError("face", fmt.Errorf("%d: both cards of the face were seen before, at other positions", face))
	}
	if f.first < 0 {
		f.begin()
	}
	seenBefore := f.face[pos] >= 0
	if !seenBefore {
		f.see(pos, face)
	}
	t := &f.g.Turns[len(f.g.Turns)-1]
	if f.first < 0 {
		f.first = pos
		t.Moves = 1
		t.End = EndUnfinished
		f.firstSeen = seenBefore
		return nil
	}
	first := f.first
	switch {
	case f.face[first] == face && face < r.PairFaces():
		f.take(first, pos)
		f.endTurn(EndPair, 2)
	case f.firstSeen && seenBefore:
		f.endTurn(EndPass, 2)
	default:
		f.endTurn(EndMiss, 2)
	}
	return nil
}

// see records that the card at pos, never seen before, shows face.
func (f *referee) see(pos, face int) {
	f.face[pos] = face
	f.shown[face]++
	if face >= f.r.PairFaces() {
		f.table.UnseenSingletons--
		return
	}
	f.seenOnTable(face, 1)
}

// seenOnTable adds delta to the seen cards of pair face on the table and updates the table's
// counts: a face's seen cards make seen/2 pairs known whole, and one half-known pair when their
// number is odd.
func (f *referee) seenOnTable(face, delta int) {
	n := f.onSeen[face]
	f.table.Whole -= n / 2
	f.half -= n % 2
	n += delta
	f.onSeen[face] = n
	f.table.Whole += n / 2
	f.half += n % 2
	f.table.Unknown = f.table.Pairs - f.table.Whole - f.half
}

// take gives the mover the pair at a and b, both seen.
func (f *referee) take(a, b int) {
	f.gone[a], f.gone[b] = true, true
	f.table.Pairs--
	f.seenOnTable(f.face[a], -2)
	f.table.Taken[f.mover]++
}

// Reasons an end line may give for the game's end.
const (
	ReasonPairs     = "pairs"
	ReasonStalemate = "stalemate"
	ReasonTurnLimit = "turn-limit"
)

// finish works out the game's result once its last move is refereed; scores, when not nil, are
// the record's end line, which must agree, and so must its reason when not "".
func (f *referee) finish(scores []float64, reason string) error {
	g := f.g
	res := Result{Taken: slices.Clone(f.table.Taken), Left: f.table.Pairs, Mover: f.mover, Next: f.table}
	res.Next.Taken = slices.Clone(f.table.Taken)
	res.Over = res.Left == 0
	limited := res.Left > 0 && f.atLimit()
	if reason != "" && reason != ReasonPairs && reason != ReasonStalemate && reason != ReasonTurnLimit {
		return fieldError("reason", fmt.Errorf("%q is not a reason (allowed: %s, %s, %s)", reason, ReasonPairs, ReasonStalemate, ReasonTurnLimit))
	}
	if scores != nil {
		switch {
		case f.first >= 0:
			return errors.New("the game ends in the middle of a turn, after its first card")
		case len(scores) != f.r.Seats:
			return fieldError("scores", fmt.Errorf("%d scores for %d seats", len(scores), f.r.Seats))
		case res.Over:
		case limited && (reason == ReasonTurnLimit || reason == "" && f.passes < f.r.Seats):
		case !res.Over && f.r.Pass == rules.PassNever:
			return fmt.Errorf("the game ends with %d pairs on the table, and the pass rule never has no stalemate: leave the end line out of an unfinished game", res.Left)
		case !res.Over && f.passes < f.r.Seats:
			return fmt.Errorf("the game ends with %d pairs on the table and no stalemate (only %d of the %d seats passed in turn): leave the end line out of an unfinished game", res.Left, f.passes, f.r.Seats)
		default:
			res.Stalemate = true
			limited = false
		}
		res.Over = true
	}
	if limited {
		res.Over, res.Limited = true, true
	}
	if reason != "" {
		if err := checkReason(reason, res); err != nil {
			return fieldError("reason", err)
		}
	}
	res.Scores = make([]float64, f.r.Seats)
	for i, t := range res.Taken {
		res.Scores[i] = float64(t)
		if res.Stalemate {
			res.Scores[i] += float64(res.Left) / float64(f.r.Seats)
		}
	}
	for i, s := range scores {
		if math.IsNaN(s) || math.Abs(s-res.Scores[i]) > 1e-9 {
			return fieldError(fmt.Sprintf("scores[%d]", i), fmt.Errorf("%v, but seat %d's score is %v", s, i, res.Scores[i]))
		}
	}
	g.Result = res
	g.Ended = res.Over
	return nil
}

// checkReason reports whether an end line's reason is the way the game ended.
func checkReason(reason string, res Result) error {
	got := ReasonPairs
	switch {
	case res.Stalemate:
		got = ReasonStalemate
	case res.Limited:
		got = ReasonTurnLimit
	}
	if reason != got {
		return fmt.Errorf("%s, but the game ended by %s", reason, got)
	}
	return nil
}

// Check referees the game's moves against its rules and works out its turns and result: Seat
// is set on every move, and Ended when every pair is taken. A game built in code is checked
// before it is written; the Reader checks every game it reads. The error names the move at
// fault by its index.
func (g *Game) Check() error {
	f, err := newReferee(g)
	if err != nil {
		return err
	}
	for i := range g.Moves {
		if err := f.play(&g.Moves[i]); err != nil {
			return fmt.Errorf("move %d: %w", i, err)
		}
	}
	var scores []float64
	if g.Ended && f.table.Pairs > 0 && (!f.atLimit() || f.passes >= f.r.Seats) {
		// A stalemate: the end line's scores are those the rules give.
		scores = stalemateScores(f)
	}
	return f.finish(scores, "")
}

// stalemateScores returns the scores of a stalemate at the referee's position.
func stalemateScores(f *referee) []float64 {
	s := make([]float64, f.r.Seats)
	for i, t := range f.table.Taken {
		s[i] = float64(t) + float64(f.table.Pairs)/float64(f.r.Seats)
	}
	return s
}
