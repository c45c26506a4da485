package review

import (
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
)

// SeatsJSON is the form of the review of a game of three or more seats memsim review --json
// prints: the standard review's head, the seats, every seat's value at the start and a decision
// per turn, in expected pairs only.
type SeatsJSON struct {
	GameJSON
	Seats int `json:"seats"`
	// Values is true: the optimum of every seat for itself values the game (a game it does not
	// has Values false and a note instead). Win is false, and WinNote says why.
	Values bool `json:"values"`
	// Memory is the shared memory the game is judged by: "perfect", or "lru(3)" and so on.
	Memory     string `json:"memory"`
	Arithmetic string `json:"arithmetic"`
	Win        bool   `json:"win"`
	WinNote    string `json:"win_note"`
	// Start is every seat's expected pairs at the start, in seat order (absent for a game whose
	// first turn is not a decision).
	Start     []answer.Number     `json:"start,omitempty"`
	Decisions []SeatsDecisionJSON `json:"decisions"`
	Totals    []SeatsTotalJSON    `json:"totals"`
	Scores    []float64           `json:"scores"`
	Finished  bool                `json:"finished"`
	Stalemate bool                `json:"stalemate"`
}

// SeatsDecisionJSON is a turn's decision at three or more seats: the state and pass streak,
// every legal choice's value to the mover, the choices the turn's cards fit and the one credited
// ("" when none: outside the model), the best choice, the cost, the luck of the turn's cards and
// every seat's expected pairs from the turn on, in seat order.
type SeatsDecisionJSON struct {
	Turn    int               `json:"turn"`
	Seat    int               `json:"seat"`
	Move    int               `json:"move"`
	State   StateJSON         `json:"state"`
	Passes  int               `json:"passes"`
	Options []SeatsOptionJSON `json:"options"`
	Made    []string          `json:"made"`
	Chosen  string            `json:"chosen"`
	Best    string            `json:"best"`
	Cost    answer.Number     `json:"cost"`
	Luck    answer.Number     `json:"luck"`
	BySeat  []answer.Number   `json:"by_seat"`
}

// SeatsOptionJSON is a choice and the mover's expected pairs from the turn on.
type SeatsOptionJSON struct {
	Choice string        `json:"choice"`
	Pairs  answer.Number `json:"pairs"`
}

// SeatsTotalJSON sums up a seat: its judged decisions, those at the best value, the pairs its
// choices lost and the luck of its turns' cards.
type SeatsTotalJSON struct {
	Name      string        `json:"name"`
	Decisions int           `json:"decisions"`
	Best      int           `json:"best"`
	Lost      answer.Number `json:"lost"`
	Luck      answer.Number `json:"luck"`
}

// SeatsNoWin says why a review of three or more seats has no win scores.
const SeatsNoWin = "no win scores at 3 or more seats: the review values expected pairs, every seat maximising its own"

// JSON returns the review's JSON form in field f; game is the game's number in its record, from 1.
func (r *SeatsReview[T]) JSON(f field.Field[T], game int) SeatsJSON {
	g := r.Game
	num := func(v T) answer.Number { return answer.NumberOf(f, v) }
	out := SeatsJSON{GameJSON: gameJSON(game, g.Rules), Seats: g.Rules.Seats, Values: true, Memory: r.Model.Memory.String(), Arithmetic: answer.Arithmetic(f),
		WinNote: SeatsNoWin, Decisions: []SeatsDecisionJSON{}, Scores: g.Result.Scores, Finished: g.Result.Over,
		Stalemate: g.Result.Stalemate}
	for _, v := range r.Start {
		out.Start = append(out.Start, num(v))
	}
	for _, s := range r.Seats {
		out.Players = append(out.Players, s.Name)
		out.Totals = append(out.Totals, SeatsTotalJSON{Name: s.Name, Decisions: s.Decisions, Best: s.Best, Lost: num(s.Lost), Luck: num(s.Luck)})
	}
	for _, d := range r.Decisions {
		dj := SeatsDecisionJSON{Turn: d.Turn, Seat: d.Seat, Move: d.Move, Passes: d.Passes,
			State: StateJSON{N: d.State.N, J: d.State.J, S: d.State.S, F: d.State.F, AfterPass: d.Passes > 0},
			Made:  []string{}, Best: d.Options[d.Best].Choice.String(), Cost: num(d.Cost), Luck: num(d.Luck)}
		if d.Chosen >= 0 {
			dj.Chosen = d.Options[d.Chosen].Choice.String()
		}
		for _, c := range d.Made {
			dj.Made = append(dj.Made, c.String())
		}
		for _, o := range d.Options {
			dj.Options = append(dj.Options, SeatsOptionJSON{Choice: o.Choice.String(), Pairs: num(o.Pairs)})
		}
		for _, v := range d.BySeat {
			dj.BySeat = append(dj.BySeat, num(v))
		}
		out.Decisions = append(out.Decisions, dj)
	}
	return out
}
