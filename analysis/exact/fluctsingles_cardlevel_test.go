package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a shared handover-uniform memory whose capacity
// fluctuates: husingles_cardlevel_test.go's deals and turns, with a capacity drawn before every
// turn as docs/models.md §2.2 says, d uniform on -σ .. σ and c = max(2, m + d), each d on its
// own (no capacities merged), the turn's hand-over keeping c cards. A deal's values are found by
// value iteration over its chain of (pairs on the table, remembered positions) before the draw.

// fsCardKey is a count state after the draw of capacity c.
type fsCardKey struct {
	st rules.State
	c  int
}

// fsCardLevel returns, for every count state of at most pairs pairs before the draw, the
// card-level lead of seat 0's role, and for every count state after every capacity drawn each
// legal choice's lead (the lineup's choices after it), averaged over every deal and placement of
// the remembered cards the count state describes. choose(r, st, c) is role r's choice in st with
// capacity c drawn.
func fsCardLevel(pairs, singles, capacity, sigma int, choose func(r int, st rules.State, c int) rules.Choice) (map[rules.State]float64, map[fsCardKey]map[rules.Choice]float64) {
	var caps []int
	for d := -sigma; d <= sigma; d++ {
		caps = append(caps, max(2, capacity+d))
	}
	pc := 1 / float64(len(caps))
	maxK := capacity + sigma
	sum := map[rules.State]float64{}
	cnt := map[rules.State]float64{}
	csum := map[fsCardKey]map[rules.Choice]float64{}
	for _, d := range husDeals(pairs, singles) {
		cv := &husCardValues{d: &d}
		var states []husCardState
		for present := uint32(0); present < 1<<d.pairs; present++ {
			for mem := uint32(0); mem < 1<<d.cards; mem++ {
				st := husCardState{present, mem}
				ok := bitsOf(mem) <= maxK && d.fullPair(st) < 0
				for pos := range d.cards {
					if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
						ok = false
					}
				}
				if ok {
					states = append(states, st)
				}
			}
		}
		edges := [2]map[husCardState][][]husEdge{}
		for r := range 2 {
			cv.v[r] = map[husCardState]float64{}
			edges[r] = map[husCardState][][]husEdge{}
			for _, st := range states {
				cv.v[r][st] = 0
				if st.present == 0 {
					continue
				}
				cs := d.counts(st, singles)
				for _, c := range caps {
					edges[r][st] = append(edges[r][st], d.turn(st, choose(r, cs, c), c))
				}
			}
		}
		for sweep := 0; ; sweep++ {
			delta := 0.0
			for r := range 2 {
				for _, st := range states {
					if st.present == 0 {
						continue
					}
					x := 0.0
					for _, e := range edges[r][st] {
						x += pc * cv.value(r, e)
					}
					delta = math.Max(delta, math.Abs(x-cv.v[r][st]))
					cv.v[r][st] = x
				}
			}
			if delta < 1e-14 || sweep > 100000 {
				break
			}
		}
		for _, st := range states {
			cs := d.counts(st, singles)
			sum[cs] += cv.v[0][st]
			cnt[cs]++
			if cs.N == 0 {
				continue
			}
			for _, c := range caps {
				k := fsCardKey{cs, c}
				if csum[k] == nil {
					csum[k] = map[rules.Choice]float64{}
				}
				for _, ch := range rules.Choices() {
					if rules.Legal(cs, ch, rules.PassNever) {
						csum[k][ch] += cv.value(0, d.turn(st, ch, c))
					}
				}
			}
		}
	}
	for st := range sum {
		sum[st] /= cnt[st]
	}
	// A capacity is summed once for every d that draws it.
	for k := range csum {
		times := 0
		for _, c := range caps {
			if c == k.c {
				times++
			}
		}
		for ch := range csum[k] {
			csum[k][ch] /= cnt[k.st] * float64(times)
		}
	}
	return sum, csum
}

func fluctSinglesModel(singles, capacity, sigma int) Model {
	return Model{Singletons: singles, Memory: rules.Memory{Capacity: capacity, Fluctuation: sigma, Forget: rules.ForgetHandoverUniform}}
}

// TestFluctSingletonsMatchCardPlay compares the solver's leads before the draw in every count
// state, and each choice's lead after every capacity drawn, with the card-level reference's, for
// the fixed policies, the optimum and best replies, the latter playing the solver's own choices
// card by card (read at the capacity drawn); the optimum and a best reply gain nothing by another
// choice card by card.
func TestFluctSingletonsMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, sigma int
		short                           bool // in the short form
		lineups                         int  // the first lineups played
	}
	cases := []tc{{2, 1, 2, 1, true, 2}, {2, 1, 3, 1, false, 5}, {2, 2, 3, 2, false, 5}, {3, 1, 3, 1, false, 2}, {3, 1, 2, 2, false, 1}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyDaring},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyParity, rules.PolicySafe},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	for _, c := range cases {
		if !c.short && testing.Short() {
			continue
		}
		for _, pol := range lineups[:c.lineups] {
			name := fmt.Sprintf("%d+%ds/m%d±%d/%s-%s", c.pairs, c.singles, c.capacity, c.sigma, pol[0], pol[1])
			t.Run(name, func(t *testing.T) {
				m := fluctSinglesModel(c.singles, c.capacity, c.sigma)
				mu := Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				s, err := newFSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				cellAt := func(st rules.State, c int) *fsCell[float64] {
					i, ok := s.at[fsKey{st: st, c: min(c, fsTop(m, st.N))}]
					if !ok {
						t.Fatalf("%v with capacity %d: no cell", st, c)
					}
					return s.cells[i]
				}
				choose := func(r int, st rules.State, c int) rules.Choice { return cellAt(st, c).ch[r] }
				lead, choice := fsCardLevel(c.pairs, c.singles, c.capacity, c.sigma, choose)
				for st := range s.draws {
					want, ok := lead[st]
					if !ok {
						t.Fatalf("%v: no card-level placement", st)
					}
					if got := s.before(st, 0, false); math.Abs(got-want) > 1e-9 {
						t.Errorf("%v: solver lead %.12f, card level %.12f", st, got, want)
					}
				}
				if len(lead) != len(s.draws) {
					t.Errorf("%d count states card by card, %d in the solver", len(lead), len(s.draws))
				}
				for k, byChoice := range choice {
					cell := cellAt(k.st, k.c)
					for ch, w := range byChoice {
						if !cell.legal[ch] {
							t.Errorf("%v c=%d: %s legal card by card, not in the solver", k.st, k.c, ch)
							continue
						}
						if got := s.choiceValue(cell, 0, 2, ch, false); math.Abs(got-w) > 1e-9 {
							t.Errorf("%v c=%d %s: solver lead %.12f, card level %.12f", k.st, k.c, ch, got, w)
						}
						if pol[0] == rules.PolicyOptimal || pol[0] == rules.PolicyBestResponse {
							if own := byChoice[cell.ch[0]]; w > own+1e-9 {
								t.Errorf("%v c=%d: %s is worth %.12f card by card, more than %s's choice %s's %.12f", k.st, k.c, ch, w, pol[0], cell.ch[0], own)
							}
						}
					}
				}
			})
		}
	}
}
