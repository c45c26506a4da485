package answer

import (
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/field"
)

// Gerez is a state of Gerez's model solved (see exact.GerezCell): the state, its value in cards
// (those of the k on the table the mover collects with optimal play by both), the optimal tactics
// ("pass" among them where passing is optimal), and the value of every allowed tactic and of
// passing, in the order of exact.GerezTactics with passing last (with no card on the table, none).
type Gerez struct {
	State   GerezState    `json:"state"`
	Value   Number        `json:"value"`
	Best    []string      `json:"best"`
	Tactics []GerezTactic `json:"tactics"`
}

// GerezState is a state <k, B, P> of Gerez's model: k cards on the table, B of them known, P of
// the known ones with their partner known.
type GerezState struct {
	Cards  int `json:"cards"`
	Known  int `json:"known"`
	Paired int `json:"paired"`
}

// GerezTactic is a tactic, as Gerez writes it, or "pass", with its value in cards.
type GerezTactic struct {
	Tactic string `json:"tactic"`
	Value  Number `json:"value"`
}

// NewGerez returns the answer of a solved state of Gerez's model.
func NewGerez(c *exact.GerezCell) *Gerez {
	num := func(v *big.Rat) Number { return NumberOf[*big.Rat](field.Rat{}, v) }
	g := &Gerez{State: GerezState{Cards: c.State.K, Known: c.State.B, Paired: c.State.P}, Value: num(c.Value),
		Best: make([]string, 0, len(c.Best)+1)}
	for _, t := range c.Best {
		g.Best = append(g.Best, t.String())
	}
	if c.PassBest {
		g.Best = append(g.Best, "pass")
	}
	for i, t := range c.Tactics {
		g.Tactics = append(g.Tactics, GerezTactic{Tactic: t.String(), Value: num(c.Values[i])})
	}
	if c.PassValue != nil { // none with no card on the table
		g.Tactics = append(g.Tactics, GerezTactic{Tactic: "pass", Value: num(c.PassValue)})
	}
	return g
}
