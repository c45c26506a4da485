package serve

import (
	"context"
	"errors"

	"memsim/analysis/review"
	"memsim/cmd/memsim/internal/play"
	"memsim/sim/record"
)

// coachFunc returns the coach's advice on the person's decision in a table.
type coachFunc func(t *play.Table, seat int) *CoachJSON

// newCoach returns the coach of a two-seat game under rules r: the review's values, card by card,
// in the standard game; the values of the variant's exact model, turn by turn, under a rule
// variant; or, where no exact model covers the variant, a coach that says so.
func newCoach(ctx context.Context, r record.Rules) (coachFunc, error) {
	if r.Variant.Standard() {
		c, err := play.NewExactCoach(ctx, r)
		if err != nil {
			return nil, err
		}
		return func(t *play.Table, seat int) *CoachJSON { return advise(c, t, seat) }, nil
	}
	c, err := play.NewVariantCoach(ctx, r)
	if errors.Is(err, review.ErrNoVariantModel) {
		msg := "no values for " + r.Variant.String() + ": " + err.Error()
		return func(*play.Table, int) *CoachJSON { return &CoachJSON{Turn: true, Error: msg} }, nil
	}
	if err != nil {
		return nil, err
	}
	return func(t *play.Table, seat int) *CoachJSON { return adviseVariant(c, t) }, nil
}

// adviseVariant returns the variant coach's values of the person's turn in table t: every
// choice of the model with its values, and what the person's last turn cost.
func adviseVariant(c *play.VariantCoach, t *play.Table) *CoachJSON {
	d, last, err := c.Values(t)
	if err != nil {
		return &CoachJSON{Turn: true, Error: "the coach cannot judge this position: " + err.Error()}
	}
	out := &CoachJSON{Card: 1, Turn: true, NoWin: !c.Win(), Options: []OptionJSON{}}
	if d == nil {
		out.Text = "take the pair you know whole"
	} else {
		out.Text = play.VariantOptionsLine(d, c.Win())
		for _, o := range d.Options {
			oj := OptionJSON{Move: o.Choice.String(), Model: true, Pairs: f64(o.Pairs), BestPairs: o.Lead.Cmp(d.Options[d.Best].Lead) == 0}
			if c.Exact() {
				oj.PairsRat = o.Pairs.RatString()
			}
			if c.Win() {
				oj.Win, oj.BestWin = f64(o.Win), o.Win.Cmp(d.Options[d.BestWin].Win) == 0
				if c.Exact() {
					oj.WinRat = o.Win.RatString()
				}
			}
			out.Options = append(out.Options, oj)
		}
	}
	if last != nil {
		l := &LastJSON{Turn: last.Turn + 1, Card: 1, Text: play.VariantLastLine(last, c.Win()),
			CostPairs: f64(last.CostPairs), CostWin: f64(last.CostWin)}
		if last.Chosen >= 0 {
			l.Move = last.Options[last.Chosen].Choice.String()
		}
		out.Last = l
	}
	return out
}
