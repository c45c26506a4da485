package exact

import (
	"math/big"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// BlindDecayOutcomes returns the outcomes of a blind turn of the decay model m begun in st with
// choice c, with their exact probabilities.
func BlindDecayOutcomes(m Model, st rules.State, c rules.Choice) ([]Outcome, []*big.Rat, error) {
	h, err := newDecayHand[*big.Rat](field.Rat{}, m.Memory, st.N)
	if err != nil {
		return nil, nil, err
	}
	outs, probs := blindDecayOutcomes(h, st, c, nil, nil)
	return outs, probs, nil
}
