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

// variantGame is the rule variant a card-level game is played under: blind flips and a turn
// limit (0: none). onTurn, when not nil, is told the number of every turn as it starts (1 for the
// first), for a decider that reads the turns left.
type variantGame struct {
	blind  bool
	limit  int
	onTurn func(turn int64)
}

// playVariantDeal plays a deal of pairs only (face[i] is the face of position i) to the end with
// perfect shared memory and pass rule never, as docs/models.md §1.7 and §5.2 describe it, without
// the count formulas: the mover takes a pair it knows whole (a turn of its own), otherwise names
// the lowest position nobody has seen and, for daring, the next such position (the lowest
// remembered one when there is none), for safe the lowest remembered position whose partner is
// still unseen. Sequential flips look at the first card before naming the second: its partner is
// taken when remembered. The game stops after limit turns, the pairs left counting for nobody.
func playVariantDeal(face []int, players int, v variantGame, decide func(seat int, st rules.State) rules.Choice) gameTally {
	L := len(face)
	partner := make([]int, L)
	for i := range partner {
		for k := range face {
			if k != i && face[k] == face[i] {
				partner[i] = k
			}
		}
	}
	present := make([]bool, L)
	known := make([]bool, L)
	for i := range present {
		present[i] = true
	}
	res := gameTally{pairs: make([]int64, players)}
	left, mover := L/2, 0
	take := func(a, b int) {
		present[a], present[b] = false, false
		res.pairs[mover]++
		left--
	}
	lowest := func(ok func(i int) bool) int {
		for i := range L {
			if present[i] && ok(i) {
				return i
			}
		}
		return -1
	}
	for left > 0 && (v.limit == 0 || res.turns < int64(v.limit)) {
		res.turns++
		if v.onTurn != nil {
			v.onTurn(res.turns)
		}
		if a := lowest(func(i int) bool { return known[i] && known[partner[i]] }); a >= 0 {
			take(a, partner[a])
			continue
		}
		var st rules.State
		for i := range L {
			if present[i] && i < partner[i] {
				st.N++
				if !known[i] && !known[partner[i]] {
					st.J++
				}
			}
		}
		choice := decide(mover, st)
		a := lowest(func(i int) bool { return !known[i] })
		unseen := func(i int) bool { return !known[i] && i != a }
		remembered := func(i int) bool { return known[i] }
		var b int
		switch {
		case !v.blind && known[partner[a]]:
			b = partner[a]
		case choice == rules.Safe:
			b = lowest(remembered)
		default:
			if b = lowest(unseen); b < 0 {
				b = lowest(remembered)
			}
		}
		lucky := !known[b]
		known[a], known[b] = true, true
		if partner[a] == b {
			if lucky {
				res.lucky++
			}
			take(a, b)
			continue
		}
		mover = (mover + 1) % players
	}
	return res
}

// averageOverDeals plays every deal of n pairs and returns the exact averages: every seat's pairs,
// turns and lucky matches.
func averageOverDeals(n, players int, v variantGame, pols []rules.Policy) (pairs []*big.Rat, turns, lucky *big.Rat) {
	deals := dealsOf(n, 0)
	sum := gameTally{pairs: make([]int64, players)}
	for _, d := range deals {
		r := playVariantDeal(d, players, v, func(seat int, st rules.State) rules.Choice { return pols[seat].Decide(st) })
		for i, x := range r.pairs {
			sum.pairs[i] += x
		}
		sum.turns += r.turns
		sum.lucky += r.lucky
	}
	avg := func(x int64) *big.Rat { return big.NewRat(x, int64(len(deals))) }
	for _, x := range sum.pairs {
		pairs = append(pairs, avg(x))
	}
	return pairs, avg(sum.turns), avg(sum.lucky)
}

// TestVariantsMatchEveryDeal plays every deal of up to four pairs card by card under blind flips
// and under turn limits, with fixed policies at one to three seats, and compares the exact
// averages with Evaluate (up to three pairs with -short).
func TestVariantsMatchEveryDeal(t *testing.T) {
	ctx := context.Background()
	var games []variantGame
	for _, blind := range []bool{false, true} {
		for _, limit := range []int{0, 1, 2, 3, 5, 8} {
			if blind || limit > 0 {
				games = append(games, variantGame{blind: blind, limit: limit})
			}
		}
	}
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	compared := 0
	for _, g := range games {
		for n := 1; n <= maxN; n++ {
			for _, players := range []int{1, 2, 3} {
				for _, pol := range fixedPolicies {
					for _, opp := range fixedPolicies {
						if players == 1 && opp != pol {
							continue
						}
						pols := []rules.Policy{pol, opp, opp}
						flips := rules.FlipsSequential
						if g.blind {
							flips = rules.FlipsBlind
						}
						model := exact.Model{Variant: rules.Variant{Flips: flips, TurnLimit: g.limit}}
						mu := exact.Lineup{Players: players, Policy: pol, Opponent: opp}
						name := fmt.Sprintf("%v/n=%d/p=%d/%v-vs-%v", model.Variant, n, players, pol, opp)
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, rules.State{N: n, J: n})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						pairs, turns, lucky := averageOverDeals(n, players, g, pols)
						check := func(what string, got, want *big.Rat) {
							t.Helper()
							compared++
							if got == nil || got.Cmp(want) != 0 {
								t.Errorf("%s: %s = %v from Evaluate, %s over every deal", name, what, got, want.RatString())
							}
						}
						if players == 1 {
							check("ExpectedTurns", res.ExpectedTurns, turns)
							check("ExpectedLucky", res.ExpectedLucky, lucky)
							if g.limit > 0 {
								check("ExpectedPairs", res.ExpectedPairs, pairs[0])
							}
							continue
						}
						for i := range players {
							check(fmt.Sprintf("PairsBySeat[%d]", i), res.PairsBySeat[i], pairs[i])
						}
						if players == 2 {
							check("ExpectedLead", res.ExpectedLead, new(big.Rat).Sub(pairs[0], pairs[1]))
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d exact values with card-level play over every deal", compared)
}

// TestTurnLimitBeyondTheGameChangesNothing checks that a limit no game reaches gives the values
// of the game without a limit, exactly: with perfect memory every turn takes a pair, turns up a
// card nobody has seen or passes, and two passes in a row end the game, so no game lasts more
// than 2(3n + s) + 1 turns.
func TestTurnLimitBeyondTheGameChangesNothing(t *testing.T) {
	ctx := context.Background()
	type matchup struct {
		players  int
		pol, opp rules.Policy
	}
	matchups := []matchup{
		{1, rules.PolicyOptimal, rules.PolicyOptimal}, {1, rules.PolicySafe, rules.PolicySafe},
		{2, rules.PolicyOptimal, rules.PolicyOptimal}, {2, rules.PolicySafe, rules.PolicyDaring},
		{2, rules.PolicyBestResponse, rules.PolicyParity}, {2, rules.PolicyDaring, rules.PolicyBestResponse},
		{2, rules.PolicyOptimal, rules.PolicySafe}, {2, rules.PolicyBestResponse, rules.PolicyOptimal},
		{3, rules.PolicyOptimal, rules.PolicyOptimal}, {3, rules.PolicyDaring, rules.PolicyOptimal},
		{2, rules.PolicyWinOptimal, rules.PolicyWinOptimal}, {2, rules.PolicyWinBestResponse, rules.PolicyParity},
		{2, rules.PolicyOptimal, rules.PolicyWinOptimal},
	}
	maxN := 4
	if testing.Short() {
		maxN = 2
	}
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			if (testing.Short() && pass == rules.PassTwoKnown) || (exact.RaceEnabled && pass == rules.PassAlways) {
				continue
			}
			for _, s := range []int{0, 1} {
				if (flips == rules.FlipsBlind || testing.Short()) && s > 0 {
					continue
				}
				for _, mt := range matchups {
					if mt.players != 2 && pass != rules.PassNever {
						continue
					}
					for n := 1; n <= maxN; n++ {
						playsToWin := mt.pol.PlaysToWin() || mt.opp.PlaysToWin()
						if playsToWin && n > 2 {
							continue // the leads make these the slowest
						}
						model := exact.Model{Pass: pass, Singletons: s, Variant: rules.Variant{Flips: flips}}
						mu := exact.Lineup{Players: mt.players, Policy: mt.pol, Opponent: mt.opp}
						st := rules.State{N: n, J: n, S: s, F: s}
						want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						model.Variant.TurnLimit = 2*(3*n+s) + 1
						got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						name := fmt.Sprintf("%v, pass %v, s=%d, %d players %v vs %v, n=%d", model.Variant, pass, s, mt.players, mt.pol, mt.opp, n)
						eq := func(what string, a, b *big.Rat) {
							t.Helper()
							if a == nil || b == nil || a.Cmp(b) != 0 {
								t.Errorf("%s: %s = %v under the limit, %v without", name, what, a, b)
							}
						}
						if mt.players == 1 {
							eq("ExpectedTurns", got.ExpectedTurns, want.ExpectedTurns)
							eq("ExpectedLucky", got.ExpectedLucky, want.ExpectedLucky)
							eq("ExpectedPairs", got.ExpectedPairs, big.NewRat(int64(n), 1))
							continue
						}
						for i := range mt.players {
							eq(fmt.Sprintf("PairsBySeat[%d]", i), got.PairsBySeat[i], want.PairsBySeat[i])
						}
						if !playsToWin {
							continue
						}
						st.Lead = 1
						gotWDL, err := exact.WinDrawLoss[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						model.Variant.TurnLimit = 0
						wantWDL, err := exact.WinDrawLoss[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						for k := range 2 {
							eq(fmt.Sprintf("lead 1, seat order %d: win", k), gotWDL[k].Win, wantWDL[k].Win)
							eq(fmt.Sprintf("lead 1, seat order %d: draw", k), gotWDL[k].Draw, wantWDL[k].Draw)
						}
					}
				}
			}
		}
	}
}

// cardMinimax is the two-player optimum of the card game (perfect memory, pass rule never), found
// without the count formulas by trying every card at every flip over the deals consistent with
// what has been seen: the mover's expected lead from an information state, both seats maximising
// their own lead, or with win the mover's P(win) + P(draw)/2 - 1/2 at its lead d so far, both
// seats maximising their own. A pair known whole is taken first, a turn of its own
// (docs/models.md §3.1). Under blind flips both cards are named before the first is turned up;
// otherwise the second is named knowing the first card's face.
type cardMinimax struct {
	deals [][]int
	blind bool
	win   bool
	memo  map[string]*big.Rat
}

// end is the value of a game over at lead d.
func (o *cardMinimax) end(d int) *big.Rat {
	if !o.win {
		return new(big.Rat)
	}
	switch {
	case d > 0:
		return big.NewRat(1, 2)
	case d < 0:
		return big.NewRat(-1, 2)
	}
	return new(big.Rat)
}

// gain is the value of taking a pair at lead d and moving on.
func (o *cardMinimax) gain(removed, seen uint32, t, d int, deals []int) *big.Rat {
	if o.win {
		return o.value(removed, seen, t, d+1, deals)
	}
	return new(big.Rat).Add(big.NewRat(1, 1), o.value(removed, seen, t, d+1, deals))
}

func (o *cardMinimax) value(removed, seen uint32, t, lead int, deals []int) *big.Rat {
	d0 := o.deals[deals[0]]
	size := len(d0)
	if removed == 1<<size-1 || t == 0 {
		return o.end(lead)
	}
	key := fmt.Sprint(removed, seen, t, lead, deals)
	if v, ok := o.memo[key]; ok {
		return v
	}
	down := func(x int) bool { return removed&(1<<x) == 0 }
	isSeen := func(x int) bool { return seen&(1<<x) != 0 }
	for a := range size {
		for b := a + 1; b < size; b++ {
			if down(a) && down(b) && isSeen(a) && isSeen(b) && d0[a] == d0[b] {
				v := o.gain(removed|1<<a|1<<b, seen, t-1, lead, deals)
				o.memo[key] = v
				return v
			}
		}
	}
	// outcome is the mover's lead after turning up a and b, over the consistent deals part.
	outcome := func(a, b int, part []int) *big.Rat {
		s := seen | 1<<a | 1<<b
		if d := o.deals[part[0]]; d[a] == d[b] {
			return o.gain(removed|1<<a|1<<b, s, t-1, lead, part)
		}
		return new(big.Rat).Neg(o.value(removed, s, t-1, -lead, part))
	}
	split := func(part []int, x int) map[int][]int {
		out := map[int][]int{}
		for _, i := range part {
			out[o.deals[i][x]] = append(out[o.deals[i][x]], i)
		}
		return out
	}
	weight := func(part, of []int) *big.Rat { return big.NewRat(int64(len(part)), int64(len(of))) }
	legal := func(a, b int) bool { return a != b && down(a) && down(b) && (!isSeen(a) || !isSeen(b)) }
	var best *big.Rat
	for a := range size {
		if !down(a) {
			continue
		}
		var v *big.Rat
		if o.blind {
			for b := range size {
				if !legal(a, b) {
					continue
				}
				sum := new(big.Rat)
				for _, byA := range split(deals, a) {
					for _, part := range split(byA, b) {
						sum.Add(sum, new(big.Rat).Mul(weight(part, deals), outcome(a, b, part)))
					}
				}
				if v == nil || sum.Cmp(v) > 0 {
					v = sum
				}
			}
		} else {
			v = new(big.Rat)
			for _, byA := range split(deals, a) {
				var inner *big.Rat
				for b := range size {
					if !legal(a, b) {
						continue
					}
					sum := new(big.Rat)
					for _, part := range split(byA, b) {
						sum.Add(sum, new(big.Rat).Mul(weight(part, byA), outcome(a, b, part)))
					}
					if inner == nil || sum.Cmp(inner) > 0 {
						inner = sum
					}
				}
				v.Add(v, new(big.Rat).Mul(weight(byA, deals), inner))
			}
		}
		if v != nil && (best == nil || v.Cmp(best) > 0) {
			best = v
		}
	}
	o.memo[key] = best
	return best
}

// TestOptimumMatchesEveryCardPlay compares the two-player optimum of the count model with the
// optimum over every card played on every deal, for pairs and to win (at a few leads so far):
// blind flips without a limit, and both flip rules under turn limits.
func TestOptimumMatchesEveryCardPlay(t *testing.T) {
	ctx := context.Background()
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	for _, blind := range []bool{true, false} {
		for n := 1; n <= maxN; n++ {
			deals := dealsOf(n, 0)
			all := make([]int, len(deals))
			for i := range all {
				all[i] = i
			}
			o := &cardMinimax{deals: deals, blind: blind, memo: map[string]*big.Rat{}}
			ow := &cardMinimax{deals: deals, blind: blind, win: true, memo: map[string]*big.Rat{}}
			flips := rules.FlipsSequential
			if blind {
				flips = rules.FlipsBlind
			}
			for _, limit := range []int{0, 1, 2, 3, 4, 6} {
				if limit == 0 && !blind {
					continue
				}
				model := exact.Model{Variant: rules.Variant{Flips: flips, TurnLimit: limit}}
				mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
				res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				turns := limit
				if limit == 0 {
					turns = 3*n + 1 // no game of perfect memory without passes lasts longer
				}
				if want := o.value(0, 0, turns, 0, all); res.ExpectedLead.Cmp(want) != 0 {
					t.Errorf("%v, %d pairs: optimal lead %s, every card tried on every deal gives %s",
						model.Variant, n, res.ExpectedLead.RatString(), want.RatString())
				}
				if n > 2 {
					continue // to win, the slowest by far
				}
				win := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
				for _, lead := range []int{-1, 0, 1} {
					wdl, err := exact.WinDrawLoss[*big.Rat](ctx, field.Rat{}, model, win, rules.State{N: n, J: n, Lead: lead})
					if err != nil {
						t.Fatal(err)
					}
					score := new(big.Rat).Add(wdl[0].Win, new(big.Rat).Mul(wdl[0].Draw, big.NewRat(1, 2)))
					score.Sub(score, big.NewRat(1, 2))
					if want := ow.value(0, 0, turns, lead, all); score.Cmp(want) != 0 {
						t.Errorf("%v, %d pairs, lead %d: win-optimal score %s - 1/2, every card tried on every deal gives %s",
							model.Variant, n, lead, score.RatString(), want.RatString())
					}
				}
			}
		}
	}
}

// With more turns left than any game from a state lasts, the table of a turn limit makes the
// choices of the table without a limit, and with one turn left the two-player optimum takes what
// it can now: a pass is never better than a turn that may take a pair.
func TestTurnLimitTableBeyondTheGame(t *testing.T) {
	ctx := context.Background()
	const maxN = 5
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			for _, mu := range []exact.Lineup{
				{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
				{Players: 1, Policy: rules.PolicyOptimal},
			} {
				if mu.Players == 1 && pass != rules.PassNever {
					continue
				}
				model := exact.Model{Pass: pass, Variant: rules.Variant{Flips: flips}}
				want, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
				if err != nil {
					t.Fatal(err)
				}
				long := 2*3*maxN + 1
				model.Variant.TurnLimit = long
				got, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
				if err != nil {
					t.Fatal(err)
				}
				if got.TurnLimit() != long {
					t.Fatalf("%v, %v: the table has %d turn layers, want %d", model.Variant, mu, got.TurnLimit(), long)
				}
				for n := 1; n <= maxN; n++ {
					for j := 0; j <= n; j++ {
						st := rules.State{N: n, J: j}
						for _, after := range []bool{false, true} {
							w, _ := want.Lookup(st, after)
							g, ok := got.LookupTurnsLeft(st, after, 2*3*n+1)
							if !ok || g != w {
								t.Errorf("%v, pass %v, %v, %v after a pass %v: %v with the limit, %v without", model.Variant, pass, mu, st, after, g, w)
							}
							if c, _ := got.LookupTurnsLeft(st, after, 1); mu.Players == 2 && c == rules.Pass {
								t.Errorf("%v, pass %v, %v, %v: passes with one turn left", model.Variant, pass, mu, st)
							}
						}
					}
				}
			}
		}
	}
}
