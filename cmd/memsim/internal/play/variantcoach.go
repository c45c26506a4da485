package play

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
)

// VariantCoach advises a person in a game under a rule variant with the values of the variant's
// exact model (analysis/review, VariantNext): before each turn of the person's that is a
// decision, the value of every legal choice (daring, safe, known-first, pass) in expected pairs
// and in win score, the best marked; and what the person's last turn
// cost. It judges with perfect memory, in the game's rules and choice set, for two seats, and
// solves the values of each decision when the person faces it: in exact rationals, or in float64
// under a turn limit beyond MaxExactLimitPairs pairs and, with more than two copies of a face,
// beyond a table to win of MaxExactCopiesWinCells values, whose win scores take seconds a turn in
// rationals.
type VariantCoach struct {
	ctx   context.Context
	rules record.Rules
	win   bool
	float bool
	// pending is the person's decision valued at the start of its turn, judged once the turn is
	// played; at, next, last and err are the answer of Values for the game of at moves.
	pending    *review.TurnDecision[*big.Rat]
	at         int
	next, last *review.TurnDecision[*big.Rat]
	err        error
}

// NewVariantCoach returns the coach of a two-seat game under rules r, a rule variant, or an
// error when no exact model covers it (review.ErrNoVariantModel).
func NewVariantCoach(ctx context.Context, r record.Rules) (*VariantCoach, error) {
	if r.Seats != 2 {
		return nil, fmt.Errorf("the coach judges two-seat games (this one has %d seats)", r.Seats)
	}
	if _, err := review.VariantModel(r); err != nil {
		return nil, err
	}
	v := r.Variant
	float := v.TurnLimit > 0 && v.CopiesOf() == 2 && r.Pairs > MaxExactLimitPairs
	if k := v.CopiesOf(); k > 2 {
		cells := exact.CopiesWinCells(r.Pairs, k, v.TurnLimit)
		float = cells < 0 || cells > MaxExactCopiesWinCells
	}
	return &VariantCoach{ctx: ctx, rules: r, win: true, at: -1, float: float}, nil
}

// MaxExactLimitPairs is the most pairs for which the coach solves a game under a turn limit
// (with two copies of a face) in exact rationals; beyond, it solves in float64.
const MaxExactLimitPairs = 6

// MaxExactCopiesWinCells is the largest table to win (exact.CopiesWinCells: the states of faces,
// by turns left under a limit, times the leads) for which the coach solves a game of more than
// two copies of a face in exact rationals, about a second a turn; beyond, it solves in float64.
const MaxExactCopiesWinCells = 20000

// Exact reports whether the coach's values are exact rationals (else float64 values, held as
// rationals).
func (c *VariantCoach) Exact() bool { return !c.float }

// Win reports whether the coach gives win scores: every exact model of a variant gives them at
// two seats, copies of a face included.
func (c *VariantCoach) Win() bool { return c.win }

// Values returns the decision the person faces in t, valued (nil when the turn begins with a
// pair known whole, which the model's players take), and the person's last decision, judged
// (nil before the first). Within a turn (its second card) next is the turn's decision, valued
// at its start, and last is nil. Asked again with the same moves, it answers the same.
func (c *VariantCoach) Values(t *Table) (next, last *review.TurnDecision[*big.Rat], err error) {
	if len(t.Moves) == c.at {
		return c.next, c.last, c.err
	}
	c.at = len(t.Moves)
	c.next, c.last, c.err = c.values(t)
	return c.next, c.last, c.err
}

func (c *VariantCoach) values(t *Table) (next, last *review.TurnDecision[*big.Rat], err error) {
	g, err := refereedGame(c.rules, t)
	if err != nil {
		return nil, nil, err
	}
	if n := len(g.Turns); n > 0 && g.Turns[n-1].End == record.EndUnfinished {
		return c.pending, nil, nil
	}
	if c.pending != nil {
		d, err := review.VariantJudge(field.Rat{}, g, *c.pending, c.win)
		if err == nil {
			last = &d
		}
		c.pending = nil
	}
	if c.float {
		fd, err := review.VariantNext(c.ctx, field.Float{}, g, c.win)
		if err != nil {
			return nil, last, err
		}
		if fd != nil {
			next = ratDecision(fd)
		}
	} else if next, err = review.VariantNext(c.ctx, field.Rat{}, g, c.win); err != nil {
		return nil, last, err
	}
	c.pending = next
	return next, last, nil
}

// Advise says what each choice open is worth at the start of the person's turn, and what the
// person's last turn cost; within a turn (its second card) it says nothing more.
func (c *VariantCoach) Advise(s Situation) string {
	if s.Second {
		return ""
	}
	next, last, err := c.Values(s.Table)
	var lines []string
	if last != nil {
		lines = append(lines, VariantLastLine(last, c.win))
	}
	switch {
	case err != nil:
		lines = append(lines, "the coach cannot judge this position: "+err.Error())
	case next == nil:
		lines = append(lines, "take the pair you know whole")
	default:
		lines = append(lines, VariantOptionsLine(next, c.win))
	}
	return strings.Join(lines, "\n")
}

// VariantOptionsLine says what each choice of decision d is worth: "this turn, expected pairs
// from it on and win score: daring 1.3333 pairs, win 0.5000 (best); safe ...". Under a turn limit
// it names the turns left.
func VariantOptionsLine(d *review.TurnDecision[*big.Rat], win bool) string {
	var parts []string
	for _, o := range d.Options {
		p := fmt.Sprintf("%s %s pairs", o.Choice, dec(o.Pairs))
		if win {
			p += ", win " + dec(o.Win)
		}
		var best []string
		if o.Lead.Cmp(d.Options[d.Best].Lead) == 0 {
			best = append(best, "best for pairs")
		}
		if win && o.Win.Cmp(d.Options[d.BestWin].Win) == 0 {
			best = append(best, "best to win")
		}
		if len(best) == 2 || len(best) == 1 && !win {
			best = []string{"best"}
		}
		if len(best) > 0 {
			p += " (" + strings.Join(best, ", ") + ")"
		}
		parts = append(parts, p)
	}
	head := "this turn"
	if d.TurnsLeft > 0 {
		head += fmt.Sprintf(" (%d turns left)", d.TurnsLeft)
	}
	what := "expected pairs from it on"
	if win {
		what += " and win score"
	}
	return fmt.Sprintf("%s, %s: %s", head, what, strings.Join(parts, "; "))
}

// VariantLastLine says what the turn of decision d (judged) was and what it cost: "your last turn
// (turn 4: daring) cost 0.5000 pairs and 0.1250 win; best: safe", or that it was the best.
func VariantLastLine(d *review.TurnDecision[*big.Rat], win bool) string {
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
	if d.CostPairs.Sign() == 0 && (!win || d.CostWin.Sign() == 0) {
		return head + " was the best"
	}
	var best []string
	for _, o := range d.Options {
		if o.Lead.Cmp(d.Options[d.Best].Lead) == 0 || win && o.Win.Cmp(d.Options[d.BestWin].Win) == 0 {
			best = append(best, o.Choice.String())
		}
	}
	cost := fmt.Sprintf("cost %s pairs", dec(d.CostPairs))
	if win {
		cost += fmt.Sprintf(" and %s win", dec(d.CostWin))
	}
	return fmt.Sprintf("%s %s; best: %s", head, cost, strings.Join(best, " or "))
}

// ratDecision returns decision d, valued in float64, with its values as rationals.
func ratDecision(d *review.TurnDecision[float64]) *review.TurnDecision[*big.Rat] {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	out := &review.TurnDecision[*big.Rat]{Turn: d.Turn, Seat: d.Seat, Move: d.Move, State: d.State, TurnsLeft: d.TurnsLeft,
		Faces: d.Faces, AfterPass: d.AfterPass, Made: d.Made, Chosen: d.Chosen, Best: d.Best, BestWin: d.BestWin,
		CostPairs: r(d.CostPairs), CostWin: r(d.CostWin)}
	for _, o := range d.Options {
		out.Options = append(out.Options, review.ChoiceOption[*big.Rat]{Choice: o.Choice, Pairs: r(o.Pairs), Lead: r(o.Lead), Win: r(o.Win)})
	}
	return out
}
