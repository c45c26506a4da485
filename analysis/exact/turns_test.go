package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestChoiceValuesAtEqualEachPositionSolvedAlone checks the values of many positions of a game
// under a turn limit, from one backward induction, against ChoiceValues and WinChoiceValues called
// for each position alone with the turn limit set to its turns left: every field of every choice,
// exactly.
func TestChoiceValuesAtEqualEachPositionSolvedAlone(t *testing.T) {
	ctx := context.Background()
	type game struct {
		model exact.Model
		mu    exact.Lineup
		win   bool
	}
	two := func(p, o rules.Policy) exact.Lineup { return exact.Lineup{Players: 2, Policy: p, Opponent: o} }
	games := []game{
		{exact.Model{}, two(rules.PolicyOptimal, rules.PolicyOptimal), true},
		{exact.Model{}, two(rules.PolicySafe, rules.PolicyDaring), false},
		{exact.Model{Pass: rules.PassAlways}, two(rules.PolicyOptimal, rules.PolicyOptimal), false},
		{exact.Model{Singletons: 1}, two(rules.PolicyOptimal, rules.PolicyOptimal), false},
		{exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}, two(rules.PolicyOptimal, rules.PolicySafe), false},
		{exact.Model{}, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}, false},
		{exact.Model{}, exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, false},
		{exact.Model{}, two(rules.PolicyWinOptimal, rules.PolicyWinOptimal), true},
	}
	const limit = 5
	for _, g := range games {
		var at []exact.TurnState
		for n := 3; n >= 1; n-- {
			for j := 0; j <= n; j++ {
				for tl := 1; tl <= limit-1; tl += 2 {
					for fu := 0; fu <= g.model.Singletons; fu++ {
						st := rules.State{N: n, J: j, S: g.model.Singletons, F: fu}
						if g.mu.Players == 2 {
							st.Lead = (n+j+tl)%5 - 2
						}
						at = append(at, exact.TurnState{State: st, TurnsLeft: tl})
					}
				}
			}
		}
		at = append(at, at[0]) // a position asked twice
		m := g.model
		m.Variant.TurnLimit = limit
		name := fmt.Sprintf("%+v, %d players %v vs %v", g.model, g.mu.Players, g.mu.Policy, g.mu.Opponent)
		got, err := exact.ChoiceValuesAt[*big.Rat](ctx, field.Rat{}, m, g.mu, at)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var gotWin []exact.WinChoices[*big.Rat]
		if g.win {
			if gotWin, err = exact.WinChoiceValuesAt[*big.Rat](ctx, field.Rat{}, m, g.mu, at); err != nil {
				t.Fatalf("%s: to win: %v", name, err)
			}
		}
		for i, p := range at {
			alone := g.model
			alone.Variant.TurnLimit = p.TurnsLeft
			want, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, alone, g.mu, p.State)
			if err != nil {
				t.Fatalf("%s, %v with %d turns left: %v", name, p.State, p.TurnsLeft, err)
			}
			if a, b := fmt.Sprint(got[i]), fmt.Sprint(want); a != b {
				t.Errorf("%s, %v with %d turns left:\n  together %s\n  alone    %s", name, p.State, p.TurnsLeft, a, b)
			}
			if !g.win {
				continue
			}
			wantWin, err := exact.WinChoiceValues[*big.Rat](ctx, field.Rat{}, alone, g.mu, p.State)
			if err != nil {
				t.Fatalf("%s, %v with %d turns left: to win: %v", name, p.State, p.TurnsLeft, err)
			}
			if a, b := fmt.Sprint(gotWin[i]), fmt.Sprint(wantWin); a != b {
				t.Errorf("%s, %v with %d turns left, to win:\n  together %s\n  alone    %s", name, p.State, p.TurnsLeft, a, b)
			}
		}
	}
}

// TestCopiesChoiceValuesAtEqualEachPositionSolvedAlone checks the values of many positions of a
// game of four copies of a face, from one copies solver, against CopiesChoiceValues called for each
// position alone (under a turn limit, with the limit set to its turns left).
func TestCopiesChoiceValuesAtEqualEachPositionSolvedAlone(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, limit := range []int{0, 4} {
			m := exact.Model{Variant: rules.Variant{Copies: 4, Flips: flips, TurnLimit: limit}}
			var at []exact.CopiesTurnState
			// Faces of four cards (index 1) and of two (index 0), unknown or with a card seen.
			for _, c := range [][4]int{{0, 0, 2, 0}, {0, 0, 1, 1}, {1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 0, 0}, {0, 0, 0, 2}} {
				st := exact.CopiesState{Unknown: []int{c[0], c[2]}, Half: []int{c[1], c[3]}}
				for tl := 1; tl <= max(limit, 1); tl++ {
					p := exact.CopiesTurnState{State: st}
					if limit > 0 {
						p.TurnsLeft = tl
					}
					at = append(at, p)
				}
			}
			name := fmt.Sprintf("%v", m.Variant)
			got, err := exact.CopiesChoiceValuesAt[*big.Rat](ctx, field.Rat{}, m, mu, at)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i, p := range at {
				alone := m
				alone.Variant.TurnLimit = p.TurnsLeft
				want, err := exact.CopiesChoiceValues[*big.Rat](ctx, field.Rat{}, alone, mu, p.State)
				if err != nil {
					t.Fatalf("%s, %v with %d turns left: %v", name, p.State, p.TurnsLeft, err)
				}
				if a, b := fmt.Sprint(got[i]), fmt.Sprint(want); a != b {
					t.Errorf("%s, %v with %d turns left:\n  together %s\n  alone    %s", name, p.State, p.TurnsLeft, a, b)
				}
			}
		}
	}
}

// TestChoiceValuesAtRefuseBadPositions checks the one-line errors of positions that cannot be
// valued.
func TestChoiceValuesAtRefuseBadPositions(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	limited := exact.Model{Variant: rules.Variant{TurnLimit: 4}}
	st := rules.State{N: 2, J: 1}
	cases := []struct {
		name string
		m    exact.Model
		at   exact.TurnState
		want string
	}{
		{"no limit", exact.Model{}, exact.TurnState{State: st, TurnsLeft: 1}, "need a turn limit"},
		{"no turn left", limited, exact.TurnState{State: st}, "0 turns left, must be 1 to the turn limit 4"},
		{"beyond the limit", limited, exact.TurnState{State: st, TurnsLeft: 5}, "5 turns left, must be 1 to the turn limit 4"},
		{"no pair", limited, exact.TurnState{State: rules.State{}, TurnsLeft: 1}, "no pair left"},
		{"singletons", limited, exact.TurnState{State: rules.State{N: 2, J: 1, S: 1, F: 1}, TurnsLeft: 1}, "1 singletons, the model 0"},
	}
	for _, c := range cases {
		_, err := exact.ChoiceValuesAt[float64](ctx, field.Float{}, c.m, mu, []exact.TurnState{c.at})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	copies := exact.Model{Variant: rules.Variant{Copies: 4}}
	cst := exact.CopiesState{Unknown: []int{0, 1}, Half: []int{0, 0}}
	if _, err := exact.CopiesChoiceValuesAt[float64](ctx, field.Float{}, copies, mu, []exact.CopiesTurnState{{State: cst, TurnsLeft: 2}}); err == nil || !strings.Contains(err.Error(), "2 turns left without a turn limit") {
		t.Errorf("copies, turns left without a limit: error %v", err)
	}
	copies.Variant.TurnLimit = 3
	if _, err := exact.CopiesChoiceValuesAt[float64](ctx, field.Float{}, copies, mu, []exact.CopiesTurnState{{State: cst}}); err == nil || !strings.Contains(err.Error(), "0 turns left, must be 1 to the turn limit 3") {
		t.Errorf("copies, no turn left under a limit: error %v", err)
	}
}
