package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a shared handover-uniform memory under pass rules
// two-known and always: the deals and turns of husingles_cardlevel_test.go, with a flag at the
// start of a turn saying that the other seat has just passed. A pass flips two remembered cards
// and hands the turn over with the memory unchanged (it holds no more than its capacity); a pass
// just after a pass ends the game, the pairs left shared (lead 0). Whether the mover may pass is
// read off the remembered positions (two-known: at least two), not the count state.

// husPassState is a card state with the flag of a pass just before.
type husPassState struct {
	st    husCardState
	after bool
}

// husPassValues is one deal's leads for each role to move, just after a pass or not.
type husPassValues struct {
	d *husDeal
	v [2]map[husPassState]float64
}

// passLegal reports whether the mover may pass in st under the rule, card by card.
func husPassLegal(st husCardState, pass rules.PassRule) bool {
	switch pass {
	case rules.PassAlways:
		return true
	case rules.PassTwoKnown:
		return bitsOf(st.mem) >= 2
	}
	return false
}

// start returns role r's lead from a state that may hold a pair known whole (taken first, which
// clears the flag).
func (pv *husPassValues) start(r int, st husCardState) float64 {
	if f := pv.d.fullPair(st); f >= 0 {
		return 1 + pv.v[r][husPassState{st: pv.d.take(st, f)}]
	}
	return pv.v[r][husPassState{st: st}]
}

// choiceValue returns role r's lead making ch in ps, the lineup's choices afterwards.
func (pv *husPassValues) choiceValue(r int, ps husPassState, ch rules.Choice, capacity int) float64 {
	if ch == rules.Pass {
		if ps.after {
			return 0
		}
		return -pv.v[1-r][husPassState{st: ps.st, after: true}]
	}
	x := 0.0
	for _, e := range pv.d.turn(ps.st, ch, capacity) {
		if e.keep {
			x += e.p * (float64(e.gain) + pv.start(r, e.to))
			continue
		}
		x -= e.p * pv.start(1-r, e.to)
	}
	return x
}

// solvePass solves one deal's chain for the lineup whose role r chooses choose(r, counts, after).
func (d *husDeal) solvePass(singles, capacity int, pass rules.PassRule, choose func(r int, st rules.State, after bool) rules.Choice) *husPassValues {
	pv := &husPassValues{d: d}
	d.iterate(&pv.v, singles, capacity, pass, choose, func(r int, ps husPassState, ch rules.Choice) float64 {
		return pv.choiceValue(r, ps, ch, capacity)
	})
	return pv
}

// iterate solves one deal's chain into v by value iteration: every state of at most capacity
// remembered cards with no pair known whole, just after a pass too where the rule lets the mover
// pass, each role's lead the value (read from v) of its lineup's choice there.
func (d *husDeal) iterate(v *[2]map[husPassState]float64, singles, capacity int, pass rules.PassRule, choose func(r int, st rules.State, after bool) rules.Choice, value func(r int, ps husPassState, ch rules.Choice) float64) {
	var states []husPassState
	for present := uint32(0); present < 1<<d.pairs; present++ {
		for mem := uint32(0); mem < 1<<d.cards; mem++ {
			st := husCardState{present, mem}
			ok := bitsOf(mem) <= capacity && d.fullPair(st) < 0
			for pos := range d.cards {
				if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
					ok = false
				}
			}
			if !ok {
				continue
			}
			states = append(states, husPassState{st: st})
			if present != 0 && husPassLegal(st, pass) {
				states = append(states, husPassState{st: st, after: true})
			}
		}
	}
	for r := range 2 {
		v[r] = map[husPassState]float64{}
		for _, ps := range states {
			v[r][ps] = 0
		}
	}
	for sweep := 0; ; sweep++ {
		delta := 0.0
		for r := range 2 {
			for _, ps := range states {
				if ps.st.present == 0 {
					continue
				}
				x := value(r, ps, choose(r, d.counts(ps.st, singles), ps.after))
				delta = math.Max(delta, math.Abs(x-v[r][ps]))
				v[r][ps] = x
			}
		}
		if delta < 1e-14 || sweep > 100000 {
			return
		}
	}
}

// husPassKey is a count state and the flag.
type husPassKey struct {
	st    rules.State
	after bool
}

// husPassCardLevel returns seat 0's role's card-level lead (and each legal choice's, the lineup's
// choices afterwards) in every count state, just after a pass or not, averaged over every deal
// and every placement of the remembered cards the count state describes.
func husPassCardLevel(pairs, singles, capacity int, pass rules.PassRule, choose func(r int, st rules.State, after bool) rules.Choice) (map[husPassKey]float64, map[husPassKey]map[rules.Choice]float64) {
	return husCardLevelAverage(pairs, singles, pass, func(d husDeal) ([2]map[husPassState]float64, func(ps husPassState, ch rules.Choice) float64) {
		pv := d.solvePass(singles, capacity, pass, choose)
		return pv.v, func(ps husPassState, ch rules.Choice) float64 { return pv.choiceValue(0, ps, ch, capacity) }
	})
}

// husCardLevelAverage averages, over every deal, seat 0's role's lead in each count state (and
// each legal choice's, its value0 there), just after a pass or not, from the chain solve gives.
func husCardLevelAverage(pairs, singles int, pass rules.PassRule, solve func(d husDeal) ([2]map[husPassState]float64, func(ps husPassState, ch rules.Choice) float64)) (map[husPassKey]float64, map[husPassKey]map[rules.Choice]float64) {
	sum := map[husPassKey]float64{}
	cnt := map[husPassKey]float64{}
	csum := map[husPassKey]map[rules.Choice]float64{}
	for _, d := range husDeals(pairs, singles) {
		v, value0 := solve(d)
		for ps, x := range v[0] {
			key := husPassKey{d.counts(ps.st, singles), ps.after}
			sum[key] += x
			cnt[key]++
			if key.st.N == 0 {
				continue
			}
			if csum[key] == nil {
				csum[key] = map[rules.Choice]float64{}
			}
			for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass} {
				legal := bitsOf(ps.st.mem) >= 1 || ch == rules.Daring
				if ch == rules.Pass {
					legal = husPassLegal(ps.st, pass)
				}
				if legal {
					csum[key][ch] += value0(ps, ch)
				}
			}
		}
	}
	for key := range sum {
		sum[key] /= cnt[key]
		for ch := range csum[key] {
			csum[key][ch] /= cnt[key]
		}
	}
	return sum, csum
}

// TestHandoverSingletonsPassMatchCardPlay compares the solver's leads (and each choice's lead) in
// every count state, just after a pass or not, with the card-level reference's under pass rules
// two-known and always, for fixed policies, the optimum and best replies, the latter playing the
// solver's own choices card by card and gaining nothing by another choice.
func TestHandoverSingletonsPassMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity int
		pass                     rules.PassRule
		short                    bool // in the short form
		lineups                  int  // the first lineups played
	}
	cases := []tc{{2, 1, 2, rules.PassTwoKnown, true, 2}, {2, 1, 2, rules.PassAlways, true, 1},
		{2, 1, 2, rules.PassAlways, false, 4}, {2, 2, 3, rules.PassTwoKnown, false, 4}, {2, 2, 3, rules.PassAlways, false, 4},
		{3, 1, 2, rules.PassAlways, false, 1}, {3, 1, 3, rules.PassTwoKnown, false, 2}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if testing.Short() != c.short && testing.Short() {
			continue
		}
		for i, pol := range lineups {
			if i >= c.lineups {
				continue
			}
			name := fmt.Sprintf("%d+%ds/m%d/%s/%s-%s", c.pairs, c.singles, c.capacity, c.pass, pol[0], pol[1])
			if seen[name] {
				continue
			}
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				m := husModel(c.singles, c.capacity)
				m.Pass = c.pass
				mu := Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				s, err := newHUSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				cellOf := func(st rules.State, after bool) *husCell[float64] {
					if after {
						return s.cells[s.atPass[st]]
					}
					return s.cells[s.at[st]]
				}
				choose := func(r int, st rules.State, after bool) rules.Choice { return cellOf(st, after).ch[r] }
				lead, choice := husPassCardLevel(c.pairs, c.singles, c.capacity, c.pass, choose)
				checked := 0
				for key, want := range lead {
					if _, ok := s.atPass[key.st]; key.after && !ok {
						t.Fatalf("%v: a pass is legal card by card, not in the solver", key.st)
					}
					cell := cellOf(key.st, key.after)
					if math.Abs(cell.val[0]-want) > 1e-9 {
						t.Errorf("%v after pass %v: solver lead %.12f, card level %.12f", key.st, key.after, cell.val[0], want)
					}
					for ch, w := range choice[key] {
						if !cell.legal[ch] {
							t.Errorf("%v: %s legal card by card, not in the solver", key.st, ch)
							continue
						}
						if got := s.choiceValue(cell, 0, 2, ch, false); math.Abs(got-w) > 1e-9 {
							t.Errorf("%v after pass %v %s: solver lead %.12f, card level %.12f", key.st, key.after, ch, got, w)
						}
						if (pol[0] == rules.PolicyOptimal || pol[0] == rules.PolicyBestResponse) && w > want+1e-9 {
							t.Errorf("%v after pass %v: %s is worth %.12f card by card, more than %s's %.12f", key.st, key.after, ch, w, pol[0], want)
						}
					}
					checked++
				}
				if want := len(s.cells) - 1; checked != want {
					t.Errorf("%d count states card by card, the solver has %d cells besides the stalemate", checked, want)
				}
			})
		}
	}
}

// TestHandoverSingletonsPassIdentities: under pass rules two-known and always, a capacity of
// 2n + s never forgets, so the values and each choice's values are perfect memory's with
// singletons under the same pass rule, exactly; and with no singletons the solver gives the
// pairs-only handover-uniform model's values under that pass rule in every state.
func TestHandoverSingletonsPassIdentities(t *testing.T) {
	ctx := context.Background()
	sizes := []struct{ n, s int }{{3, 1}}
	if !testing.Short() {
		sizes = append(sizes, struct{ n, s int }{4, 2})
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, c := range sizes {
			m := husModel(c.s, 2*c.n+c.s)
			m.Pass = pass
			perfect := Model{Singletons: c.s, Pass: pass}
			for _, mu := range husLineups {
				st := rules.State{N: c.n, J: c.n - 1, S: c.s, F: c.s - 1}
				got, err := ChoiceValues(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := ChoiceValues(ctx, field.Rat{}, perfect, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got.Value.ExpectedLead.Cmp(want.Value.ExpectedLead) != 0 {
					t.Errorf("%s %v %s-%s: lead %v, perfect memory %v", pass, st, mu.Policy, mu.Opponent, got.Value.ExpectedLead, want.Value.ExpectedLead)
				}
				if len(got.Values) != len(want.Values) {
					t.Fatalf("%s %v: %d choices, perfect memory %d", pass, st, len(got.Values), len(want.Values))
				}
				for i, v := range got.Values {
					if v.Choice != want.Values[i].Choice || v.Lead.Cmp(want.Values[i].Lead) != 0 {
						t.Errorf("%s %v %s-%s %s: lead %v, perfect memory %s %v", pass, st, mu.Policy, mu.Opponent, v.Choice, v.Lead, want.Values[i].Choice, want.Values[i].Lead)
					}
				}
			}
		}
		maxPairs := 3
		if !testing.Short() {
			maxPairs = 5
		}
		m := Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}, Pass: pass}
		for _, mu := range husLineups {
			s, err := newHUSSolver(ctx, field.Rat{}, m, mu, maxPairs)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			for st, i := range s.at {
				if st.N == 0 {
					continue
				}
				want, err := Evaluate(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.cells[i].val[0]; got.Cmp(want.ExpectedLead) != 0 {
					t.Errorf("%s %v %s-%s: lead %v, pairs model %v", pass, st, mu.Policy, mu.Opponent, got, want.ExpectedLead)
				}
			}
		}
	}
}
