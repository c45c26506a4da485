package review

import (
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/record"
)

// GameJSON is the head of a review's JSON form: which game of its record, who played, and the
// rules of the standard game it was played under.
type GameJSON struct {
	// Game is the game's number in its record, from 1.
	Game       int      `json:"game"`
	Players    []string `json:"players"`
	Pairs      int      `json:"pairs"`
	Singletons int      `json:"singletons"`
	Pass       string   `json:"pass"`
	Choices    string   `json:"choices"`
}

// gameJSON is the head of the review of game number game of its record, played under rules.
func gameJSON(game int, rules record.Rules) GameJSON {
	return GameJSON{Game: game, Pairs: rules.Pairs, Singletons: rules.Singletons, Pass: rules.Pass.String(),
		Choices: rules.Choices.String()}
}

// valueJSON is a value in both measures in field f; without win values the win score is absent.
func valueJSON[T any](f field.Field[T], win bool, pairs, winScore T) ValueJSON {
	j := ValueJSON{Pairs: answer.NumberOf(f, pairs)}
	if win {
		n := answer.NumberOf(f, winScore)
		j.Win = &n
	}
	return j
}

// JSON is the form of a review memsim review --json prints, one object per game.
type JSON struct {
	GameJSON
	// Arithmetic is "exact" or "float64"; Win says whether win scores are given.
	Arithmetic string `json:"arithmetic"`
	Win        bool   `json:"win"`
	// Start is seat 0's value at the start.
	Start     ValueJSON      `json:"start"`
	Decisions []DecisionJSON `json:"decisions"`
	Seats     []SeatJSON     `json:"seats"`
	// Evaluation is seat 0's value after each decision, the start first.
	Evaluation []ValueJSON `json:"evaluation"`
	// Scores are the game's scores; Finished says whether it was played to its end.
	Scores   []float64 `json:"scores"`
	Finished bool      `json:"finished"`
}

// ValueJSON is a value in both measures: expected pairs and win score (absent without win
// values).
type ValueJSON struct {
	Pairs answer.Number  `json:"pairs"`
	Win   *answer.Number `json:"win,omitempty"`
}

// StateJSON is the table at the start of a turn.
type StateJSON struct {
	N         int  `json:"n"`
	J         int  `json:"j"`
	S         int  `json:"s"`
	F         int  `json:"f"`
	Lead      int  `json:"lead"`
	Whole     int  `json:"whole"`
	AfterPass bool `json:"after_pass"`
}

// OptionJSON is an option of a decision.
type OptionJSON struct {
	Move  string `json:"move"`
	Model bool   `json:"model"`
	ValueJSON
}

// DecisionJSON is a decision.
type DecisionJSON struct {
	Turn     int          `json:"turn"`
	Seat     int          `json:"seat"`
	Card     int          `json:"card"`
	Move     int          `json:"move"`
	State    StateJSON    `json:"state"`
	Revealed string       `json:"revealed,omitempty"`
	Options  []OptionJSON `json:"options"`
	Chosen   string       `json:"chosen"`
	Best     ValueJSON    `json:"best"`
	Cost     ValueJSON    `json:"cost"`
	Luck     ValueJSON    `json:"luck"`
}

// SeatJSON sums up a seat.
type SeatJSON struct {
	Name      string    `json:"name"`
	Decisions int       `json:"decisions"`
	Best      int       `json:"best"`
	BestWin   int       `json:"best_win"`
	Lost      ValueJSON `json:"lost"`
	Luck      ValueJSON `json:"luck"`
}

// JSON returns the review's JSON form; game is the game's number in its record, from 1.
func (r *Review[T]) JSON(v *Values[T], game int) JSON {
	f := v.f
	val := func(p, w T) ValueJSON { return valueJSON(f, r.Win, p, w) }
	g := r.Game
	out := JSON{GameJSON: gameJSON(game, g.Rules), Arithmetic: answer.Arithmetic(f), Win: r.Win,
		Start: val(r.StartPairs, r.StartWin), Scores: g.Result.Scores, Finished: g.Result.Over}
	for i := range r.Seats {
		out.Players = append(out.Players, r.Seats[i].Name)
	}
	for _, d := range r.Decisions {
		dj := DecisionJSON{Turn: d.Turn, Seat: d.Seat, Card: d.Card, Move: d.Move,
			State:    StateJSON{N: d.State.N, J: d.State.J, S: d.State.S, F: d.State.F, Lead: d.State.Lead, Whole: d.Whole, AfterPass: d.AfterPass},
			Revealed: d.Revealed, Chosen: d.Options[d.Chosen].Move,
			Best: val(d.BestPairs, d.BestWin), Cost: val(d.CostPairs, d.CostWin), Luck: val(d.LuckPairs, d.LuckWin)}
		for _, o := range d.Options {
			dj.Options = append(dj.Options, OptionJSON{Move: o.Move, Model: o.Model, ValueJSON: val(o.Pairs, o.Win)})
		}
		out.Decisions = append(out.Decisions, dj)
	}
	for _, s := range r.Seats {
		out.Seats = append(out.Seats, SeatJSON{Name: s.Name, Decisions: s.Decisions, Best: s.Best, BestWin: s.BestWin,
			Lost: val(s.LostPairs, s.LostWin), Luck: val(s.LuckPairs, s.LuckWin)})
	}
	for _, p := range r.Through {
		out.Evaluation = append(out.Evaluation, val(p.pairs, p.win))
	}
	return out
}
