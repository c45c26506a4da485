package report

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// FieldError is a value of a Run that Validate refuses. Field is its path in results.json, such as
// "matchups[3].mean_pairs[0]", and Err says what is wrong with it.
type FieldError struct {
	Field string
	Err   error
}

// Error returns "FIELD: what is wrong", on one line.
func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns what is wrong with the field.
func (e *FieldError) Unwrap() error { return e.Err }

// Bounds that Validate derives from the rules of the game and the statistics of a run.
const (
	// MaxTurnsPerCard and MaxTurnsBase bound the length of a game of c cards (pairs times two,
	// plus singletons) to MaxTurnsPerCard·c + MaxTurnsBase turns: the engine ends a longer game
	// with an error.
	MaxTurnsPerCard = 1000
	MaxTurnsBase    = 10000
	// MaxIntervalSpan bounds how far either end of a 95% Student-t interval lies from its mean,
	// in multiples of the range the observations can take (0 to the pairs of a deal, say): the
	// widest such interval, of two observations at either end of the range, reaches 6.4 times
	// the range from its mean.
	MaxIntervalSpan = 7
	// MeanTolerance is how far, relative to the deal size (at least 1), a mean or a standard
	// deviation may lie from the value its score counts give: what float64 arithmetic in another
	// order can change, and nothing more.
	MeanTolerance = 1e-9
	// ProbabilityTolerance is how far the probabilities of an exact distribution may sum from 1.
	ProbabilityTolerance = 1e-6
)

// Validate checks that every value of r that the writers, tables and figures read is there, finite
// and within what the rules of the game allow, so that nothing downstream can fail or mislead on
// it. It returns the first value it refuses as a *FieldError naming its path in results.json, on
// one line. The checks:
//
//   - the rules: deal sizes positive and distinct, singletons not negative, at least one seat;
//     player names not empty and distinct;
//   - each matchup: a deal size among the rules', one player per seat (Rules.PlayersPerGame),
//     every player named in Players, games within [0, Run.Games] and equal to it unless the match
//     stopped early; every per-seat slice of one entry per seat (the Wilson intervals and the
//     score counts may be absent); means and standard deviations within [0, pairs]; every
//     interval ordered, holding its estimate, its ends within MaxIntervalSpan ranges of it; exact
//     values rationals within [0, pairs]; wins, draws and losses not negative and adding up to the
//     games per seat, with at most one outright winner per game; the mean game length within [1,
//     MaxTurnsPerCard·cards + MaxTurnsBase] turns; stalemates within [0, games]; Wilson
//     intervals within [0, 1] holding their rates;
//   - each matchup's score counts (share_counts): Pairs·seats + 1 counts per seat, none
//     negative, summing to the games, whose mean and standard deviation are the seat's (within
//     MeanTolerance), and, for two seats, whose counts above, at and below an even split are the
//     seat's wins, draws and losses;
//   - the exact distribution: 2·Pairs + 1 probabilities (two seats) within [0, 1], summing to 1
//     within ProbabilityTolerance; the convergence points: games strictly increasing within [1,
//     games], the last holding every game, means within [0, pairs];
//   - luck-adjusted estimates, pairings, comparisons and ratings: finite, intervals ordered and
//     holding their estimates, deal sizes among the rules' and players among Players; pairings
//     only in a paired run, with advantages within [-pairs/2, pairs/2] and deals within [0,
//     Run.Games]; differences of means within [-pairs, pairs]; p-values within [0, 1];
//   - each matchup's verdict: the one its exact values and intervals give (Matchup.Judge);
//   - fault counts: on_error only "forfeit", and only for a player process; a matchup's faults,
//     one entry per seat, none negative, forfeits the sum of the kinds, only for a seat whose
//     player forfeits, at most one per game in all.
//
// The writers call it first.
func (r *Run) Validate() error {
	if r == nil {
		return errors.New("report: nil run")
	}
	c := checker{run: r}
	c.rules()
	if c.err != nil {
		return c.err
	}
	for i := range r.Matchups {
		c.matchup(fmt.Sprintf("matchups[%d]", i), &r.Matchups[i])
	}
	for i := range r.Pairings {
		c.pairing(fmt.Sprintf("pairings[%d]", i), &r.Pairings[i])
	}
	for i := range r.Comparisons {
		c.comparison(fmt.Sprintf("comparisons[%d]", i), &r.Comparisons[i])
	}
	for i := range r.Ratings {
		c.ratings(fmt.Sprintf("ratings[%d]", i), &r.Ratings[i])
	}
	return c.err
}

// checker keeps the first value Validate refuses.
type checker struct {
	run      *Run
	known    map[string]bool // the players' names
	forfeits map[string]bool // the names of the players that forfeit
	err      error
}

// path names a field: base.name, followed by an index [i] for each of idx.
func path(base, name string, idx ...int) string {
	p := name
	if base != "" {
		p = base + "." + name
	}
	for _, i := range idx {
		p += "[" + strconv.Itoa(i) + "]"
	}
	return p
}

// fail records that the field is refused, unless a field was refused before.
func (c *checker) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
	}
}

// within checks that x is finite and within [lo, hi].
func (c *checker) within(field func() string, x, lo, hi float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		c.fail(field(), "%v is not a finite number", x)
		return false
	}
	if x < lo || x > hi {
		c.fail(field(), "%v is not within [%v, %v]", x, lo, hi)
		return false
	}
	return true
}

// finite checks that x is a finite number.
func (c *checker) finite(field func() string, x float64) bool {
	return c.within(field, x, -math.MaxFloat64, math.MaxFloat64)
}

// interval checks a 95% interval of an estimate mean: both ends finite, low <= mean <= high, and
// each end within span of the mean.
func (c *checker) interval(field func() string, ci [2]float64, mean, span float64) bool {
	if !c.finite(field, ci[0]) || !c.finite(field, ci[1]) {
		return false
	}
	switch {
	case ci[0] > ci[1]:
		c.fail(field(), "[%v, %v] has low > high", ci[0], ci[1])
		return false
	case ci[0] > mean || ci[1] < mean:
		c.fail(field(), "[%v, %v] does not hold its estimate %v", ci[0], ci[1], mean)
		return false
	case mean-ci[0] > span || ci[1]-mean > span:
		c.fail(field(), "[%v, %v] reaches further than %v from its estimate %v", ci[0], ci[1], span, mean)
		return false
	}
	return true
}

// length checks that a per-seat slice has one entry per seat (or none, where absent is allowed).
func (c *checker) length(field func() string, n, seats int, absent bool) bool {
	if n == seats || (absent && n == 0) {
		return true
	}
	c.fail(field(), "%d entries for %d seats", n, seats)
	return false
}

// exact checks an exact value: nil, or a rational "p/q" within [lo, hi].
func (c *checker) exact(field func() string, s *string, lo, hi float64) {
	if s == nil {
		return
	}
	x, err := parseExact(*s)
	if err != nil {
		c.fail(field(), "%v", err)
		return
	}
	if x.Cmp(new(big.Rat).SetFloat64(lo)) < 0 || x.Cmp(new(big.Rat).SetFloat64(hi)) > 0 {
		c.fail(field(), "exact value %s is not within [%v, %v]", *s, lo, hi)
	}
}

// name checks that a player name is one of the run's players.
func (c *checker) name(field func() string, name string) {
	if !c.known[name] {
		c.fail(field(), "%q is not one of the players", name)
	}
}

// pairs checks that a deal size is one of the rules'.
func (c *checker) pairs(field func() string, n int) bool {
	if !slices.Contains(c.run.Rules.Pairs, n) {
		c.fail(field(), "%d is not one of the deal sizes of rules.pairs", n)
		return false
	}
	return true
}

// at returns a function naming a field, for the checks above: the path is only built when a value
// is refused.
func at(base, name string, idx ...int) func() string {
	return func() string { return path(base, name, idx...) }
}

// rules checks the rules, the games and the players of the run.
func (c *checker) rules() {
	r := c.run
	if len(r.Rules.Pairs) == 0 {
		c.fail("rules.pairs", "no deal size")
	}
	for i, n := range r.Rules.Pairs {
		if n < 1 || slices.Index(r.Rules.Pairs, n) != i {
			c.fail(path("rules", "pairs", i), "%d is not a deal size (positive, each once)", n)
		}
	}
	if r.Rules.Singletons < 0 {
		c.fail("rules.singletons", "%d is negative", r.Rules.Singletons)
	}
	if r.Rules.PlayersPerGame < 1 {
		c.fail("rules.players_per_game", "%d: no seat at the table", r.Rules.PlayersPerGame)
	}
	if r.Games < 0 {
		c.fail("games", "%d is negative", r.Games)
	}
	c.known = make(map[string]bool, len(r.Players))
	for i, p := range r.Players {
		if p.Name == "" || c.known[p.Name] {
			c.fail(fmt.Sprintf("players[%d].name", i), "%q is empty or names two players", p.Name)
		}
		c.known[p.Name] = true
		switch {
		case p.OnError == OnErrorForfeit && p.Process != nil:
			if c.forfeits == nil {
				c.forfeits = map[string]bool{}
			}
			c.forfeits[p.Name] = true
		case p.OnError != "":
			c.fail(fmt.Sprintf("players[%d].on_error", i), "%q: only %q, for a player process", p.OnError, OnErrorForfeit)
		}
		if x := p.Process; x != nil {
			base := fmt.Sprintf("players[%d].process", i)
			if len(x.Command) == 0 || x.Command[0] == "" {
				c.fail(base+".command", "no program")
			}
			if x.Name == "" {
				c.fail(base+".name", "empty")
			}
			for k, f := range x.Files {
				if len(f.SHA256) != 64 || strings.Trim(f.SHA256, "0123456789abcdef") != "" {
					c.fail(fmt.Sprintf("%s.files[%d].sha256", base, k), "%q is not a SHA-256 in hexadecimal", f.SHA256)
				}
			}
		}
	}
}

// matchup checks the matchup m, at the path base.
func (c *checker) matchup(base string, m *Matchup) {
	r := c.run
	seats := len(m.Players)
	switch {
	case !c.pairs(at(base, "pairs"), m.Pairs):
		return
	case seats != r.Rules.PlayersPerGame:
		c.fail(path(base, "players"), "%d players for the %d seats of rules.players_per_game", seats, r.Rules.PlayersPerGame)
		return
	case m.Games < 0 || m.Games > int64(r.Games):
		c.fail(path(base, "games"), "%d is not within [0, %d] (games)", m.Games, r.Games)
		return
	case m.StoppedEarly == "" && m.Games != int64(r.Games):
		c.fail(path(base, "games"), "%d, not the run's %d, and the match did not stop early", m.Games, r.Games)
		return
	}
	for s, name := range m.Players {
		c.name(at(base, "players", s), name)
	}
	ok := c.length(at(base, "mean_pairs"), len(m.MeanPairs), seats, false) &&
		c.length(at(base, "sd_pairs"), len(m.StdDev), seats, false) &&
		c.length(at(base, "ci95"), len(m.CI95), seats, false) &&
		c.length(at(base, "exact_pairs"), len(m.ExactPairs), seats, false) &&
		c.length(at(base, "wins"), len(m.Wins), seats, false) &&
		c.length(at(base, "draws"), len(m.Draws), seats, false) &&
		c.length(at(base, "losses"), len(m.Losses), seats, false) &&
		c.length(at(base, "win_ci95"), len(m.WinCI95), seats, true) &&
		c.length(at(base, "draw_ci95"), len(m.DrawCI95), seats, true) &&
		c.length(at(base, "loss_ci95"), len(m.LossCI95), seats, true) &&
		c.length(at(base, "share_counts"), len(m.ShareCounts), seats, true)
	if !ok || c.err != nil {
		return
	}
	pairs := float64(m.Pairs)
	var winners int64
	for s := range seats {
		c.within(at(base, "mean_pairs", s), m.MeanPairs[s], 0, pairs)
		c.within(at(base, "sd_pairs", s), m.StdDev[s], 0, pairs)
		c.interval(at(base, "ci95", s), m.CI95[s], m.MeanPairs[s], MaxIntervalSpan*pairs)
		c.exact(at(base, "exact_pairs", s), m.ExactPairs[s], 0, pairs)
		if m.Wins[s] < 0 || m.Draws[s] < 0 || m.Losses[s] < 0 ||
			m.Wins[s] > m.Games || m.Draws[s] > m.Games-m.Wins[s] || m.Losses[s] != m.Games-m.Wins[s]-m.Draws[s] {
			c.fail(path(base, "wins", s), "seat %d: wins %d, draws %d and losses %d do not add up to games %d",
				s, m.Wins[s], m.Draws[s], m.Losses[s], m.Games)
			return
		}
		winners += m.Wins[s]
		if winners > m.Games {
			c.fail(path(base, "wins"), "more outright winners than games %d", m.Games)
			return
		}
		for _, w := range []struct {
			name string
			cis  [][2]float64
			k    int64
		}{{"win_ci95", m.WinCI95, m.Wins[s]}, {"draw_ci95", m.DrawCI95, m.Draws[s]}, {"loss_ci95", m.LossCI95, m.Losses[s]}} {
			if len(w.cis) > 0 {
				c.rate(at(base, w.name, s), w.cis[s], w.k, m.Games)
			}
		}
	}
	forfeits, ok := c.faults(base, m)
	if !ok {
		return
	}
	maxTurns := MaxTurnsPerCard*(2*pairs+float64(r.Rules.Singletons)) + MaxTurnsBase
	minTurns := 1.0
	if m.Games == 0 || forfeits > 0 {
		minTurns = 0 // a game forfeited before its first turn has none
	}
	if c.within(at(base, "mean_turns"), m.MeanTurns, minTurns, maxTurns) {
		c.interval(at(base, "ci95_turns"), m.CI95Turns, m.MeanTurns, MaxIntervalSpan*maxTurns)
	}
	c.exact(at(base, "exact_turns"), m.ExactTurns, 0, maxTurns)
	if m.TurnLimited < 0 || m.TurnLimited+m.Stalemates > m.Games {
		c.fail(path(base, "turn_limited"), "%d is not within [0, %d] (games less stalemates)", m.TurnLimited, m.Games-m.Stalemates)
	}
	if m.Stalemates < 0 || m.Stalemates > m.Games {
		c.fail(path(base, "stalemates"), "%d is not within [0, %d] (games)", m.Stalemates, m.Games)
	}
	if c.err != nil {
		return
	}
	c.shareCounts(base, m)
	c.distribution(base, m)
	c.convergence(base, m)
	if m.LuckAdjusted != nil {
		c.luck(path(base, "luck_adjusted"), m.LuckAdjusted, seats)
	}
	if c.err == nil {
		c.verdict(base, m)
	}
}

// faults checks a matchup's fault counts and returns the games they count as forfeited.
func (c *checker) faults(base string, m *Matchup) (int64, bool) {
	if m.Faults == nil {
		return 0, true
	}
	if !c.length(at(base, "faults"), len(m.Faults), len(m.Players), false) {
		return 0, false
	}
	var forfeits int64
	for s, f := range m.Faults {
		field := at(base, "faults", s)
		switch {
		case f.Crashes < 0 || f.Timeouts < 0 || f.Illegal < 0 || f.Crashes > m.Games || f.Timeouts > m.Games || f.Illegal > m.Games:
			c.fail(field(), "crashes %d, timeouts %d, illegal %d: not within [0, %d] (games)", f.Crashes, f.Timeouts, f.Illegal, m.Games)
		case f.Forfeits != f.Crashes+f.Timeouts+f.Illegal:
			c.fail(field(), "forfeits %d, not crashes %d + timeouts %d + illegal %d", f.Forfeits, f.Crashes, f.Timeouts, f.Illegal)
		case f.Forfeits > 0 && !c.forfeits[m.Players[s]]:
			c.fail(field(), "%d games forfeited by %q, which has no on_error: forfeit", f.Forfeits, m.Players[s])
		case f.Forfeits > m.Games-forfeits:
			c.fail(field(), "more games forfeited than games %d", m.Games)
		}
		if c.err != nil {
			return 0, false
		}
		forfeits += f.Forfeits
	}
	return forfeits, true
}

// verdict checks that a matchup's verdict is what its exact values and intervals give
// (Matchup.Judge).
func (c *checker) verdict(base string, m *Matchup) {
	want, got := m.Judge(), m.Verdict
	switch {
	case got.Basis != want.Basis && want.Basis == BasisAdjusted:
		c.fail(path(base, "verdict.basis"), "%q, not %q: the matchup has a luck-adjusted estimate, whose intervals judge its exact values",
			got.Basis, want.Basis)
	case got.Basis != want.Basis:
		c.fail(path(base, "verdict.basis"), "%q, not %q: the matchup has no luck-adjusted estimate, so its raw intervals judge its exact values",
			got.Basis, want.Basis)
	case !slices.Equal(got.Outside, want.Outside):
		c.fail(path(base, "verdict.outside"), "%q, but the exact values and the %s intervals give %q", got.Outside, want.Basis, want.Outside)
	}
}

// rate checks a Wilson interval of the rate k/n: within [0, 1], ordered and holding the rate.
func (c *checker) rate(field func() string, ci [2]float64, k, n int64) {
	if !c.within(field, ci[0], 0, 1) || !c.within(field, ci[1], 0, 1) {
		return
	}
	p := 0.0
	if n > 0 {
		p = float64(k) / float64(n)
	}
	if ci[0] > ci[1] || (n > 0 && (ci[0] > p+1e-12 || ci[1] < p-1e-12)) {
		c.fail(field(), "[%v, %v] is not an interval holding the rate %d/%d", ci[0], ci[1], k, n)
	}
}

// shareCounts checks a matchup's score counts against its games, means, standard deviations and,
// for two seats, its wins, draws and losses.
func (c *checker) shareCounts(base string, m *Matchup) {
	seats := len(m.Players)
	tol := MeanTolerance * max(1, float64(m.Pairs))
	for s, counts := range m.ShareCounts {
		field := at(base, "share_counts", s)
		if n := len(counts) - 1; n < 0 || n%seats != 0 || n/seats != m.Pairs {
			c.fail(field(), "%d counts, not pairs·seats + 1 = %d·%d + 1", len(counts), m.Pairs, seats)
			return
		}
		var games int64
		var sum float64
		for k, n := range counts {
			if n < 0 || n > m.Games-games {
				c.fail(path(base, "share_counts", s, k), "%d: the counts are negative or add up to more than games %d", n, m.Games)
				return
			}
			games += n
			sum += float64(k) * float64(n)
		}
		if games != m.Games {
			c.fail(field(), "the counts add up to %d games, not %d", games, m.Games)
			return
		}
		if games == 0 {
			continue
		}
		mean := sum / float64(games)
		var m2 float64
		for k, n := range counts {
			if n > 0 {
				d := float64(k) - mean
				m2 += float64(n) * d * d
			}
		}
		scale := 1 / float64(seats)
		mean *= scale
		sd := 0.0
		if games > 1 {
			sd = math.Sqrt(m2/float64(games-1)) * scale
		}
		if math.Abs(m.MeanPairs[s]-mean) > tol {
			c.fail(path(base, "mean_pairs", s), "%v, but its score counts give %v", m.MeanPairs[s], mean)
			return
		}
		if math.Abs(m.StdDev[s]-sd) > tol {
			c.fail(path(base, "sd_pairs", s), "%v, but its score counts give %v", m.StdDev[s], sd)
			return
		}
		if seats == 2 {
			c.outcomeCounts(base, s, m, counts)
		}
	}
}

// outcomeCounts checks seat s's wins, draws and losses against its score counts (two seats).
// When every game ends with the pairs shared, a seat wins with more than half of them (k > pairs,
// in half pairs), draws with half and loses with fewer. A game ended at the turn limit leaves
// pairs that count for nobody, so a seat with half of them or fewer may still win or draw: the
// counts then only bound the outcomes, a seat with more than half of the pairs winning.
func (c *checker) outcomeCounts(base string, s int, m *Matchup, counts []int64) {
	var wins, losses int64
	for k, n := range counts {
		switch {
		case k > m.Pairs:
			wins += n
		case k < m.Pairs:
			losses += n
		}
	}
	if m.TurnLimited > 0 {
		if m.Wins[s] < wins {
			c.fail(path(base, "wins", s), "wins %d, but its score counts give %d games with more than half of the pairs",
				m.Wins[s], wins)
		}
		return
	}
	if wins != m.Wins[s] || counts[m.Pairs] != m.Draws[s] || losses != m.Losses[s] {
		c.fail(path(base, "wins", s), "wins %d, draws %d and losses %d, but its score counts give %d, %d and %d",
			m.Wins[s], m.Draws[s], m.Losses[s], wins, counts[m.Pairs], losses)
	}
}

// distribution checks a matchup's exact distribution: 2·pairs + 1 probabilities (two seats)
// summing to 1.
func (c *checker) distribution(base string, m *Matchup) {
	d := m.ExactDistribution
	if len(d) == 0 {
		return
	}
	if n := len(d) - 1; len(m.Players) != 2 || n%2 != 0 || n/2 != m.Pairs {
		c.fail(path(base, "exact_distribution"), "%d probabilities, not 2·pairs + 1 = %d (two seats)", len(d), 2*m.Pairs+1)
		return
	}
	sum := 0.0
	for k, p := range d {
		if !c.within(at(base, "exact_distribution", k), p, 0, 1) {
			return
		}
		sum += p
	}
	if math.Abs(sum-1) > ProbabilityTolerance {
		c.fail(path(base, "exact_distribution"), "the probabilities sum to %v, not 1", sum)
	}
}

// convergence checks a matchup's convergence points.
func (c *checker) convergence(base string, m *Matchup) {
	pairs := float64(m.Pairs)
	var last int64
	for i, p := range m.Convergence {
		if p.Games <= last || p.Games > m.Games {
			c.fail(path(base, "convergence", i)+".games", "%d is not within [%d, %d] (after the point before, at most the games)", p.Games, last+1, m.Games)
			return
		}
		last = p.Games
		field := func() string { return path(base, "convergence", i) + ".mean" }
		if !c.within(field, p.Mean, 0, pairs) {
			return
		}
		field = func() string { return path(base, "convergence", i) + ".lo" }
		if !c.interval(field, [2]float64{p.Lo, p.Hi}, p.Mean, MaxIntervalSpan*pairs) {
			return
		}
		if !c.adjustedPoint(path(base, "convergence", i)+".adjusted", p.Adjusted, m, p.Games == m.Games) {
			return
		}
	}
	if len(m.Convergence) > 0 && last != m.Games {
		c.fail(path(base, "convergence", len(m.Convergence)-1)+".games", "%d, but the last point holds every game, %d", last, m.Games)
	}
}

// adjustedPoint checks the luck-adjusted running mean a of a convergence point of matchup m
// (the point of every game when last): there is one exactly when the matchup has a luck-adjusted
// estimate, and the last is that estimate.
func (c *checker) adjustedPoint(field string, a *RunningMean, m *Matchup, last bool) bool {
	la := m.LuckAdjusted
	switch {
	case a == nil && la == nil:
		return true
	case a == nil:
		c.fail(field, "null, but the matchup has a luck-adjusted estimate")
		return false
	case la == nil:
		c.fail(field, "a luck-adjusted mean in a matchup without a luck-adjusted estimate")
		return false
	}
	f := func() string { return field + ".mean" }
	if !c.finite(f, a.Mean) || !c.interval(func() string { return field + ".lo" }, [2]float64{a.Lo, a.Hi}, a.Mean, math.Inf(1)) {
		return false
	}
	if last && len(la.MeanPairs) > 0 && a.Mean != la.MeanPairs[0] {
		c.fail(f(), "%v, but the mean of every game is luck_adjusted.mean_pairs[0], %v", a.Mean, la.MeanPairs[0])
		return false
	}
	return true
}

// luck checks a luck-adjusted estimate of a matchup of the given seats. An adjusted score is a
// score less a fitted multiple of its luck, which need not stay within the deal: its values are
// checked to be finite, with intervals ordered and holding their estimates.
func (c *checker) luck(base string, la *LuckAdjusted, seats int) {
	if !c.length(at(base, "coefficient"), len(la.Coefficient), seats, false) ||
		!c.length(at(base, "mean_pairs"), len(la.MeanPairs), seats, false) ||
		!c.length(at(base, "ci95"), len(la.CI95), seats, false) {
		return
	}
	for s := range seats {
		c.finite(at(base, "coefficient", s), la.Coefficient[s])
		if c.finite(at(base, "mean_pairs", s), la.MeanPairs[s]) {
			c.interval(at(base, "ci95", s), la.CI95[s], la.MeanPairs[s], math.Inf(1))
		}
	}
	switch {
	case la.MeanLead != nil && seats != 2:
		c.fail(path(base, "mean_lead"), "a lead of seat 0 over seat 1 in a game of %d seats", seats)
	case (la.MeanLead == nil) != (la.CI95Lead == nil):
		c.fail(path(base, "ci95_lead"), "a lead without its interval, or an interval without its lead")
	case la.MeanLead != nil && c.finite(at(base, "mean_lead"), *la.MeanLead):
		c.interval(at(base, "ci95_lead"), *la.CI95Lead, *la.MeanLead, math.Inf(1))
	}
	if la.VarianceReduction != nil {
		c.within(at(base, "variance_reduction"), *la.VarianceReduction, 0, math.MaxFloat64)
	}
}

// pairing checks a pairing of a paired run.
func (c *checker) pairing(base string, p *Pairing) {
	r := c.run
	if !r.Paired {
		c.fail(base, "a pairing in a run that is not paired")
		return
	}
	if !c.pairs(at(base, "pairs"), p.Pairs) {
		return
	}
	c.name(at(base, "players", 0), p.Players[0])
	c.name(at(base, "players", 1), p.Players[1])
	if p.Players[0] == p.Players[1] {
		c.fail(path(base, "players"), "a player paired with itself")
	}
	if p.Deals < 0 || p.Deals > int64(r.Games) {
		c.fail(path(base, "deals"), "%d is not within [0, %d] (games)", p.Deals, r.Games)
	}
	half := float64(p.Pairs) / 2
	if c.within(at(base, "mean_advantage"), p.MeanAdvantage, -half, half) {
		c.interval(at(base, "ci95"), p.CI95, p.MeanAdvantage, MaxIntervalSpan*float64(p.Pairs))
	}
	if p.VarianceReduction != nil {
		c.within(at(base, "variance_reduction"), *p.VarianceReduction, 0, math.MaxFloat64)
	}
	if s := p.SPRT; s != nil {
		c.within(at(base, "sprt.d"), s.D, 0, math.MaxFloat64)
		c.within(at(base, "sprt.alpha"), s.Alpha, 0, 1)
		c.within(at(base, "sprt.beta"), s.Beta, 0, 1)
		c.finite(at(base, "sprt.llr"), s.LLR)
		if c.finite(at(base, "sprt.lower"), s.Lower) && c.finite(at(base, "sprt.upper"), s.Upper) && s.Lower > s.Upper {
			c.fail(path(base, "sprt.lower"), "%v is above the upper bound %v", s.Lower, s.Upper)
		}
		if s.Decision == "" {
			c.fail(path(base, "sprt.decision"), "empty")
		}
	}
	if l := p.LuckAdjusted; l != nil {
		c.finite(at(base, "luck_adjusted.coefficient"), l.Coefficient)
		if c.finite(at(base, "luck_adjusted.mean_advantage"), l.MeanAdvantage) {
			c.interval(at(base, "luck_adjusted.ci95"), l.CI95, l.MeanAdvantage, math.Inf(1))
		}
		if l.VarianceReduction != nil {
			c.within(at(base, "luck_adjusted.variance_reduction"), *l.VarianceReduction, 0, math.MaxFloat64)
		}
	}
}

// comparison checks a Welch comparison.
func (c *checker) comparison(base string, cmp *Comparison) {
	if !c.pairs(at(base, "pairs"), cmp.Pairs) {
		return
	}
	c.name(at(base, "opponent"), cmp.Opponent)
	c.name(at(base, "a"), cmp.A)
	c.name(at(base, "b"), cmp.B)
	n := float64(cmp.Pairs)
	c.within(at(base, "diff"), cmp.Diff, -n, n)
	c.finite(at(base, "t"), cmp.T)
	c.within(at(base, "df"), cmp.DF, 0, math.MaxFloat64)
	c.within(at(base, "p"), cmp.P, 0, 1)
}

// ratings checks the ratings of one deal size.
func (c *checker) ratings(base string, rs *Ratings) {
	if !c.pairs(at(base, "pairs"), rs.Pairs) {
		return
	}
	seen := map[string]bool{}
	for i, p := range rs.Players {
		c.name(func() string { return path(base, "players", i) + ".name" }, p.Name)
		if seen[p.Name] {
			c.fail(path(base, "players", i)+".name", "%q is rated twice", p.Name)
		}
		seen[p.Name] = true
		field := func() string { return path(base, "players", i) + ".score" }
		if c.finite(field, p.Score) {
			field = func() string { return path(base, "players", i) + ".lo" }
			c.interval(field, [2]float64{p.Lo, p.Hi}, p.Score, math.Inf(1))
		}
	}
}
