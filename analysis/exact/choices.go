package exact

import (
	"context"
	"errors"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The value of every choice in one state: what a player asks at a decision ("what should I play
// here?"). Each legal choice of the mover (seat 0) is valued by a one-step lookahead over the
// values of the lineup: the choice made now, then every seat playing its policy afterwards (seat
// 0 its Policy or Table, the others their Opponent or OpponentTable), also should the game come
// back to the same state. One call sweeps the states up to the state's pairs once, as Evaluate
// does, and stops at the state; it keeps nothing between calls.

// onlyFrom restricts the sweep w to what the values of st depend on: with perfect memory no
// turn makes a pair unknown again, so the states with more unknown pairs than st are left out;
// and a lead sweep computes, with n pairs left, only the leads a game from st reaches, |d| <=
// |st.Lead| + st.N - n (a turn that takes k pairs moves the lead by at most k). Set before run.
func (w *sweep[T]) onlyFrom(st rules.State) {
	w.from = &st
}

// isFrom reports whether st is the one state whose values the sweep is asked for (onlyFrom): the
// exact optimal sweep keeps every legal choice's lead there (fastOptimal), as a strategy table
// does everywhere.
func (w *sweep[T]) isFrom(st rules.State) bool {
	return w.from != nil && w.from.Counts() == st
}

// jMax returns the largest j of the states with n pairs the sweep computes.
func (w *sweep[T]) jMax(n int) int {
	if w.from == nil || !w.m.Memory.Perfect() {
		return n
	}
	return min(n, w.from.J)
}

// reach returns the largest |d| of the leads the lead sweep computes in states with n pairs.
func (l *leadSweep[T]) reach(n int) int {
	if f := l.w.from; f != nil {
		return min(l.D, abs(f.Lead)+f.N-n)
	}
	return l.D
}

// ChoiceValue is what one choice of the mover is worth in a state: the choice made now, then the
// lineup's policies afterwards.
type ChoiceValue[T any] struct {
	Choice rules.Choice
	// Pairs is seat 0's expected pairs of those left and PairsBySeat every seat's, seat 0's first
	// (two or more players); Lead is seat 0's expected pairs minus seat 1's (two players).
	Pairs, Lead T
	PairsBySeat []T
	// Turns and Lucky are the expected turns and lucky matches (one player; under a turn limit
	// Pairs is then the expected pairs taken within it).
	Turns, Lucky T
	// Diff is the choice's value minus the best choice's: in expected pairs, never positive, or
	// with one player in expected turns, never negative (fewer turns are better). Under a turn
	// limit it is never positive: in expected lead with two players, in expected pairs otherwise.
	Diff T
	// Best says whether no choice is worth more.
	Best bool
}

// Choices is the value of every legal choice of the mover in one state.
type Choices[T any] struct {
	State rules.State
	// Value is the lineup's own value from State, as Evaluate gives it.
	Value Result[T]
	// PolicyChoice is the choice seat 0's policy makes in State (after no pass).
	PolicyChoice rules.Choice
	// Values has an entry for every legal choice, in the order daring, safe, known-first, pass.
	Values []ChoiceValue[T]
	// Best lists the choices worth the most to the mover: the most expected pairs or, with one
	// player, the fewest expected turns.
	Best []rules.Choice
}

// Of returns the value of choice c, and whether c is legal in the state.
func (cs Choices[T]) Of(c rules.Choice) (ChoiceValue[T], bool) {
	for _, v := range cs.Values {
		if v.Choice == c {
			return v, true
		}
	}
	return ChoiceValue[T]{}, false
}

// ChoiceValues returns the value of every legal choice of the mover (seat 0) in state st of model
// m: the choice made now, then lineup mu played afterwards by every seat, in expected pairs (with
// one player, in expected turns and lucky matches), and the lineup's own value from st. It takes
// every lineup Evaluate takes. The state must hold at least one pair. The work is that of
// Evaluate from st: for a game of n pairs, one sweep of the states with at most n pairs, none of
// them kept, so that a program asking at every decision of a game calls it once per decision.
//
// Under a turn limit the limit is the turns left in st (docs/models.md §4.18), and the best
// choices are those the optimum makes: with two players the largest expected lead (the two seats'
// pairs need not add up to those on the table), with one the most pairs taken within the limit
// and, among those, the fewest turns.
func ChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Choices[T], error) {
	var out Choices[T]
	if st.N < 1 {
		return out, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	if IsHUSingles(m) {
		return husChoiceValues(ctx, f, m, mu, st) // husingles.go
	}
	if m.Variant.TurnLimit > 0 {
		return limitChoiceValues(ctx, f, m, mu, st)
	}
	w, err := evaluateSweep(f, m, mu, st)
	if err != nil {
		return out, err
	}
	w.onlyFrom(st) // in st, every legal choice's lead, not only the best (sweep.isFrom)
	err = w.run(ctx, st.N, func(s rules.State) error {
		if s != st.Counts() {
			return nil
		}
		out = w.choices(st)
		return errFound
	})
	if err == nil {
		return out, fmt.Errorf("%v: not reached by the sweep", st)
	}
	if !errors.Is(err, errFound) {
		return out, err
	}
	return out, nil
}

// choices reads the choices' values in st off an evaluation sweep that has just computed st (its
// outcomes are the current ones).
func (w *sweep[T]) choices(st rules.State) Choices[T] {
	f := w.f
	out := Choices[T]{State: st, Value: w.result(st), PolicyChoice: w.policyChoice(st)}
	n := f.FromInt(int64(st.N))
	for _, c := range rules.Choices() {
		if !w.legal[c] {
			continue
		}
		v := ChoiceValue[T]{Choice: c}
		switch {
		case w.mu.Players == 1:
			v.Turns, v.Lucky = w.soloChoiceValue(st, c)
		case w.mu.Players > 2 && c == rules.Pass:
			v.PairsBySeat = w.passChoiceValue(st)
			v.Pairs = v.PairsBySeat[0]
		case w.mu.Players > 2 && w.needSelf && !w.needMulti:
			v.PairsBySeat = w.selfChoiceValue(st, c)
			v.Pairs = v.PairsBySeat[0]
		case w.mu.Players > 2:
			v.PairsBySeat = w.multiChoiceValue(st, c)
			v.Pairs = v.PairsBySeat[0]
		default:
			v.Lead = w.pairChoiceLead(st, c)
			v.Pairs = pairsFromLead(f, n, v.Lead)
			v.PairsBySeat = []T{v.Pairs, f.Sub(n, v.Pairs)}
		}
		out.Values = append(out.Values, v)
	}
	markBestUnlimited(f, &out, w.mu.Players)
	return out
}

// policyChoice returns seat 0's choice in the last state st, after no pass.
func (w *sweep[T]) policyChoice(st rules.State) rules.Choice {
	switch {
	case w.lead != nil:
		return w.lead.at(st).ch[0][0][w.lead.li(st.Lead)]
	case w.mu.Players == 1 && w.pol[0] == rules.PolicyOptimal:
		return w.soloChoice
	}
	return w.seatChoice(0, st)
}

// pairChoiceLead returns seat 0's expected lead in the last state st of a two-player sweep after
// legal choice c, the lineup played afterwards.
func (w *sweep[T]) pairChoiceLead(st rules.State, c rules.Choice) T {
	f := w.f
	if l := w.lead; l != nil {
		d := st.Lead
		here := l.at(st)
		if c == rules.Pass {
			return f.Sub(w.zero, l.afterPass(st, func(c *leadCell[T]) T { return c.lead[1][1][l.li(-d)] }))
		}
		a, b := l.leadGroupSum(st, [2]int{d, -d})(0, c)
		return f.Sub(a, f.Mul(b, here.lead[1][0][l.li(-d)]))
	}
	if isSelfPlay(w.mu) {
		n := f.FromInt(int64(st.N))
		return f.Sub(f.Mul(w.ints[2], w.choicePairs(st, c, w.pairsAt(st))), n)
	}
	own := func(o Outcome) T { return w.at(o.Next).lead[0] }
	other := func(o Outcome) T { return w.at(o.Next).lead[1] }
	if c == rules.Pass && w.decayPasses() {
		return w.decayPassLead()
	}
	if c == rules.Pass {
		// The other seat answers in the same state after a pass: its value there, solved again
		// (the sweep keeps the values after no pass only).
		sum := func(role int, ch rules.Choice) (T, T) {
			if role == 0 {
				return w.leadSum(st, ch, own, other)
			}
			return w.leadSum(st, ch, other, own)
		}
		x := twoSeat(w, w.scalarSpace(), w.zero, [2]T{w.zero, w.zero}, w.pairChoices(st, w.brChoice), sum)
		return f.Sub(w.zero, x[pairNode(1, 1)])
	}
	a, b := w.leadSum(st, c, own, other)
	return f.Sub(a, f.Mul(b, w.at(st).lead[1]))
}

// multiChoiceValue returns every seat's expected pairs in the last state st of a sweep of more
// than two players after seat 0's legal choice c, the lineup played afterwards.
func (w *sweep[T]) multiChoiceValue(st rules.State, c rules.Choice) []T {
	vec := w.zeros(w.mu.Players)
	for i, o := range w.outs[c] {
		pr := w.probs[c][i]
		succ, mover, gain := w.at(o.Next).seats[1], 1, o.NextGain
		switch {
		case selfLoop(o, st):
			succ = w.at(st).seats[1]
		case o.Continue:
			succ, mover, gain = w.at(o.Next).seats[0], 0, o.MoverGain
		}
		w.addSeats(vec, pr, succ, mover, gain)
	}
	return vec
}

// soloChoiceValue returns the expected turns and lucky matches in the last state st of a
// solitaire sweep after legal choice c, the policy played afterwards.
func (w *sweep[T]) soloChoiceValue(st rules.State, c rules.Choice) (turns, lucky T) {
	f := w.f
	turns, lucky = w.zero, w.zero
	for i, o := range w.outs[c] {
		pr := w.probs[c][i]
		// A pair left fully known costs the next turn, which takes it.
		turns = f.Add(turns, f.Mul(pr, w.ints[1+o.NextGain]))
		if o.Event == EventLucky {
			lucky = f.Add(lucky, pr)
		}
		next := w.at(o.Next)
		if selfLoop(o, st) {
			next = w.at(st)
		}
		turns = f.Add(turns, f.Mul(pr, next.solo[0]))
		lucky = f.Add(lucky, f.Mul(pr, next.solo[1]))
	}
	return turns, lucky
}

// WinChoiceValue is what one choice of the mover is worth to win: the choice made now, then the
// lineup's policies afterwards, at the mover's lead so far.
type WinChoiceValue[T any] struct {
	Choice rules.Choice
	// Win, Draw and Loss are the probabilities that the mover ends the game ahead, level or
	// behind; Score is Win + Draw/2.
	Win, Draw, Loss, Score T
	// Diff is Score minus the best choice's, never positive.
	Diff T
	// Best says whether no choice has a higher Score.
	Best bool
}

// WinChoices is the value to win of every legal choice of the mover in one state at a lead.
type WinChoices[T any] struct {
	// State is the state, with the mover's lead so far.
	State rules.State
	// Value is the lineup's own probabilities from State: WinDrawLoss's first.
	Value WDL[T]
	// PolicyChoice is the choice seat 0's policy makes in State (after no pass).
	PolicyChoice rules.Choice
	// Values has an entry for every legal choice, in the order daring, safe, known-first, pass.
	Values []WinChoiceValue[T]
	// Best lists the choices with the highest Score.
	Best []rules.Choice
}

// Of returns the value of choice c, and whether c is legal in the state.
func (cs WinChoices[T]) Of(c rules.Choice) (WinChoiceValue[T], bool) {
	for _, v := range cs.Values {
		if v.Choice == c {
			return v, true
		}
	}
	return WinChoiceValue[T]{}, false
}

// markBest sets every choice's difference from the best score and lists the best choices.
func (out *WinChoices[T]) markBest(f field.Field[T]) {
	best := out.Values[0].Score
	for _, v := range out.Values[1:] {
		if f.Cmp(v.Score, best) > 0 {
			best = v.Score
		}
	}
	for i := range out.Values {
		v := &out.Values[i]
		v.Diff = f.Sub(v.Score, best)
		if v.Best = f.Cmp(v.Score, best) == 0; v.Best {
			out.Best = append(out.Best, v.Choice)
		}
	}
}

// WinChoiceValues returns, for every legal choice of the mover (seat 0) in state st of model m at
// its lead so far st.Lead, the probabilities that it wins, draws and loses and its score
// P(win) + P(draw)/2 when it makes the choice now and the two seats play lineup mu afterwards
// (two players; a lineup without best-response, whose reply in pairs the win sweep does not
// make: win-best-response is the reply that plays to win). The best choices by score are those
// of a policy that plays to win: win-optimal's when both seats play win-optimal. The state must
// hold at least one pair. The work is that of WinDrawLoss from st.
func WinChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (WinChoices[T], error) {
	var out WinChoices[T]
	switch {
	case mu.Players != 2:
		return out, fmt.Errorf("players %d: win, draw and loss are computed for 2 players", mu.Players)
	case mu.hasBestResponse():
		return out, fmt.Errorf("policy best-response: the values to win of the choices are computed with the policies that play to win (win-best-response) or follow a table")
	case st.N < 1:
		return out, fmt.Errorf("%v: no pair left, no choice to make", st)
	case m.Memory.Fluctuation > 0:
		return out, fmt.Errorf("memory %s: the choices' values to win depend on the capacity drawn for the turn (FluctWinChoiceValues gives them after the draw)", m.Memory)
	}
	if m.Variant.TurnLimit > 0 {
		return limitWinChoiceValues(ctx, f, m, mu, st)
	}
	w, err := winDrawLossSweep(f, m, mu, st)
	if err != nil {
		return out, err
	}
	w.onlyFrom(st)
	err = w.run(ctx, st.N, func(s rules.State) error {
		if s != st.Counts() {
			return nil
		}
		out = w.winChoices(st)
		return errFound
	})
	if err == nil {
		return out, fmt.Errorf("%v: not reached by the sweep", st)
	}
	if !errors.Is(err, errFound) {
		return out, err
	}
	return out, nil
}

// winChoices reads the choices' values to win in st off a win, draw and loss sweep that has just
// computed st.
func (w *sweep[T]) winChoices(st rules.State) WinChoices[T] {
	f, l := w.f, w.lead
	d := st.Lead
	here := l.at(st)
	two := f.FromInt(2)
	wdl := func(x []T) WDL[T] {
		rest := f.Sub(w.one, x[1])
		return WDL[T]{Win: f.Div(f.Add(rest, x[0]), two), Draw: x[1], Loss: f.Div(f.Sub(rest, x[0]), two)}
	}
	out := WinChoices[T]{State: st, Value: wdl(here.wdl[0][0][l.li(d)]), PolicyChoice: here.ch[0][0][l.li(d)]}
	// Handing the move over mirrors P(win) - P(loss) and keeps P(draw).
	mirror := func(v []T) []T { return []T{f.Sub(w.zero, v[0]), v[1]} }
	for _, c := range rules.Choices() {
		if !w.legal[c] {
			continue
		}
		var x []T
		if c == rules.Pass {
			x = mirror([]T{
				l.afterPass(st, func(c *leadCell[T]) T { return c.wdl[1][1][l.li(-d)][0] }),
				l.afterPass(st, func(c *leadCell[T]) T { return c.wdl[1][1][l.li(-d)][1] }),
			})
		} else {
			x = []T{w.zero, w.zero}
			for k, o := range w.outs[c] {
				pr := w.probs[c][k]
				var src []T
				switch {
				case selfLoop(o, st):
					src = mirror(here.wdl[1][0][l.li(-d)])
				case o.Continue:
					src = l.at(o.Next).wdl[0][0][l.li(d+o.MoverGain)]
				default:
					src = mirror(l.at(o.Next).wdl[1][0][l.li(-d+o.NextGain)])
				}
				x[0], x[1] = f.Add(x[0], f.Mul(pr, src[0])), f.Add(x[1], f.Mul(pr, src[1]))
			}
		}
		p := wdl(x)
		out.Values = append(out.Values, WinChoiceValue[T]{Choice: c, Win: p.Win, Draw: p.Draw, Loss: p.Loss, Score: p.Score(f)})
	}
	out.markBest(f)
	return out
}
