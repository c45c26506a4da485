package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestHandoverSingletonsLimitIdentities checks the turn-limited handover-uniform singletons model
// against other models, in exact rationals: a capacity of 2n + s never forgets, so under a limit
// it gives perfect memory's values with singletons under the same limit (two seats under each
// pass rule, and solitaire's pairs, turns and lucky matches), and with a limit beyond any game
// (2(3n + s) + 1 turns) the values without a limit; with no singletons it gives the pairs game's
// handover-uniform model under the limit in every state; and with a memory that forgets, the
// values within many turns approach those without a limit (float64).
func TestHandoverSingletonsLimitIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	n, sn := 3, 1
	passes := []rules.PassRule{rules.PassNever, rules.PassAlways}
	limits := []int{4}
	lineups := []Lineup{husLineups[0], husLineups[len(husLineups)-1]}
	if !testing.Short() {
		n, sn = 3, 2
		passes = append(passes, rules.PassTwoKnown)
		limits = append(limits, 1, 7)
		lineups = husLineups
	}
	st := rules.State{N: n, J: n, S: sn, F: sn}
	solo := []Lineup{{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, {Players: 1, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}}
	for _, pass := range passes {
		for _, limit := range limits {
			mus := lineups
			if pass == rules.PassNever {
				mus = append(append([]Lineup(nil), lineups...), solo...)
			}
			for _, mu := range mus {
				name := fmt.Sprintf("pass %s, turn limit %d, %s", pass, limit, lineupName(mu))
				m := husModel(sn, 2*n+sn)
				m.Pass, m.Variant.TurnLimit = pass, limit
				got, err := Evaluate(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Evaluate(ctx, f, Model{Singletons: sn, Pass: pass, Variant: m.Variant}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 || (mu.Players == 2 && got.ExpectedLead.Cmp(want.ExpectedLead) != 0) ||
					(mu.Players == 1 && (got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0)) {
					t.Errorf("%s, capacity %d: %+v; perfect memory %+v", name, 2*n+sn, got, want)
				}
			}
			// No singletons: the pairs game.
			for _, mu := range lineups {
				m := Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				l, err := newHUSLimit(ctx, f, m, mu, n)
				if err != nil {
					t.Fatal(err)
				}
				for st2, i := range l.s.at {
					if st2.N == 0 {
						continue
					}
					want, err := Evaluate(ctx, f, m, mu, st2)
					if err != nil {
						t.Fatal(err)
					}
					if got := l.result(i); got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
						t.Errorf("pass %s, turn limit %d, %s, %v: lead %v, pairs %v; pairs model %v, %v", pass, limit, lineupName(mu), st2, got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
					}
				}
			}
		}
	}
	// A limit beyond any game (pass never) with a memory that never forgets.
	for _, mu := range append(append([]Lineup(nil), lineups...), solo...) {
		m := husModel(sn, 2*n+sn)
		want, err := Evaluate(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		m.Variant.TurnLimit = 2*(3*n+sn) + 1
		got, err := Evaluate(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if mu.Players == 1 && (got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedPairs.Cmp(f.FromInt(int64(n))) != 0) ||
			mu.Players == 2 && got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
			t.Errorf("%s, turn limit %d: %+v; no limit %+v", lineupName(mu), m.Variant.TurnLimit, got, want)
		}
	}
	// A memory that forgets: many turns approach no limit.
	ff := field.Float{}
	for _, mu := range append(append([]Lineup(nil), lineups...), solo...) {
		m := husModel(sn, 2)
		want, err := Evaluate(ctx, ff, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		m.Variant.TurnLimit = 400
		got, err := Evaluate(ctx, ff, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if mu.Players == 1 && math.Abs(got.ExpectedTurns-want.ExpectedTurns) > 1e-9 || mu.Players == 2 && math.Abs(got.ExpectedLead-want.ExpectedLead) > 1e-9 {
			t.Errorf("%s, capacity 2, turn limit 400: %+v; no limit %+v", lineupName(mu), got, want)
		}
	}
}

// TestHandoverSingletonsLimitDistribution checks the score distribution under a turn limit in
// exact rationals: with a capacity of 2n + s (no card forgotten) it is perfect memory's with
// singletons under the same limit and pass rule, both seats' and the wins, draws and losses; with
// a memory that forgets, its probabilities add up to 1 and each seat's mean is its expected pairs.
func TestHandoverSingletonsLimitDistribution(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	n, sn := 3, 1
	passes := []rules.PassRule{rules.PassNever, rules.PassAlways}
	if !testing.Short() {
		n, sn = 4, 2
		passes = append(passes, rules.PassTwoKnown)
	}
	st := rules.State{N: n, J: n, S: sn, F: sn}
	for _, pass := range passes {
		for _, mu := range husLineups {
			name := fmt.Sprintf("pass %s, %s", pass, lineupName(mu))
			m := husModel(sn, 2*n+sn)
			m.Pass, m.Variant.TurnLimit = pass, 5
			got, err := Distribution(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Distribution(ctx, f, Model{Singletons: sn, Pass: pass, Variant: m.Variant}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for s := range 2 {
				for i, p := range got.SeatProb(s) {
					if p.Cmp(want.SeatProb(s)[i]) != 0 {
						t.Errorf("%s, capacity %d: seat %d share %d/2 probability %v, perfect memory %v", name, 2*n+sn, s, i, p, want.SeatProb(s)[i])
					}
				}
			}
			if got.Win.Cmp(want.Win) != 0 || got.Draw.Cmp(want.Draw) != 0 || got.Loss.Cmp(want.Loss) != 0 {
				t.Errorf("%s: win/draw/loss %v %v %v, perfect memory %v %v %v", name, got.Win, got.Draw, got.Loss, want.Win, want.Draw, want.Loss)
			}
			m = husModel(sn, 2)
			m.Pass, m.Variant.TurnLimit = pass, 7
			d, err := Distribution(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Evaluate(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if sum := f.Add(f.Add(d.Win, d.Draw), d.Loss); sum.Cmp(f.FromInt(1)) != 0 {
				t.Errorf("%s, capacity 2: win, draw and loss add up to %v", name, sum)
			}
			for s := range 2 {
				mean := f.FromInt(0)
				for i, p := range d.SeatProb(s) {
					mean = f.Add(mean, f.Mul(p, f.FromFrac(int64(i), 2)))
				}
				if mean.Cmp(v.PairsBySeat[s]) != 0 {
					t.Errorf("%s, capacity 2: seat %d's mean %v, expected pairs %v", name, s, mean, v.PairsBySeat[s])
				}
			}
		}
	}
}
