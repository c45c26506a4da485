package exact

import (
	"math/big"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// DecaySinglesOutcomes returns the outcomes of a turn begun in st with choice c under the decay
// model with singletons (st.S of them, possibly none), with their exact probabilities.
func DecaySinglesOutcomes(m Model, st rules.State, c rules.Choice) ([]Outcome, []*big.Rat, error) {
	h, err := newDecayHand[*big.Rat](field.Rat{}, m.Memory, st.N+st.S)
	if err != nil {
		return nil, nil, err
	}
	outs, probs := decaySinglesOutcomes(h, st, c, nil, nil)
	return outs, probs, nil
}
