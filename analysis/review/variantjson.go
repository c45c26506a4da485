package review

import (
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
)

// VariantJSON is the form of the review of a game under a rule variant memsim review --json
// prints: the standard review's fields that apply, the variant, and a decision per turn.
type VariantJSON struct {
	GameJSON
	Variant string `json:"variant"`
	// Values is true: the variant's exact model values the game (a game it does not has Values
	// false and a note instead).
	Values     bool   `json:"values"`
	Arithmetic string `json:"arithmetic"`
	Win        bool   `json:"win"`
	// Start is seat 0's value at the start (absent for a game whose first turn is not a
	// decision: one with no move).
	Start     *ValueJSON         `json:"start,omitempty"`
	Decisions []TurnDecisionJSON `json:"decisions"`
	Seats     []SeatJSON         `json:"seats"`
	// Evaluation is seat 0's value at each decision, the start first, and its result when the
	// game is over (VariantReview.Through).
	Evaluation []ValueJSON `json:"evaluation"`
	Scores     []float64   `json:"scores"`
	Finished   bool        `json:"finished"`
	TurnLimit  bool        `json:"turn_limited"`
}

// TurnDecisionJSON is a turn's decision: the state (with the turns left under a limit, and the
// state of faces with copies), every legal choice's value, the choices the turn's cards fit and
// the one credited ("" when none: outside the model), the optimum's choice, the costs and the
// luck of the turn's cards.
type TurnDecisionJSON struct {
	Turn      int                `json:"turn"`
	Seat      int                `json:"seat"`
	Move      int                `json:"move"`
	State     StateJSON          `json:"state"`
	TurnsLeft int                `json:"turns_left,omitempty"`
	Faces     string             `json:"faces,omitempty"`
	Options   []ChoiceOptionJSON `json:"options"`
	Made      []string           `json:"made"`
	Chosen    string             `json:"chosen"`
	Best      string             `json:"best"`
	BestWin   string             `json:"best_win,omitempty"`
	Cost      ValueJSON          `json:"cost"`
	Luck      ValueJSON          `json:"luck"`
}

// ChoiceOptionJSON is a choice's value: the mover's expected pairs from the turn on, its lead,
// and its win score (absent without win values).
type ChoiceOptionJSON struct {
	Choice string        `json:"choice"`
	Lead   answer.Number `json:"lead"`
	ValueJSON
}

// JSON returns the review's JSON form in field f; game is the game's number in its record, from 1.
func (r *VariantReview[T]) JSON(f field.Field[T], game int) VariantJSON {
	val := func(p, w T) ValueJSON { return valueJSON(f, r.Win, p, w) }
	g := r.Game
	out := VariantJSON{GameJSON: gameJSON(game, g.Rules), Variant: g.Rules.Variant.String(), Values: true, Arithmetic: answer.Arithmetic(f),
		Win: r.Win, Decisions: []TurnDecisionJSON{}, Scores: g.Result.Scores, Finished: g.Result.Over, TurnLimit: g.Result.Limited}
	for _, s := range r.Seats {
		out.Players = append(out.Players, s.Name)
		out.Seats = append(out.Seats, SeatJSON{Name: s.Name, Decisions: s.Decisions, Best: s.Best, BestWin: s.BestWin,
			Lost: val(s.LostPairs, s.LostWin), Luck: val(s.LuckPairs, s.LuckWin)})
	}
	if start, ok := r.Start(); ok {
		v := val(start.Pairs, start.Win)
		out.Start = &v
	}
	out.Evaluation = []ValueJSON{}
	for _, p := range r.Through {
		out.Evaluation = append(out.Evaluation, val(p.Pairs, p.Win))
	}
	for _, d := range r.Decisions {
		dj := TurnDecisionJSON{Turn: d.Turn, Seat: d.Seat, Move: d.Move, TurnsLeft: d.TurnsLeft, Faces: d.Faces,
			State: StateJSON{N: d.State.N, J: d.State.J, S: d.State.S, F: d.State.F, Lead: d.State.Lead, AfterPass: d.AfterPass},
			Made:  []string{}, Best: d.Options[d.Best].Choice.String(), Cost: val(d.CostPairs, d.CostWin),
			Luck: val(d.LuckPairs, d.LuckWin)}
		if r.Win {
			dj.BestWin = d.Options[d.BestWin].Choice.String()
		}
		if d.Chosen >= 0 {
			dj.Chosen = d.Options[d.Chosen].Choice.String()
		}
		for _, c := range d.Made {
			dj.Made = append(dj.Made, c.String())
		}
		for _, o := range d.Options {
			dj.Options = append(dj.Options, ChoiceOptionJSON{Choice: o.Choice.String(), Lead: answer.NumberOf(f, o.Lead),
				ValueJSON: val(o.Pairs, o.Win)})
		}
		out.Decisions = append(out.Decisions, dj)
	}
	return out
}
