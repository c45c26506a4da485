package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"memsim/tournament"
)

// replayCommand returns memsim replay.
func replayCommand() *command {
	return &command{
		name: "replay",
		usage: []string{
			"memsim replay [--config F] --game G [--pairs N] [--players A,B,...]",
		},
		short: "replay one game of a run and print its move log",
		long: `
Replays game G (0-based; with paired deals, deal G) of the run configuration F describes (with no
--config, the embedded default) and prints its move log. --pairs picks the deal size (default: the
first) and --players the seat order (default: the first matchup). A flag not given takes its
default; a value given is used as it is: --pairs 0 is an error.
`,
		run: runReplay,
	}
}

type replayFlags struct {
	config, players string
	game            int64
	pairs           int
	set             map[string]bool // the flags given on the command line
}

func runReplay(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl replayFlags
	fs := newFlagSet("memsim replay")
	fs.StringVar(&fl.config, "config", "", "the run's configuration `file` (default: the embedded default)")
	fs.Int64Var(&fl.game, "game", 0, "`G`, the game to replay (0-based; required)")
	fs.IntVar(&fl.pairs, "pairs", 0, "deal size `N` (default: the configuration's first)")
	fs.StringVar(&fl.players, "players", "", "seat order, comma-separated player `names` (default: the first matchup)")
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
		return usagef("--config \"\": give the run's configuration file")
	}
	var files []string
	if fl.set["config"] {
		files = []string{fl.config}
	}
	cfg, err := loadConfig(files)
	if err != nil {
		return err
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return badInput(err)
	}
	if !fl.set["pairs"] {
		fl.pairs = cfg.Rules.Pairs[0]
	}
	var players []string // nil: the first seat order
	if fl.set["players"] {
		players = strings.Split(fl.players, ",")
	}
	r, err := t.Replay(fl.game, fl.pairs, players)
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
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "%s, game %d (seed %d): %s, %s, pass %s; seats: %s\n",
		cfg.Name, r.Game, cfg.Seed, count(r.Pairs, "pair"), count(cfg.Rules.Singletons, "singleton"), cfg.Rules.Pass, strings.Join(r.Players, ", "))
	if _, err := r.Log.WriteTo(stdout); err != nil {
		return err
	}
	o := r.Outcome
	res := make([]string, len(r.Players))
	for i, name := range r.Players {
		res[i] = fmt.Sprintf("%s %s", name, shareString(o.Share[i], len(r.Players)))
	}
	end := "all pairs taken"
	if o.Stalemate {
		end = fmt.Sprintf("stalemate with %s left, shared equally", count(o.Left, "pair"))
	}
	fmt.Fprintf(stdout, "result after %s (%s): %s\n", count(o.Turns, "turn"), end, strings.Join(res, ", "))
	return nil
}

// shareString formats a score of k/p pairs.
func shareString(k, p int) string {
	if k%p == 0 {
		return fmt.Sprint(k / p)
	}
	return fmt.Sprintf("%g", float64(k)/float64(p))
}
