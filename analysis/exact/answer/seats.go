package answer

import (
	"context"
	"fmt"
	"io"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SeatsTable is the strategy table of the optimum of every seat for itself at three or more seats
// (exact.SelfishTable) as WriteSeatsTable writes it: what it is about, and its cells in order of
// pairs, then unknown pairs, then (under a pass rule) the pass streak.
type SeatsTable struct {
	Model Model       `json:"model"`
	Cells []SeatsCell `json:"cells"`
}

// SeatsCell is one state of the table of every seat for itself: its pairs, unknown pairs, unseen
// singletons (absent in a model without singletons) and, under a pass rule, the pass streak (the
// seats that passed in a row just before the turn); the mover's choice, every choice as good for
// it (in the order daring, safe, known-first, pass; the choice is not among them in a state
// without an equilibrium in pure choices), the code comparing the daring move with the safe one
// (exact.CodeSafe, CodeDaring or CodeEqual), every seat's expected pairs in order from the mover
// (seat 0), and the mover's expected pairs after each legal choice made now, the optimum played
// afterwards.
type SeatsCell struct {
	Pairs          int           `json:"pairs"`
	Unknown        int           `json:"unknown"`
	Unseen         *int          `json:"unseen_singletons,omitempty"`
	Passes         *int          `json:"passes,omitempty"`
	Choice         string        `json:"choice"`
	Best           []string      `json:"best"`
	Code           int           `json:"code"`
	ExpectedBySeat []Number      `json:"expected_pairs_by_seat"`
	ChoiceValues   []ChoiceScore `json:"choice_values"`
}

// ChoiceScore is the mover's value of one legal choice made now: its expected pairs in a
// SeatsCell, its P(most pairs) in a SeatsWinCell.
type ChoiceScore struct {
	Choice string `json:"choice"`
	Value  Number `json:"value"`
}

// WriteSeatsTable writes the table of the optimum of every seat for itself at players seats (3
// to 8) in model m as a SeatsTable in JSON, one line: the cells of every state with 1 to maxPairs
// pairs in which unseen of the model's singletons are not yet seen (under a pass rule, at every
// pass streak), streamed as the solver finds them. An error is the solver's or the writer's.
func WriteSeatsTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, players, maxPairs, unseen int) error {
	if err := checkSeats(m, rules.PolicyOptimal, players, maxPairs, unseen); err != nil {
		return err
	}
	head := model(f, m, unseen)
	head.PairsMax, head.Players = maxPairs, players
	head.Policy, head.Opponent = rules.PolicyOptimal.String(), rules.PolicyOptimal.String()
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	var cell SeatsCell
	err := exact.SelfishTable(ctx, f, m, players, maxPairs, func(c *exact.TableCell[T]) error {
		st := c.State
		if st.F != unseen {
			return nil
		}
		cell = SeatsCell{Pairs: st.N, Unknown: st.J, Unseen: unseenOf(st), Choice: c.Choice.String(), Code: c.Code,
			Best: choiceNames(cell.Best[:0], c.Best), ExpectedBySeat: numbers(f, cell.ExpectedBySeat[:0], c.BySeat),
			ChoiceValues: choiceScores(f, cell.ChoiceValues[:0], &c.Legal, &c.ChoiceValue)}
		if m.Pass != rules.PassNever {
			k := c.Passes
			cell.Passes = &k
		}
		return cw.add(&cell)
	})
	if err != nil {
		return err
	}
	return cw.close()
}

// SeatsWinTable is the table of the win objective of every seat for itself at three or more seats
// (exact.SelfWinTable) as WriteSeatsWinTable writes it: what it is about, and its cells in order
// of pairs, then unknown pairs, then standings.
type SeatsWinTable struct {
	Model Model          `json:"model"`
	Cells []SeatsWinCell `json:"cells"`
}

// SeatsWinCell is one count state of the win objective of every seat for itself at one standings:
// its pairs, unknown pairs, unseen singletons (absent in a model without singletons) and every
// seat's deficit to the most pairs so far in order from the mover (rules.Deficits: n + 1 for a seat
// that can no longer reach the most); win-optimal's choice, every choice as good for the mover (in
// the order daring, safe, known-first), the choice of the optimum in expected pairs in the count
// state (which ignores the standings), every seat's P(most pairs) (a tie for the most shared) in
// order from the mover, and the mover's P(most pairs) after each legal choice made now,
// win-optimal played afterwards.
type SeatsWinCell struct {
	Pairs    int   `json:"pairs"`
	Unknown  int   `json:"unknown"`
	Unseen   *int  `json:"unseen_singletons,omitempty"`
	Deficits []int `json:"deficits"`
	// Passes is the pass streak under a pass rule other than never: the seats that passed in a
	// row just before the turn.
	Passes      *int          `json:"passes,omitempty"`
	Choice      string        `json:"choice"`
	Best        []string      `json:"best"`
	PairsChoice string        `json:"pairs_choice"`
	ScoreBySeat []Number      `json:"score_by_seat"`
	ChoiceScore []ChoiceScore `json:"choice_scores"`
}

// WriteSeatsWinTable writes the table of the win objective of every seat for itself at players
// seats (3 to 8) in model m (perfect memory) as a SeatsWinTable in JSON, one line: the
// cells of every state with 1 to maxPairs pairs in which unseen of the model's singletons are not
// yet seen, at every standings, streamed as the solver finds them. An error is the solver's or
// the writer's.
func WriteSeatsWinTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, players, maxPairs, unseen int) error {
	if err := checkSeats(m, rules.PolicyWinOptimal, players, maxPairs, unseen); err != nil {
		return err
	}
	pairsChoice, err := SelfishStreakChoices(ctx, f, m, players, maxPairs)
	if err != nil {
		return err
	}
	head := model(f, m, unseen)
	head.PairsMax, head.Players = maxPairs, players
	head.Policy, head.Opponent = rules.PolicyWinOptimal.String(), rules.PolicyWinOptimal.String()
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	var cell SeatsWinCell
	err = exact.SelfWinTable(ctx, f, m, players, maxPairs, func(c *exact.SelfWinCell[T]) error {
		st := c.State
		if st.F != unseen {
			return nil
		}
		var passes *int
		if m.Pass != rules.PassNever {
			k := c.Passes
			passes = &k
		}
		cell = SeatsWinCell{Pairs: st.N, Unknown: st.J, Unseen: unseenOf(st), Deficits: c.Deficits, Passes: passes,
			Choice: c.Choice.String(), Best: choiceNames(cell.Best[:0], c.Best), PairsChoice: pairsChoice(st, c.Passes).String(),
			ScoreBySeat: numbers(f, cell.ScoreBySeat[:0], c.Score),
			ChoiceScore: choiceScores(f, cell.ChoiceScore[:0], &c.Legal, &c.ChoiceScore)}
		return cw.add(&cell)
	})
	if err != nil {
		return err
	}
	return cw.close()
}

// checkSeats refuses, before anything is written, a table of policy p at players seats up to
// maxPairs pairs with unseen singletons not yet seen that model m does not have.
func checkSeats(m exact.Model, p rules.Policy, players, maxPairs, unseen int) error {
	switch {
	case players < 3 || players > rules.MaxPlayers:
		return fmt.Errorf("players %d: the tables of every seat for itself need 3 to %d", players, rules.MaxPlayers)
	case maxPairs < 1:
		return fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	case m.Variant.CopiesOf() != rules.DefaultCopies:
		return fmt.Errorf("copies %d: the tables of every seat for itself are by count state, which covers two copies of a face (the copies model's tables are the engine's)", m.Variant.CopiesOf())
	}
	if err := checkUnseen(m, unseen); err != nil {
		return err
	}
	return exact.Lineup{Players: players, Policy: p, Opponent: p}.Validate(m)
}

// SelfishChoices returns the choice of the optimum of every seat for itself in expected pairs
// (exact.SelfishTable, pass streak 0) in every count state of model m with 1 to maxPairs pairs,
// as a function of the state; it answers rules.Daring outside them.
func SelfishChoices[T any](ctx context.Context, f field.Field[T], m exact.Model, players, maxPairs int) (func(rules.State) rules.Choice, error) {
	stride := m.Singletons + 1
	row := func(st rules.State) int { return ((st.N*(st.N+1)/2)+st.J)*stride + st.F }
	choices := make([]rules.Choice, row(rules.State{N: maxPairs + 1}))
	err := exact.SelfishTable(ctx, f, m, players, maxPairs, func(c *exact.TableCell[T]) error {
		if c.Passes == 0 {
			choices[row(c.State)] = c.Choice
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return func(st rules.State) rules.Choice {
		if st.N < 1 || st.N > maxPairs || st.J < 0 || st.J > st.N || st.F < 0 || st.F > m.Singletons {
			return rules.Daring
		}
		return choices[row(st)]
	}, nil
}

// numbers appends the values vs of the arithmetic f to dst as Numbers.
func numbers[T any](f field.Field[T], dst []Number, vs []T) []Number {
	for _, v := range vs {
		dst = append(dst, NumberOf(f, v))
	}
	return dst
}

// choiceScores appends the value of every legal choice to dst, in the order daring, safe,
// known-first, pass (a value the table leaves out, such as a pass in the win table, is skipped).
func choiceScores[T any](f field.Field[T], dst []ChoiceScore, legal *[rules.NumChoices]bool, vs *[rules.NumChoices]T) []ChoiceScore {
	for _, c := range rules.Choices() {
		if legal[c] {
			dst = append(dst, ChoiceScore{Choice: c.String(), Value: NumberOf(f, vs[c])})
		}
	}
	return dst
}

// SelfishStreakChoices returns the choice of the optimum of every seat for itself in expected
// pairs (exact.SelfishTable) in every count state of model m with 1 to maxPairs pairs at every
// pass streak k (0 under pass rule never), for players seats; outside those states it returns
// daring.
func SelfishStreakChoices[T any](ctx context.Context, f field.Field[T], m exact.Model, players, maxPairs int) (func(rules.State, int) rules.Choice, error) {
	stride := m.Singletons + 1
	row := func(st rules.State) int { return ((st.N*(st.N+1)/2)+st.J)*stride + st.F }
	size := row(rules.State{N: maxPairs + 1})
	choices := make([]rules.Choice, size*players)
	err := exact.SelfishTable(ctx, f, m, players, maxPairs, func(c *exact.TableCell[T]) error {
		if c.Passes < players {
			choices[c.Passes*size+row(c.State)] = c.Choice
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return func(st rules.State, k int) rules.Choice {
		if st.N < 1 || st.N > maxPairs || st.J < 0 || st.J > st.N || st.F < 0 || st.F > m.Singletons || k < 0 || k >= players {
			return rules.Daring
		}
		return choices[k*size+row(st)]
	}, nil
}
