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

// TestCopiesDecayDistributionIdentities checks the decay copies model's score distribution in
// exact rationals: its probabilities add up to one and its mean is the expected pairs; float64
// agrees with the rationals; q = 0 without a capacity gives the perfect-memory copies model's distribution under the
// same pass rule; two copies give the pairs game's decay distribution (§4.14).
func TestCopiesDecayDistributionIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type cfg struct {
		pairs, copies, capacity int
		q                       float64
		pass                    rules.PassRule
	}
	cfgs := []cfg{{4, 4, 3, 0.3, rules.PassAlways}}
	lineups := copiesMemLineups[:2]
	if !testing.Short() {
		cfgs = append(cfgs, cfg{4, 4, 0, 0.3, rules.PassNever}, cfg{6, 4, 0, 0.2, rules.PassTwoKnown}, cfg{6, 6, 2, 0.5, rules.PassNever})
		lineups = copiesMemLineups
	}
	for _, c := range cfgs {
		st, err := StartCopiesState(c.pairs, c.copies)
		if err != nil {
			t.Fatal(err)
		}
		m := decayCopies(c.q, c.capacity, c.copies)
		m.Pass = c.pass
		for _, mu := range lineups {
			name := fmt.Sprintf("pass %s, %d pairs of %d cards, decay(%v) capacity %d, %s", c.pass, c.pairs, c.copies, c.q, c.capacity, lineupName(mu))
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
			free := decayCopies(c.q, 0, c.copies) // q = 0 without a capacity forgets nothing
			free.Pass = c.pass
			s, err := newCopiesDecaySolverAt(ctx, f, free, mu, st, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			none, err := s.scoreDistribution(s.components(), st)
			if err != nil {
				t.Fatal(err)
			}
			perfect, err := CopiesDistribution(ctx, f, Model{Pass: c.pass, Variant: rules.Variant{Copies: c.copies}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for i := range perfect.Prob {
				if none.Prob[i].Cmp(perfect.Prob[i]) != 0 {
					t.Errorf("%s, q = 0: share %d/2: %v, perfect memory %v", name, i, none.Prob[i], perfect.Prob[i])
				}
			}
		}
	}
	type pairsCfg struct {
		pairs, capacity int
		q               float64
	}
	pcs := []pairsCfg{{4, 2, 0.25}}
	if !testing.Short() {
		pcs = append(pcs, pairsCfg{4, 0, 0.3}, pairsCfg{6, 3, 0.5})
	}
	for _, c := range pcs {
		st, err := StartCopiesState(c.pairs, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range lineups {
			m := decayCopies(c.q, c.capacity, 2)
			got, err := copiesDecayDistribution(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			m.Variant = rules.Variant{}
			want, err := Distribution(ctx, f, m, mu, rules.State{N: c.pairs, J: c.pairs})
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Prob {
				if got.Prob[i].Cmp(want.Prob[i]) != 0 {
					t.Errorf("two copies, decay(%v) capacity %d, %d pairs, %s: share %d/2: %v, pairs model %v", c.q, c.capacity, c.pairs, lineupName(mu), i, got.Prob[i], want.Prob[i])
				}
			}
		}
	}
}

// TestCopiesDecaySolitaireTurnsIdentities checks solitaire's distribution of the number of turns
// under a decay memory with copies in exact rationals: q = 0 gives the perfect-memory copies
// model's distribution, two copies §4.14's decay distribution, and the mean up to a bound where
// the tail is negligible approaches the expected turns (float64).
func TestCopiesDecaySolitaireTurnsIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	policies := []rules.Policy{rules.PolicyOptimal}
	if !testing.Short() {
		policies = append(policies, rules.PolicySafe, rules.PolicyDaring)
	}
	n := 4
	rs := rules.State{N: n, J: n}
	maxTurns := DefaultMaxTurns(n, 0)
	for _, p := range policies {
		mu := Lineup{Players: 1, Policy: p, Opponent: p}
		st, err := StartCopiesState(n, 4)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newCopiesDecaySolverAt(ctx, f, decayCopies(0.5, 0, 4), mu, st, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.solve(); err != nil {
			t.Fatal(err)
		}
		got, err := s.solitaireTurns(rs, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		want, err := SolitaireTurns(ctx, f, Model{Variant: rules.Variant{Copies: 4}}, p, rs, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Prob {
			if got.Prob[i].Cmp(want.Prob[i]) != 0 {
				t.Errorf("solitaire %s, q = 0: %d turns: %v, perfect memory %v", p, i, got.Prob[i], want.Prob[i])
			}
		}
		st2, err := StartCopiesState(n, 2)
		if err != nil {
			t.Fatal(err)
		}
		m := decayCopies(0.3, 2, 2)
		two, err := copiesDecaySolitaireTurns(ctx, f, m, p, rs, st2, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		m.Variant = rules.Variant{}
		pairs, err := SolitaireTurns(ctx, f, m, p, rs, maxTurns)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pairs.Prob {
			if two.Prob[i].Cmp(pairs.Prob[i]) != 0 {
				t.Errorf("solitaire %s, two copies, decay(0.3) capacity 2: %d turns: %v, decay model %v", p, i, two.Prob[i], pairs.Prob[i])
			}
		}
		// q = 0.3: the tail beyond 80 turns is below 1e-12.
		m = decayCopies(0.3, 0, 4)
		fl, err := SolitaireTurns(ctx, field.Float{}, m, p, rs, 80)
		if err != nil {
			t.Fatal(err)
		}
		res, err := EvaluateCopies(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		mean := 0.0
		for i, x := range fl.Prob {
			mean += float64(i) * x
		}
		if fl.Tail > 1e-12 || math.Abs(mean-res.ExpectedTurns) > 1e-9 {
			t.Errorf("solitaire %s, decay(0.3): mean %.12f turns (tail %g), expected turns %.12f", p, mean, fl.Tail, res.ExpectedTurns)
		}
	}
}
