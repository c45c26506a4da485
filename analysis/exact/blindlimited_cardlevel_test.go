package exact_test

// Blind flips with a shared memory of fixed capacity (docs/models.md §4.17), checked card by card
// without the count formulas: one turn's outcomes on an explicit table (cardWorld, as in
// cardlevel_test.go), and every state's value as the exact solution of the chain of card-level
// turns.

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

// blindSee turns up card c under blind flips, as every shared memory sees it: a remembered card
// becomes the most recently seen; under lru a card whose partner is remembered is recognised, and
// the two are kept outside the capacity (pending) until taken; any other card is stored (lru then
// forgets the least recently seen card at once if the memory is over capacity).
func (w *cardWorld) blindSee(c int, m cardMemory) {
	if w.remembered(c) {
		w.touch(c)
		return
	}
	if p := w.partner(c); m.lru() && p >= 0 && w.remembered(p) {
		w.forget(p)
		w.pending = append(w.pending, p, c)
		return
	}
	w.see(c, m)
}

// blindCardTurn enumerates one turn under blind flips begun on w0 with choice c (docs/models.md
// §1.7, §5.2 step 6): the mover names a position it does not remember and, before either is turned
// up, a second one: for daring another position it does not remember (the remembered card picked
// by pick when there is none), for safe the remembered card picked by pick, a half-known pair's
// card before a seen singleton (as the engine names it). Every card that can lie
// at a position nobody remembers is enumerated with equal probability, as in cardTurn; the first
// card is then seen, then the second. Known-first is not a blind move: it is played as cardTurn
// plays it.
func blindCardTurn(w0 *cardWorld, m cardMemory, c rules.Choice, pick pickRule, emit emitFunc) {
	if c == rules.KnownFirst || c == rules.Pass {
		cardTurn(w0, m, c, pick, emit)
		return
	}
	w0 = w0.clone()
	w0.old = make([]bool, len(w0.present))
	for _, x := range w0.mem {
		w0.old[x] = true
	}
	w0.pending = nil
	one := big.NewRat(1, 1)
	pool := w0.unremembered()
	for _, a := range pool {
		pa := ratMul(one, 1, len(pool))
		var seconds []int
		if c == rules.Daring {
			seconds = w0.unremembered(a)
		}
		if len(seconds) == 0 {
			y := w0.pick(pick, func(c int) bool { return w0.partner(c) >= 0 })
			if y < 0 {
				y = w0.pick(pick, func(int) bool { return true })
			}
			if y < 0 {
				panic(fmt.Sprintf("%v with no second card to name: mem %v", c, w0.mem))
			}
			seconds = []int{y}
		}
		for _, b := range seconds {
			p := ratMul(pa, 1, len(seconds))
			w := w0.clone()
			w.blindSee(a, m)
			if w.partner(a) == b {
				w.pending = nil
				w.remove(a)
				w.remove(b)
				emit(p, w, true, 1, 0)
				continue
			}
			w.blindSee(b, m)
			handOver(w, m, p, 0, emit)
		}
	}
}

// blindCardDist enumerates one blind turn at card level and aggregates it by outcome key.
func blindCardDist(st rules.State, order []int, m cardMemory, c rules.Choice, pick pickRule) (d dist, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("card-level enumeration: %v", r)
		}
	}()
	d = dist{}
	blindCardTurn(newCardWorld(st, order), m, c, pick, func(p *big.Rat, w *cardWorld, cont bool, mg, ng int) {
		next, err := w.countState()
		if err != nil {
			panic(err)
		}
		d.add(outKey{cont, mg, ng, next}, p)
	})
	return d, nil
}

// jMin returns the smallest j of a state with n pairs that fits the memory: at most capacity
// cards are remembered (any number without a capacity).
func (m cardMemory) jMin(n int) int {
	if m.capacity == 0 {
		return 0
	}
	return max(0, n-m.capacity)
}

// blindLimitedMemories are the shared memories of fixed capacity checked under blind flips: lru
// of each capacity given, and handover-uniform of each from 3 (capacity 2 has no exact model under
// blind flips: daring in (2, 0) can repeat forever).
func blindLimitedMemories(capacities ...int) []cardMemory {
	var ms []cardMemory
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, c := range capacities {
			if fg == rules.ForgetHandoverUniform && c == 2 {
				continue
			}
			ms = append(ms, cardMemory{capacity: c, forget: fg})
		}
	}
	return ms
}

// TestBlindLimitedOutcomesMatchCardLevel compares Model.Outcomes under blind flips and a shared
// lru or handover-uniform memory of capacity 2 to 4 with the card-level enumeration of the turn,
// in every state of up to 6 pairs and every legal choice; under lru every recency order of the
// remembered cards and both ways of picking the named remembered card must give the model's
// distribution.
func TestBlindLimitedOutcomesMatchCardLevel(t *testing.T) {
	maxN := 6
	if testing.Short() {
		maxN = 5
	}
	compared := 0
	for _, m := range blindLimitedMemories(2, 3, 4) {
		for n := 1; n <= maxN; n++ {
			for j := max(0, n-m.capacity); j <= n; j++ {
				st := rules.State{N: n, J: j}
				for _, tc := range appendCases(nil, m, st) {
					model := exact.Model{Pass: tc.pass, Memory: memoryOf(m), Variant: rules.Variant{Flips: rules.FlipsBlind}}
					if err := model.Validate(); err != nil {
						t.Fatalf("model %+v: %v", model, err)
					}
					want, err := modelDist(model, st, tc.choice)
					if err != nil {
						t.Fatalf("%v, %v, %v: %v", m, st, tc.choice, err)
					}
					if tot := want.total(); tot.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("%v, %v, %v: Outcomes probabilities sum to %s", m, st, tc.choice, tot.RatString())
					}
					orders := [][]int{nil}
					if m.lru() && !testing.Short() {
						orders = permutations(st.Known())
					}
					for _, order := range orders {
						for _, pick := range []pickRule{pickOldest, pickNewest} {
							got, err := blindCardDist(st, order, m, tc.choice, pick)
							if err != nil {
								t.Fatalf("%v, %v, %v, order %v, pick %v: %v", m, st, tc.choice, order, pick, err)
							}
							compared++
							if !got.equal(want) {
								t.Fatalf("%v, state %v, %v (order %v, pick %v):\n  card level:%v\n  Outcomes:%v",
									m, st, tc.choice, order, pick, got, want)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d card-level blind turns with Outcomes", compared)
}

// blindChain holds, for every count state with at most maxN pairs that fits the memory, the
// card-level blind turn distribution of each legal choice under pass rule never.
type blindChain struct {
	m     cardMemory
	maxN  int
	steps map[rules.State]map[rules.Choice]dist
}

func newBlindChain(m cardMemory, maxN int) (*blindChain, error) {
	ch := &blindChain{m: m, maxN: maxN, steps: map[rules.State]map[rules.Choice]dist{}}
	for n := 1; n <= maxN; n++ {
		for j := m.jMin(n); j <= n; j++ {
			st := rules.State{N: n, J: j}
			ch.steps[st] = map[rules.Choice]dist{}
			for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
				if !rules.Legal(st, c, rules.PassNever) {
					continue
				}
				d, err := blindCardDist(st, nil, m, c, pickOldest)
				if err != nil {
					return nil, fmt.Errorf("%v, %v, %v: %w", m, st, c, err)
				}
				ch.steps[st][c] = d.pruned()
			}
		}
	}
	return ch, nil
}

// row lists the states of n pairs, the most remembered cards first.
func (ch *blindChain) row(n int) []rules.State {
	var out []rules.State
	for j := ch.m.jMin(n); j <= n; j++ {
		out = append(out, rules.State{N: n, J: j})
	}
	return out
}

// blindValues holds, for every state and seat to move, every seat's expected pairs from there:
// v[st][r][s] is seat s's with seat r to move in st.
type blindValues map[rules.State][][]*big.Rat

// at returns every seat's expected pairs in st with seat r to move (zero on an empty table).
func (v blindValues) at(st rules.State, r, players int) []*big.Rat {
	if st.N == 0 {
		out := make([]*big.Rat, players)
		for i := range out {
			out[i] = new(big.Rat)
		}
		return out
	}
	return v[st][r]
}

// solve returns every seat's exact expected pairs in every state with every seat to move, seat r
// choosing choose(r, st), by solving each row's linear system (a forgotten card can bring a row
// back to the same state) by Gaussian elimination in exact rationals.
func (ch *blindChain) solve(players int, choose func(r int, st rules.State) rules.Choice) (blindValues, error) {
	v := blindValues{}
	for n := 1; n <= ch.maxN; n++ {
		states := ch.row(n)
		idx := map[rules.State]int{}
		for i, st := range states {
			idx[st] = i
		}
		size := len(states) * players
		a := make([][]*big.Rat, size)
		rhs := make([][]*big.Rat, size)
		for i := range a {
			a[i] = make([]*big.Rat, size)
			for k := range a[i] {
				a[i][k] = new(big.Rat)
			}
			a[i][i].SetInt64(1)
			rhs[i] = make([]*big.Rat, players)
			for s := range rhs[i] {
				rhs[i][s] = new(big.Rat)
			}
		}
		for si, st := range states {
			for r := range players {
				row := si*players + r
				c := choose(r, st)
				d, ok := ch.steps[st][c]
				if !ok {
					return nil, fmt.Errorf("state %v: choice %v has no card-level turn", st, c)
				}
				for k, p := range d {
					nr := r
					if !k.cont {
						nr = (r + 1) % players
					}
					rhs[row][r].Add(rhs[row][r], new(big.Rat).Mul(p, big.NewRat(int64(k.moverGain), 1)))
					rhs[row][nr].Add(rhs[row][nr], new(big.Rat).Mul(p, big.NewRat(int64(k.nextGain), 1)))
					if k.next.N == n {
						col := idx[k.next]*players + nr
						a[row][col].Sub(a[row][col], p)
						continue
					}
					for s, x := range v.at(k.next, nr, players) {
						rhs[row][s].Add(rhs[row][s], new(big.Rat).Mul(p, x))
					}
				}
			}
		}
		// Gauss-Jordan elimination with a nonzero pivot.
		for col := range size {
			piv := -1
			for r := col; r < size; r++ {
				if a[r][col].Sign() != 0 {
					piv = r
					break
				}
			}
			if piv < 0 {
				return nil, fmt.Errorf("row %d: singular system", n)
			}
			a[col], a[piv] = a[piv], a[col]
			rhs[col], rhs[piv] = rhs[piv], rhs[col]
			inv := new(big.Rat).Inv(a[col][col])
			for k := range size {
				a[col][k].Mul(a[col][k], inv)
			}
			for s := range players {
				rhs[col][s].Mul(rhs[col][s], inv)
			}
			for r := range size {
				if r == col || a[r][col].Sign() == 0 {
					continue
				}
				fac := new(big.Rat).Set(a[r][col])
				for k := range size {
					a[r][k].Sub(a[r][k], new(big.Rat).Mul(fac, a[col][k]))
				}
				for s := range players {
					rhs[r][s].Sub(rhs[r][s], new(big.Rat).Mul(fac, rhs[col][s]))
				}
			}
		}
		for si, st := range states {
			v[st] = make([][]*big.Rat, players)
			for r := range players {
				v[st][r] = rhs[si*players+r]
			}
		}
	}
	return v, nil
}

// once returns every seat's expected pairs when seat r makes choice c once in st and the values v
// follow.
func (ch *blindChain) once(v blindValues, players, r int, st rules.State, c rules.Choice) []*big.Rat {
	out := make([]*big.Rat, players)
	for s := range out {
		out[s] = new(big.Rat)
	}
	for k, p := range ch.steps[st][c] {
		nr := r
		if !k.cont {
			nr = (r + 1) % players
		}
		out[r].Add(out[r], new(big.Rat).Mul(p, big.NewRat(int64(k.moverGain), 1)))
		out[nr].Add(out[nr], new(big.Rat).Mul(p, big.NewRat(int64(k.nextGain), 1)))
		for s, x := range v.at(k.next, nr, players) {
			out[s].Add(out[s], new(big.Rat).Mul(p, x))
		}
	}
	return out
}

// blindModel is the exact model of blind flips with card-level memory m, pass rule never.
func blindModel(m cardMemory) exact.Model {
	return exact.Model{Memory: memoryOf(m), Variant: rules.Variant{Flips: rules.FlipsBlind}}
}

// TestBlindLimitedGameMatchesCardLevel compares every state's values under blind flips and a
// shared lru memory of capacity 2 to 4 and handover-uniform of 3 and 4 (up to 5 pairs; capacity 2
// and 3, up to 4 pairs, with -short) with
// the exact solution of the chain of card-level turns: fixed policies at two and three seats, and
// the tables the solver writes for the two-player optimum, a best response to safe and to daring,
// and the optimum of every seat for itself at three seats, each played in the chain; no choice
// made once in any state gives its mover more than the table's (the optimum is an equilibrium,
// a best response a best reply), the seats' values add up to n, and at two seats the score
// distribution's mean is seat 0's value.
func TestBlindLimitedGameMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, capacities := 5, []int{2, 3, 4}
	if testing.Short() {
		maxN, capacities = 4, []int{2, 3}
	}
	var lineups []blindLineup
	for _, players := range []int{2, 3} {
		for _, pol := range fixedPolicies {
			for _, opp := range fixedPolicies {
				if players == 3 && pol != opp {
					continue
				}
				lineups = append(lineups, blindLineup{mu: exact.Lineup{Players: players, Policy: pol, Opponent: opp}})
			}
		}
	}
	lineups = append(lineups,
		blindLineup{exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
		blindLineup{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, true},
		blindLineup{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, true},
		blindLineup{exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
	)
	compared := 0
	for _, m := range blindLimitedMemories(capacities...) {
		compared += compareBlindChain(t, ctx, m, blindModel(m), lineups, maxN)
	}
	t.Logf("compared %d exact values with the card-level chain", compared)
}

// TestBlindLimitedIdentities checks blind flips with a shared memory of fixed capacity against
// two identities: a capacity of 2n or more never forgets a card of n pairs, so it gives the values
// of perfect memory exactly; and float64 agrees with exact rationals (capacities 2n, 3 and 2).
func TestBlindLimitedIdentities(t *testing.T) {
	ctx := context.Background()
	maxN := 6
	if testing.Short() {
		maxN = 4
	}
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
	}
	perfect := exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for n := 1; n <= maxN; n++ {
			for _, capacity := range []int{max(3, 2*n), 3, 2} {
				if capacity == 2 && fg == rules.ForgetHandoverUniform {
					continue
				}
				model := perfect
				model.Memory = rules.Memory{Capacity: capacity, Forget: fg}
				for _, mu := range lineups {
					st := rules.State{N: n, J: n}
					want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, perfect, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%v, %v: %v", model.Memory, mu, err)
					}
					fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
					if err != nil {
						t.Fatalf("%v, %v, float64: %v", model.Memory, mu, err)
					}
					for s := range mu.Players {
						if capacity >= 2*n && got.PairsBySeat[s].Cmp(want.PairsBySeat[s]) != 0 {
							t.Errorf("%v, %v, n=%d: seat %d expects %s, %s with perfect memory", model.Memory, mu, n, s,
								got.PairsBySeat[s].RatString(), want.PairsBySeat[s].RatString())
						}
						if x, _ := got.PairsBySeat[s].Float64(); math.Abs(fl.PairsBySeat[s]-x) > 1e-12 {
							t.Errorf("%v, %v, n=%d: seat %d expects %v in float64, %v in exact rationals", model.Memory, mu, n, s, fl.PairsBySeat[s], x)
						}
					}
				}
			}
		}
	}
}
