package exact

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of solitaire with singletons under a shared handover-uniform memory:
// the deals and turns of husingles_cardlevel_test.go played by one player, every turn without a
// pair a hand-over to itself. A turn costs one; a pair left known whole costs the turn that takes
// it; a lucky match is a pair taken whose cards were both unremembered before the turn.

// husSoloValues is one deal's expected turns and lucky matches from each card state.
type husSoloValues struct {
	d            *husDeal
	turns, lucky map[husCardState]float64
}

// start returns the expected turns and lucky matches from a state that may hold a pair known
// whole (a turn takes it).
func (sv *husSoloValues) start(st husCardState) (float64, float64) {
	if f := sv.d.fullPair(st); f >= 0 {
		nt := sv.d.take(st, f)
		return 1 + sv.turns[nt], sv.lucky[nt]
	}
	return sv.turns[st], sv.lucky[st]
}

// choice returns the expected turns and lucky matches of ch in st, the policy afterwards.
func (sv *husSoloValues) choice(st husCardState, ch rules.Choice, capacity int) (float64, float64) {
	turns, lucky := 0.0, 0.0
	for _, e := range sv.d.turn(st, ch, capacity) {
		t, l := sv.start(e.to)
		turns += e.p * (1 + t)
		lucky += e.p * l
		if e.keep {
			f := st.present &^ e.to.present // the face taken
			both := uint32(0)
			for pos := range sv.d.cards {
				if sv.d.face[pos] < sv.d.pairs && f&(1<<sv.d.face[pos]) != 0 {
					both |= 1 << pos
				}
			}
			if st.mem&both == 0 {
				lucky += e.p
			}
		}
	}
	return turns, lucky
}

func (d *husDeal) solveSolo(singles, capacity int, choose func(st rules.State) rules.Choice) *husSoloValues {
	sv := &husSoloValues{d: d, turns: map[husCardState]float64{}, lucky: map[husCardState]float64{}}
	var states []husCardState
	for present := uint32(0); present < 1<<d.pairs; present++ {
		for mem := uint32(0); mem < 1<<d.cards; mem++ {
			st := husCardState{present, mem}
			ok := bitsOf(mem) <= capacity && d.fullPair(st) < 0
			for pos := range d.cards {
				if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
					ok = false
				}
			}
			if ok {
				states = append(states, st)
				sv.turns[st], sv.lucky[st] = 0, 0
			}
		}
	}
	for sweep := 0; ; sweep++ {
		delta := 0.0
		for _, st := range states {
			if st.present == 0 {
				continue
			}
			t, l := sv.choice(st, choose(d.counts(st, singles)), capacity)
			delta = math.Max(delta, math.Abs(t-sv.turns[st])+math.Abs(l-sv.lucky[st]))
			sv.turns[st], sv.lucky[st] = t, l
		}
		if delta < 1e-13 || sweep > 200000 {
			return sv
		}
	}
}

// TestHandoverSingletonsSoloMatchCardPlay compares solitaire's expected turns and lucky matches
// (and each choice's) in every count state with the card-level reference's, averaged over every
// deal and placement of the remembered cards, for fixed policies and the optimum playing the
// solver's choices card by card, which no other choice improves on.
func TestHandoverSingletonsSoloMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity int
		short                    bool
	}
	cases := []tc{{2, 1, 2, true}, {2, 2, 3, false}, {3, 1, 2, false}, {3, 1, 3, false}}
	for _, c := range cases {
		if testing.Short() != c.short && testing.Short() {
			continue
		}
		for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
			if testing.Short() && pol == rules.PolicySafe {
				continue
			}
			t.Run(fmt.Sprintf("%d+%ds/m%d/%s", c.pairs, c.singles, c.capacity, pol), func(t *testing.T) {
				m := husModel(c.singles, c.capacity)
				mu := Lineup{Players: 1, Policy: pol}
				s, err := newHUSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				choose := func(st rules.State) rules.Choice { return s.cells[s.at[st]].soloChoice }
				type sums struct{ turns, lucky, cnt float64 }
				total := map[rules.State]*sums{}
				choice := map[rules.State]map[rules.Choice]*sums{}
				for _, d := range husDeals(c.pairs, c.singles) {
					sv := d.solveSolo(c.singles, c.capacity, choose)
					for st := range sv.turns {
						cs := d.counts(st, c.singles)
						if total[cs] == nil {
							total[cs], choice[cs] = &sums{}, map[rules.Choice]*sums{}
						}
						total[cs].turns += sv.turns[st]
						total[cs].lucky += sv.lucky[st]
						total[cs].cnt++
						if cs.N == 0 {
							continue
						}
						for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
							if ch != rules.Daring && st.mem == 0 {
								continue
							}
							if choice[cs][ch] == nil {
								choice[cs][ch] = &sums{}
							}
							tt, l := sv.choice(st, ch, c.capacity)
							choice[cs][ch].turns += tt
							choice[cs][ch].lucky += l
							choice[cs][ch].cnt++
						}
					}
				}
				if len(total) != len(s.cells) {
					t.Errorf("%d count states card by card, the solver has %d", len(total), len(s.cells))
				}
				for st, w := range total {
					cell := s.cells[s.at[st]]
					if math.Abs(cell.solo[0]-w.turns/w.cnt) > 1e-9 || math.Abs(cell.solo[1]-w.lucky/w.cnt) > 1e-9 {
						t.Errorf("%v: solver %.12f turns, %.12f lucky; card level %.12f, %.12f", st, cell.solo[0], cell.solo[1], w.turns/w.cnt, w.lucky/w.cnt)
					}
					if st.N == 0 {
						continue
					}
					for ch, cw := range choice[st] {
						if !cell.legal[ch] {
							t.Errorf("%v: %s legal card by card, not in the solver", st, ch)
							continue
						}
						e := s.soloEq(cell, ch, nil)
						if math.Abs(e.a[0]-cw.turns/cw.cnt) > 1e-9 || math.Abs(e.a[1]-cw.lucky/cw.cnt) > 1e-9 {
							t.Errorf("%v %s: solver %.12f turns, %.12f lucky; card level %.12f, %.12f", st, ch, e.a[0], e.a[1], cw.turns/cw.cnt, cw.lucky/cw.cnt)
						}
						if pol == rules.PolicyOptimal && cw.turns/cw.cnt < w.turns/w.cnt-1e-9 {
							t.Errorf("%v: %s takes %.12f turns card by card, fewer than the optimum's %.12f", st, ch, cw.turns/cw.cnt, w.turns/w.cnt)
						}
					}
				}
			})
		}
	}
}

// TestHandoverSingletonsSoloIdentities: a capacity of 2n + s never forgets, so solitaire's
// expected turns and lucky matches are perfect memory's with singletons, exactly; float64 gives
// the exact values.
func TestHandoverSingletonsSoloIdentities(t *testing.T) {
	ctx := context.Background()
	n, sn := 3, 2
	if !testing.Short() {
		n = 5
	}
	st := rules.State{N: n, J: n, S: sn, F: sn}
	for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity} {
		mu := Lineup{Players: 1, Policy: pol}
		got, err := Evaluate(ctx, field.Rat{}, husModel(sn, 2*n+sn), mu, st)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Evaluate(ctx, field.Rat{}, Model{Singletons: sn}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
			t.Errorf("%s: %v turns, %v lucky; perfect memory %v, %v", pol, got.ExpectedTurns, got.ExpectedLucky, want.ExpectedTurns, want.ExpectedLucky)
		}
		r, err := Evaluate(ctx, field.Rat{}, husModel(sn, 3), mu, st)
		if err != nil {
			t.Fatal(err)
		}
		x, err := Evaluate(ctx, field.Float{}, husModel(sn, 3), mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if w, _ := r.ExpectedTurns.Float64(); math.Abs(x.ExpectedTurns-w) > 1e-12 {
			t.Errorf("%s: float64 %v turns, exact %v", pol, x.ExpectedTurns, w)
		}
	}
}

// TestHandoverSingletonsSoloRefusals: solitaire under a pass rule and a reply policy are refused
// in one line saying why.
func TestHandoverSingletonsSoloRefusals(t *testing.T) {
	ctx := context.Background()
	st := rules.State{N: 3, J: 3, S: 1, F: 1}
	passing := husModel(1, 3)
	passing.Pass = rules.PassTwoKnown
	for _, c := range []struct {
		name string
		m    Model
		mu   Lineup
		want string
	}{
		{"pass rule", passing, Lineup{Players: 1, Policy: rules.PolicyOptimal}, "nobody to hand a pass to"},
		{"best-response", husModel(1, 3), Lineup{Players: 1, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, "solitaire"},
	} {
		_, err := Evaluate(ctx, field.Float{}, c.m, c.mu, st)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
	}
}
