package review_test

import (
	"context"
	"math/big"
	"slices"
	"testing"
	"time"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// benchGame returns a 26-pair game of the optimal policy against daring, and the values of its
// model with win scores.
func benchGame(b *testing.B) (*review.Values[*big.Rat], *record.Game) {
	b.Helper()
	ctx := context.Background()
	m := exact.Model{}
	v, err := review.NewValues(ctx, field.Rat{}, m, 26, true)
	if err != nil {
		b.Fatal(err)
	}
	opt, err := exact.PolicyTable(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, 26)
	if err != nil {
		b.Fatal(err)
	}
	daring, err := rules.FixedChoiceTable(rules.PolicyDaring, 26, 0)
	if err != nil {
		b.Fatal(err)
	}
	return v, playRecord(b, m, 26, [2]*rules.ChoiceTable{opt, daring}, 1)
}

// BenchmarkReview26 reviews a 26-pair game in exact arithmetic, with win scores, the values
// solved once beforehand.
func BenchmarkReview26(b *testing.B) {
	v, g := benchGame(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := review.Game(context.Background(), v, g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValues26 solves the values a 26-pair review needs: expected pairs and win scores at
// every lead, in exact arithmetic.
func BenchmarkValues26(b *testing.B) {
	for b.Loop() {
		if _, err := review.NewValues(context.Background(), field.Rat{}, exact.Model{}, 26, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNext26 answers the coach's question at the end of a 26-pair game less its last turn:
// every option's expected pairs and win score, the values solved once beforehand.
func BenchmarkNext26(b *testing.B) {
	v, g := benchGame(b)
	prefix := &record.Game{Rules: g.Rules, Moves: slices.Clone(g.Moves[:len(g.Moves)-2])}
	for i := range prefix.Moves {
		prefix.Moves[i].Seat = -1
	}
	if err := prefix.Check(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := review.Next(context.Background(), v, prefix); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCoach26 does what a coach does before each move of a 26-pair game: it reviews the
// game so far (for what the last move cost) and values the decision to make (Next), at every
// move of the game in turn, the values solved once beforehand. It reports the median and the
// 99th percentile of the time per move.
func BenchmarkCoach26(b *testing.B) {
	v, g := benchGame(b)
	ctx := context.Background()
	var times []time.Duration
	for b.Loop() {
		for k := range len(g.Moves) {
			prefix := &record.Game{Rules: g.Rules, Moves: slices.Clone(g.Moves[:k])}
			for i := range prefix.Moves {
				prefix.Moves[i].Seat = -1
			}
			start := time.Now()
			if err := prefix.Check(); err != nil {
				b.Fatal(err)
			}
			if _, err := review.Game(ctx, v, prefix); err != nil && k > 0 {
				b.Fatal(err)
			}
			if _, err := review.Next(ctx, v, prefix); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "µs-median/move")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "µs-p99/move")
}
