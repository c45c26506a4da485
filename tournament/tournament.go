// Package tournament runs the tournaments that configurations describe. It builds the players
// (package strategies), lays out the matches and derives their random streams, plays them on the
// engine's worker pool (package sim) with stopping rules, checkpoints and shards, matches each
// seating to the exact solver's model where there is one (package analysis/exact), and turns the
// tallies into the data of a report (package analysis/report) with its figures. It also checks
// tournaments against the solver (Suite.Validate) and simulates what the audit of the published
// claims needs (Simulator).
//
// A program runs a tournament in four steps:
//
//	cfg, err := configs.Parse(file, data, tournament.ConfigOptions())
//	t, err := tournament.New(ctx, cfg)
//	res, err := t.Play(ctx, tournament.Options{Workers: 2})
//	run, err := t.Report(ctx, res)
//
// and writes the run folder with report.WriteDir. Reading and writing files, flags and the
// terminal are the command's business (cmd/memsim); nothing here touches them.
//
// The rules and models are described in docs/models.md.
package tournament

import (
	"context"
	"fmt"
	"slices"

	"memsim/configs"
	"memsim/sim"
	"memsim/strategies"
)

// MaxPairs is the largest deal size a configuration may ask for.
const MaxPairs = 1000

// ConfigOptions returns what configs.Parse and configs.ParseSuite accept: the registered policies,
// the opponents each may answer, and deal sizes up to MaxPairs.
func ConfigOptions() configs.Options {
	return configs.Options{Policies: strategies.Names(), Opponents: strategies.Opponents, MaxPairs: MaxPairs}
}

// Tournament is a configuration with its players built and its matches laid out.
type Tournament struct {
	// Config is the configuration; Players its players, built, in the order it lists them.
	Config  *configs.Tournament
	Players []strategies.Built
	// Matches lists the matches, deal size by deal size and, within one, seating by seating.
	Matches []Match
	// shard is the slice of every match the tournament plays (see SetShard).
	shard Shard
}

// Match is one sim.Match of a tournament with the tournament's players it seats.
type Match struct {
	sim.Match
	// IDs lists the tournament player index of each participant of the match.
	IDs []int
}

// New builds the players of cfg and lays out its matches: for every deal size, every seating of
// the format (every ordered tuple of distinct players in a round robin, those with the first
// player in a gauntlet); with paired deals, the two seat orders of two players form one match. An
// error names the configuration file (and the player's line where the player is at fault).
func New(ctx context.Context, cfg *configs.Tournament) (*Tournament, error) {
	t := &Tournament{Config: cfg}
	env := strategies.Env{
		MaxPairs:   slices.Max(cfg.Rules.Pairs),
		Singletons: cfg.Rules.Singletons,
		Players:    cfg.Rules.PlayersPerGame,
		Pass:       cfg.Rules.Pass,
		Tables:     strategies.NewTables(),
	}
	for _, p := range cfg.Players {
		spec := strategies.Spec{Name: p.Name, Policy: p.Policy, Opponent: p.Opponent, Choices: p.Choices,
			Memory: strategies.MemoryOverride{Capacity: p.Memory.Capacity, Forget: p.Memory.Forget, Scope: p.Memory.Scope, Decay: p.Memory.Q}}
		if p.Choices != nil {
			if err := strategies.CheckChoices(p.Policy, *p.Choices); err != nil {
				return nil, cfg.At(p.ChoicesPos, fmt.Errorf("player %q: %w", p.Name, err))
			}
		}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			return nil, cfg.At(p.MemoryPos, err)
		}
		t.Players = append(t.Players, b)
	}
	tuples := seatTuples(len(cfg.Players), cfg.Rules.PlayersPerGame, cfg.Format)
	for ni, n := range cfg.Rules.Pairs {
		var groups [][][]int
		if cfg.Paired {
			groups = pairUp(tuples)
		} else {
			for _, tu := range tuples {
				groups = append(groups, [][]int{tu})
			}
		}
		for gi, orders := range groups {
			m, err := t.newMatch(n, orders, uint64(ni)<<40|uint64(gi)<<8)
			if err != nil {
				return nil, err
			}
			t.Matches = append(t.Matches, m)
		}
	}
	return t, nil
}

// newMatch lays out the match of the seat orders orders (tournament player indices) at n pairs,
// dealt from stream and played from stream+1 onwards.
func (t *Tournament) newMatch(n int, orders [][]int, stream uint64) (Match, error) {
	cfg := t.Config
	// The participants are the players of the first order; the orders refer to them by their
	// place in it.
	ids := orders[0]
	m := Match{IDs: ids}
	m.Setup = sim.Setup{Pairs: n, Singletons: cfg.Rules.Singletons, Pass: cfg.Rules.Pass}
	for _, id := range ids {
		m.Setup.Players = append(m.Setup.Players, t.Players[id].Player)
	}
	for _, o := range orders {
		var local []int
		for _, id := range o {
			for k, x := range ids {
				if x == id {
					local = append(local, k)
				}
			}
		}
		m.Orders = append(m.Orders, local)
	}
	m.Deals = int64(cfg.Games)
	m.Seed = cfg.Seed
	m.DealStream = stream
	m.PlayStream = stream + 1
	if err := m.Validate(); err != nil {
		return Match{}, fmt.Errorf("%s: %d pairs, players %v: %w", cfg.File, n, ids, err)
	}
	return m, nil
}

// seatTuples lists the seatings of a tournament of k players with p seats per game: every
// ordered tuple of distinct players (round-robin), or those that include player 0 (gauntlet).
// With one seat, every player plays alone.
func seatTuples(k, p int, format configs.Format) [][]int {
	var out [][]int
	cur := make([]int, 0, p)
	used := make([]bool, k)
	var rec func()
	rec = func() {
		if len(cur) == p {
			if format == configs.Gauntlet && p > 1 && !used[0] {
				return
			}
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := range k {
			if !used[i] {
				used[i] = true
				cur = append(cur, i)
				rec()
				cur = cur[:len(cur)-1]
				used[i] = false
			}
		}
	}
	rec()
	return out
}

// pairUp groups two-seat tuples (a, b) with (b, a), in the order of their first appearance.
func pairUp(tuples [][]int) [][][]int {
	var out [][][]int
	for _, tu := range tuples {
		if tu[0] < tu[1] {
			out = append(out, [][]int{tu, {tu[1], tu[0]}})
		}
	}
	return out
}

// Games returns the number of games the tournament plays (at most, with a stopping rule): every
// deal of every match once in each of its seat orders, or the slice of them its shard plays.
func (t *Tournament) Games() int64 {
	var games int64
	for i := range t.Matches {
		m := &t.Matches[i]
		games += m.ShardDeals() * int64(len(m.Orders))
	}
	return games
}

// Seats returns the tournament player indices of a seat order of the match.
func (m *Match) Seats(order []int) []int {
	out := make([]int, len(order))
	for i, local := range order {
		out[i] = m.IDs[local]
	}
	return out
}

// Names returns the names of tournament players, in the order given.
func (t *Tournament) Names(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.Config.Players[id].Name
	}
	return out
}
