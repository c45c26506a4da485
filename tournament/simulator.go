package tournament

import (
	"context"

	"memsim/analysis/stats"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// Simulator estimates by simulation the expectations that the audit of the published claims
// needs (it implements audit.Simulator): perfect-memory games of Games deals each, seeded with
// Seed, on Workers goroutines.
type Simulator struct {
	Games   int64
	Workers int
	Seed    uint64
}

// match plays Games deals of the players at n pairs in the given seat orders.
func (s *Simulator) match(ctx context.Context, n int, players []strategies.Spec, orders [][]int, stream uint64) (*sim.Result, error) {
	env := strategies.Env{MaxPairs: n, Players: len(orders[0])}
	m := sim.Match{Setup: sim.Setup{Pairs: n}, Orders: orders, Deals: s.Games, Seed: s.Seed, DealStream: stream, PlayStream: stream + 1}
	for _, p := range players {
		b, err := strategies.Build(ctx, p, env)
		if err != nil {
			return nil, err
		}
		m.Setup.Players = append(m.Setup.Players, b.Player)
	}
	return m.Play(ctx, s.Workers, nil)
}

// Solitaire returns the mean number of turns and of lucky matches of the optimal solitaire
// player on n pairs, with the half-widths of their 95% intervals.
func (s *Simulator) Solitaire(ctx context.Context, n int) (turns, turnsHW, lucky, luckyHW float64, err error) {
	res, err := s.match(ctx, n, []strategies.Spec{{Name: "optimal", Policy: "optimal"}}, [][]int{{0}}, 1<<40)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	t := res.Orders[0]
	tm, lm := stats.MomentsFromSums(t.Games, t.TurnSum, t.TurnSumSq), stats.MomentsFromSums(t.Games, t.Lucky, t.LuckySumSq)
	return tm.Mean, stats.HalfWidth(tm, 0.95), lm.Mean, stats.HalfWidth(lm, 0.95), nil
}

// Share returns the mean share of the pairs of the player that is optimal within the choice set
// choices, against opponent, on n pairs, over both seat orders of every deal, with the
// half-width of its 95% interval.
func (s *Simulator) Share(ctx context.Context, opponent string, n int, choices rules.ChoiceSet) (share, hw float64, err error) {
	players := []strategies.Spec{{Name: "optimal", Policy: "optimal", Choices: &choices}, {Name: opponent, Policy: opponent, Choices: &choices}}
	res, err := s.match(ctx, n, players, [][]int{{0, 1}, {1, 0}}, 2<<40)
	if err != nil {
		return 0, 0, err
	}
	// The optimal player's two scores on a deal add up to k/2 pairs: its share is k/(4n).
	mo := stats.MomentsFromHistogram(res.Paired.Sum, 0, 0.25/float64(n))
	return mo.Mean, stats.HalfWidth(mo, 0.95), nil
}
