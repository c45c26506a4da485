package exact_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// statesUpTo lists the states of model m with 1 to maxPairs pairs (every number of unseen
// singletons), at lead 0.
func statesUpTo(m exact.Model, maxPairs int) []rules.State {
	var out []rules.State
	for n := 1; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= m.Singletons; f++ {
				st := rules.State{N: n, J: j, S: m.Singletons, F: f}
				if m.Memory.Holds(st.Known()) {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

// A choice's value, the choice now and the lineup afterwards, is the value of a second lineup in
// which seat 0 plays a table: the policy's own table, written out by PolicyTable, with that
// choice in the state. With perfect memory no state comes back to the same seat, so the two agree
// exactly, in every state up to 5 or 6 pairs, for every kind of lineup the sweep solves: optimal
// self-play, a fixed opponent, best responses, a pass rule, singletons, playing to win (at
// several leads), three players and solitaire.
func TestChoiceValuesAreTheValuesOfATableThatPlaysTheChoice(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	two := exact.Model{Pass: rules.PassTwoKnown}
	tests := []struct {
		name     string
		m        exact.Model
		mu       exact.Lineup
		maxPairs int
		leads    []int
	}{
		{"optimal", exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, 6, nil},
		{"optimal, pass two-known", two, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, 6, nil},
		{"optimal, singletons", exact.Model{Singletons: 1}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, 5, nil},
		{"optimal against daring", exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyDaring}, 6, nil},
		{"safe against parity", exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyParity}, 6, nil},
		{"best-response to safe, pass two-known", two, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, 6, nil},
		{"optimal against best-response", two, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyBestResponse}, 5, nil},
		{"win-optimal", exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, 4, []int{-2, 0, 1}},
		{"win-best-response to optimal, pass two-known", two, exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal}, 3, []int{-1, 0, 3}},
		{"three players", exact.Model{}, exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyDaring}, 5, nil},
		{"solitaire", exact.Model{}, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}, 6, nil},
	}
	for _, tt := range tests {
		if testing.Short() && tt.maxPairs > 4 {
			tt.maxPairs-- // the short form: one pair fewer
		}
		if exact.RaceEnabled {
			tt.maxPairs = min(tt.maxPairs, 3)
		}
		t.Run(tt.name, func(t *testing.T) {
			table, err := exact.PolicyTable(ctx, f, tt.m, tt.mu, tt.maxPairs)
			if err != nil {
				t.Fatal(err)
			}
			leads := tt.leads
			if leads == nil {
				leads = []int{0}
			}
			withTable := tt.mu
			withTable.Table = table
			checked := 0
			for _, counts := range statesUpTo(tt.m, tt.maxPairs) {
				for _, d := range leads {
					st := counts
					st.Lead = d
					got, err := exact.ChoiceValues(ctx, f, tt.m, tt.mu, st)
					if err != nil {
						t.Fatalf("%v: %v", st, err)
					}
					own, _ := table.Lookup(st, false)
					for _, c := range rules.Choices() {
						v, legal := got.Of(c)
						if legal != tt.m.Legal(st, c) {
							t.Fatalf("%v %s: legal %v", st, c, legal)
						}
						if !legal {
							continue
						}
						table.Set(st, false, c)
						want, err := exact.Evaluate(ctx, f, tt.m, withTable, st)
						table.Set(st, false, own)
						if err != nil {
							t.Fatalf("%v %s: %v", st, c, err)
						}
						checked++
						if tt.mu.Players == 1 {
							if v.Turns.Cmp(want.ExpectedTurns) != 0 || v.Lucky.Cmp(want.ExpectedLucky) != 0 {
								t.Errorf("%v %s: %s turns, %s lucky; the table gives %s, %s", st, c,
									v.Turns.RatString(), v.Lucky.RatString(), want.ExpectedTurns.RatString(), want.ExpectedLucky.RatString())
							}
							continue
						}
						for s := range want.PairsBySeat {
							if v.PairsBySeat[s].Cmp(want.PairsBySeat[s]) != 0 {
								t.Errorf("%v %s seat %d: %s pairs, the table gives %s", st, c, s, v.PairsBySeat[s].RatString(), want.PairsBySeat[s].RatString())
							}
						}
						if tt.mu.Players == 2 && v.Lead.Cmp(want.ExpectedLead) != 0 {
							t.Errorf("%v %s: lead %s, the table gives %s", st, c, v.Lead.RatString(), want.ExpectedLead.RatString())
						}
						if !tt.mu.Policy.PlaysToWin() {
							continue
						}
						wv, err := exact.WinChoiceValues(ctx, f, tt.m, tt.mu, st)
						if err != nil {
							t.Fatalf("%v: %v", st, err)
						}
						table.Set(st, false, c)
						wdl, err := exact.WinDrawLoss(ctx, f, tt.m, withTable, st)
						table.Set(st, false, own)
						if err != nil {
							t.Fatal(err)
						}
						if x, _ := wv.Of(c); x.Win.Cmp(wdl[0].Win) != 0 || x.Draw.Cmp(wdl[0].Draw) != 0 || x.Loss.Cmp(wdl[0].Loss) != 0 {
							t.Errorf("%v %s: win %s draw %s loss %s, the table gives %s %s %s", st, c,
								x.Win.RatString(), x.Draw.RatString(), x.Loss.RatString(), wdl[0].Win.RatString(), wdl[0].Draw.RatString(), wdl[0].Loss.RatString())
						}
					}
				}
			}
			if checked == 0 {
				t.Fatal("no choice checked")
			}
		})
	}
}

// The best choice is worth what the state is worth to a policy that maximises the same measure
// (optimal's expected pairs, or its fewest turns alone; win-optimal's score), and the row of the
// policy's own choice is the lineup's value, for every lineup: also under limited memory, where a
// state can come back, and in float64.
func TestChoiceValuesBestIsTheStateValue(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	lru := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}
	uniform := exact.Model{Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetHandoverUniform}, Pass: rules.PassTwoKnown}
	optimal := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	tests := []struct {
		name string
		m    exact.Model
		mu   exact.Lineup
	}{
		{"perfect memory", exact.Model{}, optimal},
		{"pass always, known-first left out", exact.Model{Pass: rules.PassAlways, Choices: rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)}, optimal},
		{"lru", lru, optimal},
		{"handover-uniform, pass two-known", uniform, optimal},
		{"lru, parity against best-response", lru, exact.Lineup{Players: 2, Policy: rules.PolicyParity, Opponent: rules.PolicyBestResponse}},
		{"lru, solitaire", lru, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}},
		{"lru, four players", lru, exact.Lineup{Players: 4, Policy: rules.PolicySafe, Opponent: rules.PolicyOptimal}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, st := range statesUpTo(tt.m, 6) {
				got, err := exact.ChoiceValues(ctx, f, tt.m, tt.mu, st)
				if err != nil {
					t.Fatalf("%v: %v", st, err)
				}
				flt, err := exact.ChoiceValues(ctx, field.Float{}, tt.m, tt.mu, st)
				if err != nil {
					t.Fatalf("%v: %v", st, err)
				}
				mine, ok := got.Of(got.PolicyChoice)
				if !ok {
					t.Fatalf("%v: the policy's choice %s is not legal", st, got.PolicyChoice)
				}
				value, policyValue := got.Value.ExpectedPairs, mine.Pairs
				if tt.mu.Players == 1 {
					value, policyValue = got.Value.ExpectedTurns, mine.Turns
				}
				if policyValue.Cmp(value) != 0 {
					t.Errorf("%v: the policy's choice %s is worth %s, the lineup %s", st, got.PolicyChoice, policyValue.RatString(), value.RatString())
				}
				if len(got.Best) == 0 || len(flt.Values) != len(got.Values) {
					t.Fatalf("%v: %d best, %d values in float64, %d exact", st, len(got.Best), len(flt.Values), len(got.Values))
				}
				for i, v := range got.Values {
					exactValue, y := v.Pairs, flt.Values[i].Pairs
					if tt.mu.Players == 1 {
						exactValue, y = v.Turns, flt.Values[i].Turns
					}
					x, _ := exactValue.Float64()
					if d := x - y; d > 1e-9 || d < -1e-9 {
						t.Errorf("%v %s: %g exact, %g in float64", st, v.Choice, x, y)
					}
				}
				if tt.mu != optimal && tt.mu.Players != 1 {
					continue
				}
				best, _ := got.Of(got.Best[0])
				bestValue := best.Pairs
				if tt.mu.Players == 1 {
					bestValue = best.Turns
				}
				if bestValue.Cmp(value) != 0 || best.Diff.Sign() != 0 {
					t.Errorf("%v: the best choice %s is worth %s, the state %s", st, best.Choice, bestValue.RatString(), value.RatString())
				}
			}
		})
	}
}

// The best choice to win is worth win-optimal's score, WinDrawLoss's, at every lead, and so is
// the policy's own choice; win, draw and loss add up to 1 in every row.
func TestWinChoiceValuesBestIsWinOptimal(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, m := range []exact.Model{{}, {Pass: rules.PassTwoKnown}, {Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}}} {
		for _, counts := range statesUpTo(m, bySize(3, 4, 4)) {
			for _, d := range []int{-3, -1, 0, 2} {
				st := counts
				st.Lead = d
				got, err := exact.WinChoiceValues(ctx, f, m, mu, st)
				if err != nil {
					t.Fatalf("%v: %v", st, err)
				}
				wdl, err := exact.WinDrawLoss(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want := wdl[0].Score(f)
				best, _ := got.Of(got.Best[0])
				mine, _ := got.Of(got.PolicyChoice)
				if best.Score.Cmp(want) != 0 || mine.Score.Cmp(want) != 0 || got.Value.Score(f).Cmp(want) != 0 {
					t.Errorf("%v %v: best %s %s, policy's %s %s, WinDrawLoss %s", m.Pass, st, best.Choice, best.Score.RatString(),
						mine.Choice, mine.Score.RatString(), want.RatString())
				}
				for _, v := range got.Values {
					sum := new(big.Rat).Add(v.Win, v.Draw)
					if sum.Add(sum, v.Loss).Cmp(big.NewRat(1, 1)) != 0 || v.Diff.Sign() > 0 {
						t.Errorf("%v %s: win + draw + loss = %s, behind the best by %s", st, v.Choice, sum.RatString(), v.Diff.RatString())
					}
				}
			}
		}
	}
}

// Where only one choice is legal (nothing remembered, pass never) the list has one row, the best.
func TestChoiceValuesOneLegalChoice(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	st := rules.State{N: 5, J: 5}
	got, err := exact.ChoiceValues(ctx, field.Rat{}, exact.Model{}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Values) != 1 || got.Values[0].Choice != rules.Daring || !got.Values[0].Best || got.Values[0].Pairs.Cmp(got.Value.ExpectedPairs) != 0 {
		t.Errorf("%v: %+v", st, got.Values)
	}
	wv, err := exact.WinChoiceValues(ctx, field.Rat{}, exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(wv.Values) != 1 || !wv.Values[0].Best {
		t.Errorf("%v: %+v", st, wv.Values)
	}
}

// A request the choice values cannot answer is an error naming why.
func TestChoiceValuesErrors(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	optimal := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"no pair", func() error { _, err := exact.ChoiceValues(ctx, f, exact.Model{}, optimal, rules.State{}); return err }, "no pair left"},
		{"bad state", func() error {
			_, err := exact.ChoiceValues(ctx, f, exact.Model{}, optimal, rules.State{N: 2, J: 3})
			return err
		}, "unknown pairs 3"},
		{"win for three", func() error {
			_, err := exact.WinChoiceValues(ctx, f, exact.Model{}, exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, rules.State{N: 2, J: 2})
			return err
		}, "2 players"},
		{"win with best-response", func() error {
			_, err := exact.WinChoiceValues(ctx, f, exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, rules.State{N: 2, J: 2})
			return err
		}, "win-best-response"},
	}
	for _, tt := range tests {
		if err := tt.err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
