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

// Judge takes the adjusted basis exactly where the matchup has a luck-adjusted estimate, and
// names what Outside names, as an empty list (written []) where nothing is outside.
func TestJudge(t *testing.T) {
	cases := []struct {
		name      string
		games     int64 // 0: 100
		raw       [][2]float64
		adjusted  [][2]float64 // nil: no luck-adjusted estimate
		basis     string
		outside   []string
		flag      string
		isFlagged bool
	}{
		{"raw, inside", 0, [][2]float64{{0.6, 0.7}, {1.3, 1.4}}, nil, "raw", []string{}, "", false},
		{"one game: no interval to be outside", 1, [][2]float64{{1, 1}, {1, 1}}, nil, "raw", []string{}, "", false},
		{"two games: outside", 2, [][2]float64{{1, 1}, {1, 1}}, nil, "raw", []string{"seat 0", "seat 1"}, "outside raw CI (seat 0, seat 1)", true},
		{"raw, seat 1 outside", 0, [][2]float64{{0.6, 0.7}, {1.4, 1.5}}, nil, "raw", []string{"seat 1"}, "outside raw CI (seat 1)", true},
		{"adjusted, inside though raw is not", 0, [][2]float64{{0.7, 0.8}, {1.4, 1.5}}, [][2]float64{{0.6, 0.7}, {1.3, 1.4}},
			"adjusted", []string{}, "", false},
		{"adjusted, seat 0 outside", 0, [][2]float64{{0.6, 0.7}, {1.3, 1.4}}, [][2]float64{{0.7, 0.8}, {1.3, 1.4}},
			"adjusted", []string{"seat 0"}, "outside adjusted CI (seat 0)", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := Matchup{Players: []string{"a", "b"}, Games: c.games, ExactPairs: []*string{ptr("2/3"), ptr("4/3")}, CI95: c.raw}
			if m.Games == 0 {
				m.Games = 100
			}
			if c.adjusted != nil {
				m.LuckAdjusted = &LuckAdjusted{CI95: c.adjusted}
			}
			v := m.Judge()
			if v.Basis != c.basis || v.Outside == nil || !slices.Equal(v.Outside, c.outside) {
				t.Errorf("Judge() = %+v, want basis %q and outside %q", v, c.basis, c.outside)
			}
			if v.Flag() != c.flag || v.Flagged() != c.isFlagged || isFlag(v.Flag()) != c.isFlagged {
				t.Errorf("Flag() = %q, Flagged() = %v; want %q, %v", v.Flag(), v.Flagged(), c.flag, c.isFlagged)
			}
		})
	}
}

// Flag names the interval of each thing outside: the game length of a matchup judged on the
// adjusted basis is judged on its raw interval, and says so.
func TestVerdictFlag(t *testing.T) {
	cases := []struct {
		v    Verdict
		want string
	}{
		{Verdict{Basis: BasisRaw}, ""},
		{Verdict{Basis: BasisAdjusted, Outside: []string{}}, ""},
		{Verdict{Basis: BasisRaw, Outside: []string{"seat 0", "turns"}}, "outside raw CI (seat 0, turns)"},
		{Verdict{Basis: BasisAdjusted, Outside: []string{"seat 0", "lead"}}, "outside adjusted CI (seat 0, lead)"},
		{Verdict{Basis: BasisAdjusted, Outside: []string{"turns"}}, "outside raw CI (turns)"},
		{Verdict{Basis: BasisAdjusted, Outside: []string{"seat 1", "turns"}}, "outside adjusted CI (seat 1); outside raw CI (turns)"},
	}
	for _, c := range cases {
		if got := c.v.Flag(); got != c.want {
			t.Errorf("%+v: Flag() = %q, want %q", c.v, got, c.want)
		}
	}
	for cell, want := range map[string]bool{
		"outside raw CI (seat 1)": true, "outside adjusted CI (lead); stopped early: sprt": true,
		"": false, "stopped early: sprt": false, "outside the lines": false,
	} {
		if isFlag(cell) != want {
			t.Errorf("isFlag(%q) = %v, want %v", cell, !want, want)
		}
	}
}
