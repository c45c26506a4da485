package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// bsTable is a blind game with singletons at the card level, perfect memory: face[pos] is a pair's
// face (below pairs) or a singleton's (pairs and above).
type bsTable struct {
	face         []int
	pairs        int
	onTable      []bool
	seen         []bool
	players      int
	pass         rules.PassRule
	turns, lucky int
}

// state returns the count state the mover's perfect memory sees.
func (g *bsTable) state() rules.State {
	cards := make([]int, g.pairs)
	seen := make([]int, g.pairs)
	var st rules.State
	for pos, fc := range g.face {
		if !g.onTable[pos] {
			continue
		}
		if fc >= g.pairs {
			st.S++
			if !g.seen[pos] {
				st.F++
			}
			continue
		}
		cards[fc]++
		if g.seen[pos] {
			seen[fc]++
		}
	}
	for fc := range cards {
		if cards[fc] == 2 {
			st.N++
			if seen[fc] == 0 {
				st.J++
			}
		}
	}
	return st
}

// knownWhole returns the two positions of a pair on the table whose cards are both seen, or -1.
func (g *bsTable) knownWhole() (int, int) {
	first := map[int]int{}
	for pos, fc := range g.face {
		if g.onTable[pos] && g.seen[pos] && fc < g.pairs {
			if q, ok := first[fc]; ok {
				return q, pos
			}
			first[fc] = pos
		}
	}
	return -1, -1
}

// unknown returns the lowest face-down position not seen, other than but, or -1.
func (g *bsTable) unknown(but int) int {
	for pos := range g.face {
		if pos != but && g.onTable[pos] && !g.seen[pos] {
			return pos
		}
	}
	return -1
}

// remembered returns the remembered card a blind move names: a seen card of a pair on the table
// if there is one, otherwise a seen singleton, or -1.
func (g *bsTable) remembered() int {
	single := -1
	for pos, fc := range g.face {
		if !g.onTable[pos] || !g.seen[pos] {
			continue
		}
		if fc < g.pairs {
			return pos
		}
		if single < 0 {
			single = pos
		}
	}
	return single
}

// play plays the game card by card from seat 0 to move, after streak passes in a row, each seat
// choosing by choose, and returns every seat's pairs taken (a stalemate shared equally).
func (g *bsTable) play(choose func(seat int, st rules.State, streak int) rules.Choice, streak int) []*big.Rat {
	score := make([]*big.Rat, g.players)
	for i := range score {
		score[i] = new(big.Rat)
	}
	one := big.NewRat(1, 1)
	seat := 0
	for {
		// A pair known whole is taken first, a turn of its own.
		if a, b := g.knownWhole(); a >= 0 {
			g.onTable[a], g.onTable[b] = false, false
			score[seat].Add(score[seat], one)
			g.turns++
			streak = 0
			continue
		}
		st := g.state()
		if st.N == 0 {
			return score
		}
		c := choose(seat, st, streak)
		g.turns++
		if c == rules.Pass {
			streak++
			if streak == g.players {
				share := big.NewRat(int64(st.N), int64(g.players))
				for i := range score {
					score[i].Add(score[i], share)
				}
				return score
			}
			seat = (seat + 1) % g.players
			continue
		}
		streak = 0
		x := g.unknown(-1)
		var y int
		if c == rules.Daring {
			y = g.unknown(x)
			if y < 0 {
				y = g.remembered()
			}
		} else {
			y = g.remembered()
		}
		known := g.seen[y]
		g.seen[x], g.seen[y] = true, true
		if g.face[x] == g.face[y] {
			g.onTable[x], g.onTable[y] = false, false
			score[seat].Add(score[seat], one)
			if !known {
				g.lucky++
			}
			continue
		}
		seat = (seat + 1) % g.players
	}
}

// bsDeals calls visit with every deal of state st: the first n - j positions hold one card of
// pairs 0 .. n-j-1, the next s - f seen singletons, all seen; the other positions every distinct
// arrangement of the cards left, none seen.
func bsDeals(st rules.State, visit func(face []int, seen int)) {
	k, ks := st.N-st.J, st.S-st.F
	var face []int
	for fc := range k {
		face = append(face, fc)
	}
	for i := range ks {
		face = append(face, st.N+i)
	}
	count := map[int]int{}
	for fc := range st.N {
		count[fc] = 2
		if fc < k {
			count[fc] = 1
		}
	}
	for i := ks; i < st.S; i++ {
		count[st.N+i] = 1
	}
	faces := st.N + st.S
	total := len(face) + st.N + st.J + st.F
	var rec func()
	rec = func() {
		if len(face) == total {
			visit(append([]int(nil), face...), k+ks)
			return
		}
		for fc := range faces {
			if count[fc] == 0 {
				continue
			}
			count[fc]--
			face = append(face, fc)
			rec()
			face = face[:len(face)-1]
			count[fc]++
		}
	}
	rec()
}

// deviateOnce returns a chooser for one game that makes choice c at the game's first decision and
// then chooses as choose does; bsPlay calls it afresh for every deal.
func deviateOnce(c rules.Choice, choose func(seat int, st rules.State, streak int) rules.Choice) func() func(int, rules.State, int) rules.Choice {
	return func() func(int, rules.State, int) rules.Choice {
		first := true
		return func(seat int, st rules.State, streak int) rules.Choice {
			if first {
				first = false
				return c
			}
			return choose(seat, st, streak)
		}
	}
}

// bsResult is the card-level expectation over every deal of a state.
type bsResult struct {
	pairs        []*big.Rat       // every seat's expected pairs
	dist         map[int]*big.Rat // seat 0's pairs in halves (two seats): probability
	turns, lucky *big.Rat         // expected turns and lucky matches
}

// bsPlay averages the card-level game from st over every deal, each game's seats choosing by a
// chooser that chooser returns for it.
func bsPlay(st rules.State, players int, pass rules.PassRule, streak int, chooser func() func(seat int, st rules.State, streak int) rules.Choice) bsResult {
	r := bsResult{dist: map[int]*big.Rat{}, turns: new(big.Rat), lucky: new(big.Rat)}
	for range players {
		r.pairs = append(r.pairs, new(big.Rat))
	}
	deals := int64(0)
	bsDeals(st, func(face []int, seen int) {
		deals++
		g := &bsTable{face: face, pairs: st.N, players: players, pass: pass,
			onTable: make([]bool, len(face)), seen: make([]bool, len(face))}
		for i := range face {
			g.onTable[i] = true
			g.seen[i] = i < seen
		}
		sc := g.play(chooser(), streak)
		for i := range sc {
			r.pairs[i].Add(r.pairs[i], sc[i])
		}
		half := new(big.Rat).Mul(sc[0], big.NewRat(2, 1))
		h := int(half.Num().Int64())
		if r.dist[h] == nil {
			r.dist[h] = new(big.Rat)
		}
		r.dist[h].Add(r.dist[h], big.NewRat(1, 1))
		r.turns.Add(r.turns, big.NewRat(int64(g.turns), 1))
		r.lucky.Add(r.lucky, big.NewRat(int64(g.lucky), 1))
	})
	inv := big.NewRat(1, deals)
	for _, v := range r.pairs {
		v.Mul(v, inv)
	}
	for _, v := range r.dist {
		v.Mul(v, inv)
	}
	r.turns.Mul(r.turns, inv)
	r.lucky.Mul(r.lucky, inv)
	return r
}

// same returns a chooser that chooses as choose does in every game.
func same(choose func(seat int, st rules.State, streak int) rules.Choice) func() func(int, rules.State, int) rules.Choice {
	return func() func(int, rules.State, int) rules.Choice { return choose }
}

// bsStates returns every state with 1 <= n <= maxN pairs and s singletons.
func bsStates(maxN, s int) []rules.State {
	var out []rules.State
	for n := 1; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= s; f++ {
				out = append(out, rules.State{N: n, J: j, S: s, F: f})
			}
		}
	}
	return out
}

// bsSizes returns the deck sizes the card-level tests play: (pairs, singletons), bigger ones
// outside -short.
func bsSizes() [][2]int {
	if testing.Short() {
		return [][2]int{{2, 2}}
	}
	return [][2]int{{2, 1}, {2, 2}, {3, 1}, {3, 2}}
}

func bsModel(s int, pass rules.PassRule) exact.Model {
	return exact.Model{Pass: pass, Singletons: s, Variant: rules.Variant{Flips: rules.FlipsBlind}}
}

// TestBlindSinglesCardLevelTwoSeats plays blind flips with singletons card by card over every deal
// (perfect memory, two seats, every pass rule): fixed policies, the optimum's table against
// itself and a best response's table against daring; every state's values equal the solver's,
// the two seats' add up to n, seat 0's score distribution is the solver's, and under the optimum
// every legal choice made once has the solver's value, none above the table's.
func TestBlindSinglesCardLevelTwoSeats(t *testing.T) {
	ctx := context.Background()
	type lineup struct {
		mu    exact.Lineup
		table bool
	}
	lineups := []lineup{
		{exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}, false},
		{exact.Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyDaring}, false},
		{exact.Lineup{Players: 2, Policy: rules.PolicyParity, Opponent: rules.PolicySafe}, false},
		{exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
		{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, true},
	}
	passes := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	compared := 0
	for _, size := range bsSizes() {
		maxN, s := size[0], size[1]
		for _, pass := range passes {
			model := bsModel(s, pass)
			for _, lu := range lineups {
				mu := lu.mu
				name := fmt.Sprintf("s=%d/%v/%v-vs-%v", s, pass, mu.Policy, mu.Opponent)
				choose := func(seat int, st rules.State, _ int) rules.Choice {
					if seat == 0 {
						return mu.Policy.Decide(st)
					}
					return mu.Opponent.Decide(st)
				}
				if lu.table {
					tab, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
					if err != nil {
						t.Fatalf("%s: PolicyTable: %v", name, err)
					}
					choose = func(seat int, st rules.State, streak int) rules.Choice {
						if seat == 0 || mu.Opponent == rules.PolicyOptimal {
							c, ok := tab.Lookup(st, streak > 0)
							if !ok {
								panic(fmt.Sprintf("%s: no table choice in %v", name, st))
							}
							return c
						}
						return mu.Opponent.Decide(st)
					}
				}
				for _, st := range bsStates(maxN, s) {
					got := bsPlay(st, 2, pass, 0, same(choose))
					res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%s, %v: Evaluate: %v", name, st, err)
					}
					compared++
					if res.ExpectedPairs.Cmp(got.pairs[0]) != 0 {
						t.Errorf("%s, %v: the solver gives seat 0 %s pairs, the card-level game %s",
							name, st, res.ExpectedPairs.RatString(), got.pairs[0].RatString())
					}
					if sum := new(big.Rat).Add(got.pairs[0], got.pairs[1]); pass == rules.PassNever && sum.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
						t.Errorf("%s, %v: the seats' pairs add up to %s, not %d", name, st, sum.RatString(), st.N)
					}
					d, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%s, %v: Distribution: %v", name, st, err)
					}
					for i, p := range d.Prob {
						want := got.dist[i]
						if want == nil {
							want = new(big.Rat)
						}
						if p.Cmp(want) != 0 {
							t.Errorf("%s, %v: P(seat 0 takes %d/2) is %s in the solver, %s card by card", name, st, i, p.RatString(), want.RatString())
						}
					}
					if mu.Policy != rules.PolicyOptimal {
						continue
					}
					cv, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%s, %v: ChoiceValues: %v", name, st, err)
					}
					for _, c := range rules.Choices() {
						v, legal := cv.Of(c)
						if legal != model.Legal(st, c) {
							t.Fatalf("%s, %v: %v legal %v in ChoiceValues", name, st, c, legal)
						}
						if !legal {
							continue
						}
						once := bsPlay(st, 2, pass, 0, deviateOnce(c, choose))
						compared++
						if v.Pairs.Cmp(once.pairs[0]) != 0 {
							t.Errorf("%s, %v: %v made once is worth %s in the solver, %s card by card", name, st, c, v.Pairs.RatString(), once.pairs[0].RatString())
						}
						if once.pairs[0].Cmp(got.pairs[0]) > 0 {
							t.Errorf("%s, %v: %v made once gives %s, more than the table's %s", name, st, c, once.pairs[0].RatString(), got.pairs[0].RatString())
						}
					}
				}
			}
		}
	}
	t.Logf("%d values compared", compared)
}

// TestBlindSinglesCardLevelSolitaireAndSeats plays blind flips with singletons card by card over
// every deal (perfect memory, pass rule never): solitaire's expected turns and lucky matches under
// safe, daring and the solver's optimal table, and at three and four seats every seat's expected
// pairs under fixed policies and the optimum of every seat for itself, played from the solver's
// table, equal the solver's; the seats' pairs add up to n.
func TestBlindSinglesCardLevelSolitaireAndSeats(t *testing.T) {
	ctx := context.Background()
	compared := 0
	for _, size := range bsSizes() {
		maxN, s := size[0], size[1]
		model := bsModel(s, rules.PassNever)
		for _, players := range []int{1, 3, 4} {
			for _, pol := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal} {
				mu := exact.Lineup{Players: players, Policy: pol, Opponent: pol}
				name := fmt.Sprintf("s=%d/p=%d/%v", s, players, pol)
				choose := func(_ int, st rules.State, _ int) rules.Choice { return pol.Decide(st) }
				if pol == rules.PolicyOptimal {
					tab, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
					if err != nil {
						t.Fatalf("%s: PolicyTable: %v", name, err)
					}
					choose = func(_ int, st rules.State, _ int) rules.Choice {
						c, ok := tab.Lookup(st, false)
						if !ok {
							panic(fmt.Sprintf("%s: no table choice in %v", name, st))
						}
						return c
					}
				}
				for _, st := range bsStates(maxN, s) {
					got := bsPlay(st, players, rules.PassNever, 0, same(choose))
					res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%s, %v: Evaluate: %v", name, st, err)
					}
					compared++
					if players == 1 {
						if res.ExpectedTurns.Cmp(got.turns) != 0 || res.ExpectedLucky.Cmp(got.lucky) != 0 {
							t.Errorf("%s, %v: the solver gives %s turns and %s lucky matches, the card-level game %s and %s", name, st,
								res.ExpectedTurns.RatString(), res.ExpectedLucky.RatString(), got.turns.RatString(), got.lucky.RatString())
						}
						continue
					}
					sum := new(big.Rat)
					for i := range players {
						sum.Add(sum, got.pairs[i])
						if res.PairsBySeat[i].Cmp(got.pairs[i]) != 0 {
							t.Errorf("%s, %v: the solver gives seat %d %s pairs, the card-level game %s", name, st, i,
								res.PairsBySeat[i].RatString(), got.pairs[i].RatString())
						}
					}
					if sum.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
						t.Errorf("%s, %v: the seats' pairs add up to %s, not %d", name, st, sum.RatString(), st.N)
					}
				}
			}
		}
	}
	t.Logf("%d values compared", compared)
}
