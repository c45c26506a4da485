package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"memsim/analysis/report"
	"memsim/configs"
)

// LoadRun reads the results.json of a run of t's configuration (as memsim run or memsim merge
// wrote it, from Report) and checks it before anything renders it:
//
//   - the file decodes strictly and is as report.WriteJSON writes it (report.ReadJSON; a file of
//     another schema version is refused as a *report.SchemaError);
//   - its seal holds (report.Verify): an error wrapping report.ErrUnsealed or report.ErrChanged
//     when it has none or its content was changed, and one wrapping
//     report.ErrOtherConfiguration, saying what differs where it can (CheckRunConfig), when it is
//     the run of another configuration;
//   - every value is within range (report.Run.Validate) and the run is what t's configuration
//     lays out (CheckRun).
//
// Every error is one line; a *report.FieldError names the field at fault. Nothing in data can
// make it panic. It is ReadRun followed by CheckRun.
func (t *Tournament) LoadRun(data []byte) (*report.Run, error) {
	r, err := ReadRun(t.Config, data)
	if err != nil {
		return nil, err
	}
	if err := t.CheckRun(r); err != nil {
		return nil, err
	}
	return r, nil
}

// ReadRun does what LoadRun does but CheckRun, which needs the tournament built: it needs the
// configuration cfg only, so that a changed or foreign file is refused before the players are.
func ReadRun(cfg *configs.Tournament, data []byte) (*report.Run, error) {
	r, err := report.ReadJSON(data)
	if err != nil {
		return nil, err
	}
	if err := report.Verify(r, ResultsConfigHash(cfg)); err != nil {
		if errors.Is(err, report.ErrOtherConfiguration) {
			if detail := CheckRunConfig(cfg, r); detail != nil {
				return nil, otherConfiguration{detail}
			}
		}
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// ResultsConfigHash is the configuration hash a run's results are sealed with (report.Seal): the
// ConfigHash of cfg with its output left out. Where a run is written does not change its results,
// so the same settings give the same results.json, byte for byte, in any folder; and a run
// folder whose config.yaml names another output (a folder moved, or a run written with --output)
// still reads.
func ResultsConfigHash(cfg *configs.Tournament) string {
	c := *cfg
	c.Output = ""
	return ConfigHash(&c)
}

// otherConfiguration is report.ErrOtherConfiguration, told by what differs.
type otherConfiguration struct{ detail error }

func (e otherConfiguration) Error() string        { return e.detail.Error() }
func (e otherConfiguration) Is(target error) bool { return target == report.ErrOtherConfiguration }

// CheckRun checks that r, a run that Validates, is what t's configuration lays out, as Report
// writes it: the configuration's name, seed, games, rules, pairing and format; its players as
// Report describes them (policies, memories, tables); exactly one matchup per seat order and deal
// size of t.Matches, in their order, each with its score counts, Wilson intervals, convergence
// (when it has games) and luck-adjusted estimate (where the match has a luck reference, and only
// then), stopped early only under a stopping rule, the two seat orders of a paired match with as
// many games as each other; one pairing per paired match with its deals and its sequential test
// (where the configuration has one); comparisons and ratings only where Report writes them,
// comparisons against the first player. The error is one line, a *report.FieldError where a field
// is at fault.
func (t *Tournament) CheckRun(r *report.Run) error {
	cfg := t.Config
	if err := CheckRunConfig(cfg, r); err != nil {
		return fmt.Errorf("not the run of the configuration: %w", err)
	}
	fail := func(field, format string, args ...any) error {
		return &report.FieldError{Field: field, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case r.Paired != cfg.Paired:
		return fail("paired", "%v, the configuration's %v", r.Paired, cfg.Paired)
	case r.Format != cfg.Format.String():
		return fail("format", "%q, the configuration's %q", r.Format, cfg.Format)
	}
	for i, p := range t.reportPlayers() {
		got := r.Players[i]
		got.Process = nil // what ran, not what the configuration says
		if got != p {
			return fail(fmt.Sprintf("players[%d]", i), "%s, the configuration's %s", describePlayer(r.Players[i]), describePlayer(p))
		}
	}
	k := 0 // the next matchup of r
	pairing := 0
	for mi := range t.Matches {
		m := &t.Matches[mi]
		for oi, order := range m.Orders {
			if k >= len(r.Matchups) {
				return fail("matchups", "%d matchups, the configuration lays out %d", len(r.Matchups), t.matchupCount())
			}
			if err := t.checkMatchup(fmt.Sprintf("matchups[%d]", k), &r.Matchups[k], m, order); err != nil {
				return err
			}
			if oi > 0 && m.pairedDeals() && r.Matchups[k].Games != r.Matchups[k-1].Games {
				return fail(fmt.Sprintf("matchups[%d].games", k), "%d, but the other seat order of its paired deals has %d",
					r.Matchups[k].Games, r.Matchups[k-1].Games)
			}
			k++
		}
		if m.pairedDeals() {
			if pairing >= len(r.Pairings) {
				return fail("pairings", "%d pairings, the configuration lays out more", len(r.Pairings))
			}
			if err := t.checkPairing(fmt.Sprintf("pairings[%d]", pairing), &r.Pairings[pairing], m, r.Matchups[k-1].Games); err != nil {
				return err
			}
			pairing++
		}
	}
	switch {
	case k != len(r.Matchups):
		return fail("matchups", "%d matchups, the configuration lays out %d", len(r.Matchups), k)
	case pairing != len(r.Pairings):
		return fail("pairings", "%d pairings, the configuration lays out %d", len(r.Pairings), pairing)
	case len(r.Comparisons) > 0 && (cfg.Rules.PlayersPerGame != 2 || len(cfg.Players) < 3):
		return fail("comparisons", "comparisons of a run that has none (two seats and three players or more)")
	case len(r.Ratings) > 0 && (cfg.Rules.PlayersPerGame != 2 || cfg.Format != configs.RoundRobin):
		return fail("ratings", "ratings of a run that has none (two-player round robins)")
	}
	first := cfg.Players[0].Name
	for i, c := range r.Comparisons {
		if c.Opponent != first || c.A == first || c.B == first || c.A == c.B {
			return fail(fmt.Sprintf("comparisons[%d]", i), "%s and %s against %s: two players other than the first, against the first, %s", c.A, c.B, c.Opponent, first)
		}
	}
	return nil
}

// pairedDeals reports whether the match plays each deal in both seat orders of two players.
func (m *Match) pairedDeals() bool {
	return len(m.Orders) == 2 && len(m.IDs) == 2
}

// matchupCount returns the number of matchups (seat orders and deal sizes) t lays out.
func (t *Tournament) matchupCount() int {
	n := 0
	for i := range t.Matches {
		n += len(t.Matches[i].Orders)
	}
	return n
}

// checkMatchup checks a matchup of a run against seat order order of match m.
func (t *Tournament) checkMatchup(base string, mu *report.Matchup, m *Match, order []int) error {
	fail := func(field, format string, args ...any) error {
		return &report.FieldError{Field: base + "." + field, Err: fmt.Errorf(format, args...)}
	}
	want := t.Names(m.Seats(order))
	seats := len(want)
	switch {
	case mu.Pairs != m.Setup.Pairs || !slices.Equal(mu.Players, want):
		return fail("players", "%s at %d pairs, where the configuration lays out %s at %d pairs",
			strings.Join(mu.Players, " vs "), mu.Pairs, strings.Join(want, " vs "), m.Setup.Pairs)
	case mu.StoppedEarly != "" && t.Config.Stop == nil:
		return fail("stopped_early", "%q, but the configuration has no stopping rule", mu.StoppedEarly)
	case len(mu.ShareCounts) != seats:
		return fail("share_counts", "%d entries for %d seats", len(mu.ShareCounts), seats)
	case len(mu.WinCI95) != seats || len(mu.DrawCI95) != seats || len(mu.LossCI95) != seats:
		return fail("win_ci95", "the win, draw and loss intervals have %d, %d and %d entries for %d seats",
			len(mu.WinCI95), len(mu.DrawCI95), len(mu.LossCI95), seats)
	case mu.Games > 0 && len(mu.Convergence) == 0:
		return fail("convergence", "no points for %d games", mu.Games)
	}
	wantLuck := m.LuckReference != "" && mu.Games > 0
	switch la := mu.LuckAdjusted; {
	case wantLuck && la == nil:
		return fail("luck_adjusted", "null, but the match's games are luck-adjusted")
	case !wantLuck && la != nil:
		return fail("luck_adjusted", "an estimate, but the match's games are not luck-adjusted")
	case la != nil && la.Reference != m.LuckReference:
		return fail("luck_adjusted.reference", "%q, the match's %q", la.Reference, m.LuckReference)
	}
	return nil
}

// checkPairing checks a pairing of a run against the paired match m, whose seat orders had games
// games each.
func (t *Tournament) checkPairing(base string, p *report.Pairing, m *Match, games int64) error {
	fail := func(field, format string, args ...any) error {
		return &report.FieldError{Field: base + "." + field, Err: fmt.Errorf(format, args...)}
	}
	want := [2]string{t.Config.Players[m.IDs[0]].Name, t.Config.Players[m.IDs[1]].Name}
	var test *configs.SPRT
	if t.Config.Stop != nil {
		test = t.Config.Stop.SPRT
	}
	switch {
	case p.Pairs != m.Setup.Pairs || p.Players != want:
		return fail("players", "%s and %s at %d pairs, where the configuration pairs %s and %s at %d pairs",
			p.Players[0], p.Players[1], p.Pairs, want[0], want[1], m.Setup.Pairs)
	case p.Deals != games:
		return fail("deals", "%d, but its seat orders have %d games each", p.Deals, games)
	case (p.SPRT != nil) != (test != nil):
		return fail("sprt", "present without the configuration's sequential test, or missing with it")
	case test != nil && (p.SPRT.D != test.D || p.SPRT.Alpha != test.Alpha || p.SPRT.Beta != test.Beta):
		return fail("sprt", "d %v, alpha %v and beta %v, the configuration's %v, %v and %v",
			p.SPRT.D, p.SPRT.Alpha, p.SPRT.Beta, test.D, test.Alpha, test.Beta)
	case (p.LuckAdjusted != nil) != (m.LuckReference != "" && p.Deals > 0):
		return fail("luck_adjusted", "present without luck-adjusted games, or missing with them")
	}
	return nil
}

// describePlayer describes a player of a report in messages.
func describePlayer(p report.Player) string {
	s := fmt.Sprintf("%q (%s", p.Name, p.Policy)
	if p.Opponent != "" {
		s += " against " + p.Opponent
	}
	s += ", memory " + p.Memory
	if p.Choices != "" {
		s += ", choices " + p.Choices
	}
	if p.Table != "" {
		s += ", " + p.Table
	}
	return s + ")"
}
