package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesHandoverDistributionIdentities checks the handover-uniform copies model's score
// distribution in exact rationals: its mean is the expected pairs and its probabilities add up to
// one; a capacity of the deck's cards gives the perfect-memory copies model's distribution; two
// copies give the pairs game's handover-uniform distribution (§4.4); float64 agrees with the
// rationals.
func TestCopiesHandoverDistributionIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies, capacity int }
	decks := []deck{{4, 4, 3}}
	lineups := copiesMemLineups[:2]
	if !testing.Short() {
		decks = append(decks, deck{6, 4, 3}, deck{6, 6, 2})
		lineups = copiesMemLineups
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		for _, d := range decks {
			st, err := StartCopiesState(d.pairs, d.copies)
			if err != nil {
				t.Fatal(err)
			}
			for _, mu := range lineups {
				name := fmt.Sprintf("pass %s, %d pairs of %d cards, %s", pass, d.pairs, d.copies, lineupName(mu))
				m := handoverCopies(d.capacity, d.copies)
				m.Pass = pass
				got, err := CopiesDistribution(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				res, err := EvaluateCopies(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				sum, mean := new(big.Rat), new(big.Rat)
				for i, p := range got.Prob {
					sum.Add(sum, p)
					mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
					t.Errorf("%s: probabilities add up to %v, mean %v; expected pairs %v", name, sum, mean, res.ExpectedPairs)
				}
				fl, err := CopiesDistribution(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range got.Prob {
					if x, _ := p.Float64(); math.Abs(fl.Prob[i]-x) > 1e-9 {
						t.Errorf("%s: share %d/2: float64 %v, rationals %v", name, i, fl.Prob[i], x)
					}
				}
				big2 := handoverCopies(2*d.pairs, d.copies)
				big2.Pass = pass
				full, err := CopiesDistribution(ctx, f, big2, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				perfect, err := CopiesDistribution(ctx, f, Model{Pass: pass, Variant: rules.Variant{Copies: d.copies}}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for i := range perfect.Prob {
					if full.Prob[i].Cmp(perfect.Prob[i]) != 0 {
						t.Errorf("%s, capacity %d: share %d/2: %v, perfect memory %v", name, 2*d.pairs, i, full.Prob[i], perfect.Prob[i])
					}
				}
			}
		}
	}
	for capacity := 2; capacity <= 3; capacity++ {
		n := 4
		st, err := StartCopiesState(n, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range copiesMemLineups[:3] {
			m := handoverCopies(capacity, 2)
			got, err := copiesMemDistribution(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Distribution(ctx, f, Model{Memory: m.Memory}, mu, rules.State{N: n, J: n})
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Prob {
				if got.Prob[i].Cmp(want.Prob[i]) != 0 {
					t.Errorf("handover-uniform(%d), %d pairs, %s: share %d/2: %v, pairs model %v", capacity, n, lineupName(mu), i, got.Prob[i], want.Prob[i])
				}
			}
		}
	}
}

// TestCopiesHandoverSolitaireTurnsIdentities checks solitaire's distribution of the number of
// turns under a handover-uniform memory with copies in exact rationals: a capacity of the deck's
// cards gives the perfect-memory copies model's distribution, and at a small capacity the mean of
// the distribution, up to a bound where the tail is negligible, approaches the expected turns.
func TestCopiesHandoverSolitaireTurnsIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, p := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe} {
		n, k := 4, 4
		st := rules.State{N: n, J: n}
		maxTurns := DefaultMaxTurns(n, 0)
		got, err := SolitaireTurns(ctx, f, handoverCopies(2*n, k), p, st, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		want, err := SolitaireTurns(ctx, f, Model{Variant: rules.Variant{Copies: k}}, p, st, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Prob {
			if got.Prob[i].Cmp(want.Prob[i]) != 0 {
				t.Errorf("solitaire %s, capacity %d: %d turns: %v, perfect memory %v", p, 2*n, i, got.Prob[i], want.Prob[i])
			}
		}
		// Capacity 2 forgets; the tail beyond 60 turns is below 1e-12 of the mean.
		small, err := SolitaireTurns(ctx, field.Float{}, handoverCopies(2, k), p, st, 60)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := StartCopiesState(n, k)
		if err != nil {
			t.Fatal(err)
		}
		res, err := EvaluateCopies(ctx, field.Float{}, handoverCopies(2, k), Lineup{Players: 1, Policy: p, Opponent: p}, cs)
		if err != nil {
			t.Fatal(err)
		}
		mean := 0.0
		for i, x := range small.Prob {
			mean += float64(i) * x
		}
		if small.Tail > 1e-12 || math.Abs(mean-res.ExpectedTurns) > 1e-9 {
			t.Errorf("solitaire %s, capacity 2: mean %.12f turns (tail %g), expected turns %.12f", p, mean, small.Tail, res.ExpectedTurns)
		}
	}
}
