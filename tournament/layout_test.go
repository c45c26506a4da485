package tournament_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// gauntletConfig returns a gauntlet of k random players in games of p at one deal size.
func gauntletConfig(k, p int, paired bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "format: gauntlet\npaired: %v\ngames: 1000\nrules: {pairs: 2, players_per_game: %d}\nplayers:\n", paired, p)
	for i := range k {
		fmt.Fprintf(&b, "  - {name: p%d, policy: random}\n", i)
	}
	return b.String()
}

// gauntletSeatOrders counts, by going through every p-tuple of k players, the seat orders of a
// gauntlet: the tuples of distinct players that include the first one.
func gauntletSeatOrders(k, p int) int {
	count := 0
	tuple := make([]int, p)
	var next func(seat int)
	next = func(seat int) {
		if seat == p {
			seen := map[int]bool{}
			for _, x := range tuple {
				seen[x] = true
			}
			if len(seen) == p && seen[0] {
				count++
			}
			return
		}
		for x := range k {
			tuple[seat] = x
			next(seat + 1)
		}
	}
	next(0)
	return count
}

// A gauntlet is laid out within the bounds by its own seat orders: 101 players in games of two
// and 23 in games of three are played, with the seat orders counted tuple by tuple; one more
// player than the bounds allow is refused, in one line at the players key.
func TestGauntletBounds(t *testing.T) {
	tests := []struct {
		k, p   int
		paired bool
		err    string // "" for none
	}{
		{101, 2, false, ""},
		{101, 2, true, ""},
		{23, 3, false, ""},
		{59, 3, false, ""}, // 3 × 58 × 57 = 9,918 seat orders
		{102, 2, false, "t.yaml:6:3: players: 102 players in games of 2 make 5050 comparisons of two players against the first at each of 1 deal sizes: at most 5000 in all"},
		{60, 3, false, "t.yaml:6:3: players: 60 players in games of 3 make more than 10000 seat orders"}, // 3 × 59 × 58 = 10,266
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%d players, %d per game, paired %v", tt.k, tt.p, tt.paired)
		tr, err := parse(t, gauntletConfig(tt.k, tt.p, tt.paired))
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want %q", name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		orders := 0
		for _, m := range tr.Matches {
			orders += len(m.Orders)
		}
		if want := gauntletSeatOrders(tt.k, tt.p); orders != want {
			t.Errorf("%s: %d seat orders laid out, %d counted", name, orders, want)
		}
	}
}

// A sequential test Play could not run is refused by New, at the stop block, before anything is
// built: a configuration made in Go meets the parser's check.
func TestNewRefusesAStopRulePlayCannotApply(t *testing.T) {
	src := "paired: true\nstop: {sprt: {d: 0.5, alpha: 0.05, beta: 0.1}}\nplayers: [{name: a, policy: random}, {name: b, policy: random}]\n"
	for _, d := range []float64{math.Inf(1), math.NaN(), 0} {
		cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		cfg.Stop.SPRT.D = d
		_, err = tournament.New(context.Background(), cfg)
		if err == nil || !strings.HasPrefix(err.Error(), "t.yaml:2:7: stop.sprt: ") {
			t.Errorf("d = %v: %v", d, err)
		}
	}
}
