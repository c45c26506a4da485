package exact_test

import (
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// TestSelfWinTableLimitOfReadsEachModelsLimit pins the deal size SelfWinTableLimitOf gives in
// every model it tells apart, every seat playing win-optimal and beside other policies, to the
// limit of that model: the fluctuating capacity's, decay's under a turn limit and without (under a
// pass rule too), the turn limit's in the game of pairs, and the plain one otherwise (k copies of
// a face with or without a turn limit, lru).
func TestSelfWinTableLimitOfReadsEachModelsLimit(t *testing.T) {
	decay := rules.Memory{Capacity: 4, Forget: rules.ForgetDecay, Decay: 0.2}
	fluct := rules.Memory{Capacity: 4, Forget: rules.ForgetLRU, Fluctuation: 1}
	lru := rules.Memory{Capacity: 4, Forget: rules.ForgetLRU}
	tests := []struct {
		name string
		m    exact.Model
		want func(players int, mixed bool) int
	}{
		{"perfect memory", exact.Model{},
			func(p int, mixed bool) int { return plainSelfWinTableLimit(p, mixed) }},
		{"lru, pass always", exact.Model{Memory: lru, Pass: rules.PassAlways},
			func(p int, mixed bool) int { return plainSelfWinTableLimit(p, mixed) }},
		{"turn limit 6", exact.Model{Variant: rules.Variant{TurnLimit: 6}},
			func(p int, mixed bool) int { return exact.SelfWinLimitTableLimit(p, 6, mixed) }},
		{"turn limit 20, pass two-known", exact.Model{Variant: rules.Variant{TurnLimit: 20}, Pass: rules.PassTwoKnown},
			func(p int, mixed bool) int { return exact.SelfWinLimitTableLimit(p, 20, mixed) }},
		{"copies 4", exact.Model{Variant: rules.Variant{Copies: 4}},
			func(p int, mixed bool) int { return plainSelfWinTableLimit(p, mixed) }},
		{"copies 4, turn limit 6", exact.Model{Variant: rules.Variant{Copies: 4, TurnLimit: 6}},
			func(p int, mixed bool) int { return plainSelfWinTableLimit(p, mixed) }},
		{"decay", exact.Model{Memory: decay},
			func(p int, mixed bool) int { return exact.SelfWinDecayTableLimit(exact.Model{Memory: decay}, p, mixed) }},
		{"decay, pass always", exact.Model{Memory: decay, Pass: rules.PassAlways},
			func(p int, mixed bool) int {
				return exact.SelfWinDecayTableLimit(exact.Model{Memory: decay, Pass: rules.PassAlways}, p, mixed)
			}},
		{"decay, turn limit 6", exact.Model{Memory: decay, Variant: rules.Variant{TurnLimit: 6}},
			func(p int, mixed bool) int { return exact.SelfWinDecayLimitTableLimit(p, 6, mixed) }},
		{"fluctuating capacity", exact.Model{Memory: fluct},
			func(p int, mixed bool) int {
				if mixed {
					return exact.FluctSelfWinMixedTableLimit(exact.Model{Memory: fluct}, p)
				}
				return exact.FluctSelfWinTableLimit(exact.Model{Memory: fluct}, p)
			}},
		{"fluctuating capacity, turn limit 6", exact.Model{Memory: fluct, Variant: rules.Variant{TurnLimit: 6}},
			func(p int, mixed bool) int {
				m := exact.Model{Memory: fluct, Variant: rules.Variant{TurnLimit: 6}}
				if mixed {
					return exact.FluctSelfWinMixedTableLimit(m, p)
				}
				return exact.FluctSelfWinTableLimit(m, p)
			}},
	}
	for _, tt := range tests {
		for _, p := range []int{3, 5} {
			for _, mixed := range []bool{false, true} {
				if got, want := exact.SelfWinTableLimitOf(tt.m, p, mixed), tt.want(p, mixed); got != want {
					t.Errorf("%s, %d seats, mixed %v: SelfWinTableLimitOf = %d, want %d", tt.name, p, mixed, got, want)
				}
			}
		}
	}
}

// plainSelfWinTableLimit is the limit of a model with none of its own: SelfWinTableLimit, or
// SelfWinMixedTableLimit beside other policies.
func plainSelfWinTableLimit(players int, mixed bool) int {
	if mixed {
		return exact.SelfWinMixedTableLimit(players)
	}
	return exact.SelfWinTableLimit(players)
}
