package tournament

import (
	"context"
	"fmt"
	"math"

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

// LRUWins plays optimal players with private lru memories of capacities caps[0] and caps[1] in
// Zwick & Paterson's game (pass rule two-known, choices daring, safe and pass) on n pairs, each
// reading the table of its own capacity, games deals in both seat orders, and returns the rate at which the
// player of capacity caps[0] wins (a strictly higher score) when it moves first and when it moves
// second, with the half-widths of their 95% intervals.
func (s *Simulator) LRUWins(ctx context.Context, n int, caps [2]int, games int64) (rate, hw [2]float64, err error) {
	choices := rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)
	lru, private := rules.ForgetLRU, rules.ScopePrivate
	env := strategies.Env{MaxPairs: n, Players: 2, Pass: rules.PassTwoKnown}
	orders := [][]int{{0, 1}, {1, 0}}
	m := sim.Match{Setup: sim.Setup{Pairs: n, Pass: rules.PassTwoKnown}, Orders: orders, Deals: games, Seed: s.Seed,
		DealStream: 3 << 40, PlayStream: 3<<40 + 1}
	for i, c := range caps {
		spec := strategies.Spec{Name: fmt.Sprintf("lru-%d-%d", c, i), Policy: "optimal", Choices: &choices,
			Memory: strategies.MemoryOverride{Capacity: &c, Forget: &lru, Scope: &private}}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			return rate, hw, err
		}
		m.Setup.Players = append(m.Setup.Players, b.Player)
	}
	res, err := m.Play(ctx, s.Workers, nil)
	if err != nil {
		return rate, hw, err
	}
	for k, seat := range []int{0, 1} {
		t := res.Orders[k]
		p := float64(t.Wins[seat]) / float64(t.Games)
		rate[k], hw[k] = p, 1.96*math.Sqrt(p*(1-p)/float64(t.Games))
	}
	return rate, hw, nil
}

// FluctuationGain plays, on n pairs, the optimum of a shared lru(m) memory against Zwick &
// Paterson's strategy (the perfect-memory optimum) in their game (pass rule two-known, choices
// daring, safe and pass), each player with a private lru memory of capacity m fluctuating by
// sigma (docs/models.md §2.2), games deals in both seat orders, and returns the first player's
// mean lead over the second, averaged over the seat orders, with the half-width of its 95%
// interval.
func (s *Simulator) FluctuationGain(ctx context.Context, n, m, sigma int, games int64) (gain, hw float64, err error) {
	choices := rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)
	lru, private := rules.ForgetLRU, rules.ScopePrivate
	env := strategies.Env{MaxPairs: n, Players: 2, Pass: rules.PassTwoKnown}
	mem := strategies.MemoryOverride{Capacity: &m, Forget: &lru, Scope: &private, Fluctuation: &sigma}
	bounded, err := strategies.Build(ctx, strategies.Spec{Name: "bounded", Policy: "optimal", Choices: &choices, Memory: mem}, env)
	if err != nil {
		return 0, 0, err
	}
	zwick, err := strategies.Build(ctx, strategies.Spec{Name: "zwick", Policy: "optimal", Choices: &choices}, env)
	if err != nil {
		return 0, 0, err
	}
	// Zwick's player reads the perfect-memory table with the same memory as the other.
	zwick.Player.Memory = bounded.Player.Memory
	orders := [][]int{{0, 1}, {1, 0}}
	match := sim.Match{Setup: sim.Setup{Pairs: n, Pass: rules.PassTwoKnown, Players: []sim.Player{bounded.Player, zwick.Player}},
		Orders: orders, Deals: games, Seed: s.Seed, DealStream: 4 << 40, PlayStream: 4<<40 + 1}
	res, err := match.Play(ctx, s.Workers, nil)
	if err != nil {
		return 0, 0, err
	}
	var variance float64
	for k, seat := range []int{0, 1} {
		mo := sharesMoments(res.Orders[k], seat)
		gain += (2*mo.Mean - float64(n)) / 2
		variance += mo.StdErr() * mo.StdErr() // the lead's: (2 se)^2 / 4
	}
	return gain, 1.96 * math.Sqrt(variance), nil
}
