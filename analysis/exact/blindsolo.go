package exact

import (
	"context"
	"fmt"
	"math/big"

	"memsim/analysis/field"
	"memsim/sim/rules"
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
// cells[n][j] (cells[0][0] is the empty table, 0 turns). It is the solitaire of the blind-flips
// model (Model.Variant, docs/models.md §4.17): naive is the fixed policy daring, which names two
// unknown cards, and optimal the solitaire optimum; safe and known-first are both the move of a
// seen card and an unseen one.
func BlindSolitaire(ctx context.Context, p BlindPolicy, maxPairs int) ([][]BlindCell, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	pol := rules.PolicyDaring
	switch p {
	case BlindNaive:
	case BlindOptimal:
		pol = rules.PolicyOptimal
	default:
		return nil, fmt.Errorf("blind policy %d: must be naive or optimal", int(p))
	}
	m := Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}
	w, err := evaluateSweep[*big.Rat](field.Rat{}, m, Lineup{Players: 1, Policy: pol}, rules.State{N: maxPairs, J: maxPairs})
	if err != nil {
		return nil, err
	}
	cells := make([][]BlindCell, maxPairs+1)
	visit := func(st rules.State) error {
		if cells[st.N] == nil {
			cells[st.N] = make([]BlindCell, st.N+1)
		}
		c := BlindCell{N: st.N, J: st.J, Turns: w.at(st).solo[0], Choice: BlindSeenUnseen}
		if st.N == 0 || (pol == rules.PolicyDaring || w.soloChoice == rules.Daring) && st.N+st.J >= 2 {
			c.Choice = BlindUnseenPair
		}
		cells[st.N][st.J] = c
		return nil
	}
	if err := w.run(ctx, maxPairs, visit); err != nil {
		return nil, fmt.Errorf("blind solitaire: %w", err)
	}
	return cells, nil
}
