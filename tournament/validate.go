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
	// Test is "LR" (a seat's mean pairs against the exact value: a likelihood-ratio test), "z"
	// (a luck-adjusted mean or solitaire's mean turns against the exact value), "binomial" (a
	// rate of wins or draws against its exact probability) or "G" (a seat's share distribution
	// against the exact one: "/distribution" for seat 0 of two, "/distribution seat s" at three or
	// more seats; solitaire's distribution of the number of turns: "/distribution of turns").
	Test string `json:"test"`
	Pass bool   `json:"pass"`
	// Statistic is the signed root of the likelihood ratio for LR, z for z and binomial, and G
	// for a distribution (±math.MaxFloat64 stands for an infinite statistic, which JSON cannot
	// hold).
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
	return []string{"perfect", "singletons", "handover-uniform", "lru", "decay", "decay-pass", "unequal-lru", "solitaire", "multiplayer", "win", "copies", "blind", "turn-limit", "copies-limit", "copies-blind"}
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
			if !t.hasExact(m.Setup.Pairs, seats) {
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
		"or shared lru, handover-uniform or decay without singletons) or, two seats, private lru memories of different "+
		"capacities with a choice set without known-first, at most %d pairs (%d for the policies that play to win, "+
		"%d under decay forgetting)",
		named, exact.RationalLimit, exact.WinRationalLimit, exact.DecayRationalLimit)
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
// of seat 0 (of every seat with three or more players, or under a turn limit, where the seats'
// shares need not add up to the pairs dealt) by the likelihood-ratio test of a mean on
// [0, n] (stats.MeanLRTest), their luck-adjusted means and solitaire's mean number of turns by
// two-sided z tests whose variance has a floor (adjustedFloor, turnsCheck), for two players
// seat 0's rates of wins and draws by exact binomial tests and the whole distribution of seat 0's
// share by a G test, and for three or more seats, where the solver gives every seat's score
// distribution (hasSeatsDistribution), each seat's share
// distribution by a G test (seatsDistributionChecks), and for solitaire, where the solver gives
// it, the distribution of the number of turns by a G test (soloTurnsCheck). The p-values are Holm-corrected across the
// suite, which holds the family-wise error rate under any dependence among the checks (a seat's
// share and another's, its mean and its distribution).
func (s *Suite) Validate(ctx context.Context, o ValidateOptions) (*Validation, error) {
	return s.validate(ctx, o, controls{})
}

// controls are the negative controls that test the checks themselves: the same code paths with a
// wrong model, which the checks must reject.
type controls struct {
	// wrongExpectation gives seat 0 of every two-player matchup the exact expectation of seat 1
	// (its mean, and its share distribution reversed), and every seat s of a matchup of three or
	// more seats whose distributions are checked the distribution of seat s+1 (the last seat seat
	// 0's); the means at three or more seats keep their own expectation.
	wrongExpectation bool
	// biasedLuck, when not zero, moves the advantage of every daring choice in every luck table by
	// this many pairs in the mover's favour: luck terms whose expectation is wrong, which the checks
	// of the luck-adjusted means must reject (and the raw checks not notice).
	biasedLuck float64
	// twoPlayerOptimal takes the expectation of every matchup of three or more seats with a seat
	// playing optimal from the two-player optimum's choices (exact.Lineup.TwoPlayerOptimal) while
	// the engine plays every seat's own optimum.
	twoPlayerOptimal bool
	// spreadTurns checks solitaire's games against a distribution of the number of turns wider
	// than the exact one, with the same mean (soloTurnsCheck).
	spreadTurns bool
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
		checks, err := t.checks(ctx, res, c)
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
// variant names the family: "copies-blind" for copies under blind flips, with or without a turn
// limit, "copies-limit" for copies under a turn limit, "turn-limit", or "blind" for blind flips
// without a limit).
func family(model exact.Model, mu exact.Lineup) string {
	players := mu.Players
	switch {
	case model.Variant.CopiesOf() != rules.DefaultCopies && model.Variant.Flips == rules.FlipsBlind:
		return "copies-blind"
	case model.Variant.TurnLimit > 0 && model.Variant.CopiesOf() != rules.DefaultCopies:
		return "copies-limit"
	case model.Variant.TurnLimit > 0:
		return "turn-limit"
	case model.Variant.Flips == rules.FlipsBlind:
		return "blind"
	case model.Variant.CopiesOf() != rules.DefaultCopies:
		return "copies"
	case mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin() || mu.SelfWinMixed():
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
	case model.Memory.Forget == rules.ForgetDecay && model.Pass != rules.PassNever:
		return "decay-pass"
	case model.Memory.Forget == rules.ForgetDecay:
		return "decay"
	}
	return "perfect"
}

// minExpected is the least expected count of a bin of the G test; smaller bins are pooled.
const minExpected = 5

// checks compares the tallies of t's matches with the solver, seat order by seat order.
func (t *Tournament) checks(ctx context.Context, res *MatchResults, c controls) ([]Check, error) {
	var out []Check
	for mi, m := range t.Matches {
		n := m.Setup.Pairs
		for k, order := range m.Orders {
			seats := m.Seats(order)
			tally := res.Matches[mi].Orders[k]
			prefix := fmt.Sprintf("%s/n=%d/%s", t.Config.Name, n, strings.Join(t.Names(seats), " vs "))
			var cs []Check
			var fam string
			var err error
			if model, mu, ok := t.ExactModel(n, seats); ok {
				expect := mu
				expect.TwoPlayerOptimal = mu.TwoPlayerOptimal || (c.twoPlayerOptimal && mu.Players >= 3)
				largest := largestAdvantages(m.Setup, order, n)
				cs, err = exactChecks(ctx, model, expect, n, tally, largest, c)
				fam = family(model, mu)
			} else if u, ok := t.UnequalModel(n, seats); ok {
				cs, err = unequalChecks(ctx, u, n, tally, c.wrongExpectation)
				fam = "unequal-lru"
			} else {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", prefix, err)
			}
			for _, ch := range cs {
				ch.Name = prefix + ch.Name
				ch.Family = fam
				out = append(out, ch)
			}
		}
	}
	return out, nil
}

// exactChecks compares one seat order's tally with the exact values of its model; the checks'
// names are suffixes ("/mean pairs seat 0"). largest[s], when not nil, is the largest advantage
// for seat s of a choice the seats make (largestAdvantages).
func exactChecks(ctx context.Context, model exact.Model, mu exact.Lineup, n int, tally *sim.Tally, largest []float64, c controls) ([]Check, error) {
	swap := c.wrongExpectation
	st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
	val, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
	if err != nil {
		return nil, err
	}
	var out []Check
	switch {
	case mu.Players == 1:
		if model.Variant.TurnLimit > 0 {
			// The pairs taken within the limit, then the turns played, a game the limit stops
			// counted at the limit.
			out = append(out, pairsCheck("/mean pairs seat 0", tally, 0, val.ExpectedPairs))
		}
		mo := stats.MomentsFromSums(tally.Games, tally.TurnSum, tally.TurnSumSq)
		out = append(out, turnsCheck(mo, val.ExpectedTurns))
		g, ok, err := soloTurnsCheck(ctx, model, mu.Policy, st, tally, c.spreadTurns)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, g)
		}
	default:
		seatsTested := mu.Players
		if mu.Players == 2 && model.Variant.TurnLimit == 0 {
			seatsTested = 1 // seat 1's share is n minus seat 0's (not under a limit)
		}
		for s := range seatsTested {
			want := val.PairsBySeat[s]
			if swap && mu.Players == 2 {
				want = val.PairsBySeat[1-s]
			}
			out = append(out, pairsCheck(fmt.Sprintf("/mean pairs seat %d", s), tally, s, want))
			if tally.Luck != nil {
				// The luck-adjusted mean: the same expectation, a far narrower interval.
				var swing float64
				if largest != nil {
					swing = largest[s]
				}
				mo := seatMoments(tally, s, 0) // adjustedStdErr adds the swing's floor
				se := adjustedStdErr(mo, tally, s, want, swing)
				out = append(out, zCheck(fmt.Sprintf("/adjusted pairs seat %d", s), mo.Mean, se, want))
			}
		}
	}
	if mu.Players > 2 && (mu.Policy.PlaysToWin() || mu.SelfWinMixed()) {
		// Win-optimal at three or more seats, at every seat or beside other policies: every
		// seat's rates of wins and draws.
		sw, err := exact.EvaluateStandings(ctx, field.Float{}, model, mu, st, nil)
		if err != nil {
			return nil, err
		}
		for s := range mu.Players {
			out = append(out, seatRateChecks(tally, s, exact.WDL[float64]{Win: sw.Win[s], Draw: sw.Draw[s]})...)
		}
	}
	if hasSeatsDistribution(model, mu, n) {
		// Three or more seats where the solver gives every seat's distribution: a G test per seat.
		g, err := seatsDistributionChecks(ctx, model, mu, n, tally, swap)
		if err != nil {
			return nil, err
		}
		out = append(out, g...)
	}
	if mu.Players == 2 && exact.HasScoreDistribution(model, mu) {
		// (Some matchups have exact means but no exact distribution: exact.HasScoreDistribution.)
		d, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
		if err != nil {
			return nil, err
		}
		prob := d.Prob
		if swap {
			// Seat 1's distribution: seat 0's reversed, but under a turn limit, where the shares
			// need not add up to n, its own.
			prob = d.SeatProb(1)
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

// unequalChecks compares one seat order's tally with the exact value of an unequal game: seat 0's
// mean pairs, raw and luck-adjusted (the model gives no score distribution).
func unequalChecks(ctx context.Context, u exact.Unequal, n int, tally *sim.Tally, swap bool) ([]Check, error) {
	val, err := exact.EvaluateUnequal(ctx, field.Float{}, u, n)
	if err != nil {
		return nil, err
	}
	want := val.ExpectedPairs[0]
	if swap {
		want = val.ExpectedPairs[1]
	}
	out := []Check{pairsCheck("/mean pairs seat 0", tally, 0, want)}
	if tally.Luck != nil {
		mo := seatMoments(tally, 0, 0)
		se := adjustedStdErr(mo, tally, 0, want, 0)
		out = append(out, zCheck("/adjusted pairs seat 0", mo.Mean, se, want))
	}
	return out, nil
}

// adjustedResolution bounds the standard error of a luck-adjusted mean from below, in pairs: the
// luck of each game is summed in units of sim.LuckUnit (2^-24 pairs), so nothing finer is
// resolved (and a matchup in which every choice is the reference play's has no other variance).
const adjustedResolution = 1e-7

// pairsCheck tests seat s's mean pairs against the exact value by the likelihood-ratio test of a
// mean on [0, n] pairs (stats.MeanLRTest), from the histogram of its shares.
func pairsCheck(name string, tally *sim.Tally, s int, want float64) Check {
	counts := make([]float64, len(tally.Share[s]))
	values := make([]float64, len(counts))
	for k, c := range tally.Share[s] {
		counts[k], values[k] = float64(c), float64(k)/float64(tally.Seats)
	}
	observed := sharesMoments(tally, s).Mean
	r := stats.MeanLRTest(values, counts, 0, float64(tally.Pairs), want)
	return Check{Name: name, Test: "LR", Observed: &observed, Expected: &want, Statistic: finite(r.R), PValue: r.P}
}

// turnsCheck is the z test of solitaire's mean turns against the exact value. Its variance is the
// larger of the sample's about the exact mean (the score test's, which grows with the distance
// from it) and the least variance a whole number of turns with that mean can have, f·(1 − f) for
// the fractional part f of the mean (all on its two neighbouring integers): a sample of N games
// that shows one length alone, or nearly (a rare shorter game missing), cannot then claim less.
func turnsCheck(mo stats.Moments, want float64) Check {
	games := float64(mo.N)
	d := mo.Mean - want
	f := want - math.Floor(want)
	variance := max(mo.M2/games+d*d, f*(1-f))
	return zCheck("/mean turns", mo.Mean, math.Sqrt(variance/games), want)
}

// adjustedStdErr returns the standard error that the check of seat s's luck-adjusted mean mo
// (over the games of tally, exact mean want) rests on: the sample's, at least adjustedFloor's with
// the largest advantage swing of a choice the seats make for s, and at least adjustedResolution.
// A seat whose score took one value in every game has no adjusted estimate beyond its raw mean (the
// fitted coefficient of a constant on its luck is 0), and the raw mean of N games is taken to err
// by as much as a score in [0, n] with mean want can: sqrt(want·(n − want)/N).
func adjustedStdErr(mo stats.Moments, tally *sim.Tally, s int, want, swing float64) float64 {
	n := tally.Pairs
	se := max(mo.StdErr(), adjustedFloor(n, want, swing, tally.Games), adjustedResolution)
	if oneScore(tally.Share[s]) {
		se = max(se, math.Sqrt(spread(n, want)/float64(tally.Games)))
	}
	return se
}

// oneScore reports whether a histogram of scores has every game in one bin.
func oneScore(counts []int64) bool {
	bins := 0
	for _, c := range counts {
		if c > 0 {
			bins++
		}
	}
	return bins <= 1
}

// spread is want·(n − want), the most a score in [0, n] pairs whose mean is want can vary (the
// Bhatia–Davis inequality).
func spread(n int, want float64) float64 { return max(0, want*(float64(n)-want)) }

// adjustedFloor bounds the standard error of a luck-adjusted mean over N games from below, for a
// score in [0, n] pairs whose exact mean is want, when a choice the seats make can move the
// seat's adjusted score by as much as swing pairs (its advantage for the seat, docs/models.md
// §5.6): its variance per game is taken to be at least UnseenRate/N times the larger of
// want·(n − want), the most a score in [0, n] with that mean can vary, and swing². Few games can
// miss a rare event: a departure from the reference play that the luck does not explain, or a
// choice whose advantage carries the whole difference between the seat's mean and the reference
// value; one with a rate of up to about UnseenRate/N, seen in none of them, may move the adjusted
// score by as much as a score can vary, or by the choice's advantage, which an adjusted score,
// unlike a score, is not bounded by.
func adjustedFloor(n int, want, swing float64, games int64) float64 {
	g := float64(games)
	return math.Sqrt(stats.UnseenRate / g * max(spread(n, want), swing*swing) / g)
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

// seatRateChecks compares seat s's rates of wins (alone with the most pairs) and draws (tied for
// the most) with their exact probabilities wdl, with exact binomial tests.
func seatRateChecks(tally *sim.Tally, s int, wdl exact.WDL[float64]) []Check {
	var out []Check
	for k, got := range [2]int64{tally.Wins[s], tally.Draws[s]} {
		want := [2]float64{wdl.Win, wdl.Draw}[k]
		rate := float64(got) / float64(tally.Games)
		z, p := stats.BinomialTest(got, tally.Games, want)
		out = append(out, Check{Name: fmt.Sprintf("/%s rate seat %d", [2]string{"win", "draw"}[k], s), Test: "binomial",
			Observed: &rate, Expected: &want, Statistic: finite(z), PValue: p})
	}
	return out
}

// rateChecks compares seat 0's rates of wins and draws with their exact probabilities wdl, with
// exact binomial tests (swap: seat 0 is given seat 1's, its losses for its wins).
func rateChecks(tally *sim.Tally, wdl exact.WDL[float64], swap bool) []Check {
	want := [2]float64{wdl.Win, wdl.Draw}
	if swap {
		want[0] = wdl.Loss
	}
	var out []Check
	for k, got := range [2]int64{tally.Wins[0], tally.Draws[0]} {
		rate := float64(got) / float64(tally.Games)
		z, p := stats.BinomialTest(got, tally.Games, want[k])
		out = append(out, Check{Name: [2]string{"/win rate seat 0", "/draw rate seat 0"}[k], Test: "binomial",
			Observed: &rate, Expected: &want[k], Statistic: finite(z), PValue: p})
	}
	return out
}
