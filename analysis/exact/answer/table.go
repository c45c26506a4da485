package answer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Table is the optimal strategy table as WriteTable writes it: what it is about, and its cells in
// order of pairs, then unknown pairs (under a turn limit, first in order of the turns left).
type Table struct {
	Model Model       `json:"model"`
	Cells []TableCell `json:"cells"`
}

// TableCell is one state of the optimal strategy table (see exact.TableCell): its pairs, unknown
// pairs and unseen singletons (absent in a model without singletons), the code comparing the
// daring move with the safe one (exact.CodeSafe, CodeDaring or CodeEqual), every best choice in
// the order daring, safe, known-first, pass, and the mover's expected pairs with optimal play.
type TableCell struct {
	// TurnsLeft is, under a turn limit, the turns left in the cell: the table has a cell per state
	// and number of turns left, its values count the pairs taken within them and its code and
	// best choices compare the mover's lead.
	TurnsLeft int      `json:"turns_left,omitempty"`
	Pairs     int      `json:"pairs"`
	Unknown   int      `json:"unknown"`
	Unseen    *int     `json:"unseen_singletons,omitempty"`
	Code      int      `json:"code"`
	Best      []string `json:"best"`
	Value     Number   `json:"value"`
	// BestAfterPass and ValueAfterPass are Best and Value just after a pass by the other seat,
	// where they are its own (decay forgetting under pass rule two-known or always); absent
	// elsewhere.
	BestAfterPass  []string `json:"best_after_pass,omitempty"`
	ValueAfterPass *Number  `json:"value_after_pass,omitempty"`
}

// WinTable is the table of a policy that plays to win as WriteWinTable writes it: what it is
// about, and its cells in order of pairs, then unknown pairs, then lead.
type WinTable struct {
	Model Model     `json:"model"`
	Cells []WinCell `json:"cells"`
}

// WinCell is one state of the table of a policy that plays to win (see exact.WinCell): its pairs,
// unknown pairs, unseen singletons (absent in a model without singletons) and the mover's lead,
// the policy's choice, every choice as good (in the order daring, safe, known-first, pass), and
// the mover's P(win) + P(draw)/2.
type WinCell struct {
	Pairs   int      `json:"pairs"`
	Unknown int      `json:"unknown"`
	Unseen  *int     `json:"unseen_singletons,omitempty"`
	Lead    int      `json:"lead"`
	Choice  string   `json:"choice"`
	Best    []string `json:"best"`
	Value   Number   `json:"value"`
}

// WriteTable writes the optimal strategy table of model m as a Table in JSON, one line: the cells
// of every state with 1 to maxPairs pairs in which unseen of the model's singletons are not yet
// seen (under a turn limit, with every number of turns left), streamed as the solver finds them,
// so that a large table never sits whole in memory. An error is the solver's or the writer's.
func WriteTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, maxPairs, unseen int) error {
	if err := checkUnseen(m, unseen); err != nil {
		return err
	}
	head := model(f, m, unseen)
	head.PairsMax = maxPairs
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	var cell TableCell
	err := exact.Table(ctx, f, m, maxPairs, func(c *exact.TableCell[T]) error {
		st := c.State
		if st.F != unseen {
			return nil
		}
		cell = TableCell{TurnsLeft: c.TurnsLeft, Pairs: st.N, Unknown: st.J, Unseen: unseenOf(st), Code: c.Code, Value: NumberOf(f, c.Value),
			Best: choiceNames(cell.Best[:0], c.Best)}
		if c.AfterPass {
			v := NumberOf(f, c.ValueAfterPass)
			cell.BestAfterPass, cell.ValueAfterPass = choiceNames(nil, c.BestAfterPass), &v
		}
		return cw.add(&cell)
	})
	if err != nil {
		return err
	}
	return cw.close()
}

// WriteWinTable writes the table of seat 0's policy in lineup mu, which plays to win, as a
// WinTable in JSON, one line: the cells of every state with 1 to maxPairs pairs in which unseen
// of the model's singletons are not yet seen, at every lead |d| <= maxPairs - n (see
// exact.WinTable), streamed as the solver finds them. An error is the solver's or the writer's.
func WriteWinTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, mu exact.Lineup, maxPairs, unseen int) error {
	if err := checkUnseen(m, unseen); err != nil {
		return err
	}
	head := model(f, m, unseen)
	head.PairsMax = maxPairs
	head.Policy, head.Opponent = mu.Policy.String(), mu.Opponent.String()
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	var cell WinCell
	err := exact.WinTable(ctx, f, m, mu, maxPairs, func(c *exact.WinCell[T]) error {
		st := c.State
		if st.F != unseen {
			return nil
		}
		cell = WinCell{Pairs: st.N, Unknown: st.J, Unseen: unseenOf(st), Lead: st.Lead, Choice: c.Choice.String(),
			Value: NumberOf(f, c.Value), Best: choiceNames(cell.Best[:0], c.Best)}
		return cw.add(&cell)
	})
	if err != nil {
		return err
	}
	return cw.close()
}

// checkUnseen refuses a number of unseen singletons the model cannot have.
func checkUnseen(m exact.Model, unseen int) error {
	if unseen < 0 || unseen > m.Singletons {
		return fmt.Errorf("unseen singletons %d: must be between 0 and the model's %d singletons", unseen, m.Singletons)
	}
	return nil
}

// cellWriter streams a table as JSON, {"model": ..., "cells": [...]}, one cell at a time.
type cellWriter struct {
	w   io.Writer
	buf []byte
	n   int // the cells written
}

// open writes the model and opens the list of cells.
func (c *cellWriter) open(m Model) error {
	head, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.w, "{\"model\":%s,\"cells\":[", head)
	return err
}

// add writes one cell.
func (c *cellWriter) add(cell any) error {
	b, err := json.Marshal(cell)
	if err != nil {
		return err
	}
	c.buf = c.buf[:0]
	if c.n > 0 {
		c.buf = append(c.buf, ',')
	}
	c.n++
	c.buf = append(c.buf, b...)
	_, err = c.w.Write(c.buf)
	return err
}

// close ends the list and the object.
func (c *cellWriter) close() error {
	_, err := io.WriteString(c.w, "]}\n")
	return err
}

// unseenOf is a cell's number of unseen singletons, or nil in a model without singletons.
func unseenOf(st rules.State) *int {
	if st.S == 0 {
		return nil
	}
	f := st.F
	return &f
}

// choiceNames appends the names of choices to dst.
func choiceNames(dst []string, choices []rules.Choice) []string {
	for _, c := range choices {
		dst = append(dst, c.String())
	}
	return dst
}
