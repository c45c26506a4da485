package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"memsim/sim"
	"memsim/tournament"
)

// validateCommand returns memsim validate.
func validateCommand() *command {
	return &command{
		name: "validate",
		usage: []string{
			"memsim validate [--level L] [--games G] [--workers W] [--json] [--quiet] [SUITE.yaml]",
		},
		short: "compare simulation with the solver",
		long: `
Plays every matchup of the suite (one or more tournaments, as YAML documents separated by ---)
whose model has an exact solution, and compares the simulation with the solver: seat 0's mean pairs
(every seat's with three or more players) by a likelihood-ratio test, and luck-adjusted by a z test
(solitaire: the mean number of turns, a z test, and, where the solver gives it, the distribution
of the number of turns, a G test); for two players, seat 0's rates of wins and of
draws (exact binomial tests) and the whole distribution of its final share (a G test); for
win-optimal at three or more seats, every seat's rates of wins and of draws; at three or more seats
with perfect memory, a fixed or fluctuating lru or handover-uniform capacity or decay forgetting
(a seat playing to win with perfect memory only; under a turn limit, decay and a fluctuating
capacity included, and
copies of a face too), every
seat's distribution of its final share
(a G test per seat). The p-values are Holm-corrected across the suite. With no SUITE, the embedded
suite (configs/validate.yaml) covering every exact model. Exit status 0 when no check is rejected
at level L, 1 otherwise; a suite in which no matchup has an exact model checks nothing and is
refused, exit status 2.

Flags may come before or after SUITE.yaml; -- ends them. A flag not given takes its default (for
--games, each tournament's value); a value given is used as it is: --games 0 is an error,
--workers 0 means one worker per CPU.
`,
		run: runValidate,
	}
}

type validateFlags struct {
	level          float64
	games, workers int
	json, quiet    bool
	set            map[string]bool // the flags given on the command line
}

func runValidate(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl validateFlags
	fs := newFlagSet("memsim validate")
	fs.Float64Var(&fl.level, "level", 0.01, "significance `level` after the Holm correction (0 < L < 1)")
	fs.IntVar(&fl.games, "games", 0, "`G` games per matchup and deal size, at least "+strconv.Itoa(tournament.MinValidateGames)+" (default: each tournament's)")
	fs.IntVar(&fl.workers, "workers", 0, "`W` worker goroutines (0: one per CPU)")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object")
	fs.BoolVar(&fl.quiet, "quiet", false, "no progress reports")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.set = given(fs)
	res, err := validateSuite(ctx, fl, fs.Args(), inv.stderr)
	if err != nil {
		return exitFor(fs.Name(), err, inv.stderr)
	}
	out := checkedStdout(inv.stdout)
	if fl.json {
		b, err := json.Marshal(res)
		if err != nil {
			return exitFor(fs.Name(), err, inv.stderr)
		}
		fmt.Fprintln(out, string(b))
	} else {
		writeValidation(out, res)
	}
	if err := out.result(nil); err != nil {
		return exitFor(fs.Name(), err, inv.stderr)
	}
	for _, c := range res.Checks {
		if c.Rejected {
			return exitError
		}
	}
	return exitOK
}

// validateSuite checks the flags, reads the suite args names (or the embedded one) and validates
// it.
func validateSuite(ctx context.Context, fl validateFlags, args []string, stderr io.Writer) (*tournament.Validation, error) {
	if !(fl.level > 0 && fl.level < 1) {
		return nil, usagef("--level %g: must be between 0 and 1", fl.level)
	}
	if fl.set["games"] {
		if err := checkGames(int64(fl.games), tournament.MinValidateGames); err != nil {
			return nil, usagef("%v (the tests' normal approximations need at least %d games per matchup)", err, tournament.MinValidateGames)
		}
	}
	if err := checkWorkers(fl.workers); err != nil {
		return nil, err
	}
	cfgs, err := loadSuite(args)
	if err != nil {
		return nil, err
	}
	suite, err := tournament.NewSuite(ctx, cfgs, fl.games)
	if err != nil {
		return nil, badInput(err)
	}
	total := suite.Games()
	if !fl.json {
		fmt.Fprintf(stderr, "memsim validate: %s, %s, %s\n", count(len(suite.Tournaments), "tournament"), count(total, "game"), count(sim.Workers(fl.workers), "worker"))
	}
	p := startProgress(stderr, "memsim validate", total, fl.quiet)
	defer p.finish()
	return suite.Validate(ctx, tournament.ValidateOptions{Level: fl.level,
		Play: tournament.Options{Workers: fl.workers, Progress: p.done}})
}

// writeValidation prints a summary per family and every rejected check.
func writeValidation(w io.Writer, res *tournament.Validation) {
	type count struct{ checks, rejected int }
	families := tournament.Families()
	counts := map[string]*count{}
	for _, f := range families {
		counts[f] = &count{}
	}
	var rejected []tournament.Check
	for _, c := range res.Checks {
		counts[c.Family].checks++
		if c.Rejected {
			counts[c.Family].rejected++
			rejected = append(rejected, c)
		}
	}
	fmt.Fprintf(w, "%d %s on %d games, Holm-corrected at level %g\n", len(res.Checks), nounOf(len(res.Checks), "check"), res.Games, res.Level)
	for _, f := range families {
		fmt.Fprintf(w, "  %-17s %5d %-7s %d rejected\n", f, counts[f].checks, nounOf(counts[f].checks, "check")+",", counts[f].rejected)
	}
	if len(rejected) == 0 {
		fmt.Fprintln(w, "no check rejected: the simulation agrees with the solver")
		return
	}
	fmt.Fprintf(w, "%d %s rejected:\n", len(rejected), nounOf(len(rejected), "check"))
	for _, c := range rejected {
		fmt.Fprintf(w, "  %s: statistic %.4g, p %.3g, Holm p %.3g", c.Name, c.Statistic, c.PValue, c.PHolm)
		if c.Observed != nil && c.Expected != nil {
			fmt.Fprintf(w, " (observed %.4f, exact %.4f)", *c.Observed, *c.Expected)
		}
		fmt.Fprintln(w)
	}
}
