package exact_test

// Decay forgetting with singletons in solitaire and under a turn limit (docs/models.md §4.14)
// against card-level references: the turns of decaySinglesChain (every card flipped and every
// forgetting outcome enumerated card by card, cardDist) iterated for one player, and the
// card-level search of two seats under a limit (dlSearch), neither reading the solver's counts.

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

// soloTurns iterates on the chain the expected turns of one player: policy p's choices, or with
// optimal the fewest turns over the legal choices. A turn costs one, and a pair left fully known
// costs the turn that takes it.
func (ch cardChain) soloTurns(p rules.Policy) map[rules.State]float64 {
	v := map[rules.State]float64{}
	turns := func(steps []cardStep) float64 {
		x := 0.0
		for _, s := range steps {
			x += s.p * (1 + float64(s.key.nextGain) + v[s.key.next]) // zero with no pair left
		}
		return x
	}
	for range 1_000_000 {
		delta := 0.0
		for st, choices := range ch {
			var x float64
			if p == rules.PolicyOptimal {
				x = math.Inf(1)
				for _, steps := range choices {
					x = math.Min(x, turns(steps))
				}
			} else {
				x = turns(choices[p.Decide(st)])
			}
			delta = math.Max(delta, math.Abs(x-v[st]))
			v[st] = x
		}
		if delta < 1e-13 {
			break
		}
	}
	return v
}

// soloLimit is one player's expected pairs and turns from st with t turns left on the chain,
// policy p (optimal: the most pairs, then the fewest turns, within 1e-12), memoised in memo.
func (ch cardChain) soloLimit(p rules.Policy, st rules.State, t int, memo map[string][2]float64) [2]float64 {
	if t == 0 || st.N == 0 {
		return [2]float64{}
	}
	key := fmt.Sprint(st, t)
	if v, ok := memo[key]; ok {
		return v
	}
	value := func(steps []cardStep) [2]float64 {
		var x [2]float64
		for _, s := range steps {
			g, rest := s.key.moverGain, t-1
			if !s.key.cont {
				g = min(s.key.nextGain, t-1) // each pair known whole is taken in a turn of its own
				rest = t - 1 - g
			}
			next := ch.soloLimit(p, s.key.next, rest, memo)
			x[0] += s.p * (float64(g) + next[0])
			turns := 1.0
			if !s.key.cont {
				turns += float64(g)
			}
			x[1] += s.p * (turns + next[1])
		}
		return x
	}
	var best [2]float64
	if p != rules.PolicyOptimal {
		best = value(ch[st][p.Decide(st)])
	} else {
		first := true
		for _, c := range threeChoices {
			steps, ok := ch[st][c]
			if !ok {
				continue
			}
			x := value(steps)
			if first || x[0] > best[0]+1e-12 || (math.Abs(x[0]-best[0]) <= 1e-12 && x[1] < best[1]) {
				best, first = x, false
			}
		}
	}
	memo[key] = best
	return best
}

// TestDecaySinglesSolitaireIsCardLevel compares solitaire under decay forgetting with singletons
// (q = 1/2 and 1/4; no capacity, 2 and 3; 1 and 2 singletons) with the card-level turns: the
// expected turns of daring, safe and optimal (the fewest, over every choice) iterated on the
// chain from every state up to 3 pairs (2 in short mode, and two of the memories), in exact
// rationals and float64; and the distribution of the number of turns (SolitaireTurns) against the
// card-level turn iterated in order of the number of turns, exactly, up to a bound.
func TestDecaySinglesSolitaireIsCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, maxTurns := 3, 10
	if testing.Short() {
		maxN, maxTurns = 2, 6
	}
	for _, dc := range decaySinglesCases() {
		short := map[[2]int]float64{{0, 2}: 0.5, {3, 1}: 0.25} // capacity, singletons: q
		if q, ok := short[[2]int{dc.mem.Capacity, dc.singles}]; testing.Short() && (!ok || q != dc.mem.Decay) {
			continue
		}
		chain, err := decaySinglesChain(dc.decayCase, maxN, dc.singles)
		if err != nil {
			t.Fatal(err)
		}
		m := exact.Model{Memory: dc.mem, Singletons: dc.singles}
		t.Run(fmt.Sprintf("%v/s=%d", dc.card, dc.singles), func(t *testing.T) {
			for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
				want := chain.soloTurns(p)
				mu := exact.Lineup{Players: 1, Policy: p, Opponent: p}
				for st, w := range want {
					got, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatalf("%v, %v: %v", p, st, err)
					}
					gotF, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatalf("%v, %v: %v", p, st, err)
					}
					if g, _ := got.ExpectedTurns.Float64(); !within(g, w, 1e-9) || !within(gotF.ExpectedTurns, w, 1e-9) {
						t.Errorf("%v, %v: expected turns %v (float64 %v), card level %v", p, st, g, gotF.ExpectedTurns, w)
					}
				}
				decide := decaySoloDecider(t, m, p, maxN)
				for _, st := range []rules.State{{N: 1, J: 1, S: dc.singles, F: dc.singles}, {N: maxN, J: maxN, S: dc.singles, F: dc.singles}} {
					wantDist := cardTurnsDist(t, dc.card, st, decide, maxTurns)
					t.Run(fmt.Sprintf("%v/%v", p, st), func(t *testing.T) { checkTurnsDist(t, m, p, st, maxTurns, wantDist) })
				}
			}
		})
	}
}

// TestDecaySinglesLimitIsCardLevel compares decay forgetting with singletons under a turn limit
// with the card-level search at two seats, q = 1/2 without a capacity and q = 1/4 with 3 (short
// mode: the latter), pass rules never and always, limits 1 to 4 (2 in short mode), from every
// state up to 2 pairs with 1 and 2 singletons (1 in short mode): the values of
// optimal, safe against daring and the best response to safe (exact, and float64 within 1e-12),
// every legal choice's values, and the optimal table's choice in every layer of turns left,
// without and just after a pass; and solitaire's expected pairs and turns under the limit
// (optimal: the most pairs, then the fewest turns) against the chain recursed over the turns left.
func TestDecaySinglesLimitIsCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, maxT, maxS := 2, 4, 2
	if testing.Short() {
		maxT, maxS = 2, 1
	}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicySafe},
	}
	memories := []decayCase{
		{card: cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)}, mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}},
		{card: cardMemory{capacity: 3, forget: rules.ForgetDecay, q: big.NewRat(1, 4)}, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.25}},
	}
	compared := 0
	for _, dc := range memories {
		for s := 1; s <= maxS; s++ {
			for _, rule := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
				if testing.Short() && dc.mem.Capacity == 0 {
					continue
				}
				for _, pol := range lineups {
					search := newDLSearch(dc.card, rule, pol)
					mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
					for limit := 1; limit <= maxT; limit++ {
						m := exact.Model{Pass: rule, Memory: dc.mem, Singletons: s, Variant: rules.Variant{TurnLimit: limit}}
						var table *rules.ChoiceTable
						if pol[0] == rules.PolicyOptimal {
							var err error
							if table, err = exact.PolicyTable(ctx, field.Rat{}, m, mu, maxN); err != nil {
								t.Fatal(err)
							}
						}
						for _, st := range decaySinglesStates(dc.mem, maxN, s) {
							name := fmt.Sprintf("%v, %d singletons, pass %v, %v against %v, %v, %d turns", dc.mem, s, rule, pol[0], pol[1], st, limit)
							w := newCardWorld(st, nil)
							want := search.roleVal(0)(w, limit, 0)
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
							legal := search.legal(w)
							if len(cv.Values) != len(legal) {
								t.Errorf("%s: %d choices valued, %d legal at card level", name, len(cv.Values), len(legal))
							}
							for _, ch := range legal {
								v, ok := cv.Of(ch)
								cw := search.choiceVal(w, limit, 0, ch, search.roleVal(0), search.roleVal(1))
								if !ok || v.Lead.Cmp(cw.lead) != 0 || v.Pairs.Cmp(pairsOf(cw)) != 0 {
									t.Errorf("%s, choice %v: lead %v, pairs %v (legal %v); card level %s, %s", name, ch,
										v.Lead, v.Pairs, ok, cw.lead.RatString(), pairsOf(cw).RatString())
								}
							}
							if table == nil {
								continue
							}
							for flag := range 2 {
								if flag == 1 && rule == rules.PassNever {
									continue
								}
								search.optimum(w, limit, flag)
								wantCh := search.optCh[fmt.Sprint(worldKey(w), limit, flag)]
								if c, ok := table.LookupTurnsLeft(st, flag == 1, limit); !ok || c != wantCh {
									t.Errorf("%s, after a pass %v: the table plays %v (%v), the card-level optimum %v", name, flag == 1, c, ok, wantCh)
								}
							}
						}
					}
				}
			}
			// Solitaire under the limit.
			chain, err := decaySinglesChain(dc, maxN, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
				memo := map[string][2]float64{}
				for limit := 1; limit <= maxT+2; limit++ {
					m := exact.Model{Memory: dc.mem, Singletons: s, Variant: rules.Variant{TurnLimit: limit}}
					for _, st := range decaySinglesStates(dc.mem, maxN, s) {
						want := chain.soloLimit(p, st, limit, memo)
						got, err := exact.Evaluate(ctx, field.Rat{}, m, exact.Lineup{Players: 1, Policy: p, Opponent: p}, st)
						if err != nil {
							t.Fatalf("solitaire %v, %v, %d turns: %v", p, st, limit, err)
						}
						gp, _ := got.ExpectedPairs.Float64()
						gt, _ := got.ExpectedTurns.Float64()
						if !within(gp, want[0], 1e-12) || !within(gt, want[1], 1e-12) {
							t.Errorf("%v, %d singletons, solitaire %v, %v, %d turns: pairs %v, turns %v; card level %v, %v", dc.mem, s, p, st, limit, gp, gt, want[0], want[1])
						}
						compared++
					}
				}
			}
		}
	}
	t.Logf("compared %d states' values", compared)
}

// TestDecaySinglesLimitIdentities checks decay forgetting with singletons under a turn limit
// and in solitaire against other models: q = 1e-9 is within 1e-6 of perfect memory with
// singletons under the same limit (two seats and solitaire) and without one (solitaire's
// expected turns); a long limit approaches no limit (the two-seat optimum's pairs and
// solitaire's turns within 1e-6 at 80 turns, 2 pairs); the seats' pairs under a limit add up
// to at most n, and with one turn from a deal with nothing known to the chance of a lucky match.
func TestDecaySinglesLimitIdentities(t *testing.T) {
	ctx := context.Background()
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	solo := exact.Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	near := rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}
	const s = 2
	for n := 1; n <= 2; n++ {
		st := rules.State{N: n, J: n, S: s, F: s}
		for _, limit := range []int{0, 3, 6} {
			for _, mu := range []exact.Lineup{self, solo} {
				v := rules.Variant{TurnLimit: limit}
				a, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Singletons: s, Memory: near, Variant: v}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				b, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Singletons: s, Variant: v}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if !within(a.ExpectedPairs, b.ExpectedPairs, 1e-6) || !within(a.ExpectedTurns, b.ExpectedTurns, 1e-6) {
					t.Errorf("%v, %d players, limit %d: q = 1e-9 gives pairs %v, turns %v; perfect memory %v, %v", st, mu.Players, limit, a.ExpectedPairs, a.ExpectedTurns, b.ExpectedPairs, b.ExpectedTurns)
				}
			}
		}
	}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: 0.3}
	st := rules.State{N: 2, J: 2, S: s, F: s}
	for _, mu := range []exact.Lineup{self, solo} {
		long, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Singletons: s, Memory: mem, Variant: rules.Variant{TurnLimit: 80}}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		none, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Singletons: s, Memory: mem}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		// Solitaire without a limit reports the turns, not the pairs (all of them).
		if (mu.Players == 2 && !within(long.ExpectedPairs, none.ExpectedPairs, 1e-6)) || !within(long.ExpectedTurns, none.ExpectedTurns, 1e-6) {
			t.Errorf("%d players: a limit of 80 gives pairs %v, turns %v; no limit %v, %v", mu.Players, long.ExpectedPairs, long.ExpectedTurns, none.ExpectedPairs, none.ExpectedTurns)
		}
	}
	for _, limit := range []int{1, 4, 9} {
		m := exact.Model{Singletons: s, Memory: mem, Variant: rules.Variant{TurnLimit: limit}}
		for n := 1; n <= 3; n++ {
			st := rules.State{N: n, J: n, S: s, F: s}
			res, err := exact.Evaluate(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}, st)
			if err != nil {
				t.Fatal(err)
			}
			sum := new(big.Rat).Add(res.PairsBySeat[0], res.PairsBySeat[1])
			if sum.Cmp(big.NewRat(int64(n), 1)) > 0 {
				t.Errorf("limit %d, %v: the seats' pairs add up to %s, more than %d", limit, st, sum.RatString(), n)
			}
			if limit == 1 {
				// One turn from a deal with nothing known: a pair only by a pair's card, then its
				// partner, 2n/(2n+s) times 1/(2n+s-1).
				want := big.NewRat(int64(2*n), int64((2*n+s)*(2*n+s-1)))
				if sum.Cmp(want) != 0 {
					t.Errorf("limit 1, %v: the seats' pairs add up to %s, want %s", st, sum.RatString(), want.RatString())
				}
			}
		}
	}
}
