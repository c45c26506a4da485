// Package tournament runs the tournaments that configurations describe. It builds the players
// (package strategies), lays out the matches and derives their random streams, plays them on the
// engine's worker pool (package sim) with stopping rules, checkpoints and shards, matches each
// seating to the exact solver's model where there is one (package analysis/exact), and turns the
// tallies into the data of a report (package analysis/report) with its figures. It also checks
// tournaments against the solver (Suite.Validate), replays any game of a run move by move
// (Tournament.Replay), measures the engine's speed on a fixed workload (Bench, Measure), and
// simulates what the audit of the published claims needs (Simulator). It reads the shard a
// cluster task plays from its environment (ShardFromEnv), checks a set of shards before merging
// them (ShardSet), says whether results belong to a configuration (CheckRunConfig), and gives a
// running match's interim means and the time left (Match.Interim, TimeLeft).
//
// A program runs a tournament in four steps:
//
//	cfg, err := configs.Parse(file, data, tournament.ConfigOptions())
//	t, err := tournament.New(ctx, cfg)
//	res, err := t.Play(ctx, tournament.Options{Workers: 2})
//	run, err := t.Report(ctx, res)
//
// and writes the run folder with report.WriteDir. Nothing here touches files: package
// tournament/rundir keeps run folders (their lock, checkpoints, shard files and atomic
// replacement), and flags and the terminal are the command's business (cmd/memsim).
//
// The rules and models are described in docs/models.md.
package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
)

// Bounds of a tournament, each derived from what the machine and the counters can hold, and
// checked before anything is played.
const (
	// MaxPairs is the largest deal size (and number of singletons) a configuration may ask for.
	MaxPairs = 1000
	// MaxGames is the largest number of games per matchup: the tallies are 64-bit integers, and
	// the sum of squared scores of a seat (at most 8 seats × 1000 pairs, in units of 1/seats
	// pair: 8,000² = 6.4·10⁷ per game) stays below 2⁶³ ≈ 9.2·10¹⁸ up to 1.4·10¹¹ games.
	MaxGames = 100_000_000_000
	// MaxWorkers is the largest number of worker goroutines.
	MaxWorkers = 1024
	// MaxMatchups is the largest number of seat orders a tournament plays (over all deal sizes):
	// each keeps its score counts, up to 16 kB at 1,000 pairs, in memory and in the reports.
	MaxMatchups = 10_000
	// MaxComparisons is the largest number of comparisons of two players a tournament reports
	// (over all deal sizes): with two seats per game, every two players who meet the first one
	// are compared, a row each of the report's comparisons table. It is what a round robin within
	// MaxMatchups can have; it bounds the players of a two-seat gauntlet (101 at one deal size).
	MaxComparisons = MaxMatchups / 2
	// MaxTableCells bounds the choice table a player plays from: (pairs + 1)² × (singletons + 1)
	// cells (times the 2·pairs + 3 leads of a player that plays to win), 2 bytes each.
	MaxTableCells = 50_000_000
)

// ConfigOptions returns what configs.Parse and configs.ParseSuite accept: the registered policies,
// the opponents each may answer, deal sizes up to MaxPairs, games up to MaxGames and workers up to
// MaxWorkers.
func ConfigOptions() configs.Options {
	return configs.Options{Policies: strategies.Names(), Opponents: strategies.Opponents, MaxPairs: MaxPairs,
		MaxGames: MaxGames, MaxWorkers: MaxWorkers}
}

// checkSize refuses a tournament too large to lay out or to hold: too many seat orders or
// comparisons, or choice tables too large, before anything is built.
func checkSize(cfg *configs.Tournament) error {
	k, p := len(cfg.Players), cfg.Rules.PlayersPerGame
	orders := seatingCount(k, p, cfg.Format)
	if orders > MaxMatchups/len(cfg.Rules.Pairs) {
		return cfg.At(cfg.Positions.Players, fmt.Errorf("players: %d players in games of %d make more than %d seat orders with %d deal sizes: at most %d (fewer players, or smaller games)",
			k, p, MaxMatchups, len(cfg.Rules.Pairs), MaxMatchups))
	}
	if c := comparisonCount(k, p); c > MaxComparisons/len(cfg.Rules.Pairs) {
		return cfg.At(cfg.Positions.Players, fmt.Errorf("players: %d players in games of 2 make %d comparisons of two players against the first at each of %d deal sizes: at most %d in all (fewer players)",
			k, c, len(cfg.Rules.Pairs), MaxComparisons))
	}
	n, s := slices.Max(cfg.Rules.Pairs), cfg.Rules.Singletons
	cells := float64(n+1) * float64(n+1) * float64(s+1)
	for _, pl := range cfg.Players {
		if p, err := rules.ParsePolicy(pl.Policy); err == nil && p.PlaysToWin() {
			cells *= float64(2*n + 3)
			break
		}
	}
	if cells > MaxTableCells {
		pos := cfg.Positions.Rules.Singletons
		if pos == (configs.Pos{}) { // not given: at the deal sizes
			pos = cfg.Positions.Rules.Pairs
		}
		return cfg.At(pos, fmt.Errorf("rules: %d pairs and %d singletons need choice tables of %.3g cells, at most %d (fewer pairs or singletons)", n, s, cells, MaxTableCells))
	}
	return nil
}

// comparisonCount returns the number of comparisons the report makes at one deal size of a
// tournament of k players with p seats per game: every two of the k - 1 players who meet the
// first one, in games of two (Tournament.Report), or none.
func comparisonCount(k, p int) int {
	if p != 2 || k < 3 {
		return 0
	}
	return (k - 1) * (k - 2) / 2
}

// checkStop refuses a stopping rule that Play could not apply, at the configuration's stop
// block, before anything is built: a sequential test whose d is not positive and finite or
// whose error rates are out of range (Play would fail on it). Parse refuses these already; a configuration made in Go
// meets the same check before a run folder is claimed for it.
func checkStop(cfg *configs.Tournament) error {
	if cfg.Stop == nil || cfg.Stop.SPRT == nil {
		return nil
	}
	t := cfg.Stop.SPRT
	if _, err := stats.NewSPRT(t.D, t.Alpha, t.Beta); err != nil {
		return cfg.At(cfg.Positions.Stop, fmt.Errorf("stop.sprt: %w", err))
	}
	return nil
}

// seatingCount returns the number of seatings seatTuples lists, or more than MaxMatchups when
// there are more: the k!/(k-p)! ordered tuples of p distinct players of k, or in a gauntlet of
// more than one seat those that seat player 0: p seats for it, times the (k-1)!/(k-p)! orders of
// the others in the remaining seats.
func seatingCount(k, p int, format configs.Format) int {
	count, from := 1, 0
	if format == configs.Gauntlet && p > 1 {
		count, from = p, 1
	}
	for i := from; i < p; i++ {
		count *= k - i
		if count > MaxMatchups {
			return MaxMatchups + 1
		}
	}
	return count
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
	// tables caches the solver tables of the players and of the seats of mixed lineups.
	tables *strategies.Tables
}

// Match is one sim.Match of a tournament with the tournament's players it seats.
type Match struct {
	sim.Match
	// IDs lists the tournament player index of each participant of the match.
	IDs []int
	// LuckReference says which values measure the luck of its games (docs/models.md §5.6), or is
	// empty when they are not luck-adjusted.
	LuckReference string
}

// New builds the players of cfg and lays out its matches: for every deal size, every seating of
// the format (every ordered tuple of distinct players in a round robin, those with the first
// player in a gauntlet); with paired deals, the two seat orders of two players form one match. An
// error names the configuration file (and the player's line where the player is at fault).
func New(ctx context.Context, cfg *configs.Tournament) (*Tournament, error) {
	if err := checkSize(cfg); err != nil {
		return nil, err
	}
	if err := checkStop(cfg); err != nil {
		return nil, err
	}
	return build(ctx, cfg, nil)
}

// onlyMatch names one match of a tournament: its deal size and its seat orders (tournament player
// indices), as New lays them out.
type onlyMatch struct {
	pairs  int
	orders [][]int
}

// build builds the players of cfg, which checkSize and checkStop accept, and lays out its
// matches (see New). With only not nil it builds only the players of that match and lays out
// that match alone: the other players are left zero, and nothing else of the tournament is built.
func build(ctx context.Context, cfg *configs.Tournament, only *onlyMatch) (*Tournament, error) {
	t := &Tournament{Config: cfg, tables: strategies.NewTables()}
	env := strategies.Env{
		MaxPairs:   slices.Max(cfg.Rules.Pairs),
		Singletons: cfg.Rules.Singletons,
		Players:    cfg.Rules.PlayersPerGame,
		Pass:       cfg.Rules.Pass,
		Variant:    cfg.Rules.Variant,
		Tables:     t.tables,
	}
	for id, p := range cfg.Players {
		if p.External == nil && p.Choices != nil {
			if err := strategies.CheckChoices(p.Policy, *p.Choices); err != nil {
				t.Close()
				return nil, cfg.At(p.ChoicesPos, fmt.Errorf("player %q: %w", p.Name, err))
			}
		}
		if only != nil && !slices.Contains(only.orders[0], id) {
			t.Players = append(t.Players, strategies.Built{}) // not seated in the match: not built
			continue
		}
		spec := strategies.Spec{Name: p.Name, Policy: p.Policy, Opponent: p.Opponent, Choices: p.Choices,
			Memory: strategies.MemoryOverride{Capacity: p.Memory.Capacity, Forget: p.Memory.Forget, Scope: p.Memory.Scope, Decay: p.Memory.Q,
				Fluctuation: p.Memory.Fluctuation}}
		if x := p.External; x != nil {
			spec.External = &external.Command{Argv: x.Command, Options: x.Options, TimePerMove: x.TimePerMove, GamesInFlight: x.GamesInFlight}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Close()
				return nil, cfg.At(x.CommandPos, err)
			}
			// A fault of the process loses the game; the games, and the streams they are drawn
			// from (definition), are the same either way.
			b.Player.Forfeit = x.OnError == configs.OnErrorForfeit
			t.Players = append(t.Players, b)
			continue
		}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			t.Close()
			if ctx.Err() != nil {
				// Interrupted while building its tables: no fault of the configuration.
				return nil, fmt.Errorf("%s: player %q: %w", cfg.File, p.Name, ctx.Err())
			}
			return nil, cfg.At(p.MemoryPos, err)
		}
		t.Players = append(t.Players, b)
	}
	luck := &luckTables{maxPairs: env.MaxPairs, cache: map[luckKey]*rules.LuckTable{}}
	if only != nil {
		m, err := t.newMatch(ctx, luck, only.pairs, only.orders)
		if err != nil {
			t.Close()
			return nil, err
		}
		t.Matches = append(t.Matches, m)
		return t, nil
	}
	for _, n := range cfg.Rules.Pairs {
		for _, orders := range seatGroups(cfg) {
			m, err := t.newMatch(ctx, luck, n, orders)
			if err != nil {
				t.Close()
				return nil, err
			}
			t.Matches = append(t.Matches, m)
		}
	}
	return t, nil
}

// newMatch lays out the match of the seat orders orders (tournament player indices) at n pairs,
// with the random streams of what it is (see streams).
func (t *Tournament) newMatch(ctx context.Context, luck *luckTables, n int, orders [][]int) (Match, error) {
	cfg := t.Config
	// The participants are the players of the first order; the orders refer to them by their
	// place in it.
	ids := orders[0]
	m := Match{IDs: ids}
	m.Setup = sim.Setup{Pairs: n, Singletons: cfg.Rules.Singletons, Pass: cfg.Rules.Pass, Variant: cfg.Rules.Variant}
	for _, id := range ids {
		m.Setup.Players = append(m.Setup.Players, t.Players[id].Player)
	}
	if len(orders) == 1 {
		if err := t.mixedWinTables(ctx, n, ids, m.Setup.Players); err != nil {
			return Match{}, fmt.Errorf("%s: %d pairs, players %v: %w", cfg.File, n, ids, err)
		}
	}
	if cfg.LuckAdjusted {
		ref, err := luck.setLuck(ctx, &m.Setup)
		if err != nil {
			return Match{}, fmt.Errorf("%s: %d pairs, players %v: luck table: %w", cfg.File, n, ids, err)
		}
		m.LuckReference = ref
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
	m.DealStream, m.PlayStreams = t.streams(n, orders)
	if err := m.Validate(); err != nil {
		return Match{}, fmt.Errorf("%s: %d pairs, players %v: %w", cfg.File, n, ids, err)
	}
	return m, nil
}

// streamVersion names the derivation of the streams below; changing the derivation changes it,
// and the golden tests with it.
const streamVersion = "memsim/streams/v1"

// streams derives a match's random streams from what the match is, never from where it stands
// in the configuration: the deal size and, for each seat order, the definitions of its players in
// seat order (their names and resolved settings). The deal stream hashes the seat orders as a set,
// so that both orders of a paired match face the same deals whichever order the configuration
// lists; each order's play stream hashes that order. Adding, removing or reordering players or
// deal sizes therefore leaves every other match's games as they were.
func (t *Tournament) streams(n int, orders [][]int) (deal uint64, play []uint64) {
	keys := make([]string, len(orders))
	for k, o := range orders {
		defs := make([]string, len(o))
		for i, id := range o {
			defs[i] = t.definition(id)
		}
		keys[k] = strings.Join(defs, "; ")
	}
	for _, key := range keys {
		play = append(play, streamHash("play", n, key))
	}
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	return streamHash("deal", n, strings.Join(sorted, " | ")), play
}

// streamHash returns the first 8 bytes of the SHA-256 of the stream's description.
func streamHash(kind string, n int, key string) uint64 {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s %s pairs=%d %s", streamVersion, kind, n, key)))
	return binary.BigEndian.Uint64(sum[:8])
}

// definition describes tournament player id by what it is: its name, policy, opponent, resolved
// memory and choice set.
func (t *Tournament) definition(id int) string {
	p, mem := t.Config.Players[id], t.Players[id].Player.Memory
	choices := rules.FullChoices
	if p.Choices != nil {
		choices = *p.Choices
	}
	def := fmt.Sprintf("name=%q policy=%q opponent=%q memory={capacity=%d forget=%s scope=%s q=%s} choices=%s",
		p.Name, p.Policy, p.Opponent, mem.Capacity, mem.Forget, mem.Scope, strconv.FormatFloat(mem.Decay, 'g', -1, 64), choices)
	if mem.Fluctuation > 0 {
		// Only where given, so that the streams of memories without it are as they were.
		def += fmt.Sprintf(" fluctuation=%d", mem.Fluctuation)
	}
	if x := p.External; x != nil {
		// A process is defined by its command and option values too (in sorted order).
		names := slices.Sorted(maps.Keys(x.Options))
		opts := make([]string, len(names))
		for i, name := range names {
			opts[i] = fmt.Sprintf("%q=%#v", name, x.Options[name])
		}
		def += fmt.Sprintf(" command=%q options={%s}", x.Command, strings.Join(opts, " "))
	}
	return def
}

// StartPlayers starts one process of every player that is a process and makes its handshake, so
// that a player that cannot start, or declares no option it is given, is refused before anything
// is played. logs, when not nil, gives the writer each player's stderr goes to and the name to
// call it by in errors (a log file of the run folder). The processes are kept for the matches;
// when ctx is done, they are stopped.
func (t *Tournament) StartPlayers(ctx context.Context, logs func(player string) (w io.Writer, where string, err error)) error {
	defer context.AfterFunc(ctx, t.killProcesses)()
	for i := range t.Players {
		x := t.Players[i].External
		if x == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: player %q: %w", t.Config.File, x.Name(), err)
		}
		if logs != nil {
			w, where, err := logs(x.Name())
			if err != nil {
				return err
			}
			x.SetLog(w, where)
		}
		if _, err := x.Hello(); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%s: player %q: %w", t.Config.File, x.Name(), ctx.Err())
			}
			return fmt.Errorf("%s: %w", t.Config.File, err)
		}
	}
	return nil
}

// HasProcesses reports whether some player of the tournament is a process.
func (t *Tournament) HasProcesses() bool {
	for _, b := range t.Players {
		if b.External != nil {
			return true
		}
	}
	return false
}

// killProcesses kills the processes of the players that are processes at once, those starting
// included, and starts no other (external.Player.Abort): every wait for them ends.
func (t *Tournament) killProcesses() {
	for _, b := range t.Players {
		if b.External != nil {
			b.External.Abort()
		}
	}
}

// Close stops the processes of the players that are processes (see external.Player.Close).
func (t *Tournament) Close() error {
	var errs []error
	for _, b := range t.Players {
		if b.External != nil {
			errs = append(errs, b.External.Close())
		}
	}
	return errors.Join(errs...)
}

// seatTuples lists the seatings of a tournament of k players with p seats per game: every
// ordered tuple of distinct players (round-robin), or those that include player 0 (gauntlet).
// With one seat, every player plays alone.
func seatTuples(k, p int, format configs.Format) [][]int {
	var out [][]int
	cur := make([]int, 0, p)
	used := make([]bool, k)
	gauntlet := format == configs.Gauntlet && p > 1
	var rec func()
	rec = func() {
		if len(cur) == p {
			if gauntlet && !used[0] {
				return
			}
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := range k {
			if gauntlet && len(cur) == p-1 && !used[0] && i > 0 {
				break // the last seat of a gauntlet's tuple without player 0 is player 0's
			}
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

// seatGroups lists the seat orders of the matches at one deal size, match by match: each seating
// of the format alone (seatTuples) or, with paired deals, the two orders of two players together
// (pairUp).
func seatGroups(cfg *configs.Tournament) [][][]int {
	tuples := seatTuples(len(cfg.Players), cfg.Rules.PlayersPerGame, cfg.Format)
	if cfg.Paired {
		return pairUp(tuples)
	}
	groups := make([][][]int, len(tuples))
	for i, tu := range tuples {
		groups[i] = [][]int{tu}
	}
	return groups
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
