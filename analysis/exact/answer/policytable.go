package answer

import (
	"context"
	"fmt"
	"io"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// PolicyTable is the table of a two-seat policy's choices as WritePolicyTable writes it: what it
// is about, and its cells (see PolicyCell for their order).
type PolicyTable struct {
	Model Model        `json:"model"`
	Cells []PolicyCell `json:"cells"`
}

// PolicyCell is one state of the table of seat 0's policy in a two-seat lineup, the choice the
// card-level engine reads there (exact.PolicyTable): under a turn limit the turns left, under a
// fluctuating capacity the capacity drawn for the turn (WriteFluctTable), the state's pairs, unknown pairs and unseen singletons (absent in a model without singletons), the
// mover's lead for a policy whose choice depends on it, the choice after no pass and, under pass
// rules two-known and always, the choice just after a pass by the other seat (a pass there ends
// the game in a stalemate).
type PolicyCell struct {
	TurnsLeft       int    `json:"turns_left,omitempty"`
	Capacity        int    `json:"capacity,omitempty"`
	Pairs           int    `json:"pairs"`
	Unknown         int    `json:"unknown"`
	Unseen          *int   `json:"unseen_singletons,omitempty"`
	Lead            *int   `json:"lead,omitempty"`
	Choice          string `json:"choice"`
	ChoiceAfterPass string `json:"choice_after_pass,omitempty"`
	// State is the cell's state (with the lead), and Chosen and ChosenAfterPass its choices, for
	// callers that format the cell themselves.
	State           rules.State  `json:"-"`
	Chosen          rules.Choice `json:"-"`
	ChosenAfterPass rules.Choice `json:"-"`
}

// EachPolicyCell calls visit with every cell of tab, the table of seat 0's policy in a two-seat
// lineup of model m, with turnsLeft turns left (0 for a table without a turn limit): the states
// with 1 to maxPairs pairs, unseen of the model's singletons not yet seen and a count of remembered
// cards the memory holds, in order of pairs, then (for a table with a lead) the lead |d| <=
// maxPairs - n from the most behind, then unknown pairs. The cell is reused between calls.
func EachPolicyCell(tab *rules.ChoiceTable, m exact.Model, maxPairs, unseen, turnsLeft int, visit func(*PolicyCell) error) error {
	if err := checkUnseen(m, unseen); err != nil {
		return err
	}
	lead := tab.MaxLead() >= 0
	passes := m.Pass != rules.PassNever
	var cell PolicyCell
	for n := 1; n <= maxPairs; n++ {
		reach := 0
		if lead {
			reach = maxPairs - n
		}
		for d := -reach; d <= reach; d++ {
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j, S: m.Singletons, F: unseen, Lead: d}
				if j == 0 || st.Validate(m.Memory) != nil {
					continue
				}
				ch, ok := tab.LookupTurnsLeft(st, false, turnsLeft)
				if !ok {
					return fmt.Errorf("the table has no choice in %v with %d turns left", st, turnsLeft)
				}
				cell = PolicyCell{TurnsLeft: turnsLeft, Pairs: n, Unknown: j, Unseen: unseenOf(st), Choice: ch.String(), State: st, Chosen: ch}
				if lead {
					cell.Lead = &st.Lead
				}
				if passes {
					after, ok := tab.LookupTurnsLeft(st, true, turnsLeft)
					if !ok {
						return fmt.Errorf("the table has no choice after a pass in %v with %d turns left", st, turnsLeft)
					}
					cell.ChoiceAfterPass, cell.ChosenAfterPass = after.String(), after
				}
				if err := visit(&cell); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// WritePolicyTable writes the table of seat 0's policy in the two-seat lineup mu of model m (the
// choices the card-level engine plays, exact.PolicyTable) as a PolicyTable in JSON, one line: the
// cells of EachPolicyCell, under a turn limit for every number of turns left from 1 to the limit.
// An error is the solver's or the writer's.
func WritePolicyTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, mu exact.Lineup, maxPairs, unseen int) error {
	if mu.Players != 2 {
		return fmt.Errorf("players %d: the policy table is of a two-seat lineup", mu.Players)
	}
	if err := checkUnseen(m, unseen); err != nil {
		return err
	}
	tab, err := exact.PolicyTable(ctx, f, m, mu, maxPairs)
	if err != nil {
		return err
	}
	head := model(f, m, unseen)
	head.PairsMax, head.Players = maxPairs, mu.Players
	head.Policy, head.Opponent = mu.Policy.String(), mu.Opponent.String()
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	add := func(c *PolicyCell) error { return cw.add(c) }
	if m.Variant.TurnLimit == 0 {
		err = EachPolicyCell(tab, m, maxPairs, unseen, 0, add)
	}
	for t := 1; t <= m.Variant.TurnLimit && err == nil; t++ {
		err = EachPolicyCell(tab, m, maxPairs, unseen, t, add)
	}
	if err != nil {
		return err
	}
	return cw.close()
}
