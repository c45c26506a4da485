package tournament

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"

	"memsim/analysis/exact"
	"memsim/analysis/report"
	"memsim/analysis/stats"
	"memsim/sim"
	"memsim/sim/rules"
)

// MaxLuckTableBytes bounds the memory of one luck table (a float64 value and an advantage per
// choice, for every state, pass flag and seat): deals whose table would be larger are played
// without a luck adjustment.
const MaxLuckTableBytes = 64 << 20

// luckTables builds and caches the luck tables of a tournament, one per model and number of seats,
// each covering its largest deal.
type luckTables struct {
	maxPairs int
	cache    map[luckKey]*rules.LuckTable
}

type luckKey struct {
	model   exact.Model
	players int
}

// get returns the luck table of model m for games of players seats.
func (c *luckTables) get(ctx context.Context, m exact.Model, players int) (*rules.LuckTable, error) {
	key := luckKey{m, players}
	if t, ok := c.cache[key]; ok {
		return t, nil
	}
	t, err := exact.LuckTable(ctx, m, players, c.maxPairs)
	if err != nil {
		return nil, err
	}
	c.cache[key] = t
	return t, nil
}

// luckSize returns the bytes of a luck table of maxPairs pairs, singletons singletons and players
// seats.
func luckSize(maxPairs, singletons, players int) float64 {
	slots := float64(maxPairs+1) * float64(maxPairs+1) * float64(singletons+1) * 2
	return slots * float64(players) * float64(1+rules.NumChoices) * 8
}

// setLuck gives the setup its luck tables (docs/models.md §5.6) and returns the reference they
// measure luck by, for reports ("" when the games are not luck-adjusted: solitaire, or deals too
// large for a table).
//
// When every seat follows a table and they all have one memory of a kind with an exact model (one
// shared memory, or private memories that hold the same cards: perfect or lru of one capacity),
// the model's own table adjusts the games turn by turn. When every seat follows a table with a
// private handover-uniform memory of one capacity, or a private decay memory of one capacity and
// q, each seat's turns are adjusted from that model. Any other game is adjusted card by card on the public record, with perfect-memory values.
// A game of a rule variant is adjusted from its variant's model or not at all (setVariantLuck).
func (c *luckTables) setLuck(ctx context.Context, s *sim.Setup) (string, error) {
	k := len(s.Players)
	if !s.Variant.Standard() {
		if k < 2 || variantLuckSize(s.Variant, c.maxPairs, s.Singletons, k) > MaxLuckTableBytes {
			return "", nil
		}
		return c.setVariantLuck(ctx, s)
	}
	if k < 2 || luckSize(c.maxPairs, s.Singletons, k) > MaxLuckTableBytes {
		return "", nil
	}
	mem, same := s.Players[0].Memory, true
	for _, p := range s.Players {
		q := p.Memory
		if p.Table == nil || q.Capacity != mem.Capacity || q.Forget != mem.Forget || q.Scope != mem.Scope || q.Decay != mem.Decay {
			same = false
		}
	}
	shared := mem
	shared.Scope = rules.ScopeShared
	model := exact.Model{Pass: s.Pass, Singletons: s.Singletons, Memory: shared}
	// A fluctuating capacity, and singletons under a handover-uniform memory, have exact values
	// but no luck table: their games are adjusted on the public record.
	exactKind := model.Validate() == nil && (k == 2 || s.Pass == rules.PassNever) && mem.Fluctuation == 0 && !exact.IsHUSingles(model)
	if same && exactKind && (mem.Perfect() || mem.Scope == rules.ScopeShared || mem.Forget == rules.ForgetLRU) {
		t, err := c.get(ctx, model, k)
		if err != nil {
			return "", err
		}
		// Private lru memories of one capacity hold the same cards as a shared one.
		s.Luck = t
		return "the matchup's own model: " + t.Reference(), nil
	}
	perfectPass := s.Pass
	if k > 2 {
		perfectPass = rules.PassNever // the only rule with an exact model beyond two seats
	}
	perfect, err := c.get(ctx, exact.Model{Pass: perfectPass, Singletons: s.Singletons}, k)
	if err != nil {
		return "", err
	}
	if same && exactKind && (mem.Forget == rules.ForgetHandoverUniform || mem.Forget == rules.ForgetDecay) {
		t, err := c.get(ctx, model, k)
		if err != nil {
			return "", err
		}
		s.Luck = perfect
		for i := range s.Players {
			s.Players[i].Luck = t
		}
		return fmt.Sprintf("each seat's own memory model (private memories forget independently): %s", t.Reference()), nil
	}
	s.Luck = perfect
	return "perfect-memory values on the public record of the cards seen: " + perfect.Reference(), nil
}

// luckSums returns seat i's score and luck sums in t, for a fit (ok false without luck sums).
func luckSums(t *sim.Tally, i int) (stats.LuckSums, bool) {
	if t.Luck == nil {
		return stats.LuckSums{}, false
	}
	x, xx := shareSums(t.Share[i])
	l := t.Luck[i]
	return stats.LuckSums{N: t.Games, X: x, XX: xx, L: l.Sum.Big(), LL: l.SumSq.Big(), XL: l.SumShare.Big(),
		XUnit: 1 / float64(t.Seats), LUnit: sim.LuckUnit}, true
}

// shareSums returns the sum and the sum of squares of the scores a histogram of counts holds
// (score k for counts[k]), exactly.
func shareSums(counts []int64) (sum, sumSq *big.Int) {
	sum, sumSq = new(big.Int), new(big.Int)
	var term big.Int
	for k, c := range counts {
		term.SetInt64(int64(k) * c)
		sum.Add(sum, &term)
		term.Mul(&term, big.NewInt(int64(k)))
		sumSq.Add(sumSq, &term)
	}
	return sum, sumSq
}

// luckAdjusted reports the luck-adjusted estimate of a seat order's tally, or nil without luck
// sums. Under a turn limit (limited) the two seats' pairs need not add up to the deal, so seat 0's
// adjusted lead is not reported: its interval would need the two seats' luck together, which the
// tally does not hold, and each seat is judged on its own.
// swing[s], when not nil, is the largest advantage for seat s of a choice the seats make
// (largestAdvantages), which raises the floor of the intervals (stats.FitLuck).
func luckAdjusted(reference string, t *sim.Tally, limited bool, swing []float64) *report.LuckAdjusted {
	if t.Luck == nil || t.Games == 0 {
		return nil
	}
	la := &report.LuckAdjusted{Reference: reference}
	var fit0 stats.LuckFit
	for i := range t.Seats {
		s, _ := luckSums(t, i)
		if swing != nil {
			s.Swing = swing[i]
		}
		fit := stats.FitLuck(s)
		if i == 0 {
			fit0 = fit
		}
		lo, hi := stats.StudentCI(fit.Adjusted, 0.95)
		la.Coefficient = append(la.Coefficient, fit.Coefficient)
		la.MeanPairs = append(la.MeanPairs, fit.Adjusted.Mean)
		la.CI95 = append(la.CI95, [2]float64{lo, hi})
	}
	if t.Seats == 2 && !limited {
		// Seat 1's score and luck are seat 0's mirrored, so the lead is 2·seat 0's - n.
		n := float64(t.Pairs)
		lead := 2*la.MeanPairs[0] - n
		ci := [2]float64{2*la.CI95[0][0] - n, 2*la.CI95[0][1] - n}
		la.MeanLead, la.CI95Lead = &lead, &ci
	}
	la.VarianceReduction = varianceReduction(fit0)
	return la
}

// varianceReduction is the fit's variance reduction for a report, nil where it is not a finite
// number (no residual variance, or no variance at all).
func varianceReduction(fit stats.LuckFit) *float64 {
	if vr := fit.VarianceRatio(); fit.Residual > 0 && !math.IsInf(vr, 0) && !math.IsNaN(vr) {
		return &vr
	}
	return nil
}

// pairAdvantages returns the histogram of a paired tally's deals by the first participant's
// advantage per game, which is (k + offset)·scale pairs for the count at k: half its two scores
// together minus an even split, (a1 + a2)/2 - n/2, or under a turn limit (where the second's
// scores are not n minus the first's) a quarter of its lead over the second in the two games,
// ((a1 - b1) + (a2 - b2))/4, which is the same without a limit.
func pairAdvantages(p *sim.PairTally) (counts []int64, offset int, scale float64) {
	if p.Lead != nil {
		return p.Lead, -4 * p.Pairs, 0.125
	}
	return p.Sum, -2 * p.Pairs, 0.25
}

// pairLuckSums returns the sums of each deal's advantage of the first participant (as
// pairAdvantages counts it, k·scale, without the offset) and its luck, for a fit (ok false without
// luck sums).
func pairLuckSums(p *sim.PairTally) (s stats.LuckSums, offset int, ok bool) {
	if p.Luck == nil {
		return stats.LuckSums{}, 0, false
	}
	counts, offset, scale := pairAdvantages(p)
	x, xx := shareSums(counts)
	// The luck of the advantage per game is that of the deal's two scores (or lead) divided as
	// the scores are.
	luckScale := 0.5
	if p.Lead != nil {
		luckScale = 0.25
	}
	return stats.LuckSums{N: p.Deals, X: x, XX: xx, L: p.Luck.Sum.Big(), LL: p.Luck.SumSq.Big(),
		XL: p.Luck.SumShare.Big(), XUnit: scale, LUnit: sim.LuckUnit * luckScale}, offset, true
}

// pairingLuck reports the luck-adjusted advantage of a pairing, or nil without luck sums. swing is
// the most one choice can move the first participant's advantage per game (pairingSwing).
func pairingLuck(p *sim.PairTally, swing float64) *report.PairingLuck {
	s, offset, ok := pairLuckSums(p)
	if !ok || p.Deals == 0 {
		return nil
	}
	s.Swing = swing
	fit := stats.FitLuck(s)
	lo, hi := stats.StudentCI(fit.Adjusted, 0.95)
	shift := float64(offset) * s.XUnit
	return &report.PairingLuck{Coefficient: fit.Coefficient, MeanAdvantage: fit.Adjusted.Mean + shift,
		CI95: [2]float64{lo + shift, hi + shift}, VarianceReduction: varianceReduction(fit)}
}

// largestAdvantages returns, for every seat of a seat order of the match whose setup is s, the
// largest magnitude of its advantage (docs/models.md §5.6), read from the match's luck table, of
// a choice some seat's table makes in a count state of at most n pairs (before a pass or after
// one); nil without a luck table. A table read otherwise than by the count state (the state of
// faces, the turns left) adds nothing.
func largestAdvantages(s sim.Setup, order []int, n int) []float64 {
	t := s.Luck
	if t == nil {
		return nil
	}
	p := len(order)
	out := make([]float64, p)
	for i, local := range order {
		ct := s.Players[local].Table
		if ct == nil {
			continue
		}
		for pairs := 1; pairs <= n; pairs++ {
			for j := 0; j <= pairs; j++ {
				for f := 0; f <= s.Singletons; f++ {
					for _, after := range [2]bool{false, true} {
						st := rules.State{N: pairs, J: j, S: s.Singletons, F: f}
						c, ok := ct.Lookup(st, after)
						if !ok {
							continue
						}
						for r := range p {
							if a, ok := t.Advantage(st, after, c, r); ok {
								seat := (i + r) % p
								out[seat] = max(out[seat], math.Abs(a))
							}
						}
					}
				}
			}
		}
	}
	return out
}

// pairingSwing returns the most one choice can move the first participant's adjusted advantage
// per game in a paired deal of m (pairAdvantages): half the sum of its largest advantages in the
// two seat orders, or under a turn limit a quarter of the sum of both participants' in both.
func pairingSwing(m *sim.Match) float64 {
	if len(m.Orders) != 2 {
		return 0
	}
	limited := m.Setup.Variant.TurnLimit > 0
	var sum float64
	for _, order := range m.Orders {
		a := largestAdvantages(m.Setup, order, m.Setup.Pairs)
		if a == nil {
			continue
		}
		first := slices.Index(order, 0)
		sum += a[first]
		if limited {
			sum += a[1-first]
		}
	}
	if limited {
		return sum / 4
	}
	return sum / 2
}
