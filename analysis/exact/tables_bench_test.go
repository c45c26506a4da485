package exact_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchTables returns, for a deal of 52 pairs and pass rule two-known, the optimal policy's table
// (lead-independent) and win-optimal's (with a lead dimension), as a player's tables come.
func benchTables(b *testing.B) (plain, lead *rules.ChoiceTable) {
	b.Helper()
	ctx, m := context.Background(), exact.Model{Pass: rules.PassTwoKnown}
	plain, err := exact.PolicyTable[float64](ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, 52)
	if err != nil {
		b.Fatal(err)
	}
	lead, err = exact.PolicyTable[float64](ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, 52)
	if err != nil {
		b.Fatal(err)
	}
	return plain, lead
}

// BenchmarkEvaluateTable52 evaluates a table against optimal from the start of a 52-pair deal,
// pass rule two-known, in float64: a lead-independent table and one with a lead dimension.
func BenchmarkEvaluateTable52(b *testing.B) {
	plain, lead := benchTables(b)
	m, st := exact.Model{Pass: rules.PassTwoKnown}, rules.State{N: 52, J: 52}
	for _, bc := range []struct {
		name  string
		table *rules.ChoiceTable
	}{{"plain", plain}, {"lead", lead}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := exact.EvaluateTable(context.Background(), field.Float{}, m, bc.table, rules.PolicyOptimal, st); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"-win-draw-loss", func(b *testing.B) {
			for b.Loop() {
				if _, err := exact.WinDrawLossTable(context.Background(), field.Float{}, m, bc.table, rules.PolicyOptimal, st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBestResponseTo52 computes the best response to a table up to 52 pairs, pass rule
// two-known, in float64: to a lead-independent table and to one with a lead dimension.
func BenchmarkBestResponseTo52(b *testing.B) {
	plain, lead := benchTables(b)
	m := exact.Model{Pass: rules.PassTwoKnown}
	for _, bc := range []struct {
		name  string
		table *rules.ChoiceTable
	}{{"plain", plain}, {"lead", lead}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := exact.BestResponseTo(context.Background(), field.Float{}, m, bc.table, 52); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
