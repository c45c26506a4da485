package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// number is a value as printed in JSON: exact is a reduced fraction (absent in float mode).
type number struct {
	Exact string  `json:"exact,omitempty"`
	Float float64 `json:"float"`
}

func num[T any](f field.Field[T], v T) number {
	n := number{Float: f.Float64(v)}
	if s, ok := f.Exact(v); ok {
		n.Exact = s
	}
	return n
}

// modelJSON describes the model and state of a result.
type modelJSON struct {
	Pairs      int    `json:"pairs,omitempty"`
	Unknown    *int   `json:"unknown,omitempty"`
	PairsMax   int    `json:"pairs_max,omitempty"`
	Singletons int    `json:"singletons"`
	Unseen     int    `json:"unseen_singletons"`
	Memory     int    `json:"memory"`
	Forget     string `json:"forget,omitempty"`
	Pass       string `json:"pass"`
	Choices    string `json:"choices"`
	Lead       *int   `json:"lead,omitempty"`
	Players    int    `json:"players,omitempty"`
	Policy     string `json:"policy,omitempty"`
	Opponent   string `json:"opponent,omitempty"`
	Arithmetic string `json:"arithmetic"`
}

func (q *solveQuery) modelJSON() modelJSON {
	m := modelJSON{
		Singletons: q.state.S, Unseen: q.state.F, Memory: q.model.Memory.Capacity, Pass: q.model.Pass.String(),
		Choices:    q.model.Choices.String(),
		Arithmetic: "exact",
	}
	if q.float {
		m.Arithmetic = "float64"
	}
	if !q.model.Memory.Perfect() {
		m.Forget = q.model.Memory.Forget.String()
	}
	if q.table {
		m.PairsMax = q.pairsMax
		if q.matchup.Policy.PlaysToWin() {
			m.Policy, m.Opponent = q.matchup.Policy.String(), q.matchup.Opponent.String()
		}
		return m
	}
	j := q.state.J
	lead := q.state.Lead
	m.Pairs, m.Unknown, m.Players, m.Lead = q.state.N, &j, q.matchup.Players, &lead
	m.Policy = q.matchup.Policy.String()
	if q.matchup.Players > 1 {
		m.Opponent = q.matchup.Opponent.String()
	}
	return m
}

type shareJSON struct {
	Share       float64 `json:"share"`
	Probability number  `json:"probability"`
}

type resultJSON struct {
	Model             modelJSON   `json:"model"`
	ExpectedPairs     *number     `json:"expected_pairs,omitempty"`
	ExpectedLead      *number     `json:"expected_lead,omitempty"`
	ExpectedBySeat    []number    `json:"expected_pairs_by_seat,omitempty"`
	ExpectedTurns     *number     `json:"expected_turns,omitempty"`
	ExpectedLucky     *number     `json:"expected_lucky,omitempty"`
	ScoreDistribution []shareJSON `json:"score_distribution,omitempty"`
	Win               *number     `json:"win,omitempty"`
	Draw              *number     `json:"draw,omitempty"`
	Loss              *number     `json:"loss,omitempty"`
	Score             *number     `json:"score,omitempty"`
}

// score is what the objective of the policies that play to win counts: P(win) + P(draw)/2.
func score[T any](f field.Field[T], o *exact.WDL[T]) T {
	return f.Add(o.Win, f.Div(o.Draw, f.FromInt(2)))
}

func ptr(n number) *number { return &n }

func writeResultJSON[T any](q *solveQuery, f field.Field[T], res exact.Result[T], wdl *exact.WDL[T], dist *exact.ScoreDistribution[T], w io.Writer) error {
	out := resultJSON{Model: q.modelJSON()}
	if res.Players == 1 {
		out.ExpectedTurns, out.ExpectedLucky = ptr(num(f, res.ExpectedTurns)), ptr(num(f, res.ExpectedLucky))
	} else {
		out.ExpectedPairs = ptr(num(f, res.ExpectedPairs))
		for _, v := range res.PairsBySeat {
			out.ExpectedBySeat = append(out.ExpectedBySeat, num(f, v))
		}
		if res.Players == 2 {
			out.ExpectedLead = ptr(num(f, res.ExpectedLead))
		}
	}
	if dist != nil {
		for i, p := range dist.Prob {
			out.ScoreDistribution = append(out.ScoreDistribution, shareJSON{Share: float64(i) / 2, Probability: num(f, p)})
		}
	}
	if wdl != nil {
		out.Win, out.Draw, out.Loss = ptr(num(f, wdl.Win)), ptr(num(f, wdl.Draw)), ptr(num(f, wdl.Loss))
		out.Score = ptr(num(f, score(f, wdl)))
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}

// choicesNote describes a restricted choice set for text output ("" for the full game).
func choicesNote(s rules.ChoiceSet) string {
	if s.Full() {
		return ""
	}
	return ", choices {" + strings.ReplaceAll(s.String(), ",", ", ") + "}"
}

// human formats a value for people: a decimal and the exact fraction, whole, or where it is longer
// than maxShownFraction a pointer to --json, which prints every fraction whole.
func human[T any](f field.Field[T], v T) string {
	s := strconv.FormatFloat(f.Float64(v), 'f', 6, 64)
	e, ok := f.Exact(v)
	switch {
	case !ok || e == s:
	case len(e) <= maxShownFraction:
		s += " (" + e + ")"
	default:
		s += fmt.Sprintf(" (exactly a fraction of %d characters: see --json)", len(e))
	}
	return s
}

// maxShownFraction is the longest exact fraction the text output prints whole.
const maxShownFraction = 200

func writeResultText[T any](q *solveQuery, f field.Field[T], res exact.Result[T], wdl *exact.WDL[T], dist *exact.ScoreDistribution[T], w io.Writer) error {
	fmt.Fprintf(w, "%s, %s memory, pass %s%s, %s arithmetic\n", q.state, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices), q.modelJSON().Arithmetic)
	mu := q.matchup
	if mu.Players == 1 {
		fmt.Fprintf(w, "solitaire, policy %s\n", mu.Policy)
		fmt.Fprintf(w, "expected turns:         %s\n", human(f, res.ExpectedTurns))
		fmt.Fprintf(w, "expected lucky matches: %s\n", human(f, res.ExpectedLucky))
		return nil
	}
	fmt.Fprintf(w, "%d players: seat 0 (to move) plays %s, the others %s\n", mu.Players, mu.Policy, mu.Opponent)
	for i, v := range res.PairsBySeat {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", i, human(f, v))
	}
	if mu.Players == 2 {
		fmt.Fprintf(w, "expected lead, seat 0:  %s\n", human(f, res.ExpectedLead))
	}
	if wdl != nil {
		fmt.Fprintf(w, "seat 0 wins %s, draws %s, loses %s\n", human(f, wdl.Win), human(f, wdl.Draw), human(f, wdl.Loss))
		fmt.Fprintf(w, "seat 0's score (a win 1, a draw 1/2): %s\n", human(f, score(f, wdl)))
	}
	if dist != nil {
		for i, p := range dist.Prob {
			if f.Float64(p) != 0 {
				fmt.Fprintf(w, "  share %4.1f: %s\n", float64(i)/2, human(f, p))
			}
		}
	}
	return nil
}

type tableCellJSON struct {
	Pairs   int      `json:"pairs"`
	Unknown int      `json:"unknown"`
	Unseen  *int     `json:"unseen_singletons,omitempty"`
	Code    int      `json:"code"`
	Best    []string `json:"best"`
	Value   number   `json:"value"`
}

type winCellJSON struct {
	Pairs   int      `json:"pairs"`
	Unknown int      `json:"unknown"`
	Unseen  *int     `json:"unseen_singletons,omitempty"`
	Lead    int      `json:"lead"`
	Choice  string   `json:"choice"`
	Best    []string `json:"best"`
	Value   number   `json:"value"`
}

// choiceLetters abbreviates the choices in the text of a win table.
var choiceLetters = [rules.NumChoices]byte{rules.Daring: 'D', rules.Safe: 'S', rules.KnownFirst: 'K', rules.Pass: 'P'}

func runQuery[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.table && q.matchup.Policy.PlaysToWin() {
		return writeWinTable(ctx, q, f, w)
	}
	if q.table {
		return writeTable(ctx, q, f, w)
	}
	res, err := exact.Evaluate(ctx, f, q.model, q.matchup, q.state)
	if err != nil {
		return err
	}
	var dist *exact.ScoreDistribution[T]
	var wdl *exact.WDL[T]
	switch {
	case q.dist:
		d, err := exact.Distribution(ctx, f, q.model, q.matchup, q.state)
		if err != nil {
			return err
		}
		dist, wdl = &d, &exact.WDL[T]{Win: d.Win, Draw: d.Draw, Loss: d.Loss}
	case q.matchup.Policy.PlaysToWin() || q.matchup.Opponent.PlaysToWin():
		// A matchup that plays to win is judged by its outcomes, which cost far less than the
		// whole distribution.
		both, err := exact.WinDrawLoss(ctx, f, q.model, q.matchup, q.state)
		if err != nil {
			return err
		}
		wdl = &both[0]
	}
	if q.json {
		return writeResultJSON(q, f, res, wdl, dist, w)
	}
	return writeResultText(q, f, res, wdl, dist, w)
}
