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
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// reviewSeats reviews game g, the game-th of file, a game of three or more seats: a turn at a
// time in the choices of every seat for itself (docs/models.md §4.7), or, where the review has no
// values (a rule variant), the plain "no values" line.
func reviewSeats[T any](ctx context.Context, f field.Field[T], fl reviewFlags, file string, game int, g *record.Game, w io.Writer) error {
	if _, err := review.SeatsMemoryModel(g.Rules, fl.mem); err != nil {
		return writeSeatsNoValues(w, file, game, g, fmt.Sprintf("the review has %v", err), fl.json)
	}
	r, err := review.SeatsGameMemory(ctx, f, g, fl.mem)
	if err != nil {
		return fmt.Errorf("%s:%d: game %d: %w", file, g.Line, game, err)
	}
	if fl.json {
		b, err := json.Marshal(r.JSON(f, game))
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	return writeSeatsReview(w, f, file, game, r)
}

// checkReviewSeats refuses, before anything is written, a review of a game the review cannot
// take at all: solitaire (no other seat to judge against), and --figure of a game of three or
// more seats (the evaluation graph is of two seats).
func checkReviewSeats(fl reviewFlags, file string, games []*record.Game) error {
	for i, g := range games {
		if fl.set["game"] && i+1 != fl.game {
			continue
		}
		switch p := g.Rules.Seats; {
		case p < 2:
			return usagef("%s:%d: game %d: a review needs 2 to %d seats (it has %d): solitaire has no decision against another seat to value", file, g.Line, i+1, rules.MaxPlayers, p)
		case p > 2 && fl.figure != "":
			return usagef("--figure: %s:%d: game %d has %d seats: the evaluation graph is of two-seat games (leave out --figure)", file, g.Line, i+1, p)
		}
	}
	return nil
}

// seatsNames returns the seats' names as a review prints them: "seat i" for a seat without one.
func seatsNames(g *record.Game) []string {
	names := make([]string, g.Rules.Seats)
	for i := range names {
		if i < len(g.Players) && g.Players[i].Name != "" {
			names[i] = g.Players[i].Name
		} else {
			names[i] = "seat " + strconv.Itoa(i)
		}
	}
	return names
}

// seatsHead is the first line of the review of a game of three or more seats.
func seatsHead(file string, game int, g *record.Game, names []string) string {
	seats := make([]string, len(names))
	for i, n := range names {
		seats[i] = n
		if n != "seat "+strconv.Itoa(i) {
			seats[i] = fmt.Sprintf("%s (seat %d)", n, i)
		}
	}
	variant := ""
	if !g.Rules.Variant.Standard() {
		variant = ", " + g.Rules.Variant.String()
	}
	return fmt.Sprintf("%s, game %d: %s; %s, %s, pass %s%s%s", file, game, strings.Join(seats, ", "),
		count(g.Rules.Pairs, "pair"), count(g.Rules.Singletons, "singleton"), g.Rules.Pass, variant, choicesNote(g.Rules.Choices))
}

// seatsResult says how game g of several seats came out.
func seatsResult(g *record.Game, names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + trimFloat(g.Result.Scores[i])
	}
	res := "result: " + strings.Join(parts, ", ")
	switch {
	case !g.Result.Over:
		res += fmt.Sprintf(" so far (unfinished, %s left)", count(g.Result.Left, "pair"))
	case g.Result.Stalemate:
		res += fmt.Sprintf(" (stalemate: %s left, shared)", count(g.Result.Left, "pair"))
	case g.Result.Limited:
		res += fmt.Sprintf(" (turn limit with %s left, counted for nobody)", count(g.Result.Left, "pair"))
	}
	return res
}

// seatsNoValuesJSON is the JSON form of the review of a game of three or more seats the review
// has no values for: its rules and result, and why.
type seatsNoValuesJSON struct {
	Game       int       `json:"game"`
	Seats      int       `json:"seats"`
	Pairs      int       `json:"pairs"`
	Singletons int       `json:"singletons"`
	Pass       string    `json:"pass"`
	Variant    string    `json:"variant"`
	Values     bool      `json:"values"`
	Note       string    `json:"note"`
	Players    []string  `json:"players"`
	Scores     []float64 `json:"scores"`
	Finished   bool      `json:"finished"`
	TurnLimit  bool      `json:"turn_limited"`
}

// writeSeatsNoValues prints the review of a game of three or more seats the review has no
// values for: its rules, why (note), and its result.
func writeSeatsNoValues(w io.Writer, file string, game int, g *record.Game, note string, asJSON bool) error {
	names := seatsNames(g)
	if asJSON {
		b, err := json.Marshal(seatsNoValuesJSON{Game: game, Seats: g.Rules.Seats, Pairs: g.Rules.Pairs, Singletons: g.Rules.Singletons,
			Pass: g.Rules.Pass.String(), Variant: g.Rules.Variant.String(), Note: note, Players: names,
			Scores: g.Result.Scores, Finished: g.Result.Over, TurnLimit: g.Result.Limited})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintln(w, seatsHead(file, game, g, names))
	fmt.Fprintf(w, "no values: %s\n", note)
	_, err := fmt.Fprintln(w, seatsResult(g, names))
	return err
}

// writeSeatsReview prints the review of a game of three or more seats: every seat's value at the
// start, a line per turn with a decision (the choice credited, its cost, the luck of its cards,
// every option's value), then the seats' sums and the result.
func writeSeatsReview[T any](w io.Writer, f field.Field[T], file string, game int, r *review.SeatsReview[T]) error {
	g := r.Game
	names := seatsNames(g)
	num := func(v T) string { return strconv.FormatFloat(f.Float64(v), 'f', 4, 64) }
	fmt.Fprintln(w, seatsHead(file, game, g, names))
	memory := "perfect memory"
	if !r.Model.Memory.Perfect() {
		memory = "a shared " + r.Model.Memory.String() + " memory (the state it holds after the record's cards)"
	}
	fmt.Fprintf(w, "judged a turn at a time in the choices of every seat for itself, %s, %s arithmetic: "+
		"the mover's expected pairs, every seat maximising its own afterwards (no win scores at 3 or more seats)\n", memory, answer.Arithmetic(f))
	if r.Start != nil {
		parts := make([]string, len(names))
		for i, v := range r.Start {
			parts[i] = names[i] + " " + num(v)
		}
		fmt.Fprintf(w, "start: expected pairs %s\n", strings.Join(parts, ", "))
	}
	for _, d := range r.Decisions {
		var b strings.Builder
		where := d.State.String()
		if d.Passes > 0 {
			where += fmt.Sprintf(", %s in a row", count(d.Passes, "pass"))
		}
		fmt.Fprintf(&b, "turn %3d  %-10s %-26s ", d.Turn+1, names[d.Seat], where)
		switch {
		case d.Chosen < 0:
			b.WriteString("cards no choice of the model turns (outside the model, not judged)")
		default:
			b.WriteString(seatsMadeNames(d))
			switch {
			case len(d.Options) == 1:
				b.WriteString(", forced")
			case f.IsZero(d.Cost):
				b.WriteString(", best")
			default:
				fmt.Fprintf(&b, ", costs %s pairs (best: %s)", num(d.Cost), seatsBest(f, d))
			}
			if !f.IsZero(d.Luck) {
				fmt.Fprintf(&b, "; luck %+.4f pairs", f.Float64(d.Luck))
			}
		}
		if len(d.Options) > 1 {
			opts := make([]string, len(d.Options))
			for i, o := range d.Options {
				opts[i] = o.Choice.String() + " " + num(o.Pairs)
			}
			fmt.Fprintf(&b, " [%s]", strings.Join(opts, ", "))
		}
		fmt.Fprintln(w, b.String())
	}
	fmt.Fprintf(w, "%-10s %9s %8s %11s %14s\n", "seat", "decisions", "at best", "pairs lost", "luck in pairs")
	for i, s := range r.Seats {
		fmt.Fprintf(w, "%-10s %9d %8d %11s %14s\n", names[i], s.Decisions, s.Best, num(s.Lost), fmt.Sprintf("%+.4f", f.Float64(s.Luck)))
	}
	_, err := fmt.Fprintln(w, seatsResult(g, names))
	return err
}

// seatsMadeNames names the legal choices a judged turn's cards fit: "daring or safe".
func seatsMadeNames[T any](d review.SeatsDecision[T]) string {
	var s []string
	for _, c := range d.Made {
		for _, o := range d.Options {
			if o.Choice == c {
				s = append(s, c.String())
			}
		}
	}
	return strings.Join(s, " or ")
}

// seatsBest names the choices worth the most to the mover.
func seatsBest[T any](f field.Field[T], d review.SeatsDecision[T]) string {
	var s []string
	for _, o := range d.Options {
		if f.Cmp(o.Pairs, d.Options[d.Best].Pairs) == 0 {
			s = append(s, o.Choice.String())
		}
	}
	return strings.Join(s, " or ")
}
