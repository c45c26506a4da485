package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"memsim/cmd/memsim/internal/play"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// personName is the person's name at the table and in the records.
const personName = "you"

// gameRequest is the body of POST /api/games.
type gameRequest struct {
	Against string `json:"against"`
	Seat    int    `json:"seat"`
	Coach   bool   `json:"coach"`
	dealRequest
}

// game is a game under way (or over, kept for its record until it is left idle). The engine
// plays it on a goroutine of its own, which blocks in the person's UI (httpUI) until a request
// brings the person's move.
type game struct {
	id      string
	m       *match
	started time.Time
	cancel  context.CancelFunc
	answers chan play.Answer
	done    chan struct{} // closed when the game's goroutine has ended
	first   chan struct{} // closed when the game first waits for the person or ends

	mu      sync.Mutex
	touched time.Time
	state   State
	moves   []record.Move
	waiting bool          // the person's move is asked
	ended   bool          // the record marks the game ended (a stalemate)
	settled chan struct{} // closed when the game next waits for the person or ends
}

// State is the public state of a game, as GET /api/games/{id} gives it.
type State struct {
	ID         string `json:"id"`
	Pairs      int    `json:"pairs"`
	Singletons int    `json:"singletons"`
	Pass       string `json:"pass"`
	// Variant describes the rule variant ("" for the standard game): Copies cards of each pair
	// face, Blind flips, a TurnLimit (0 for none) with TurnsLeft turns left, the turn under way
	// included.
	Variant   string `json:"variant,omitempty"`
	Copies    int    `json:"copies"`
	Blind     bool   `json:"blind,omitempty"`
	TurnLimit int    `json:"turn_limit,omitempty"`
	TurnsLeft int    `json:"turns_left,omitempty"`
	Seed      uint64 `json:"seed"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
	Seats     []Seat `json:"seats"`
	// You is the person's seat.
	You    int    `json:"you"`
	Cells  []Cell `json:"cells"`
	Scores []int  `json:"scores"`
	// Mover is the seat to move, Turn the turn under way (from 1).
	Mover int `json:"mover"`
	Turn  int `json:"turn"`
	// Flips are the face-up cards of the turn under way; Last the turn before.
	Flips []CardJSON `json:"flips"`
	Last  *TurnJSON  `json:"last,omitempty"`
	// Turns are the turns played since the person's last move, in order: the bots' turns, for
	// the page to show one by one.
	Turns  []TurnJSON   `json:"turns"`
	Memory []MemoryJSON `json:"memory"`
	// Question is the person's decision, when it is asked; Coach its values, with a coach.
	Question *QuestionJSON `json:"question,omitempty"`
	Coach    *CoachJSON    `json:"coach,omitempty"`
	// Over reports the game's end; Finished that it was played to its end; Result says how it
	// ended.
	Over     bool   `json:"over"`
	Finished bool   `json:"finished"`
	Result   string `json:"result,omitempty"`
}

// Seat is a seat's player.
type Seat struct {
	Name    string `json:"name"`
	Person  bool   `json:"person,omitempty"`
	Memory  string `json:"memory,omitempty"`
	Program bool   `json:"program,omitempty"`
}

// Cell is a place of the board: its coordinate, "down", "up" or "taken", and the face it showed
// when up or taken.
type Cell struct {
	Coord string `json:"coord"`
	Show  string `json:"show"`
	Face  string `json:"face,omitempty"`
}

// CardJSON is a card seen: its position, coordinate and face.
type CardJSON struct {
	Pos   int    `json:"pos"`
	Coord string `json:"coord"`
	Face  string `json:"face"`
	// Index is the face's number: the pairs' from 0, then the singletons'.
	Index int `json:"index"`
}

// TurnJSON is a finished turn: the seat, its cards, how it ended ("pair", "miss" or "pass") and
// a line that says so.
type TurnJSON struct {
	Seat  int        `json:"seat"`
	Flips []CardJSON `json:"flips"`
	End   string     `json:"end"`
	Text  string     `json:"text"`
}

// MemoryJSON is what a bot remembers.
type MemoryJSON struct {
	Seat  int        `json:"seat"`
	Name  string     `json:"name"`
	Kind  string     `json:"kind"`
	Known bool       `json:"known"`
	Cards []CardJSON `json:"cards"`
}

// QuestionJSON is the person's decision: the turn's first or second card, whether a pass is
// allowed, and why the last answer was refused ("" when it was not).
type QuestionJSON struct {
	Card    int    `json:"card"`
	CanPass bool   `json:"can_pass"`
	Reason  string `json:"reason,omitempty"`
	// Blind reports blind flips; Named is then, for the second card, the position of the first
	// card named, which stays face down until the second is named.
	Blind bool `json:"blind,omitempty"`
	Named *int `json:"named,omitempty"`
}

// CoachJSON is the coach's advice: every option of the decision with its values, and what the
// person's last decision cost.
type CoachJSON struct {
	Card int `json:"card"`
	// Turn reports advice on the turn's choices (a game under a rule variant): the options are
	// the choices of the variant's exact model, valued at the turn's start; NoWin that the model
	// gives no win scores.
	Turn    bool         `json:"turn,omitempty"`
	NoWin   bool         `json:"no_win,omitempty"`
	Options []OptionJSON `json:"options"`
	Last    *LastJSON    `json:"last,omitempty"`
	Text    string       `json:"text"`
	Error   string       `json:"error,omitempty"`
}

// OptionJSON is an option of a decision: its expected pairs from this turn on and its win score,
// P(win) + P(draw)/2, both as decimals and exactly; whether it is best in either measure, and
// whether the model's players may make it.
type OptionJSON struct {
	Move      string  `json:"move"`
	Model     bool    `json:"model"`
	Pairs     float64 `json:"pairs"`
	Win       float64 `json:"win"`
	PairsRat  string  `json:"pairs_exact"`
	WinRat    string  `json:"win_exact"`
	BestPairs bool    `json:"best_pairs"`
	BestWin   bool    `json:"best_win"`
}

// LastJSON is the person's last decision and its cost.
type LastJSON struct {
	Turn      int     `json:"turn"`
	Card      int     `json:"card"`
	Move      string  `json:"move"`
	CostPairs float64 `json:"cost_pairs"`
	CostWin   float64 `json:"cost_win"`
	Text      string  `json:"text"`
}

// newID returns a fresh game id.
func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// createGame starts a game: POST /api/games.
func (s *Server) createGame(w http.ResponseWriter, r *http.Request) {
	var req gameRequest
	if err := decode(w, r, MaxBody, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	g, err := s.startGame(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	select {
	case <-g.first:
	case <-r.Context().Done():
		return
	}
	s.writeState(w, g)
}

// startGame checks req, seats the game and starts it on its goroutine.
func (s *Server) startGame(ctx context.Context, req gameRequest) (*game, error) {
	if req.Seat < 0 || req.Seat > 1 {
		return nil, badField("seat", "%d: must be 0 (you move first) or 1", req.Seat)
	}
	if req.Coach && req.Pairs != nil && *req.Pairs > MaxCoachPairs {
		return nil, badField("coach", "the coach judges deals of at most %d pairs (this one has %d)", MaxCoachPairs, *req.Pairs)
	}
	against := strings.TrimSpace(req.Against)
	if against == "" {
		cfg, err := s.opts.Config()
		if err != nil {
			return nil, err
		}
		names := playerNames(cfg)
		against = names[0]
		if slices.Contains(names, defaultOpponent) {
			against = defaultOpponent
		}
	}
	// A place among the games under way is taken now, so that games started at once cannot
	// overshoot MaxGames; it is given back when the game is added, or not started.
	s.mu.Lock()
	full := s.liveLocked()+s.starting >= s.opts.MaxGames
	if !full {
		s.starting++
	}
	s.mu.Unlock()
	if full {
		return nil, &requestError{status: http.StatusServiceUnavailable,
			msg: fmt.Sprintf("%d games are under way, the most this server plays at once: finish one, or wait until one left idle ends (after %s)", s.opts.MaxGames, s.opts.IdleTimeout)}
	}
	added := false
	defer func() {
		if !added {
			s.mu.Lock()
			s.starting--
			s.mu.Unlock()
		}
	}()
	names := []string{against, against}
	names[req.Seat] = ""
	m, err := s.newMatch(ctx, req.dealRequest, names)
	if err != nil {
		return nil, err
	}
	setup, table := m.setup(personName)
	// The game's context, which the coach reads at every move; it ends with the game.
	gctx, cancel := context.WithTimeout(context.Background(), s.opts.GameTimeout)
	var coach coachFunc
	if req.Coach {
		if p := setup.Pairs; p > MaxCoachPairs {
			cancel()
			m.close()
			return nil, badField("coach", "the coach judges deals of at most %d pairs (this one has %d)", MaxCoachPairs, p)
		}
		c, err := newCoach(gctx, record.Rules{Pairs: setup.Pairs, Singletons: setup.Singletons, Seats: 2, Pass: setup.Pass,
			Variant: setup.Variant})
		if err != nil {
			cancel()
			m.close()
			return nil, err
		}
		coach = c
	}
	now := time.Now()
	g := &game{id: newID(), m: m, started: now, cancel: cancel, answers: make(chan play.Answer),
		done: make(chan struct{}), touched: now, settled: make(chan struct{})}
	g.first = g.settled
	ui := &httpUI{g: g, coach: coach, seat: req.Seat}
	person := &play.Person{Ctx: gctx, Table: table, UI: ui}
	ui.person = person
	setup.Players[req.Seat] = sim.Player{Name: personName, NewStrategy: func() sim.Strategy { return person }}
	eng, err := sim.NewGame(setup)
	if err != nil {
		cancel()
		m.close()
		return nil, &requestError{status: http.StatusBadRequest, msg: err.Error()}
	}
	person.Memories = func(seat int) []sim.Card { return eng.Remembered(seat, nil) }
	s.mu.Lock()
	s.games[g.id] = g
	s.starting--
	added = true
	s.forgetOver()
	s.mu.Unlock()
	go g.run(gctx, eng, ui)
	return g, nil
}

// run plays the game to its end (or until its context ends) and keeps its last state.
func (g *game) run(ctx context.Context, eng *sim.Game, ui *httpUI) {
	defer close(g.done)
	defer g.m.close()
	defer eng.Close()
	defer g.cancel()
	err := playRecovered(eng, g.m.gameID())
	finished := err == nil && ctx.Err() == nil
	ui.settle(nil, func(st *State) {
		st.Over, st.Finished = true, finished
		st.Result = resultText(ui.person.Table, eng.Outcome(), finished, err, ctx.Err())
	}, finished && eng.Outcome().Stalemate)
}

// playRecovered plays the game, turning a panic into an error: a game's goroutine is not a
// request's, and a panic there would end the server.
func playRecovered(eng *sim.Game, id sim.GameID) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the game failed: %v", r)
		}
	}()
	return eng.Play(id, nil)
}

// resultText says how a game ended.
func resultText(t *play.Table, o *sim.Outcome, finished bool, err, ctxErr error) string {
	if !finished {
		why := "it was left"
		switch {
		case ctxErr == context.DeadlineExceeded:
			why = "it lasted too long"
		case err != nil && ctxErr == nil:
			why = err.Error()
		}
		return fmt.Sprintf("the game stopped after %d turns: %s", t.TurnNo-1, why)
	}
	p := len(t.Seats)
	parts := make([]string, p)
	best := slices.Max(o.Share)
	var winners []int
	for i := range t.Seats {
		parts[i] = fmt.Sprintf("%s %s", t.Name(i), share(o.Share[i], p))
		if o.Share[i] == best {
			winners = append(winners, i)
		}
	}
	end := "all pairs taken"
	if o.Stalemate {
		end = fmt.Sprintf("stalemate with %d pairs left, shared equally", o.Left)
	}
	verdict := "a draw"
	switch {
	case len(winners) > 1:
	case t.Seats[winners[0]].Person:
		verdict = "you win"
	default:
		verdict = t.Name(winners[0]) + " wins"
	}
	return fmt.Sprintf("after %d turns (%s): %s; %s", o.Turns, end, strings.Join(parts, ", "), verdict)
}

// share formats a score in units of 1/p pairs.
func share(units, p int) string {
	if units%p == 0 {
		return fmt.Sprint(units / p)
	}
	return fmt.Sprintf("%.2f", float64(units)/float64(p))
}

// httpUI is the person's UI of a game played through the API: it keeps the turns the bots play,
// and at each question publishes the game's state and waits for the move a request brings.
type httpUI struct {
	g      *game
	person *play.Person
	coach  coachFunc
	seat   int
	named  int        // the last card the person named, for the second card of a blind turn
	turns  []TurnJSON // the turns since the last question
	turnNo int
}

// Event keeps each finished turn for the page to show.
func (u *httpUI) Event(_ context.Context, s play.Snapshot, _ sim.Event) error {
	t := s.Table
	if t.TurnNo != u.turnNo && t.Last.End != "" {
		u.turnNo = t.TurnNo
		u.turns = append(u.turns, turnJSON(t, t.Last))
	}
	return nil
}

// Ask publishes the state with question q and waits for the person's move.
func (u *httpUI) Ask(ctx context.Context, s play.Snapshot, q play.Question) (play.Answer, error) {
	u.settle(&q, nil, false)
	select {
	case a := <-u.g.answers:
		u.named = a.Pos
		return a, nil
	case <-ctx.Done():
		return play.Answer{}, ctx.Err()
	}
}

// settle publishes the game's state: with question q when it asks the person, then edited by
// edit; ended reports a game the record marks as ended without every pair taken (a stalemate).
func (u *httpUI) settle(q *play.Question, edit func(*State), ended bool) {
	t := u.person.Table
	st := stateOf(u.g, t, u.seat)
	if u.turns != nil {
		st.Turns = u.turns
	}
	u.turns = nil
	st.Memory = u.memories(t)
	if q != nil {
		card := 1
		if q.Second {
			card = 2
		}
		st.Question = &QuestionJSON{Card: card, CanPass: q.CanPass, Reason: q.Reason, Blind: q.Blind}
		if q.Blind && q.Second {
			named := u.named
			st.Question.Named = &named
		}
		if u.coach != nil {
			st.Coach = u.coach(t, u.seat)
		}
	}
	if edit != nil {
		edit(&st)
	}
	g := u.g
	g.mu.Lock()
	g.state = st
	g.moves = slices.Clone(t.Moves)
	g.ended = ended
	g.waiting = q != nil
	close(g.settled)
	g.settled = make(chan struct{})
	g.mu.Unlock()
}

// memories returns what each bot remembers now.
func (u *httpUI) memories(t *play.Table) []MemoryJSON {
	var out []MemoryJSON
	for i, s := range t.Seats {
		if s.Person {
			continue
		}
		m := MemoryJSON{Seat: i, Name: t.Name(i), Kind: s.Memory, Known: !s.Program, Cards: []CardJSON{}}
		if !s.Program {
			for _, c := range u.person.Memories(i) {
				m.Cards = append(m.Cards, cardJSON(t, c))
			}
		}
		out = append(out, m)
	}
	return out
}

// stateOf returns the public state of table t.
func stateOf(g *game, t *play.Table, you int) State {
	r := g.m.cfg.Rules
	st := State{ID: g.id, Pairs: t.Pairs, Singletons: t.Singletons, Pass: r.Pass.String(), Seed: g.m.seed,
		Copies: r.Variant.CopiesOf(), Blind: r.Variant.Flips == rules.FlipsBlind, TurnLimit: r.Variant.TurnLimit,
		Cols: t.Layout.Cols, Rows: t.Layout.Rows, You: you, Scores: slices.Clone(t.Scores),
		Mover: t.Mover, Turn: t.TurnNo, Flips: []CardJSON{}, Turns: []TurnJSON{}}
	if !r.Variant.Standard() {
		st.Variant = r.Variant.String()
	}
	if st.TurnLimit > 0 {
		st.TurnsLeft = max(0, st.TurnLimit-(t.TurnNo-1))
	}
	for _, s := range t.Seats {
		st.Seats = append(st.Seats, Seat{Name: s.Name, Person: s.Person, Memory: s.Memory, Program: s.Program})
	}
	for pos := range t.Layout.Cards {
		c := Cell{Coord: t.Layout.Coord(pos)}
		switch t.Cell(pos) {
		case play.Down:
			c.Show = "down"
		case play.Up:
			c.Show, c.Face = "up", t.FaceName(t.Face(pos))
		case play.Taken:
			c.Show, c.Face = "taken", t.FaceName(t.Face(pos))
		}
		st.Cells = append(st.Cells, c)
	}
	for _, c := range t.Flips {
		st.Flips = append(st.Flips, cardJSON(t, c))
	}
	if t.Last.End != "" {
		l := turnJSON(t, t.Last)
		st.Last = &l
	}
	return st
}

// cardJSON describes card c of table t.
func cardJSON(t *play.Table, c sim.Card) CardJSON {
	return CardJSON{Pos: c.Pos, Coord: t.Layout.Coord(c.Pos), Face: t.FaceName(c.Face), Index: c.Face}
}

// turnJSON describes finished turn l of table t.
func turnJSON(t *play.Table, l play.Turn) TurnJSON {
	out := TurnJSON{Seat: l.Seat, End: l.End, Flips: []CardJSON{}}
	for _, c := range l.Flips {
		out.Flips = append(out.Flips, cardJSON(t, c))
	}
	saved := t.Last
	t.Last = l
	out.Text = t.LastLine()
	t.Last = saved
	return out
}

// advise returns the coach's values of the person's decision in table t.
func advise(c *play.ExactCoach, t *play.Table, seat int) *CoachJSON {
	d, r, err := c.Next(play.Situation{Table: t, Seat: seat})
	if err != nil {
		return &CoachJSON{Error: "the coach cannot judge this position: " + err.Error()}
	}
	out := &CoachJSON{Card: d.Card, Text: play.OptionsLine(d)}
	for _, o := range d.Options {
		out.Options = append(out.Options, OptionJSON{Move: o.Move, Model: o.Model, Pairs: f64(o.Pairs), Win: f64(o.Win),
			PairsRat: o.Pairs.RatString(), WinRat: o.Win.RatString(),
			BestPairs: o.Model && o.Pairs.Cmp(d.BestPairs) == 0, BestWin: o.Model && o.Win.Cmp(d.BestWin) == 0})
	}
	for i := len(r.Decisions) - 1; i >= 0; i-- {
		if ld := &r.Decisions[i]; ld.Seat == seat {
			out.Last = &LastJSON{Turn: ld.Turn + 1, Card: ld.Card, Move: ld.Options[ld.Chosen].Move,
				CostPairs: f64(ld.CostPairs), CostWin: f64(ld.CostWin), Text: play.LastMoveLine(ld)}
			break
		}
	}
	return out
}

// f64 returns r as a float64.
func f64(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// gameOf returns the game a request names, or answers 404.
func (s *Server) gameOf(w http.ResponseWriter, r *http.Request) *game {
	id := r.PathValue("id")
	s.mu.Lock()
	g := s.games[id]
	s.mu.Unlock()
	if g == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no game %q: it ended and was cleaned up, or never was (games left idle end after %s)", cut(id), s.opts.IdleTimeout))
		return nil
	}
	g.mu.Lock()
	g.touched = time.Now()
	g.mu.Unlock()
	return g
}

// writeState answers with game g's state.
func (s *Server) writeState(w http.ResponseWriter, g *game) {
	g.mu.Lock()
	st := g.state
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

// getGame answers GET /api/games/{id}.
func (s *Server) getGame(w http.ResponseWriter, r *http.Request) {
	if g := s.gameOf(w, r); g != nil {
		s.writeState(w, g)
	}
}

// flipRequest is the body of POST /api/games/{id}/flip: a card's position, or a pass.
type flipRequest struct {
	Pos  *int `json:"pos"`
	Pass bool `json:"pass"`
}

// flip plays the person's move and answers with the state at the person's next decision or the
// game's end: POST /api/games/{id}/flip.
func (s *Server) flip(w http.ResponseWriter, r *http.Request) {
	g := s.gameOf(w, r)
	if g == nil {
		return
	}
	var req flipRequest
	if err := decode(w, r, MaxBody, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	cards := len(g.now().Cells)
	switch {
	case req.Pass && req.Pos != nil:
		s.fail(w, r, badField("pos", "give a card's position or pass, not both"))
		return
	case !req.Pass && req.Pos == nil:
		s.fail(w, r, badField("pos", "give the position of the card to flip, 0 to %d, or pass: true", cards-1))
		return
	case req.Pos != nil && (*req.Pos < 0 || *req.Pos >= cards):
		s.fail(w, r, badField("pos", "%d: must be between 0 and %d", *req.Pos, cards-1))
		return
	}
	g.mu.Lock()
	over, waiting, settled := g.state.Over, g.waiting, g.settled
	if waiting {
		g.waiting = false
	}
	g.mu.Unlock()
	switch {
	case over:
		s.fail(w, r, &requestError{status: http.StatusConflict, msg: "the game is over: start another"})
		return
	case !waiting:
		s.fail(w, r, &requestError{status: http.StatusConflict, msg: "a move of this game is under way: wait for its answer"})
		return
	}
	a := play.Answer{Pass: req.Pass}
	if req.Pos != nil {
		a.Pos = *req.Pos
	}
	select {
	case g.answers <- a:
	case <-g.done:
	}
	select {
	case <-settled:
	case <-r.Context().Done():
		return
	}
	g.mu.Lock()
	st := g.state
	g.mu.Unlock()
	if q := st.Question; q != nil && q.Reason != "" {
		writeJSON(w, http.StatusUnprocessableEntity, struct {
			errorJSON
			State State `json:"state"`
		}{errorJSON{Error: q.Reason, Field: "pos"}, st})
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// now returns the game's state now.
func (g *game) now() State {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.state
}

// gameRecord answers GET /api/games/{id}/record: the game so far as a record file.
func (s *Server) gameRecord(w http.ResponseWriter, r *http.Request) {
	g := s.gameOf(w, r)
	if g == nil {
		return
	}
	g.mu.Lock()
	moves, st, ended := slices.Clone(g.moves), g.state, g.ended
	g.mu.Unlock()
	rec := g.m.recordOf(personName, moves, g.started, st.Over && st.Finished && ended,
		map[string]string{"against": g.m.names[1-st.You], "seat": fmt.Sprint(st.You)})
	data, err := record.Marshal(rec)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"memsim-game-%d.jsonl\"", g.m.seed))
	w.Write(data)
}

// live returns the number of games under way.
func (s *Server) live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.liveLocked()
}

// liveLocked is live, called with s.mu held.
func (s *Server) liveLocked() int {
	n := 0
	for _, g := range s.games {
		select {
		case <-g.done:
		default:
			n++
		}
	}
	return n
}

// maxKept bounds the games kept, under way or over, per game allowed under way: past it, the
// games over longest ago are forgotten.
const maxKept = 4

// forgetOver forgets the games over that were touched least recently while more games than
// maxKept * MaxGames are kept. It is called with s.mu held.
func (s *Server) forgetOver() {
	for len(s.games) > maxKept*s.opts.MaxGames {
		var oldest *game
		for _, g := range s.games {
			select {
			case <-g.done:
			default:
				continue
			}
			if oldest == nil || g.touchedAt().Before(oldest.touchedAt()) {
				oldest = g
			}
		}
		if oldest == nil {
			return
		}
		delete(s.games, oldest.id)
	}
}

// touchedAt returns when a request last touched g.
func (g *game) touchedAt() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.touched
}

// Live returns the number of games whose goroutine runs.
func (s *Server) Live() int { return s.live() }

// Sweep ends the games no request has touched since IdleTimeout before now and forgets them,
// and returns how many it ended; a server's Run calls it regularly.
func (s *Server) Sweep(now time.Time) int {
	s.mu.Lock()
	var old []*game
	for id, g := range s.games {
		g.mu.Lock()
		idle := now.Sub(g.touched) > s.opts.IdleTimeout
		g.mu.Unlock()
		if idle {
			old = append(old, g)
			delete(s.games, id)
		}
	}
	s.mu.Unlock()
	for _, g := range old {
		g.cancel()
		<-g.done
	}
	return len(old)
}

// Run sweeps idle games until ctx ends, then ends every game.
func (s *Server) Run(ctx context.Context) {
	tick := time.NewTicker(max(time.Second, min(time.Minute, s.opts.IdleTimeout/4)))
	defer tick.Stop()
	for {
		select {
		case now := <-tick.C:
			s.Sweep(now)
		case <-ctx.Done():
			s.Close()
			return
		}
	}
}

// Close ends every game and waits for their goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	games := s.games
	s.games = map[string]*game{}
	s.mu.Unlock()
	for _, g := range games {
		g.cancel()
		<-g.done
	}
}
