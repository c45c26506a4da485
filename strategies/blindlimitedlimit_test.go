package strategies_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysBlindLimitedUnderTurnLimit builds optimal and best-response to daring (two
// seats) and optimal (three seats, every seat for itself) under blind flips with a shared lru and
// handover-uniform memory of capacity 3 and a turn limit, and checks that the table the engine
// reads holds, in every layer of turns left and every state of up to 4 pairs, the first best
// choice of the solver's choices' values with that many turns left (ChoiceValuesAt), and that the
// layers differ somewhere, so that reading the wrong layer would show. The two-seat players then
// play 4 pairs with the engine against daring: seat 0's mean pairs must lie within 4.5 standard
// errors of the exact value under the limit.
func TestEnginePlaysBlindLimitedUnderTurnLimit(t *testing.T) {
	ctx := context.Background()
	const maxPairs, limit = 4, 6
	games := 4000
	if testing.Short() {
		games = 200
	}
	v := rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: fg}
		override := strategies.MemoryOverride{Capacity: ptrTo(3), Forget: &fg}
		model := exact.Model{Memory: mem, Variant: v}
		for _, pol := range []struct {
			spec strategies.Spec
			mu   exact.Lineup
		}{
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
			{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "daring", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}},
			{strategies.Spec{Name: "opt3", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		} {
			name := fmt.Sprintf("%v, %s, %d seats", mem, pol.spec.Policy, pol.mu.Players)
			env := strategies.Env{MaxPairs: maxPairs, Players: pol.mu.Players, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, pol.spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var at []exact.TurnState
			for n := 1; n <= maxPairs; n++ {
				for j := max(0, n-3); j <= n; j++ {
					for left := 1; left <= limit; left++ {
						at = append(at, exact.TurnState{State: rules.State{N: n, J: j}, TurnsLeft: left})
					}
				}
			}
			values, err := exact.ChoiceValuesAt(ctx, field.Rat{}, model, pol.mu, at)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			differ := 0
			for i, p := range at {
				got, ok := b.Player.Table.LookupTurnsLeft(p.State, false, p.TurnsLeft)
				if want := values[i].Best[0]; !ok || got != want {
					t.Errorf("%s, %v, %d turns left: the player plays %v (%v), the solver's best choice is %v", name, p.State, p.TurnsLeft, got, ok, want)
				}
				if first, _ := b.Player.Table.LookupTurnsLeft(p.State, false, 1); first != values[i].Best[0] {
					differ++
				}
			}
			if differ == 0 {
				t.Errorf("%s: every layer of turns left plays as the last: the test cannot tell the layers apart", name)
			}
			if pol.mu.Players != 2 {
				continue
			}
			checkEngineAgainstDaring(t, ctx, name, b.Player, pol.mu.Policy, env, override, model, maxPairs, games, 11)
		}
	}
}

// TestForgetfulPlaysTheBlindLRUTableUnderTurnLimit builds forgetful (a private lru memory of
// capacity 7) under blind flips and a turn limit, and checks that it plays the solver's table of a
// shared lru memory of capacity 7 under that variant in every layer of turns left.
func TestForgetfulPlaysTheBlindLRUTableUnderTurnLimit(t *testing.T) {
	ctx := context.Background()
	const maxPairs, limit = 5, 4
	v := rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}
	env := strategies.Env{MaxPairs: maxPairs, Players: 2, Variant: v, Tables: strategies.NewTables()}
	b, err := strategies.Build(ctx, strategies.Spec{Name: "f", Policy: "forgetful"}, env)
	if err != nil {
		t.Fatal(err)
	}
	mem := strategies.ForgetfulMemory()
	mem.Scope = rules.ScopeShared
	model := exact.Model{Memory: mem, Variant: v}
	want, err := exact.PolicyTable(ctx, field.Rat{}, model, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, maxPairs)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			for left := 1; left <= limit; left++ {
				got, ok := b.Player.Table.LookupTurnsLeft(st, false, left)
				if w, _ := want.LookupTurnsLeft(st, false, left); !ok || got != w {
					t.Errorf("%v, %d turns left: forgetful plays %v (%v), the lru(7) table %v", st, left, got, ok, w)
				}
			}
		}
	}
}
