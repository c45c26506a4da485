package answer

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SelfWin is the value of win-optimal at three or more seats (every seat maximising its own
// P(most pairs), a tie for the most shared; docs/models.md §4.7), or of another policy every seat
// plays, from one state, the seats having taken Standings pairs so far (seat 0, the mover,
// first). Every seat's score (P(most pairs)), its probabilities of ending alone with the most
// (Win) and tied for the most (Draw), and its expected pairs of those on the table. With
// Model.First they are the values of that choice made now.
type SelfWin struct {
	Model          Model    `json:"model"`
	Standings      []int    `json:"standings"`
	ScoreBySeat    []Number `json:"score_by_seat"`
	WinBySeat      []Number `json:"win_by_seat"`
	DrawBySeat     []Number `json:"draw_by_seat"`
	ExpectedBySeat []Number `json:"expected_pairs_by_seat"`
	// ChoiceValues, when asked for, values every legal choice of seat 0.
	ChoiceValues *SelfWinChoices `json:"choice_values,omitempty"`
	// SeatDistributions, when asked for, gives every seat's distribution of its share of the
	// pairs left, its Standings not counted (exact.SeatsScoreDistributionFrom), seat 0 first.
	SeatDistributions []SeatShares `json:"seat_distributions,omitempty"`
}

// SelfWinChoices values every legal choice of seat 0 made now, the policy played by every seat
// afterwards: Best names the choices with the highest score for seat 0, PolicyChoice the one the
// policy makes (win-optimal: the first best in the order daring, safe, known-first).
type SelfWinChoices struct {
	Choices      string          `json:"choices"`
	Values       []SelfWinChoice `json:"values"`
	Best         []string        `json:"best"`
	PolicyChoice string          `json:"policy_choice"`
}

// SelfWinChoice is one legal choice's value: every seat's score, seat 0 first, and seat 0's score
// minus the best choice's (never positive).
type SelfWinChoice struct {
	Choice      string   `json:"choice"`
	ScoreBySeat []Number `json:"score_by_seat"`
	VsBest      Number   `json:"vs_best"`
	Best        bool     `json:"best"`
}

// SolveSelfWin computes the values of lineup mu, mu.Players (3 or more) seats all playing one
// policy (exact.EvaluateStandings), from state st in model m, the seats having taken standings
// pairs so far (nil: none), in the arithmetic f: with first, the values of that choice made now;
// with choices, every legal choice's.
func SolveSelfWin[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, standings []int, first *rules.Choice, choices bool) (*SelfWin, error) {
	res, err := exact.EvaluateStandings(ctx, f, m, mu, st, standings)
	if err != nil {
		return nil, err
	}
	return selfWinOf(f, m, mu, res, first, choices)
}

// selfWinOf writes out the values res of lineup mu in model m: with first, the values of that
// choice made now; with choices, every legal choice's.
func selfWinOf[T any](f field.Field[T], m exact.Model, mu exact.Lineup, res exact.SelfWinResult[T], first *rules.Choice, choices bool) (*SelfWin, error) {
	st := res.State
	out := &SelfWin{Model: stateModel(f, m, mu, st), Standings: res.Standings}
	out.Model.Lead = nil
	vals := &res.SelfWinValues
	if first != nil {
		if !res.Legal[*first] || res.Choices[*first] == nil {
			return nil, fmt.Errorf("choice %s is not legal in %v", *first, st)
		}
		vals = res.Choices[*first]
		out.Model.First = first.String()
	}
	nums := func(v []T) []Number {
		out := make([]Number, len(v))
		for i, x := range v {
			out[i] = NumberOf(f, x)
		}
		return out
	}
	out.ScoreBySeat, out.WinBySeat, out.DrawBySeat, out.ExpectedBySeat = nums(vals.Score), nums(vals.Win), nums(vals.Draw), nums(vals.Pairs)
	if !choices {
		return out, nil
	}
	cv := &SelfWinChoices{Choices: m.Choices.String(), PolicyChoice: res.Choice.String()}
	best := res.Score[0]
	for _, v := range res.Choices {
		if v != nil && f.Cmp(v.Score[0], best) > 0 {
			best = v.Score[0]
		}
	}
	for _, c := range rules.Choices() {
		v := res.Choices[c]
		if v == nil {
			continue
		}
		d := f.Sub(v.Score[0], best)
		top := f.Cmp(d, f.FromInt(0)) == 0
		cv.Values = append(cv.Values, SelfWinChoice{Choice: c.String(), ScoreBySeat: nums(v.Score), VsBest: NumberOf(f, d), Best: top})
		if top {
			cv.Best = append(cv.Best, c.String())
		}
	}
	out.ChoiceValues = cv
	return out, nil
}
