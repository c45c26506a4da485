package exact_test

// A card-level check of the win objective at three seats under a fluctuating capacity with
// lineups whose seats do not all play win-optimal (docs/models.md §4.7 "Under a fluctuating
// capacity"): win-optimal beside optimal, safe, daring and parity, and win-best-response at one
// seat. The positions and their play are fluctselfwin_cardlevel_test.go's (fwGraph); a seat of a
// fixed policy chooses by its rule at the state after the draw, an optimal seat by the optimum of
// every seat for itself under the same capacity (exact.FluctSelfishTable), and a seat that plays
// to win by the solver's table of the lineup seen from it (exact.FluctSelfWinLineupTables).

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fwLineupChoice returns the choice of the mover of a card-level position under lineup mu: a
// fixed policy's rule, optimal's table, or the solver's table of the lineup seen from the mover.
func fwLineupChoice(t *testing.T, ctx context.Context, model exact.Model, gr *fwGraph, mu exact.Lineup, n int) func(i, ci int) rules.Choice {
	t.Helper()
	pol := mu.SeatPolicies()
	opt, err := exact.FluctSelfishTable(ctx, field.Float{}, model, mu.Players, n)
	if err != nil {
		t.Fatal(err)
	}
	type layered struct {
		lo     int
		layers []*rules.StandingsTable
	}
	wins := make([]*layered, len(pol))
	for q, p := range pol {
		if !p.PlaysToWin() {
			continue
		}
		lo, layers, err := exact.FluctSelfWinLineupTables(ctx, field.Float{}, model, exact.RotateSeats(mu, q), n)
		if err != nil {
			t.Fatalf("%v seen from seat %d: %v", pol, q, err)
		}
		wins[q] = &layered{lo, layers}
	}
	caps := gr.caps()
	return func(i, ci int) rules.Choice {
		st := gr.st[i][ci]
		if st.N < 0 {
			return rules.Daring // a pair known whole is taken first: no choice
		}
		q, c := gr.pos[i].mover, caps[ci]
		switch p := pol[q]; {
		case p.Fixed():
			return p.Decide(st)
		case p == rules.PolicyOptimal:
			ch, ok := opt.LookupCapacity(st, false, c)
			if !ok {
				t.Fatalf("optimal: no choice in %v with capacity %d", st, c)
			}
			return ch
		}
		w := wins[q]
		ch, ok := w.layers[min(max(c-w.lo, 0), len(w.layers)-1)].Lookup(st, gr.relative(i))
		if !ok {
			t.Fatalf("%v seat %d: no choice in %v with capacity %d at standings %v", pol, q, st, c, gr.relative(i))
		}
		return ch
	}
}

// TestFluctSelfWinLineupCardLevel plays lineups of the win objective at three seats, three
// pairs, under lru(3) and handover-uniform(3) with σ = 1 card by card: every position's scores,
// wins, draws and pairs by seat are compared with the solver's (EvaluateStandings of the lineup
// seen from the mover, float64); no choice made once, with any capacity drawn, gives a seat that
// plays to win more score than its table's choice; win-best-response's score from the start is at
// least that of every fixed policy, optimal and win-optimal at its seat against the same others.
func TestFluctSelfWinLineupCardLevel(t *testing.T) {
	ctx := context.Background()
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	type start struct{ mem, pairs []int }
	type tcase struct {
		fg rules.Forgetting
		mu exact.Lineup
		sp start
	}
	known := start{[]int{0, 2}, []int{0, 1, 0}}
	full := start{nil, []int{0, 0, 0}}
	cases := []tcase{
		{rules.ForgetLRU, exact.SeatLineup(W, rules.PolicyOptimal, rules.PolicySafe), known},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.ForgetHandoverUniform, exact.SeatLineup(rules.PolicyParity, W, rules.PolicyDaring), full},
			tcase{rules.ForgetLRU, exact.SeatLineup(W, W, rules.PolicyOptimal), full},
			tcase{rules.ForgetLRU, exact.SeatLineup(B, W, W), full},
			tcase{rules.ForgetHandoverUniform, exact.SeatLineup(B, rules.PolicyOptimal, rules.PolicyParity), full},
			tcase{rules.ForgetLRU, exact.SeatLineup(B, rules.PolicySafe, rules.PolicyDaring), known})
	}
	const players, sigma, m, n = 3, 1, 3, 3
	total := 0
	for _, tc := range cases {
		mem := rules.Memory{Capacity: m, Forget: tc.fg, Fluctuation: sigma}
		model := exact.Model{Memory: mem}
		pol := tc.mu.SeatPolicies()
		name := fmt.Sprintf("%s/%v/%v/%v", mem, pol, tc.sp.mem, tc.sp.pairs)
		gr := &fwGraph{lru: tc.fg == rules.ForgetLRU, m: m, sigma: sigma, players: players}
		gr.build(model, fwPos{g: newFlDeal(n, tc.sp.mem), pairs: tc.sp.pairs})
		choice := fwLineupChoice(t, ctx, model, gr, tc.mu, n)
		vals, err := gr.evaluate(choice)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		const tol = 1e-9
		solved := map[string]exact.SelfWinResult[float64]{}
		for i, pos := range gr.pos {
			nl := pairsLeft(pos.g)
			if nl == 0 {
				continue
			}
			rel := gr.relative(i)
			if pol[pos.mover].PlaysToWin() {
				for ci, byCh := range gr.steps[i] {
					var own fwVals
					for v := range own {
						own[v] = make([]float64, players)
					}
					gr.add4(&own, i, byCh[choice(i, ci)], vals, 1)
					for ch, steps := range byCh {
						var dev fwVals
						for v := range dev {
							dev[v] = make([]float64, players)
						}
						gr.add4(&dev, i, steps, vals, 1)
						if dev[0][pos.mover] > own[0][pos.mover]+tol {
							t.Errorf("%s: position %s (%v, capacity %d, standings %v): %v once gives seat %d %.12f, its choice %.12f",
								name, fmt.Sprint(pos.g.present, pos.g.mem, pos.g.pending), gr.st[i][ci], gr.caps()[ci], rel, ch, pos.mover, dev[0][pos.mover], own[0][pos.mover])
						}
					}
				}
			}
			if wholePair(pos.g) || testing.Short() && nl < n {
				continue // the pair known whole is taken first by this mover: no count state
			}
			st := rules.State{N: nl, J: nl - len(pos.g.mem)}
			key := fmt.Sprint(st, pos.mover, rel)
			res, ok := solved[key]
			if !ok {
				res, err = exact.EvaluateStandings(ctx, field.Float{}, model, exact.RotateSeats(tc.mu, pos.mover), st, rel)
				if err != nil {
					t.Fatalf("%s: EvaluateStandings(%v, seat %d, %v): %v", name, st, pos.mover, rel, err)
				}
				solved[key] = res
			}
			sum := 0.0
			for s := range players {
				seat := (pos.mover + s) % players
				got := []float64{res.Score[s], res.Win[s], res.Draw[s], res.Pairs[s]}
				for v := range got {
					if math.Abs(got[v]-vals[i][v][seat]) > tol {
						t.Errorf("%s: position %s (%v, seat %d to move, standings %v): seat %d's vector %d: solver %.12f, card level %.12f",
							name, fmt.Sprint(pos.g.present, pos.g.mem, pos.g.pending), st, pos.mover, rel, seat, v, got[v], vals[i][v][seat])
					}
				}
				sum += res.Score[s]
				total++
			}
			if math.Abs(sum-1) > tol {
				t.Errorf("%s: %v, standings %v: scores add up to %.15f", name, st, rel, sum)
			}
		}
		if pol[0] != B {
			continue
		}
		// The reply against every other policy at its seat, the others' play the same: win-optimal
		// there plays the table of every seat playing it.
		opt, err := exact.FluctSelfishTable(ctx, field.Float{}, model, players, n)
		if err != nil {
			t.Fatal(err)
		}
		lo, all, err := exact.FluctSelfWinTables(ctx, field.Float{}, model, players, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, alt := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity, rules.PolicyOptimal, W} {
			alternative := func(i, ci int) rules.Choice {
				st, c := gr.st[i][ci], gr.caps()[ci]
				if gr.pos[i].mover != 0 || st.N < 0 {
					return choice(i, ci)
				}
				var ch rules.Choice
				ok := true
				switch alt {
				case rules.PolicyOptimal:
					ch, ok = opt.LookupCapacity(st, false, c)
				case W:
					ch, ok = all[min(max(c-lo, 0), len(all)-1)].Lookup(st, gr.relative(i))
				default:
					ch = alt.Decide(st)
				}
				if !ok {
					t.Fatalf("%s: %s has no choice in %v with capacity %d", name, alt, st, c)
				}
				return ch
			}
			av, err := gr.evaluate(alternative)
			if err != nil {
				t.Fatalf("%s, %s at seat 0: %v", name, alt, err)
			}
			if av[0][0][0] > vals[0][0][0]+tol {
				t.Errorf("%s: %s at seat 0 scores %.12f, win-best-response %.12f", name, alt, av[0][0][0], vals[0][0][0])
			}
			if alt == W && pol[1] == W {
				// Beside win-optimal at every other seat, where win-optimal has an equilibrium in
				// pure choices everywhere, the reply scores what win-optimal does.
				gaps, err := exact.FluctSelfWinGaps(ctx, field.Float{}, model, players, n)
				if err != nil {
					t.Fatal(err)
				}
				if len(gaps) == 0 && math.Abs(av[0][0][0]-vals[0][0][0]) > tol {
					t.Errorf("%s: win-optimal at seat 0 scores %.12f, win-best-response %.12f, with no position without an equilibrium", name, av[0][0][0], vals[0][0][0])
				}
			}
		}
	}
	if total == 0 {
		t.Fatal("no value compared")
	}
	t.Logf("compared %d seats' values with card-level play", total)
}
