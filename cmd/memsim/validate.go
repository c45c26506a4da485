package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
)

const validateUsage = `Usage:
  memsim validate [--level L] [--games G] [--workers W] [--json] [--quiet] [SUITE.yaml]

Plays every matchup of the suite (one or more tournaments, as YAML documents separated by ---)
whose model has an exact solution, and compares the simulation with the solver: the mean pairs
per seat (a z test; solitaire: the mean number of turns) and, for two players, the whole
distribution of seat 0's final share (a G test). The p-values are Holm-corrected across the
suite. With no SUITE, the embedded suite (configs/validate.yaml) covering every exact model.
Exit status 0 when no check is rejected at level L, 1 otherwise.

Flags:
`

type validateFlags struct {
	level          float64
	games, workers int
	json, quiet    bool
}

// check is one comparison of simulation with the solver.
type check struct {
	Name   string `json:"name"`
	Family string `json:"family"`
	Pass   bool   `json:"pass"`
	// Statistic is z for a mean, G for a distribution.
	Statistic float64 `json:"statistic"`
	// Df is the G test's degrees of freedom (after pooling bins with fewer than 5 expected games).
	Df       int     `json:"df,omitempty"`
	PValue   float64 `json:"p_value"`
	PHolm    float64 `json:"p_holm"`
	Rejected bool    `json:"rejected"`
	// Observed and Expected are the simulated and exact means (mean checks).
	Observed float64 `json:"observed,omitempty"`
	Expected float64 `json:"expected,omitempty"`
}

// validationResult is what memsim validate --json prints.
type validationResult struct {
	Games  int64   `json:"games"`
	Level  float64 `json:"level"`
	Checks []check `json:"checks"`
}

// validator plays a suite and checks it. seatSwap, for the negative control of the tests, gives
// seat 0 of every two-player matchup the exact expectation of seat 1 (its mean, and its share
// distribution reversed): the same code path with a wrong model.
type validator struct {
	level    float64
	workers  int
	seatSwap bool
}

func runValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var fl validateFlags
	fs := flag.NewFlagSet("memsim validate", flag.ContinueOnError)
	fs.Float64Var(&fl.level, "level", 0.01, "significance `level` after the Holm correction (0 < L < 1)")
	fs.IntVar(&fl.games, "games", 0, "`G` games per matchup and deal size (default: each tournament's)")
	fs.IntVar(&fl.workers, "workers", 0, "`W` worker goroutines (0: one per CPU)")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object")
	fs.BoolVar(&fl.quiet, "quiet", false, "no progress reports")
	fs.SetOutput(io.Discard)
	if code, done := parseFlags(fs, validateUsage, args, stdout, stderr); done {
		return code
	}
	res, err := validateSuite(ctx, fl, fs.Args(), validator{level: fl.level, workers: fl.workers}, stderr)
	if err != nil {
		return exitFor(fs.Name(), err, stderr)
	}
	if fl.json {
		b, err := json.Marshal(res)
		if err != nil {
			return exitFor(fs.Name(), err, stderr)
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		writeValidation(stdout, res)
	}
	for _, c := range res.Checks {
		if c.Rejected {
			return exitError
		}
	}
	return exitOK
}

// loadSuite reads the suite named by args (at most one file), or the embedded one.
func loadSuite(args []string) ([]*configs.Tournament, error) {
	file, data, err := readInput(args, "suite", configs.Validate)
	if err != nil {
		return nil, err
	}
	suite, err := configs.ParseSuite(file, data, configOptions())
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return suite, nil
}

func validateSuite(ctx context.Context, fl validateFlags, args []string, v validator, stderr io.Writer) (*validationResult, error) {
	switch {
	case !(fl.level > 0 && fl.level < 1):
		return nil, usagef("--level %g: must be between 0 and 1", fl.level)
	case fl.games < 0:
		return nil, usagef("--games %d: must be at least 1", fl.games)
	case fl.workers < 0:
		return nil, usagef("--workers %d: must be 0 (one per CPU) or more", fl.workers)
	}
	suite, err := loadSuite(args)
	if err != nil {
		return nil, err
	}
	// Build every tournament first, so that a bad suite is refused before anything runs.
	var ts []*tournament
	var total int64
	for _, cfg := range suite {
		if fl.games > 0 {
			cfg.Games = fl.games
		}
		t, err := newTournament(ctx, cfg)
		if err != nil {
			return nil, &usageError{err.Error()}
		}
		t.keepExact()
		ts = append(ts, t)
		total += t.games
	}
	workers := v.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if !fl.json {
		fmt.Fprintf(stderr, "memsim validate: %d tournaments, %d games, %d workers\n", len(ts), total, workers)
	}
	p := startProgress(stderr, total, fl.quiet)
	defer p.finish()
	res := &validationResult{Games: total, Level: v.level}
	for _, t := range ts {
		results, _, err := t.play(ctx, workers, p, nil)
		if err != nil {
			return nil, err
		}
		checks, err := v.checks(ctx, t, results)
		if err != nil {
			return nil, err
		}
		res.Checks = append(res.Checks, checks...)
	}
	holm(res.Checks, v.level)
	return res, nil
}

// keepExact drops the matches none of whose seat orders has an exact model.
func (t *tournament) keepExact() {
	var kept []match
	t.games = 0
	for _, m := range t.matches {
		for _, order := range m.Orders {
			if _, _, ok := t.exactModel(m.Setup.Pairs, m.seats(order)); ok {
				kept = append(kept, m)
				t.games += m.Deals * int64(len(m.Orders))
				break
			}
		}
	}
	t.matches = kept
}

// family names the exact model a check belongs to.
func family(model exact.Model, players int) string {
	switch {
	case players == 1:
		return "solitaire"
	case players > 2:
		return "multiplayer"
	case model.Singletons > 0:
		return "singletons"
	case model.Memory.Forget == rules.ForgetHandoverUniform:
		return "handover-uniform"
	case model.Memory.Forget == rules.ForgetLRU:
		return "lru"
	}
	return "perfect"
}

// checks compares the tallies of t's matches with the solver, seat order by seat order.
func (v validator) checks(ctx context.Context, t *tournament, results []*sim.Result) ([]check, error) {
	var out []check
	for mi, m := range t.matches {
		n := m.Setup.Pairs
		for k, order := range m.Orders {
			seats := m.seats(order)
			model, mu, ok := t.exactModel(n, seats)
			if !ok {
				continue
			}
			tally := results[mi].Orders[k]
			names := t.names(seats)
			prefix := fmt.Sprintf("%s/n=%d/%s", t.cfg.Name, n, strings.Join(names, " vs "))
			fam := family(model, mu.Players)
			st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
			val, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", prefix, err)
			}
			switch {
			case mu.Players == 1:
				mo := stats.MomentsFromSums(tally.Games, tally.TurnSum, tally.TurnSumSq)
				out = append(out, meanCheck(prefix+"/mean turns", fam, mo.Mean, mo.StdErr(), val.ExpectedTurns))
			default:
				seatsTested := len(seats)
				if mu.Players == 2 {
					seatsTested = 1 // seat 1's share is n minus seat 0's
				}
				for s := range seatsTested {
					mo := sharesMoments(tally, s)
					want := val.PairsBySeat[s]
					if v.seatSwap && mu.Players == 2 {
						want = val.PairsBySeat[1-s]
					}
					out = append(out, meanCheck(fmt.Sprintf("%s/mean pairs seat %d", prefix, s), fam, mo.Mean, mo.StdErr(), want))
				}
			}
			if mu.Players == 2 {
				d, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", prefix, err)
				}
				prob := d.Prob
				if v.seatSwap {
					prob = make([]float64, len(d.Prob))
					for i, p := range d.Prob {
						prob[len(prob)-1-i] = p
					}
				}
				if c, ok := gCheck(prefix+"/distribution", fam, tally.Share[0], prob); ok {
					out = append(out, c)
				}
			}
		}
	}
	return out, nil
}

// meanCheck is a two-sided z test of a sample mean against an exact value. A sample without
// spread passes only if its mean is the exact value.
func meanCheck(name, fam string, mean, stderr, want float64) check {
	c := check{Name: name, Family: fam, Observed: mean, Expected: want}
	diff := mean - want
	switch {
	case stderr > 0:
		c.Statistic = diff / stderr
		c.PValue = 2 * distuv.UnitNormal.Survival(math.Abs(c.Statistic))
	case math.Abs(diff) <= 1e-9*math.Max(1, math.Abs(want)):
		c.PValue = 1
	default:
		c.Statistic = math.Copysign(math.MaxFloat64, diff)
	}
	return c
}

// minExpected is the least expected count of a bin of the G test; smaller bins are pooled.
const minExpected = 5

// gCheck is a G test of observed counts against exact probabilities, pooling adjacent bins until
// each expects at least minExpected games. A game in a bin of probability zero rejects at once. It
// returns false when fewer than two bins remain (a distribution with a single outcome, which the
// mean check covers).
func gCheck(name, fam string, observed []int64, prob []float64) (check, bool) {
	c := check{Name: name, Family: fam}
	var total int64
	for _, o := range observed {
		total += o
	}
	var obs, exp []float64
	var o, e float64
	for i, p := range prob {
		if p <= 1e-15 && observed[i] > 0 {
			c.Statistic, c.PValue = math.MaxFloat64, 0
			return c, true
		}
		o += float64(observed[i])
		e += p * float64(total)
		if e >= minExpected {
			obs, exp = append(obs, o), append(exp, e)
			o, e = 0, 0
		}
	}
	if len(obs) > 0 {
		obs[len(obs)-1] += o
		exp[len(exp)-1] += e
	}
	if len(obs) < 2 {
		return c, false
	}
	g := 0.0
	for i := range obs {
		if obs[i] > 0 {
			g += obs[i] * math.Log(obs[i]/exp[i])
		}
	}
	c.Statistic, c.Df = 2*g, len(obs)-1
	c.PValue = distuv.ChiSquared{K: float64(c.Df)}.Survival(c.Statistic)
	return c, true
}

// holm sets every check's Holm-adjusted p-value and its verdict at the given level.
func holm(cs []check, level float64) {
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return cs[idx[a]].PValue < cs[idx[b]].PValue })
	m := len(cs)
	running := 0.0
	for rank, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-rank)*cs[i].PValue))
		cs[i].PHolm = running
		cs[i].Rejected = running < level
		cs[i].Pass = !cs[i].Rejected
	}
}

// writeValidation prints a summary per family and every rejected check.
func writeValidation(w io.Writer, res *validationResult) {
	type count struct{ checks, rejected int }
	families := []string{"perfect", "singletons", "handover-uniform", "lru", "solitaire", "multiplayer"}
	counts := map[string]*count{}
	for _, f := range families {
		counts[f] = &count{}
	}
	var rejected []check
	for _, c := range res.Checks {
		counts[c.Family].checks++
		if c.Rejected {
			counts[c.Family].rejected++
			rejected = append(rejected, c)
		}
	}
	fmt.Fprintf(w, "%d checks on %d games, Holm-corrected at level %g\n", len(res.Checks), res.Games, res.Level)
	for _, f := range families {
		fmt.Fprintf(w, "  %-17s %5d checks, %d rejected\n", f, counts[f].checks, counts[f].rejected)
	}
	if len(rejected) == 0 {
		fmt.Fprintln(w, "no check rejected: the simulation agrees with the solver")
		return
	}
	fmt.Fprintf(w, "%d checks rejected:\n", len(rejected))
	for _, c := range rejected {
		fmt.Fprintf(w, "  %s: statistic %.4g, p %.3g, Holm p %.3g", c.Name, c.Statistic, c.PValue, c.PHolm)
		if strings.Contains(c.Name, "/mean") {
			fmt.Fprintf(w, " (observed %.4f, exact %.4f)", c.Observed, c.Expected)
		}
		fmt.Fprintln(w)
	}
}
