package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Policies given as tables. A seat of a Lineup may play a rules.ChoiceTable (Lineup.Table for
// seat 0, Lineup.OpponentTable for the other seats): a choice for every count state, after a pass
// by the previous seat or not, and for every lead when the table depends on it (MaxLead >= 0). The
// solver reads the table where it reads a fixed policy's choice, so every evaluation of fixed
// policies (values, seats, solitaire, distributions, win, draw and loss, a best response to the
// table) covers a table too; a table that depends on the lead is solved in the lead sweep, as a
// policy that plays to win is.

// policyTable marks, in sweep.pol, a role that plays a given table.
const policyTable rules.Policy = 255

// roles returns the policies of role 0 (seat 0) and role 1 (the other seats), policyTable for a
// role that plays a table.
func (mu Lineup) roles() [2]rules.Policy {
	pol := [2]rules.Policy{mu.Policy, mu.Opponent}
	if mu.Table != nil {
		pol[0] = policyTable
	}
	if mu.OpponentTable != nil {
		pol[1] = policyTable
	}
	return pol
}

// leadTable reports whether a role plays a table that depends on the lead.
func (mu Lineup) leadTable() bool {
	return (mu.Table != nil && mu.Table.MaxLead() >= 0) ||
		(mu.Players != 1 && mu.OpponentTable != nil && mu.OpponentTable.MaxLead() >= 0)
}

// hasBestResponse reports whether a role plays best-response.
func (mu Lineup) hasBestResponse() bool {
	pol := mu.roles()
	return pol[0] == rules.PolicyBestResponse || pol[1] == rules.PolicyBestResponse
}

// swapped returns the matchup with the roles exchanged.
func (mu Lineup) swapped() Lineup {
	return Lineup{Players: mu.Players, Policy: mu.Opponent, Opponent: mu.Policy, Table: mu.OpponentTable, OpponentTable: mu.Table}
}

// roleName names role r in messages.
func roleName(r int) string {
	if r == 0 {
		return "seat 0"
	}
	return "the opponent"
}

// validateTables is Lineup.Validate for a matchup in which a role plays a table: a table needs the
// model's singletons and, when it depends on the lead, two players; a role that plays a policy
// needs what the policy needs, and a reply (best-response, win-best-response) answers the table.
func (mu Lineup) validateTables(m Model) error {
	if err := m.Choices.Validate(); err != nil {
		return err
	}
	pol, tabs := mu.roles(), [2]*rules.ChoiceTable{mu.Table, mu.OpponentTable}
	roles := min(mu.Players, 2)
	for r := range roles {
		if t := tabs[r]; t != nil {
			switch {
			case t.Singletons() != m.Singletons:
				return fmt.Errorf("%s's table is for %d singletons, the model has %d", roleName(r), t.Singletons(), m.Singletons)
			case t.MaxLead() >= 0 && mu.Players != 2:
				return fmt.Errorf("%s's table depends on the lead, which is defined for 2 players only, not %d", roleName(r), mu.Players)
			}
			continue
		}
		p := pol[r]
		if err := p.CheckChoices(m.Choices); err != nil {
			return err
		}
		switch {
		case p.Opponents() != nil && mu.Players != 2:
			return fmt.Errorf("policy %s answers a table with 2 players only, not %d", p, mu.Players)
		case p.PlaysToWin() && mu.Players != 2:
			return fmt.Errorf("policy %s plays to win, which is defined for 2 players only, not %d", p, mu.Players)
		}
	}
	return nil
}

// checkTables reports whether the tables of mu hold a choice open in model m wherever a solve from
// st reads one (checkTable).
func (mu Lineup) checkTables(m Model, st rules.State) error {
	for r, t := range [2]*rules.ChoiceTable{mu.Table, mu.OpponentTable} {
		if t == nil || r >= mu.Players {
			continue
		}
		if err := checkTable(t, m, st); err != nil {
			return fmt.Errorf("%s's table: %w", roleName(r), err)
		}
	}
	return nil
}

// checkTable reports whether table t holds a choice open in model m in every state a solve from st
// reads: every count state of the model with 1 to st.N pairs, after a pass where passing is open
// (otherwise no turn follows a pass), and, for a table that depends on the lead, every lead a game
// from st can reach in either seat order (|d| <= |st.Lead| + st.N - n); leads beyond take the
// first open choice in the order daring, safe, known-first, pass, without effect on the values
// from st.
func checkTable(t *rules.ChoiceTable, m Model, st rules.State) error {
	switch {
	case t.MaxPairs() < st.N:
		return fmt.Errorf("covers up to %d pairs, the state has %d", t.MaxPairs(), st.N)
	case t.Singletons() != m.Singletons:
		return fmt.Errorf("is for %d singletons, the model has %d", t.Singletons(), m.Singletons)
	}
	for n := 1; n <= st.N; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= m.Singletons; f++ {
				s := rules.State{N: n, J: j, S: m.Singletons, F: f}
				if !m.Memory.Holds(s.Known()) {
					continue
				}
				lo, hi := 0, 0
				if t.MaxLead() >= 0 {
					reach := abs(st.Lead) + st.N - n
					lo, hi = max(-reach, -t.MaxLead()), min(reach, t.MaxLead())
				}
				for d := lo; d <= hi; d++ {
					s.Lead = d
					if err := checkChoice(t, m, s, false); err != nil {
						return err
					}
					if m.Legal(s, rules.Pass) {
						if err := checkChoice(t, m, s, true); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// checkChoice reports whether table t holds a choice open in model m in state s.
func checkChoice(t *rules.ChoiceTable, m Model, s rules.State, afterPass bool) error {
	when := ""
	if afterPass {
		when = " after a pass"
	}
	c, ok := t.Lookup(s, afterPass)
	switch {
	case !ok:
		return fmt.Errorf("no choice in %v%s", s, when)
	case !m.Legal(s, c):
		return fmt.Errorf("%s in %v%s is not open (pass rule %s, choices %s)", c, s, when, m.Pass, m.Choices)
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// tableChoice returns table t's choice in st, after a pass or not: where the table holds none
// that is legal (only in states checkTable leaves out, which the values from the solve's start
// state do not depend on), the first legal choice.
func (w *sweep[T]) tableChoice(t *rules.ChoiceTable, st rules.State, afterPass bool) rules.Choice {
	if c, ok := t.Lookup(st, afterPass); ok && w.legal[c] {
		return c
	}
	return w.firstLegal()
}

// firstLegal returns the first legal choice in the order daring, safe, known-first, pass.
func (w *sweep[T]) firstLegal() rules.Choice {
	for _, c := range rules.Choices() {
		if w.legal[c] {
			return c
		}
	}
	return rules.Daring
}

// EvaluateTable returns the value from state st in model m of a two-player matchup in which seat 0
// (the mover) plays table and the other seat plays opponent: Evaluate of Lineup{Players: 2,
// Table: table, Opponent: opponent}.
func EvaluateTable[T any](ctx context.Context, f field.Field[T], m Model, table *rules.ChoiceTable, opponent rules.Policy, st rules.State) (Result[T], error) {
	if table == nil {
		return Result[T]{}, fmt.Errorf("no table to evaluate")
	}
	return Evaluate(ctx, f, m, Lineup{Players: 2, Table: table, Opponent: opponent}, st)
}

// WinDrawLossTable returns, for both seat orders of a two-player matchup from state st in model m
// between a player of table and one of opponent, the probabilities that the mover ends the game
// ahead, level or behind, its lead so far being st.Lead: [0] with the table's player moving
// first, [1] with the opponent moving first. It is WinDrawLoss of Lineup{Players: 2, Table:
// table, Opponent: opponent}.
func WinDrawLossTable[T any](ctx context.Context, f field.Field[T], m Model, table *rules.ChoiceTable, opponent rules.Policy, st rules.State) ([2]WDL[T], error) {
	if table == nil {
		return [2]WDL[T]{}, fmt.Errorf("no table to evaluate")
	}
	return WinDrawLoss(ctx, f, m, Lineup{Players: 2, Table: table, Opponent: opponent}, st)
}

// Response is the exact best response to a policy given as a table, in expected pairs, and what
// it gains over optimal against the table.
type Response[T any] struct {
	// State is the start of the game: MaxPairs pairs, none remembered, every singleton unseen.
	State rules.State
	// Table is the best response's choices in every state with 1 to MaxPairs pairs, after a pass
	// by the table's player or not (a table with a lead dimension when the table depends on the
	// lead): the first best choice in the order daring, safe, known-first, pass.
	Table *rules.ChoiceTable
	// Pairs[k] is the best response's expected pairs against the table from State, moving first
	// (k = 0) or second (k = 1); Optimal[k] is what optimal makes in its place, and Gain[k] =
	// Pairs[k] - Optimal[k] is never negative.
	Pairs, Optimal, Gain [2]T
}

// BestResponseTo returns the best response, in expected pairs, to a player of table in model m
// (two players), for every state with at most maxPairs pairs, and its value and optimal's against
// the table from the start of a game of maxPairs pairs.
func BestResponseTo[T any](ctx context.Context, f field.Field[T], m Model, table *rules.ChoiceTable, maxPairs int) (Response[T], error) {
	var res Response[T]
	switch {
	case table == nil:
		return res, fmt.Errorf("no table to answer")
	case maxPairs < 1:
		return res, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	case m.Variant.TurnLimit > 0:
		return res, fmt.Errorf("turn limit %d: the best response to a table depends on the turns left; its values are Evaluate's of Lineup{Policy: best-response, OpponentTable: table}", m.Variant.TurnLimit)
	}
	st := startOf(m, maxPairs)
	br, brLead, err := roleLeads(ctx, f, m, Lineup{Players: 2, Policy: rules.PolicyBestResponse, OpponentTable: table}, st, true)
	if err != nil {
		return res, err
	}
	_, optLead, err := roleLeads(ctx, f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, OpponentTable: table}, st, false)
	if err != nil {
		return res, err
	}
	n := f.FromInt(int64(maxPairs))
	zero := f.FromInt(0)
	res.State, res.Table = st, br
	// Moving second, the role's lead is the negation of the table's lead moving first.
	res.Pairs = [2]T{pairsFromLead(f, n, brLead[0]), pairsFromLead(f, n, f.Sub(zero, brLead[1]))}
	res.Optimal = [2]T{pairsFromLead(f, n, optLead[0]), pairsFromLead(f, n, f.Sub(zero, optLead[1]))}
	for k := range 2 {
		res.Gain[k] = f.Sub(res.Pairs[k], res.Optimal[k])
	}
	return res, nil
}

// roleLeads solves the two-player matchup mu in model m from st and returns each role's expected
// lead when it moves first in st, and, when record is set, role 0's choices as a table.
func roleLeads[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, record bool) (*rules.ChoiceTable, [2]T, error) {
	var lead [2]T
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return nil, lead, err
	}
	var t *rules.ChoiceTable
	var visit func(rules.State) error
	if mu.leadTable() {
		ls := newLeadSweep(w, st.N)
		ls.needEval = true
		if record {
			if t, err = rules.NewLeadChoiceTable(st.N, m.Singletons, ls.D); err != nil {
				return nil, lead, err
			}
			visit = func(s rules.State) error {
				if s.N == 0 {
					return nil
				}
				c := ls.at(s)
				for d := -ls.D; d <= ls.D; d++ {
					s.Lead = d
					for g := range 2 {
						t.Set(s, g == 1, c.ch[0][g][ls.li(d)])
					}
				}
				return nil
			}
		}
	} else {
		w.needPair = true
		if record {
			if t, err = rules.NewChoiceTable(st.N, m.Singletons); err != nil {
				return nil, lead, err
			}
			visit = func(s rules.State) error {
				if s.N > 0 {
					t.Set(s, false, w.brChoice[0])
					t.Set(s, true, w.brChoice[1])
				}
				return nil
			}
		}
	}
	if err := w.run(ctx, st.N, visit); err != nil {
		return nil, lead, err
	}
	if l := w.lead; l != nil {
		c := l.at(st)
		lead = [2]T{c.lead[0][0][l.li(st.Lead)], c.lead[1][0][l.li(st.Lead)]}
	} else {
		lead = w.at(st).lead
	}
	return t, lead, nil
}
