package sim

import "math"

// Tally accumulates the results of the games of one seat order. Everything in it is an integer
// count, so tallies merge exactly and in any order: a run's totals do not depend on how its games
// were split among workers.
type Tally struct {
	_ [64]byte // keeps the counters below off other workers' cache lines
	// Seats and Pairs are the number of seats and the deal size.
	Seats, Pairs int
	// Games is the number of games tallied.
	Games int64
	// Share[i][k] counts the games in which seat i's score was k/Seats pairs (k = 0 .. Pairs·Seats):
	// its pairs plus an equal part of what a stalemate left on the table. For two players the
	// lead of seat 0 over seat 1 is (2k - Pairs·Seats)/Seats when seat 0's share is k.
	Share [][]int64
	// Wins[i], Draws[i] and Losses[i] count the games in which seat i's score was strictly the
	// highest, tied for the highest, or below the highest.
	Wins, Draws, Losses []int64
	// TurnSum and TurnSumSq are the sum of the games' lengths in turns and of their squares.
	TurnSum, TurnSumSq int64
	// Turns, for solitaire (one seat), counts the games by their length: Turns[t] the games of t
	// turns, the last bin those of len(Turns)-1 turns or more (TurnBins); nil for two or more
	// seats, and for a tally merged with one that had no such counts.
	Turns []int64 `json:",omitempty"`
	// Stalemates counts the games that ended because every seat passed in turn.
	Stalemates int64
	// TurnLimited counts the games that ended at the turn limit of the rules (Outcome.Limited).
	TurnLimited int64 `json:",omitempty"`
	// Lucky counts the turns whose two cards, neither of them remembered by the mover when it
	// flipped them, matched by chance (solitaire's "lucky matches"); LuckySumSq is the sum over
	// games of the square of each game's count.
	Lucky, LuckySumSq int64
	// Luck[i], for games with a luck table (Setup.Luck), sums seat i's luck over the games: its
	// score minus its luck-adjusted score (docs/models.md §5.6), in units of LuckUnit pairs; nil
	// without a luck table.
	Luck []LuckSums
	// Faults[i] counts the games seat i forfeited (Player.Forfeit), by the kind of fault; nil
	// while no seat has forfeited a game.
	Faults []FaultCounts `json:",omitempty"`
	_      [64]byte
}

// LuckUnit is the unit of the luck sums, in pairs: a game's luck is rounded to a multiple of it,
// so that sums are integers and merge exactly, in any order.
const LuckUnit = 1.0 / (1 << 24)

// LuckSums sums a seat's luck over games: Sum the luck (in LuckUnit), SumSq its square (in
// LuckUnit²) and SumShare the luck times the seat's score in Share's units (1/seats pairs).
type LuckSums struct {
	Sum, SumSq, SumShare Int128
}

// add tallies one game's luck l (in LuckUnit) and score share (in 1/seats pairs).
func (s *LuckSums) add(l int64, share int) {
	s.Sum = s.Sum.Add(int128Of(l))
	s.SumSq = s.SumSq.Add(mul128(l, l))
	s.SumShare = s.SumShare.Add(mul128(l, int64(share)))
}

// merge adds u to s.
func (s *LuckSums) merge(u LuckSums) {
	s.Sum = s.Sum.Add(u.Sum)
	s.SumSq = s.SumSq.Add(u.SumSq)
	s.SumShare = s.SumShare.Add(u.SumShare)
}

// luckUnits returns a seat's luck in a game, its score share/seats pairs minus its adjusted
// score, in LuckUnit.
func luckUnits(share, seats int, adjusted float64) int64 {
	return int64(math.Round((float64(share)/float64(seats) - adjusted) / LuckUnit))
}

// NewTally returns an empty tally for games of seats players on a deal of pairs pairs.
func NewTally(seats, pairs int) *Tally {
	// All counts live in one block, padded at both ends, so that the tallies of two workers never
	// share a cache line (false sharing would make two workers slower than one).
	const pad = 16
	bins := pairs*seats + 1
	block := make([]int64, pad+3*seats+seats*bins+pad)[pad:]
	take := func(k int) []int64 {
		s := block[:k:k]
		block = block[k:]
		return s
	}
	t := &Tally{Seats: seats, Pairs: pairs, Share: make([][]int64, seats),
		Wins: take(seats), Draws: take(seats), Losses: take(seats)}
	for i := range t.Share {
		t.Share[i] = take(bins)
	}
	return t
}

// TurnBins is the length of a solitaire tally's counts of games by their length (Tally.Turns) for
// a deal of cards cards: one bin for each number of turns below 8·cards, and one for that many or
// more. A player who never forgets clears the table in at most 3n + s turns (n pairs, s
// singletons); a memory that forgets can take any number, and the exact distribution gives the
// mass of the last bin as the probability of 8·cards turns or more.
func TurnBins(cards int) int { return 8*cards + 1 }

// countTurns gives a solitaire tally its counts of games by their length for a deal of cards
// cards (TurnBins), padded at both ends against false sharing.
func (t *Tally) countTurns(cards int) {
	const pad = 16
	bins := TurnBins(cards)
	t.Turns = make([]int64, pad+bins+pad)[pad : pad+bins : pad+bins]
}

// add tallies one game; luck, for games with a luck table, holds each seat's luck in it (in
// LuckUnit, as luckUnits gives it), nil otherwise.
func (t *Tally) add(o *Outcome, lucky int, luck []int64) {
	t.Games++
	best, ties := -1, 0
	for i, s := range o.Share {
		t.Share[i][s]++
		switch {
		case s > best:
			best, ties = s, 1
		case s == best:
			ties++
		}
	}
	for i, s := range o.Share {
		switch {
		case s < best:
			t.Losses[i]++
		case ties > 1:
			t.Draws[i]++
		default:
			t.Wins[i]++
		}
	}
	turns := int64(o.Turns)
	if t.Turns != nil {
		t.Turns[min(o.Turns, len(t.Turns)-1)]++
	}
	t.TurnSum += turns
	t.TurnSumSq += turns * turns
	if o.Stalemate {
		t.Stalemates++
	}
	if o.Limited {
		t.TurnLimited++
	}
	t.Lucky += int64(lucky)
	t.LuckySumSq += int64(lucky * lucky)
	if o.Fault != 0 {
		if t.Faults == nil {
			t.Faults = make([]FaultCounts, len(o.Share))
		}
		t.Faults[o.FaultSeat].add(o.Fault)
	}
	if luck != nil {
		if t.Luck == nil {
			t.Luck = make([]LuckSums, len(o.Share))
		}
		for i, s := range o.Share {
			t.Luck[i].add(luck[i], s)
		}
	}
}

// Merge adds the counts of u, a tally of the same shape, to t.
func (t *Tally) Merge(u *Tally) {
	t.Games += u.Games
	for i := range t.Share {
		for k, c := range u.Share[i] {
			t.Share[i][k] += c
		}
		t.Wins[i] += u.Wins[i]
		t.Draws[i] += u.Draws[i]
		t.Losses[i] += u.Losses[i]
	}
	switch {
	case u.Turns != nil && t.Turns != nil:
		for k, c := range u.Turns {
			t.Turns[k] += c
		}
	case u.Games > 0:
		t.Turns = nil // games without their lengths: the counts would no longer add up
	}
	t.TurnSum += u.TurnSum
	t.TurnSumSq += u.TurnSumSq
	t.Stalemates += u.Stalemates
	t.TurnLimited += u.TurnLimited
	t.Lucky += u.Lucky
	t.LuckySumSq += u.LuckySumSq
	if u.Luck != nil && t.Luck == nil {
		t.Luck = make([]LuckSums, len(u.Luck))
	}
	for i := range u.Luck {
		t.Luck[i].merge(u.Luck[i])
	}
	if u.Faults != nil && t.Faults == nil {
		t.Faults = make([]FaultCounts, len(u.Faults))
	}
	for i := range u.Faults {
		t.Faults[i].merge(u.Faults[i])
	}
}

// reset sets every count to zero.
func (t *Tally) reset() {
	t.Games = 0
	for i := range t.Share {
		clear(t.Share[i])
	}
	clear(t.Wins)
	clear(t.Draws)
	clear(t.Losses)
	clear(t.Turns)
	t.TurnSum, t.TurnSumSq, t.Stalemates, t.TurnLimited, t.Lucky, t.LuckySumSq = 0, 0, 0, 0, 0, 0
	clear(t.Luck)
	clear(t.Faults)
}

// PairTally accumulates the deal-by-deal results of two players who play every deal once in each
// seat order.
type PairTally struct {
	_     [64]byte
	Pairs int
	Deals int64
	// Sum[k] counts the deals on which the first player's scores in the two games added up to
	// k/2 pairs (k = 0 .. 4·Pairs).
	Sum []int64
	// Lead, under a turn limit (where the pairs left count for nobody, so that the first player's
	// scores do not give the second's), counts the deals on which the first player's scores minus
	// the second's in the two games came to k/2 - 2·Pairs pairs in Lead[k] (k = 0 .. 8·Pairs); nil
	// without a limit, where that lead is Sum's k - 2·Pairs.
	Lead []int64 `json:",omitempty"`
	// Luck, for games with a luck table, sums over the deals the first player's luck in the two
	// games together (SumShare with its two scores together, in half pairs); under a turn limit
	// (Lead not nil) the first player's luck minus the second's, its lead's luck (SumShare with
	// Lead's k). Nil without a luck table.
	Luck *LuckSums
	_    [64]byte
}

// NewPairTally returns an empty pair tally for a deal of pairs pairs; limited, for games under a
// turn limit, which tally the first player's lead (Lead).
func NewPairTally(pairs int, limited bool) *PairTally {
	const pad = 16
	t := &PairTally{Pairs: pairs, Sum: make([]int64, pad+4*pairs+1+pad)[pad : pad+4*pairs+1 : pad+4*pairs+1]}
	if limited {
		t.Lead = make([]int64, pad+8*pairs+1+pad)[pad : pad+8*pairs+1 : pad+8*pairs+1]
	}
	return t
}

// reset sets every count to zero.
func (t *PairTally) reset() {
	t.Deals = 0
	clear(t.Sum)
	clear(t.Lead)
	if t.Luck != nil {
		*t.Luck = LuckSums{}
	}
}

// Merge adds the counts of u to t.
func (t *PairTally) Merge(u *PairTally) {
	t.Deals += u.Deals
	for k, c := range u.Sum {
		t.Sum[k] += c
	}
	if u.Lead != nil && t.Lead == nil {
		t.Lead = make([]int64, len(u.Lead))
	}
	for k, c := range u.Lead {
		t.Lead[k] += c
	}
	if u.Luck != nil {
		if t.Luck == nil {
			t.Luck = new(LuckSums)
		}
		t.Luck.merge(*u.Luck)
	}
}
