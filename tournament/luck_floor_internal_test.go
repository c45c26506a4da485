package tournament

import (
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
)

// The report's interval of a luck-adjusted mean rests on a floor that counts the largest advantage
// of a choice the seats make: a likely sample of 4,000 games that never saw the rare choice whose
// advantage carries the whole difference between the seat's mean and the reference value has
// every adjusted score equal to the reference value, and its 95% interval must still cover the
// exact mean. Without the advantage in the floor it would not.
func TestReportIntervalCoversASampleThatMissedARareChoice(t *testing.T) {
	ctx := context.Background()
	cfg, err := configs.Parse("rare.yaml", []byte(fourSeatDecay), ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	const seat, games, scored = 3, 4000, 30
	m, order := seating(t, tr, "parity", "optimal", "daring", "safe")
	model, mu, ok := tr.ExactModel(2, m.Seats(order))
	if !ok {
		t.Fatal("no exact model")
	}
	start := rules.State{N: 2, J: 2}
	val, err := exact.Evaluate(ctx, field.Float{}, model, mu, start)
	if err != nil {
		t.Fatal(err)
	}
	want := val.PairsBySeat[seat]
	ref, ok := m.Setup.Luck.Value(start, false, seat)
	if !ok {
		t.Fatal("no reference value")
	}
	// Seat 3 takes a pair (4 in units of 1/4 pair) in `scored` games; a game's luck is its score
	// minus the reference value, so that every adjusted score is the reference value.
	tally := &sim.Tally{Seats: 4, Pairs: 2, Games: games, Share: make([][]int64, 4), Luck: make([]sim.LuckSums, 4)}
	for s := range 4 {
		tally.Share[s] = make([]int64, 2*4+1)
		tally.Share[s][0] = games
	}
	tally.Share[seat][0], tally.Share[seat][4] = games-scored, scored
	hit := int64(math.Round((1 - ref) / sim.LuckUnit))
	miss := int64(math.Round(-ref / sim.LuckUnit))
	tally.Luck[seat] = sim.LuckSums{
		Sum:      int128(t, scored*hit+(games-scored)*miss),
		SumSq:    int128(t, scored, hit, hit).Add(int128(t, games-scored, miss, miss)),
		SumShare: int128(t, 4*scored*hit),
	}
	covers := func(swing []float64) bool {
		la := luckAdjusted("reference", tally, false, swing)
		ci := la.CI95[seat]
		return ci[0] <= want && want <= ci[1]
	}
	if covers(nil) {
		t.Fatalf("the interval without the advantage's floor covers %.6f: the sample does not test the floor", want)
	}
	if !covers(largestAdvantages(m.Setup, order, 2)) {
		t.Errorf("the report's interval of seat %d misses its exact mean %.6f (reference %.6f)", seat, want, ref)
	}
}

// int128 returns the product of xs as a sim.Int128, through its decimal text (it may exceed int64).
func int128(t *testing.T, xs ...int64) sim.Int128 {
	t.Helper()
	p := big.NewInt(1)
	for _, x := range xs {
		p.Mul(p, big.NewInt(x))
	}
	var v sim.Int128
	if err := v.UnmarshalText([]byte(p.String())); err != nil {
		t.Fatal(err)
	}
	return v
}
