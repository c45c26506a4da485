package sim

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// CheckResult reports whether r can be what this match produced after playing its batches
// 0 .. r.NextBatch-1 (those of its shard): it checks every count a Result holds, as decoded from
// a checkpoint or a shard file, and names the first inconsistency. The tallies must have the
// match's shape (seat orders, seats, deal size); every count must be non-negative; each seat's
// share counts must add up to the games, its wins, draws and losses too; the fault counts, if
// any, may count at most one forfeit per game, and only for a player that forfeits; every order
// must have played r.Deals games, the deals of batches 0 .. NextBatch-1; a paired tally must have
// one count per deal, adding up to the first participant's scores in the two orders; and the
// convergence record must hold the points of the first NextBatch batches, in order, growing, and
// below the totals. Its Streams must be the match's own (Match.Streams): the Result of another match, even
// one of the same shape, is refused. A Result that passes is safe to resume from or to merge.
func (m *Match) CheckResult(r *Result) error {
	if r == nil {
		return errors.New("no result")
	}
	if !slices.Equal(r.Streams, m.Streams()) {
		return fmt.Errorf("the tallies of another match (random streams %v, this match's %v)", r.Streams, m.Streams())
	}
	batches := m.batches()
	switch {
	case len(r.Orders) != len(m.Orders):
		return fmt.Errorf("%d seat orders, the match has %d", len(r.Orders), len(m.Orders))
	case len(r.Convergence) != len(m.Orders):
		return fmt.Errorf("%d convergence records, the match has %d seat orders", len(r.Convergence), len(m.Orders))
	case r.NextBatch < 0 || r.NextBatch > batches:
		return fmt.Errorf("next batch %d: the match has %d batches", r.NextBatch, batches)
	case r.Deals != m.dealsIn(r.NextBatch):
		return fmt.Errorf("%d deals after %d batches: the match plays %d", r.Deals, r.NextBatch, m.dealsIn(r.NextBatch))
	case r.Stopped && r.NextBatch == batches:
		return errors.New("stopped after its last batch")
	case (r.Paired != nil) != m.paired():
		return errors.New("its pairing does not match the match's")
	}
	for k, t := range r.Orders {
		if err := m.checkTally(k, t, r.Deals); err != nil {
			return fmt.Errorf("seat order %d: %w", k, err)
		}
		if err := checkConvergence(r.Convergence[k], r.NextBatch, t.Seat0Sums()); err != nil {
			return fmt.Errorf("seat order %d: convergence: %w", k, err)
		}
	}
	if r.Paired != nil {
		if err := m.checkPaired(r); err != nil {
			return fmt.Errorf("paired tally: %w", err)
		}
	}
	return nil
}

// checkTally checks the tally of seat order k after deals games.
func (m *Match) checkTally(k int, t *Tally, deals int64) error {
	seats := len(m.Orders[k])
	bins := m.Setup.Pairs*seats + 1
	switch {
	case t == nil:
		return errors.New("no tally")
	case t.Seats != seats || t.Pairs != m.Setup.Pairs:
		return fmt.Errorf("%d seats and %d pairs, the match has %d and %d", t.Seats, t.Pairs, seats, m.Setup.Pairs)
	case t.Games != deals:
		return fmt.Errorf("%d games, the deals played are %d", t.Games, deals)
	case len(t.Share) != seats || len(t.Wins) != seats || len(t.Draws) != seats || len(t.Losses) != seats:
		return fmt.Errorf("%d share rows, %d wins, %d draws, %d losses for %d seats", len(t.Share), len(t.Wins), len(t.Draws), len(t.Losses), seats)
	}
	for i := range seats {
		if len(t.Share[i]) != bins {
			return fmt.Errorf("seat %d: %d share counts, want %d", i, len(t.Share[i]), bins)
		}
		sum, err := total(t.Share[i])
		if err != nil {
			return fmt.Errorf("seat %d: share counts: %w", i, err)
		}
		if sum != t.Games {
			return fmt.Errorf("seat %d: share counts add up to %d, the games are %d", i, sum, t.Games)
		}
		wdl, err := total([]int64{t.Wins[i], t.Draws[i], t.Losses[i]})
		if err != nil || wdl != t.Games {
			return fmt.Errorf("seat %d: wins %d + draws %d + losses %d is not the games %d", i, t.Wins[i], t.Draws[i], t.Losses[i], t.Games)
		}
	}
	if err := checkTurnCounts(t, seats, 2*m.Setup.Pairs+m.Setup.Singletons); err != nil {
		return err
	}
	forfeits, err := m.checkFaults(k, t)
	if err != nil {
		return err
	}
	turnsMax := int64(maxTurnsFor(2*m.Setup.Pairs + m.Setup.Singletons))
	switch {
	case t.TurnSum < t.Games-forfeits || t.TurnSum > t.Games*turnsMax:
		return fmt.Errorf("%d turns in %d games", t.TurnSum, t.Games)
	case t.TurnSumSq < t.TurnSum || float64(t.TurnSumSq) > float64(t.Games)*float64(turnsMax)*float64(turnsMax):
		return fmt.Errorf("a sum of squared turns of %d for %d turns in %d games", t.TurnSumSq, t.TurnSum, t.Games)
	case t.Stalemates < 0 || t.Stalemates > t.Games:
		return fmt.Errorf("%d stalemates in %d games", t.Stalemates, t.Games)
	case t.TurnLimited < 0 || t.TurnLimited+t.Stalemates > t.Games:
		return fmt.Errorf("%d games ended at the turn limit and %d in stalemates, of %d games", t.TurnLimited, t.Stalemates, t.Games)
	case t.Lucky < 0 || t.Lucky > t.TurnSum:
		return fmt.Errorf("%d lucky matches in %d turns", t.Lucky, t.TurnSum)
	case t.LuckySumSq < t.Lucky || (t.Games > 0 && float64(t.LuckySumSq) > float64(t.Lucky)*float64(t.Lucky)):
		return fmt.Errorf("a sum of squared lucky matches of %d for %d", t.LuckySumSq, t.Lucky)
	}
	return m.checkLuckSums(t.Luck, seats, t.Games, turnsMax, seats)
}

// checkFaults checks the fault counts of the tally of seat order k and returns the games they
// count as forfeited: none, or one count per seat, each non-negative, only for seats whose
// player forfeits (Player.Forfeit), and at most one forfeit per game. A game forfeited before
// its first turn has no turn, so the turns are at least the games less those.
func (m *Match) checkFaults(k int, t *Tally) (int64, error) {
	if t.Faults == nil {
		return 0, nil
	}
	seats := len(m.Orders[k])
	if len(t.Faults) != seats {
		return 0, fmt.Errorf("%d fault counts for %d seats", len(t.Faults), seats)
	}
	var forfeits int64
	for i, f := range t.Faults {
		n, err := total([]int64{f.Crash, f.Timeout, f.Illegal})
		if err != nil {
			return 0, fmt.Errorf("seat %d: fault counts: %w", i, err)
		}
		if p := m.Setup.Players[m.Orders[k][i]]; n > 0 && !p.Forfeit {
			return 0, fmt.Errorf("seat %d: %d games forfeited by player %q, which does not forfeit", i, n, p.Name)
		}
		if forfeits += n; forfeits > t.Games || forfeits < 0 {
			return 0, fmt.Errorf("%d games forfeited or more, in %d games", forfeits, t.Games)
		}
	}
	return forfeits, nil
}

// checkLuckSums checks the luck sums of games games (or deals, for a paired tally, whose scores
// are in half pairs): one per seat with a luck table and games played (none without a table),
// each within what games of at most turnsMax turns can give (a turn's luck is at most the pairs
// plus one), with a sum of squares that the sum allows (Cauchy-Schwarz).
func (m *Match) checkLuckSums(sums []LuckSums, seats int, games, turnsMax int64, shareUnits int) error {
	switch {
	case m.Setup.Luck == nil && sums != nil:
		return errors.New("luck sums without a luck table")
	case m.Setup.Luck == nil || (games == 0 && sums == nil):
		return nil
	case len(sums) != seats:
		return fmt.Errorf("%d luck sums for %d seats", len(sums), seats)
	}
	g := big.NewInt(games)
	perGame := new(big.Int).Mul(big.NewInt(turnsMax*int64(m.Setup.Pairs+1)), big.NewInt(1/LuckUnit))
	bound := new(big.Int).Mul(g, perGame)
	boundSq := new(big.Int).Mul(bound, perGame)
	boundShare := new(big.Int).Mul(bound, big.NewInt(int64(m.Setup.Pairs*shareUnits)))
	for i, l := range sums {
		sum, sq, share := l.Sum.Big(), l.SumSq.Big(), l.SumShare.Big()
		cs := new(big.Int).Mul(sum, sum)
		switch {
		case new(big.Int).Abs(sum).Cmp(bound) > 0 || sq.Sign() < 0 || sq.Cmp(boundSq) > 0 ||
			new(big.Int).Abs(share).Cmp(boundShare) > 0:
			return fmt.Errorf("seat %d: luck sums beyond what %d games can give", i, games)
		case cs.Cmp(new(big.Int).Mul(g, sq)) > 0:
			return fmt.Errorf("seat %d: a luck sum of squares below what the sum allows", i)
		}
	}
	return nil
}

// checkPairLeads checks the lead counts of a paired tally: present under a turn limit (limited)
// only, counting every deal, and adding up to want half pairs, the first player's lead over the
// second that the seat orders give.
func (m *Match) checkPairLeads(p *PairTally, limited bool, want int64) error {
	switch {
	case !limited && p.Lead != nil:
		return errors.New("lead counts without a turn limit")
	case !limited:
		return nil
	case len(p.Lead) != 8*m.Setup.Pairs+1:
		return fmt.Errorf("%d lead counts under a turn limit, not %d", len(p.Lead), 8*m.Setup.Pairs+1)
	}
	n, err := total(p.Lead)
	if err != nil {
		return fmt.Errorf("lead counts: %w", err)
	}
	if n != p.Deals {
		return fmt.Errorf("the lead counts count %d deals, not %d", n, p.Deals)
	}
	var got int64
	for k, c := range p.Lead {
		got += int64(k-4*m.Setup.Pairs) * c
	}
	if got != want {
		return fmt.Errorf("the lead counts total %d half pairs, the seat orders give the first player a lead of %d", got, want)
	}
	return nil
}

// total returns the sum of non-negative counts, or an error naming a negative count or an
// overflow.
func total(xs []int64) (int64, error) {
	var s int64
	for i, x := range xs {
		if x < 0 {
			return 0, fmt.Errorf("count %d is negative (%d)", i, x)
		}
		if s > math.MaxInt64-x {
			return 0, errors.New("the counts overflow")
		}
		s += x
	}
	return s, nil
}

// checkPaired checks the paired tally of a two-player match against its seat orders' tallies.
func (m *Match) checkPaired(r *Result) error {
	p := r.Paired
	switch {
	case p.Pairs != m.Setup.Pairs || len(p.Sum) != 4*m.Setup.Pairs+1:
		return fmt.Errorf("%d pairs and %d sums, the match has %d pairs", p.Pairs, len(p.Sum), m.Setup.Pairs)
	case p.Deals != r.Deals:
		return fmt.Errorf("%d deals, the seat orders %d", p.Deals, r.Deals)
	}
	n, err := total(p.Sum)
	if err != nil {
		return err
	}
	if n != p.Deals {
		return fmt.Errorf("the sums count %d deals, not %d", n, p.Deals)
	}
	// The first participant's scores, in units of 1/2 pair, over both orders, and under a turn
	// limit its lead over the second and its luck less the second's.
	limited := m.Setup.Variant.TurnLimit > 0
	var want, got, wantLead int64
	for k, o := range m.Orders {
		seat := slices.Index(o, 0) // an order is a permutation (Validate)
		for s, c := range r.Orders[k].Share[seat] {
			want += int64(s) * c
			wantLead += int64(s) * c
		}
		for s, c := range r.Orders[k].Share[1-seat] {
			wantLead -= int64(s) * c
		}
	}
	for s, c := range p.Sum {
		got += int64(s) * c
	}
	if got != want {
		return fmt.Errorf("the sums total %d half pairs, the seat orders give the first player %d", got, want)
	}
	if err := m.checkPairLeads(p, limited, wantLead); err != nil {
		return err
	}
	// The luck of the first participant (under a limit, less the second's), over both orders.
	var luck []LuckSums
	if p.Luck != nil {
		luck = []LuckSums{*p.Luck}
	}
	turnsMax, shareUnits := 2*int64(maxTurnsFor(2*m.Setup.Pairs+m.Setup.Singletons)), 2
	if limited {
		turnsMax, shareUnits = 2*turnsMax, 4
	}
	if err := m.checkLuckSums(luck, 1, p.Deals, turnsMax, shareUnits); err != nil {
		return err
	}
	if p.Luck != nil {
		var orders Int128
		for k, o := range m.Orders {
			seat := slices.Index(o, 0)
			if r.Orders[k].Luck == nil {
				return errors.New("a paired luck sum without the seat orders' luck sums")
			}
			orders = orders.Add(r.Orders[k].Luck[seat].Sum)
			if limited {
				orders = orders.Add(r.Orders[k].Luck[1-seat].Sum.Neg())
			}
		}
		if orders != p.Luck.Sum {
			return fmt.Errorf("the luck sums total %s, the seat orders give the first player %s", p.Luck.Sum, orders)
		}
	}
	return nil
}

// checkConvergence checks a convergence record of the first next batches against the totals.
func checkConvergence(points []Point, next int64, totals Point) error {
	if len(points) != convergencePoints(next) {
		return fmt.Errorf("%d points for %d batches, want %d", len(points), next, convergencePoints(next))
	}
	at := NextConvergencePoint(0)
	var prev Point
	for i, p := range points {
		switch {
		case p.Batch != at:
			return fmt.Errorf("point %d is at batch %d, want %d", i, p.Batch, at)
		case p.Games < prev.Games || p.Sum < prev.Sum || p.SumSq < prev.SumSq || p.Games > p.Batch*BatchSize:
			return fmt.Errorf("point %d (%d games) does not follow the one before", i, p.Games)
		case p.Games > totals.Games || p.Sum > totals.Sum || p.SumSq > totals.SumSq:
			return fmt.Errorf("point %d exceeds the totals", i)
		}
		if err := checkPointLuck(p.Luck, prev.Luck, totals.Luck, p.Games); err != nil {
			return fmt.Errorf("point %d: %w", i, err)
		}
		prev, at = p, NextConvergencePoint(at)
	}
	return nil
}

// checkPointLuck checks the luck sums of a convergence point of games games against the point
// before's and the totals': the sum of squares grows and stays within the totals' (so that a
// match without a luck table records none), and the sums obey Cauchy-Schwarz, Sum² <=
// Games·SumSq, as the sums of any games do.
func checkPointLuck(l, prev, totals LuckSums, games int64) error {
	sq, prevSq, totalSq := l.SumSq.Big(), prev.SumSq.Big(), totals.SumSq.Big()
	sum := l.Sum.Big()
	bound := new(big.Int).Mul(big.NewInt(games), sq)
	switch {
	case sq.Cmp(prevSq) < 0:
		return fmt.Errorf("its luck's sum of squares %v falls below the point before's", sq)
	case sq.Cmp(totalSq) > 0:
		return fmt.Errorf("its luck's sum of squares %v exceeds the totals' %v", sq, totalSq)
	case new(big.Int).Mul(sum, sum).Cmp(bound) > 0:
		return fmt.Errorf("its luck sum %v is not that of %d games whose squares sum to %v", sum, games, sq)
	case sq.Sign() == 0 && l.SumShare.Big().Sign() != 0:
		return fmt.Errorf("its luck sums are not those of any games")
	}
	return nil
}

// checkTurnCounts checks a tally's counts of games by their length (Tally.Turns): none for two or
// more seats; for solitaire none (a tally merged with one without them) or TurnBins of them,
// adding up to the games.
func checkTurnCounts(t *Tally, seats, cards int) error {
	switch {
	case t.Turns == nil:
		return nil
	case seats != 1:
		return fmt.Errorf("counts of games by their length for %d seats: only solitaire has them", seats)
	case len(t.Turns) != TurnBins(cards):
		return fmt.Errorf("%d counts of games by their length, want %d", len(t.Turns), TurnBins(cards))
	}
	sum, err := total(t.Turns)
	if err != nil {
		return fmt.Errorf("counts of games by their length: %w", err)
	}
	if sum != t.Games {
		return fmt.Errorf("counts of games by their length add up to %d, the games are %d", sum, t.Games)
	}
	return nil
}
