package sim

import (
	"errors"
	"fmt"
	"unsafe"

	"memsim/sim/rules"
)

// MaxCards is the largest number of cards (2 × pairs + singletons) the engine deals.
const MaxCards = 4096

// Player is one seat's player: a name, a memory and a way of choosing flips. A player either
// follows a policy table, which the engine plays itself (see Table), or a Strategy.
type Player struct {
	Name   string
	Memory rules.Memory
	// Table, when not nil, is the player's policy. At the start of each turn the player takes a
	// pair it remembers both cards of, if any; otherwise it looks up the choice for the count
	// state its own memory sees (n, j, s, f), after a pass by the previous seat or not (a table
	// with more pass streaks, rules.NewPassChoiceTable, after that many passes in a row), and plays
	// it as docs/models.md §5.2 describes: daring flips a card it does not remember and, unless
	// that card's partner is remembered (then it takes the pair), another such card; safe flips a
	// remembered card second instead; known-first flips a remembered card (the first half-known
	// pair's card of its memory's list, else a singleton) and then one it does not remember; pass
	// gives up the turn without flipping. A card that turns out to be a singleton is followed by
	// a remembered card if there is one. Where the rules leave that remembered card open, the
	// engine takes the least recently seen one under lru forgetting and perfect memory, and the
	// first of its list otherwise (the exact models' values do not depend on it, §5.4, but a
	// private lru memory beside the mover's sees the card flipped); a blind safe move names the
	// least recently seen one under lru and the first of its list otherwise. With more than two copies
	// of a face, a table whose Copies is not nil is read by the state of faces its memory sees
	// (docs/models.md §4.16), and known-first flips, and a blind safe move names, the remembered
	// card of a face with the most cards on the table.
	Table *rules.ChoiceTable
	// NewStrategy returns the player's strategy, when Table is nil. It is called once per game
	// engine (one per worker), so a strategy may keep state between its calls.
	NewStrategy func() Strategy
	// Luck, when not nil, is the luck table of the model of the player's own memory (of either
	// scope; perfect, lru or handover-uniform) under the game's pass rule, for a player that
	// follows a Table: the luck of its turns is then taken out turn by turn from that model
	// (docs/models.md §5.6), not card by card from the public record. It needs Setup.Luck.
	Luck *rules.LuckTable
	// Forfeit, for a player with a strategy, makes a fault of its player (an error wrapping a
	// *Fault from its Fail, BeginGame or EndGame, or an illegal move) lose the game instead of
	// failing it: the game ends at the fault, the player keeps the pairs it took and the other
	// seats share the pairs left on the table (Outcome.Fault). A game that the failure of another
	// game stopped (ErrStopped) is played again from its start by Match.Play, on the same deal
	// and streams.
	Forfeit bool
}

// Setup is a game to play: the deal and the rules, and the players in seat order (seat 0 moves
// first).
type Setup struct {
	// Pairs is the deal size in pairs of cards (2·Pairs cards share Variant.Faces(Pairs) faces);
	// Singletons the cards whose face matches no other.
	Pairs, Singletons int
	Pass              rules.PassRule
	// Variant holds the rules in which the game differs from the standard one (docs/models.md
	// §1.7); the zero Variant is the standard game.
	Variant rules.Variant
	Players []Player
	// Luck, when not nil, is the reference value function of luck-adjusted scores
	// (Outcome.Adjusted, docs/models.md §5.6): the table of the model of the players' shared memory
	// when every seat follows a table and shares it; otherwise a perfect-memory table, which
	// values the public record of the cards seen, for the turns no player's own table (Player.Luck)
	// describes. Under a rule variant the table is of that variant, and only the first kind
	// adjusts the games (every seat a table sharing its model's memory).
	Luck *rules.LuckTable
}

// Validate reports whether the setup can be played.
func (s Setup) Validate() error {
	switch {
	case s.Pairs < 1:
		return fmt.Errorf("pairs %d: must be at least 1", s.Pairs)
	case s.Singletons < 0:
		return fmt.Errorf("singletons %d: must be at least 0", s.Singletons)
	case 2*s.Pairs+s.Singletons > MaxCards:
		return fmt.Errorf("%d pairs and %d singletons: at most %d cards", s.Pairs, s.Singletons, MaxCards)
	case len(s.Players) < 1 || len(s.Players) > rules.MaxPlayers:
		return fmt.Errorf("%d players: must be between 1 and %d", len(s.Players), rules.MaxPlayers)
	case s.Pass > rules.PassAlways:
		return fmt.Errorf("pass rule %s: unknown", s.Pass)
	}
	if err := s.Variant.Validate(); err != nil {
		return err
	}
	if err := s.Variant.ValidateDeal(s.Pairs); err != nil {
		return err
	}
	if _, err := s.checkLuck(); err != nil {
		return err
	}
	for i, p := range s.Players {
		if err := p.Memory.Validate(); err != nil {
			return fmt.Errorf("player %q (seat %d): %w", p.Name, i, err)
		}
		switch {
		case p.Table == nil && p.NewStrategy == nil:
			return fmt.Errorf("player %q (seat %d): neither a policy table nor a strategy", p.Name, i)
		case p.Forfeit && p.Table != nil:
			return fmt.Errorf("player %q (seat %d): a player that forfeits has a strategy, not a policy table", p.Name, i)
		case p.Table != nil && p.Table.MaxLead() >= 0 && len(s.Players) != 2:
			return fmt.Errorf("player %q (seat %d): its policy table plays to win, which is defined for 2 players, not %d", p.Name, i, len(s.Players))
		case p.Table != nil && p.Table.Standings() != nil && p.Table.Standings().Players() != len(s.Players):
			return fmt.Errorf("player %q (seat %d): its policy table plays to win at %d seats, the game has %d", p.Name, i, p.Table.Standings().Players(), len(s.Players))
		case p.Table != nil && p.Table.Copies() != nil && p.Table.Copies().Copies() != s.Variant.CopiesOf():
			return fmt.Errorf("player %q (seat %d): its policy table is for copies %d, the game has copies %d",
				p.Name, i, p.Table.Copies().Copies(), s.Variant.CopiesOf())
		case p.Table != nil && (p.Table.MaxPairs() < s.Pairs || p.Table.Singletons() != s.Singletons):
			return fmt.Errorf("player %q (seat %d): its policy table covers %d pairs and %d singletons, the game has %d and %d",
				p.Name, i, p.Table.MaxPairs(), p.Table.Singletons(), s.Pairs, s.Singletons)
		}
	}
	return nil
}

// GameID identifies one game of a run: the run's seed, the streams of its deal and of its play,
// and its index. The same GameID always gives the same game.
type GameID struct {
	Seed       uint64
	DealStream uint64
	PlayStream uint64
	Index      uint64
}

// Outcome is the result of the game an engine played last. Its slices are reused by the next game.
type Outcome struct {
	// Pairs[i] is the number of pairs seat i collected.
	Pairs []int
	// Share[i] is seat i's score in units of 1/len(Pairs) pairs: its pairs, plus an equal part of
	// the pairs left on the table when the game ended in a stalemate, or, when another seat
	// forfeited it, of the pairs that seat conceded (see Player.Forfeit).
	Share []int
	// Turns is the number of turns played (each flips two cards, or none for a pass).
	Turns int
	// Limited reports whether the game ended at the variant's turn limit with pairs still on the
	// table (Left of them), which count for nobody.
	Limited bool
	// Stalemate reports whether the game ended because every seat passed in turn; Left is the
	// number of pairs then left on the table, or those a forfeit conceded.
	Stalemate bool
	Left      int
	// Fault, when not 0, is the kind of fault by which seat FaultSeat forfeited the game
	// (Player.Forfeit): the game ended at the fault, after Turns turns.
	Fault     FaultKind
	FaultSeat int
	// Adjusted[i] is seat i's luck-adjusted score in pairs (docs/models.md §5.6), when the setup
	// has a luck table; nil otherwise.
	Adjusted []float64
}

// deal is the table: the face of every position. Two cards match when their faces are equal.
type deal struct {
	face  []int32 // pair faces 0..pairs-1 (copies cards each), singletons pairs..pairs+singletons-1
	pairs int32   // the number of pair faces
	seen  []bool  // seen[pos]: turned face up at least once in this game
}

// Game plays games of one setup. It is not safe for concurrent use: give each worker its own.
type Game struct {
	_        [64]byte // padding: the engines of two workers must not share cache lines
	setup    Setup
	cards    int
	players  int
	deal     deal
	present  []bool
	down     []int32 // cards on the table
	downAt   []int32
	identity []int32 // 0, 1, 2, ...
	ordered  []int32 // the cards in their starting order: 0, 0, 1, 1, ..., then the singletons
	copies   int     // cards of each pair face
	cs       copiesScratch
	blind    bool  // both cards of a turn are named before either is turned up
	limit    int32 // the turn limit, 0 for none
	left     int   // pairs on the table
	mems     []memory
	seatMem  []int
	strat    []Strategy
	// observers lists the seats whose strategies follow every event (Observer).
	observers []observer
	tables    []*rules.ChoiceTable
	maxTurns  int

	luck      luckMode
	luckStart []float64 // every seat's value at the start of a game
	// The card mode's state: the public record, the first card of the turn (-1 before it), the
	// turn's choice (noTurnChoice for a strategy), every seat's luck so far, and the partner of
	// every position.
	public     publicCounts
	luckFirst  int32
	luckChoice rules.Choice
	luckSum    seatValues
	faceSeen   []uint8 // the cards of every pair face seen so far (0, 1 or 2)
	// seatLuck[i] is seat i's own model table (nil: its turns are adjusted card by card); during
	// a turn adjusted from it, modelTurn is set and turnQ holds every seat's expected score at the
	// turn's end.
	seatLuck  []*rules.LuckTable
	modelTurn bool
	turnQ     seatValues
	// pubValues holds every seat's value of every public record (newPublicValues).
	pubValues            []float64
	pubWidth, pubSingles int

	id    GameID
	turn  int32
	lucky int // turns whose two cards, neither remembered, matched
	// begun is the number of observers that began the game; errSeat the seat of the last
	// player's failure (playerError), and fault the failure of the last game forfeited.
	begun   int
	errSeat int
	fault   error

	fast      bool         // games without a log take the perfect-memory path
	perfect   perfectState // its memory
	noneFaces []int32      // -1 for every pair face
	choices   seatChoices  // the tables written out, for the lean paths
	// perfectListed: some seat's table can choose known-first, so the perfect-memory path keeps
	// the list of remembered cards
	perfectListed bool
	limited       bool        // games without a log take the limited-memory path
	lean          *leanMemory // its memory
	mover         int         // the seat moving in the current turn
	play          rng
	view          View
	log           *Log
	outcome       Outcome
	_             [64]byte
}

// NewGame returns an engine for the setup.
func NewGame(s Setup) (*Game, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	cards := 2*s.Pairs + s.Singletons
	pairFaces := s.Variant.Faces(s.Pairs)
	faces := pairFaces + s.Singletons
	g := &Game{
		setup:   s,
		cards:   cards,
		players: len(s.Players),
		copies:  s.Variant.CopiesOf(),
		blind:   s.Variant.Flips == rules.FlipsBlind,
		limit:   int32(s.Variant.TurnLimit),
		deal: deal{
			face:  padded[int32](cards),
			pairs: int32(pairFaces),
			seen:  padded[bool](cards),
		},
		present: padded[bool](cards),
		down:    padded[int32](cards),
		downAt:  padded[int32](cards),
		seatMem: padded[int](len(s.Players)),
		strat:   make([]Strategy, len(s.Players)),
		tables:  make([]*rules.ChoiceTable, len(s.Players)),
		// A bound no sensible strategy comes near: it turns a strategy that never ends a game
		// into an error rather than a hang.
		maxTurns: maxTurnsFor(cards),
		outcome: Outcome{
			Pairs: padded[int](len(s.Players)),
			Share: padded[int](len(s.Players)),
		},
	}
	noneAt := padded[int32](cards)
	identity := padded[int32](cards)
	for i := range cards {
		noneAt[i], identity[i] = -1, int32(i)
	}
	g.identity = identity
	g.ordered = padded[int32](cards)
	for pos := range cards {
		if pos < 2*s.Pairs {
			g.ordered[pos] = int32(pos / g.copies)
		} else {
			g.ordered[pos] = int32(pairFaces + pos - 2*s.Pairs)
		}
	}
	// Players with the same memory share it unless it is private; perfect memories are all alike.
	for i, p := range s.Players {
		g.seatMem[i] = -1
		if p.Memory.Scope == rules.ScopeShared || p.Memory.Perfect() {
			for k := range i {
				q := s.Players[k].Memory
				if g.seatMem[k] >= 0 && sameMemory(p.Memory, q) {
					g.seatMem[i] = g.seatMem[k]
					break
				}
			}
		}
		if g.seatMem[i] < 0 {
			g.seatMem[i] = len(g.mems)
			g.mems = append(g.mems, newMemory(p.Memory, cards, faces, g.copies, noneAt, identity))
		}
		g.tables[i] = p.Table
		if p.Table == nil {
			g.strat[i] = p.NewStrategy()
			if g.strat[i] == nil {
				return nil, fmt.Errorf("player %q (seat %d): its strategy constructor returned nil", p.Name, i)
			}
			if o, ok := g.strat[i].(Observer); ok {
				g.observers = append(g.observers, observer{seat: i, o: o})
			}
		}
	}
	g.view.g = g
	g.luck, _ = s.checkLuck() // checked by Validate
	if g.luck == luckTurns {
		g.faceSeen = padded[uint8](s.Pairs)
		g.seatLuck = make([]*rules.LuckTable, len(s.Players))
		for i, p := range s.Players {
			g.seatLuck[i] = p.Luck
		}
		g.newPublicValues()
	}
	if g.luck == luckModel && g.copies != rules.DefaultCopies {
		g.cs.faces = newFacesTrack(&g.mems[0], int(g.deal.pairs), g.copies)
	}
	if g.luck != luckNone {
		start, err := s.newLuckStart()
		if err != nil {
			return nil, err
		}
		g.luckStart = start
		g.outcome.Adjusted = padded[float64](len(s.Players))
	}
	if !s.Variant.Standard() {
		// The lean paths play the standard game only.
		return g, nil
	}
	if mem, ok := g.limitedEligible(); ok {
		g.limited = true
		g.choices, _ = g.newSeatChoices()
		g.lean = newLeanMemory(mem, g.deal.face)
	}
	if g.fast = g.perfectEligible(); g.fast {
		g.choices, g.perfectListed = g.newSeatChoices()
		g.noneFaces = noneAt[:s.Pairs]
		g.perfect = perfectState{kp: padded[int32](s.Pairs), kf: padded[bool](s.Pairs),
			indexedList: indexedList{items: padded[int32](cards)[:0], at: padded[int32](cards)}}
		copy(g.perfect.kp, g.noneFaces)
	}
	return g, nil
}

// sameMemory reports whether two memories can be one shared memory.
func sameMemory(a, b rules.Memory) bool {
	if a.Perfect() && b.Perfect() {
		return true
	}
	return a.Scope == rules.ScopeShared && b.Scope == rules.ScopeShared &&
		a.Capacity == b.Capacity && a.Forget == b.Forget && a.Decay == b.Decay && a.Fluctuation == b.Fluctuation
}

// Setup returns the setup the engine plays.
func (g *Game) Setup() Setup { return g.setup }

// Outcome returns the result of the last game played.
func (g *Game) Outcome() *Outcome { return &g.outcome }

// ErrIllegal marks errors caused by a strategy's illegal move or panic.
var ErrIllegal = errors.New("illegal move")

// moveError reports a strategy's fault, naming the strategy, the game and the seed.
func (g *Game) moveError(seat int, format string, args ...any) error {
	return g.playerError(seat, fmt.Errorf("%w: %s", ErrIllegal, fmt.Sprintf(format, args...)))
}

// playerError reports err, a failure of the seat's player, naming the player, the game and the
// seed; the error wraps err.
func (g *Game) playerError(seat int, err error) error {
	g.errSeat = seat
	return fmt.Errorf("player %q (seat %d), game %d (seed %d, deal stream %d, play stream %d), turn %d: %w",
		g.setup.Players[seat].Name, seat, g.id.Index, g.id.Seed, g.id.DealStream, g.id.PlayStream, g.turn, err)
}

// Play plays the game id on a freshly shuffled deal. With log not nil it records every flip and
// turn in it.
func (g *Game) Play(id GameID, log *Log) error {
	r := seedRNG(id.Seed, id.DealStream, id.Index)
	shuffle(g.deal.face, g.ordered, &r)
	return g.playDealt(id, log)
}

// PlayDeal plays the game id on a given deal: faces[pos] is the face of the card at pos, pair
// faces 0 .. F-1 appearing Variant.CopiesOf() times each (F = Variant.Faces(Pairs); twice in the
// standard game, where F = Pairs) and singleton faces F .. F+Singletons-1 once. id.DealStream is
// not used.
func (g *Game) PlayDeal(id GameID, faces []int, log *Log) error {
	if len(faces) != g.cards {
		return fmt.Errorf("deal of %d cards: the game has %d", len(faces), g.cards)
	}
	pairFaces := int(g.deal.pairs)
	seen := make([]int, pairFaces+g.setup.Singletons)
	for pos, f := range faces {
		if f < 0 || f >= len(seen) {
			return fmt.Errorf("deal: card %d has face %d (allowed: 0 to %d)", pos, f, len(seen)-1)
		}
		seen[f]++
		if (f < pairFaces && seen[f] > g.copies) || (f >= pairFaces && seen[f] > 1) {
			return fmt.Errorf("deal: face %d appears too often", f)
		}
		g.deal.face[pos] = int32(f)
	}
	return g.playDealt(id, log)
}

// playDealt plays the game id on the deal in g.deal.face.
func (g *Game) playDealt(id GameID, log *Log) (err error) {
	g.id, g.log = id, log
	if log != nil {
		log.reset(g)
	}
	if log == nil && (g.fast || g.limited) {
		// No strategies, so no strategy's panic to catch.
		if g.fast {
			return g.playPerfect() // it draws no random number
		}
		g.play = seedRNG(id.Seed, id.PlayStream, id.Index)
		return g.playLimited()
	}
	g.layOut()
	g.play = seedRNG(id.Seed, id.PlayStream, id.Index)
	for i := range g.mems {
		if g.mems[i].sigma > 0 {
			g.mems[i].fl = seedRNG(id.Seed, fluctuationStream(id.PlayStream, i), id.Index)
		}
	}
	g.errSeat = -1
	err = g.runCaught()
	if err == nil || g.errSeat < 0 || !g.setup.Players[g.errSeat].Forfeit {
		return err
	}
	if k := faultOf(err); k != 0 {
		return g.forfeit(g.errSeat, k, err)
	}
	return err
}

// runCaught plays the game, turning a panic in a strategy into the mover's illegal move.
func (g *Game) runCaught() (err error) {
	seat := -1
	defer func() {
		if r := recover(); r != nil {
			if seat < 0 {
				panic(r)
			}
			err = g.moveError(seat, "panic: %v", r)
		}
	}()
	return g.run(&seat)
}

// shuffle lays out a uniformly random deal in face: the cards in their starting order (so that
// the deal depends on r alone), then Fisher-Yates from the end, two swaps per 64-bit random number.
func shuffle(face, ordered []int32, r *rng) {
	copy(face, ordered)
	i := len(face) - 1
	for ; i > 1; i -= 2 {
		x := r.next()
		k := r.bounded32(uint32(x), uint32(i+1))
		face[i], face[k] = face[k], face[i]
		k = r.bounded32(uint32(x>>32), uint32(i))
		face[i-1], face[k] = face[k], face[i-1]
	}
	if i == 1 {
		k := r.bounded32(uint32(r.next()), 2)
		face[1], face[k] = face[k], face[1]
	}
}

// layOut sets the table up for the deal in g.deal.face: every card face down and unseen, and
// every memory empty.
func (g *Game) layOut() {
	d := &g.deal
	n := int32(g.setup.Pairs)
	g.down = g.down[:g.cards]
	copy(g.down, g.identity)
	copy(g.downAt, g.identity)
	clear(d.seen)
	for i := range g.present {
		g.present[i] = true
	}
	g.left = int(n)
	for i := range g.mems {
		g.mems[i].reset()
	}
}

type turnEnd uint8

const (
	turnMatched turnEnd = iota // the mover took a pair and moves again
	turnMissed                 // the turn passes
	turnPassed                 // the mover passed
)

// run plays the game; *seat is the mover, for error reports.
func (g *Game) run(seat *int) error {
	o := &g.outcome
	clear(o.Pairs)
	o.Stalemate, o.Left, o.Limited = false, 0, false
	o.Fault, o.FaultSeat = 0, 0
	g.turn = 0
	g.lucky = 0
	copy(o.Adjusted, g.luckStart)
	if g.luck == luckTurns {
		g.startCardLuck()
	}
	if g.cs.faces != nil {
		g.cs.faces.reset()
	}
	if len(g.observers) > 0 {
		if err := g.beginObservers(); err != nil {
			return err
		}
	}
	passes := 0
	*seat = 0
	for g.left > 0 {
		if g.turn == g.limit && g.limit > 0 {
			o.Limited, o.Left = true, g.left
			break
		}
		if int(g.turn) >= g.maxTurns {
			return g.moveError(*seat, "the game did not end within %d turns", g.maxTurns)
		}
		g.turn++
		g.mover = *seat
		g.luckFirst, g.luckChoice = -1, noTurnChoice
		if m := &g.mems[g.seatMem[*seat]]; m.sigma > 0 {
			m.fluctuate(&g.deal)
		}
		var end turnEnd
		var err error
		if t := g.tables[*seat]; t != nil {
			end, err = g.tableTurn(*seat, t, passes)
		} else {
			end, err = g.strategyTurn(*seat, passes)
		}
		if err != nil {
			return err
		}
		if g.log != nil {
			g.log.endTurn(g, *seat, end)
		}
		if end == turnMatched {
			passes = 0
			if g.modelTurn {
				g.endModelTurn(*seat, *seat, false)
			}
			continue
		}
		for i := range g.mems {
			g.mems[i].handOver(&g.deal, g.turn, &g.play)
		}
		mover := *seat
		if end == turnPassed {
			if len(g.observers) > 0 {
				g.emit(Event{Kind: EventPass, Seat: mover})
			}
			passes++
			if passes == g.players {
				o.Stalemate, o.Left = true, g.left
				if g.modelTurn {
					g.endModelTurn(mover, -1, true)
				}
				break
			}
		} else {
			passes = 0
		}
		*seat++
		if *seat == g.players {
			*seat = 0
		}
		if len(g.observers) > 0 {
			g.emit(Event{Kind: EventHandover, Seat: *seat})
		}
		if g.modelTurn {
			g.endModelTurn(mover, *seat, end == turnPassed)
		}
	}
	o.Turns = int(g.turn)
	shared := o.Left
	if o.Limited {
		shared = 0 // the pairs left at the turn limit count for nobody
	}
	for i := range o.Share {
		o.Share[i] = o.Pairs[i]*g.players + shared
	}
	if g.luck == luckTurns {
		g.endCardLuck()
	}
	if len(g.observers) > 0 {
		return g.endObservers()
	}
	return nil
}

// flip turns pos face up: every memory sees it.
func (g *Game) flip(pos int32) {
	if g.luck == luckTurns {
		if d := &g.deal; !d.seen[pos] {
			if !g.modelTurn {
				g.cardLuck(pos)
			}
			f := d.face[pos]
			single := f >= d.pairs
			g.public.see(single, !single && g.faceSeen[f] > 0)
			if !single {
				g.faceSeen[f]++
			}
		}
		if g.luckFirst < 0 {
			g.luckFirst = pos
		}
	}
	for i := range g.mems {
		g.mems[i].see(&g.deal, pos, g.turn)
	}
	if g.cs.faces != nil {
		g.cs.faces.update(g.deal.face[pos])
	}
	g.deal.seen[pos] = true
	if g.log != nil {
		g.log.flip(g, pos, g.deal.face[pos])
	}
	if len(g.observers) > 0 {
		g.emit(Event{Kind: EventFlip, Seat: g.mover, Pos: int(pos), Face: int(g.deal.face[pos])})
	}
}

// take removes the matching face-up cards a and b and credits the mover.
func (g *Game) take(seat int, a, b int32) turnEnd {
	for _, pos := range [2]int32{a, b} {
		for i := range g.mems {
			g.mems[i].remove(&g.deal, pos)
		}
		g.present[pos] = false
		i := g.downAt[pos]
		last := g.down[len(g.down)-1]
		g.down[i] = last
		g.downAt[last] = i
		g.down = g.down[:len(g.down)-1]
	}
	g.left--
	g.outcome.Pairs[seat]++
	if g.cs.faces != nil {
		g.cs.faces.took(g.deal.face[a])
	}
	if len(g.observers) > 0 {
		g.emit(Event{Kind: EventPair, Seat: seat, Pos: int(a), Pos2: int(b), Face: int(g.deal.face[a])})
	}
	if g.luck == luckTurns {
		g.public.both--
	}
	return turnMatched
}

// tableTurn plays one turn of a player that follows a policy table, after passes seats passed in
// a row.
func (g *Game) tableTurn(seat int, t *rules.ChoiceTable, passes int) (turnEnd, error) {
	afterPass := passes > 0
	m := &g.mems[g.seatMem[seat]]
	d := &g.deal
	if m.full > 0 {
		if a, b, ok := m.knownPair(d); ok {
			g.flip(a)
			g.flip(b)
			return g.take(seat, a, b), nil
		}
	}
	st := m.state(g.left, g.setup.Singletons)
	if t.MaxLead() >= 0 && len(g.outcome.Pairs) == 2 {
		// A policy that plays to win reads the lead so far, its pairs minus the other seat's.
		st.Lead = g.outcome.Pairs[seat] - g.outcome.Pairs[1-seat]
	}
	var c rules.Choice
	var ok bool
	switch ct := t.Copies(); {
	case ct != nil && ct.StandingsPlayers() > 0:
		// Win-optimal at three or more seats under copies reads every seat's pairs so far, under
		// a pass rule the pass streak, and under a turn limit the layer of the turns left, this
		// one included.
		c, ok = g.copiesStandingsChoice(m, t.CopiesTurnsLeft(g.turnsLeft()), seat, passes)
	case ct != nil:
		// A copies table for a turn limit reads the layer of the turns left, this one included.
		c, ok = g.copiesChoice(m, t.CopiesTurnsLeft(g.turnsLeft()), st.Lead, passes)
	case t.Standings() != nil:
		// Win-optimal at three or more seats reads every seat's pairs so far, its own first, under
		// a pass rule the pass streak, under a turn limit the layer of the turns left, this one
		// included, and under a fluctuating capacity the layer of the capacity drawn for this turn.
		var buf [rules.MaxPlayers]int
		c, ok = t.StandingsAt(g.turnsLeft(), m.capacity).LookupPasses(st, g.pairsFrom(seat, &buf), passes)
	case t.TurnLimit() > 0 && m.sigma > 0:
		// Under a fluctuating capacity and a turn limit a table may read the capacity drawn for
		// this turn, then the turns left, this one included.
		c, ok = t.LookupCapacityTurnsLeftPasses(st, passes, m.capacity, g.turnsLeft())
	case t.TurnLimit() > 0:
		// A table for a turn limit reads the turns left, this one included (and the pass streak,
		// for every seat for itself under a pass rule).
		c, ok = t.LookupTurnsLeftPasses(st, passes, g.turnsLeft())
	case m.sigma > 0:
		// Under a fluctuating capacity a table may read the capacity drawn for this turn (and
		// the pass streak, for every seat for itself under a pass rule).
		c, ok = t.LookupCapacityPasses(st, passes, m.capacity)
	case passes < 2:
		c, ok = t.Lookup(st, afterPass)
	default:
		// A table of every seat for itself under a pass rule reads the pass streak.
		c, ok = t.LookupPasses(st, passes)
	}
	if !ok {
		return 0, g.moveError(seat, "its policy table has no choice for %v", st)
	}
	if !rules.Legal(st, c, g.setup.Pass) {
		return 0, g.moveError(seat, "its policy table chose %s in %v, which is not legal under pass rule %s", c, st, g.setup.Pass)
	}
	return g.playChoice(seat, m, st, afterPass, c)
}

// playChoice plays the legal choice c of the seat whose memory is m, in the state st it sees, as
// a table player plays it (docs/models.md §5.2, from step 3 on).
func (g *Game) playChoice(seat int, m *memory, st rules.State, afterPass bool, c rules.Choice) (turnEnd, error) {
	d := &g.deal
	switch g.luck {
	case luckModel:
		if err := g.adjustChoice(seat, m, st, afterPass, c); err != nil {
			return 0, err
		}
	case luckTurns:
		g.luckChoice = c
		if lt := g.seatLuck[seat]; lt != nil {
			if err := g.beginModelTurn(seat, lt, st, afterPass, c); err != nil {
				return 0, err
			}
		}
	}
	switch c {
	case rules.Pass:
		return turnPassed, nil
	case rules.KnownFirst:
		var k int32
		if g.copies > rules.DefaultCopies {
			k = g.mostCardsHalfKnown(m)
		} else {
			k = m.halfKnownCard(d)
		}
		g.flip(k)
		y := m.pickUnknown(&g.play)
		g.flip(y)
		if d.face[y] == d.face[k] {
			return g.take(seat, k, y), nil
		}
		return turnMissed, nil
	}
	if g.blind {
		return g.playBlind(seat, m, c)
	}
	x := m.pickUnknown(&g.play)
	g.flip(x)
	if p, ok := m.partnerOf(d, x); ok {
		g.flip(p)
		return g.take(seat, x, p), nil
	}
	single := d.face[x] >= d.pairs
	if single || c == rules.Safe {
		if k := m.oldestOther(x); k >= 0 {
			g.flip(k)
			return turnMissed, nil
		}
		if !single {
			return 0, g.moveError(seat, "safe move with no remembered card in %v", st)
		}
	}
	y := m.pickUnknown(&g.play)
	g.flip(y)
	if d.face[y] == d.face[x] {
		g.lucky++
		return g.take(seat, x, y), nil
	}
	return turnMissed, nil
}

// playBlind plays daring or safe under blind flips (docs/models.md §1.7): the mover names an
// unknown card and, before it is turned up, a second card: another unknown card for daring and a
// remembered one for safe, or the other kind when there is none of that kind. With more than two
// copies of a face the remembered card is one of a face with the most cards on the table, as
// known-first flips (§4.16), when a face has one remembered card.
func (g *Game) playBlind(seat int, m *memory, c rules.Choice) (turnEnd, error) {
	d := &g.deal
	x := m.pickUnknown(&g.play)
	unknown := func() int32 { return m.pickUnknownBut(x, &g.play) }
	remembered := func() int32 { return g.blindRemembered(m, x) }
	first, other := unknown, remembered
	if c == rules.Safe {
		first, other = remembered, unknown
	}
	y := first()
	if y < 0 {
		y = other()
	}
	if y < 0 {
		return 0, g.moveError(seat, "%s under blind flips with no second card to name", c)
	}
	known := m.known(y)
	g.flip(x)
	g.flip(y)
	if d.face[y] != d.face[x] {
		return turnMissed, nil
	}
	if !known {
		g.lucky++
	}
	return g.take(seat, x, y), nil
}

// blindRemembered returns the remembered card a blind move names beside the unknown card x, or -1
// when there is none: with more than two copies of a face one of a face with the most cards on the
// table that has one remembered card, as known-first flips; otherwise, or when no face has one
// (a singleton, or a card of a face remembered whole), the card memory m names. With singletons a
// memory other than lru names a half-known pair's card before a seen singleton, as known-first
// does (docs/models.md §5.2 step 6); with pairs only that is the first card in its list.
func (g *Game) blindRemembered(m *memory, x int32) int32 {
	if g.copies > rules.DefaultCopies {
		if y := g.mostCardsHalfKnown(m); y >= 0 {
			return y
		}
	}
	if g.setup.Singletons > 0 && m.kind != memLRU {
		if y := m.halfKnownCard(&g.deal); y >= 0 && y != x {
			return y
		}
	}
	return m.namedOther(x)
}

// padded returns a slice of n zero values with 64 bytes of unused memory on either side, so that
// the hot arrays of two workers' engines never share a cache line: false sharing would make two
// workers slower than one.
func padded[T any](n int) []T {
	var zero T
	size := max(int(unsafe.Sizeof(zero)), 1)
	pad := (64 + size - 1) / size
	return make([]T, pad+n+pad)[pad : pad+n : pad+n]
}

// maxTurnsFor bounds the turns of a game of the given number of cards: a game not over by then is
// an error (it cannot end).
func maxTurnsFor(cards int) int { return 1000*cards + 10000 }

// turnsLeft returns the turns left in the game under its turn limit, the current one included, or
// 0 when it has no limit.
func (g *Game) turnsLeft() int {
	if g.limit == 0 {
		return 0
	}
	return int(g.limit-g.turn) + 1
}
