package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

var copiesMemSeatsLineups = []Lineup{
	{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
	{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyDaring, rules.PolicyOptimal, rules.PolicySafe}},
	{Players: 4, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyOptimal, rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicyDaring}},
}

// TestCopiesHandoverSeatsIdentities checks the handover-uniform copies model at three and four
// seats in exact rationals: a capacity that holds every card gives the perfect-memory copies
// model's every seat's pairs; two copies of a face give the pairs game's handover-uniform model
// (§4.4, §4.7); and the seats' pairs add up to the pairs dealt.
func TestCopiesHandoverSeatsIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}}
	maxPairs := 3
	if !testing.Short() {
		decks = append(decks, deck{6, 6}, deck{6, 4})
		maxPairs = 6
	}
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range copiesMemSeatsLineups {
			name := fmt.Sprintf("%d pairs of %d cards, %s", d.pairs, d.copies, lineupName(mu))
			got, err := EvaluateCopies(ctx, f, handoverCopies(2*d.pairs, d.copies), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, f, Model{Variant: rules.Variant{Copies: d.copies}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.PairsBySeat {
				if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
					t.Errorf("%s: seat %d: %v, perfect memory %v", name, i, got.PairsBySeat[i], want.PairsBySeat[i])
				}
			}
			for capacity := 2; capacity <= 3; capacity++ {
				r, err := EvaluateCopies(ctx, f, handoverCopies(capacity, d.copies), mu, st)
				if err != nil {
					t.Fatal(err)
				}
				sum := f.FromInt(0)
				for _, x := range r.PairsBySeat {
					sum = f.Add(sum, x)
				}
				if sum.Cmp(f.FromInt(int64(d.pairs))) != 0 {
					t.Errorf("%s, capacity %d: the seats' pairs add up to %v", name, capacity, sum)
				}
			}
		}
	}
	for capacity := 2; capacity <= 3; capacity++ {
		for n := 1; n <= maxPairs; n++ {
			st, err := StartCopiesState(n, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, mu := range copiesMemSeatsLineups {
				m := handoverCopies(capacity, 2)
				got, err := evaluateCopiesMem(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Evaluate(ctx, f, Model{Memory: m.Memory}, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				for i := range want.PairsBySeat {
					if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
						t.Errorf("handover-uniform(%d), %d pairs, %s: seat %d: %v, pairs model %v", capacity, n, lineupName(mu), i, got.PairsBySeat[i], want.PairsBySeat[i])
					}
				}
			}
		}
	}
}

// TestCopiesHandoverSeatsRefusals checks the one-line refusals of what the model at three or more
// seats does not solve.
func TestCopiesHandoverSeatsRefusals(t *testing.T) {
	opt := Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	cases := []struct {
		name string
		m    Model
		mu   Lineup
	}{
		{"two best replies", handoverCopies(2, 4), Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyBestResponse, rules.PolicyBestResponse, rules.PolicySafe}}},
		{"parity", handoverCopies(2, 4), Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyParity, rules.PolicyOptimal, rules.PolicySafe}}},
		{"two-player optimum", handoverCopies(2, 4), Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}},
		{"turn limit", Model{Memory: handoverCopies(2, 4).Memory, Variant: rules.Variant{Copies: 4, TurnLimit: 10}}, opt},
	}
	for _, c := range cases {
		if err := c.mu.Validate(c.m); err == nil {
			t.Errorf("%s: no refusal", c.name)
		}
	}
}
