package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesWinChoiceValuesAtMatchesOneSolveEach checks that the win values of many positions
// from one copies solver equal CopiesWinChoiceValues solved for each position alone, with the
// turn limit set to the position's turns left: four copies of a face, pass rules never,
// two-known and always, with and without a turn limit, at leads behind, level and ahead (a
// decided lead too), in exact rationals; and that the float64 path agrees with them.
func TestCopiesWinChoiceValuesAtMatchesOneSolveEach(t *testing.T) {
	ctx := context.Background()
	wmu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, c := range []struct {
		pass  rules.PassRule
		limit int
	}{
		{rules.PassNever, 0}, {rules.PassNever, 4}, {rules.PassTwoKnown, 0}, {rules.PassAlways, 3},
	} {
		m := Model{Pass: c.pass, Variant: rules.Variant{Copies: 4, TurnLimit: c.limit}}
		var at []CopiesTurnState
		var leads []int
		for _, s := range []string{"4:2u", "4:2h", "4:1h,2:1u", "2:2h", "4:1u"} {
			st, err := ParseCopiesState(s, 4)
			if err != nil {
				t.Fatal(err)
			}
			for _, lead := range []int{-1, 0, 2, 5} {
				t1 := 0
				if c.limit > 0 {
					t1 = 1 + (len(at) % c.limit)
				}
				at, leads = append(at, CopiesTurnState{State: st, TurnsLeft: t1}), append(leads, lead)
			}
		}
		name := fmt.Sprintf("pass=%s/limit=%d", c.pass, c.limit)
		got, err := CopiesWinChoiceValuesAt(ctx, field.Rat{}, m, wmu, at, leads)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fl, err := CopiesWinChoiceValuesAt(ctx, field.Float{}, m, wmu, at, leads)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, p := range at {
			one := m
			one.Variant.TurnLimit = p.TurnsLeft
			want, err := CopiesWinChoiceValues(ctx, field.Rat{}, one, wmu, p.State, leads[i])
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(got[i].Values) != len(want.Values) || got[i].State != want.State {
				t.Fatalf("%s %v lead %d, %d left: %d choices in %v, want %d in %v", name, p.State, leads[i], p.TurnsLeft,
					len(got[i].Values), got[i].State, len(want.Values), want.State)
			}
			for j, w := range want.Values {
				g := got[i].Values[j]
				if g.Choice != w.Choice || g.Win.Cmp(w.Win) != 0 || g.Draw.Cmp(w.Draw) != 0 || g.Score.Cmp(w.Score) != 0 {
					t.Errorf("%s %v lead %d, %d left: %v win %v draw %v score %v; one solve %v %v %v %v", name, p.State, leads[i],
						p.TurnsLeft, g.Choice, g.Win, g.Draw, g.Score, w.Choice, w.Win, w.Draw, w.Score)
				}
				if x, _ := w.Score.Float64(); fl[i].Values[j].Score-x > 1e-12 || x-fl[i].Values[j].Score > 1e-12 {
					t.Errorf("%s %v lead %d: %v float64 score %v, rational %v", name, p.State, leads[i], g.Choice, fl[i].Values[j].Score, w.Score)
				}
			}
			if got[i].Value.Win.Cmp(want.Value.Win) != 0 || got[i].PolicyChoice != want.PolicyChoice {
				t.Errorf("%s %v lead %d: value %v, %v; one solve %v, %v", name, p.State, leads[i], got[i].Value.Win, got[i].PolicyChoice, want.Value.Win, want.PolicyChoice)
			}
		}
	}
}

// TestCopiesWinChoiceValuesAtRefusesBadInput checks the errors of positions the solver cannot
// value: leads that do not match the positions, a lineup in which no role plays to win, turns
// left beyond the limit.
func TestCopiesWinChoiceValuesAtRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	st, err := ParseCopiesState("4:2u", 4)
	if err != nil {
		t.Fatal(err)
	}
	m := Model{Variant: rules.Variant{Copies: 4, TurnLimit: 3}}
	wmu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	opt := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	at := []CopiesTurnState{{State: st, TurnsLeft: 3}}
	for _, c := range []struct {
		mu    Lineup
		at    []CopiesTurnState
		leads []int
	}{
		{wmu, at, nil},
		{opt, at, []int{0}},
		{wmu, []CopiesTurnState{{State: st, TurnsLeft: 4}}, []int{0}},
	} {
		if _, err := CopiesWinChoiceValuesAt(ctx, field.Rat{}, m, c.mu, c.at, c.leads); err == nil {
			t.Errorf("%+v at %v, leads %v: no error", c.mu, c.at, c.leads)
		}
	}
}
