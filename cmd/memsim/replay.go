package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"memsim/sim"
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
	stdout, stderr := inv.stdout, inv.stderr
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
	return exitFor(fs.Name(), replay(ctx, fl, fs.Args(), stdout), stderr)
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
	if fl.game < 0 || fl.game >= int64(cfg.Games) {
		return usagef("--game %d: must be between 0 and %d (the run's games - 1)", fl.game, cfg.Games-1)
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return badInput(err)
	}
	if !fl.set["pairs"] {
		fl.pairs = cfg.Rules.Pairs[0]
	}
	var available []string
	for _, m := range t.Matches {
		if m.Setup.Pairs != fl.pairs {
			continue
		}
		for k, order := range m.Orders {
			names := t.Names(m.Seats(order))
			seating := strings.Join(names, ",")
			available = append(available, seating)
			if fl.set["players"] && fl.players != seating {
				continue
			}
			var log sim.Log
			o, err := m.Replay(k, uint64(fl.game), &log)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s, game %d (seed %d): %d pairs, %d singletons, pass %s; seats: %s\n",
				cfg.Name, fl.game, cfg.Seed, fl.pairs, cfg.Rules.Singletons, cfg.Rules.Pass, strings.Join(names, ", "))
			if _, err := log.WriteTo(stdout); err != nil {
				return err
			}
			var res []string
			for i, name := range names {
				res = append(res, fmt.Sprintf("%s %s", name, shareString(o.Share[i], len(names))))
			}
			end := "all pairs taken"
			if o.Stalemate {
				end = fmt.Sprintf("stalemate with %d pairs left, shared equally", o.Left)
			}
			fmt.Fprintf(stdout, "result after %d turns (%s): %s\n", o.Turns, end, strings.Join(res, ", "))
			return nil
		}
	}
	if len(available) == 0 {
		return usagef("--pairs %d: the run's deal sizes are %v", fl.pairs, cfg.Rules.Pairs)
	}
	return usagef("--players %q: not a seat order of the run at %d pairs (allowed: %s)", fl.players, fl.pairs, strings.Join(available, "; "))
}

// shareString formats a score of k/p pairs.
func shareString(k, p int) string {
	if k%p == 0 {
		return fmt.Sprint(k / p)
	}
	return fmt.Sprintf("%g", float64(k)/float64(p))
}
