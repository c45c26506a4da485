package tournament

import (
	"context"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
)

// fourSeatDecay is a tournament of four seats on 2 pairs with shared decay memory of capacity 3,
// in which a seat's adjusted mean differs from the reference value by a rare choice's advantage.
const fourSeatDecay = `name: rare
games: 4000
rules: {pairs: [2], players_per_game: 4}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: decay, q: 0.2}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: decay, q: 0.2}}
  - {name: daring, policy: daring, memory: {capacity: 3, forget: decay, q: 0.2}}
  - {name: parity, policy: parity, memory: {capacity: 3, forget: decay, q: 0.2}}
`

// seating returns the match and the seat order of t that seat the named players in that order.
func seating(t *testing.T, tr *Tournament, names ...string) (*Match, []int) {
	t.Helper()
	for mi := range tr.Matches {
		m := &tr.Matches[mi]
		for _, order := range m.Orders {
			if slices.Equal(tr.Names(m.Seats(order)), names) {
				return m, order
			}
		}
	}
	t.Fatalf("no seating %v", names)
	return nil, nil
}

// A sample of N games may miss an event of rate about 1/N altogether. The adjusted check must not
// reject such a sample when it is likely (here more likely than the level 0.01): neither when the
// missed event is a choice whose advantage carries the whole difference between the seat's mean
// and the reference value (every adjusted score is then the reference value), nor when it is any
// score but 0 (the seat's score never varies, and its adjusted mean is its raw mean).
func TestAdjustedCheckAcceptsALikelySampleThatMissedARareEvent(t *testing.T) {
	ctx := context.Background()
	cfg, err := configs.Parse("rare.yaml", []byte(fourSeatDecay), ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := rules.State{N: 2, J: 2}
	const seat = 3
	for _, tc := range []struct {
		name  string
		seats []string
		games int64
		// missed returns the probability of the sample and its adjusted mean, from the exact mean
		// of the seat, the reference value and the luck table.
		missed func(want, ref float64, lt *rules.LuckTable) (prob, mean float64)
		// scored is the number of games in which the seat took a pair (1 pair each).
		scored int64
	}{
		{
			// The only choice of this seating with a non-zero advantage is safe's in (2, 1), which
			// seat 3 makes (parity, optimal and daring play daring there, and safe and daring have
			// no advantage where every pair is half-known): the seat's mean is the reference value
			// plus that choice's rate times its advantage for the mover.
			name: "an unseen choice", seats: []string{"parity", "optimal", "daring", "safe"}, games: 4000, scored: 30,
			missed: func(want, ref float64, lt *rules.LuckTable) (float64, float64) {
				a, ok := lt.Advantage(rules.State{N: 2, J: 1}, false, rules.Safe, 0)
				if !ok || a >= 0 {
					t.Fatalf("advantage of safe in (2, 1): %v %v, want a loss", a, ok)
				}
				rate := (want - ref) / a
				return math.Pow(1-rate, 4000), ref
			},
		},
		{
			// A seat takes a pair in a game with probability at most its mean pairs: it never does
			// in N games with probability at least (1 - mean)^N.
			name: "an unseen pair", seats: []string{"safe", "optimal", "parity", "daring"}, games: 400,
			missed: func(want, _ float64, _ *rules.LuckTable) (float64, float64) {
				return math.Pow(1-want, 400), 0
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, order := seating(t, tr, tc.seats...)
			model, mu, ok := tr.ExactModel(2, m.Seats(order))
			if !ok {
				t.Fatal("no exact model")
			}
			val, err := exact.Evaluate(ctx, field.Float{}, model, mu, start)
			if err != nil {
				t.Fatal(err)
			}
			want := val.PairsBySeat[seat]
			ref, ok := m.Setup.Luck.Value(start, false, seat)
			if !ok {
				t.Fatal("no reference value")
			}
			prob, mean := tc.missed(want, ref, m.Setup.Luck)
			if prob <= 0.01 {
				t.Fatalf("the sample has probability %.3g, not more than the level", prob)
			}
			share := make([]int64, 2*4+1)
			share[0], share[4] = tc.games-tc.scored, tc.scored
			tally := &sim.Tally{Seats: 4, Pairs: 2, Games: tc.games, Share: [][]int64{seat: share}}
			mo := stats.Moments{N: tc.games, Mean: mean}
			largest := largestAdvantages(m.Setup, order, 2)
			c := zCheck("/adjusted", mo.Mean, adjustedStdErr(mo, tally, seat, want, largest[seat]), want)
			if c.PValue < 0.01 {
				t.Errorf("a sample of probability %.3g (adjusted mean %.6f, exact %.6f) rejected: z %.3g, p %.3g", prob, mean, want, c.Statistic, c.PValue)
			}
		})
	}
}
