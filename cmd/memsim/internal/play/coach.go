package play

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// ExactCoach advises a person with the exact values of a review (analysis/review): before each
// of the person's moves, the value of every move open, in expected pairs and in win score, the
// best marked; and what the person's last move cost. It judges with perfect memory, in the game's
// rules and choice set, for two seats.
type ExactCoach struct {
	ctx    context.Context
	values *review.Values[*big.Rat]
	rules  record.Rules
}

// NewExactCoach solves the values of a two-seat game under rules r (every state up to its pairs,
// with the win scores at every lead) and returns a coach that reads them.
func NewExactCoach(ctx context.Context, r record.Rules) (*ExactCoach, error) {
	if r.Seats != 2 {
		return nil, fmt.Errorf("the coach judges two-seat games (this one has %d seats)", r.Seats)
	}
	g := &record.Game{Rules: r}
	v, err := review.NewValues(ctx, field.Rat{}, review.Model(g), r.Pairs, true)
	if err != nil {
		return nil, err
	}
	return &ExactCoach{ctx: ctx, values: v, rules: r}, nil
}

// Game returns the game so far as a record, refereed.
func (c *ExactCoach) Game(t *Table) (*record.Game, error) { return refereedGame(c.rules, t) }

// refereedGame returns the moves of t under rules r as a record, refereed: every coach judges
// the game from it.
func refereedGame(r record.Rules, t *Table) (*record.Game, error) {
	g := &record.Game{Rules: r, Moves: slices.Clone(t.Moves)}
	for i := range g.Moves {
		g.Moves[i].Seat = -1
	}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("the coach's record of the game: %w", err)
	}
	return g, nil
}

// Next returns the decision the person faces in s, valued.
func (c *ExactCoach) Next(s Situation) (*review.Decision[*big.Rat], *review.Review[*big.Rat], error) {
	g, err := c.Game(s.Table)
	if err != nil {
		return nil, nil, err
	}
	d, err := review.Next(c.ctx, c.values, g)
	if err != nil {
		return nil, nil, err
	}
	r, err := review.Game(c.ctx, c.values, g)
	if err != nil {
		return nil, nil, err
	}
	return d, r, nil
}

// Advise says what each move open is worth and what the person's last move cost.
func (c *ExactCoach) Advise(s Situation) string {
	d, r, err := c.Next(s)
	if err != nil {
		return "the coach cannot judge this position: " + err.Error()
	}
	var lines []string
	if last := lastOf(r, s.Seat); last != nil {
		lines = append(lines, LastMoveLine(last))
	}
	lines = append(lines, OptionsLine(d))
	return strings.Join(lines, "\n")
}

// lastOf returns the last decision of seat in review r, or nil.
func lastOf(r *review.Review[*big.Rat], seat int) *review.Decision[*big.Rat] {
	for i := len(r.Decisions) - 1; i >= 0; i-- {
		if r.Decisions[i].Seat == seat {
			return &r.Decisions[i]
		}
	}
	return nil
}

// OptionsLine says what each option of decision d is worth: "a new card 2.9500 pairs, win 0.5210
// (best); a half-known card 2.4000 pairs, win 0.4100".
func OptionsLine(d *review.Decision[*big.Rat]) string {
	var parts []string
	for _, o := range d.Options {
		p := fmt.Sprintf("%s %s pairs, win %s", o.Move, dec(o.Pairs), dec(o.Win))
		var best []string
		if o.Model && o.Pairs.Cmp(d.BestPairs) == 0 {
			best = append(best, "best for pairs")
		}
		if o.Model && o.Win.Cmp(d.BestWin) == 0 {
			best = append(best, "best to win")
		}
		if !o.Model {
			best = append(best, "outside the model")
		}
		if len(best) == 2 && best[0] == "best for pairs" && best[1] == "best to win" {
			best = []string{"best"}
		}
		if len(best) > 0 {
			p += " (" + strings.Join(best, ", ") + ")"
		}
		parts = append(parts, p)
	}
	card := "first card"
	if d.Card == 2 {
		card = "second card"
	}
	return fmt.Sprintf("%s, expected pairs from this turn on and win score: %s", card, strings.Join(parts, "; "))
}

// LastMoveLine says what decision d made and what it cost: "your last move (turn 4, second card:
// a seen card) cost 0.5000 pairs and 0.1250 win; best: a new card", or that it was the best.
func LastMoveLine(d *review.Decision[*big.Rat]) string {
	card := "first card"
	if d.Card == 2 {
		card = "second card"
	}
	chosen := d.Options[d.Chosen]
	head := fmt.Sprintf("your last move (turn %d, %s: %s)", d.Turn+1, card, chosen.Move)
	if d.CostPairs.Sign() == 0 && d.CostWin.Sign() == 0 {
		return head + " was the best"
	}
	var best []string
	for _, o := range d.Options {
		if o.Model && (o.Pairs.Cmp(d.BestPairs) == 0 || o.Win.Cmp(d.BestWin) == 0) {
			best = append(best, o.Move)
		}
	}
	return fmt.Sprintf("%s cost %s pairs and %s win; best: %s", head, dec(d.CostPairs), dec(d.CostWin), strings.Join(best, " or "))
}

// dec formats a value to 4 decimals.
func dec(r *big.Rat) string { return r.FloatString(4) }

// NoValuesCoach is the coach of a game under a rule variant that no exact model covers: it says
// so once, at the person's first move, and has nothing more to say.
type NoValuesCoach struct {
	// Variant is the game's rule variant, Why the reason no model covers it.
	Variant rules.Variant
	Why     error
	said    bool
}

// Advise says, the first time only, that the coach has no values for the variant.
func (c *NoValuesCoach) Advise(Situation) string {
	if c.said {
		return ""
	}
	c.said = true
	return fmt.Sprintf("no values for %s: %v", c.Variant, c.Why)
}
