package tournament

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
)

// Check is one comparison of simulation with the solver. In JSON every field is always there, so
// that a zero is never taken for a missing value: Df is null for a mean check, Observed and
// Expected are null for a distribution check.
type Check struct {
	Name   string `json:"name"`
	Family string `json:"family"`
	// Test is "z" (a mean against its exact value) or "G" (a distribution against the exact one).
	Test string `json:"test"`
	Pass bool   `json:"pass"`
	// Statistic is z for a mean, G for a distribution (±math.MaxFloat64 stands for an infinite
	// statistic, which JSON cannot hold).
	Statistic float64 `json:"statistic"`
	// Df is the G test's degrees of freedom (after pooling bins with fewer than 5 expected games).
	Df       *int    `json:"df"`
	PValue   float64 `json:"p_value"`
	PHolm    float64 `json:"p_holm"`
	Rejected bool    `json:"rejected"`
	// Observed and Expected are the simulated and exact means (mean checks).
	Observed *float64 `json:"observed"`
	Expected *float64 `json:"expected"`
}

// Validation is the outcome of validating a suite: every check, with its Holm-adjusted p-value
// and its verdict at the level.
type Validation struct {
	Games  int64   `json:"games"`
	Level  float64 `json:"level"`
	Checks []Check `json:"checks"`
}

// Families lists the families of checks, named after the exact model they test, in order.
func Families() []string {
	return []string{"perfect", "singletons", "handover-uniform", "lru", "solitaire", "multiplayer", "win", "blind", "turn-limit"}
}

// Suite is a set of tournaments to check against the solver, each reduced to the matches that
// have an exact model.
type Suite struct {
	Tournaments []*Tournament
}

// MinValidateGames is the least number of games per matchup a validation plays: its z and G tests
// rest on normal approximations, and a sample of a few games can have no spread at all.
const MinValidateGames = 100

// NewSuite builds every tournament of a suite (so that a bad suite is refused before anything
// runs) and keeps the matches with an exact model. games, when positive, replaces every
// tournament's games per matchup; each must be at least MinValidateGames. A suite none of whose
// matchups has an exact model, which would check nothing, is refused at the first tournament's
// players, naming the matchups and what an exact model needs.
func NewSuite(ctx context.Context, cfgs []*configs.Tournament, games int) (*Suite, error) {
	s := &Suite{}
	var inexact []string // the matchups without an exact model
	kept := 0
	for _, cfg := range cfgs {
		if games > 0 {
			cfg.Games = games
		}
		if cfg.Games < MinValidateGames {
			return nil, cfg.At(cfg.Positions.Games, fmt.Errorf("games: %d per matchup is too few to validate: the tests' normal approximations need at least %d", cfg.Games, MinValidateGames))
		}
		t, err := New(ctx, cfg)
		if err != nil {
			return nil, err
		}
		inexact = append(inexact, t.inexactMatchups()...)
		t.KeepExact()
		kept += len(t.Matches)
		s.Tournaments = append(s.Tournaments, t)
	}
	if kept == 0 && len(cfgs) > 0 {
		return nil, cfgs[0].At(cfgs[0].Positions.Players, nothingToValidate(inexact))
	}
	return s, nil
}

// inexactMatchups names the matchups of t without an exact model, as "a vs b at 3 pairs".
func (t *Tournament) inexactMatchups() []string {
	var out []string
	for _, m := range t.Matches {
		for _, order := range m.Orders {
			seats := m.Seats(order)
			if _, _, ok := t.ExactModel(m.Setup.Pairs, seats); !ok {
				out = append(out, fmt.Sprintf("%s at %d pairs", strings.Join(t.Names(seats), " vs "), m.Setup.Pairs))
			}
		}
	}
	return out
}

// nothingToValidate says that no matchup of a suite has an exact model, naming the first few
// (inexact) and what an exact model needs.
func nothingToValidate(inexact []string) error {
	const shown = 3
	named := "the suite has no matchup"
	if len(inexact) > 0 {
		named = strings.Join(inexact[:min(shown, len(inexact))], ", ")
		if more := len(inexact) - shown; more > 0 {
			named += fmt.Sprintf(" and %d more", more)
		}
	}
	return fmt.Errorf("nothing to validate: no matchup has an exact model (%s); an exact model needs every seat to play "+
		"a table policy (not random, greedy-random or a strategy of its own) with one memory the solver models (perfect, "+
		"or shared lru or handover-uniform without singletons), at most %d pairs (%d for the policies that play to win)",
		named, exact.RationalLimit, exact.WinRationalLimit)
}

// Games returns the number of games the suite plays.
func (s *Suite) Games() int64 {
	var total int64
	for _, t := range s.Tournaments {
		total += t.Games()
	}
	return total
}

// ValidateOptions tune Suite.Validate.
type ValidateOptions struct {
	// Level is the significance level after the Holm correction across the suite.
	Level float64
	// Play tunes the play (workers, progress); its Resume and Checkpoint must be nil.
	Play Options
}

// Validate plays every tournament of the suite and compares it with the solver: the mean pairs
// of seat 0 (of every seat with three or more players; solitaire: the mean number of turns) by a
// two-sided z test, and, for two players, seat 0's rates of wins and draws by z tests with their
// exact binomial standard errors and the whole distribution of seat 0's share by a G test.
// The p-values are Holm-corrected across the suite.
func (s *Suite) Validate(ctx context.Context, o ValidateOptions) (*Validation, error) {
	return s.validate(ctx, o, controls{})
}

// controls are the negative controls that test the checks themselves: the same code paths with a
// wrong model, which the checks must reject.
type controls struct {
	// wrongExpectation gives seat 0 of every two-player matchup the exact expectation of seat 1
	// (its mean, and its share distribution reversed).
	wrongExpectation bool
	// biasedLuck, when not zero, moves the advantage of every daring choice in every luck table by
	// this many pairs in the mover's favour: luck terms whose expectation is wrong, which the checks
	// of the luck-adjusted means must reject (and the raw checks not notice).
	biasedLuck float64
}

// validate is Validate with the negative controls c.
func (s *Suite) validate(ctx context.Context, o ValidateOptions, c controls) (*Validation, error) {
	v := &Validation{Games: s.Games(), Level: o.Level}
	for _, t := range s.Tournaments {
		if c.biasedLuck != 0 {
			t = t.withBiasedLuck(c.biasedLuck)
		}
		res, err := t.Play(ctx, o.Play)
		if err != nil {
			return nil, err
		}
		checks, err := t.checks(ctx, res, c.wrongExpectation)
		if err != nil {
			return nil, err
		}
		v.Checks = append(v.Checks, checks...)
	}
	p := make([]float64, len(v.Checks))
	for i, c := range v.Checks {
		p[i] = c.PValue
	}
	for i, adj := range stats.Holm(p) {
		c := &v.Checks[i]
		c.PHolm, c.Rejected = adj, adj < o.Level
		c.Pass = !c.Rejected
	}
	return v, nil
}

// withBiasedLuck returns a copy of t whose matches' luck tables are biased by delta (controls).
func (t *Tournament) withBiasedLuck(delta float64) *Tournament {
	u := *t
	u.Matches = slices.Clone(t.Matches)
	for i := range u.Matches {
		m := &u.Matches[i]
		if m.Setup.Luck != nil {
			m.Setup.Luck = m.Setup.Luck.Biased(rules.Daring, delta)
		}
		m.Setup.Players = slices.Clone(m.Setup.Players)
		for j := range m.Setup.Players {
			if p := &m.Setup.Players[j]; p.Luck != nil {
				p.Luck = p.Luck.Biased(rules.Daring, delta)
			}
		}
	}
	return &u
}

// family names the exact model a check belongs to ("win" for a matchup that plays to win; a rule
// variant names the family: "turn-limit", or "blind" for blind flips without a limit).
func family(model exact.Model, mu exact.Lineup) string {
	players := mu.Players
	switch {
	case model.Variant.TurnLimit > 0:
		return "turn-limit"
	case model.Variant.Flips == rules.FlipsBlind:
		return "blind"
	case mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin():
		return "win"
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

// minExpected is the least expected count of a bin of the G test; smaller bins are pooled.
const minExpected = 5

// checks compares the tallies of t's matches with the solver, seat order by seat order.
func (t *Tournament) checks(ctx context.Context, res *MatchResults, swap bool) ([]Check, error) {
	var out []Check
	for mi, m := range t.Matches {
		n := m.Setup.Pairs
		for k, order := range m.Orders {
			seats := m.Seats(order)
			model, mu, ok := t.ExactModel(n, seats)
			if !ok {
				continue
			}
			tally := res.Matches[mi].Orders[k]
			prefix := fmt.Sprintf("%s/n=%d/%s", t.Config.Name, n, strings.Join(t.Names(seats), " vs "))
			cs, err := exactChecks(ctx, model, mu, n, tally, swap)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", prefix, err)
			}
			for _, c := range cs {
				c.Name = prefix + c.Name
				c.Family = family(model, mu)
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// exactChecks compares one seat order's tally with the exact values of its model; the checks'
// names are suffixes ("/mean pairs seat 0").
func exactChecks(ctx context.Context, model exact.Model, mu exact.Lineup, n int, tally *sim.Tally, swap bool) ([]Check, error) {
	st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
	val, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
	if err != nil {
		return nil, err
	}
	var out []Check
	switch {
	case mu.Players == 1:
		if model.Variant.TurnLimit > 0 {
			// The pairs taken within the limit (the turns are then mostly the limit itself).
			out = append(out, meanCheck("/mean pairs seat 0", sharesMoments(tally, 0), val.ExpectedPairs))
			break
		}
		mo := stats.MomentsFromSums(tally.Games, tally.TurnSum, tally.TurnSumSq)
		out = append(out, meanCheck("/mean turns", mo, val.ExpectedTurns))
	default:
		seatsTested := mu.Players
		if mu.Players == 2 {
			seatsTested = 1 // seat 1's share is n minus seat 0's
		}
		for s := range seatsTested {
			want := val.PairsBySeat[s]
			if swap && mu.Players == 2 {
				want = val.PairsBySeat[1-s]
			}
			out = append(out, meanCheck(fmt.Sprintf("/mean pairs seat %d", s), sharesMoments(tally, s), want))
			if tally.Luck != nil {
				// The luck-adjusted mean: the same expectation, a far narrower interval.
				mo := seatMoments(tally, s)
				out = append(out, zCheck(fmt.Sprintf("/adjusted pairs seat %d", s), mo.Mean, max(mo.StdErr(), adjustedResolution), want))
			}
		}
	}
	if mu.Players == 2 && model.Variant.TurnLimit > 0 {
		// Under a turn limit the solver gives the rates of wins and draws, not the distribution.
		wdl, err := exact.WinDrawLoss(ctx, field.Float{}, model, mu, st)
		if err != nil {
			return nil, err
		}
		out = append(out, rateChecks(tally, wdl[0], swap)...)
	}
	if mu.Players == 2 && model.Variant.TurnLimit == 0 {
		d, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
		if err != nil {
			return nil, err
		}
		prob := d.Prob
		if swap {
			prob = make([]float64, len(d.Prob))
			for i, p := range d.Prob {
				prob[len(prob)-1-i] = p
			}
		}
		observed := make([]float64, len(tally.Share[0]))
		for i, c := range tally.Share[0] {
			observed[i] = float64(c)
		}
		// The rates of wins and draws, against their exact probabilities (the distribution's
		// masses above and at a level game).
		out = append(out, rateChecks(tally, exact.WDL[float64]{Win: d.Win, Draw: d.Draw, Loss: d.Loss}, swap)...)
		if g, ok := stats.GTest(observed, prob, minExpected); ok {
			df := g.DF
			out = append(out, Check{Name: "/distribution", Test: "G", Statistic: finite(g.G), Df: &df, PValue: g.P})
		}
	}
	return out, nil
}

// adjustedResolution bounds the standard error of a luck-adjusted mean from below, in pairs: the
// luck of each game is summed in units of sim.LuckUnit (2^-24 pairs), so nothing finer is
// resolved (and a matchup in which every choice is the reference play's has no other variance).
const adjustedResolution = 1e-7

// meanCheck is a two-sided z test of a sample mean against an exact value.
func meanCheck(name string, mo stats.Moments, want float64) Check {
	return zCheck(name, mo.Mean, mo.StdErr(), want)
}

// zCheck is a two-sided z test of an observed value with standard error se against an exact value.
func zCheck(name string, observed, se, want float64) Check {
	z, p := stats.ZTest(observed, se, want)
	return Check{Name: name, Test: "z", Observed: &observed, Expected: &want, Statistic: finite(z), PValue: p}
}

// finite replaces an infinite statistic by the largest float64 of its sign, for JSON.
func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.Copysign(math.MaxFloat64, x)
	}
	return x
}

// rateChecks compares seat 0's rates of wins and draws with their exact probabilities wdl, with
// the exact binomial standard errors (swap: seat 0 is given seat 1's, its losses for its wins).
func rateChecks(tally *sim.Tally, wdl exact.WDL[float64], swap bool) []Check {
	want := [2]float64{wdl.Win, wdl.Draw}
	if swap {
		want[0] = wdl.Loss
	}
	var out []Check
	for k, got := range [2]int64{tally.Wins[0], tally.Draws[0]} {
		rate := float64(got) / float64(tally.Games)
		se := math.Sqrt(want[k] * (1 - want[k]) / float64(tally.Games))
		out = append(out, zCheck([2]string{"/win rate seat 0", "/draw rate seat 0"}[k], rate, se, want[k]))
	}
	return out
}
