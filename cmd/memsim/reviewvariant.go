package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/analysis/report"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// reviewVariant reviews game g, the game-th of file, under a rule variant: a turn at a time in
// the choices of the variant's exact model, or, where no model covers the variant, the plain
// "no values" line.
func reviewVariant[T any](ctx context.Context, f field.Field[T], fl reviewFlags, file string, game int, g *record.Game, w io.Writer) error {
	if _, err := review.VariantModel(g.Rules); err != nil {
		note := fmt.Sprintf("the review has no values for %s: %v", g.Rules.Variant, err)
		return writeNoValues(w, file, game, g, note, fl.json)
	}
	r, err := review.VariantGame(ctx, f, g, !fl.noWin)
	if err != nil {
		return fmt.Errorf("%s:%d: game %d: %w", file, g.Line, game, err)
	}
	if fl.figure != "" {
		fig, err := review.VariantFigure(f, r)
		if err != nil {
			return usagef("--figure: %s:%d: game %d: %v", file, g.Line, game, err)
		}
		data := fig.PNG
		if strings.HasSuffix(fl.figure, ".svg") {
			data = fig.SVG
		}
		if err := report.WriteFileAtomic(fl.figure, data); err != nil {
			return err
		}
	}
	if fl.json {
		b, err := json.Marshal(r.JSON(f, game))
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	return writeVariantReview(w, f, file, game, r)
}

// writeVariantReview prints the review of a game under a rule variant: seat 0's value at the
// start, a line per turn with a decision (its cost and the luck of its cards), then the seats'
// sums and the result.
func writeVariantReview[T any](w io.Writer, f field.Field[T], file string, game int, r *review.VariantReview[T]) error {
	g := r.Game
	names := reviewSeatNames(r.Seats[0].Name, r.Seats[1].Name)
	num := func(v T) string { return strconv.FormatFloat(f.Float64(v), 'f', 4, 64) }
	fmt.Fprintf(w, "%s, game %d: %s (seat 0) against %s (seat 1); %s, %s, pass %s, %s%s\n", file, game, names[0], names[1],
		count(g.Rules.Pairs, "pair"), count(g.Rules.Singletons, "singleton"), g.Rules.Pass, g.Rules.Variant, choicesNote(g.Rules.Choices))
	fmt.Fprintf(w, "judged a turn at a time in the choices of the variant's model, perfect memory, %s arithmetic: %s\n", answer.Arithmetic(f), judgedValues(r.Win))
	if start, ok := r.Start(); ok {
		line := fmt.Sprintf("start: %s expects %s pairs", names[0], num(start.Pairs))
		if r.Win {
			line += ", win score " + num(start.Win)
		}
		fmt.Fprintln(w, line)
	}
	for _, d := range r.Decisions {
		fmt.Fprintln(w, variantDecisionLine(f, names, r.Win, g.Rules.Pass != rules.PassNever, d, num)+luckNote(f, r.Win, d.LuckPairs, d.LuckWin))
	}
	return writeReviewSeats(w, f, g, names, r.Win, r.Seats)
}

// variantDecisionLine is a turn's line: "turn   2  b  (n=2, j=0)  daring, costs 1.0000 pairs
// and 0.5000 win (best: safe)"; under a pass rule (passes) a turn just after the other seat's
// pass says so after its state.
func variantDecisionLine[T any](f field.Field[T], names [2]string, win, passes bool, d review.TurnDecision[T], num func(T) string) string {
	var b strings.Builder
	where := d.State.String()
	if d.Faces != "" {
		where = "faces " + d.Faces
	}
	if d.TurnsLeft > 0 {
		where += fmt.Sprintf(", %d left", d.TurnsLeft)
	}
	if d.AfterPass && passes {
		where += ", after a pass"
	}
	fmt.Fprintf(&b, "turn %3d  %-10s %-26s ", d.Turn+1, names[d.Seat], where)
	switch {
	case d.Chosen < 0:
		made := "no choice"
		if len(d.Made) == 0 {
			made = "cards no choice of the model turns"
		}
		fmt.Fprintf(&b, "%s (outside the model, not judged)", made)
		return b.String()
	default:
		b.WriteString(choiceNames(d.Made, d.Options))
	}
	switch {
	case len(d.Options) == 1:
		b.WriteString(", forced")
	case f.IsZero(d.CostPairs) && (!win || f.IsZero(d.CostWin)):
		b.WriteString(", best")
	default:
		fmt.Fprintf(&b, ", costs %s pairs", num(d.CostPairs))
		if win {
			fmt.Fprintf(&b, " and %s win", num(d.CostWin))
		}
		fmt.Fprintf(&b, " (best: %s)", bestChoices(f, d, win))
	}
	return b.String()
}

// choiceNames names the legal choices the turn's cards fit: "daring or safe".
func choiceNames[T any](made []rules.Choice, opts []review.ChoiceOption[T]) string {
	var s []string
	for _, c := range made {
		for _, o := range opts {
			if o.Choice == c {
				s = append(s, c.String())
			}
		}
	}
	return strings.Join(s, " or ")
}

// bestChoices names the optimum's choices, and the best to win where they differ.
func bestChoices[T any](f field.Field[T], d review.TurnDecision[T], win bool) string {
	var byPairs, byWin []string
	for _, o := range d.Options {
		if f.Cmp(o.Lead, d.Options[d.Best].Lead) == 0 {
			byPairs = append(byPairs, o.Choice.String())
		}
		if win && f.Cmp(o.Win, d.Options[d.BestWin].Win) == 0 {
			byWin = append(byWin, o.Choice.String())
		}
	}
	s := strings.Join(byPairs, " or ")
	if win && strings.Join(byWin, " or ") != s {
		s = fmt.Sprintf("%s for the pairs, %s for the win", s, strings.Join(byWin, " or "))
	}
	return s
}
