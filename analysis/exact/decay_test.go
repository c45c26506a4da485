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

// decayHandOver passes the turn under decay forgetting, card by card: every subset of the
// remembered cards (this turn's included) is forgotten with its probability q^|S| (1-q)^(rest),
// then, with a capacity, old cards are forgotten uniformly until the capacity holds and the next
// player takes a pair known whole, as handOver does for handover-uniform.
func decayHandOver(w *cardWorld, m cardMemory, p *big.Rat, moverGain int, emit emitFunc) {
	rest := cardMemory{capacity: m.capacity, forget: rules.ForgetHandoverUniform}
	if m.capacity == 0 {
		rest = cardMemory{}
	}
	keep := new(big.Rat).Sub(big.NewRat(1, 1), m.q)
	mem := append([]int(nil), w.mem...)
	for mask := range 1 << len(mem) {
		pm := new(big.Rat).Set(p)
		w2 := w.clone()
		for i, c := range mem {
			if mask>>i&1 == 1 {
				pm.Mul(pm, m.q)
				w2.forget(c)
			} else {
				pm.Mul(pm, keep)
			}
		}
		if pm.Sign() != 0 {
			handOver(w2, rest, pm, moverGain, emit)
		}
	}
}

// decayCase is a decay memory at card level and as the model's rules.Memory.
type decayCase struct {
	card cardMemory
	mem  rules.Memory
}

func decayCases() []decayCase {
	var out []decayCase
	for _, q := range []struct {
		dec float64
		rat *big.Rat
	}{{0.25, big.NewRat(1, 4)}, {0.5, big.NewRat(1, 2)}, {1, big.NewRat(1, 1)}} {
		for _, capacity := range []int{0, 2, 3} {
			out = append(out, decayCase{
				card: cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: q.rat},
				mem:  rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q.dec},
			})
		}
	}
	return out
}

// decayModelDist aggregates the decay model's outcomes by outcome key.
func decayModelDist(m exact.Model, st rules.State, c rules.Choice) (dist, error) {
	outs, probs, err := exact.DecayOutcomes(m, st, c)
	if err != nil {
		return nil, err
	}
	d := dist{}
	for i, o := range outs {
		if probs[i].Sign() <= 0 {
			return nil, fmt.Errorf("outcome %+v: probability %s", o, probs[i].RatString())
		}
		d.add(outKey{o.Continue, o.MoverGain, o.NextGain, o.Next}, probs[i])
	}
	return d, nil
}

// TestDecayOutcomesAreCardLevel compares the decay model's turn distributions with an exact
// card-level enumeration of the turn and of every forgetting outcome at the hand-over, for every
// state with up to 5 pairs and every legal choice.
func TestDecayOutcomesAreCardLevel(t *testing.T) {
	compared := 0
	for _, dc := range decayCases() {
		m := exact.Model{Memory: dc.mem}
		if err := m.Validate(); err != nil {
			t.Fatalf("%v: %v", dc.mem, err)
		}
		maxN := 5
		if testing.Short() {
			maxN = 4
		}
		for n := 1; n <= maxN; n++ {
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j}
				if !dc.mem.Holds(st.Known()) {
					continue
				}
				for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if !m.Legal(st, c) {
						continue
					}
					want, err := decayModelDist(m, st, c)
					if err != nil {
						t.Fatalf("%v, %v, %v: %v", dc.card, st, c, err)
					}
					if tot := want.total(); tot.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("%v, %v, %v: model probabilities sum to %s", dc.card, st, c, tot.RatString())
					}
					for _, pick := range []pickRule{pickOldest, pickNewest} {
						got, err := cardDist(st, nil, dc.card, c, pick)
						if err != nil {
							t.Fatalf("%v, %v, %v: %v", dc.card, st, c, err)
						}
						compared++
						if !got.equal(want) {
							t.Fatalf("%v, state %v, choice %v, pick %v:\n  card level:%v\n  model:%v", dc.card, st, c, pick, got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d card-level turn distributions", compared)
}

// decayChain builds the card-level turn distributions of every state with at most maxN pairs.
func decayChain(m cardMemory, maxN int) (cardChain, error) {
	ch := cardChain{}
	for n := 1; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			if m.capacity > 0 && n-j > m.capacity {
				continue
			}
			ch[st] = map[rules.Choice][]cardStep{}
			for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
				if !rules.Legal(st, c, rules.PassNever) {
					continue
				}
				d, err := cardDist(st, nil, m, c, pickOldest)
				if err != nil {
					return nil, err
				}
				for k, p := range d.pruned() {
					f, _ := p.Float64()
					ch[st][c] = append(ch[st][c], cardStep{f, k})
				}
			}
		}
	}
	return ch, nil
}

// optimalLeads iterates the two-player self-play optimum on the chain: the mover's lead is the
// largest over the legal choices of the expected gain plus the lead afterwards (negated when the
// turn passes).
func (ch cardChain) optimalLeads() map[rules.State]float64 {
	v := map[rules.State]float64{}
	get := func(st rules.State) float64 { return v[st] } // zero for n = 0
	for range 1_000_000 {
		delta := 0.0
		for st, choices := range ch {
			best := math.Inf(-1)
			for _, steps := range choices {
				x := 0.0
				for _, s := range steps {
					if s.key.cont {
						x += s.p * (float64(s.key.moverGain) + get(s.key.next))
					} else {
						x -= s.p * (float64(s.key.nextGain) + get(s.key.next))
					}
				}
				best = math.Max(best, x)
			}
			delta = math.Max(delta, math.Abs(best-v[st]))
			v[st] = best
		}
		if delta < 1e-14 {
			break
		}
	}
	return v
}

// TestDecayGameIsCardLevel compares Evaluate under decay forgetting with value iteration on the
// card-level turns, for fixed policies with 2 and 3 players and for the two-player optimum.
func TestDecayGameIsCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	for _, dc := range decayCases() {
		if dc.mem.Decay == 0.5 && testing.Short() {
			continue
		}
		chain, err := decayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem}
		t.Run(dc.card.String(), func(t *testing.T) {
			for _, players := range []int{2, 3} {
				for _, pol := range fixedPolicies {
					want, err := chain.valueIterate(players, pol, rules.PolicySafe)
					if err != nil {
						t.Fatal(err)
					}
					mu := exact.Lineup{Players: players, Policy: pol, Opponent: rules.PolicySafe}
					for st, w := range want {
						res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
						if err != nil {
							t.Fatalf("%v %v: %v", mu, st, err)
						}
						for seat := range players {
							if math.Abs(res.PairsBySeat[seat]-w[seat]) > 1e-9 {
								t.Errorf("%d players, %v vs safe, state %v: pairs by seat %v, card level %v", players, pol, st, res.PairsBySeat, w)
								break
							}
						}
					}
				}
			}
			opt := chain.optimalLeads()
			mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			for st, w := range opt {
				res, err := exact.Evaluate(ctx, field.Rat{}, model, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := res.ExpectedLead.Float64(); math.Abs(got-w) > 1e-9 {
					t.Errorf("optimal, state %v: lead %v, card level %v", st, got, w)
				}
			}
		})
	}
}

// Under decay forgetting, a policy per seat at three and four seats plays each seat's own policy:
// Evaluate agrees with value iteration on the card-level turns.
func TestDecaySeatsAreCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	lineups := [][]rules.Policy{
		{rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity},
		{rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, rules.PolicyDaring, rules.PolicySafe, rules.PolicyParity},
	}
	for _, dc := range decayCases() {
		if dc.mem.Decay != 0.25 || dc.mem.Capacity == 2 {
			continue
		}
		chain, err := decayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem}
		for _, seats := range lineups {
			want, err := chain.valueIterateSeats(seats)
			if err != nil {
				t.Fatal(err)
			}
			mu := exact.Lineup{Players: len(seats), PerSeat: true}
			copy(mu.Seats[:], seats)
			for st, w := range want {
				res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%v, seats %v, %v: %v", dc.mem, seats, st, err)
				}
				for seat := range seats {
					if math.Abs(res.PairsBySeat[seat]-w[seat]) > 1e-9 {
						t.Errorf("%v, seats %v, state %v: pairs by seat %v, card level %v", dc.mem, seats, st, res.PairsBySeat, w)
						break
					}
				}
			}
		}
	}
}

// TestDecayIdentities checks the decay model against values derived without it.
func TestDecayIdentities(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	optimal := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	decay := func(capacity int, q float64) exact.Model {
		return exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q}}
	}
	lead := func(m exact.Model, mu exact.Lineup, st rules.State) *big.Rat {
		t.Helper()
		res, err := exact.Evaluate(ctx, f, m, mu, st)
		if err != nil {
			t.Fatalf("%v %v %v: %v", m.Memory, mu, st, err)
		}
		return res.ExpectedLead
	}

	t.Run("q=1 forgets everything", func(t *testing.T) {
		// Nothing is ever known at the start of a turn: from n unknown pairs the first card is new,
		// the second matches it with probability p = 1/(2n-1) (the mover takes it and goes on),
		// otherwise everything is forgotten and the other seat faces the same n pairs. So
		// x(n) = p (1 + x(n-1)) - (1-p) x(n), that is x(n) = p (1 + x(n-1)) / (2 - p).
		want := new(big.Rat)
		for n := 1; n <= 8; n++ {
			p := big.NewRat(1, int64(2*n-1))
			num := new(big.Rat).Mul(p, new(big.Rat).Add(big.NewRat(1, 1), want))
			want = num.Quo(num, new(big.Rat).Sub(big.NewRat(2, 1), p))
			for _, capacity := range []int{0, 2} {
				for _, mu := range []exact.Lineup{optimal, {Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}} {
					if got := lead(decay(capacity, 1), mu, rules.State{N: n, J: n}); got.Cmp(want) != 0 {
						t.Errorf("n=%d, capacity %d, %v: lead %s, want %s", n, capacity, mu, got.RatString(), want.RatString())
					}
				}
			}
		}
	})

	t.Run("a capacity of 2n is no capacity", func(t *testing.T) {
		for n := 1; n <= bySize(4, 6, 6); n++ {
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j}
				for _, mu := range []exact.Lineup{optimal, {Players: 2, Policy: rules.PolicyParity, Opponent: rules.PolicyOptimal}} {
					a, b := lead(decay(0, 0.1), mu, st), lead(decay(2*n, 0.1), mu, st)
					if a.Cmp(b) != 0 {
						t.Errorf("%v, %v: lead %s without a capacity, %s with capacity %d", st, mu, a.RatString(), b.RatString(), 2*n)
					}
				}
			}
		}
	})

	t.Run("best response to optimal is worth the optimum", func(t *testing.T) {
		br := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal}
		for _, m := range []exact.Model{decay(0, 0.2), decay(3, 0.2)} {
			for n := 1; n <= bySize(4, 6, 6); n++ {
				st := rules.State{N: n, J: n}
				if a, b := lead(m, optimal, st), lead(m, br, st); a.Cmp(b) != 0 {
					t.Errorf("%v, %v: optimal %s, best response %s", m.Memory, st, a.RatString(), b.RatString())
				}
			}
		}
	})

	t.Run("tiny q approaches perfect memory", func(t *testing.T) {
		const n = 12
		st := rules.State{N: n, J: n}
		for _, mu := range []exact.Lineup{optimal, {Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicySafe}, {Players: 1, Policy: rules.PolicyOptimal}} {
			perfect, err := exact.Evaluate(ctx, field.Float{}, exact.Model{}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			tiny, err := exact.Evaluate(ctx, field.Float{}, decay(0, 1e-9), mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(perfect.ExpectedLead - tiny.ExpectedLead + perfect.ExpectedTurns - tiny.ExpectedTurns); d > 1e-6 || (tiny.ExpectedLead == perfect.ExpectedLead && tiny.ExpectedTurns == perfect.ExpectedTurns) {
				t.Errorf("%v: perfect memory %v, decay q=1e-9 %v", mu, perfect, tiny)
			}
		}
	})

	t.Run("float64 follows the rationals", func(t *testing.T) {
		m := decay(3, 0.3)
		for _, mu := range []exact.Lineup{optimal, {Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, {Players: 1, Policy: rules.PolicyOptimal}, {Players: 4, Policy: rules.PolicyOptimal, Opponent: rules.PolicyDaring, TwoPlayerOptimal: true}} {
			st := rules.State{N: bySize(6, 9, 9), J: bySize(6, 9, 9)}
			a, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			b, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			ra, fb := a.ExpectedTurns, b.ExpectedTurns
			if mu.Players > 1 {
				ra, fb = a.PairsBySeat[0], b.PairsBySeat[0]
			}
			if fa, _ := ra.Float64(); math.Abs(fa-fb) > 1e-10 {
				t.Errorf("%v: exact %v, float64 %v", mu, fa, fb)
			}
		}
	})
}

// TestDecayOptimalityCheck checks that the exact check of the optimal choices accepts the
// solver's choices and refuses choices made worse on purpose.
func TestDecayOptimalityCheck(t *testing.T) {
	m := exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}}
	const n = 5
	if err := exact.DecayCheckOptimal(m, n, func([]rules.Choice) {}); err != nil {
		t.Fatalf("the solver's own choices: %v", err)
	}
	for k := 1; k <= n; k++ {
		err := exact.DecayCheckOptimal(m, n, func(ch []rules.Choice) {
			if ch[k] == rules.Daring {
				ch[k] = rules.Safe
			} else {
				ch[k] = rules.Daring
			}
		})
		if k < n && err == nil {
			t.Errorf("%d known cards: swapping daring and safe passed the check", k)
		}
		if err != nil {
			t.Logf("%d known cards swapped: %v", k, err)
		}
	}
}

// TestDecayLuckTable checks the luck table of a decay model against Evaluate: every seat's value
// is its expected pairs under optimal play, and (two players) the best choice's advantage is zero.
func TestDecayLuckTable(t *testing.T) {
	ctx := context.Background()
	m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}}
	for _, players := range []int{2, 3} {
		lt, err := exact.LuckTable(ctx, m, players, 6)
		if err != nil {
			t.Fatal(err)
		}
		// With three seats the luck table's reference is the optimum of every seat for itself.
		mu := exact.Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		for n := 1; n <= 6; n++ {
			for j := max(0, n-3); j <= n; j++ {
				st := rules.State{N: n, J: j}
				res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for seat := range players {
					if v, ok := lt.Value(st, false, seat); !ok || math.Abs(v-res.PairsBySeat[seat]) > 1e-9 {
						t.Errorf("%d players, %v, seat %d: luck table value %v (%v), Evaluate %v", players, st, seat, v, ok, res.PairsBySeat[seat])
					}
				}
				if players != 2 {
					continue
				}
				best := math.Inf(-1)
				for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if m.Legal(st, c) {
						best = math.Max(best, lt.Advantages(st, false, c)[0])
					}
				}
				if math.Abs(best) > 1e-9 {
					t.Errorf("%v: the best choice's advantage is %v, want 0", st, best)
				}
			}
		}
	}
}

// winIterate iterates, on the card-level chain, the centred win values (P(win) + P(draw)/2 - 1/2)
// of role 0 choosing to maximise its own (win-optimal when opp is nil, both roles choosing) against
// role 1 playing opp, at every state and lead: w0 and w1 are the values of the roles to move.
func (ch cardChain) winIterate(maxN int, opp func(rules.State) rules.Choice) (w0, w1 map[rules.State]float64) {
	final := func(d int) float64 {
		switch {
		case d > 0:
			return 0.5
		case d < 0:
			return -0.5
		}
		return 0
	}
	w0, w1 = map[rules.State]float64{}, map[rules.State]float64{}
	get := func(v map[rules.State]float64, st rules.State, d int) float64 {
		if st.N == 0 || d > st.N || -d > st.N {
			return final(d)
		}
		st.Lead = d
		return v[st]
	}
	value := func(steps []cardStep, own, other map[rules.State]float64, d int) float64 {
		x := 0.0
		for _, s := range steps {
			if s.key.cont {
				x += s.p * get(own, s.key.next, d+s.key.moverGain)
			} else {
				x -= s.p * get(other, s.key.next, -d+s.key.nextGain)
			}
		}
		return x
	}
	for range 100_000 {
		delta := 0.0
		for st, choices := range ch {
			for d := -maxN; d <= maxN; d++ {
				if d > st.N || -d > st.N {
					continue
				}
				key := st
				key.Lead = d
				best := math.Inf(-1)
				for _, steps := range choices {
					if opp == nil {
						best = math.Max(best, value(steps, w0, w0, d))
					} else {
						best = math.Max(best, value(steps, w0, w1, d))
					}
				}
				delta = math.Max(delta, math.Abs(best-w0[key]))
				w0[key] = best
				if opp != nil {
					v := value(choices[opp(st)], w1, w0, d)
					delta = math.Max(delta, math.Abs(v-w1[key]))
					w1[key] = v
				}
			}
		}
		if delta < 1e-14 {
			break
		}
	}
	return w0, w1
}

// TestDecayWinIsCardLevel compares the win objective under decay forgetting (win-optimal self-play
// and a win best response to safe) with value iteration on the card-level turns, at every state
// and lead.
func TestDecayWinIsCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	for _, dc := range decayCases() {
		if dc.mem.Decay == 0.5 {
			continue
		}
		chain, err := decayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem}
		t.Run(dc.card.String(), func(t *testing.T) {
			wo, _ := chain.winIterate(maxN, nil)
			mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
			compared := 0
			err := exact.WinTable(ctx, field.Float{}, model, mu, maxN, func(c *exact.WinCell[float64]) error {
				if want, ok := wo[c.State]; ok {
					compared++
					if math.Abs(c.Value-0.5-want) > 1e-9 {
						t.Errorf("win-optimal, %v: score %v, card level %v", c.State, c.Value, want+0.5)
					}
				}
				return nil
			})
			if err != nil || compared == 0 {
				t.Fatalf("WinTable: %v, %d compared", err, compared)
			}
			br, _ := chain.winIterate(maxN, rules.PolicySafe.Decide)
			mu = exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe}
			for st, want := range br {
				got, err := exact.WinDrawLoss(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if score := got[0].Win + got[0].Draw/2; math.Abs(score-0.5-want) > 1e-9 {
					t.Errorf("win best response to safe, %v: score %v, card level %v", st, score, want+0.5)
				}
			}
		})
	}
}

// TestDecayWinEvaluatorsAgree checks that, for a matchup that plays to win under decay forgetting,
// the score distribution, the win, draw and loss probabilities and the expected pairs agree.
func TestDecayWinEvaluatorsAgree(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}}
	for _, mu := range []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyWinOptimal},
	} {
		for _, st := range []rules.State{{N: 4, J: 4}, {N: 4, J: 2, Lead: 1}, {N: 3, J: 1, Lead: -2}} {
			d, err := exact.Distribution(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			wdl, err := exact.WinDrawLoss(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			res, err := exact.Evaluate(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			mean := new(big.Rat)
			for i, p := range d.Prob {
				mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
			}
			if d.Win.Cmp(wdl[0].Win) != 0 || d.Draw.Cmp(wdl[0].Draw) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
				t.Errorf("%v, %v: distribution win %s draw %s mean %s; WinDrawLoss %s %s; Evaluate %s", mu, st,
					d.Win.RatString(), d.Draw.RatString(), mean.RatString(), wdl[0].Win.RatString(), wdl[0].Draw.RatString(), res.ExpectedPairs.RatString())
			}
		}
	}
}

// TestDecaySolitaireIsCardLevel compares solitaire's expected turns under decay forgetting (the
// optimal policy, fewest turns, and daring) with value iteration on the card-level turns.
func TestDecaySolitaireIsCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	for _, dc := range decayCases() {
		if dc.mem.Decay == 0.5 {
			continue
		}
		chain, err := decayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem}
		for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicyDaring} {
			turns := map[rules.State]float64{}
			for range 100_000 {
				delta := 0.0
				for st, choices := range chain {
					best := math.Inf(1)
					for c, steps := range choices {
						if pol != rules.PolicyOptimal && c != pol.Decide(st) {
							continue
						}
						x := 0.0
						for _, s := range steps {
							x += s.p * (1 + float64(s.key.nextGain) + turns[s.key.next])
						}
						best = math.Min(best, x)
					}
					delta = math.Max(delta, math.Abs(best-turns[st]))
					turns[st] = best
				}
				if delta < 1e-13 {
					break
				}
			}
			for st, want := range turns {
				res, err := exact.Evaluate(ctx, field.Float{}, model, exact.Lineup{Players: 1, Policy: pol}, st)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(res.ExpectedTurns-want) > 1e-9 {
					t.Errorf("%v, %v, %v: expected turns %v, card level %v", dc.card, pol, st, res.ExpectedTurns, want)
				}
			}
		}
	}
}

// TestDecayOptimalAtThreeSeats checks that three seats under decay forgetting solve both the
// optimum of every seat for itself and the two-player optimum's choices, each sharing the pairs.
func TestDecayOptimalAtThreeSeats(t *testing.T) {
	ctx := context.Background()
	m := exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}}
	st := rules.State{N: 3, J: 3}
	for _, two := range []bool{false, true} {
		mu := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe, TwoPlayerOptimal: two}
		res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatalf("two-player optimum %v: %v", two, err)
		}
		if sum := res.PairsBySeat[0] + res.PairsBySeat[1] + res.PairsBySeat[2]; math.Abs(sum-3) > 1e-9 {
			t.Errorf("two-player optimum %v: the seats' values add up to %v, want 3", two, sum)
		}
	}
}
