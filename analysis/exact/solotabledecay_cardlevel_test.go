package exact_test

// Solitaire's strategy table under decay forgetting (exact.SolitaireTable): every entry against
// the choices' values of its state solved afresh (exact.ChoiceValues), and every choice's
// expected turns against one card-level turn (cardDist, cardlevel_test.go, every card forgotten
// independently at the hand-over) followed by the table's own expected turns.

import (
	"context"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// decaySoloTableCase is a model of solitaire under decay forgetting, with its card-level memory
// (cm.q nil: no card-level check, as for blind flips).
type decaySoloTableCase struct {
	name string
	m    exact.Model
	cm   cardMemory
	n    int
}

func decaySoloTableCases() []decaySoloTableCase {
	decay := func(capacity int, q *big.Rat) rules.Memory {
		qf, _ := q.Float64()
		return rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: qf}
	}
	q3, q5 := big.NewRat(3, 10), big.NewRat(1, 2)
	n := 3
	if !testing.Short() {
		n = 4
	}
	return []decaySoloTableCase{
		{"q=0.3", exact.Model{Pass: rules.PassNever, Memory: decay(0, q3)}, cardMemory{forget: rules.ForgetDecay, q: q3}, n},
		{"q=0.5,m=2", exact.Model{Pass: rules.PassNever, Memory: decay(2, q5)}, cardMemory{capacity: 2, forget: rules.ForgetDecay, q: q5}, n},
		{"q=0.5,s=1", exact.Model{Pass: rules.PassNever, Memory: decay(0, q5), Singletons: 1}, cardMemory{forget: rules.ForgetDecay, q: q5}, n - 1},
		{"q=0.5,blind", exact.Model{Pass: rules.PassNever, Memory: decay(0, q5), Variant: rules.Variant{Flips: rules.FlipsBlind}}, cardMemory{}, n - 1},
	}
}

// decaySoloCells returns solitaire's table of model m up to maxPairs pairs, cells copied.
func decaySoloCells[T any](t *testing.T, f field.Field[T], m exact.Model, maxPairs int) map[rules.State]exact.SolitaireCell[T] {
	t.Helper()
	cells := map[rules.State]exact.SolitaireCell[T]{}
	err := exact.SolitaireTable(context.Background(), f, m, maxPairs, func(c *exact.SolitaireCell[T]) error {
		cp := *c
		cp.Best = slices.Clone(c.Best)
		cells[c.State] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("SolitaireTable(%+v, %d): %v", m, maxPairs, err)
	}
	return cells
}

// TestSolitaireTableDecayIsEveryStatesBestChoice checks that every entry of solitaire's table
// under decay forgetting is the best choice of its state's choice values, each state solved
// afresh: the expected turns and lucky matches, every choice's, the best choices and the first
// of them; and that the float64 table names the same choices with the same values.
func TestSolitaireTableDecayIsEveryStatesBestChoice(t *testing.T) {
	ctx := context.Background()
	for _, tc := range decaySoloTableCases() {
		t.Run(tc.name, func(t *testing.T) {
			cells := decaySoloCells(t, field.Rat{}, tc.m, tc.n)
			floats := decaySoloCells(t, field.Float{}, tc.m, tc.n)
			if len(cells) == 0 || len(floats) != len(cells) {
				t.Fatalf("%d cells exact, %d in float64", len(cells), len(floats))
			}
			mu := exact.Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			for st, c := range cells {
				cv, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, tc.m, mu, st)
				if err != nil {
					t.Fatalf("ChoiceValues(%v): %v", st, err)
				}
				if cv.Value.ExpectedTurns.Cmp(c.Turns) != 0 || cv.Value.ExpectedLucky.Cmp(c.Lucky) != 0 {
					t.Errorf("%v: table %s turns %s lucky, solved afresh %s and %s", st, c.Turns.RatString(), c.Lucky.RatString(),
						cv.Value.ExpectedTurns.RatString(), cv.Value.ExpectedLucky.RatString())
				}
				var least *big.Rat
				var best []rules.Choice
				for _, v := range cv.Values {
					if v.Choice == rules.Pass {
						continue
					}
					if !c.Legal[v.Choice] {
						t.Errorf("%v: %v legal afresh, not in the table", st, v.Choice)
						continue
					}
					if c.ChoiceTurns[v.Choice].Cmp(v.Turns) != 0 || c.ChoiceLucky[v.Choice].Cmp(v.Lucky) != 0 {
						t.Errorf("%v, %v: table %s turns %s lucky, afresh %s and %s", st, v.Choice,
							c.ChoiceTurns[v.Choice].RatString(), c.ChoiceLucky[v.Choice].RatString(), v.Turns.RatString(), v.Lucky.RatString())
					}
					switch {
					case least == nil || v.Turns.Cmp(least) < 0:
						least, best = v.Turns, []rules.Choice{v.Choice}
					case v.Turns.Cmp(least) == 0:
						best = append(best, v.Choice)
					}
				}
				if !slices.Equal(best, c.Best) || c.Choice != best[0] {
					t.Errorf("%v: table %v (best %v), afresh best %v", st, c.Choice, c.Best, best)
				}
				if least.Cmp(c.Turns) != 0 {
					t.Errorf("%v: the fewest turns of a choice %s, the state's %s", st, least.RatString(), c.Turns.RatString())
				}
				fc := floats[st]
				tf, _ := c.Turns.Float64()
				if fc.Choice != c.Choice || math.Abs(fc.Turns-tf) > 1e-9*tf {
					t.Errorf("%v: float64 %v %g turns, exact %v %g", st, fc.Choice, fc.Turns, c.Choice, tf)
				}
			}
		})
	}
}

// TestSolitaireTableDecayChoiceTurnsCardLevel checks every legal choice's expected turns in
// solitaire's table under decay forgetting against one card-level turn with that choice, each
// count state it leads to worth the table's expected turns there: a turn, one more for a pair
// left fully known, then the table's value (a state of the row itself included).
func TestSolitaireTableDecayChoiceTurnsCardLevel(t *testing.T) {
	for _, tc := range decaySoloTableCases() {
		if tc.cm.q == nil {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			cells := decaySoloCells(t, field.Rat{}, tc.m, tc.n)
			turnsAt := func(st rules.State) *big.Rat {
				if st.N == 0 {
					return new(big.Rat)
				}
				c, ok := cells[st]
				if !ok {
					t.Fatalf("state %v: not in the table", st)
				}
				return c.Turns
			}
			for st, c := range cells {
				for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if !c.Legal[ch] {
						continue
					}
					d, err := cardDist(st, nil, tc.cm, ch, pickOldest)
					if err != nil {
						t.Fatalf("%v, %v: %v", st, ch, err)
					}
					want := new(big.Rat)
					for k, p := range d {
						x := new(big.Rat).Add(big.NewRat(int64(1+k.nextGain), 1), turnsAt(k.next))
						want.Add(want, x.Mul(x, p))
					}
					if want.Cmp(c.ChoiceTurns[ch]) != 0 {
						t.Errorf("%v, %v: table %s turns, card level %s", st, ch, c.ChoiceTurns[ch].RatString(), want.RatString())
					}
				}
			}
		})
	}
}
