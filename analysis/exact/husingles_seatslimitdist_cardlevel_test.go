package exact

import (
	"context"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of every seat's score distribution at three or more seats for
// singletons under a shared handover-uniform memory and a turn limit: the deals, turns and
// card-by-card forgetting of husingles_cardlevel_test.go (husDeal.turn, every hand-over draw), the
// pass streak and turns left of husingles_seatslimit_cardlevel_test.go, and the whole joint
// distribution of the seats' pairs (in 1/unit pairs) by recursion on the turns left, from the
// start of every deal. It reads count states only to ask the lineup for its choice.

// husSeatsLimitJoint is a joint outcome: seat b's pairs taken, in units, at index b.
type husSeatsLimitJoint [rules.MaxPlayers]int

// husSeatsLimitDistRef is one deal's joint distributions for a lineup whose seat m chooses
// choose(m, l, counts, t).
type husSeatsLimitDistRef struct {
	d                          *husDeal
	p, singles, capacity, unit int
	choose                     func(m, l int, st rules.State, t int) rules.Choice
	memo                       map[husSeatsLimitKey]map[husSeatsLimitJoint]float64
}

// shift returns x with seat b's pairs raised by k units.
func husJointShift(x map[husSeatsLimitJoint]float64, b, k int) map[husSeatsLimitJoint]float64 {
	out := make(map[husSeatsLimitJoint]float64, len(x))
	for j, q := range x {
		j[b] += k
		out[j] += q
	}
	return out
}

// start returns the joint distribution with seat m to move at streak 0 and t turns left on a table
// that may hold a pair known whole, which m takes first in a turn of its own.
func (r *husSeatsLimitDistRef) start(m int, st husCardState, t int) map[husSeatsLimitJoint]float64 {
	if t == 0 {
		return map[husSeatsLimitJoint]float64{{}: 1}
	}
	if f := r.d.fullPair(st); f >= 0 {
		return husJointShift(r.dist(m, 0, r.d.take(st, f), t-1), m, r.unit)
	}
	return r.dist(m, 0, st, t)
}

// dist returns the joint distribution with seat m to move at streak l and t turns left.
func (r *husSeatsLimitDistRef) dist(m, l int, st husCardState, t int) map[husSeatsLimitJoint]float64 {
	if t == 0 || st.present == 0 {
		return map[husSeatsLimitJoint]float64{{}: 1}
	}
	key := husSeatsLimitKey{st, m, l, t}
	if x, ok := r.memo[key]; ok {
		return x
	}
	ch := r.choose(m, l, r.d.counts(st, r.singles), t)
	next := (m + 1) % r.p
	out := map[husSeatsLimitJoint]float64{}
	switch {
	case ch == rules.Pass && l == r.p-1:
		var j husSeatsLimitJoint
		for b := range r.p {
			j[b] = bitsOf(st.present) * r.unit / r.p
		}
		out[j] = 1
	case ch == rules.Pass:
		out = r.dist(next, l+1, st, t-1)
	default:
		for _, e := range r.d.turn(st, ch, r.capacity) {
			var x map[husSeatsLimitJoint]float64
			if e.keep {
				x = husJointShift(r.start(m, e.to, t-1), m, e.gain*r.unit)
			} else {
				x = r.start(next, e.to, t-1)
			}
			for j, q := range x {
				out[j] += e.p * q
			}
		}
	}
	r.memo[key] = out
	return out
}

// TestHandoverSingletonsSeatsLimitDistributionMatchesCardPlay compares every seat's distribution
// under a turn limit from the start of a game with the marginals of the card-level joint
// distribution averaged over every deal, the lineup playing the limit model's choices, and checks
// that the joint distribution's probabilities add up to one.
func TestHandoverSingletonsSeatsLimitDistributionMatchesCardPlay(t *testing.T) {
	type tc = husSeatsLimitCase
	opt3 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	cases := []tc{
		{2, 1, 2, 3, 3, rules.PassNever, opt3, true},
		{3, 1, 3, 3, 5, rules.PassNever, opt3, false},
		{2, 2, 3, 3, 6, rules.PassAlways, opt3, false},
		{3, 1, 2, 3, 6, rules.PassTwoKnown, opt3, false},
		{2, 1, 2, 3, 5, rules.PassNever, []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring}, false},
		{2, 2, 3, 3, 5, rules.PassAlways, []rules.Policy{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicyOptimal}, false},
		{2, 1, 2, 4, 6, rules.PassTwoKnown, []rules.Policy{rules.PolicyParity, rules.PolicyBestResponse, rules.PolicySafe, rules.PolicyOptimal}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			ctx := context.Background()
			m, mu := c.model(), c.lineup()
			st := rules.State{N: c.pairs, J: c.pairs, S: c.singles, F: c.singles}
			got, err := SeatsScoreDistribution(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			// The limit model's choices, by seat, streak and turns left.
			l, err := prepareHUSSeatsLimit(ctx, field.Float{}, m, mu, c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			l.keep = true
			if err := l.run(ctx); err != nil {
				t.Fatal(err)
			}
			selfish := isSelfish(mu)
			choose := func(mv, lv int, cs rules.State, u int) rules.Choice {
				x := &l.kept[u-1][l.s.at[cs]]
				switch pol := l.pol[mv]; {
				case selfish || pol == rules.PolicyOptimal:
					return x.selfCh[lv]
				case pol == rules.PolicyBestResponse:
					return x.reply[lv]
				default:
					return pol.Decide(cs)
				}
			}
			unit := 1
			if c.pass != rules.PassNever {
				unit = c.players
			}
			want := make([][]float64, c.players)
			for b := range want {
				want[b] = make([]float64, unit*c.pairs+1)
			}
			deals := husDeals(c.pairs, c.singles)
			for _, d := range deals {
				r := &husSeatsLimitDistRef{d: &d, p: c.players, singles: c.singles, capacity: c.capacity, unit: unit,
					choose: choose, memo: map[husSeatsLimitKey]map[husSeatsLimitJoint]float64{}}
				joint := r.start(0, husCardState{present: 1<<c.pairs - 1}, c.limit)
				total := 0.0
				for j, q := range joint {
					total += q
					for b := range c.players {
						want[b][j[b]] += q / float64(len(deals))
					}
				}
				if math.Abs(total-1) > 1e-12 {
					t.Errorf("deal %v: the joint distribution adds up to %v", d.face, total)
				}
			}
			if got.Unit != unit {
				t.Errorf("unit %d, want %d", got.Unit, unit)
			}
			for b := range c.players {
				for i, w := range want[b] {
					if math.Abs(got.Prob[b][i]-w) > 1e-9 {
						t.Errorf("seat %d, share %d/%d: solver %.12f, card level %.12f", b, i, unit, got.Prob[b][i], w)
					}
				}
			}
		})
	}
}
