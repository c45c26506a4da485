package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of blind flips with singletons under a shared handover-uniform
// memory: the deals of husingles_cardlevel_test.go, both positions named before either is seen
// (docs/models.md §4.17, the engine's playBlind): daring names two unknown positions (the
// remembered card when only one is unknown), safe and known-first an unknown position and a
// remembered one, a half-known pair's card before a seen singleton. The hand-over forgets card
// by card among the positions remembered before the turn; the next seat takes every pair known
// whole first. A flag says that the other seat has just passed (a pass just after a pass ends the
// game, the pairs left shared).

// blindTurn returns the ends of a turn begun in st (no pair known whole) with daring, safe or
// known-first.
func (d *husDeal) blindTurn(st husCardState, ch rules.Choice, capacity int) []husEdge {
	var unk []int
	for pos := range d.cards {
		if d.onTable(st, pos) && st.mem&(1<<pos) == 0 {
			unk = append(unk, pos)
		}
	}
	old := st.mem
	var out []husEdge
	var handOver func(p float64, mem uint32)
	handOver = func(p float64, mem uint32) {
		if bitsOf(mem) <= capacity {
			out = append(out, husEdge{p: p, to: husCardState{present: st.present, mem: mem}})
			return
		}
		pool := mem & old
		c := float64(bitsOf(pool))
		for pos := range d.cards {
			if pool&(1<<pos) != 0 {
				handOver(p/c, mem&^(1<<pos))
			}
		}
	}
	named := func(x, y int, p float64) {
		if d.partner[x] == y {
			out = append(out, husEdge{p: p, gain: 1, keep: true, to: d.take(st, d.face[x])})
			return
		}
		handOver(p, old|1<<x|1<<y)
	}
	remembered := -1
	for pos := range d.cards {
		if old&(1<<pos) != 0 && (remembered < 0 || d.face[remembered] >= d.pairs && d.face[pos] < d.pairs) {
			remembered = pos
		}
	}
	u := float64(len(unk))
	if ch != rules.Daring || len(unk) == 1 {
		for _, x := range unk {
			named(x, remembered, 1/u)
		}
		return out
	}
	for _, x := range unk {
		for _, y := range unk {
			if y != x {
				named(x, y, 1/(u*(u-1)))
			}
		}
	}
	return out
}

// husBlindValues is one deal's leads for each role to move, just after a pass or not.
type husBlindValues struct {
	d        *husDeal
	capacity int
	v        [2]map[husPassState]float64
}

// start returns role r's lead from st after the pairs known whole in it are taken (each 1).
func (bv *husBlindValues) start(r int, st husCardState) float64 {
	gain := 0.0
	for f := bv.d.fullPair(st); f >= 0; f = bv.d.fullPair(st) {
		st, gain = bv.d.take(st, f), gain+1
	}
	return gain + bv.v[r][husPassState{st: st}]
}

// choiceValue returns role r's lead making ch in bs, the lineup's choices afterwards.
func (bv *husBlindValues) choiceValue(r int, bs husPassState, ch rules.Choice) float64 {
	if ch == rules.Pass {
		if bs.after {
			return 0
		}
		return -bv.v[1-r][husPassState{st: bs.st, after: true}]
	}
	x := 0.0
	for _, e := range bv.d.blindTurn(bs.st, ch, bv.capacity) {
		if e.keep {
			x += e.p * (float64(e.gain) + bv.start(r, e.to))
			continue
		}
		x -= e.p * bv.start(1-r, e.to)
	}
	return x
}

// solveBlind solves one deal's chain by value iteration for the lineup whose role r chooses
// choose(r, counts, after).
func (d *husDeal) solveBlind(singles, capacity int, pass rules.PassRule, choose func(r int, st rules.State, after bool) rules.Choice) *husBlindValues {
	bv := &husBlindValues{d: d, capacity: capacity}
	d.iterate(&bv.v, singles, capacity, pass, choose, bv.choiceValue)
	return bv
}

// husBlindCardLevel returns seat 0's role's card-level lead (and each legal choice's, the
// lineup's choices afterwards) in every count state, just after a pass or not, averaged over
// every deal and every placement of the remembered cards the count state describes.
func husBlindCardLevel(pairs, singles, capacity int, pass rules.PassRule, choose func(r int, st rules.State, after bool) rules.Choice) (map[husPassKey]float64, map[husPassKey]map[rules.Choice]float64) {
	return husCardLevelAverage(pairs, singles, pass, func(d husDeal) ([2]map[husPassState]float64, func(ps husPassState, ch rules.Choice) float64) {
		bv := d.solveBlind(singles, capacity, pass, choose)
		return bv.v, func(ps husPassState, ch rules.Choice) float64 { return bv.choiceValue(0, ps, ch) }
	})
}

func husBlindModel(singles, capacity int, pass rules.PassRule) Model {
	m := husModel(singles, capacity)
	m.Pass, m.Variant.Flips = pass, rules.FlipsBlind
	return m
}

// TestBlindHandoverSingletonsMatchCardPlay compares the solver's leads (and each choice's lead)
// in every count state, just after a pass or not, with the card-level reference's under blind
// flips, for fixed policies, the optimum and best replies, the latter playing the solver's own
// choices card by card and gaining nothing by another choice.
func TestBlindHandoverSingletonsMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity int
		pass                     rules.PassRule
		short                    bool // in the short form
		lineups                  int  // the first lineups played
	}
	cases := []tc{{2, 1, 3, rules.PassNever, true, 1},
		{2, 1, 3, rules.PassNever, false, 4}, {2, 2, 3, rules.PassNever, false, 2}, {3, 1, 3, rules.PassNever, false, 2},
		{3, 1, 4, rules.PassNever, false, 1},
		{2, 1, 3, rules.PassTwoKnown, false, 4}, {2, 2, 3, rules.PassAlways, false, 2}, {3, 1, 3, rules.PassAlways, false, 1}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicyDaring, rules.PolicyParity},
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
				m := husBlindModel(c.singles, c.capacity, c.pass)
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
				lead, choice := husBlindCardLevel(c.pairs, c.singles, c.capacity, c.pass, choose)
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
				}
				if len(lead) != len(s.cells)-1 && c.pass != rules.PassNever || c.pass == rules.PassNever && len(lead) != len(s.cells) {
					t.Errorf("%d count states card by card, the solver has %d cells", len(lead), len(s.cells))
				}
			})
		}
	}
}

// TestBlindHandoverSingletonsIdentities: a capacity of 2n + s never forgets, so every state's
// values and each choice's values are blind perfect memory's with singletons; with no singletons
// the solver gives the blind pairs-only handover-uniform model's values; float64 agrees with the
// exact values; the mean of the score distribution is the expected pairs.
func TestBlindHandoverSingletonsIdentities(t *testing.T) {
	ctx := context.Background()
	type tc struct{ pairs, singles, capacity int }
	cases := []tc{{2, 1, 3}}
	if !testing.Short() {
		cases = append(cases, tc{4, 1, 3}, tc{3, 2, 4})
	}
	rf := field.Rat{}
	for _, c := range cases {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			if testing.Short() && pass != rules.PassNever {
				continue
			}
			mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			br := Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
			name := fmt.Sprintf("%d+%ds/m%d/%s", c.pairs, c.singles, c.capacity, pass)
			for j := 0; j <= c.pairs; j++ {
				for f := 0; f <= c.singles; f++ {
					st := rules.State{N: c.pairs, J: j, S: c.singles, F: f}
					if testing.Short() && (j != c.pairs || f != c.singles) {
						continue // the start of a game only
					}
					// Capacity 2n + s equals perfect memory.
					full := husBlindModel(c.singles, 2*c.pairs+c.singles, pass)
					perfect := full
					perfect.Memory = rules.Memory{}
					for _, l := range []Lineup{mu, br} {
						a, err := ChoiceValues(ctx, rf, full, l, st)
						if err != nil {
							t.Fatalf("%s %v: %v", name, st, err)
						}
						b, err := ChoiceValues(ctx, rf, perfect, l, st)
						if err != nil {
							t.Fatalf("%s %v perfect: %v", name, st, err)
						}
						if a.Value.ExpectedLead.Cmp(b.Value.ExpectedLead) != 0 || len(a.Values) != len(b.Values) {
							t.Errorf("%s %v %s: capacity %d lead %s, perfect memory %s", name, st, l.Policy, 2*c.pairs+c.singles, a.Value.ExpectedLead.RatString(), b.Value.ExpectedLead.RatString())
							continue
						}
						for i := range a.Values {
							if a.Values[i].Choice != b.Values[i].Choice || a.Values[i].Lead.Cmp(b.Values[i].Lead) != 0 {
								t.Errorf("%s %v %s: choice %d differs from perfect memory", name, st, l.Policy, i)
							}
						}
					}
					// float64 agrees with exact; the distribution's mean is the lead.
					m := husBlindModel(c.singles, c.capacity, pass)
					if st.Known() > c.capacity {
						continue
					}
					ex, err := Evaluate(ctx, rf, m, mu, st)
					if err != nil {
						t.Fatalf("%s %v: %v", name, st, err)
					}
					fl, err := Evaluate(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if x, _ := ex.ExpectedLead.Float64(); math.Abs(x-fl.ExpectedLead) > 1e-9 {
						t.Errorf("%s %v: float64 lead %.12f, exact %s", name, st, fl.ExpectedLead, ex.ExpectedLead.RatString())
					}
					if pass != rules.PassNever {
						continue
					}
					d, err := Distribution(ctx, rf, m, mu, st)
					if err != nil {
						t.Fatalf("%s %v distribution: %v", name, st, err)
					}
					mean := new(big.Rat)
					for i, p := range d.Prob {
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
					}
					if mean.Cmp(ex.ExpectedPairs) != 0 {
						t.Errorf("%s %v: the distribution's mean pairs %s, the expected pairs %s", name, st, mean.RatString(), ex.ExpectedPairs.RatString())
					}
				}
			}
		}
	}
}

// TestBlindHandoverSingletonsWithoutSingletons: with no singletons the blind model's rows give
// the blind pairs-only handover-uniform model's values in every state, under every pass rule.
func TestBlindHandoverSingletonsWithoutSingletons(t *testing.T) {
	ctx := context.Background()
	pairs, capacity := 3, 3
	if !testing.Short() {
		pairs = 5
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		if testing.Short() && pass != rules.PassAlways {
			continue
		}
		m := husBlindModel(0, capacity, pass)
		for _, mu := range []Lineup{{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}} {
			s, err := newHUSSolver(ctx, field.Rat{}, m, mu, pairs)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			for _, c := range s.cells {
				if c.st.N == 0 || c.after || c.st.Known() > capacity {
					continue
				}
				want, err := Evaluate(ctx, field.Rat{}, m, mu, c.st)
				if err != nil {
					t.Fatalf("%s %v: %v", pass, c.st, err)
				}
				if c.val[0].Cmp(want.ExpectedLead) != 0 {
					t.Errorf("%s %s %v: lead %s, the pairs-only model %s", pass, mu.Policy, c.st, c.val[0].RatString(), want.ExpectedLead.RatString())
				}
			}
		}
	}
}
