package main

import (
	"math"
	"testing"

	"memsim/sim"
	"memsim/tournament"
)

// A count takes the singular for one only, and the plural its noun's ending calls for.
func TestCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int64
		noun string
		want string
	}{
		{1, "worker", "1 worker"},
		{2, "worker", "2 workers"},
		{0, "worker", "0 workers"},
		{1, "tournament", "1 tournament"},
		{7, "tournament", "7 tournaments"},
		{1, "singleton", "1 singleton"},
		{3, "singleton", "3 singletons"},
		{1, "match", "1 match"},
		{20, "match", "20 matches"},
		{2, "box", "2 boxes"},
		{-1, "game", "-1 games"},
		{4000000, "game", "4000000 games"},
	} {
		if got := count(c.n, c.noun); got != c.want {
			t.Errorf("count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := count(1, "shard"); got != "1 shard" {
		t.Errorf("count of an int: %q", got)
	}
}

// A rate has 3 significant digits, commas between the thousands and no exponent.
func TestRateText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		want string
	}{
		{173456, "173,000"},
		{172999, "173,000"},
		{1234.5, "1,230"},
		{999.6, "1,000"},
		{100, "100"},
		{99.96, "100"},
		{12.34, "12.3"},
		{1, "1.00"},
		{0.0456, "0.0456"},
		{2096543, "2,100,000"},
		{1.73e12, "1,730,000,000,000"},
		{0, "0"},
		{-5, "0"},
		{math.NaN(), "0"},
		{math.Inf(1), "0"},
	} {
		if got := rateText(c.v); got != c.want {
			t.Errorf("rateText(%g) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := significant(2096543, 4); got != "2,097,000" {
		t.Errorf("4 digits: %q", got)
	}
	if got := significant(518.44, 4); got != "518.4" {
		t.Errorf("4 digits: %q", got)
	}
}

// TestFaultsLine checks what memsim run says of the players that forfeit at a fault: nothing when
// none does, else each one's games forfeited by kind, in the order given.
func TestFaultsLine(t *testing.T) {
	for _, tt := range []struct {
		fs   []tournament.PlayerFaults
		want string
	}{
		{nil, ""},
		{[]tournament.PlayerFaults{{Name: "a"}}, "; forfeited: a 0 (0 crashes, 0 timeouts, 0 illegal moves)"},
		{[]tournament.PlayerFaults{{Name: "a", FaultCounts: sim.FaultCounts{Crash: 2, Timeout: 1}}, {Name: "b", FaultCounts: sim.FaultCounts{Illegal: 1}}},
			"; forfeited: a 3 (2 crashes, 1 timeout, 0 illegal moves), b 1 (0 crashes, 0 timeouts, 1 illegal move)"},
	} {
		if got := faultsLine(tt.fs); got != tt.want {
			t.Errorf("faultsLine(%+v) = %q, want %q", tt.fs, got, tt.want)
		}
	}
}
