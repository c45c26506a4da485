package report

import "slices"

// Outside names what of the matchup has an exact value outside the 95% interval that judges it
// best: for a luck-adjusted matchup (LuckAdjusted not nil), its adjusted intervals
// (OutsideAdjustedCI) and, since the game length is not luck-adjusted, the raw interval of the
// turns ("turns", as OutsideCI names it); for any other matchup, its raw intervals (OutsideCI).
// It is nil where every exact value is inside.
func (m *Matchup) Outside() []string {
	if m.LuckAdjusted == nil {
		return m.OutsideCI()
	}
	out := m.OutsideAdjustedCI()
	if slices.Contains(m.OutsideCI(), "turns") {
		out = append(out, "turns")
	}
	return out
}
