package tournament

import (
	"fmt"

	"memsim/analysis/report"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
)

// stopRule is a configuration's stopping rule applied to one match: it sees the tallies after
// every round of deals and says when the match may end. It decides from the tallies alone (the
// sequential test from all deals so far), so a resumed match decides as an uninterrupted one.
type stopRule struct {
	precision float64
	test      *configs.SPRT
	paired    bool
	decision  int // the SPRT's decision: -1 no lead, 0 undecided, +1 a lead of at least d
	llr       float64
	reason    string // why the match stopped early
	adjusted  bool   // the decisions are taken on luck-adjusted statistics
	// swings[k][s] is the largest advantage for seat s of seat order k of a choice the seats make,
	// and pairSwing the sum of the first participant's in both orders (largestAdvantages).
	swings    [][]float64
	pairSwing float64
}

// newStopRule returns the rule of stop for a match of n pairs, or nil when there is none.
func newStopRule(stop *configs.Stop, m *sim.Match) (*stopRule, error) {
	if stop == nil {
		return nil, nil
	}
	if stop.SPRT != nil {
		if _, err := stats.NewSPRT(stop.SPRT.D, stop.SPRT.Alpha, stop.SPRT.Beta); err != nil {
			return nil, err
		}
	}
	r := &stopRule{precision: stop.Precision, test: stop.SPRT, paired: len(m.Orders) == 2, pairSwing: pairingSwing(m)}
	for _, order := range m.Orders {
		r.swings = append(r.swings, largestAdvantages(m.Setup, order, m.Setup.Pairs))
	}
	return r, nil
}

// done reports whether the match may stop after the deals tallied in res. Where the games are
// luck-adjusted it decides on the adjusted statistics (docs/models.md §5.6), which reach the same
// certainty from far fewer games.
func (r *stopRule) done(res *sim.Result) bool {
	what := ""
	if r.adjusted = res.Orders[0].Luck != nil; r.adjusted {
		what = " (luck-adjusted)"
	}
	if r.test != nil && r.paired && res.Paired != nil {
		// Each deal's lead of the first player over the second, per game: a1 + a2 - n, where its
		// two scores add up to k/2 pairs.
		s, _ := stats.NewSPRT(r.test.D, r.test.Alpha, r.test.Beta)
		s.Add(dealLeads(res.Paired, r.pairSwing))
		if r.decision, r.llr = s.Decision(); r.decision != 0 {
			r.reason = "sprt" + what
			return true
		}
	}
	if r.precision > 0 {
		var ms []stats.Moments
		for k, t := range res.Orders {
			for i := range t.Seats {
				var swing float64
				if k < len(r.swings) && r.swings[k] != nil {
					swing = r.swings[k][i]
				}
				ms = append(ms, seatMoments(t, i, swing))
			}
		}
		if stats.PrecisionReached(ms, 0.95, r.precision) {
			r.reason = fmt.Sprintf("precision %g reached%s", r.precision, what)
			return true
		}
	}
	return false
}

// dealLeads returns the moments of each deal's lead of the first participant over the second, per
// game (twice its advantage, pairAdvantages), luck-adjusted where the games are; swing is the most
// one choice can move its advantage per game (pairingSwing).
func dealLeads(p *sim.PairTally, swing float64) stats.Moments {
	var m stats.Moments
	if s, offset, ok := pairLuckSums(p); ok {
		s.Swing = swing
		m = stats.FitLuck(s).Adjusted
		m.Mean += float64(offset) * s.XUnit
	} else {
		counts, offset, scale := pairAdvantages(p)
		m = stats.MomentsFromHistogram(counts, offset, scale)
	}
	m.Mean, m.M2 = 2*m.Mean, 4*m.M2
	return m
}

// seatMoments returns the moments of seat i's pairs per game, luck-adjusted where the games are;
// swing is the largest advantage for the seat of a choice the seats make (largestAdvantages).
func seatMoments(t *sim.Tally, i int, swing float64) stats.Moments {
	if s, ok := luckSums(t, i); ok {
		s.Swing = swing
		return stats.FitLuck(s).Adjusted
	}
	return sharesMoments(t, i)
}

// report describes the SPRT's outcome for a pairing, or nil without one.
func (r *stopRule) report(a, b string) *report.SPRT {
	if r == nil || r.test == nil || !r.paired {
		return nil
	}
	out := &report.SPRT{D: r.test.D, Alpha: r.test.Alpha, Beta: r.test.Beta, LLR: r.llr}
	on := "each deal's lead"
	if r.adjusted {
		on = "each deal's luck-adjusted lead"
	}
	if s, err := stats.NewSPRT(r.test.D, r.test.Alpha, r.test.Beta); err == nil {
		out.Lower, out.Upper = s.Thresholds()
	}
	switch r.decision {
	case 1:
		out.Decision = fmt.Sprintf("H1 accepted on %s: %s's mean lead over %s is %g pairs per game, not 0", on, a, b, r.test.D)
	case -1:
		out.Decision = fmt.Sprintf("H0 accepted on %s: %s's mean lead over %s is 0, not %g pairs per game", on, a, b, r.test.D)
	default:
		out.Decision = fmt.Sprintf("undecided on %s: the games ran out before the log-likelihood ratio reached a bound", on)
	}
	return out
}
