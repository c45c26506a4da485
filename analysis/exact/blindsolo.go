package exact

import (
	"context"
	"fmt"
	"math/big"
)

// BlindChoice is a move of blind solitaire (docs/models.md §4.8, "Blind solitaire"): the player
// names two cards at once and turns them up together, so the second card cannot depend on the
// first.
type BlindChoice int

// The moves of blind solitaire besides taking a pair both of whose cards have been seen (which
// the player does as soon as it knows one; every such pair costs one turn, whenever it is taken).
const (
	// BlindUnseenPair names two cards never seen.
	BlindUnseenPair BlindChoice = iota
	// BlindSeenUnseen names a seen card whose partner has not been seen, and a card never seen.
	BlindSeenUnseen
)

// String names the move.
func (c BlindChoice) String() string {
	switch c {
	case BlindUnseenPair:
		return "two unseen"
	case BlindSeenUnseen:
		return "seen and unseen"
	}
	return fmt.Sprintf("BlindChoice(%d)", int(c))
}

// BlindPolicy is a strategy of blind solitaire.
type BlindPolicy int

// The strategies of blind solitaire.
const (
	// BlindNaive names two unseen cards whenever two remain (the naive strategy), otherwise the
	// last unseen card and a seen one.
	BlindNaive BlindPolicy = iota
	// BlindOptimal makes the move with the fewest expected turns, two unseen cards on a tie.
	BlindOptimal
)

// BlindCell is one state (n, j) of blind solitaire at the start of a turn, with no pair known
// whole: n pairs on the table, j of them unseen, n - j with one card seen.
type BlindCell struct {
	N, J int
	// Turns is the expected number of turns to clear the table, the policy's move now and
	// afterwards; Choice is that move.
	Turns  *big.Rat
	Choice BlindChoice
}

// BlindSolitaire computes the expected number of turns of blind solitaire with perfect memory
// under policy p from every state (n, j) with 1 <= n <= maxPairs, exactly, and returns them as
// cells[n][j] (cells[0][0] is the empty table, 0 turns).
func BlindSolitaire(ctx context.Context, p BlindPolicy, maxPairs int) ([][]BlindCell, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if p != BlindNaive && p != BlindOptimal {
		return nil, fmt.Errorf("blind policy %d: must be naive or optimal", int(p))
	}
	cells := make([][]BlindCell, maxPairs+1)
	cells[0] = []BlindCell{{Turns: new(big.Rat)}}
	for n := 1; n <= maxPairs; n++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("blind solitaire stopped at %d pairs: %w", n, err)
		}
		cells[n] = make([]BlindCell, n+1)
		for j := 0; j <= n; j++ {
			turns := func(n, j int) *big.Rat { return cells[n][j].Turns }
			c := BlindCell{N: n, J: j}
			if n+j >= 2 {
				c.Turns, c.Choice = blindUnseenPair(n, j, turns), BlindUnseenPair
			}
			if h := n - j; h >= 1 && (c.Turns == nil || p == BlindOptimal) {
				if v := blindSeenUnseen(n, j, turns); c.Turns == nil || v.Cmp(c.Turns) < 0 {
					c.Turns, c.Choice = v, BlindSeenUnseen
				}
			}
			cells[n][j] = c
		}
	}
	return cells, nil
}

// blindUnseenPair is the expected number of turns of naming two unseen cards in (n, j), u = n + j
// >= 2, then the values turns(n', j') of the states reached. The pair of unseen cards is uniform
// among the C = u(u-1)/2 pairs; with h = n - j half-seen pairs:
//
//	j/C          a pair of one unseen pair: taken                       1 + T(n-1, j-1)
//	h(h-1)/2/C   the partners of two seen cards: two pairs known whole  3 + T(n-2, j)
//	2hj/C        one seen card's partner and a card of an unseen pair   2 + T(n-1, j-1)
//	2j(j-1)/C    cards of two unseen pairs                              1 + T(n, j-2)
func blindUnseenPair(n, j int, turns func(n, j int) *big.Rat) *big.Rat {
	h, u := n-j, n+j
	c := int64(u * (u - 1) / 2)
	sum := new(big.Rat)
	add := func(weight int, cost int64, next func() *big.Rat) {
		if weight == 0 {
			return
		}
		t := new(big.Rat).Add(big.NewRat(cost, 1), next())
		sum.Add(sum, t.Mul(t, big.NewRat(int64(weight), c)))
	}
	add(j, 1, func() *big.Rat { return turns(n-1, j-1) })
	add(h*(h-1)/2, 3, func() *big.Rat { return turns(n-2, j) })
	add(2*h*j, 2, func() *big.Rat { return turns(n-1, j-1) })
	add(2*j*(j-1), 1, func() *big.Rat { return turns(n, j-2) })
	return sum
}

// blindSeenUnseen is the expected number of turns of naming a seen card and an unseen one in
// (n, j), h = n - j >= 1. The unseen card is uniform among the u = n + j unseen cards:
//
//	1/u        the seen card's partner: taken                  1 + T(n-1, j)
//	(h-1)/u    another seen card's partner: that pair known     2 + T(n-1, j)
//	2j/u       a card of an unseen pair                         1 + T(n, j-1)
func blindSeenUnseen(n, j int, turns func(n, j int) *big.Rat) *big.Rat {
	h, u := n-j, int64(n+j)
	sum := new(big.Rat)
	add := func(weight int, cost int64, next func() *big.Rat) {
		if weight == 0 {
			return
		}
		t := new(big.Rat).Add(big.NewRat(cost, 1), next())
		sum.Add(sum, t.Mul(t, big.NewRat(int64(weight), u)))
	}
	add(1, 1, func() *big.Rat { return turns(n-1, j) })
	add(h-1, 2, func() *big.Rat { return turns(n-1, j) })
	add(2*j, 1, func() *big.Rat { return turns(n, j-1) })
	return sum
}
