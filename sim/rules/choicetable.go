package rules

import "fmt"

// ChoiceTable is a policy written out state by state: the choice a mover makes at the start of a
// turn in every state (n, j, s, f) with n <= MaxPairs and s = Singletons, once for a turn that
// follows a pass by the previous seat and once for any other turn. A table of a policy that plays
// to win also has a lead dimension: a choice for every lead -MaxLead .. MaxLead, the leads beyond
// taking the choice of the nearest (NewLeadChoiceTable). Solvers fill it in; the card-level engine
// reads it. States the table does not cover (more remembered cards than the model's capacity) hold
// no choice.
type ChoiceTable struct {
	maxPairs, singletons, maxLead int
	choice                        []Choice // index: see slot; noChoice where unset
	// copies, when not nil, holds the choices by the count state of a deal with more than two
	// copies of a face, in place of choice.
	copies *CopiesTable
	// turns, when not nil, holds the choices of a table for a turn limit: turns[t-1] with t turns
	// left (NewTurnChoiceTable).
	turns []*ChoiceTable
	// more, when not empty, holds the choices after k = 2, 3, ... seats passed in a row, a block
	// of one choice per state for each k (NewPassChoiceTable).
	more []Choice
	// standings, when not nil, holds the choices of a policy that plays to win at three or more
	// seats, read by the count state and the seats' standings, in place of choice.
	standings *StandingsTable
	// capacities, when not nil, holds the choices of a table under a fluctuating capacity:
	// capacities[c-capLo] with capacity c drawn (NewCapacityChoiceTable).
	capacities []*ChoiceTable
	capLo      int
}

const noChoice Choice = 255

// NewChoiceTable returns a table with no choice set, for states with at most maxPairs pairs and
// exactly singletons singletons, whatever their lead.
func NewChoiceTable(maxPairs, singletons int) (*ChoiceTable, error) {
	return NewLeadChoiceTable(maxPairs, singletons, -1)
}

// NewLeadChoiceTable returns a table with no choice set, for states with at most maxPairs pairs,
// exactly singletons singletons and a lead from -maxLead to maxLead (a state's lead beyond them
// is read at the nearest); maxLead -1 makes a table without a lead dimension.
func NewLeadChoiceTable(maxPairs, singletons, maxLead int) (*ChoiceTable, error) {
	if maxPairs < 0 || singletons < 0 || maxLead < -1 {
		return nil, fmt.Errorf("choice table for %d pairs, %d singletons and leads up to %d: must not be negative", maxPairs, singletons, maxLead)
	}
	t := &ChoiceTable{maxPairs: maxPairs, singletons: singletons, maxLead: maxLead}
	t.choice = make([]Choice, (maxPairs+1)*(maxPairs+1)*(singletons+1)*2*(2*max(maxLead, 0)+1))
	for i := range t.choice {
		t.choice[i] = noChoice
	}
	return t, nil
}

// FixedChoiceTable writes out a fixed policy (safe, daring or parity) for every state with at most
// maxPairs pairs and the given number of singletons.
func FixedChoiceTable(p Policy, maxPairs, singletons int) (*ChoiceTable, error) {
	if !p.Fixed() {
		return nil, fmt.Errorf("policy %s is not fixed: its table comes from a solver", p)
	}
	t, err := NewChoiceTable(maxPairs, singletons)
	if err != nil {
		return nil, err
	}
	for n := 0; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= singletons; f++ {
				st := State{N: n, J: j, S: singletons, F: f}
				c := p.Decide(st)
				t.Set(st, false, c)
				t.Set(st, true, c)
			}
		}
	}
	return t, nil
}

// NewCopiesChoiceTable returns a table for deals of at most maxPairs pairs, no singletons, with
// more than two copies of a face, whose choices are those of ct, read by the state of faces
// (Copies) rather than by (n, j); when ct has a lead dimension (NewCopiesLeadTable), at the lead
// too, as the table of a policy that plays to win (MaxLead is then maxPairs).
func NewCopiesChoiceTable(maxPairs int, ct *CopiesTable) (*ChoiceTable, error) {
	if ct == nil || ct.Copies() <= DefaultCopies {
		return nil, fmt.Errorf("a table read by the state of faces needs more than %d copies of a face (two copies are read by (n, j))", DefaultCopies)
	}
	maxLead := -1
	if ct.HasLead() {
		maxLead = maxPairs
	}
	t, err := NewLeadChoiceTable(maxPairs, 0, maxLead)
	if err != nil {
		return nil, err
	}
	t.copies = ct
	return t, nil
}

// Copies returns the table's choices by the state of faces of a deal with more than two copies of
// a face, or nil for a table read by (n, j, s, f).
func (t *ChoiceTable) Copies() *CopiesTable { return t.copies }

// MaxPairs returns the largest number of pairs the table covers.
func (t *ChoiceTable) MaxPairs() int { return t.maxPairs }

// Singletons returns the number of singletons of the table's states.
func (t *ChoiceTable) Singletons() int { return t.singletons }

// MaxLead returns the largest lead the table tells apart, or -1 for a table whose choices do not
// depend on the lead.
func (t *ChoiceTable) MaxLead() int { return t.maxLead }

// slot returns the index of a state in the table, or -1 when the table does not cover it.
func (t *ChoiceTable) slot(st State, afterPass bool) int {
	if st.N < 0 || st.N > t.maxPairs || st.J < 0 || st.J > st.N || st.S != t.singletons || st.F < 0 || st.F > st.S {
		return -1
	}
	i := (st.N*(t.maxPairs+1)+st.J)*(t.singletons+1) + st.F
	if t.maxLead >= 0 {
		i = i*(2*t.maxLead+1) + min(max(st.Lead, -t.maxLead), t.maxLead) + t.maxLead
	}
	i *= 2
	if afterPass {
		i++
	}
	return i
}

// Set records the choice made in st, after a pass by the previous seat or not. It panics if the
// table does not cover st: tables are filled by solvers, over the states they are built for.
func (t *ChoiceTable) Set(st State, afterPass bool, c Choice) {
	i := t.slot(st, afterPass)
	if i < 0 {
		panic(fmt.Sprintf("rules: choice table (%d pairs, %d singletons) does not cover %v", t.maxPairs, t.singletons, st))
	}
	t.choice[i] = c
}

// Lookup returns the choice made in st, after a pass by the previous seat or not, and whether the
// table holds one.
func (t *ChoiceTable) Lookup(st State, afterPass bool) (Choice, bool) {
	i := t.slot(st, afterPass)
	if i < 0 || t.choice[i] == noChoice {
		return 0, false
	}
	return t.choice[i], true
}
