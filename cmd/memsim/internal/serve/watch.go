package serve

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"memsim/cmd/memsim/internal/play"
	"memsim/sim"
	"memsim/sim/record"
)

// watchTimeout bounds the time a watched game may take.
const watchTimeout = 30 * time.Second

// watchRequest is the body of POST /api/watch: the two players, seat 0's first, and the deal.
type watchRequest struct {
	Players []string `json:"players"`
	dealRequest
}

// WatchJSON is a game between two bots, for the page to show turn by turn.
type WatchJSON struct {
	Pairs      int        `json:"pairs"`
	Singletons int        `json:"singletons"`
	Pass       string     `json:"pass"`
	Seed       uint64     `json:"seed"`
	Cols       int        `json:"cols"`
	Rows       int        `json:"rows"`
	Seats      []Seat     `json:"seats"`
	Turns      []TurnJSON `json:"turns"`
	Scores     []int      `json:"scores"`
	Result     string     `json:"result"`
	// Record is the game's record file (docs/records.md), to review or save.
	Record string `json:"record"`
}

// watch plays a game between two bots and answers with its turns: POST /api/watch.
func (s *Server) watch(w http.ResponseWriter, r *http.Request) {
	var req watchRequest
	if err := decode(w, r, MaxBody, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if len(req.Players) != 2 {
		s.fail(w, r, badField("players", "give two players' names, seat 0's first (%d given)", len(req.Players)))
		return
	}
	for _, n := range req.Players {
		if n == "" {
			s.fail(w, r, badField("players", "a player's name is empty"))
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), watchTimeout)
	defer cancel()
	out, err := s.playWatched(ctx, req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// playWatched plays the game of req.
func (s *Server) playWatched(ctx context.Context, req watchRequest) (*WatchJSON, error) {
	m, err := s.newMatch(ctx, req.dealRequest, req.Players)
	if err != nil {
		return nil, err
	}
	defer m.close()
	setup, table := m.setup("")
	eng, err := sim.NewGame(setup)
	if err != nil {
		return nil, &requestError{status: http.StatusBadRequest, msg: err.Error()}
	}
	defer eng.Close()
	var log sim.Log
	started := time.Now()
	if err := eng.Play(m.gameID(), &log); err != nil {
		return nil, fmt.Errorf("playing the game: %w", err)
	}
	var moves []record.Move
	for _, turn := range log.Turns {
		if len(turn.Flips) == 0 {
			m := record.PassMove()
			m.Seat = turn.Seat
			moves = append(moves, m)
		}
		for _, c := range turn.Flips {
			m := record.Flip(c.Pos, c.Face)
			m.Seat = turn.Seat
			moves = append(moves, m)
		}
	}
	o := eng.Outcome()
	rec := m.recordOf("", moves, started, o.Stalemate, nil)
	text, err := record.Marshal(rec)
	if err != nil {
		return nil, err
	}
	out := &WatchJSON{Pairs: setup.Pairs, Singletons: setup.Singletons, Pass: setup.Pass.String(), Seed: m.seed,
		Cols: table.Layout.Cols, Rows: table.Layout.Rows, Turns: []TurnJSON{}, Scores: make([]int, len(setup.Players)), Record: string(text)}
	for _, s := range table.Seats {
		out.Seats = append(out.Seats, Seat{Name: s.Name, Memory: s.Memory, Program: s.Program})
	}
	for _, turn := range log.Turns {
		pt := play.Turn{Seat: turn.Seat, Flips: turn.Flips, End: turn.End}
		out.Turns = append(out.Turns, turnJSON(table, pt))
		if turn.End == "pair" {
			out.Scores[turn.Seat]++
		}
	}
	out.Result = resultText(table, o, true, nil, nil)
	return out, nil
}

// PlayersJSON is what GET /api/players gives: the configuration's players and rules, and the
// bounds of the requests.
type PlayersJSON struct {
	Config     string       `json:"config"`
	Players    []PlayerJSON `json:"players"`
	Default    string       `json:"default"`
	Pairs      int          `json:"pairs"`
	Singletons int          `json:"singletons"`
	Pass       string       `json:"pass"`
	Limits     LimitsJSON   `json:"limits"`
}

// PlayerJSON is a player of the configuration.
type PlayerJSON struct {
	Name    string `json:"name"`
	Policy  string `json:"policy,omitempty"`
	Program bool   `json:"program,omitempty"`
}

// LimitsJSON are the bounds of the requests.
type LimitsJSON struct {
	MaxPairs            int `json:"max_pairs"`
	MaxSingletons       int `json:"max_singletons"`
	MaxCoachPairs       int `json:"max_coach_pairs"`
	MaxReviewPairs      int `json:"max_review_pairs"`
	MaxExactReviewPairs int `json:"max_exact_review_pairs"`
	MaxTablePairs       int `json:"max_table_pairs"`
	MaxRecordBytes      int `json:"max_record_bytes"`
}

// players answers GET /api/players.
func (s *Server) players(w http.ResponseWriter, r *http.Request) {
	cfg, err := s.opts.Config()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := PlayersJSON{Config: cfg.Name, Pairs: cfg.Rules.Pairs[0], Singletons: cfg.Rules.Singletons, Pass: cfg.Rules.Pass.String(),
		Limits: LimitsJSON{MaxPairs: MaxPairs, MaxSingletons: MaxSingletons, MaxCoachPairs: MaxCoachPairs, MaxReviewPairs: MaxReviewPairs,
			MaxExactReviewPairs: MaxExactReviewPairs, MaxTablePairs: MaxTablePairs, MaxRecordBytes: MaxRecordBody}}
	for _, p := range cfg.Players {
		out.Players = append(out.Players, PlayerJSON{Name: p.Name, Policy: p.Policy, Program: p.External != nil})
		if p.Name == defaultOpponent {
			out.Default = p.Name
		}
	}
	if out.Default == "" && len(out.Players) > 0 {
		out.Default = out.Players[0].Name
	}
	writeJSON(w, http.StatusOK, out)
}
