package answer

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// ChoiceValues is the value of every legal choice of seat 0 in the state: the choice made now,
// then the lineup Policy (seat 0) and Opponent (the other seats) played afterwards
// (exact.ChoiceValues). Choices is the choice set the legal choices are drawn from; Best names
// every choice worth the most (the most expected pairs; with one player the fewest expected
// turns) and PolicyChoice the choice seat 0's policy makes. Win, for two players, values the
// choices to win; WinLeftOut says why it is absent when it is (its estimated cost).
type ChoiceValues struct {
	Choices      string        `json:"choices"`
	Policy       string        `json:"policy"`
	Opponent     string        `json:"opponent,omitempty"`
	Values       []ChoiceValue `json:"values"`
	Best         []string      `json:"best"`
	PolicyChoice string        `json:"policy_choice"`
	Win          *WinChoices   `json:"win,omitempty"`
	WinLeftOut   string        `json:"win_left_out,omitempty"`
}

// ChoiceValue is one legal choice's value: seat 0's expected pairs, its lead and every seat's
// pairs (two or more players), or the expected turns and lucky matches (one player; under a turn
// limit also the pairs taken within it). VsBest is the value minus the best choice's, in pairs
// (never positive) or in turns (never negative); under a turn limit in lead with two players and
// in pairs otherwise (never positive), as exact.ChoiceValue's Diff.
type ChoiceValue struct {
	Choice         string   `json:"choice"`
	ExpectedPairs  *Number  `json:"expected_pairs,omitempty"`
	ExpectedLead   *Number  `json:"expected_lead,omitempty"`
	ExpectedBySeat []Number `json:"expected_pairs_by_seat,omitempty"`
	ExpectedTurns  *Number  `json:"expected_turns,omitempty"`
	ExpectedLucky  *Number  `json:"expected_lucky,omitempty"`
	VsBest         Number   `json:"vs_best"`
	Best           bool     `json:"best"`
}

// WinChoices is the value to win of every legal choice of seat 0 at its lead so far Lead: the
// choice made now, then Policy and Opponent played afterwards (exact.WinChoiceValues). Best names
// every choice with the highest score, PolicyChoice the choice seat 0's policy makes.
type WinChoices struct {
	Lead         int              `json:"lead"`
	Policy       string           `json:"policy"`
	Opponent     string           `json:"opponent"`
	Values       []WinChoiceValue `json:"values"`
	Best         []string         `json:"best"`
	PolicyChoice string           `json:"policy_choice"`
}

// WinChoiceValue is one legal choice's probabilities that seat 0 wins, draws and loses, its score
// P(win) + P(draw)/2, and VsBest, the score minus the best choice's (never positive).
type WinChoiceValue struct {
	Choice string `json:"choice"`
	Win    Number `json:"win"`
	Draw   Number `json:"draw"`
	Loss   Number `json:"loss"`
	Score  Number `json:"score"`
	VsBest Number `json:"vs_best"`
	Best   bool   `json:"best"`
}

// Options says what SolveWith computes besides the lineup's value from the state.
type Options struct {
	// Distribution adds the score distribution (two or more players), as Solve's dist does, or
	// with one player the distribution of the number of turns up to MaxTurns turns
	// (exact.DefaultMaxTurns when 0).
	Distribution bool
	MaxTurns     int
	// Choices adds the value of every legal choice (Result.ChoiceValues).
	Choices bool
	// WinLineup, with Choices and two players, adds every choice's value to win with this lineup
	// played afterwards (ChoiceValues.Win); WinLeftOut, when WinLineup is nil, says why not.
	WinLineup  *exact.Lineup
	WinLeftOut string
	// First, when not nil, is seat 0's choice now: the state is valued with seat 0 making it,
	// then its policy afterwards. It does not go with Distribution.
	First *rules.Choice
	// AfterPass values the state just after a pass by the other seat: under a fluctuating
	// capacity and a pass rule, with the capacity drawn (SolveCapacity) only, two players.
	AfterPass bool
	// Streak values the state after Streak seats passed in a row just before the turn (0 to
	// players-1): under a fluctuating capacity and a pass rule, with the capacity drawn
	// (SolveCapacity) only, three or more players.
	Streak int
}

// WinLineupOf returns the lineup whose play afterwards values the choices to win for lineup mu
// (two players): mu itself when a seat of it plays to win, otherwise both seats win-optimal.
func WinLineupOf(mu exact.Lineup) exact.Lineup {
	if mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin() {
		return mu
	}
	return exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
}

// SolveWith computes lineup mu's values from state st in model m in the arithmetic f, as Solve
// does, with what o adds: every choice's value, and the value of the state when seat 0 makes a
// given choice now. The choices' values come from the sweep that values the state, and the win
// values of a lineup that plays to win from the sweep that values its choices to win, so that
// asking for the choices costs little more than the state's value.
func SolveWith[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, o Options) (*Result, error) {
	if o.First != nil && o.Distribution {
		return nil, fmt.Errorf("the score distribution is computed for the policies' own choices, not with a choice made now")
	}
	if o.AfterPass || o.Streak != 0 {
		return nil, fmt.Errorf("a state just after a pass is valued under a fluctuating capacity with the capacity drawn only")
	}
	if !o.Choices && o.First == nil {
		if o.Distribution && mu.Players == 1 {
			return solveTurns(ctx, f, m, mu, st, o.MaxTurns)
		}
		return Solve(ctx, f, m, mu, st, o.Distribution)
	}
	cs, err := exact.ChoiceValues(ctx, f, m, mu, st)
	if err != nil {
		return nil, err
	}
	value := cs.Value
	if o.First != nil {
		v, ok := cs.Of(*o.First)
		if !ok {
			return nil, fmt.Errorf("%s is not legal in %v", *o.First, st)
		}
		value = exact.Result[T]{State: st, Players: mu.Players, ExpectedPairs: v.Pairs, ExpectedLead: v.Lead,
			PairsBySeat: v.PairsBySeat, ExpectedTurns: v.Turns, ExpectedLucky: v.Lucky}
	}
	out := resultOf(f, m, mu, st, value)
	if o.First != nil {
		out.Model.First = o.First.String()
	}
	if o.Choices {
		out.ChoiceValues = choiceValuesOf(f, m, mu, cs)
	}
	var win *exact.WinChoices[T]
	if o.Choices && mu.Players == 2 && o.WinLineup != nil {
		wc, err := exact.WinChoiceValues(ctx, f, m, *o.WinLineup, st)
		if err != nil {
			return nil, err
		}
		win = &wc
		out.ChoiceValues.Win = winChoicesOf(f, *o.WinLineup, wc)
	} else if o.Choices && mu.Players == 2 {
		out.ChoiceValues.WinLeftOut = o.WinLeftOut
	}
	var wdl *exact.WDL[T]
	switch {
	case o.Distribution && mu.Players == 1:
		if out.TurnsDistribution, err = solitaireTurns(ctx, f, m, mu, st, o.MaxTurns); err != nil {
			return nil, err
		}
	case o.Distribution && mu.Players >= 3:
		d, err := exact.SeatsScoreDistribution(ctx, f, m, mu, st)
		if err != nil {
			return nil, err
		}
		out.SeatDistributions = seatSharesOf(f, d)
	case o.Distribution:
		d, err := exact.Distribution(ctx, f, m, mu, st)
		if err != nil {
			return nil, err
		}
		out.ScoreDistribution = sharesOf(f, d)
		wdl = &exact.WDL[T]{Win: d.Win, Draw: d.Draw, Loss: d.Loss}
	case mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin():
		if win == nil || *o.WinLineup != mu {
			wc, err := exact.WinChoiceValues(ctx, f, m, mu, st)
			if err != nil {
				return nil, err
			}
			win = &wc
		}
		p := win.Value
		if o.First != nil {
			v, _ := win.Of(*o.First)
			p = exact.WDL[T]{Win: v.Win, Draw: v.Draw, Loss: v.Loss}
		}
		wdl = &p
	}
	setWDL(out, f, wdl)
	return out, nil
}

// ChoiceValuesOf gives the choices' values cs of lineup mu in model m their JSON form: those of
// exact.ChoiceValues, or of exact.CopiesChoiceValues in the copies model.
func ChoiceValuesOf[T any](f field.Field[T], m exact.Model, mu exact.Lineup, cs exact.Choices[T]) *ChoiceValues {
	return choiceValuesOf(f, m, mu, cs)
}

// choiceValuesOf gives the choices' values cs of lineup mu in model m their JSON form.
func choiceValuesOf[T any](f field.Field[T], m exact.Model, mu exact.Lineup, cs exact.Choices[T]) *ChoiceValues {
	out := &ChoiceValues{Choices: m.Choices.String(), Policy: mu.Policy.String(), PolicyChoice: cs.PolicyChoice.String(),
		Best: names(cs.Best), Values: []ChoiceValue{}}
	if mu.Players > 1 {
		out.Opponent = mu.Opponent.String()
	}
	num := func(v T) *Number { n := NumberOf(f, v); return &n }
	for _, v := range cs.Values {
		row := ChoiceValue{Choice: v.Choice.String(), VsBest: NumberOf(f, v.Diff), Best: v.Best}
		if mu.Players == 1 {
			row.ExpectedTurns, row.ExpectedLucky = num(v.Turns), num(v.Lucky)
			if m.Variant.TurnLimit > 0 {
				row.ExpectedPairs = num(v.Pairs) // the pairs taken within the limit
			}
		} else {
			row.ExpectedPairs = num(v.Pairs)
			for _, p := range v.PairsBySeat {
				row.ExpectedBySeat = append(row.ExpectedBySeat, NumberOf(f, p))
			}
			if mu.Players == 2 {
				row.ExpectedLead = num(v.Lead)
			}
		}
		out.Values = append(out.Values, row)
	}
	return out
}

// winChoicesOf gives the choices' values to win wc, lineup mu played afterwards, their JSON form.
func winChoicesOf[T any](f field.Field[T], mu exact.Lineup, wc exact.WinChoices[T]) *WinChoices {
	out := &WinChoices{Lead: wc.State.Lead, Policy: mu.Policy.String(), Opponent: mu.Opponent.String(),
		Best: names(wc.Best), PolicyChoice: wc.PolicyChoice.String(), Values: []WinChoiceValue{}}
	for _, v := range wc.Values {
		out.Values = append(out.Values, WinChoiceValue{Choice: v.Choice.String(), Win: NumberOf(f, v.Win), Draw: NumberOf(f, v.Draw),
			Loss: NumberOf(f, v.Loss), Score: NumberOf(f, v.Score), VsBest: NumberOf(f, v.Diff), Best: v.Best})
	}
	return out
}

// names returns the choices' names.
func names(cs []rules.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}
