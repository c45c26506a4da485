package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesBlindMatchesCardPlay plays every deal of small decks card by card under blind flips,
// each seat following its policy (optimal and best-response read from the solver's table, the
// values from the cards), and compares the averages, and with two players the distribution of
// seat 0's pairs, with the copies model's, exactly.
func TestCopiesBlindMatchesCardPlay(t *testing.T) {
	decks := []struct{ faces, copies int }{{3, 4}, {2, 6}, {2, 4}, {1, 8}}
	if testing.Short() {
		decks = decks[1:] // three faces of four cards, the largest, only in the long run
	}
	for _, d := range decks {
		m := Model{Variant: rules.Variant{Copies: d.copies, Flips: rules.FlipsBlind}}
		for _, mu := range copiesLineups() {
			checkBlindCardPlay(t, m, mu, d.faces, d.copies)
		}
	}
}

// checkBlindCardPlay compares the copies model's values of mu in m (blind flips) with the
// averages of card play over every deal of the given faces.
func checkBlindCardPlay(t *testing.T, m Model, mu Lineup, faces, copies int) {
	t.Helper()
	ctx, f := context.Background(), field.Rat{}
	pairs := faces * copies / 2
	seats := copiesSeats(mu)
	tables := map[rules.Policy]*rules.CopiesTable{}
	for _, p := range seats[:mu.Players] {
		if p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
			continue
		}
		tm := mu
		if p == rules.PolicyOptimal {
			tm = Lineup{Players: mu.Players, Policy: p, Opponent: p}
		}
		tab, err := CopiesPolicyTable(ctx, f, m, tm, pairs)
		if err != nil {
			t.Fatal(err)
		}
		tables[p] = tab
	}
	choose := func(seat, _ int, counts []int) rules.Choice {
		p := seats[seat]
		if tab := tables[p]; tab != nil {
			c, ok := tab.Lookup(counts)
			if !ok {
				t.Fatalf("%s: no choice in %v", lineupName(mu), counts)
			}
			return c
		}
		known := 0
		for i := 1; i < len(counts); i += 2 {
			known += counts[i]
		}
		if p == rules.PolicySafe && known > 0 {
			return rules.Safe
		}
		return rules.Daring
	}
	sumPairs := make([]int64, mu.Players)
	var sumTurns, sumLucky, count int64
	leads := make([]int64, 2*pairs+1)
	deals(faces, copies, func(deal []int) {
		ps, turns, lucky := playCardGame(deal, nil, cardRules{copies: copies, players: mu.Players, blind: true}, choose)
		for i, p := range ps {
			sumPairs[i] += int64(p)
		}
		if mu.Players == 2 {
			leads[ps[0]-ps[1]+pairs]++
		}
		sumTurns += int64(turns)
		sumLucky += int64(lucky)
		count++
	})
	start, err := StartCopiesState(pairs, copies)
	if err != nil {
		t.Fatal(err)
	}
	res, err := EvaluateCopies(ctx, f, m, mu, start)
	if err != nil {
		t.Fatal(err)
	}
	mean := func(sum int64) *big.Rat { return big.NewRat(sum, count) }
	name := fmt.Sprintf("%d faces of %d, blind flips, %s", faces, copies, lineupName(mu))
	if mu.Players == 1 {
		if res.ExpectedTurns.Cmp(mean(sumTurns)) != 0 || res.ExpectedLucky.Cmp(mean(sumLucky)) != 0 {
			t.Errorf("%s: turns %v lucky %v, cards %v and %v", name, res.ExpectedTurns, res.ExpectedLucky, mean(sumTurns), mean(sumLucky))
		}
		return
	}
	for i := range sumPairs {
		if res.PairsBySeat[i].Cmp(mean(sumPairs[i])) != 0 {
			t.Errorf("%s: seat %d expects %v pairs, cards %v", name, i, res.PairsBySeat[i], mean(sumPairs[i]))
		}
	}
	if mu.Players != 2 || mu.PerSeat {
		return
	}
	d, err := CopiesDistribution(ctx, f, m, mu, start)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range d.Prob {
		if p.Cmp(mean(leads[i])) != 0 {
			t.Errorf("%s: P(seat 0 collects %d/2 pairs) = %v, cards %v", name, i, p, mean(leads[i]))
		}
	}
}

// TestCopiesBlindLimitMatchesCardPlay plays every deal of two faces of four and of six cards
// under blind flips and turn limits of 2 to 5 turns card by card, with fixed policies and the
// optimum read from the solver's layers at the turns left, and compares every seat's mean pairs
// and, with two players, the distributions of both seats' pairs with the copies model's, exactly.
func TestCopiesBlindLimitMatchesCardPlay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, d := range []struct{ faces, copies int }{{2, 4}, {2, 6}} {
		pairs := d.faces * d.copies / 2
		for limit := 2; limit <= 5; limit++ {
			m := Model{Variant: rules.Variant{Copies: d.copies, Flips: rules.FlipsBlind, TurnLimit: limit}}
			for _, mu := range []Lineup{
				{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
				{Players: 1, Policy: rules.PolicyOptimal},
				{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			} {
				name := fmt.Sprintf("%d faces of %d, blind flips, limit %d, %s", d.faces, d.copies, limit, lineupName(mu))
				var layers []*rules.CopiesTable
				if mu.Policy == rules.PolicyOptimal {
					var err error
					if layers, err = CopiesPolicyTurnTables(ctx, f, m, mu, pairs); err != nil {
						t.Fatal(err)
					}
				}
				seats := copiesSeats(mu)
				choose := func(seat, turn int, counts []int) rules.Choice {
					if left := limit - turn + 1; seats[seat] == rules.PolicyOptimal {
						c, ok := layers[left-1].Lookup(counts)
						if !ok {
							t.Fatalf("%s: no choice in %v with %d turns left", name, counts, left)
						}
						return c
					}
					for i := 1; i < len(counts); i += 2 {
						if counts[i] > 0 && seats[seat] == rules.PolicySafe {
							return rules.Safe
						}
					}
					return rules.Daring
				}
				sum := make([]int64, mu.Players)
				var count int64
				dist := [2][]int64{make([]int64, pairs+1), make([]int64, pairs+1)}
				deals(d.faces, d.copies, func(deal []int) {
					ps, _, _ := playCardGame(deal, nil, cardRules{copies: d.copies, players: mu.Players, limit: limit, blind: true}, choose)
					for i, p := range ps {
						sum[i] += int64(p)
					}
					if mu.Players == 2 {
						dist[0][ps[0]]++
						dist[1][ps[1]]++
					}
					count++
				})
				start, err := StartCopiesState(pairs, d.copies)
				if err != nil {
					t.Fatal(err)
				}
				res, err := EvaluateCopies(ctx, f, m, mu, start)
				if err != nil {
					t.Fatal(err)
				}
				for i := range sum {
					if want := big.NewRat(sum[i], count); res.PairsBySeat[i].Cmp(want) != 0 {
						t.Errorf("%s: seat %d expects %v pairs, cards %v", name, i, res.PairsBySeat[i], want)
					}
				}
				if mu.Players != 2 {
					continue
				}
				sd, err := CopiesDistribution(ctx, f, m, mu, start)
				if err != nil {
					t.Fatal(err)
				}
				for a := range pairs + 1 {
					for s, prob := range [2][]*big.Rat{sd.Prob, sd.Prob1} {
						if want := big.NewRat(dist[s][a], count); prob[2*a].Cmp(want) != 0 {
							t.Errorf("%s: P(seat %d takes %d pairs) = %v, cards %v", name, s, a, prob[2*a], want)
						}
					}
				}
			}
		}
	}
}

// blindSearch is the optimum of the card game under blind flips with perfect memory and pass
// rule never, found without the count formulas by naming every pair of cards on the table (at
// least one of them unseen) at every turn and averaging over the deals consistent with what has
// been seen: with two players the mover's expected lead, both seats maximising their own; with
// one (solo) the expected turns to clear the table, minimised. A pair remembered whole is taken
// first, a turn of its own.
type blindSearch struct {
	deals [][]int
	solo  bool
	memo  map[string]*big.Rat
}

// key writes the information state: the faces of the cards seen, on the table or taken.
func (o *blindSearch) key(removed, seen uint64, deal []int) string {
	b := make([]byte, len(deal))
	for i := range b {
		switch {
		case removed&(1<<i) != 0:
			b[i] = byte('A' + deal[i])
		case seen&(1<<i) != 0:
			b[i] = byte('a' + deal[i])
		default:
			b[i] = '?'
		}
	}
	return string(b)
}

// value returns the optimum from the information state, deals being the consistent deals.
func (o *blindSearch) value(removed, seen uint64, deals []int) *big.Rat {
	d0 := o.deals[deals[0]]
	size := len(d0)
	if removed == 1<<size-1 {
		return new(big.Rat)
	}
	key := o.key(removed, seen, d0)
	if v, ok := o.memo[key]; ok {
		return v
	}
	down := func(x int) bool { return removed&(1<<x) == 0 }
	isSeen := func(x int) bool { return seen&(1<<x) != 0 }
	one := big.NewRat(1, 1)
	for a := range size {
		for b := a + 1; b < size; b++ {
			if down(a) && down(b) && isSeen(a) && isSeen(b) && d0[a] == d0[b] {
				v := new(big.Rat).Add(one, o.value(removed|1<<a|1<<b, seen, deals))
				o.memo[key] = v
				return v
			}
		}
	}
	var best *big.Rat
	for a := range size {
		for b := a + 1; b < size; b++ {
			if !down(a) || !down(b) || isSeen(a) && isSeen(b) {
				continue
			}
			parts := map[[2]int][]int{}
			for _, i := range deals {
				fa, fb := o.deals[i][a], o.deals[i][b]
				parts[[2]int{fa, fb}] = append(parts[[2]int{fa, fb}], i)
			}
			sum := new(big.Rat)
			for faces, part := range parts {
				s := seen | 1<<a | 1<<b
				var x *big.Rat
				switch {
				case faces[0] == faces[1]:
					x = new(big.Rat).Add(one, o.value(removed|1<<a|1<<b, s, part))
				case o.solo:
					x = new(big.Rat).Add(one, o.value(removed, s, part))
				default:
					x = new(big.Rat).Neg(o.value(removed, s, part))
				}
				sum.Add(sum, x.Mul(x, big.NewRat(int64(len(part)), int64(len(deals)))))
			}
			if better := best == nil || (sum.Cmp(best) > 0) != o.solo && sum.Cmp(best) != 0; better {
				best = sum
			}
		}
	}
	o.memo[key] = best
	return best
}

// TestCopiesBlindOptimumMatchesEveryNaming compares the copies model's optimum under blind flips
// (two players, the lead; one, the turns) with the optimum over every pair of cards named at every
// turn, from states with remembered cards of faces with different numbers of cards on the table,
// where the face of the remembered card named matters (naming one of a face with the most cards
// is as good as any), and without -short over every deal of two faces of four cards.
func TestCopiesBlindOptimumMatchesEveryNaming(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	starts := []copiesVec{{0, 1, 0, 1}, {1, 1, 0, 1}}
	if !testing.Short() {
		starts = append(starts, copiesVec{0, 0, 2, 0}, copiesVec{0, 1, 1, 1}, copiesVec{0, 0, 0, 1, 0, 1})
	}
	for _, v := range starts {
		// The deals: one remembered card of every half-known face first, then every arrangement
		// of the unknown cards.
		var known, unknown []int
		face := 0
		for cl, a := range v {
			r, b := cl&^1+2, cl&1
			for range a {
				if b == 1 {
					known = append(known, face)
				}
				for range r - b {
					unknown = append(unknown, face)
				}
				face++
			}
		}
		var all [][]int
		permutations(unknown, func(rest []int) {
			all = append(all, append(append([]int(nil), known...), rest...))
		})
		ids := make([]int, len(all))
		for i := range ids {
			ids[i] = i
		}
		seen := uint64(1)<<len(known) - 1
		m := Model{Variant: rules.Variant{Copies: len(v), Flips: rules.FlipsBlind}}
		for _, solo := range []bool{false, true} {
			mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			if solo {
				mu = Lineup{Players: 1, Policy: rules.PolicyOptimal}
			}
			res, err := EvaluateCopies(ctx, f, m, mu, v.state())
			if err != nil {
				t.Fatal(err)
			}
			o := &blindSearch{deals: all, solo: solo, memo: map[string]*big.Rat{}}
			want := o.value(0, seen, ids)
			got := res.ExpectedLead
			if solo {
				got = res.ExpectedTurns
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v, %s: the model's optimum %s, every naming of two cards %s", v.state(), lineupName(mu), got.RatString(), want.RatString())
			}
		}
	}
}
