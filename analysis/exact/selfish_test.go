package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The optimum of every seat for itself (docs/models.md §4.7), checked at card level and by
// one-step deviations computed without the solver's own maximum.

var daringSafe = rules.NewChoiceSet(rules.Daring, rules.Safe)

// selfishTable returns the choice table of the p-seat optimum in model m up to maxN pairs.
func selfishTable(t *testing.T, m exact.Model, players, maxN int) *rules.ChoiceTable {
	t.Helper()
	mu := exact.Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	tab, err := exact.PolicyTable(context.Background(), field.Rat{}, m, mu, maxN)
	if err != nil {
		t.Fatalf("PolicyTable(%d players): %v", players, err)
	}
	return tab
}

// tableDecide returns a card-level decision that reads table tab, failing the test where it holds
// no daring or safe choice.
func tableDecide(t *testing.T, tab *rules.ChoiceTable) func(st rules.State) rules.Choice {
	return func(st rules.State) rules.Choice {
		st.Lead = 0
		c, ok := tab.Lookup(st, false)
		if !ok || (c != rules.Daring && c != rules.Safe) {
			t.Fatalf("table in %v: choice %v (found %v)", st, c, ok)
		}
		return c
	}
}

// TestCardLevelSelfishLineups plays every deal of games of 3 and 4 seats at card level, each seat
// following its own policy (the p-seat optimum's table or a fixed policy), and compares every
// seat's average pairs with Evaluate.
func TestCardLevelSelfishLineups(t *testing.T) {
	type size struct{ n, s int }
	sizes := []size{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {2, 1}, {3, 1}}
	o, sa, da, pa := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	lineups := [][]rules.Policy{
		{o, o, o}, {sa, da, pa}, {o, sa, da}, {da, o, pa}, {pa, pa, o},
		{o, o, o, o}, {da, sa, pa, o}, {o, da, o, sa},
	}
	ctx := context.Background()
	for _, sz := range sizes {
		model := exact.Model{Singletons: sz.s, Choices: daringSafe}
		deals := dealsOf(sz.n, sz.s)
		tables := map[int]*rules.ChoiceTable{3: selfishTable(t, model, 3, sz.n), 4: selfishTable(t, model, 4, sz.n)}
		for _, pols := range lineups {
			p := len(pols)
			t.Run(fmt.Sprintf("n=%d,s=%d/%v", sz.n, sz.s, pols), func(t *testing.T) {
				decide := make([]func(rules.State) rules.Choice, p)
				for i, pol := range pols {
					decide[i] = pol.Decide
					if pol == o {
						decide[i] = tableDecide(t, tables[p])
					}
				}
				sum := make([]int64, p)
				for _, d := range deals {
					r := playDealWith(d, sz.n, p, func(seat int, st rules.State) rules.Choice { return decide[seat](st) })
					for i, v := range r.pairs {
						sum[i] += v
					}
				}
				start := rules.State{N: sz.n, J: sz.n, S: sz.s, F: sz.s}
				res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, exact.SeatLineup(pols...), start)
				if err != nil {
					t.Fatal(err)
				}
				for i := range p {
					want := big.NewRat(sum[i], int64(len(deals)))
					if res.PairsBySeat[i].Cmp(want) != 0 {
						t.Errorf("seat %d: Evaluate %s, card level over %d deals %s", i, res.PairsBySeat[i].RatString(), len(deals), want.RatString())
					}
				}
			})
		}
	}
}

// TestCardLevelSelfishIsEquilibrium checks, at card level with perfect memory, that no seat gains
// by deviating from the p-seat optimum in one state: for every count state a game from the deal
// reaches (each at most once, as perfect memory never returns to a state) and every other choice,
// the seat that moves there ends with no more pairs over all deals when it makes that choice there
// and follows the table elsewhere.
func TestCardLevelSelfishIsEquilibrium(t *testing.T) {
	type size struct{ n, s int }
	sizes := []size{{2, 0}, {3, 0}, {4, 0}, {2, 1}, {3, 1}}
	if exact.RaceEnabled {
		sizes = []size{{2, 0}, {3, 0}, {2, 1}}
	}
	for _, p := range []int{3, 4} {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("p=%d/n=%d,s=%d", p, sz.n, sz.s), func(t *testing.T) {
				model := exact.Model{Singletons: sz.s, Choices: daringSafe}
				decide := tableDecide(t, selfishTable(t, model, p, sz.n))
				deals := dealsOf(sz.n, sz.s)
				// The pairs of the seat that moves in state at, over all deals that reach it, when
				// it plays dev there (or the table's choice, with dev < 0).
				play := func(at rules.State, dev rules.Choice, follow bool) (total int64, reached int) {
					for _, d := range deals {
						seatAt := -1
						r := playDealWith(d, sz.n, p, func(seat int, st rules.State) rules.Choice {
							st.Lead = 0
							if st == at {
								seatAt = seat
								if !follow {
									return dev
								}
							}
							return decide(st)
						})
						if seatAt >= 0 {
							total += r.pairs[seatAt]
							reached++
						}
					}
					return total, reached
				}
				checked := 0
				for n := 1; n <= sz.n; n++ {
					for j := 0; j <= n; j++ {
						for f := 0; f <= sz.s; f++ {
							st := rules.State{N: n, J: j, S: sz.s, F: f}
							base, reached := play(st, 0, true)
							if reached == 0 {
								continue
							}
							for _, c := range []rules.Choice{rules.Daring, rules.Safe} {
								if !model.Legal(st, c) {
									continue
								}
								got, _ := play(st, c, false)
								checked++
								if got > base {
									t.Errorf("%v: playing %v once gives the mover %d pairs over %d deals, the optimum %d", st, c, got, reached, base)
								}
							}
						}
					}
				}
				if checked == 0 {
					t.Fatal("no deviation checked")
				}
			})
		}
	}
}

// TestSelfishIsEquilibriumLimitedMemory checks the p-seat optimum under limited memory, where a
// forgotten card can hand the same state to the next seat: the optimum's values follow from
// value iteration on the card-level turns (every seat following the solver's table), and in every
// state no choice made once, the table followed afterwards, gives the mover more.
func TestSelfishIsEquilibriumLimitedMemory(t *testing.T) {
	const maxN = 5
	for _, fg := range []rules.Forgetting{rules.ForgetHandoverUniform, rules.ForgetLRU} {
		for _, capacity := range []int{2, 3} {
			m := cardMemory{capacity: capacity, forget: fg}
			chain, err := buildCardChain(m, maxN)
			if err != nil {
				t.Fatal(err)
			}
			model := exact.Model{Memory: memoryOf(m), Choices: daringSafe}
			for _, p := range []int{3, 4} {
				t.Run(fmt.Sprintf("%v/p=%d", m, p), func(t *testing.T) {
					decide := tableDecide(t, selfishTable(t, model, p, maxN))
					v := chain.iterateSeats(p, decide)
					states := make([]rules.State, 0, len(v))
					for st := range v {
						states = append(states, st)
					}
					sort.Slice(states, func(a, b int) bool { return fmt.Sprint(states[a]) < fmt.Sprint(states[b]) })
					for _, st := range states {
						res, err := exact.Evaluate[float64](context.Background(), field.Float{}, model, exact.SeatLineup(repeat(rules.PolicyOptimal, p)...), st)
						if err != nil {
							t.Fatal(err)
						}
						for s := range p {
							if math.Abs(res.PairsBySeat[s]-v[st][s]) > 1e-9 {
								t.Errorf("%v seat %d: Evaluate %v, card-level value iteration %v", st, s, res.PairsBySeat[s], v[st][s])
							}
						}
						for c, steps := range chain[st] {
							if got := chain.oneStep(steps, v, p); got > v[st][0]+1e-9 {
								t.Errorf("%v: %v once gives the mover %v, the optimum %v (%v)", st, c, got, v[st][0], decide(st))
							}
						}
					}
				})
			}
		}
	}
}

func repeat(p rules.Policy, k int) []rules.Policy {
	out := make([]rules.Policy, k)
	for i := range out {
		out[i] = p
	}
	return out
}

// seatValue returns every seat's expected pairs in order from the mover in st (zero without pairs).
func seatValue(v map[rules.State][]float64, st rules.State, p int) []float64 {
	if st.N == 0 {
		return make([]float64, p)
	}
	return v[st]
}

// oneStep returns the mover's expected pairs after the card-level steps of one turn, every seat
// then playing the profile whose values (in order from the mover) are v.
func (ch cardChain) oneStep(steps []cardStep, v map[rules.State][]float64, p int) float64 {
	sum := 0.0
	for _, s := range steps {
		next := seatValue(v, s.key.next, p)
		if s.key.cont {
			sum += s.p * (float64(s.key.moverGain) + next[0])
		} else {
			sum += s.p * next[p-1] // the mover is the last seat from the next mover
		}
	}
	return sum
}

// iterateSeats returns every seat's expected pairs, in order from the mover, in every state of
// the chain when every seat plays decide, by iterating to a fixed point.
func (ch cardChain) iterateSeats(p int, decide func(rules.State) rules.Choice) map[rules.State][]float64 {
	v := map[rules.State][]float64{}
	for st := range ch {
		v[st] = make([]float64, p)
	}
	for range 1_000_000 {
		delta := 0.0
		for st := range ch {
			nv := make([]float64, p)
			for _, s := range ch[st][decide(st)] {
				next := seatValue(v, s.key.next, p)
				for i := range nv {
					if s.key.cont {
						x := next[i]
						if i == 0 {
							x += float64(s.key.moverGain)
						}
						nv[i] += s.p * x
						continue
					}
					x := next[(i+p-1)%p]
					if i == 1 {
						x += float64(s.key.nextGain)
					}
					nv[i] += s.p * x
				}
			}
			for i := range nv {
				delta = math.Max(delta, math.Abs(nv[i]-v[st][i]))
			}
			v[st] = nv
		}
		if delta < 1e-14 {
			return v
		}
	}
	panic("value iteration did not converge")
}

// TestSelfishSeatsShareThePairs checks that every seat's expected pairs under the p-seat optimum
// add up to the pairs left, for 3 to 8 seats, every memory model with an exact solution.
func TestSelfishSeatsShareThePairs(t *testing.T) {
	models := []exact.Model{
		{}, {Singletons: 2},
		{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}},
		{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}},
	}
	for _, m := range models {
		for _, p := range []int{3, 4, rules.MaxPlayers} {
			mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			for _, st := range idStates(m, 1, bySize(4, 5, 5)) {
				res := idEval(t, m, mu, st)
				if s := idSum(res.PairsBySeat); s.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
					t.Errorf("%+v, %d players, %v: seats sum to %s", m, p, st, s.RatString())
				}
			}
		}
	}
}

// TestSeatLineupRefusals checks the one-line errors of lineups with a policy per seat.
func TestSeatLineupRefusals(t *testing.T) {
	o, sa, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyBestResponse
	cases := []struct {
		name string
		m    exact.Model
		mu   exact.Lineup
		want string
	}{
		{"best response at two seats", exact.Model{}, exact.SeatLineup(br, sa, br), "policy best-response: with 3 players one seat replies to the others, not 2"},
		{"two-player optimum under decay and a pass rule", exact.Model{Pass: rules.PassAlways, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}},
			exact.Lineup{Players: 3, Policy: o, Opponent: o, TwoPlayerOptimal: true}, "pass rule always: with 3 players decay forgetting under a pass rule is solved for every seat's own optimum and fixed policies, not the two-player optimum's choices"},
		{"safe without safe", exact.Model{Choices: rules.NewChoiceSet(rules.Daring)}, exact.SeatLineup(o, sa, o), "seat 1: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.mu.Validate(tc.m)
			if err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
				t.Errorf("Validate: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestSelfishGaps checks the states without a stationary equilibrium in pure choices: none with
// perfect memory; with a shared handover-uniform memory of capacity 11 and four seats, up to 14
// pairs, the one state (14, 3), where the optimum's choice is beaten by another by exactly the
// reported gain, while in every other state no choice, made once, beats the optimum's.
func TestSelfishGaps(t *testing.T) {
	ctx := context.Background()
	for p := 3; p <= rules.MaxPlayers; p++ {
		gaps, err := exact.SelfishGaps[*big.Rat](ctx, field.Rat{}, exact.Model{Singletons: 1}, p, 12)
		if err != nil || len(gaps) != 0 {
			t.Errorf("perfect memory, %d players: gaps %v, %v", p, gaps, err)
		}
	}
	m := exact.Model{Memory: rules.Memory{Capacity: 11, Forget: rules.ForgetHandoverUniform}}
	const players, maxN = 4, 14
	gaps, err := exact.SelfishGaps[*big.Rat](ctx, field.Rat{}, m, players, maxN)
	if err != nil {
		t.Fatal(err)
	}
	gapAt := map[rules.State]exact.SelfishGap[*big.Rat]{}
	for _, g := range gaps {
		gapAt[g.State] = g
	}
	if _, ok := gapAt[rules.State{N: 14, J: 3}]; len(gaps) != 1 || !ok {
		t.Fatalf("gaps %v, want one at (n=14, j=3)", gaps)
	}
	mu := exact.SeatLineup(repeat(rules.PolicyOptimal, players)...)
	for _, st := range idStates(m, 14, 14) {
		cs, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		own, _ := cs.Of(cs.PolicyChoice)
		gain := new(big.Rat)
		for _, v := range cs.Values {
			if d := new(big.Rat).Sub(v.Pairs, own.Pairs); d.Cmp(gain) > 0 {
				gain = d
			}
		}
		g, isGap := gapAt[st]
		switch {
		case isGap && (g.Choice != cs.PolicyChoice || g.Gain.Cmp(gain) != 0 || gain.Sign() <= 0):
			t.Errorf("%v: gap %v gaining %s, choice values: %v gaining %s", st, g.Choice, g.Gain.RatString(), cs.PolicyChoice, gain.RatString())
		case !isGap && gain.Sign() != 0:
			t.Errorf("%v: a choice made once gains the mover %s over the optimum's %v", st, gain.RatString(), cs.PolicyChoice)
		}
	}
}

// TestSelfishTableAgrees checks the strategy table of every seat for itself against Evaluate,
// PolicyTable and ChoiceValues in every state with up to 7 pairs (perfect memory with a
// singleton, and lru of capacity 3), three and five seats.
func TestSelfishTableAgrees(t *testing.T) {
	ctx := context.Background()
	for _, m := range []exact.Model{{Singletons: 1}, {Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}} {
		for _, p := range []int{3, 5} {
			mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			tab := selfishTable(t, m, p, 7)
			cells := 0
			err := exact.SelfishTable(ctx, field.Rat{}, m, p, 7, func(c *exact.TableCell[*big.Rat]) error {
				cells++
				cs, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, m, mu, c.State)
				if err != nil {
					return err
				}
				if c.Value.Cmp(cs.Value.PairsBySeat[0]) != 0 {
					t.Errorf("%+v p=%d %v: table value %s, Evaluate %s", m, p, c.State, c.Value.RatString(), cs.Value.PairsBySeat[0].RatString())
				}
				if ch, _ := tab.Lookup(c.State, false); ch != c.Choice || ch != cs.PolicyChoice {
					t.Errorf("%+v p=%d %v: choice %v, PolicyTable %v, ChoiceValues %v", m, p, c.State, c.Choice, ch, cs.PolicyChoice)
				}
				for _, v := range cs.Values {
					if c.ChoiceValue[v.Choice].Cmp(v.Pairs) != 0 {
						t.Errorf("%+v p=%d %v: %v worth %s in the table, %s in ChoiceValues", m, p, c.State, v.Choice, c.ChoiceValue[v.Choice].RatString(), v.Pairs.RatString())
					}
				}
				return nil
			})
			if err != nil || cells == 0 {
				t.Fatalf("SelfishTable: %d cells, %v", cells, err)
			}
		}
	}
}
