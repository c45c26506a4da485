package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A card-level search of a two-seat game under decay forgetting and a turn limit (docs/models.md
// §4.14, §4.18), independent of the solver's counts: the positions are tables of individual cards
// with the shared memory's cards (cardWorld), a turn is enumerated card by card (cardTurn) and its
// hand-over forgets every remembered card with probability q, card by card (decayHandOver), and
// the search recurses on those tables with the turns left. A turn that hands over a pair known
// whole gives the next seat that pair in a turn of its own, if one is left.

// dlVal is the mover's expected lead and the pairs both seats take within the turns left (a
// stalemate credits the pairs on the table).
type dlVal struct{ lead, total *big.Rat }

// dlSearch is the card-level search of one memory, pass rule and two-seat lineup.
type dlSearch struct {
	m    cardMemory
	rule rules.PassRule
	pol  [2]rules.Policy // role 0 (seat 0) and role 1: optimal, best-response or a fixed policy
	opt  map[string]dlVal
	role map[string]dlVal
	// optCh and roleCh record the choices made, by the same keys.
	optCh, roleCh map[string]rules.Choice
}

func newDLSearch(m cardMemory, rule rules.PassRule, pol [2]rules.Policy) *dlSearch {
	return &dlSearch{m: m, rule: rule, pol: pol, opt: map[string]dlVal{}, role: map[string]dlVal{},
		optCh: map[string]rules.Choice{}, roleCh: map[string]rules.Choice{}}
}

// worldKey names a table: the cards on it and the memory's cards in order.
func worldKey(w *cardWorld) string {
	var sb strings.Builder
	for _, on := range w.present {
		sb.WriteByte("01"[btoi(on)])
	}
	fmt.Fprint(&sb, w.mem)
	return sb.String()
}

func pairsOn(w *cardWorld) int {
	n := 0
	for i := 0; i < w.pairs; i++ {
		n += btoi(w.present[2*i])
	}
	return n
}

func zeroVal() dlVal { return dlVal{new(big.Rat), new(big.Rat)} }

// choiceVal is the mover's value of choice ch on w with t >= 1 turns left (flag: the previous seat
// passed): own reads the mover's value where it keeps the move, other the next seat's (its flag
// given) where it hands over.
func (s *dlSearch) choiceVal(w *cardWorld, t, flag int, ch rules.Choice, own, other func(w *cardWorld, t, flag int) dlVal) dlVal {
	out := zeroVal()
	if ch == rules.Pass {
		switch {
		case flag == 1: // a stalemate: the pairs on the table shared, lead 0
			out.total.SetInt64(int64(pairsOn(w)))
		case t > 1:
			w0 := w.clone()
			w0.old = make([]bool, len(w0.present))
			for _, x := range w0.mem {
				w0.old[x] = true
			}
			decayHandOver(w0, s.m, big.NewRat(1, 1), 0, func(p *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
				v := other(w2, t-1, 1)
				out.lead.Sub(out.lead, new(big.Rat).Mul(p, v.lead))
				out.total.Add(out.total, new(big.Rat).Mul(p, v.total))
			})
		}
		return out
	}
	cardTurn(w, s.m, ch, pickOldest, func(p *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		var v dlVal
		var g int
		if cont {
			g = mg
			v = own(w2, t-1, 0)
		} else {
			g = min(ng, t-1) // each pair known whole costs the next seat a turn
			v = other(w2, t-1-g, 0)
		}
		lead := new(big.Rat).Add(big.NewRat(int64(g), 1), v.lead)
		if !cont {
			lead.Neg(lead)
		}
		out.lead.Add(out.lead, lead.Mul(lead, p))
		total := new(big.Rat).Add(big.NewRat(int64(g), 1), v.total)
		out.total.Add(out.total, total.Mul(total, p))
	})
	return out
}

// legal lists the legal choices on w in the order daring, safe, known-first, pass.
func (s *dlSearch) legal(w *cardWorld) []rules.Choice {
	st, err := w.countState()
	if err != nil {
		panic(err)
	}
	var out []rules.Choice
	for _, ch := range rules.Choices() {
		if rules.Legal(st, ch, s.rule) {
			out = append(out, ch)
		}
	}
	return out
}

// optimum is the two-seat optimum's value for the mover on w: the first choice of largest lead.
func (s *dlSearch) optimum(w *cardWorld, t, flag int) dlVal {
	if t == 0 || pairsOn(w) == 0 {
		return zeroVal()
	}
	key := fmt.Sprint(worldKey(w), t, flag)
	if v, ok := s.opt[key]; ok {
		return v
	}
	var best dlVal
	var bestCh rules.Choice
	for _, ch := range s.legal(w) {
		v := s.choiceVal(w, t, flag, ch, s.optimum, s.optimum)
		if best.lead == nil || v.lead.Cmp(best.lead) > 0 {
			best, bestCh = v, ch
		}
	}
	s.opt[key], s.optCh[key] = best, bestCh
	return best
}

// roleVal is role r's value for the mover on w, the lineup played.
func (s *dlSearch) roleVal(r int) func(w *cardWorld, t, flag int) dlVal {
	return func(w *cardWorld, t, flag int) dlVal {
		if t == 0 || pairsOn(w) == 0 {
			return zeroVal()
		}
		key := fmt.Sprint(r, worldKey(w), t, flag)
		if v, ok := s.role[key]; ok {
			return v
		}
		own, other := s.roleVal(r), s.roleVal(1-r)
		var best dlVal
		var ch rules.Choice
		switch p := s.pol[r]; p {
		case rules.PolicyOptimal:
			s.optimum(w, t, flag)
			ch = s.optCh[fmt.Sprint(worldKey(w), t, flag)]
			best = s.choiceVal(w, t, flag, ch, own, other)
		case rules.PolicyBestResponse:
			for _, c := range s.legal(w) {
				v := s.choiceVal(w, t, flag, c, own, other)
				if best.lead == nil || v.lead.Cmp(best.lead) > 0 {
					best, ch = v, c
				}
			}
		default:
			st, _ := w.countState()
			ch = p.Decide(st)
			best = s.choiceVal(w, t, flag, ch, own, other)
		}
		s.role[key], s.roleCh[key] = best, ch
		return best
	}
}

// distribution carries the probability of every card-level position forwards from w with limit
// turns left, role 0 to move, and returns the probability of every pair of final shares, in half
// pairs, seat 0's first.
func (s *dlSearch) distribution(w *cardWorld, limit int) map[[2]int]*big.Rat {
	type pos struct {
		world      string
		seat, flag int
		a0, a1     int
	}
	worlds := map[string]*cardWorld{}
	out := map[[2]int]*big.Rat{}
	acc := func(m map[[2]int]*big.Rat, k [2]int, p *big.Rat) {
		if m[k] == nil {
			m[k] = new(big.Rat)
		}
		m[k].Add(m[k], p)
	}
	layers := make([]map[pos]*big.Rat, limit+1)
	put := func(t int, x pos, w2 *cardWorld, p *big.Rat) {
		if t == 0 || pairsOn(w2) == 0 {
			acc(out, [2]int{2 * x.a0, 2 * x.a1}, p)
			return
		}
		worlds[x.world] = w2
		if layers[t] == nil {
			layers[t] = map[pos]*big.Rat{}
		}
		if layers[t][x] == nil {
			layers[t][x] = new(big.Rat)
		}
		layers[t][x].Add(layers[t][x], p)
	}
	put(limit, pos{worldKey(w), 0, 0, 0, 0}, w, big.NewRat(1, 1))
	for t := limit; t >= 1; t-- {
		for x, p := range layers[t] {
			cw := worlds[x.world]
			s.roleVal(x.seat)(cw, t, x.flag)
			ch := s.roleCh[fmt.Sprint(x.seat, x.world, t, x.flag)]
			credit := func(g, who int) (int, int) {
				if who == 0 {
					return x.a0 + g, x.a1
				}
				return x.a0, x.a1 + g
			}
			if ch == rules.Pass {
				if x.flag == 1 { // a stalemate shares the pairs on the table
					n := pairsOn(cw)
					acc(out, [2]int{2*x.a0 + n, 2*x.a1 + n}, p)
					continue
				}
				w0 := cw.clone()
				w0.old = make([]bool, len(w0.present))
				for _, c := range w0.mem {
					w0.old[c] = true
				}
				decayHandOver(w0, s.m, p, 0, func(q *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
					put(t-1, pos{worldKey(w2), 1 - x.seat, 1, x.a0, x.a1}, w2, q)
				})
				continue
			}
			cardTurn(cw, s.m, ch, pickOldest, func(q *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
				pq := new(big.Rat).Mul(p, q)
				if cont {
					a0, a1 := credit(mg, x.seat)
					put(t-1, pos{worldKey(w2), x.seat, 0, a0, a1}, w2, pq)
					return
				}
				g := min(ng, t-1) // the pair known whole costs the next seat a turn
				a0, a1 := credit(g, 1-x.seat)
				put(t-1-g, pos{worldKey(w2), 1 - x.seat, 0, a0, a1}, w2, pq)
			})
		}
	}
	return out
}

// decayLimitMemories are the card-level and model decay memories the tests compare: q = 1/2 and
// 1/10, without a capacity and with a capacity of 2.
func decayLimitMemories() []decayCase {
	var out []decayCase
	for _, q := range []struct {
		dec float64
		rat *big.Rat
	}{{0.5, big.NewRat(1, 2)}, {0.1, big.NewRat(1, 10)}} {
		for _, capacity := range []int{0, 2} {
			out = append(out, decayCase{
				card: cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: q.rat},
				mem:  rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q.dec},
			})
		}
	}
	return out
}

// pairsOf returns the mover's expected pairs of a value: (total + lead) / 2.
func pairsOf(v dlVal) *big.Rat {
	p := new(big.Rat).Add(v.total, v.lead)
	return p.Quo(p, big.NewRat(2, 1))
}

// TestDecayLimitIsCardLevel compares the solver under decay forgetting and a turn limit with the
// card-level search, every pass rule, q = 1/2 and 1/10, with and without a capacity of 2, limits 1
// to 6, from every state of up to 3 pairs (fewer cases under -short): the values of optimal, fixed policies
// and best-response against each other (exact, and float64 within 1e-12), every legal choice's
// values, and the optimal table's choice in every layer of turns left, without and just after a
// pass.
func TestDecayLimitIsCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, maxT := 3, 6
	if testing.Short() {
		maxN, maxT = 2, 3
	}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	compared := 0
	for i, dc := range decayLimitMemories() {
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			// -short: q = 1/2 without a capacity and q = 1/10 with one, under never and always.
			if testing.Short() && (rule == rules.PassTwoKnown || i == 1 || i == 2) {
				continue
			}
			for _, pol := range lineups {
				s := newDLSearch(dc.card, rule, pol)
				mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				for limit := 1; limit <= maxT; limit++ {
					m := exact.Model{Pass: rule, Memory: dc.mem, Variant: rules.Variant{TurnLimit: limit}}
					var table *rules.ChoiceTable
					if pol[0] == rules.PolicyOptimal && pol[1] == rules.PolicyOptimal {
						var err error
						if table, err = exact.PolicyTable(ctx, field.Rat{}, m, mu, maxN); err != nil {
							t.Fatal(err)
						}
					}
					for n := 1; n <= maxN; n++ {
						for j := 0; j <= n; j++ {
							st := rules.State{N: n, J: j}
							if !dc.mem.Holds(st.Known()) {
								continue
							}
							name := fmt.Sprintf("%v, pass %v, %v against %v, %v, %d turns", dc.mem, rule, pol[0], pol[1], st, limit)
							w := newCardWorld(st, nil)
							want := s.roleVal(0)(w, limit, 0)
							got, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							if got.ExpectedLead.Cmp(want.lead) != 0 || got.ExpectedPairs.Cmp(pairsOf(want)) != 0 {
								t.Errorf("%s: lead %s, pairs %s; card level %s, %s", name,
									got.ExpectedLead.RatString(), got.ExpectedPairs.RatString(), want.lead.RatString(), pairsOf(want).RatString())
							}
							gotF, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							if wl, _ := want.lead.Float64(); !within(gotF.ExpectedLead, wl, 1e-12) {
								t.Errorf("%s: float64 lead %v, card level %v", name, gotF.ExpectedLead, wl)
							}
							compared++
							cv, err := exact.ChoiceValues(ctx, field.Rat{}, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							legal := s.legal(w)
							if len(cv.Values) != len(legal) {
								t.Errorf("%s: %d choices valued, %d legal at card level", name, len(cv.Values), len(legal))
							}
							for _, ch := range legal {
								v, ok := cv.Of(ch)
								cw := s.choiceVal(w, limit, 0, ch, s.roleVal(0), s.roleVal(1))
								if !ok || v.Lead.Cmp(cw.lead) != 0 || v.Pairs.Cmp(pairsOf(cw)) != 0 {
									t.Errorf("%s, choice %v: lead %v, pairs %v (legal %v); card level %s, %s", name, ch,
										v.Lead, v.Pairs, ok, cw.lead.RatString(), pairsOf(cw).RatString())
								}
							}
							if table == nil {
								continue
							}
							for flag := range 2 {
								s.optimum(w, limit, flag)
								wantCh := s.optCh[fmt.Sprint(worldKey(w), limit, flag)]
								if c, ok := table.LookupTurnsLeft(st, flag == 1, limit); !ok || c != wantCh {
									t.Errorf("%s, after a pass %v: the table plays %v (%v), the card-level optimum %v", name, flag == 1, c, ok, wantCh)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d states' values", compared)
}

// within reports whether a and b differ by at most tol.
func within(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

// TestDecayLimitDistributionIsCardLevel compares the score distribution under decay forgetting and
// a turn limit (seat 0's and seat 1's shares, win, draw and loss) with the card-level positions
// carried forwards from every state of 2 and 3 pairs, every pass rule, limits 1 to 6 (fewer cases
// under -short).
func TestDecayLimitDistributionIsCardLevel(t *testing.T) {
	ctx := context.Background()
	minN, maxN, minT, maxT := 2, 3, 1, 6
	if testing.Short() {
		minN, minT, maxT = 3, 4, 4
	}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicySafe},
	}
	for i, dc := range decayLimitMemories() {
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			// -short: q = 1/10 without a capacity under always, where the optimum passes with
			// cards remembered at (3, 2), so that the pass's forgetting is carried.
			if testing.Short() && (rule != rules.PassAlways || i != 2) {
				continue
			}
			for k, pol := range lineups {
				if testing.Short() && k > 0 {
					continue
				}
				s := newDLSearch(dc.card, rule, pol)
				mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				for n := minN; n <= maxN; n++ {
					for j := 0; j <= n; j++ {
						st := rules.State{N: n, J: j}
						if !dc.mem.Holds(st.Known()) {
							continue
						}
						for limit := minT; limit <= maxT; limit++ {
							name := fmt.Sprintf("%v, pass %v, %v against %v, %v, %d turns", dc.mem, rule, pol[0], pol[1], st, limit)
							m := exact.Model{Pass: rule, Memory: dc.mem, Variant: rules.Variant{TurnLimit: limit}}
							got, err := exact.Distribution(ctx, field.Rat{}, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							want := s.distribution(newCardWorld(st, nil), limit)
							p0, p1 := make([]*big.Rat, 2*n+1), make([]*big.Rat, 2*n+1)
							for h := range p0 {
								p0[h], p1[h] = new(big.Rat), new(big.Rat)
							}
							win, draw, loss := new(big.Rat), new(big.Rat), new(big.Rat)
							for k, p := range want {
								p0[k[0]].Add(p0[k[0]], p)
								p1[k[1]].Add(p1[k[1]], p)
								switch {
								case k[0] > k[1]:
									win.Add(win, p)
								case k[0] == k[1]:
									draw.Add(draw, p)
								default:
									loss.Add(loss, p)
								}
							}
							for h := range p0 {
								if got.Prob[h].Cmp(p0[h]) != 0 || got.Prob1[h].Cmp(p1[h]) != 0 {
									t.Errorf("%s, share %d/2: seat 0 %s, seat 1 %s; card level %s, %s", name, h,
										got.Prob[h].RatString(), got.Prob1[h].RatString(), p0[h].RatString(), p1[h].RatString())
								}
							}
							if got.Win.Cmp(win) != 0 || got.Draw.Cmp(draw) != 0 || got.Loss.Cmp(loss) != 0 {
								t.Errorf("%s: win %s, draw %s, loss %s; card level %s, %s, %s", name, got.Win.RatString(), got.Draw.RatString(),
									got.Loss.RatString(), win.RatString(), draw.RatString(), loss.RatString())
							}
						}
					}
				}
			}
		}
	}
}
