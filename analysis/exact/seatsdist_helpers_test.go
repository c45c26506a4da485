package exact_test

import (
	"context"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The checks every seat's score distribution shares across its models: the card-level play
// compared share by share with SeatsScoreDistribution, and the identities every distribution
// meets (sums, means, float64 against exact rationals).

// checkReplySeats fails when a lineup with a best-response seat has a seat playing anything but
// the policy the reply table answers.
func checkReplySeats(t *testing.T, name string, seats []rules.Policy, replyTo rules.Policy) {
	t.Helper()
	if !slices.Contains(seats, rules.PolicyBestResponse) {
		return
	}
	for i, p := range seats {
		if p != rules.PolicyBestResponse && p != replyTo {
			t.Fatalf("%s: seat %d plays %s, the reply table answers %s", name, i, p, replyTo)
		}
	}
}

// cardLevelMemory returns the card-level player's memory for mem in a deal of n pairs: lru with
// room for the whole deal is perfect memory.
func cardLevelMemory(mem rules.Memory, n int) (lru bool, capacity int) {
	if mem.Perfect() {
		return true, 2 * n
	}
	return mem.Forget == rules.ForgetLRU, mem.Capacity
}

// compareSeatsCardPlay compares every seat's distribution of the pairs it takes at three seats,
// got from card play (seat blocks of width w, in thirds of a pair, the unfinished games last), with
// want from SeatsScoreDistribution. Card play may leave at most maxUnfinished of the games
// unfinished (after depth turns); every share may differ by that much and 1e-9 more.
func compareSeatsCardPlay(t *testing.T, name string, got seatsDist, want exact.SeatsDistribution[float64], w, depth int, maxUnfinished float64) {
	t.Helper()
	unfinished := got[3*w]
	if !(unfinished <= maxUnfinished) {
		t.Fatalf("%s: %.2g of the games unfinished after %d turns (at most %.2g allowed)", name, unfinished, depth, maxUnfinished)
	}
	// Under pass rule never every share is whole (Unit 1), the card play's in thirds.
	step := 3 / want.Unit
	for seat := range 3 {
		for i := range w {
			wp := 0.0
			if i%step == 0 {
				wp = want.Prob[seat][i/step]
			}
			if math.Abs(got[seat*w+i]-wp) > unfinished+1e-9 {
				t.Errorf("%s: seat %d takes %d/3 pairs: card play %.12f (unfinished %.2g), exact %.12f", name, seat, i, got[seat*w+i], unfinished, wp)
			}
		}
	}
}

// checkSeatsDistIdentities solves every seat's distribution of lineup mu under m from st in exact
// rationals and float64, and checks that every seat's probabilities are non-negative and add up
// to 1, that its mean is its expected pairs from Evaluate, and that float64 agrees within 1e-12.
// It returns the exact distribution and the sum of the seats' means.
func checkSeatsDistIdentities(t *testing.T, ctx context.Context, name string, m exact.Model, mu exact.Lineup, st rules.State, seats int) (exact.SeatsDistribution[*big.Rat], *big.Rat) {
	t.Helper()
	rat, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fl, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	vals, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(rat.Prob) != seats || rat.Unit*st.N+1 != len(rat.Prob[0]) {
		t.Fatalf("%s: %d seats of %d shares, unit %d", name, len(rat.Prob), len(rat.Prob[0]), rat.Unit)
	}
	means := new(big.Rat)
	for seat := range seats {
		total := new(big.Rat)
		for _, p := range rat.Prob[seat] {
			if p.Sign() < 0 {
				t.Errorf("%s: seat %d: a negative probability %s", name, seat, p.RatString())
			}
			total.Add(total, p)
		}
		if total.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: seat %d: the probabilities add up to %s", name, seat, total.RatString())
		}
		mean := rat.Mean(field.Rat{}, seat)
		means.Add(means, mean)
		if mean.Cmp(vals.PairsBySeat[seat]) != 0 {
			t.Errorf("%s: seat %d: mean %s, expected pairs %s", name, seat, mean.RatString(), vals.PairsBySeat[seat].RatString())
		}
		for i, p := range rat.Prob[seat] {
			want, _ := p.Float64()
			if math.Abs(fl.Prob[seat][i]-want) > 1e-12 {
				t.Errorf("%s: seat %d share %d/%d: float64 %.15f, exact %.15f", name, seat, i, rat.Unit, fl.Prob[seat][i], want)
			}
		}
	}
	return rat, means
}

// seatsPolicyChoosers solves the every-seat-for-itself table and the best-response table
// (answering replyTo) of m at three seats for n pairs and returns the choosers of every policy,
// through choose (a table's chooser, or a fixed policy's when the table is nil).
func seatsPolicyChoosers(t *testing.T, ctx context.Context, m exact.Model, n int, replyTo rules.Policy,
	choose func(tab *rules.ChoiceTable, pol rules.Policy) fspChooser) map[rules.Policy]fspChooser {
	t.Helper()
	o, b := rules.PolicyOptimal, rules.PolicyBestResponse
	opt, err := exact.PolicyTable(ctx, field.Float{}, m, exact.Lineup{Players: 3, Policy: o, Opponent: o}, n)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := exact.PolicyTable(ctx, field.Float{}, m, exact.Lineup{Players: 3, Policy: b, Opponent: replyTo}, n)
	if err != nil {
		t.Fatal(err)
	}
	return map[rules.Policy]fspChooser{
		o:                  choose(opt, o),
		rules.PolicySafe:   choose(nil, rules.PolicySafe),
		rules.PolicyDaring: choose(nil, rules.PolicyDaring),
		b:                  choose(reply, b),
	}
}
