// Package protocol is the wire format of memsim-player/1, the line protocol in which memsim and a
// player process talk over the player's stdin and stdout: one JSON object per line. It defines the
// messages, checks each against the rules a message can be checked against on its own, writes them
// (Writer, Encode) and reads them strictly (Reader). docs/protocol.md is the specification.
package protocol

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"memsim/sim/rules"
)

// Version is the protocol's name and version, sent by memsim in its hello.
const Version = "memsim-player/1"

// Limits of the values a message may carry.
const (
	// MaxLine is the longest line, in bytes without its newline, either side may send.
	MaxLine = 1 << 20
	// MaxID is the largest game id and per-game seed: 2^53-1, exact in every JSON implementation.
	MaxID = 1<<53 - 1
	// MaxPairs is the largest number of pairs of a deal.
	MaxPairs = 1000
	// MaxSingletons is the largest number of singletons of a deal.
	MaxSingletons = 1000
	// MaxCards is the number of positions of the largest deal; positions are below it.
	MaxCards = 2*MaxPairs + MaxSingletons
	// MaxFaces is the number of faces of the largest deal; faces are below it.
	MaxFaces = MaxPairs + MaxSingletons
	// MaxSeats is the largest number of seats at a table.
	MaxSeats = rules.MaxPlayers
	// MaxDeadline is the longest deadline of a move request, in milliseconds (one day).
	MaxDeadline = 24 * 60 * 60 * 1000
)

// Views a player may declare in its handshake.
const (
	// ViewEvents: the player gets the public events and keeps its own memory.
	ViewEvents = "events"
	// ViewState: move requests also carry the count state and the cards the seat remembers, and
	// the player may answer with a choice.
	ViewState = "state"
)

// Message is one line of the protocol: one of the types below, as a pointer.
type Message interface {
	// Type returns the message's "type" field.
	Type() string
	// check reports the first value out of range, naming its field.
	check() error
}

// Hello is memsim's first message to a player.
type Hello struct {
	// Protocol is Version.
	Protocol string `json:"protocol"`
}

// Player is the player's answer to Hello: who it is, which view it wants and its options.
type Player struct {
	// Name and Version identify the player; Name is not empty.
	Name    string `json:"name"`
	Version string `json:"version"`
	// View is ViewEvents or ViewState.
	View string `json:"view"`
	// Options are the settings the player accepts, each with its default.
	Options []Option `json:"options,omitempty"`
	// Positions, for a state-view player only, declares that its first-card choice is a
	// function of the count state and the rules, so that memsim may ask it about count states
	// out of play (Position): PositionsCount when the choice ignores the lead, PositionsLead when
	// it may depend on it. Empty: the player answers no position queries.
	Positions string `json:"positions,omitempty"`
	// Variants lists the rule variants the player plays (VariantCopies, VariantFlips,
	// VariantTurnLimit): memsim sends a game under a variant only to a player that declares
	// every rule in which the game differs from the standard one, and refuses the others.
	Variants []string `json:"variants,omitempty"`
}

// The rule variants a player may declare (docs/models.md §1.7), named as the fields of Rules.
const (
	// VariantCopies: k cards of a face (Rules.Copies).
	VariantCopies = "copies"
	// VariantFlips: blind flips (Rules.Flips), both cards named in one request.
	VariantFlips = "flips"
	// VariantTurnLimit: a turn limit (Rules.TurnLimit), with the turn in every move request.
	VariantTurnLimit = "turn_limit"
)

// Variants lists the rule variants a player may declare, in the order of Rules' fields.
func Variants() []string { return []string{VariantCopies, VariantFlips, VariantTurnLimit} }

// Values of Player.Positions.
const (
	// PositionsCount: the first-card choice is a function of the rules, n, j, s, f and
	// after_pass; position queries carry lead 0.
	PositionsCount = "count"
	// PositionsLead: the first-card choice is a function of the rules and the whole count state,
	// lead included; position queries cover every lead a game can reach.
	PositionsLead = "lead"
)

// Option is a setting a player declares, as a UCI engine declares its options.
type Option struct {
	// Name is the option's name, unique among the player's options.
	Name string `json:"name"`
	// Type is "bool", "int", "float", "string" or "choice".
	Type string `json:"type"`
	// Default is the value the player uses when none is given: a bool, a float64 (integral for
	// "int") or a string (one of Choices for "choice").
	Default any `json:"default"`
	// Min and Max bound an int or float option; both are optional.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Choices are the values a choice option may take.
	Choices []string `json:"choices,omitempty"`
}

// Options gives the values of a player's options, sent once after the handshake. Values maps
// option names to values: a bool, a float64 or a string.
type Options struct {
	Values map[string]any `json:"values"`
}

// CheckValues reports whether values sets only options p declares, each to a value of the
// option's type within its bounds or choices.
func (p *Player) CheckValues(values map[string]any) error {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		i := slices.IndexFunc(p.Options, func(o Option) bool { return o.Name == name })
		if i < 0 {
			return bad("values."+name, "%s declares no option %q", p.Name, name)
		}
		o := p.Options[i]
		o.Default = values[name]
		if err := o.check(); err != nil {
			var fe *fieldError
			if errors.As(err, &fe) {
				err = fe.err
			}
			return bad("values."+name, "%v", err)
		}
	}
	return nil
}

// NewGame starts a game: the player plays seat Seat under Rules until the game's End.
type NewGame struct {
	// Game is the game's id, used by every later message about it.
	Game int64 `json:"game"`
	// Seat is the player's own seat, 0 .. Rules.Seats-1; seat 0 moves first.
	Seat int `json:"seat"`
	// Seed seeds the player's own randomness in this game.
	Seed int64 `json:"seed"`
	// Rules are the game's rules.
	Rules Rules `json:"rules"`
}

// Rules are the rules of one game, in the terms of docs/models.md.
type Rules struct {
	// Pairs and Singletons make the deal: positions 0 .. 2*Pairs+Singletons-1, pair faces
	// 0 .. Pairs-1, singleton faces Pairs .. Pairs+Singletons-1.
	Pairs      int `json:"pairs"`
	Singletons int `json:"singletons"`
	// Seats is the number of seats, 1 to MaxSeats.
	Seats int `json:"seats"`
	// Pass is the pass rule: "never", "two-known" or "always".
	Pass string `json:"pass"`
	// Choices is the choice set: "daring" and any of "safe", "known-first", "pass".
	Choices []string `json:"choices"`
	// Copies, Flips and TurnLimit are the rule variant (docs/models.md §1.7), sent only where
	// the game differs from the standard one: Copies cards of each pair face (0: two), Flips
	// "blind" when both cards of a turn are named before either is turned up ("": sequential),
	// and a limit of TurnLimit turns (0: none).
	Copies    int    `json:"copies,omitempty"`
	Flips     string `json:"flips,omitempty"`
	TurnLimit int    `json:"turn_limit,omitempty"`
}

// Cards returns the number of positions of the deal.
func (r Rules) Cards() int { return 2*r.Pairs + r.Singletons }

// Variant returns the rules' variant; the rules must be valid (as a decoded message's are).
func (r Rules) Variant() rules.Variant {
	v := rules.Variant{Copies: r.Copies, TurnLimit: r.TurnLimit}
	if r.Flips != "" {
		v.Flips, _ = rules.ParseFlips(r.Flips)
	}
	return v
}

// PairFaces returns the number of pair faces: Pairs, or 2*Pairs/Copies with copies of a face.
// Faces below it are pair faces, those from it to PairFaces()+Singletons-1 singletons.
func (r Rules) PairFaces() int { return r.Variant().Faces(r.Pairs) }

// CopiesOf returns the number of cards of each pair face: Copies, or 2 when it is 0.
func (r Rules) CopiesOf() int { return r.Variant().CopiesOf() }

// VariantRules lists the rules in which r differs from the standard game, as a player declares
// them (Player.Variants).
func (r Rules) VariantRules() []string {
	var vs []string
	if r.Copies != 0 && r.Copies != rules.DefaultCopies {
		vs = append(vs, VariantCopies)
	}
	if r.Flips != "" && r.Flips != rules.FlipsSequential.String() {
		vs = append(vs, VariantFlips)
	}
	if r.TurnLimit != 0 {
		vs = append(vs, VariantTurnLimit)
	}
	return vs
}

// FlipEvent says that Seat turned the card at Pos face up; its face is Face.
type FlipEvent struct {
	Game int64 `json:"game"`
	Seat int   `json:"seat"`
	Pos  int   `json:"pos"`
	Face int   `json:"face"`
}

// PairEvent says that Seat took the pair of face Face at Positions, which leave the table.
type PairEvent struct {
	Game      int64  `json:"game"`
	Seat      int    `json:"seat"`
	Face      int    `json:"face"`
	Positions [2]int `json:"positions"`
}

// PassEvent says that Seat passed: its turn ended without a flip.
type PassEvent struct {
	Game int64 `json:"game"`
	Seat int   `json:"seat"`
}

// Handover says that the turn passes to Seat; face-up cards are turned face down.
type Handover struct {
	Game int64 `json:"game"`
	Seat int   `json:"seat"`
}

// End ends a game; Scores[seat] is each seat's pairs (fractional after a stalemate).
type End struct {
	Game   int64     `json:"game"`
	Scores []float64 `json:"scores"`
}

// Move asks the player to choose the first (Card 1) or second (Card 2) card of its turn.
type Move struct {
	Game int64 `json:"game"`
	// Card is 1 or 2.
	Card int `json:"card"`
	// Legal lists the positions the player may flip, in increasing order.
	Legal []int `json:"legal"`
	// Pass reports whether the player may pass (first card only).
	Pass bool `json:"pass,omitempty"`
	// Blind reports a first-card request under blind flips: the player names both cards of the
	// turn at once, with a Flips reply (or passes, or, in the state view, chooses).
	Blind bool `json:"blind,omitempty"`
	// Turn is the turn's number, from 1, in a game with a turn limit (0 otherwise): the game ends
	// after Rules.TurnLimit turns, so TurnLimit - Turn + 1 turns are left, this one included.
	Turn int `json:"turn,omitempty"`
	// DeadlineMS is the time the player has to answer, in milliseconds.
	DeadlineMS int `json:"deadline_ms"`
	// State, Known and Choices are sent to state-view players only: the count state at the start
	// of the turn, the cards the seat's memory holds, and (first card only) the choices open now.
	State   *State   `json:"state,omitempty"`
	Known   []Card   `json:"known,omitempty"`
	Choices []string `json:"choices,omitempty"`
}

// State is the count state of docs/models.md: N pairs on the table, J of them unknown, S
// singletons, F of them unseen, the mover's lead, and whether the previous seat's turn was a pass.
type State struct {
	N         int  `json:"n"`
	J         int  `json:"j"`
	S         int  `json:"s"`
	F         int  `json:"f"`
	Lead      int  `json:"lead"`
	AfterPass bool `json:"after_pass"`
}

// Card is a remembered card: its position and its face.
type Card struct {
	Pos  int `json:"pos"`
	Face int `json:"face"`
}

// Position asks a player that declared Positions for its first-card choice in a count state, out
// of play: the player answers with a Choice for the same Game, one of Choices. Game is the
// query's id, from the same numbering as the games: never reused while the process runs.
type Position struct {
	Game int64 `json:"game"`
	// Rules are those of the games the answer stands for.
	Rules Rules `json:"rules"`
	// State is the count state at the start of a turn: 1 to Rules.Pairs pairs, Rules.Singletons
	// singletons, a lead within the pairs taken (0 for a player that declared PositionsCount).
	State State `json:"state"`
	// Choices are the choices open in State, as a first-card Move lists them.
	Choices []string `json:"choices"`
}

// Flip is a player's reply to a Move: flip the card at Pos.
type Flip struct {
	Game int64 `json:"game"`
	Pos  int   `json:"pos"`
}

// Flips is a player's reply to a blind Move (Move.Blind): flip the cards at Positions, two
// distinct legal positions, the first card first.
type Flips struct {
	Game      int64  `json:"game"`
	Positions [2]int `json:"positions"`
}

// Pass is a player's reply to a Move: pass.
type Pass struct {
	Game int64 `json:"game"`
}

// Choice is a state-view player's reply to a first-card Move: play Choice ("daring", "safe",
// "known-first" or "pass") and let memsim pick the cards.
type Choice struct {
	Game   int64  `json:"game"`
	Choice string `json:"choice"`
}

// Type returns "hello".
func (*Hello) Type() string { return "hello" }

// Type returns "player".
func (*Player) Type() string { return "player" }

// Type returns "options".
func (*Options) Type() string { return "options" }

// Type returns "new_game".
func (*NewGame) Type() string { return "new_game" }

// Type returns "flip".
func (*FlipEvent) Type() string { return "flip" }

// Type returns "pair".
func (*PairEvent) Type() string { return "pair" }

// Type returns "pass".
func (*PassEvent) Type() string { return "pass" }

// Type returns "handover".
func (*Handover) Type() string { return "handover" }

// Type returns "end".
func (*End) Type() string { return "end" }

// Type returns "move".
func (*Move) Type() string { return "move" }

// Type returns "position".
func (*Position) Type() string { return "position" }

// Type returns "flip".
func (*Flip) Type() string { return "flip" }

// Type returns "pass".
func (*Pass) Type() string { return "pass" }

// Type returns "flips".
func (*Flips) Type() string { return "flips" }

// Type returns "choice".
func (*Choice) Type() string { return "choice" }

// Side says who wrote a stream: the same type names mean different messages in each direction.
type Side uint8

const (
	// FromMemsim: the stream memsim writes to a player's stdin.
	FromMemsim Side = iota
	// FromPlayer: the stream a player writes to its stdout.
	FromPlayer
)

// String returns "memsim" or "player".
func (s Side) String() string {
	if s == FromPlayer {
		return "player"
	}
	return "memsim"
}

// newMessage returns an empty message of the given type written by side, or nil.
func newMessage(side Side, typ string) Message {
	if side == FromPlayer {
		switch typ {
		case "player":
			return &Player{}
		case "flip":
			return &Flip{}
		case "flips":
			return &Flips{}
		case "pass":
			return &Pass{}
		case "choice":
			return &Choice{}
		}
		return nil
	}
	switch typ {
	case "hello":
		return &Hello{}
	case "options":
		return &Options{}
	case "new_game":
		return &NewGame{}
	case "flip":
		return &FlipEvent{}
	case "pair":
		return &PairEvent{}
	case "pass":
		return &PassEvent{}
	case "handover":
		return &Handover{}
	case "end":
		return &End{}
	case "move":
		return &Move{}
	case "position":
		return &Position{}
	}
	return nil
}

// sender names the writer of side's messages in an error.
func sender(side Side) string {
	if side == FromPlayer {
		return "a player"
	}
	return "memsim"
}

// typeNames lists the message types side writes, for error messages.
func typeNames(side Side) string {
	if side == FromPlayer {
		return "player, flip, flips, pass, choice"
	}
	return "hello, options, new_game, flip, pair, pass, handover, end, move, position"
}

// fieldError is an error in the value of a field; field is a path such as "rules.pairs".
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return "field " + e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// bad returns a fieldError for field.
func bad(field, format string, args ...any) error {
	return &fieldError{field: field, err: fmt.Errorf(format, args...)}
}

// within puts err, an error of a value inside field, under field's path.
func within(field string, err error) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		sep := "."
		if fe.field != "" && fe.field[0] == '[' {
			sep = ""
		}
		return &fieldError{field: field + sep + fe.field, err: fe.err}
	}
	return &fieldError{field: field, err: err}
}

// inRange checks lo <= v <= hi.
func inRange[T int | int64 | float64](field string, v, lo, hi T) error {
	if v < lo || v > hi {
		return bad(field, "%v is out of range (%v to %v)", v, lo, hi)
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (m *Hello) check() error {
	if m.Protocol != Version {
		return bad("protocol", "%q is not supported (want %q)", m.Protocol, Version)
	}
	return nil
}

func (m *Player) check() error {
	if err := checkName("name", m.Name); err != nil {
		return err
	}
	if m.View != ViewEvents && m.View != ViewState {
		return bad("view", "%q is not a view (allowed: %s, %s)", m.View, ViewEvents, ViewState)
	}
	switch {
	case m.Positions != "" && m.Positions != PositionsCount && m.Positions != PositionsLead:
		return bad("positions", "%q is not a kind of position (allowed: %s, %s)", m.Positions, PositionsCount, PositionsLead)
	case m.Positions != "" && m.View != ViewState:
		return bad("positions", "only a state-view player answers position queries (its view is %s)", m.View)
	}
	for i, v := range m.Variants {
		switch {
		case !slices.Contains(Variants(), v):
			return bad(fmt.Sprintf("variants[%d]", i), "%q is not a rule variant (allowed: %s, %s, %s)", v, VariantCopies, VariantFlips, VariantTurnLimit)
		case slices.Contains(m.Variants[:i], v):
			return bad(fmt.Sprintf("variants[%d]", i), "%q is listed twice", v)
		}
	}
	for i, o := range m.Options {
		if err := o.check(); err != nil {
			return within(fmt.Sprintf("options[%d]", i), err)
		}
		for _, p := range m.Options[:i] {
			if p.Name == o.Name {
				return bad(fmt.Sprintf("options[%d].name", i), "%q is declared twice", o.Name)
			}
		}
	}
	return nil
}

// checkName refuses an empty name or one with control characters.
func checkName(field, s string) error {
	if s == "" {
		return bad(field, "is empty")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return bad(field, "%q holds a control character", s)
		}
	}
	return nil
}

func (o *Option) check() error {
	if err := checkName("name", o.Name); err != nil {
		return err
	}
	if !slices.Contains([]string{"bool", "int", "float", "string", "choice"}, o.Type) {
		return bad("type", "%q is not an option type (allowed: bool, int, float, string, choice)", o.Type)
	}
	numeric := o.Type == "int" || o.Type == "float"
	if !numeric && (o.Min != nil || o.Max != nil) {
		return bad("min", "only int and float options have bounds")
	}
	if o.Type != "choice" && o.Choices != nil {
		return bad("choices", "only choice options have choices")
	}
	switch o.Type {
	case "bool":
		if _, ok := o.Default.(bool); !ok {
			return bad("default", "%v is not a bool", jsonish(o.Default))
		}
	case "string":
		if _, ok := o.Default.(string); !ok {
			return bad("default", "%v is not a string", jsonish(o.Default))
		}
	case "choice":
		if len(o.Choices) == 0 {
			return bad("choices", "a choice option needs at least one choice")
		}
		for i, c := range o.Choices {
			if slices.Contains(o.Choices[:i], c) {
				return bad(fmt.Sprintf("choices[%d]", i), "%q is listed twice", c)
			}
		}
		s, ok := o.Default.(string)
		if !ok || !slices.Contains(o.Choices, s) {
			return bad("default", "%v is not one of the choices", jsonish(o.Default))
		}
	default:
		v, ok := o.Default.(float64)
		if !ok {
			return bad("default", "%v is not a number", jsonish(o.Default))
		}
		if o.Type == "int" && (v != math.Trunc(v) || math.Abs(v) > MaxID) {
			return bad("default", "%v is not an integer", v)
		}
		if o.Min != nil && o.Max != nil && *o.Min > *o.Max {
			return bad("min", "%v is above max %v", *o.Min, *o.Max)
		}
		if o.Min != nil && v < *o.Min {
			return bad("default", "%v is below min %v", v, *o.Min)
		}
		if o.Max != nil && v > *o.Max {
			return bad("default", "%v is above max %v", v, *o.Max)
		}
	}
	return nil
}

// jsonish formats a decoded JSON value for an error message.
func jsonish(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

func (m *Options) check() error {
	names := make([]string, 0, len(m.Values))
	for name := range m.Values {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := checkName("values", name); err != nil {
			return err
		}
		switch m.Values[name].(type) {
		case bool, float64, string:
		default:
			return bad("values."+name, "%s is not a bool, a number or a string", jsonish(m.Values[name]))
		}
	}
	return nil
}

func (m *NewGame) check() error {
	if err := firstErr(inRange("game", m.Game, 0, MaxID), inRange("seed", m.Seed, 0, MaxID)); err != nil {
		return err
	}
	if err := m.Rules.check(); err != nil {
		return within("rules", err)
	}
	return inRange("seat", m.Seat, 0, m.Rules.Seats-1)
}

func (r *Rules) check() error {
	err := firstErr(inRange("pairs", r.Pairs, 1, MaxPairs),
		inRange("singletons", r.Singletons, 0, MaxSingletons),
		inRange("seats", r.Seats, 1, MaxSeats))
	if err != nil {
		return err
	}
	if _, err := rules.ParsePassRule(r.Pass); err != nil {
		return bad("pass", "%v", err)
	}
	if err := checkChoices("choices", r.Choices); err != nil {
		return err
	}
	return r.checkVariant()
}

// checkVariant checks the variant's fields: copies even from 2 to rules.MaxCopies making whole
// faces, a known flip rule, a turn limit not negative.
func (r *Rules) checkVariant() error {
	c := r.Copies
	if c == 0 {
		c = rules.DefaultCopies
	}
	switch {
	case r.Copies < 0 || c%2 != 0 || c > rules.MaxCopies:
		return bad("copies", "%d is not an even number from 2 to %d", r.Copies, rules.MaxCopies)
	case (2*r.Pairs)%c != 0:
		return bad("copies", "%d pairs do not make whole faces of %d cards (pairs must be a multiple of %d)", r.Pairs, c, c/2)
	case r.TurnLimit < 0:
		return bad("turn_limit", "%d is negative (0 for no limit)", r.TurnLimit)
	}
	if r.Flips != "" {
		if _, err := rules.ParseFlips(r.Flips); err != nil {
			return bad("flips", "%v", err)
		}
	}
	return nil
}

// checkChoices checks a list of choice names: known, none twice, daring among them.
func checkChoices(field string, cs []string) error {
	for i, c := range cs {
		if _, err := rules.ParseChoice(c); err != nil {
			return bad(fmt.Sprintf("%s[%d]", field, i), "%v", err)
		}
		if slices.Contains(cs[:i], c) {
			return bad(fmt.Sprintf("%s[%d]", field, i), "%q is listed twice", c)
		}
	}
	if !slices.Contains(cs, "daring") {
		return bad(field, "daring is missing (every choice set holds it)")
	}
	return nil
}

// gameSeat checks a game id and a seat.
func gameSeat(game int64, seat int) error {
	return firstErr(inRange("game", game, 0, MaxID), inRange("seat", seat, 0, MaxSeats-1))
}

func (m *FlipEvent) check() error {
	return firstErr(gameSeat(m.Game, m.Seat), inRange("pos", m.Pos, 0, MaxCards-1),
		inRange("face", m.Face, 0, MaxFaces-1))
}

func (m *PairEvent) check() error {
	err := firstErr(gameSeat(m.Game, m.Seat), inRange("face", m.Face, 0, MaxPairs-1),
		inRange("positions[0]", m.Positions[0], 0, MaxCards-1),
		inRange("positions[1]", m.Positions[1], 0, MaxCards-1))
	if err == nil && m.Positions[0] == m.Positions[1] {
		return bad("positions", "the two positions are the same (%d)", m.Positions[0])
	}
	return err
}

func (m *PassEvent) check() error { return gameSeat(m.Game, m.Seat) }

func (m *Handover) check() error { return gameSeat(m.Game, m.Seat) }

func (m *End) check() error {
	if err := inRange("game", m.Game, 0, MaxID); err != nil {
		return err
	}
	if len(m.Scores) < 1 || len(m.Scores) > MaxSeats {
		return bad("scores", "%d scores (allowed: 1 to %d, one per seat)", len(m.Scores), MaxSeats)
	}
	for i, s := range m.Scores {
		if s < 0 || s > MaxPairs {
			return inRange(fmt.Sprintf("scores[%d]", i), s, 0, MaxPairs)
		}
	}
	return nil
}

func (m *Move) check() error {
	err := firstErr(inRange("game", m.Game, 0, MaxID), inRange("card", m.Card, 1, 2),
		inRange("deadline_ms", m.DeadlineMS, 1, MaxDeadline))
	if err != nil {
		return err
	}
	if len(m.Legal) == 0 {
		return bad("legal", "is empty (a move request offers at least one position)")
	}
	for i, p := range m.Legal {
		if p < 0 || p > MaxCards-1 {
			return inRange(fmt.Sprintf("legal[%d]", i), p, 0, MaxCards-1)
		}
		if i > 0 && p <= m.Legal[i-1] {
			return bad(fmt.Sprintf("legal[%d]", i), "%d does not follow %d (positions are listed in increasing order)", p, m.Legal[i-1])
		}
	}
	if m.Pass && m.Card != 1 {
		return bad("pass", "only a first card may be a pass")
	}
	switch {
	case m.Blind && m.Card != 1:
		return bad("blind", "only a first-card request names both cards")
	case m.Blind && len(m.Legal) < 2:
		return bad("legal", "%d positions for a blind request, which names two", len(m.Legal))
	case m.Turn < 0:
		return bad("turn", "%d is negative", m.Turn)
	}
	if m.State == nil {
		switch {
		case m.Known != nil:
			return bad("known", "is sent only with state")
		case m.Choices != nil:
			return bad("choices", "are sent only with state")
		}
		return nil
	}
	if err := m.State.check(); err != nil {
		return within("state", err)
	}
	for i, c := range m.Known {
		if c.Pos >= 0 && c.Pos < MaxCards && c.Face >= 0 && c.Face < MaxFaces && (i == 0 || c.Pos > m.Known[i-1].Pos) {
			continue
		}
		f := fmt.Sprintf("known[%d]", i)
		if err := firstErr(inRange(f+".pos", c.Pos, 0, MaxCards-1), inRange(f+".face", c.Face, 0, MaxFaces-1)); err != nil {
			return err
		}
		return bad(f+".pos", "%d does not follow %d (cards are listed by increasing position)", c.Pos, m.Known[i-1].Pos)
	}
	switch {
	case m.Card == 1 && m.Choices == nil:
		return bad("choices", "is missing (a first-card request with state lists the choices open)")
	case m.Card == 2 && m.Choices != nil:
		return bad("choices", "are sent with the first card only")
	case m.Card == 1:
		return checkChoices("choices", m.Choices)
	}
	return nil
}

func (m *Position) check() error {
	if err := inRange("game", m.Game, 0, MaxID); err != nil {
		return err
	}
	if err := m.Rules.check(); err != nil {
		return within("rules", err)
	}
	if err := m.State.check(); err != nil {
		return within("state", err)
	}
	st, r := m.State, m.Rules
	switch {
	case st.N < 1 || st.N > r.Pairs:
		return bad("state.n", "%d is out of range (1 to rules.pairs %d)", st.N, r.Pairs)
	case st.S != r.Singletons:
		return bad("state.s", "%d is not rules.singletons %d", st.S, r.Singletons)
	case r.Seats != 2 && st.Lead != 0:
		return bad("state.lead", "%d: the lead is 0 unless there are 2 seats", st.Lead)
	case abs(st.Lead) > r.Pairs-st.N:
		return bad("state.lead", "%d is out of range (-%d to %d: the pairs taken)", st.Lead, r.Pairs-st.N, r.Pairs-st.N)
	}
	if err := checkChoices("choices", m.Choices); err != nil {
		return err
	}
	for i, c := range m.Choices {
		if !slices.Contains(r.Choices, c) {
			return bad(fmt.Sprintf("choices[%d]", i), "%q is not in rules.choices", c)
		}
	}
	return nil
}

// abs returns |x|.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (s *State) check() error {
	return firstErr(inRange("n", s.N, 0, MaxPairs), inRange("j", s.J, 0, s.N),
		inRange("s", s.S, 0, MaxSingletons), inRange("f", s.F, 0, s.S),
		inRange("lead", s.Lead, -MaxPairs, MaxPairs))
}

func (m *Flip) check() error {
	return firstErr(inRange("game", m.Game, 0, MaxID), inRange("pos", m.Pos, 0, MaxCards-1))
}

func (m *Pass) check() error { return inRange("game", m.Game, 0, MaxID) }

func (m *Flips) check() error {
	err := firstErr(inRange("game", m.Game, 0, MaxID),
		inRange("positions[0]", m.Positions[0], 0, MaxCards-1),
		inRange("positions[1]", m.Positions[1], 0, MaxCards-1))
	if err == nil && m.Positions[0] == m.Positions[1] {
		return bad("positions", "the two positions are the same (%d)", m.Positions[0])
	}
	return err
}

func (m *Choice) check() error {
	if err := inRange("game", m.Game, 0, MaxID); err != nil {
		return err
	}
	if _, err := rules.ParseChoice(m.Choice); err != nil {
		return bad("choice", "%v", err)
	}
	return nil
}

// CheckPositionReply reports whether reply, a message a player wrote, answers the position query
// q: a Choice among the choices q offers, for q's id.
func CheckPositionReply(q *Position, reply Message) error {
	r, ok := reply.(*Choice)
	switch {
	case !ok:
		if _, isReply := ReplyGame(reply); isReply {
			return bad("type", "position query %d takes a choice, not a %s", q.Game, reply.Type())
		}
		return fmt.Errorf("a %s message is not a reply to a position query", reply.Type())
	case r.Game != q.Game:
		return bad("game", "%d does not match the query's id %d", r.Game, q.Game)
	case !slices.Contains(q.Choices, r.Choice):
		return bad("choice", "%q is not open in position query %d (open: %v)", r.Choice, q.Game, q.Choices)
	}
	return nil
}

// ReplyGame returns the game a player's reply (Flip, Flips, Pass or Choice) is for, and false for a
// message that is no reply.
func ReplyGame(m Message) (game int64, ok bool) {
	switch m := m.(type) {
	case *Flip:
		return m.Game, true
	case *Flips:
		return m.Game, true
	case *Pass:
		return m.Game, true
	case *Choice:
		return m.Game, true
	}
	return 0, false
}

// CheckReply reports whether reply, a message a player wrote, answers the move request req:
// a Flip of one of its legal positions (Flips of two, for a blind request), a Pass where it
// allows one, or a Choice among the choices it offers, each for req's game.
func CheckReply(req *Move, reply Message) error {
	game, ok := ReplyGame(reply)
	if !ok {
		return fmt.Errorf("a %s message is not a reply to a move request", reply.Type())
	}
	switch r := reply.(type) {
	case *Flip:
		if req.Blind {
			return bad("type", "game %d's request is blind: it takes both cards at once, a flips reply", req.Game)
		}
		if _, ok := slices.BinarySearch(req.Legal, r.Pos); !ok {
			return bad("pos", "%d is not a legal position of game %d's card %d", r.Pos, req.Game, req.Card)
		}
	case *Flips:
		if !req.Blind {
			return bad("type", "game %d's card %d takes one card, a flip reply (flips answers a blind request)", req.Game, req.Card)
		}
		for i, p := range r.Positions {
			if _, ok := slices.BinarySearch(req.Legal, p); !ok {
				return bad(fmt.Sprintf("positions[%d]", i), "%d is not a legal position of game %d's turn", p, req.Game)
			}
		}
	case *Pass:
		if !req.Pass {
			return bad("type", "game %d's card %d may not be a pass", req.Game, req.Card)
		}
	case *Choice:
		if !slices.Contains(req.Choices, r.Choice) {
			if req.Choices == nil {
				return bad("type", "game %d's card %d takes a flip or a pass, not a choice", req.Game, req.Card)
			}
			return bad("choice", "%q is not open in game %d (open: %v)", r.Choice, req.Game, req.Choices)
		}
	}
	if game != req.Game {
		return bad("game", "%d does not match the request's game %d", game, req.Game)
	}
	return nil
}
