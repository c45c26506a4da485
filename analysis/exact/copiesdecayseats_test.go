package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesDecaySeatsFixed are lineups of fixed policies per seat: their values have no ties between
// equilibria to break, so a memory that nearly never forgets gives the perfect-memory values.
var copiesDecaySeatsFixed = []Lineup{
	{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyDaring}},
	{Players: 4, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicySafe, rules.PolicySafe}},
}

// TestCopiesDecaySeatsIdentities checks the decay copies model at three and four seats: a decay
// of q = 1e-9 without a capacity gives the perfect-memory copies model's every seat's pairs within
// 1e-6 (fixed policies per seat); two copies of a face give the pairs game's decay model (§4.14)
// exactly; the seats' pairs add up to the pairs dealt; and the float64 values agree with the
// exact ones.
func TestCopiesDecaySeatsIdentities(t *testing.T) {
	ctx := context.Background()
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}}
	maxPairs, capacities := 2, []int{0}
	fixed := copiesDecaySeatsFixed[:1]
	all := []Lineup{copiesMemSeatsLineups[0], copiesDecaySeatsFixed[0]}
	if !testing.Short() {
		decks = append(decks, deck{6, 4}, deck{6, 6})
		maxPairs, capacities = 4, []int{0, 3}
		fixed = copiesDecaySeatsFixed
		all = append(append([]Lineup(nil), copiesMemSeatsLineups...), copiesDecaySeatsFixed...)
	}
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range fixed {
			name := fmt.Sprintf("%d pairs of %d cards, %s", d.pairs, d.copies, lineupName(mu))
			got, err := EvaluateCopies(ctx, field.Float{}, decayCopies(1e-9, 0, d.copies), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, field.Float{}, Model{Variant: rules.Variant{Copies: d.copies}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.PairsBySeat {
				if math.Abs(got.PairsBySeat[i]-want.PairsBySeat[i]) > 1e-6 {
					t.Errorf("%s, decay(1e-9): seat %d: %v, perfect memory %v", name, i, got.PairsBySeat[i], want.PairsBySeat[i])
				}
			}
		}
		for _, mu := range all {
			for _, capacity := range capacities {
				name := fmt.Sprintf("%d pairs of %d cards, decay(0.3) capacity %d, %s", d.pairs, d.copies, capacity, lineupName(mu))
				m := decayCopies(0.3, capacity, d.copies)
				r, err := EvaluateCopies(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				fl, err := EvaluateCopies(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				sum := field.Rat{}.FromInt(0)
				for i, x := range r.PairsBySeat {
					sum = field.Rat{}.Add(sum, x)
					if v, _ := x.Float64(); math.Abs(v-fl.PairsBySeat[i]) > 1e-9 {
						t.Errorf("%s: seat %d: float64 %v, exact %v", name, i, fl.PairsBySeat[i], v)
					}
				}
				if sum.Cmp(field.Rat{}.FromInt(int64(d.pairs))) != 0 {
					t.Errorf("%s: the seats' pairs add up to %v", name, sum)
				}
			}
		}
	}
	for _, capacity := range capacities {
		for n := 1; n <= maxPairs; n++ {
			st, err := StartCopiesState(n, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, mu := range all {
				m := decayCopies(0.25, capacity, 2)
				got, err := EvaluateCopies(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Evaluate(ctx, field.Rat{}, Model{Memory: m.Memory}, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				for i := range want.PairsBySeat {
					if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
						t.Errorf("decay(0.25) capacity %d, %d pairs, %s: seat %d: %v, pairs model %v", capacity, n, lineupName(mu), i, got.PairsBySeat[i], want.PairsBySeat[i])
					}
				}
			}
		}
	}
}

// TestCopiesDecaySeatsRefusals checks the one-line refusals of what the decay copies model at
// three or more seats does not solve.
func TestCopiesDecaySeatsRefusals(t *testing.T) {
	opt := Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	m := decayCopies(0.3, 0, 4)
	limit := m
	limit.Variant.TurnLimit = 10
	cases := []struct {
		name string
		m    Model
		mu   Lineup
	}{
		{"two best replies", m, Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyBestResponse, rules.PolicyBestResponse, rules.PolicySafe}}},
		{"two-player optimum", m, Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}},
		{"turn limit", limit, opt},
		{"nine seats", m, Lineup{Players: 9, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
	}
	for _, c := range cases {
		if err := c.mu.Validate(c.m); err == nil {
			t.Errorf("%s: no refusal", c.name)
		}
	}
}
