package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/analysis/report"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// reviewCommand returns memsim review.
func reviewCommand() *command {
	return &command{
		name: "review",
		usage: []string{
			"memsim review [--game K] [--no-win] [--float] [--json] [--figure FILE.png|FILE.svg]\n" +
				"[--memory M --forget lru|handover-uniform|decay [--q Q] [--fluctuation S]] RECORD",
		},
		short: "judge every decision of a recorded game against the exact values",
		long: `
Reads the game record RECORD (docs/records.md) and judges every decision of every seat of its
games (--game K: only the K-th, from 1): for each card a seat chose to turn, the value of each
option open then in expected pairs (both seats optimal afterwards) and in win score, P(win) +
P(draw)/2 (both seats playing to win afterwards), the option taken and what it cost; for each new
card, the luck of what it showed; then per seat the decisions at the best value, the pairs and
win score lost, and the luck. Values are those of perfect memory, the record's pass rule,
singletons and choice set. A game under a rule variant is judged a turn
at a time in the choices of the variant's exact model (blind flips, a turn limit, copies), with
the luck of each turn's cards, or said to have no values where none covers it. --no-win leaves
out the win scores (faster at many pairs); --float computes in float64 instead of exact
rationals. --figure draws the game's evaluation graph (seat 0's win score after each decision,
or its expected pairs with --no-win) as a PNG or SVG file, for one game (the record's only game,
or --game K). A game of three to eight seats is judged a turn at a time in the choices of every
seat for itself (each maximising its own expected pairs), with the pass streak under a pass rule:
each choice's value in the mover's expected pairs, the cost, the luck of each turn's new cards and
per seat the sums; it has no win scores and no figure, and under a rule variant no values.
--memory M --forget lru judges such a game as a shared lru memory of capacity M would: the
states are those the memory holds after the record's cards, and a card it forgot is a new card.
Under --forget handover-uniform or decay, or --fluctuation S, the review says it has no values
(the record does not say what the memory forgot or drew); --memory with a game of two seats is
an error.
`,
		run: runReview,
	}
}

type reviewFlags struct {
	game               int
	figure             string
	noWin, float, json bool
	set                map[string]bool
	// memFlags name the shared memory games of three or more seats are judged by, mem
	// (reviewmemory.go).
	memFlags reviewMemoryFlags
	mem      rules.Memory
}

func runReview(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl reviewFlags
	fs := newFlagSet("memsim review")
	fs.IntVar(&fl.game, "game", 0, "review only game `K` of the record, from 1 (default: every game)")
	fs.BoolVar(&fl.noWin, "no-win", false, "leave out the win scores")
	fs.BoolVar(&fl.float, "float", false, "compute in float64 instead of exact rationals")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object per game, one per line")
	fs.StringVar(&fl.figure, "figure", "", "draw the game's evaluation graph to `FILE` (.png or .svg)")
	fl.memFlags.register(fs)
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.set = given(fs)
	out := checkedStdout(inv.stdout)
	var err error
	if fl.float {
		err = reviewRecord(ctx, field.Float{}, fl, fs.Args(), out)
	} else {
		err = reviewRecord(ctx, field.Rat{}, fl, fs.Args(), out)
	}
	return exitFor(fs.Name(), out.result(err), inv.stderr)
}

// reviewRecord reviews the games of the record args names.
func reviewRecord[T any](ctx context.Context, f field.Field[T], fl reviewFlags, args []string, w io.Writer) error {
	switch {
	case len(args) == 0:
		return required("RECORD", "the game record to review (docs/records.md)")
	case len(args) > 1:
		return usagef("unexpected argument %q (one record at a time)", args[1])
	case fl.set["game"] && fl.game < 1:
		return usagef("--game %d: must be at least 1", fl.game)
	case fl.set["figure"] && !strings.HasSuffix(fl.figure, ".png") && !strings.HasSuffix(fl.figure, ".svg"):
		return usagef("--figure %q: must name a .png or .svg file", fl.figure)
	}
	mem, memErr := fl.memFlags.memory(fl.set)
	if memErr != nil {
		return memErr
	}
	fl.mem = mem
	games, err := record.ReadFile(args[0])
	if err != nil {
		var re *record.Error
		if errors.As(err, &re) || errors.Is(err, os.ErrNotExist) {
			return badInput(err)
		}
		return err
	}
	if fl.set["game"] && fl.game > len(games) {
		return usagef("--game %d: the record holds %d games", fl.game, len(games))
	}
	if fl.figure != "" && !fl.set["game"] && len(games) > 1 {
		return usagef("--figure draws one game: give --game K (the record holds %d games)", len(games))
	}
	if err := checkReviewSeats(fl, args[0], games); err != nil {
		return err
	}
	if err := checkReviewMemory(fl, args[0], games); err != nil {
		return err
	}
	if err := checkReviewCost(fl, args[0], games); err != nil {
		return err
	}
	values := map[string]*review.Values[T]{}
	for i, g := range games {
		if fl.set["game"] && i+1 != fl.game {
			continue
		}
		if g.Rules.Seats != 2 {
			if err := reviewSeats(ctx, f, fl, args[0], i+1, g, w); err != nil { // reviewseats.go
				return err
			}
			continue
		}
		if v := g.Rules.Variant; !v.Standard() {
			if err := reviewVariant(ctx, f, fl, args[0], i+1, g, w); err != nil {
				return err
			}
			continue
		}
		m := review.Model(g)
		key := fmt.Sprintf("%d %v %s", g.Rules.Singletons, g.Rules.Pass, g.Rules.Choices)
		v := values[key]
		if v == nil || !fitsPairs(v, g) {
			v, err = review.NewValues(ctx, f, m, maxPairsOf(games, g), !fl.noWin)
			if err != nil {
				return err
			}
			values[key] = v
		}
		r, err := review.Game(ctx, v, g)
		if err != nil {
			return err
		}
		if fl.figure != "" {
			if err := writeEvaluation(fl.figure, f, r); err != nil {
				return err
			}
		}
		if fl.json {
			b, err := json.Marshal(r.JSON(v, i+1))
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s\n", b)
			continue
		}
		if err := writeReview(w, f, args[0], i+1, r); err != nil {
			return err
		}
	}
	return nil
}

// variantReviewJSON is the JSON form of the review of a game under a rule variant: its rules and
// result, and why there are no values.
type variantReviewJSON struct {
	Game       int       `json:"game"`
	Pairs      int       `json:"pairs"`
	Singletons int       `json:"singletons"`
	Pass       string    `json:"pass"`
	Variant    string    `json:"variant"`
	Values     bool      `json:"values"`
	Note       string    `json:"note"`
	Players    []string  `json:"players,omitempty"`
	Scores     []float64 `json:"scores"`
	Finished   bool      `json:"finished"`
	TurnLimit  bool      `json:"turn_limited"`
}

// writeNoValues prints the review of game, a game under a rule variant no exact model covers: its
// rules, that it has no values and why (note), and its result.
func writeNoValues(w io.Writer, file string, game int, g *record.Game, note string, asJSON bool) error {
	names := [2]string{"seat 0", "seat 1"}
	for i, p := range g.Players {
		names[i] = p.Name
	}
	if asJSON {
		b, err := json.Marshal(variantReviewJSON{Game: game, Pairs: g.Rules.Pairs, Singletons: g.Rules.Singletons,
			Pass: g.Rules.Pass.String(), Variant: g.Rules.Variant.String(), Note: note, Players: names[:],
			Scores: g.Result.Scores, Finished: g.Result.Over, TurnLimit: g.Result.Limited})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "%s, game %d: %s (seat 0) against %s (seat 1); %s, %s, pass %s, %s%s\n", file, game, names[0], names[1],
		count(g.Rules.Pairs, "pair"), count(g.Rules.Singletons, "singleton"), g.Rules.Pass, g.Rules.Variant, choicesNote(g.Rules.Choices))
	fmt.Fprintf(w, "no values: %s\n", note)
	_, err := fmt.Fprintln(w, reviewResult(g, names))
	return err
}

// reviewResult says how game g came out, with its seats' names.
func reviewResult(g *record.Game, names [2]string) string {
	res := fmt.Sprintf("result: %s %s, %s %s", names[0], trimFloat(g.Result.Scores[0]), names[1], trimFloat(g.Result.Scores[1]))
	switch {
	case !g.Result.Over:
		res += fmt.Sprintf(" so far (unfinished, %s left)", count(g.Result.Left, "pair"))
	case g.Result.Limited:
		res += fmt.Sprintf(" (turn limit with %s left, counted for nobody)", count(g.Result.Left, "pair"))
	}
	return res
}

// maxPairsOf returns the largest deal of the games with g's model, so that one solve serves them.
func maxPairsOf(games []*record.Game, g *record.Game) int {
	most := g.Rules.Pairs
	for _, o := range games {
		if o.Rules.Singletons == g.Rules.Singletons && o.Rules.Pass == g.Rules.Pass && o.Rules.Choices == g.Rules.Choices {
			most = max(most, o.Rules.Pairs)
		}
	}
	return most
}

// fitsPairs reports whether values v cover game g's pairs.
func fitsPairs[T any](v *review.Values[T], g *record.Game) bool { return v.MaxPairs() >= g.Rules.Pairs }

// reviewSeatNames returns the two seats' names as a review prints them: "seat i" for a seat without one.
func reviewSeatNames(seat0, seat1 string) [2]string {
	names := [2]string{seat0, seat1}
	for i := range names {
		if names[i] == "" {
			names[i] = "seat " + strconv.Itoa(i)
		}
	}
	return names
}

// judgedValues names the values a review judges by: expected pairs, and with win the win score.
func judgedValues(win bool) string {
	what := "expected pairs with optimal play afterwards"
	if win {
		what += "; win score, P(win) + P(draw)/2, with play to win afterwards"
	}
	return what
}

// writeReview prints a review for people.
func writeReview[T any](w io.Writer, f field.Field[T], file string, game int, r *review.Review[T]) error {
	g := r.Game
	names := reviewSeatNames(r.Seats[0].Name, r.Seats[1].Name)
	num := func(v T) string { return strconv.FormatFloat(f.Float64(v), 'f', 4, 64) }
	fmt.Fprintf(w, "%s, game %d: %s (seat 0) against %s (seat 1); %s, %s, pass %s%s\n", file, game, names[0], names[1],
		count(g.Rules.Pairs, "pair"), count(g.Rules.Singletons, "singleton"), g.Rules.Pass, choicesNote(g.Rules.Choices))
	fmt.Fprintf(w, "judged with perfect memory, %s arithmetic: %s\n", answer.Arithmetic(f), judgedValues(r.Win))
	start := fmt.Sprintf("start: %s expects %s pairs", names[0], num(r.StartPairs))
	if r.Win {
		start += ", win score " + num(r.StartWin)
	}
	fmt.Fprintln(w, start)
	for _, d := range r.Decisions {
		c := d.Options[d.Chosen]
		var b strings.Builder
		fmt.Fprintf(&b, "turn %3d  %-10s card %d  %-22s", d.Turn+1, names[d.Seat], d.Card, d.State.String())
		if d.Revealed != "" {
			fmt.Fprintf(&b, " after %s:", d.Revealed)
		}
		fmt.Fprintf(&b, " %s", c.Move)
		if !c.Model {
			b.WriteString(" (outside the model)")
		}
		switch {
		case len(d.Options) == 1:
			b.WriteString(", forced")
		case f.IsZero(d.CostPairs) && (!r.Win || f.IsZero(d.CostWin)):
			b.WriteString(", best")
		default:
			best := bestMove(f, d, r.Win)
			fmt.Fprintf(&b, ", costs %s pairs", num(d.CostPairs))
			if r.Win {
				fmt.Fprintf(&b, " and %s win", num(d.CostWin))
			}
			fmt.Fprintf(&b, " (best: %s)", best)
		}
		b.WriteString(luckNote(f, r.Win, d.LuckPairs, d.LuckWin))
		fmt.Fprintln(w, b.String())
	}
	return writeReviewSeats(w, f, g, names, r.Win, r.Seats)
}

// luckNote is a turn's luck, "; luck +0.2500 pairs, -0.1250 win", or "" when it had none.
func luckNote[T any](f field.Field[T], win bool, pairs, winLuck T) string {
	if f.IsZero(pairs) && (!win || f.IsZero(winLuck)) {
		return ""
	}
	note := fmt.Sprintf("; luck %+.4f pairs", f.Float64(pairs))
	if win {
		note += fmt.Sprintf(", %+.4f win", f.Float64(winLuck))
	}
	return note
}

// writeReviewSeats prints a review's table of the seats (decisions, how many at best, what they
// lost, their luck; in win score too when win) and the game's result.
func writeReviewSeats[T any](w io.Writer, f field.Field[T], g *record.Game, names [2]string, win bool, seats [2]review.Seat[T]) error {
	num := func(v T) string { return strconv.FormatFloat(f.Float64(v), 'f', 4, 64) }
	signed := func(v T) string { return fmt.Sprintf("%+.4f", f.Float64(v)) }
	fmt.Fprintf(w, "%-10s %9s %8s %11s", "seat", "decisions", "at best", "pairs lost")
	if win {
		fmt.Fprintf(w, " %9s", "win lost")
	}
	fmt.Fprintf(w, " %14s", "luck in pairs")
	if win {
		fmt.Fprintf(w, " %12s", "luck in win")
	}
	fmt.Fprintln(w)
	for i, s := range seats {
		fmt.Fprintf(w, "%-10s %9d %8d %11s", names[i], s.Decisions, s.Best, num(s.LostPairs))
		if win {
			fmt.Fprintf(w, " %9s", num(s.LostWin))
		}
		fmt.Fprintf(w, " %14s", signed(s.LuckPairs))
		if win {
			fmt.Fprintf(w, " %12s", signed(s.LuckWin))
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w, reviewResult(g, names))
	return err
}

// bestMove names the best of a decision's model options: by pairs, and by win score where it
// differs.
func bestMove[T any](f field.Field[T], d review.Decision[T], win bool) string {
	var byPairs, byWin []string
	for _, o := range d.Options {
		if !o.Model {
			continue
		}
		if f.Cmp(o.Pairs, d.BestPairs) == 0 {
			byPairs = append(byPairs, o.Move)
		}
		if win && f.Cmp(o.Win, d.BestWin) == 0 {
			byWin = append(byWin, o.Move)
		}
	}
	s := strings.Join(byPairs, " or ")
	if win && strings.Join(byWin, " or ") != s {
		s = fmt.Sprintf("%s for the pairs, %s for the win", s, strings.Join(byWin, " or "))
	}
	return s
}

// trimFloat formats a score: whole, or with the digits it needs.
func trimFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// writeEvaluation draws the evaluation graph of review r to path, a .png or .svg file, whole or
// not at all.
func writeEvaluation[T any](path string, f field.Field[T], r *review.Review[T]) error {
	fig, err := review.Figure(f, r)
	if err != nil {
		return err
	}
	data := fig.PNG
	if strings.HasSuffix(path, ".svg") {
		data = fig.SVG
	}
	return report.WriteFileAtomic(path, data)
}

// maxReviewExactCopiesWinCells bounds the table to win a review solves in exact rationals under
// more than two copies of a face (review.MaxExactCopiesWinCells).
const maxReviewExactCopiesWinCells = review.MaxExactCopiesWinCells

// checkReviewCost refuses, before anything is written, an exact review with win scores of a game
// under copies of a face whose table to win is beyond maxReviewExactCopiesWinCells, naming the
// flags that make it quick.
func checkReviewCost(fl reviewFlags, name string, games []*record.Game) error {
	if fl.float || fl.noWin {
		return nil
	}
	for i, g := range games {
		if fl.set["game"] && i+1 != fl.game {
			continue
		}
		k := g.Rules.Variant.CopiesOf()
		if g.Rules.Seats != 2 || k <= 2 {
			continue
		}
		if cells := exact.CopiesWinCells(g.Rules.Pairs, k, g.Rules.Variant.TurnLimit); cells < 0 || cells > maxReviewExactCopiesWinCells {
			limit := ""
			if t := g.Rules.Variant.TurnLimit; t > 0 {
				limit = fmt.Sprintf(", turn limit %d", t)
			}
			return usagef("%s:%d: game %d: its win scores (%d pairs, copies %d%s) need a table of %s values, more than %s in exact rationals: add --float or --no-win",
				name, g.Line, i+1, g.Rules.Pairs, k, limit, cellsText(cells), grouped(strconv.Itoa(maxReviewExactCopiesWinCells)))
		}
	}
	return nil
}

// cellsText writes a count of cells, or "more than 2^62" for CopiesWinCells' -1.
func cellsText(cells int64) string {
	if cells < 0 {
		return "more than 2^62"
	}
	return grouped(strconv.FormatInt(cells, 10))
}
