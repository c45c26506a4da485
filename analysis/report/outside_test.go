package report

import (
	"slices"
	"testing"
)

// Outside judges each exact value by the interval that judges it best: the adjusted intervals of
// a luck-adjusted matchup, and the raw intervals otherwise and for the game length.
func TestOutside(t *testing.T) {
	// Seat 0's exact 2/3 and seat 1's 4/3 pairs, and an exact 3 turns; each case sets the
	// intervals.
	type ci = [2]float64
	in0, in1, out0, out1 := ci{0.6, 0.7}, ci{1.3, 1.4}, ci{0.7, 0.8}, ci{1.4, 1.5}
	inTurns, outTurns := ci{2.9, 3.1}, ci{3.1, 3.2}
	cases := []struct {
		name     string
		raw      [][2]float64
		turns    [2]float64
		adjusted [][2]float64 // nil: no luck-adjusted estimate
		want     []string
	}{
		{"raw, all inside", [][2]float64{in0, in1}, inTurns, nil, nil},
		{"raw, seat 1 and turns outside", [][2]float64{in0, out1}, outTurns, nil, []string{"seat 1", "turns"}},
		{"adjusted inside, raw outside", [][2]float64{out0, out1}, inTurns, [][2]float64{in0, in1}, nil},
		{"adjusted outside, raw inside", [][2]float64{in0, in1}, inTurns, [][2]float64{out0, in1}, []string{"seat 0"}},
		{"adjusted inside, turns outside", [][2]float64{out0, out1}, outTurns, [][2]float64{in0, in1}, []string{"turns"}},
		{"adjusted outside, turns outside", [][2]float64{in0, in1}, outTurns, [][2]float64{in0, out1}, []string{"seat 1", "turns"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := Matchup{Players: []string{"a", "b"}, ExactPairs: []*string{ptr("2/3"), ptr("4/3")}, CI95: c.raw,
				ExactTurns: ptr("3"), CI95Turns: c.turns}
			if c.adjusted != nil {
				m.LuckAdjusted = &LuckAdjusted{CI95: c.adjusted}
			}
			if got := m.Outside(); !slices.Equal(got, c.want) {
				t.Errorf("Outside() = %q, want %q", got, c.want)
			}
		})
	}
}
