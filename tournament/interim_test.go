package tournament_test

import (
	"math"
	"testing"

	"memsim/sim"
)

// tally is a two-seat tally of 4 pairs with the games in which each seat's score was k/2 pairs.
func tally(seat0, seat1 map[int]int64) *sim.Tally {
	tl := &sim.Tally{Seats: 2, Pairs: 4, Share: [][]int64{make([]int64, 9), make([]int64, 9)}}
	for k, c := range seat0 {
		tl.Share[0][k] += c
		tl.Games += c
	}
	for k, c := range seat1 {
		tl.Share[1][k] += c
	}
	return tl
}

// A match's interim means average each participant's pairs over the games of every seat order
// it has played.
func TestInterim(t *testing.T) {
	tr, err := parse(t, "seed: 5\ngames: 2000\npaired: true\nrules: {pairs: [4]}\nplayers: [{name: a, policy: parity}, {name: b, policy: daring}]\n")
	if err != nil {
		t.Fatal(err)
	}
	m := &tr.Matches[0]
	if len(m.Orders) != 2 || m.Orders[0][0] != 0 || m.Orders[1][0] != 1 {
		t.Fatalf("the paired match's seat orders: %v", m.Orders)
	}
	if _, ok := m.Interim(nil); ok {
		t.Error("interim results without tallies")
	}
	if _, ok := m.Interim(&sim.Result{Orders: []*sim.Tally{tally(nil, nil), tally(nil, nil)}}); ok {
		t.Error("interim results before the first deal")
	}
	// Seat order a, b: a scores 4 and 1 pairs (shares 8 and 2 halves), b 0 and 3. Seat order b,
	// a: one game, 2 pairs each. a: (4 + 1 + 2)/3 pairs per game, b: (0 + 3 + 2)/3.
	r := &sim.Result{Deals: 2, Orders: []*sim.Tally{
		tally(map[int]int64{8: 1, 2: 1}, map[int]int64{0: 1, 6: 1}),
		tally(map[int]int64{4: 1}, map[int]int64{4: 1}),
	}}
	in, ok := m.Interim(r)
	want := []float64{7.0 / 3, 5.0 / 3}
	if !ok || in.Games != 3 || len(in.Means) != 2 ||
		math.Abs(in.Means[0]-want[0]) > 1e-12 || math.Abs(in.Means[1]-want[1]) > 1e-12 {
		t.Errorf("%+v, %v; want means %v after 3 games", in, ok, want)
	}
}
