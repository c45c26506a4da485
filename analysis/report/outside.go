package report

import (
	"fmt"
	"slices"
	"strings"
)

// The bases of a Verdict: the 95% intervals that judge a matchup's exact values.
const (
	// BasisAdjusted judges by the luck-adjusted intervals (Matchup.LuckAdjusted), where the
	// matchup has them: far narrower than the raw ones from the same games, so the sharper test.
	BasisAdjusted = "adjusted"
	// BasisRaw judges by the raw intervals (Matchup.CI95), where the matchup has no luck-adjusted
	// estimate.
	BasisRaw = "raw"
)

// Verdict is what memsim concludes from a matchup's exact values and its 95% intervals: which
// interval judges them (Basis) and what of the matchup lies outside it (Outside). Every output
// of a run that flags a matchup (results.json, matchups.csv, report.md, report.html and the
// summary of memsim run) flags it by its Verdict.
type Verdict struct {
	// Basis is BasisAdjusted for a matchup with a luck-adjusted estimate and BasisRaw otherwise.
	Basis string `json:"basis"`
	// Outside names what has an exact value outside its interval (Matchup.Outside): "seat i",
	// "lead" (seat 0's lead over seat 1, judged on the adjusted basis only) and "turns" (the game
	// length, which is not luck-adjusted and so is always judged on its raw interval). It is
	// empty where every exact value is inside, or where there is none.
	Outside []string `json:"outside"`
}

// Judge returns the matchup's verdict, from its exact values and intervals: the basis its
// luck-adjusted estimate gives it, and Outside. A matchup of fewer than two games has no interval
// to speak of (one game's is its own score, of width zero): nothing is outside it.
func (m *Matchup) Judge() Verdict {
	v := Verdict{Basis: BasisRaw}
	if m.Games >= 2 {
		v.Outside = m.Outside()
	}
	if m.LuckAdjusted != nil {
		v.Basis = BasisAdjusted
	}
	if v.Outside == nil {
		v.Outside = []string{} // written [], not null
	}
	return v
}

// Judge sets the Verdict of every matchup of r to what its values give (Matchup.Judge). A Run
// whose verdicts are not those does not Validate: call Judge after changing a matchup.
func (r *Run) Judge() {
	for i := range r.Matchups {
		r.Matchups[i].Verdict = r.Matchups[i].Judge()
	}
}

// Flagged reports whether the verdict finds an exact value outside its interval.
func (v Verdict) Flagged() bool { return len(v.Outside) > 0 }

// Flag says what the verdict finds, naming the interval: "outside adjusted CI (seat 0, lead)",
// "outside raw CI (seat 1)", with "; outside raw CI (turns)" for the game length of a matchup
// judged on the adjusted basis; "" where nothing is outside. Every flag starts with "outside ".
func (v Verdict) Flag() string {
	if !v.Flagged() {
		return ""
	}
	var own, rawTurns []string
	for _, o := range v.Outside {
		if o == "turns" && v.Basis == BasisAdjusted {
			rawTurns = append(rawTurns, o)
			continue
		}
		own = append(own, o)
	}
	var parts []string
	if len(own) > 0 {
		parts = append(parts, fmt.Sprintf("outside %s CI (%s)", v.Basis, strings.Join(own, ", ")))
	}
	if len(rawTurns) > 0 {
		parts = append(parts, fmt.Sprintf("outside %s CI (%s)", BasisRaw, strings.Join(rawTurns, ", ")))
	}
	return strings.Join(parts, "; ")
}

// isFlag reports whether a table cell is a flag of a verdict (Verdict.Flag), so that report.html
// can mark it.
func isFlag(cell string) bool {
	return strings.HasPrefix(cell, "outside "+BasisAdjusted+" CI") || strings.HasPrefix(cell, "outside "+BasisRaw+" CI")
}

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
