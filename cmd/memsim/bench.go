package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/tournament"
)

// benchCommand returns memsim bench.
func benchCommand() *command {
	return &command{
		name: "bench",
		usage: []string{
			"memsim bench [--pairs N] [--policy P] [--memory M --forget D [--q Q] --scope S]\n" +
				"[--games G] [--workers W] [--count K] [--json]",
		},
		short: "games per second of a policy against itself",
		long: `
Plays G games of policy P against itself (two players, pass rule never) on the worker pool and
reports the games per second. These are the workloads of go test -bench ./sim. With --count K it
plays the same G games K times and reports the median games per second with a 95% interval
(distribution-free, from order statistics, as benchstat computes it: K >= 6 gives one).

A flag not given takes its default (for the memory flags, the policy's own memory); a value given
is used as it is: --games 0 is an error, --workers 0 means one worker per CPU and --memory 0
perfect memory (or no limit with decay).
`,
		run: runBench,
	}
}

type benchFlags struct {
	pairs, memory, workers, count int
	games                         int64
	policy, forget, scope         string
	q                             float64
	json                          bool
	set                           map[string]bool // the flags given on the command line
}

// benchResult is what memsim bench --json prints: the throughput, then what was measured.
type benchResult struct {
	tournament.Throughput
	Pairs      int    `json:"pairs"`
	Policy     string `json:"policy"`
	Memory     string `json:"memory"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

func runBench(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl benchFlags
	fs := newFlagSet("memsim bench")
	fs.IntVar(&fl.pairs, "pairs", 26, "deal size `N`")
	fs.StringVar(&fl.policy, "policy", "parity", "`policy` of both players: "+strings.Join(strategies.Names(), ", "))
	fs.IntVar(&fl.memory, "memory", 0, "memory capacity `M` (0: perfect memory, or no limit with decay; default: the policy's)")
	fs.StringVar(&fl.forget, "forget", "", "forgetting `rule`: handover-uniform, lru or decay (default: the policy's)")
	fs.Float64Var(&fl.q, "q", 0, "decay `probability` per card and hand-over (with --forget decay)")
	fs.StringVar(&fl.scope, "scope", "", "memory `scope`: shared or private (default: the policy's)")
	fs.Int64Var(&fl.games, "games", 1000000, "`G` games to play")
	fs.IntVar(&fl.workers, "workers", 0, "`W` worker goroutines (0: one per CPU)")
	fs.IntVar(&fl.count, "count", 1, "`K` runs of the G games: the median games per second, with a 95% interval for K >= 6")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	if fs.NArg() > 0 {
		return exitFor(fs.Name(), usagef("unexpected argument %q (all input is given by flags; see memsim bench -h)", fs.Arg(0)), inv.stderr)
	}
	fl.set = given(fs)
	res, err := bench(ctx, fl)
	if err != nil {
		return exitFor(fs.Name(), err, inv.stderr)
	}
	out := checkedStdout(inv.stdout)
	if fl.json {
		b, _ := json.Marshal(res)
		fmt.Fprintln(out, string(b))
	} else if res.Count == 1 {
		fmt.Fprintf(out, "%s of %s against itself, %s, %s memory, %s: %.3f s, %s games/s (%s per worker)\n",
			count(res.Games, "game"), res.Policy, count(res.Pairs, "pair"), res.Memory, count(res.Workers, "worker"), res.Seconds,
			significant(res.GamesPerSec, 4), significant(res.GamesPerSecPerWorker, 4))
	} else {
		ci := "no 95% interval with fewer than 6 runs"
		if res.CI95 != nil {
			ci = fmt.Sprintf("95%% interval [%s, %s]", significant(res.CI95[0], 4), significant(res.CI95[1], 4))
		}
		fmt.Fprintf(out, "%d runs of %s of %s against itself, %s, %s memory, %s: %.3f s, median %s games/s, %s (%s per worker)\n",
			res.Count, count(res.Games, "game"), res.Policy, count(res.Pairs, "pair"), res.Memory, count(res.Workers, "worker"), res.Seconds,
			significant(res.GamesPerSec, 4), ci, significant(res.GamesPerSecPerWorker, 4))
	}
	return exitFor(fs.Name(), out.result(nil), inv.stderr)
}

func bench(ctx context.Context, fl benchFlags) (*benchResult, error) {
	switch {
	case fl.pairs < 1 || fl.pairs > tournament.MaxPairs:
		return nil, usagef("--pairs %d: must be between 1 and %d", fl.pairs, tournament.MaxPairs)
	case checkGames(fl.games, 1) != nil:
		return nil, checkGames(fl.games, 1)
	case checkWorkers(fl.workers) != nil:
		return nil, checkWorkers(fl.workers)
	case fl.count < 1 || fl.count > maxBenchCount:
		return nil, usagef("--count %d: must be between 1 and %d", fl.count, maxBenchCount)
	case fl.set["q"] && fl.forget != "decay":
		return nil, usagef("--q %g goes with --forget decay", fl.q)
	case fl.forget == "decay" && !fl.set["q"]:
		return nil, requiredWith("--q Q", "--forget decay", "the probability that each remembered card is forgotten at a hand-over, 0 < Q <= 1")
	case fl.set["q"] && !(fl.q > 0 && fl.q <= 1):
		return nil, usagef("--q %g: must be in (0, 1]", fl.q)
	}
	var ov strategies.MemoryOverride
	if fl.set["memory"] {
		ov.Capacity = &fl.memory
	}
	if fl.set["forget"] {
		f, err := rules.ParseForgetting(fl.forget)
		if err != nil {
			return nil, usagef("--forget: %v", err)
		}
		ov.Forget = &f
	}
	if fl.set["q"] {
		ov.Decay = &fl.q
	}
	if fl.set["scope"] {
		sc, err := rules.ParseScope(fl.scope)
		if err != nil {
			return nil, usagef("--scope: %v", err)
		}
		ov.Scope = &sc
	}
	m, err := tournament.Bench{Pairs: fl.pairs, Policy: fl.policy, Memory: ov, Games: fl.games}.Match(ctx)
	if err != nil {
		return nil, badInput(err)
	}
	tp, err := tournament.Measure(ctx, m, fl.workers, fl.count)
	if err != nil {
		return nil, err
	}
	return &benchResult{Throughput: *tp, Pairs: fl.pairs, Policy: fl.policy,
		Memory: m.Setup.Players[0].Memory.String(), GOMAXPROCS: runtime.GOMAXPROCS(0)}, nil
}

// maxBenchCount bounds --count.
const maxBenchCount = 1000
