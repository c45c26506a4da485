package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesWinPassLimitMatchesCardSearch compares the copies model's win-optimal and
// win-best-response under pass rules two-known and always and a turn limit with the card-level
// search (winPassSearch): seat 0's probabilities to win and draw, its policy's choice and every
// legal choice's probabilities (the choice made now, the lineup afterwards), with and without a
// pass just made, at leads 0, 1 and -2 and every limit 1 to 6 (2 and 5 with -short), from the start
// of two faces of four cards and three of two, and from a state with remembered cards; the
// expected lead, both seats' expected pairs and the score distribution at lead 0.
func TestCopiesWinPassLimitMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type start struct {
		copies    int
		left, rem []int
	}
	starts := []start{
		{4, []int{4, 4}, []int{0, 0}},
		{2, []int{2, 2, 2}, []int{0, 0, 0}},
		{4, []int{4, 2}, []int{1, 1}},
	}
	limits := []int{1, 2, 3, 4, 5, 6}
	if testing.Short() {
		limits = []int{2, 5}
	}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyDaring},
	}
	passes, afterPassDiffers := 0, 0
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for li, mu := range lineups {
			for si, sc := range starts {
				if testing.Short() && (li == 2 || (si == 2 && li > 0)) {
					continue // every start against every lineup in the long run
				}
				for _, limit := range limits {
					m := Model{Variant: rules.Variant{Copies: sc.copies, TurnLimit: limit}, Pass: pass}
					c := cardTable{left: sc.left, rem: sc.rem}
					st := copiesStateOf(sc.copies, c)
					name := fmt.Sprintf("pass %s, turn limit %d, %v, %s vs %s", pass, limit, st, mu.Policy, mu.Opponent)
					s := &winPassSearch{copies: sc.copies, fixed: mu.Opponent, choices: rules.FullChoices, pass: pass, limit: limit, memo: map[string]winPassNode{}}
					solver, err := newCopiesSolver(ctx, f, m, mu)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					cell, err := solver.get(st.vec().key(), limit)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					here := *cell
					if err := solver.prepare(&here, st.vec()); err != nil {
						t.Fatal(err)
					}
					for _, lead := range []int{0, 1, -2} {
						want := s.decide(c, 0, lead, false, limit)
						w0 := cell.winAt(false)
						i := w0.at(lead)
						if gw, w := winWDL(f, w0.u[0][i], w0.draw[0][i]), winWDL(f, want.u, want.draw); gw.Win.Cmp(w.Win) != 0 || gw.Draw.Cmp(w.Draw) != 0 {
							t.Errorf("%s, lead %d: win %v draw %v, search %v and %v", name, lead, gw.Win, gw.Draw, w.Win, w.Draw)
						}
						if w0.ch[0][i] != want.choice {
							t.Errorf("%s, lead %d: seat 0 chooses %s, search %s", name, lead, w0.ch[0][i], want.choice)
						}
						if w0.lead[0][i].Cmp(want.lead) != 0 {
							t.Errorf("%s, lead %d: expected lead %v, search %v", name, lead, w0.lead[0][i], want.lead)
						}
						for _, ch := range rules.Choices() {
							if here.legal[ch] != s.legal(c, ch) {
								t.Errorf("%s: %s legal %t, search %t", name, ch, here.legal[ch], s.legal(c, ch))
							}
							if !s.legal(c, ch) {
								continue
							}
							u, dr, l := solver.winChoiceValue(&here, 0, ch, lead, false)
							x := s.play(c, ch, 0, lead, false, limit)
							if u.Cmp(x.u) != 0 || dr.Cmp(x.draw) != 0 || l.Cmp(x.lead) != 0 {
								t.Errorf("%s, lead %d, %s now: win-loss %v draw %v lead %v, search %v, %v and %v", name, lead, ch, u, dr, l, x.u, x.draw, x.lead)
							}
						}
						if !s.legal(c, rules.Pass) {
							continue
						}
						// Just after a pass by seat 1: the policy's choice, its values and every
						// choice's (a pass now is the stalemate).
						after := s.decide(c, 0, lead, true, limit)
						a := cell.winAt(true)
						if ch := a.ch[0][a.at(lead)]; ch != after.choice {
							t.Errorf("%s, lead %d: just after a pass seat 0 chooses %s, search %s", name, lead, ch, after.choice)
						}
						if gw, w := winWDL(f, a.u[0][a.at(lead)], a.draw[0][a.at(lead)]), winWDL(f, after.u, after.draw); gw.Win.Cmp(w.Win) != 0 || gw.Draw.Cmp(w.Draw) != 0 {
							t.Errorf("%s, lead %d, just after a pass: win %v draw %v, search %v and %v", name, lead, gw.Win, gw.Draw, w.Win, w.Draw)
						}
						if a.lead[0][a.at(lead)].Cmp(after.lead) != 0 {
							t.Errorf("%s, lead %d, just after a pass: expected lead %v, search %v", name, lead, a.lead[0][a.at(lead)], after.lead)
						}
						for _, ch := range rules.Choices() {
							if !s.legal(c, ch) {
								continue
							}
							u, dr, l := solver.winChoiceValue(&here, 0, ch, lead, true)
							x := s.play(c, ch, 0, lead, true, limit)
							if u.Cmp(x.u) != 0 || dr.Cmp(x.draw) != 0 || l.Cmp(x.lead) != 0 {
								t.Errorf("%s, lead %d, %s just after a pass: win-loss %v draw %v lead %v, search %v, %v and %v", name, lead, ch, u, dr, l, x.u, x.draw, x.lead)
							}
						}
						if after.choice == rules.Pass || want.choice == rules.Pass {
							passes++
						}
						if after.choice != want.choice {
							afterPassDiffers++
						}
					}
					// The public values at lead 0: the lineup's, its choice and every choice's.
					want := s.decide(c, 0, 0, false, limit)
					cs, got, err := CopiesWinValues(ctx, f, m, mu, st, 0)
					if err != nil {
						t.Fatal(err)
					}
					if w := winWDL(f, want.u, want.draw); got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 || got.PolicyChoice != want.choice {
						t.Errorf("%s: win %v draw %v choosing %s, search %v and %v choosing %s", name, got.Value.Win, got.Value.Draw, got.PolicyChoice, w.Win, w.Draw, want.choice)
					}
					if cs.Value.ExpectedLead.Cmp(want.lead) != 0 {
						t.Errorf("%s: expected lead %v, search %v", name, cs.Value.ExpectedLead, want.lead)
					}
					for _, v := range got.Values {
						x := s.play(c, v.Choice, 0, 0, false, limit)
						if w := winWDL(f, x.u, x.draw); v.Win.Cmp(w.Win) != 0 || v.Draw.Cmp(w.Draw) != 0 {
							t.Errorf("%s, %s now: win %v draw %v, search %v and %v", name, v.Choice, v.Win, v.Draw, w.Win, w.Draw)
						}
					}
					dist, err := CopiesDistribution(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					mean0, mean1, total := new(big.Rat), new(big.Rat), new(big.Rat)
					for i := range dist.Prob {
						mean0.Add(mean0, new(big.Rat).Mul(dist.Prob[i], big.NewRat(int64(i), 2)))
						mean1.Add(mean1, new(big.Rat).Mul(dist.Prob1[i], big.NewRat(int64(i), 2)))
						total.Add(total, dist.Prob[i])
					}
					w := winWDL(f, want.u, want.draw)
					if dist.Win.Cmp(w.Win) != 0 || dist.Draw.Cmp(w.Draw) != 0 || total.Cmp(big.NewRat(1, 1)) != 0 ||
						mean0.Cmp(cs.Value.PairsBySeat[0]) != 0 || mean1.Cmp(cs.Value.PairsBySeat[1]) != 0 ||
						new(big.Rat).Sub(mean0, mean1).Cmp(want.lead) != 0 {
						t.Errorf("%s: distribution wins %v draws %v total %v, pairs %v and %v; search %v and %v, lead %v, values %v", name, dist.Win, dist.Draw, total, mean0, mean1, w.Win, w.Draw, want.lead, cs.Value.PairsBySeat)
					}
				}
			}
		}
	}
	if passes == 0 {
		t.Error("no state compared in which a seat passes")
	}
	if afterPassDiffers == 0 {
		t.Error("no state compared in which seat 0's choice just after a pass differs from its choice otherwise")
	}
}

// TestCopiesWinPassLimitTwoEqualsPairModel checks that with two copies of a face under pass rules
// two-known and always and a turn limit the copies model's values to win equal the (n, j)
// model's (limitwin.go) in every state of up to 3 pairs at leads -1 to 1, turn limits 1 to 5
// (with -short 2 pairs, leads 0 and 1, limit 3): the lineup's probabilities to win and draw, the policy's choice and
// every choice's score.
func TestCopiesWinPassLimitTwoEqualsPairModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs, limits, lo := 3, []int{1, 2, 3, 4, 5}, -1
	if testing.Short() {
		maxPairs, limits, lo = 2, []int{3}, 0
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range []Lineup{
			{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
			{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		} {
			for _, limit := range limits {
				m := Model{Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for n := 1; n <= maxPairs; n++ {
					for j := 0; j <= n; j++ {
						for d := lo; d <= 1; d++ {
							name := fmt.Sprintf("pass %s, %s vs %s, turn limit %d, (%d, %d) at lead %d", pass, mu.Policy, mu.Opponent, limit, n, j, d)
							got, err := CopiesWinChoiceValues(ctx, f, m, mu, CopiesState{Unknown: []int{j}, Half: []int{n - j}}, d)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							want, err := WinChoiceValues(ctx, f, m, mu, rules.State{N: n, J: j, Lead: d})
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							if got.Value.Win.Cmp(want.Value.Win) != 0 || got.Value.Draw.Cmp(want.Value.Draw) != 0 || got.PolicyChoice != want.PolicyChoice {
								t.Errorf("%s: %v choosing %v, want %v choosing %v", name, got.Value, got.PolicyChoice, want.Value, want.PolicyChoice)
							}
							if len(got.Values) != len(want.Values) {
								t.Errorf("%s: %d legal choices, want %d", name, len(got.Values), len(want.Values))
								continue
							}
							for i, v := range got.Values {
								if v.Choice != want.Values[i].Choice || v.Score.Cmp(want.Values[i].Score) != 0 {
									t.Errorf("%s, %s now: score %v, want %s %v", name, v.Choice, v.Score, want.Values[i].Choice, want.Values[i].Score)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestCopiesWinPassLongLimitIsNoLimit checks that under a pass rule a turn limit of 2(3n + 1)
// turns, more than any game of n pairs lasts (every turn but a pass takes a pair or turns up a
// card never seen, and two passes in a row end the game), gives the values without a limit: from
// the start of two faces of four cards (and three, and two of six, without -short), at every lead,
// with and without a pass just made, both roles' probabilities to win and draw, expected lead and
// choice, every choice's probabilities and expected lead, and seat 0's expected pairs.
func TestCopiesWinPassLongLimitIsNoLimit(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}}
	lineups := []Lineup{{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}}
	if !testing.Short() {
		decks = append(decks, deck{6, 4}, deck{6, 6})
		lineups = append(lineups, Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe})
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range lineups {
			for _, dk := range decks {
				st, err := StartCopiesState(dk.pairs, dk.copies)
				if err != nil {
					t.Fatal(err)
				}
				free := Model{Pass: pass, Variant: rules.Variant{Copies: dk.copies}}
				limited := free
				limited.Variant.TurnLimit = 2 * (3*dk.pairs + 1)
				name := fmt.Sprintf("pass %s, %v, %s vs %s", pass, st, mu.Policy, mu.Opponent)
				var cells [2]*copiesCell[*big.Rat]
				var solvers [2]*copiesSolver[*big.Rat]
				for i, m := range []Model{free, limited} {
					if solvers[i], err = newCopiesSolver(ctx, f, m, mu); err != nil {
						t.Fatal(err)
					}
					c, err := solvers[i].get(st.vec().key(), m.Variant.TurnLimit)
					if err != nil {
						t.Fatal(err)
					}
					here := *c
					if err := solvers[i].prepare(&here, st.vec()); err != nil {
						t.Fatal(err)
					}
					cells[i] = &here
				}
				for _, after := range []bool{false, true} {
					wf, wl := cells[0].winAt(after), cells[1].winAt(after)
					for d := -dk.pairs - 1; d <= dk.pairs+1; d++ {
						i, j := wf.at(d), wl.at(d)
						for r := range 2 {
							if wf.ch[r][i] != wl.ch[r][j] || wf.u[r][i].Cmp(wl.u[r][j]) != 0 || wf.draw[r][i].Cmp(wl.draw[r][j]) != 0 || wf.lead[r][i].Cmp(wl.lead[r][j]) != 0 {
								t.Errorf("%s, lead %d, after a pass %t, role %d: %s, win-loss %v draw %v lead %v; without a limit %s, %v, %v, %v", name, d, after, r,
									wl.ch[r][j], wl.u[r][j], wl.draw[r][j], wl.lead[r][j], wf.ch[r][i], wf.u[r][i], wf.draw[r][i], wf.lead[r][i])
							}
						}
						if d < -dk.pairs || d > dk.pairs {
							continue // decided: the choices' values are the final ones
						}
						for _, ch := range rules.Choices() {
							if !cells[0].legal[ch] {
								continue
							}
							u0, d0, l0 := solvers[0].winChoiceValue(cells[0], 0, ch, d, after)
							u1, d1, l1 := solvers[1].winChoiceValue(cells[1], 0, ch, d, after)
							if u0.Cmp(u1) != 0 || d0.Cmp(d1) != 0 || l0.Cmp(l1) != 0 {
								t.Errorf("%s, lead %d, after a pass %t, %s now: win-loss %v draw %v lead %v; without a limit %v, %v, %v", name, d, after, ch, u1, d1, l1, u0, d0, l0)
							}
						}
					}
				}
				n := f.FromInt(int64(dk.pairs))
				w := cells[1].win
				got, _ := solvers[1].winPairs(n, w.lead[0][w.at(0)], w.total[0][w.at(0)])
				if want, _ := solvers[0].winPairs(n, cells[0].win.lead[0][cells[0].win.at(0)], f.FromInt(0)); got.Cmp(want) != 0 {
					t.Errorf("%s: seat 0 takes %v pairs, without a limit %v", name, got, want)
				}
			}
		}
	}
}

// TestCopiesWinPassLimitFloatMatchesRational checks that the copies model's values to win under
// pass rules and a turn limit in float64 agree with the exact rationals, for every choice at every
// lead from the start of two faces of four cards (and three without -short), turn limit 5.
func TestCopiesWinPassLimitFloatMatchesRational(t *testing.T) {
	ctx := context.Background()
	sizes := []int{4}
	if !testing.Short() {
		sizes = append(sizes, 6)
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, pairs := range sizes {
			m := Model{Variant: rules.Variant{Copies: 4, TurnLimit: 5}, Pass: pass}
			mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
			st, err := StartCopiesState(pairs, 4)
			if err != nil {
				t.Fatal(err)
			}
			for d := -pairs - 1; d <= pairs+1; d++ {
				rc, r, err := CopiesWinValues(ctx, field.Rat{}, m, mu, st, d)
				if err != nil {
					t.Fatal(err)
				}
				xc, x, err := CopiesWinValues(ctx, field.Float{}, m, mu, st, d)
				if err != nil {
					t.Fatal(err)
				}
				if r.PolicyChoice != x.PolicyChoice || len(r.Values) != len(x.Values) {
					t.Fatalf("pass %s, %d pairs, lead %d: choice %s and %d values exact, %s and %d in float64", pass, pairs, d, r.PolicyChoice, len(r.Values), x.PolicyChoice, len(x.Values))
				}
				if l, _ := rc.Value.ExpectedLead.Float64(); !nearlyEqual(l, xc.Value.ExpectedLead) {
					t.Errorf("pass %s, %d pairs, lead %d: expected lead %v exact, %v in float64", pass, pairs, d, l, xc.Value.ExpectedLead)
				}
				for i, v := range r.Values {
					w, _ := v.Win.Float64()
					dr, _ := v.Draw.Float64()
					if xv := x.Values[i]; xv.Choice != v.Choice || !nearlyEqual(xv.Win, w) || !nearlyEqual(xv.Draw, dr) {
						t.Errorf("pass %s, %d pairs, lead %d, %s: win %v draw %v exact, %v and %v in float64", pass, pairs, d, v.Choice, w, dr, xv.Win, xv.Draw)
					}
				}
			}
		}
	}
}
