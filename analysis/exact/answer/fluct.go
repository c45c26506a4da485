package answer

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SolveCapacity is SolveWith under a fluctuating capacity (docs/models.md §4.4) with capacity c
// drawn for seat 0's turn in st, the state after the draw (exact.FluctChoiceValues): the lineup's
// value there, every legal choice's, and with o.First the value of making that choice now. Under
// the pass rules two-known and always o.AfterPass values the state just after a pass by the other
// seat (exact.FluctChoiceValuesAfterPass), and at three or more seats o.Streak the state after
// that many seats passed in a row (exact.FluctSeatsChoiceValues). When a seat plays to win (exact.FluctWinChoiceValues,
// exact.FluctWinChoiceValuesAfterPass), the win, draw and loss probabilities too, and the
// choices' values to win; otherwise the choices' values to win with o.WinLineup afterwards when it
// is given. The score distribution is not given after a draw (o.Distribution is refused).
func SolveCapacity[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, c int, o Options) (*Result, error) {
	if o.Distribution {
		return nil, fmt.Errorf("the score distribution is computed before the capacity is drawn, not with capacity %d drawn", c)
	}
	if o.Streak != 0 && mu.Players < 3 {
		return nil, fmt.Errorf("pass streak %d with %d players: the streak is of three or more seats (two players: AfterPass)", o.Streak, mu.Players)
	}
	toWin := mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin())
	var cs exact.Choices[T]
	var win *exact.WinChoices[T]
	winLineup := mu
	var err error
	winValues := exact.FluctWinChoiceValues[T]
	if o.AfterPass {
		winValues = exact.FluctWinChoiceValuesAfterPass[T]
	}
	if toWin {
		var wc exact.WinChoices[T]
		cs, wc, err = winValues(ctx, f, m, mu, st, c)
		win = &wc
	} else {
		values := exact.FluctChoiceValues[T]
		if o.AfterPass {
			values = exact.FluctChoiceValuesAfterPass[T]
		}
		if mu.Players >= 3 {
			cs, err = exact.FluctSeatsChoiceValues(ctx, f, m, mu, st, c, o.Streak)
		} else {
			cs, err = values(ctx, f, m, mu, st, c)
		}
		if err == nil && o.Choices && o.WinLineup != nil && mu.Players == 2 {
			var wc exact.WinChoices[T]
			_, wc, err = winValues(ctx, f, m, *o.WinLineup, st, c)
			win, winLineup = &wc, *o.WinLineup
		}
	}
	if err != nil {
		return nil, err
	}
	value := cs.Value
	if o.First != nil {
		v, ok := cs.Of(*o.First)
		if !ok {
			return nil, fmt.Errorf("%s is not legal in %v", *o.First, st)
		}
		value = exact.Result[T]{State: st, Players: mu.Players, ExpectedPairs: v.Pairs, ExpectedLead: v.Lead, PairsBySeat: v.PairsBySeat}
		if mu.Players == 1 {
			value = exact.Result[T]{State: st, Players: 1, ExpectedTurns: v.Turns, ExpectedLucky: v.Lucky}
		}
	}
	out := resultOf(f, m, mu, st, value)
	out.Model.Capacity, out.Model.AfterPass, out.Model.Streak = c, o.AfterPass, o.Streak
	if o.First != nil {
		out.Model.First = o.First.String()
	}
	if o.Choices {
		out.ChoiceValues = choiceValuesOf(f, m, mu, cs)
		if win != nil {
			out.ChoiceValues.Win = winChoicesOf(f, winLineup, *win)
		} else {
			out.ChoiceValues.WinLeftOut = o.WinLeftOut
		}
	}
	if toWin {
		p := win.Value
		if o.First != nil {
			v, _ := win.Of(*o.First)
			p = exact.WDL[T]{Win: v.Win, Draw: v.Draw, Loss: v.Loss}
		}
		setWDL(out, f, &p)
	}
	return out, nil
}
