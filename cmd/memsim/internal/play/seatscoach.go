package play

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
)

// SeatsCoach is the coach of a game of three or more seats: at the start of each of the
// person's turns with no pair known whole, the value of each legal choice in the person's
// expected pairs, every seat for itself afterwards (review.SeatsNext: the values memsim review
// gives such a game), and what the person's last turn cost. It has no win scores.
type SeatsCoach struct {
	ctx   context.Context
	rules record.Rules
	// at is the number of moves of the last answer; next, last and err the answer.
	at         int
	next, last *review.SeatsDecision[*big.Rat]
	err        error
	// pending is the person's decision valued at the start of the turn, judged once played.
	pending *review.SeatsDecision[*big.Rat]
}

// NewSeatsCoach returns the coach of a game of three or more seats under rules r, or an error
// wrapping review.ErrNoSeatsValues when the review has no values for it (a rule variant).
func NewSeatsCoach(ctx context.Context, r record.Rules) (*SeatsCoach, error) {
	if _, err := review.SeatsModel(r); err != nil {
		return nil, err
	}
	return &SeatsCoach{ctx: ctx, rules: r, at: -1}, nil
}

// Values returns the decision the person faces in t, valued (nil when the turn begins with a
// pair known whole), and the person's last decision, judged (nil before the first). Within a
// turn next is the turn's decision, valued at its start, and last is nil.
func (c *SeatsCoach) Values(t *Table) (next, last *review.SeatsDecision[*big.Rat], err error) {
	if len(t.Moves) == c.at {
		return c.next, c.last, c.err
	}
	c.at = len(t.Moves)
	c.next, c.last, c.err = c.values(t)
	return c.next, c.last, c.err
}

func (c *SeatsCoach) values(t *Table) (next, last *review.SeatsDecision[*big.Rat], err error) {
	g, err := refereedGame(c.rules, t)
	if err != nil {
		return nil, nil, err
	}
	if n := len(g.Turns); n > 0 && g.Turns[n-1].End == record.EndUnfinished {
		return c.pending, nil, nil
	}
	if c.pending != nil {
		if d, err := review.SeatsJudge(field.Rat{}, g, *c.pending); err == nil {
			last = &d
		}
		c.pending = nil
	}
	if next, err = review.SeatsNext(c.ctx, field.Rat{}, g); err != nil {
		return nil, last, err
	}
	c.pending = next
	return next, last, nil
}

// Advise says what each choice open is worth at the start of the person's turn, and what the
// person's last turn cost; within a turn (its second card) it says nothing more.
func (c *SeatsCoach) Advise(s Situation) string {
	if s.Second {
		return ""
	}
	next, last, err := c.Values(s.Table)
	var lines []string
	if last != nil {
		lines = append(lines, SeatsLastLine(last))
	}
	switch {
	case err != nil:
		lines = append(lines, "the coach cannot judge this position: "+err.Error())
	case next == nil:
		lines = append(lines, "take the pair you know whole")
	default:
		lines = append(lines, SeatsOptionsLine(next))
	}
	return strings.Join(lines, "\n")
}

// SeatsOptionsLine says what each choice of decision d is worth: "this turn, your expected pairs
// from it on, every seat for itself afterwards: daring 1.3333 (best); safe 1.2000".
func SeatsOptionsLine(d *review.SeatsDecision[*big.Rat]) string {
	parts := make([]string, len(d.Options))
	for i, o := range d.Options {
		parts[i] = fmt.Sprintf("%s %s", o.Choice, dec(o.Pairs))
		if o.Pairs.Cmp(d.Options[d.Best].Pairs) == 0 {
			parts[i] += " (best)"
		}
	}
	head := "this turn"
	if d.Passes > 0 {
		head += fmt.Sprintf(" (%d in a row passed before you)", d.Passes)
	}
	return fmt.Sprintf("%s, your expected pairs from it on, every seat for itself afterwards: %s", head, strings.Join(parts, "; "))
}

// SeatsLastLine says what the turn of decision d (judged) was and what it cost: "your last turn
// (turn 4: daring) cost 0.5000 pairs; best: safe", or that it was the best.
func SeatsLastLine(d *review.SeatsDecision[*big.Rat]) string {
	if d.Chosen < 0 {
		return fmt.Sprintf("your last turn (turn %d) was outside the model's choices: not judged", d.Turn+1)
	}
	var made []string
	for _, m := range d.Made {
		for _, o := range d.Options {
			if o.Choice == m {
				made = append(made, m.String())
			}
		}
	}
	head := fmt.Sprintf("your last turn (turn %d: %s)", d.Turn+1, strings.Join(made, " or "))
	if d.Cost.Sign() == 0 {
		return head + " was the best"
	}
	var best []string
	for _, o := range d.Options {
		if o.Pairs.Cmp(d.Options[d.Best].Pairs) == 0 {
			best = append(best, o.Choice.String())
		}
	}
	return fmt.Sprintf("%s cost %s pairs; best: %s", head, dec(d.Cost), strings.Join(best, " or "))
}
