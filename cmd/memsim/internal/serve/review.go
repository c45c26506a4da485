package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// ReviewJSON is what POST /api/review gives: the review of one game (memsim review --json's
// object) and its evaluation graph, an SVG document.
type ReviewJSON struct {
	Review review.JSON `json:"review"`
	// Variant is the review of a game under a rule variant, turn by turn in the choices of the
	// variant's exact model (Review and SVG are then empty).
	Variant *review.VariantJSON `json:"variant,omitempty"`
	// Seats is the review of a game of three or more seats, turn by turn in the choices of every
	// seat for itself (Review and SVG are then empty: it has no evaluation graph).
	Seats *review.SeatsJSON `json:"seats,omitempty"`
	SVG   string            `json:"svg"`
	// NoWin reports that the review gives no win scores, and WinNote why: the request asked for
	// none (no_win=true), the game has three or more seats, or its win scores need a table to win
	// beyond review.MaxExactCopiesWinCells (more than two copies of a face).
	NoWin   bool   `json:"no_win"`
	WinNote string `json:"win_note,omitempty"`
	// Games is the number of games in the record.
	Games int `json:"games"`
}

// review reviews a game of the record the body holds: POST /api/review?game=K.
func (s *Server) review(w http.ResponseWriter, r *http.Request) {
	k := 1
	if v := r.URL.Query().Get("game"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			s.fail(w, r, badField("game", "%q: must be a game's number in the record, from 1", cut(v)))
			return
		}
		k = n
	}
	noWin := false
	if v := r.URL.Query().Get("no_win"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			s.fail(w, r, badField("no_win", "%q: must be true (leave out the win scores) or false", cut(v)))
			return
		}
		noWin = b
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxRecordBody)
	data, err := io.ReadAll(r.Body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := reviewRecord(r.Context(), data, k, noWin)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// reviewRecord reviews game k (from 1) of the record data: exactly up to MaxExactReviewPairs
// pairs, in float64 up to MaxReviewPairs, with at most MaxSingletons singletons; without win
// scores when noWin is set or the game's table to win is beyond review.MaxExactCopiesWinCells.
func reviewRecord(ctx context.Context, data []byte, k int, noWin bool) (*ReviewJSON, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, badField("record", "empty: send a game record file (docs/records.md) as the body")
	}
	games, err := record.NewReader(bytes.NewReader(data), "record").ReadAll()
	if err != nil {
		var re *record.Error
		if errors.As(err, &re) {
			return nil, badField("record", "%v", firstLine(err.Error()))
		}
		return nil, err
	}
	switch {
	case len(games) == 0:
		return nil, badField("record", "the record holds no game")
	case k > len(games):
		return nil, badField("game", "%d: the record holds %d games", k, len(games))
	}
	g := games[k-1]
	switch {
	case g.Rules.Seats < 2:
		return nil, badField("record", "game %d: a review needs 2 to %d seats (it has %d)", k, rules.MaxPlayers, g.Rules.Seats)
	case g.Rules.Pairs > MaxReviewPairs:
		return nil, badField("record", "game %d deals %d pairs: the page reviews at most %d (memsim review takes more)", k, g.Rules.Pairs, MaxReviewPairs)
	case g.Rules.Singletons > MaxSingletons:
		return nil, badField("record", "game %d deals %d singletons: the page reviews at most %d (memsim review takes more)", k, g.Rules.Singletons, MaxSingletons)
	}
	note := ""
	switch beyond, cells := review.CopiesWinBeyond(g); {
	case g.Rules.Seats > 2:
		note = review.SeatsNoWin
	case noWin:
		note = "no win scores: the request left them out (no_win=true)"
	case beyond:
		note = fmt.Sprintf("no win scores: under %d copies of a face they need a table to win of %s values, more than the %d the page solves",
			g.Rules.Variant.CopiesOf(), cellsText(cells), review.MaxExactCopiesWinCells)
	}
	var out *ReviewJSON
	if g.Rules.Pairs <= MaxExactReviewPairs {
		out, err = reviewGame(ctx, field.Rat{}, g, k, note == "")
	} else {
		out, err = reviewGame(ctx, field.Float{}, g, k, note == "")
	}
	if err != nil {
		return nil, err
	}
	out.Games = len(games)
	out.NoWin, out.WinNote = note != "", note
	return out, nil
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// cellsText writes a count of cells, or "more than 2^62" for exact.CopiesWinCells' -1.
func cellsText(cells int64) string {
	if cells < 0 {
		return "more than 2^62"
	}
	return strconv.FormatInt(cells, 10)
}

// reviewGame reviews game g, the k-th of its record, in field f, with win scores when win is set
// (a game of three or more seats has none), and draws its evaluation graph.
func reviewGame[T any](ctx context.Context, f field.Field[T], g *record.Game, k int, win bool) (*ReviewJSON, error) {
	if g.Rules.Seats > 2 {
		r, err := review.SeatsGame(ctx, f, g)
		if errors.Is(err, review.ErrNoSeatsValues) {
			return nil, badField("record", "game %d: the review has %v", k, err)
		}
		if err != nil {
			return nil, err
		}
		j := r.JSON(f, k)
		return &ReviewJSON{Seats: &j}, nil
	}
	if !g.Rules.Variant.Standard() {
		return reviewVariant(ctx, f, g, k, win)
	}
	v, err := review.NewValues(ctx, f, review.Model(g), g.Rules.Pairs, win)
	if err != nil {
		return nil, err
	}
	r, err := review.Game(ctx, v, g)
	if err != nil {
		return nil, badField("record", "game %d: %v", k, err)
	}
	svg, err := evaluationSVG(f, r)
	if err != nil {
		return nil, err
	}
	return &ReviewJSON{Review: r.JSON(v, k), SVG: string(svg)}, nil
}

// evaluationSVG draws review r's evaluation graph, as memsim review --figure does.
func evaluationSVG[T any](f field.Field[T], r *review.Review[T]) ([]byte, error) {
	fig, err := review.Figure(f, r)
	if err != nil {
		return nil, err
	}
	return fig.SVG, nil
}

// reviewVariant reviews game g, the k-th of its record, under a rule variant: turn by turn in the
// choices of the variant's exact model, with win scores when win is set, with its evaluation
// graph, or refused, naming the rules no model covers.
func reviewVariant[T any](ctx context.Context, f field.Field[T], g *record.Game, k int, win bool) (*ReviewJSON, error) {
	r, err := review.VariantGame(ctx, f, g, win)
	if errors.Is(err, review.ErrNoVariantModel) {
		return nil, badField("record", "game %d: the review has no values for %s: %v", k, g.Rules.Variant, err)
	}
	if err != nil {
		return nil, err
	}
	j := r.JSON(f, k)
	out := &ReviewJSON{Variant: &j}
	if len(r.Through) > 0 {
		fig, err := review.VariantFigure(f, r)
		if err != nil {
			return nil, err
		}
		out.SVG = string(fig.SVG)
	}
	return out, nil
}
