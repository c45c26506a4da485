package answer

import (
	"context"
	"fmt"
	"io"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TurnsDistribution is solitaire's distribution of the number of turns needed to clear the table
// (exact.SolitaireTurns): the probability of exactly t turns for every t from 0 to MaxTurns, and
// More, the probability of more than MaxTurns (1 minus the rest; 0 under a memory that never
// forgets once MaxTurns reaches 3n + s). Under a turn limit a game takes at most the limit's
// turns, and Stopped is the probability that the limit ends it with pairs still on the table
// (counted at the limit's number of turns).
type TurnsDistribution struct {
	MaxTurns int          `json:"max_turns"`
	Turns    []TurnsPoint `json:"turns"`
	More     Number       `json:"more"`
	Stopped  *Number      `json:"stopped_by_limit,omitempty"`
}

// TurnsPoint is one point of a TurnsDistribution.
type TurnsPoint struct {
	Turns       int    `json:"turns"`
	Probability Number `json:"probability"`
}

// solitaireTurns computes solitaire's distribution of the number of turns of lineup mu (one
// player) from st in model m, up to maxTurns turns (when 0, exact.DefaultMaxTurns, or the turn
// limit under one).
func solitaireTurns[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, maxTurns int) (*TurnsDistribution, error) {
	if mu.Table != nil || mu.PerSeat {
		return nil, fmt.Errorf("solitaire's distribution of the number of turns is computed for optimal and the fixed policies, not a table")
	}
	if maxTurns == 0 {
		maxTurns = exact.DefaultMaxTurns(st.N, st.S)
		if m.Variant.TurnLimit > 0 {
			maxTurns = m.Variant.TurnLimit
		}
	}
	d, err := exact.SolitaireTurns(ctx, f, m, mu.Policy, st, maxTurns)
	if err != nil {
		return nil, err
	}
	out := &TurnsDistribution{MaxTurns: d.MaxTurns, More: NumberOf(f, d.Tail)}
	if m.Variant.TurnLimit > 0 {
		stopped := NumberOf(f, d.Stopped)
		out.Stopped = &stopped
	}
	for t, p := range d.Prob {
		out.Turns = append(out.Turns, TurnsPoint{Turns: t, Probability: NumberOf(f, p)})
	}
	return out, nil
}

// solveTurns is Solve with solitaire's distribution of the number of turns up to maxTurns.
func solveTurns[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, maxTurns int) (*Result, error) {
	out, err := Solve(ctx, f, m, mu, st, false)
	if err != nil {
		return nil, err
	}
	out.TurnsDistribution, err = solitaireTurns(ctx, f, m, mu, st, maxTurns)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// TurnsCost returns the cost of solitaire's distribution of the number of turns up to maxTurns,
// from the cost sweep of the expected turns over the same states: every state holds a vector of
// maxTurns + 1 probabilities, each a term per outcome.
func TurnsCost(sweep exact.Cost, maxTurns int) exact.Cost {
	k := float64(maxTurns + 1)
	return exact.Cost{Ops: sweep.Ops * k, Bytes: sweep.Bytes * k}
}

// SolitaireCell is one count state of solitaire's strategy table (exact.SolitaireTable) as
// WriteSolitaireTable writes it: the choice of fewest expected turns (the first best in the order
// daring, safe, known-first), every such choice, the expected turns and lucky matches with optimal
// play, and every legal choice's expected turns (ChoiceScore.Value), optimal play afterwards.
type SolitaireCell struct {
	Pairs         int           `json:"pairs"`
	Unknown       int           `json:"unknown"`
	Unseen        *int          `json:"unseen_singletons,omitempty"`
	Choice        string        `json:"choice"`
	Best          []string      `json:"best"`
	ExpectedTurns Number        `json:"expected_turns"`
	ExpectedLucky Number        `json:"expected_lucky"`
	ChoiceTurns   []ChoiceScore `json:"choice_turns"`
}

// WriteSolitaireTable writes solitaire's optimal strategy table of model m for every state with
// 1 to maxPairs pairs (and unseen unseen singletons) to w as JSON, {"model": ..., "cells": [...]}.
func WriteSolitaireTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, maxPairs, unseen int) error {
	head := model(f, m, unseen)
	head.PairsMax, head.Players = maxPairs, 1
	head.Policy = rules.PolicyOptimal.String()
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	var cell SolitaireCell
	err := exact.SolitaireTable(ctx, f, m, maxPairs, func(c *exact.SolitaireCell[T]) error {
		st := c.State
		if st.F != unseen {
			return nil
		}
		cell = SolitaireCell{Pairs: st.N, Unknown: st.J, Unseen: unseenOf(st), Choice: c.Choice.String(),
			Best: choiceNames(cell.Best[:0], c.Best), ExpectedTurns: NumberOf(f, c.Turns), ExpectedLucky: NumberOf(f, c.Lucky),
			ChoiceTurns: choiceScores(f, cell.ChoiceTurns[:0], &c.Legal, &c.ChoiceTurns)}
		return cw.add(&cell)
	})
	if err != nil {
		return err
	}
	return cw.close()
}
