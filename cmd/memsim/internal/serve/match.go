package serve

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"memsim/cmd/memsim/internal/play"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
	"memsim/tournament"
)

// The random streams of a game's deal and play, those of memsim play: the same seed deals the
// same game in both.
const (
	dealStream = 0x6d656d73696d2d64 // "memsim-d"
	playStream = 0x6d656d73696d2d70 // "memsim-p"
)

// defaultOpponent is the player a game seats against the person when the request names none
// and the configuration has it; otherwise its first player.
const defaultOpponent = "win-optimal"

// dealRequest is the deal of a game to play or watch; a field left out takes the
// configuration's value.
type dealRequest struct {
	Pairs      *int    `json:"pairs"`
	Singletons *int    `json:"singletons"`
	Pass       *string `json:"pass"`
	Seed       *uint64 `json:"seed"`
}

// match is a game's configuration: its rules, and the bots built for it.
type match struct {
	cfg   *configs.Tournament
	t     *tournament.Tournament
	names []string // every seat's player, "" at the person's seat
	seed  uint64
}

// close ends the bots' processes, if any.
func (m *match) close() { m.t.Close() }

// playerNames returns the names of the configuration's players.
func playerNames(cfg *configs.Tournament) []string {
	names := make([]string, len(cfg.Players))
	for i, p := range cfg.Players {
		names[i] = p.Name
	}
	return names
}

// newMatch checks the deal d and seats the players names (one per seat, "" for the person)
// under it: the configuration's rules with d's changes, the bots built by tournament.New as a
// tournament builds them.
func (s *Server) newMatch(ctx context.Context, d dealRequest, names []string) (*match, error) {
	cfg, err := s.opts.Config()
	if err != nil {
		return nil, err
	}
	known := playerNames(cfg)
	for _, n := range names {
		if n != "" && !slices.Contains(known, n) {
			return nil, badField("players", "no player %q in the configuration (allowed: %s)", cut(n), strings.Join(known, ", "))
		}
	}
	r := &cfg.Rules
	r.Pairs = r.Pairs[:1]
	switch {
	case d.Pairs != nil && (*d.Pairs < 1 || *d.Pairs > MaxPairs):
		return nil, badField("pairs", "%d: must be between 1 and %d", *d.Pairs, MaxPairs)
	case d.Pairs != nil:
		r.Pairs[0] = *d.Pairs
	case r.Pairs[0] > MaxPairs:
		return nil, badField("pairs", "the configuration deals %d pairs: give pairs, 1 to %d", r.Pairs[0], MaxPairs)
	}
	if err := r.Variant.ValidateDeal(r.Pairs[0]); err != nil {
		return nil, badField("pairs", "%v", err)
	}
	switch {
	case d.Singletons != nil && (*d.Singletons < 0 || *d.Singletons > MaxSingletons):
		return nil, badField("singletons", "%d: must be between 0 and %d", *d.Singletons, MaxSingletons)
	case d.Singletons != nil:
		r.Singletons = *d.Singletons
	case r.Singletons > MaxSingletons:
		return nil, badField("singletons", "the configuration deals %d singletons: give singletons, 0 to %d", r.Singletons, MaxSingletons)
	}
	if d.Pass != nil {
		p, err := rules.ParsePassRule(*d.Pass)
		if err != nil {
			return nil, badField("pass", "%q: allowed: never, two-known, always", cut(*d.Pass))
		}
		r.Pass = p
	}
	// A seed of the clock's, below 2^53 so that the page's JavaScript numbers hold it exactly.
	seed := uint64(time.Now().UnixNano()) & (1<<53 - 1)
	if d.Seed != nil {
		seed = *d.Seed
	}
	r.PlayersPerGame = len(names)
	cfg.LuckAdjusted, cfg.Stop, cfg.Paired = false, nil, false
	var players []configs.Player
	for _, p := range cfg.Players {
		if slices.Contains(names, p.Name) {
			players = append(players, p)
		}
	}
	cfg.Players = players
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return nil, &requestError{status: 400, field: "players", msg: err.Error()}
	}
	if err := t.StartPlayers(ctx, nil); err != nil {
		t.Close()
		return nil, fmt.Errorf("starting the players: %w", err)
	}
	return &match{cfg: cfg, t: t, names: names, seed: seed}, nil
}

// bot returns the built player called name.
func (m *match) bot(name string) (sim.Player, *configs.Player, bool) {
	for i, p := range m.cfg.Players {
		if p.Name == name {
			b := m.t.Players[i]
			return b.Player, &m.cfg.Players[i], b.External != nil
		}
	}
	return sim.Player{}, nil, false
}

// setup returns the game's setup and table; the person's seat, if any, has no player yet.
func (m *match) setup(person string) (sim.Setup, *play.Table) {
	r := m.cfg.Rules
	setup := sim.Setup{Pairs: r.Pairs[0], Singletons: r.Singletons, Pass: r.Pass, Players: make([]sim.Player, len(m.names)),
		Variant: r.Variant}
	seats := make([]play.Seat, len(m.names))
	for i, n := range m.names {
		if n == "" {
			seats[i] = play.Seat{Name: person, Person: true}
			continue
		}
		p, _, program := m.bot(n)
		setup.Players[i] = p
		seats[i] = play.Seat{Name: n, Memory: p.Memory.String(), Program: program}
	}
	t := play.NewTable(r.Pairs[0], r.Singletons, seats)
	t.Variant = r.Variant
	return setup, t
}

// gameID is the game's identity for the engine.
func (m *match) gameID() sim.GameID {
	return sim.GameID{Seed: m.seed, DealStream: dealStream, PlayStream: playStream}
}

// recordOf returns the record of a game of the match with moves, started then: the players as
// memsim play records them (the person, built-in players, programs).
func (m *match) recordOf(person string, moves []record.Move, started time.Time, ended bool, meta map[string]string) *record.Game {
	r := m.cfg.Rules
	g := &record.Game{
		Rules:   record.Rules{Pairs: r.Pairs[0], Singletons: r.Singletons, Seats: len(m.names), Pass: r.Pass, Variant: r.Variant},
		Started: started.UTC(),
		Meta:    map[string]string{"source": "memsim serve", "config": m.cfg.Name, "seed": strconv.FormatUint(m.seed, 10)},
		Moves:   moves,
		Ended:   ended,
	}
	for k, v := range meta {
		g.Meta[k] = v
	}
	for _, n := range m.names {
		if n == "" {
			g.Players = append(g.Players, record.Player{Name: person, Kind: record.KindPerson})
			continue
		}
		_, p, _ := m.bot(n)
		rp := tournament.RecordPlayer(*p)
		rp.Name = n
		g.Players = append(g.Players, rp)
	}
	return g
}
