package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
	"memsim/tournament"
)

// replayCommand returns memsim replay.
func replayCommand() *command {
	return &command{
		name: "replay",
		usage: []string{
			"memsim replay [--config F|DIR] --game G [--pairs N] [--players A,B,...] [--record FILE]",
		},
		short: "replay one game of a run and print its move log",
		long: `
Replays game G (0-based; with paired deals, deal G) of the run configuration F describes, or of
the run folder DIR (its config.yaml: the players, seed and games as the run had them; a shard
folder's too), with no --config the embedded default, and prints its move log: a legend, then one
line per turn with the choice the turn made (daring, safe, known-first, pass; read from the
table), the cards it flipped (position, face, new or seen) and how it ended. --pairs picks the
deal size (default: the first) and --players the seat order (default: the first matchup).
--record FILE also writes the game as a game record (docs/records.md), which memsim review
reads. A flag not given takes its default; a value given is used as it is: --pairs 0 is an error.
`,
		run: runReplay,
	}
}

type replayFlags struct {
	config, players, record string
	game                    int64
	pairs                   int
	set                     map[string]bool // the flags given on the command line
}

func runReplay(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl replayFlags
	fs := newFlagSet("memsim replay")
	fs.StringVar(&fl.config, "config", "", "the run's configuration `file`, or its run folder (default: the embedded default)")
	fs.Int64Var(&fl.game, "game", 0, "`G`, the game to replay (0-based; required)")
	fs.IntVar(&fl.pairs, "pairs", 0, "deal size `N` (default: the configuration's first)")
	fs.StringVar(&fl.players, "players", "", "seat order, comma-separated player `names` (default: the first matchup)")
	fs.StringVar(&fl.record, "record", "", "also write the game as a game record to `FILE` (docs/records.md)")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.set = given(fs)
	out := checkedStdout(inv.stdout)
	return exitFor(fs.Name(), out.result(replay(ctx, fl, fs.Args(), out)), inv.stderr)
}

func replay(ctx context.Context, fl replayFlags, args []string, stdout io.Writer) error {
	switch {
	case len(args) > 0:
		return usagef("unexpected argument %q (give the configuration with --config)", args[0])
	case !fl.set["game"]:
		return required("--game G", "the game to replay (0-based)")
	case fl.set["config"] && fl.config == "":
		return usagef("--config \"\": give the run's configuration file or run folder")
	case fl.set["record"] && fl.record == "":
		return usagef("--record \"\": give the file to write the game record to")
	}
	cfg, err := replayConfig(fl)
	if err != nil {
		return err
	}
	if !fl.set["pairs"] {
		fl.pairs = cfg.Rules.Pairs[0]
	}
	var players []string // nil: the first seat order
	if fl.set["players"] {
		players = strings.Split(fl.players, ",")
	}
	// The game, deal size and seat order are checked before any table is built, and only the
	// tables of the game's players are.
	t, err := tournament.NewReplay(ctx, cfg, fl.game, fl.pairs, players)
	if err != nil {
		if ferr := replayFlagError(err, fl); ferr != nil {
			return ferr
		}
		return badInput(err)
	}
	defer t.Close()
	r, err := t.Replay(fl.game, fl.pairs, players)
	if err != nil {
		if ferr := replayFlagError(err, fl); ferr != nil {
			return ferr
		}
		return err
	}
	variant := ""
	if v := cfg.Rules.Variant; !v.Standard() {
		variant = ", " + v.String()
	}
	fmt.Fprintf(stdout, "%s, game %d (seed %d): %s, %s, pass %s%s; seats: %s\n",
		cfg.Name, r.Game, cfg.Seed, count(r.Pairs, "pair"), count(cfg.Rules.Singletons, "singleton"), cfg.Rules.Pass, variant, strings.Join(r.Players, ", "))
	if err := writeMoves(stdout, &r.Log); err != nil {
		return err
	}
	o := r.Outcome
	res := make([]string, len(r.Players))
	for i, name := range r.Players {
		res[i] = fmt.Sprintf("%s %s", name, shareString(o.Share[i], len(r.Players)))
	}
	end := "all pairs taken"
	switch {
	case o.Stalemate:
		end = fmt.Sprintf("stalemate with %s left, shared equally", count(o.Left, "pair"))
	case o.Limited:
		end = fmt.Sprintf("turn limit with %s left, counted for nobody", count(o.Left, "pair"))
	case o.Fault != 0:
		end = fmt.Sprintf("forfeited by %s (%s) with %s left, conceded to the others", r.Players[o.FaultSeat], tournament.FaultName(o.Fault), count(o.Left, "pair"))
	}
	fmt.Fprintf(stdout, "result after %s (%s): %s\n", count(o.Turns, "turn"), end, strings.Join(res, ", "))
	if fl.record != "" {
		g := t.GameRecord(r)
		g.Meta["source"] = "memsim replay"
		if err := writeRecord(fl.record, g); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "record written to %s\n", fl.record)
	}
	return nil
}

// replayFlagError words err, when it refuses the game, deal size or seat order replay was asked
// for, as the refusal of its flag; it returns nil for any other err.
func replayFlagError(err error, fl replayFlags) error {
	var (
		ge *tournament.GameError
		de *tournament.DealSizeError
		se *tournament.SeatOrderError
	)
	switch {
	case errors.As(err, &ge):
		return usagef("--game %d: must be between 0 and %d (the run's games - 1)", ge.Game, ge.Games-1)
	case errors.As(err, &de):
		return usagef("--pairs %d: the run's deal sizes are %v", de.Pairs, de.Sizes)
	case errors.As(err, &se):
		allowed := make([]string, len(se.Orders))
		for i, o := range se.Orders {
			allowed[i] = strings.Join(o, ",")
		}
		return usagef("--players %q: not a seat order of the run at %d pairs (allowed: %s)", fl.players, se.Pairs, strings.Join(allowed, "; "))
	}
	return nil
}

// writeRecord writes the record of g to path, whole or not at all.
func writeRecord(path string, g *record.Game) error {
	data, err := record.Marshal(g)
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(path, data)
}

// replayConfig reads the configuration --config names: a configuration file, or the config.yaml
// of a run folder (or a shard folder); without --config, the embedded default.
func replayConfig(fl replayFlags) (*configs.Tournament, error) {
	if !fl.set["config"] {
		return loadConfig(nil)
	}
	if info, err := os.Stat(fl.config); err != nil || !info.IsDir() {
		return loadConfig([]string{fl.config})
	}
	if _, err := os.Lstat(filepath.Join(fl.config, report.ConfigFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("--config %s: a folder without %s, not a run folder: give a run folder or a configuration file", fl.config, report.ConfigFile)
	}
	cfg, err := readRunConfig(fl.config)
	if err != nil {
		return nil, fmt.Errorf("--config %s: %w", fl.config, err)
	}
	return cfg, nil
}

// moveLegend explains the move log's notation, for a deal of pairs pairs and singletons
// singletons under the variant v.
func moveLegend(pairs, singletons int, v rules.Variant) string {
	faces := fmt.Sprintf("P0 to P%d name the pairs (two cards of the same P match)", pairs-1)
	if c := v.CopiesOf(); c != rules.DefaultCopies {
		faces = fmt.Sprintf("P0 to P%d name the faces, %d cards each (any two cards of the same P match)", v.Faces(pairs)-1, c)
	}
	switch {
	case singletons == 1:
		faces += ", S0 the singleton"
	case singletons > 1:
		faces += fmt.Sprintf(", S0 to S%d the singletons", singletons-1)
	}
	return fmt.Sprintf(`# positions: 0 to %d, the places of the cards on the table
# faces: %s
# new: a card not face up before; seen: one that was
# choice, read from the table as a perfect memory sees it (docs/models.md):
#   daring          a new card, then another new one
#   safe            a new card, then a seen one
#   %-14s  a new card, then its seen partner; or a new singleton first: both flip alike
#   known-first     a seen card, then a new one
#   %-14s  both cards of a seen pair, taken first
#   pass            no flip, or two seen cards that are not a pair
`, 2*pairs+singletons-1, faces, tournament.DaringOrSafe, tournament.KnownPair)
}

// writeMoves writes the move log of a game: the legend, then one line per turn with the seat, its
// player, the choice the turn made, the cards it flipped and how it ended.
func writeMoves(w io.Writer, log *sim.Log) error {
	var b strings.Builder
	b.WriteString(moveLegend(log.Pairs, log.Singletons, log.Variant))
	for _, m := range tournament.Moves(log) {
		fmt.Fprintf(&b, "turn %3d  seat %d %-12s %-16s", m.Turn, m.Seat, log.Names[m.Seat], m.Choice)
		if len(m.Flips) == 0 {
			b.WriteString("passes")
		}
		for i, c := range m.Flips {
			switch {
			case i == 0:
				b.WriteString("flips ")
			case i == len(m.Flips)-1:
				b.WriteString(" and ")
			default:
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d (%s, %s)", c.Pos, faceName(log, c.Face), map[bool]string{false: "new", true: "seen"}[m.Seen[i]])
		}
		switch m.End {
		case "pair":
			b.WriteString("  -> takes the pair")
		case "miss":
			b.WriteString("  -> no pair")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// faceName names a face of the log's deal: P0, P1, ... for the pair faces (with copies of a
// face, fewer than the pairs), S0, S1, ... for the singletons.
func faceName(log *sim.Log, face int) string {
	if f := log.Variant.Faces(log.Pairs); face >= f {
		return fmt.Sprintf("S%d", face-f)
	}
	return fmt.Sprintf("P%d", face)
}

// shareString formats a score of k/p pairs.
func shareString(k, p int) string {
	if k%p == 0 {
		return fmt.Sprint(k / p)
	}
	return fmt.Sprintf("%g", float64(k)/float64(p))
}
