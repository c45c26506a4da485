package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Three or more seats under decay forgetting with singletons (docs/models.md §4.14), checked
// against value iteration on the card-level turns (decaySinglesChain, a pass forgetting among
// every remembered card, singletons included) and against values derived without these rows.

// singlesSeatKey is a state with singletons at a pass streak.
type singlesSeatKey struct {
	st     rules.State
	passes int
}

// singlesSeatCells returns the solver's table of every seat for itself (float64) with singletons,
// keyed by state and pass streak.
func singlesSeatCells(t *testing.T, m exact.Model, p, maxN int) map[singlesSeatKey]exact.TableCell[float64] {
	t.Helper()
	out := map[singlesSeatKey]exact.TableCell[float64]{}
	err := exact.SelfishTable(context.Background(), field.Float{}, m, p, maxN, func(c *exact.TableCell[float64]) error {
		cp := *c
		cp.BySeat = append([]float64(nil), c.BySeat...)
		out[singlesSeatKey{c.State, c.Passes}] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("%v, s=%d, pass %s, %d players: %v", m.Memory, m.Singletons, m.Pass, p, err)
	}
	return out
}

// decaySinglesStreakChain is the card-level game of a decay memory with s singletons under pass
// rule rule: every turn other than a pass, and a pass's hand-over where it is legal.
func decaySinglesStreakChain(t *testing.T, dc decayCase, rule rules.PassRule, maxN, s int) streakChain {
	t.Helper()
	chain, err := decaySinglesChain(dc, maxN, s)
	if err != nil {
		t.Fatal(err)
	}
	sc := streakChain{chain: chain, pass: map[rules.State][]cardStep{}}
	for st := range chain {
		if rules.Legal(st, rules.Pass, rule) {
			if sc.pass[st], err = decayPassSteps(st, dc.card); err != nil {
				t.Fatal(err)
			}
		}
	}
	return sc
}

// decaySinglesSeatsCase is a decay memory with singletons under a pass rule at p seats.
type decaySinglesSeatsCase struct {
	dc      decayCase
	singles int
	rule    rules.PassRule
	p       int
}

func decaySinglesSeatsCases() []decaySinglesSeatsCase {
	half := decayCase{card: cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)},
		mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}}
	quarter3 := decayCase{card: cardMemory{capacity: 3, forget: rules.ForgetDecay, q: big.NewRat(1, 4)},
		mem: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.25}}
	half2 := decayCase{card: cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 2)},
		mem: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}}
	out := []decaySinglesSeatsCase{
		{quarter3, 2, rules.PassNever, 3},
		{half, 1, rules.PassTwoKnown, 3},
		{half2, 1, rules.PassAlways, 3},
	}
	if !testing.Short() {
		out = append(out,
			decaySinglesSeatsCase{half, 2, rules.PassNever, 4},
			decaySinglesSeatsCase{quarter3, 2, rules.PassTwoKnown, 4},
			decaySinglesSeatsCase{quarter3, 1, rules.PassAlways, 3},
			decaySinglesSeatsCase{half2, 2, rules.PassNever, 3})
	}
	return out
}

// TestDecaySinglesSeatsAreCardLevel checks the optimum of every seat for itself under decay
// forgetting with singletons at three and four seats, under every pass rule: value iteration on
// the card-level turns and passes, every seat following the solver's table at every pass streak,
// gives the solver's vectors, and no choice made once, the table followed afterwards, gives the
// mover more than SelfishGaps says. Lineups mixing optimal with fixed policies give every seat's
// pairs and the values of seat 0's choices made once, both of the card-level iteration. From
// every state with 1 to 3 pairs (2 in short mode).
func TestDecaySinglesSeatsAreCardLevel(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	ctx := context.Background()
	o, sa, da := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	compared := 0
	for _, tc := range decaySinglesSeatsCases() {
		p := tc.p
		name := fmt.Sprintf("%v/s=%d/%s/p=%d", tc.dc.card, tc.singles, tc.rule, p)
		t.Run(name, func(t *testing.T) {
			chain := decaySinglesStreakChain(t, tc.dc, tc.rule, maxN, tc.singles)
			m := exact.Model{Memory: tc.dc.mem, Singletons: tc.singles, Pass: tc.rule}
			cells := singlesSeatCells(t, m, p, maxN)
			level := func(l int) int {
				if tc.rule == rules.PassNever {
					return 0 // one cell per state: no streak without a pass
				}
				return l
			}
			cellAt := func(st rules.State, l int) exact.TableCell[float64] {
				c, ok := cells[singlesSeatKey{st, level(l)}]
				if !ok {
					t.Fatalf("%v at streak %d: no cell", st, l)
				}
				return c
			}
			gaps, err := exact.SelfishGaps(ctx, field.Float{}, m, p, maxN)
			if err != nil {
				t.Fatal(err)
			}
			gapAt := map[singlesSeatKey]float64{}
			for _, g := range gaps {
				gapAt[singlesSeatKey{g.State, g.Passes}] = g.Gain
			}
			v := chain.iterate(p, func(_ int, st rules.State, l int) rules.Choice { return cellAt(st, l).Choice })
			for st := range chain.chain {
				for l := range level(p-1) + 1 {
					got := v[streakSeat{st, 0, l}]
					cell := cellAt(st, l)
					for s := range p {
						compared++
						if math.Abs(cell.BySeat[s]-got[s]) > 1e-9 {
							t.Errorf("%v streak %d seat %d: solver %v, card level %v", st, l, s, cell.BySeat[s], got[s])
						}
					}
					gain := 0.0
					for _, c := range chain.legalChoices(st) {
						gain = math.Max(gain, chain.choiceValue(v, st, 0, l, p, c)[0]-got[0])
					}
					if math.Abs(gain-gapAt[singlesSeatKey{st, l}]) > 1e-9 {
						t.Errorf("%v streak %d: a choice made once gains the mover %v over %v, SelfishGaps %v", st, l, gain, cell.Choice, gapAt[singlesSeatKey{st, l}])
					}
				}
			}
			pols := []rules.Policy{o, sa, da, o}[:p]
			if tc.rule == rules.PassNever {
				pols[0], pols[1] = da, o
			}
			lv := chain.iterate(p, func(r int, st rules.State, l int) rules.Choice {
				if pols[r] != o {
					return pols[r].Decide(st)
				}
				return cellAt(st, l).Choice
			})
			mu := exact.SeatLineup(pols...)
			for st := range chain.chain {
				res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%v, %v: %v", pols, st, err)
				}
				want := lv[streakSeat{st, 0, 0}]
				for s := range p {
					compared++
					if math.Abs(res.PairsBySeat[s]-want[s]) > 1e-9 {
						t.Errorf("%v, %v: pairs by seat %v, card level %v", pols, st, res.PairsBySeat, want)
						break
					}
				}
				choices, err := exact.ChoiceValues(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%v, %v: %v", pols, st, err)
				}
				for _, cv := range choices.Values {
					want := chain.choiceValue(lv, st, 0, 0, p, cv.Choice)
					for s := range p {
						if math.Abs(cv.PairsBySeat[s]-want[s]) > 1e-9 {
							t.Errorf("%v, %v, %v made once: pairs by seat %v, card level %v", pols, st, cv.Choice, cv.PairsBySeat, want)
							break
						}
					}
				}
			}
		})
	}
	t.Logf("compared %d seats' values with the card-level iteration", compared)
}

// TestDecaySinglesSeatsIdentities checks the optimum of every seat for itself under decay
// forgetting with singletons against values derived without its rows, at three and four seats:
// the seats share the pairs left (exactly, under every pass rule); a capacity of 2n + s is no
// capacity (exactly); q = 1e-9 without a capacity is within 1e-6 of perfect memory with
// singletons (the mover's value, pass never, a different solver). Short mode keeps three seats
// and one memory for the sums.
func TestDecaySinglesSeatsIdentities(t *testing.T) {
	maxN := bySize(2, 2, 3)
	seats, models := []int{3, 4}, 2
	if testing.Short() {
		seats, models = []int{3}, 1
	}
	decay := func(q float64, capacity, s int, rule rules.PassRule) exact.Model {
		return exact.Model{Singletons: s, Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: q, Capacity: capacity}}
	}
	vectors := func(m exact.Model, p int) map[singlesSeatKey][]*big.Rat {
		out := map[singlesSeatKey][]*big.Rat{}
		err := exact.SelfishTable(context.Background(), field.Rat{}, m, p, maxN, func(c *exact.TableCell[*big.Rat]) error {
			v := make([]*big.Rat, len(c.BySeat))
			for i, x := range c.BySeat {
				v[i] = new(big.Rat).Set(x)
			}
			out[singlesSeatKey{c.State, c.Passes}] = v
			return nil
		})
		if err != nil {
			t.Fatalf("%+v, %d players: %v", m, p, err)
		}
		return out
	}
	for _, p := range seats {
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			for _, m := range []exact.Model{decay(0.3, 3, 1, rule), decay(0.3, 0, 2, rule)}[:models] {
				got := vectors(m, p)
				if len(got) == 0 {
					t.Fatalf("%+v, %d players: no state", m, p)
				}
				for k, v := range got {
					if s := idSum(v); s.Cmp(big.NewRat(int64(k.st.N), 1)) != 0 {
						t.Errorf("%v, s=%d, %s, %d players, %v streak %d: seats sum to %s", m.Memory, m.Singletons, rule, p, k.st, k.passes, s.RatString())
					}
				}
			}
		}
		const s = 1
		none := vectors(decay(0.25, 0, s, rules.PassNever), p)
		wide := vectors(decay(0.25, 2*maxN+s, s, rules.PassNever), p)
		for k, a := range none {
			for i := range p {
				if a[i].Cmp(wide[k][i]) != 0 {
					t.Errorf("%d players, %v seat %d: no capacity %s, capacity %d %s", p, k.st, i, a[i].RatString(), 2*maxN+s, wide[k][i].RatString())
				}
			}
		}
		for _, st := range decaySinglesStates(rules.Memory{}, maxN, 2) {
			if st.N < 1 {
				continue
			}
			mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			a, err := exact.Evaluate(context.Background(), field.Float{}, decay(1e-9, 0, 2, rules.PassNever), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			b, err := exact.Evaluate(context.Background(), field.Float{}, exact.Model{Singletons: 2}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(a.PairsBySeat[0]-b.PairsBySeat[0]) > 1e-6 {
				t.Errorf("%d players, %v: q = 1e-9 gives the mover %v, perfect memory %v", p, st, a.PairsBySeat[0], b.PairsBySeat[0])
			}
		}
	}
}

// TestDecaySinglesSeatsDistributionMatchesCardPlay plays deals of two pairs and a singleton card
// by card at three seats under decay forgetting (pass rules never and always, two-known too
// without -short) and compares every
// seat's whole distribution of its pairs with SeatsScoreDistribution's: every seat for itself
// (its choices read from PolicyTable, at every pass streak), a lineup of policies per seat and
// best-response at one seat.
func TestDecaySinglesSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	quarter2 := decayCase{card: cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 4)},
		mem: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.25}}
	half := decayCase{card: cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)},
		mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}}
	type tcase struct {
		dc      decayCase
		pass    rules.PassRule
		seats   [][]rules.Policy
		replyTo rules.Policy
	}
	const n, depth = 2, 18
	cases := []tcase{
		{quarter2, rules.PassNever, [][]rules.Policy{{s, b, s}}, s},
		{half, rules.PassAlways, [][]rules.Policy{{o, o, o}}, s},
	}
	if !testing.Short() {
		cases = append(cases, tcase{quarter2, rules.PassNever, [][]rules.Policy{{o, o, o}}, s},
			tcase{half, rules.PassTwoKnown, [][]rules.Policy{{o, o, o}, {d, o, s}}, s})
	}
	for _, tc := range cases {
		m := exact.Model{Memory: tc.dc.mem, Pass: tc.pass, Singletons: 1}
		stalemate := false
		pols := seatsPolicyChoosers(t, ctx, m, n, tc.replyTo, func(tab *rules.ChoiceTable, pol rules.Policy) fspChooser {
			return seatsChooser(t, tc.pass, tab, pol, &stalemate)
		})
		start := rules.State{N: n, J: n, S: 1, F: 1}
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s %s s=1/%v/%v", tc.pass, tc.dc.mem, seats, start)
			checkReplySeats(t, name, seats, tc.replyTo)
			w := 3*n + 1
			pl := &dsdPlayer{m: tc.dc.card, p: 3, top: depth, dist: &fsdPlayer{p: 3, w: w},
				choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]seatsDist{}}
			got := pl.value(newCardWorld(start, nil), 0, 0, depth)
			want, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			compareSeatsCardPlay(t, name, got, want, w, depth, 1e-3)
		}
	}
}

// TestDecaySinglesLimitSeatsAreCardLevel compares three seats under decay forgetting with a
// singleton and a turn limit with the card-level search (dlSeats: every seat's best within the
// turns left, card by card): every seat for itself and optimal beside safe and daring (only
// optimal, safe, daring under -short, whose optimal seat plays every seat for itself's choices),
// limits 1 to 3 (2 under -short), every state of up to 2 pairs, every seat's
// expected pairs and after each legal choice of seat 0, exactly. Short mode keeps q = 1/2 without a
// capacity under pass rule always; otherwise every pass rule and a capacity of 2 too.
func TestDecaySinglesLimitSeatsAreCardLevel(t *testing.T) {
	ctx := context.Background()
	const maxN = 2
	maxT := 3
	o, sa, da := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lineups := [][]rules.Policy{{o, o, o}, {o, sa, da}, {da, o, sa}}
	if testing.Short() {
		maxT, lineups = 2, lineups[1:2]
	}
	compared := 0
	for i, dc := range decayLimitMemories() {
		if i == 1 || i == 3 { // q = 1/2 and 1/10 without a capacity, q = 1/2 with 2
			continue
		}
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			if testing.Short() && (rule != rules.PassAlways || i != 0) {
				continue
			}
			for _, pols := range lineups {
				s := newDLSeats(dc.card, rule, pols)
				mu := exact.SeatLineup(pols...)
				for limit := 1; limit <= maxT; limit++ {
					m := exact.Model{Pass: rule, Memory: dc.mem, Singletons: 1, Variant: rules.Variant{TurnLimit: limit}}
					for _, st := range decaySinglesStates(dc.mem, maxN, 1) {
						got, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
						if err != nil {
							t.Fatalf("%v, %v, %v: %v", dc.mem, rule, pols, err)
						}
						want := s.val(newCardWorld(st, nil), limit, 0, 0)
						for seat := range want {
							if got.PairsBySeat[seat].Cmp(want[seat]) != 0 {
								t.Errorf("%v, pass %v, %v, %v, %d turns, seat %d: %s pairs, card level %s", dc.mem, rule, pols, st, limit, seat,
									got.PairsBySeat[seat].RatString(), want[seat].RatString())
							}
						}
						compared++
						cv, err := exact.ChoiceValues(ctx, field.Rat{}, m, mu, st)
						if err != nil {
							t.Fatalf("%v, %v, %v, %v: %v", dc.mem, rule, pols, st, err)
						}
						w := newCardWorld(st, nil)
						for _, ch := range rules.Choices() {
							v, ok := cv.Of(ch)
							if ok != rules.Legal(st, ch, rule) {
								t.Errorf("%v, pass %v, %v, %v: choice %v valued %v", dc.mem, rule, pols, st, ch, ok)
							}
							if !ok {
								continue
							}
							cw := s.choiceVec(w, limit, 0, 0, ch)
							for seat := range cw {
								if v.PairsBySeat[seat].Cmp(cw[seat]) != 0 {
									t.Errorf("%v, pass %v, %v, %v, %d turns, choice %v, seat %d: %s pairs, card level %s", dc.mem, rule, pols, st, limit, ch, seat,
										v.PairsBySeat[seat].RatString(), cw[seat].RatString())
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d states' seat values", compared)
}
