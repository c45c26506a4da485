package exact_test

// Blind flips with a shared memory of fixed capacity under the pass rules two-known and always,
// and in solitaire (docs/models.md §4.17), checked against the chain of card-level turns
// (blindCardDist) with the pass streak of §4.7 and the stalemate of §1.5, solved exactly.

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

// blindPassChain holds the card-level blind turns of every count state with at most maxN pairs
// that fits the memory, the pass among them where the pass rule allows it.
type blindPassChain struct {
	*blindChain
	rule rules.PassRule
}

func newBlindPassChain(m cardMemory, rule rules.PassRule, maxN int) (*blindPassChain, error) {
	ch, err := newBlindChain(m, maxN)
	if err != nil {
		return nil, err
	}
	for st, steps := range ch.steps {
		if !rule.Allows(st) {
			continue
		}
		d, err := blindCardDist(st, nil, m, rules.Pass, pickOldest)
		if m.forget == rules.ForgetDecay {
			d, err = decayPassDist(st, m)
		}
		if err != nil {
			return nil, fmt.Errorf("%v, %v, pass: %w", m, st, err)
		}
		steps[rules.Pass] = d.pruned()
	}
	return &blindPassChain{blindChain: ch, rule: rule}, nil
}

// blindPassValues holds every seat's expected pairs: v[st][l][r][s] is seat s's with seat r to
// move in st after l seats passed in a row.
type blindPassValues map[rules.State][][][]*big.Rat

// at returns every seat's expected pairs in st with seat r to move at streak l (zero on an empty
// table).
func (v blindPassValues) at(st rules.State, l, r, players int) []*big.Rat {
	if st.N == 0 {
		out := make([]*big.Rat, players)
		for i := range out {
			out[i] = new(big.Rat)
		}
		return out
	}
	return v[st][l][r]
}

// solve returns every seat's exact expected pairs in every state, with every seat to move at every
// pass streak, seat r choosing choose(r, l, st): a pass at streak l < players-1 hands the state
// its card-level step leaves to the next seat at l+1, a pass at players-1 shares the n pairs equally (the stalemate),
// every other turn leads to streak 0; under decay forgetting the pass is a hand-over, so the
// next seat moves in the state its forgetting leaves. Each row (a forgotten card and a pass can come back to the
// same state) is solved by Gauss-Jordan elimination in exact rationals.
func (ch *blindPassChain) solve(players int, choose func(r, l int, st rules.State) rules.Choice) (blindPassValues, error) {
	v := blindPassValues{}
	for n := 1; n <= ch.maxN; n++ {
		states := ch.row(n)
		idx := map[rules.State]int{}
		for i, st := range states {
			idx[st] = i
		}
		unknown := func(si, l, r int) int { return (si*players+l)*players + r }
		size := len(states) * players * players
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
		share := big.NewRat(int64(n), int64(players))
		for si, st := range states {
			for l := range players {
				for r := range players {
					row := unknown(si, l, r)
					c := choose(r, l, st)
					d, ok := ch.steps[st][c]
					if !ok {
						return nil, fmt.Errorf("state %v, streak %d: choice %v has no card-level turn", st, l, c)
					}
					if c == rules.Pass {
						if l == players-1 {
							for s := range players {
								rhs[row][s].Set(share)
							}
							continue
						}
						for k, p := range d {
							col := unknown(idx[k.next], l+1, (r+1)%players)
							a[row][col].Sub(a[row][col], p)
						}
						continue
					}
					for k, p := range d {
						nr := r
						if !k.cont {
							nr = (r + 1) % players
						}
						rhs[row][r].Add(rhs[row][r], new(big.Rat).Mul(p, big.NewRat(int64(k.moverGain), 1)))
						rhs[row][nr].Add(rhs[row][nr], new(big.Rat).Mul(p, big.NewRat(int64(k.nextGain), 1)))
						if k.next.N == n {
							col := unknown(idx[k.next], 0, nr)
							a[row][col].Sub(a[row][col], p)
							continue
						}
						for s, x := range v.at(k.next, 0, nr, players) {
							rhs[row][s].Add(rhs[row][s], new(big.Rat).Mul(p, x))
						}
					}
				}
			}
		}
		if err := gaussJordan(a, rhs); err != nil {
			return nil, fmt.Errorf("row %d: %w", n, err)
		}
		for si, st := range states {
			v[st] = make([][][]*big.Rat, players)
			for l := range players {
				v[st][l] = make([][]*big.Rat, players)
				for r := range players {
					v[st][l][r] = rhs[unknown(si, l, r)]
				}
			}
		}
	}
	return v, nil
}

// once returns every seat's expected pairs when seat r makes choice c once in st at streak l and
// the values v follow.
func (ch *blindPassChain) once(v blindPassValues, players, l, r int, st rules.State, c rules.Choice) []*big.Rat {
	if c == rules.Pass {
		if l == players-1 {
			out := make([]*big.Rat, players)
			for s := range out {
				out[s] = big.NewRat(int64(st.N), int64(players))
			}
			return out
		}
		out := make([]*big.Rat, players)
		for s := range out {
			out[s] = new(big.Rat)
		}
		for k, p := range ch.steps[st][c] {
			for s, x := range v[k.next][l+1][(r+1)%players] {
				out[s].Add(out[s], new(big.Rat).Mul(p, x))
			}
		}
		return out
	}
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
		for s, x := range v.at(k.next, 0, nr, players) {
			out[s].Add(out[s], new(big.Rat).Mul(p, x))
		}
	}
	return out
}

// gaussJordan solves a x = rhs in place (rhs holds one column per seat), with a nonzero pivot.
func gaussJordan(a, rhs [][]*big.Rat) error {
	size := len(a)
	for col := range size {
		piv := -1
		for r := col; r < size; r++ {
			if a[r][col].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return fmt.Errorf("singular system")
		}
		a[col], a[piv] = a[piv], a[col]
		rhs[col], rhs[piv] = rhs[piv], rhs[col]
		inv := new(big.Rat).Inv(a[col][col])
		for k := range size {
			a[col][k].Mul(a[col][k], inv)
		}
		for s := range rhs[col] {
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
			for s := range rhs[r] {
				rhs[r][s].Sub(rhs[r][s], new(big.Rat).Mul(fac, rhs[col][s]))
			}
		}
	}
	return nil
}

// TestBlindLimitedPassGameMatchesCardLevel compares every state's values under blind flips, a
// shared lru memory of capacity 2 and 3 or handover-uniform of 3, and the pass rules two-known
// and always (up to 4 pairs; 3 with -short) with the exact solution of the chain of card-level
// turns with the pass streak: fixed policies at two and three seats and a lineup of a policy per
// seat; the solver's tables of the two-player optimum and of a best response to daring played in
// the chain at both streaks; at three seats the optimum of every seat for itself, whose values and
// choices the solver gives at every streak. No choice made once at any streak gives its mover more
// than the table's, and the seats' values add up to n.
func TestBlindLimitedPassGameMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, capacities := 4, []int{2, 3}
	if testing.Short() {
		maxN, capacities = 3, []int{3}
	}
	var lineups []blindLineup
	for _, players := range []int{2, 3} {
		for _, pol := range fixedPolicies {
			lineups = append(lineups, blindLineup{mu: exact.Lineup{Players: players, Policy: pol, Opponent: rules.PolicyDaring}})
		}
	}
	lineups = append(lineups,
		blindLineup{exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
		blindLineup{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, true},
		blindLineup{exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
	)
	compared := 0
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, m := range blindLimitedMemories(capacities...) {
			model := blindModel(m)
			model.Pass = rule
			compared += compareBlindPassChain(t, ctx, m, model, lineups, maxN)
		}
	}
	t.Logf("compared %d exact values with the card-level chain", compared)
}

// TestBlindLimitedSeatLineupPassMatchesCardLevel compares a lineup of a policy per seat at three
// seats (optimal beside safe and daring) under blind flips, lru of capacity 3 and pass rule always
// with the card-level chain in which the optimal seat plays the solver's table of every seat for
// itself at the streak.
func TestBlindLimitedSeatLineupPassMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	const maxN = 3
	m := cardMemory{capacity: 3, forget: rules.ForgetLRU}
	model := blindModel(m)
	model.Pass = rules.PassAlways
	chain, err := newBlindPassChain(m, model.Pass, maxN)
	if err != nil {
		t.Fatal(err)
	}
	choices := map[[3]int]rules.Choice{}
	err = exact.SelfishTable(ctx, field.Rat{}, model, 3, maxN, func(tc *exact.TableCell[*big.Rat]) error {
		choices[[3]int{tc.State.N, tc.State.J, tc.Passes}] = tc.Choice
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seats := []rules.Policy{rules.PolicyDaring, rules.PolicyOptimal, rules.PolicySafe}
	v, err := chain.solve(3, func(r, l int, st rules.State) rules.Choice {
		if seats[r] == rules.PolicyOptimal {
			return choices[[3]int{st.N, st.J, l}]
		}
		return seats[r].Decide(st)
	})
	if err != nil {
		t.Fatal(err)
	}
	mu := exact.SeatLineup(seats...)
	for st := range chain.steps {
		res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
		if err != nil {
			t.Fatalf("%v: %v", st, err)
		}
		for s := range 3 {
			if res.PairsBySeat[s].Cmp(v[st][0][0][s]) != 0 {
				t.Errorf("%v: seat %d (%v) expects %s from Evaluate, %s from the card-level chain",
					st, s, seats[s], res.PairsBySeat[s].RatString(), v[st][0][0][s].RatString())
			}
		}
	}
}

// TestBlindLimitedPassIdentities checks blind flips with a shared memory of fixed capacity under
// the pass rules two-known and always against two identities: a capacity of 2n or more never
// forgets a card of n pairs, so it gives the perfect-memory values of blind flips under the same
// pass rule exactly (two to four seats); and float64 agrees with exact rationals (capacity 3).
func TestBlindLimitedPassIdentities(t *testing.T) {
	ctx := context.Background()
	maxN := 5
	if testing.Short() {
		maxN = 3
	}
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 4, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		exact.SeatLineup(rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring),
	}
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		perfect := exact.Model{Pass: rule, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			for n := 1; n <= maxN; n++ {
				for _, capacity := range []int{max(3, 2*n), 3} {
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
							t.Fatalf("%v, %v, %v: %v", model.Memory, rule, mu, err)
						}
						fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
						if err != nil {
							t.Fatalf("%v, %v, %v, float64: %v", model.Memory, rule, mu, err)
						}
						for s := range mu.Players {
							if capacity >= 2*n && got.PairsBySeat[s].Cmp(want.PairsBySeat[s]) != 0 {
								t.Errorf("%v, %v, %v, n=%d: seat %d expects %s, %s with perfect memory", model.Memory, rule, mu, n, s,
									got.PairsBySeat[s].RatString(), want.PairsBySeat[s].RatString())
							}
							if x, _ := got.PairsBySeat[s].Float64(); math.Abs(fl.PairsBySeat[s]-x) > 1e-12 {
								t.Errorf("%v, %v, %v, n=%d: seat %d expects %v in float64, %v in exact rationals", model.Memory, rule, mu, n, s, fl.PairsBySeat[s], x)
							}
						}
					}
				}
			}
		}
	}
}

// soloTurns returns the exact expected number of turns of blind solitaire from every state of
// the chain, the player choosing choose(st): a turn costs one, and every pair it leaves known
// whole one more (the turn that takes it, §4.8). Each row is solved by Gauss-Jordan elimination.
func (ch *blindChain) soloTurns(choose func(rules.State) rules.Choice) (map[rules.State]*big.Rat, error) {
	v := map[rules.State]*big.Rat{}
	at := func(st rules.State) *big.Rat {
		if st.N == 0 {
			return new(big.Rat)
		}
		return v[st]
	}
	for n := 1; n <= ch.maxN; n++ {
		states := ch.row(n)
		idx := map[rules.State]int{}
		for i, st := range states {
			idx[st] = i
		}
		a := make([][]*big.Rat, len(states))
		rhs := make([][]*big.Rat, len(states))
		for i, st := range states {
			a[i] = make([]*big.Rat, len(states))
			for k := range a[i] {
				a[i][k] = new(big.Rat)
			}
			a[i][i].SetInt64(1)
			rhs[i] = []*big.Rat{new(big.Rat)}
			c := choose(st)
			d, ok := ch.steps[st][c]
			if !ok {
				return nil, fmt.Errorf("state %v: choice %v has no card-level turn", st, c)
			}
			for k, p := range d {
				rhs[i][0].Add(rhs[i][0], new(big.Rat).Mul(p, big.NewRat(int64(1+k.nextGain), 1)))
				if k.next.N == n {
					a[i][idx[k.next]].Sub(a[i][idx[k.next]], p)
					continue
				}
				rhs[i][0].Add(rhs[i][0], new(big.Rat).Mul(p, at(k.next)))
			}
		}
		if err := gaussJordan(a, rhs); err != nil {
			return nil, fmt.Errorf("row %d: %w", n, err)
		}
		for i, st := range states {
			v[st] = rhs[i][0]
		}
	}
	return v, nil
}

// soloOnce returns the expected turns when choice c is made once in st and the turns v follow.
func (ch *blindChain) soloOnce(v map[rules.State]*big.Rat, st rules.State, c rules.Choice) *big.Rat {
	out := new(big.Rat)
	for k, p := range ch.steps[st][c] {
		x := big.NewRat(int64(1+k.nextGain), 1)
		if k.next.N > 0 {
			x.Add(x, v[k.next])
		}
		out.Add(out, new(big.Rat).Mul(p, x))
	}
	return out
}

// TestBlindLimitedSolitaireMatchesCardLevel compares the expected turns of solitaire under blind
// flips and a shared lru memory of capacity 2 to 4 or handover-uniform of 3 and 4 (up to 5 pairs;
// 4 with -short) with the chain of card-level turns: the fixed policies, and the optimum, which
// the chain finds by policy iteration (from daring, the choice with the fewest turns made once,
// until none is better); a capacity of 2n gives the perfect-memory blind solitaire's turns.
func TestBlindLimitedSolitaireMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, capacities := 5, []int{2, 3, 4}
	if testing.Short() {
		maxN, capacities = 4, []int{2, 3}
	}
	compared := 0
	for _, m := range blindLimitedMemories(capacities...) {
		compared += compareBlindSolitaire(t, ctx, m, blindModel(m), maxN)
	}
	// A capacity of 2n never forgets: perfect memory's blind solitaire, 2n - 1 turns for the optimum.
	for n := 1; n <= maxN; n++ {
		for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			model := exact.Model{Memory: rules.Memory{Capacity: max(3, 2*n), Forget: fg}, Variant: rules.Variant{Flips: rules.FlipsBlind}}
			res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}, rules.State{N: n, J: n})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExpectedTurns.Cmp(big.NewRat(int64(2*n-1), 1)) != 0 {
				t.Errorf("%v, n=%d: the optimum takes %s turns, perfect memory's blind solitaire %d", model.Memory, n, res.ExpectedTurns.RatString(), 2*n-1)
			}
		}
	}
	t.Logf("compared %d expected turns with the card-level chain", compared)
}

// compareBlindPassChain plays every lineup of lineups in the card-level chain of blind flips with
// the pass streak built for card memory m and model's pass rule (up to maxN pairs), and compares
// every state's values with the solver's under model: Evaluate's from streak 0, the two-player
// tables played at both streaks, at three seats the optimum of every seat for itself and each
// choice's value at every streak; no choice made once gives the mover more than the table's, and
// the seats' values add up to n. It returns the number of values compared.
func compareBlindPassChain(t *testing.T, ctx context.Context, m cardMemory, model exact.Model, lineups []blindLineup, maxN int) int {
	t.Helper()
	rule := model.Pass
	compared := 0
	chain, err := newBlindPassChain(m, rule, maxN)
	if err != nil {
		t.Fatal(err)
	}
	for _, lu := range lineups {
		mu := lu.mu
		name := fmt.Sprintf("%v/%v/p=%d/%v-vs-%v", m, rule, mu.Players, mu.Policy, mu.Opponent)
		choose := func(r, _ int, st rules.State) rules.Choice {
			if r == 0 {
				return mu.Policy.Decide(st)
			}
			return mu.Opponent.Decide(st)
		}
		// solver[st][l] is every seat's value from the mover on, at streak l, and
		// choiceValue[st][l] the mover's value of each legal choice made there (three seats).
		solver := map[rules.State]map[int][]*big.Rat{}
		choiceValue := map[rules.State]map[int]map[rules.Choice]*big.Rat{}
		switch {
		case lu.table && mu.Players == 2:
			tab, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
			if err != nil {
				t.Fatalf("%s: PolicyTable: %v", name, err)
			}
			choose = func(r, l int, st rules.State) rules.Choice {
				if r == 0 || mu.Opponent == rules.PolicyOptimal {
					c, ok := tab.Lookup(st, l == 1)
					if !ok {
						panic(fmt.Sprintf("%s: no table choice in %v after a pass %v", name, st, l == 1))
					}
					return c
				}
				return mu.Opponent.Decide(st)
			}
		case lu.table:
			choices := map[[2]int]map[int]rules.Choice{}
			err := exact.SelfishTable(ctx, field.Rat{}, model, mu.Players, maxN, func(tc *exact.TableCell[*big.Rat]) error {
				key := [2]int{tc.State.N, tc.State.J}
				if choices[key] == nil {
					choices[key] = map[int]rules.Choice{}
					solver[tc.State] = map[int][]*big.Rat{}
					choiceValue[tc.State] = map[int]map[rules.Choice]*big.Rat{}
				}
				choiceValue[tc.State][tc.Passes] = map[rules.Choice]*big.Rat{}
				for _, c := range rules.Choices() {
					if tc.Legal[c] {
						choiceValue[tc.State][tc.Passes][c] = new(big.Rat).Set(tc.ChoiceValue[c])
					}
				}
				choices[key][tc.Passes] = tc.Choice
				solver[tc.State][tc.Passes] = append([]*big.Rat(nil), tc.BySeat...)
				return nil
			})
			if err != nil {
				t.Fatalf("%s: SelfishTable: %v", name, err)
			}
			choose = func(_, l int, st rules.State) rules.Choice {
				c, ok := choices[[2]int{st.N, st.J}][l]
				if !ok {
					panic(fmt.Sprintf("%s: no table choice in %v at streak %d", name, st, l))
				}
				return c
			}
		}
		v, err := chain.solve(mu.Players, choose)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for st := range chain.steps {
			compared += checkChainSeatValues(t, ctx, name, model, mu, st, v[st][0][0])
			for l, want := range solver[st] {
				for i := range mu.Players {
					compared++
					if got := v[st][l][0][i]; want[i].Cmp(got) != 0 {
						t.Errorf("%s, %v, streak %d: seat %d from the mover expects %s in the solver's table, %s in the chain",
							name, st, l, i, want[i].RatString(), got.RatString())
					}
				}
			}
			// Every choice's value at every streak is the choice made once in the chain.
			for l, values := range choiceValue[st] {
				if len(values) != len(chain.steps[st]) {
					t.Errorf("%s, %v, streak %d: the solver has %d legal choices, the card-level game %d", name, st, l, len(values), len(chain.steps[st]))
				}
				for c, want := range values {
					compared++
					if got := chain.once(v, mu.Players, l, 0, st, c)[0]; want.Cmp(got) != 0 {
						t.Errorf("%s, %v, streak %d: %v is worth %s to the mover in the solver's table, %s in the chain",
							name, st, l, c, want.RatString(), got.RatString())
					}
				}
			}
			if !lu.table || mu.Players > 2 {
				// At three seats a state may have no equilibrium in pure choices (the
				// table marks it): the choices' values above say where.
				continue
			}
			// No choice made once, at either streak the table is read at, gives the mover
			// more.
			for l := range mu.Players {
				for c := range chain.steps[st] {
					got := chain.once(v, mu.Players, l, 0, st, c)
					own, table := got[0], v[st][l][0][0]
					if mu.Players == 2 && mu.Policy == rules.PolicyOptimal {
						own = new(big.Rat).Sub(got[0], got[1])
						table = new(big.Rat).Sub(v[st][l][0][0], v[st][l][0][1])
					}
					if own.Cmp(table) > 0 {
						t.Errorf("%s, %v, streak %d: %v made once gives the mover %s, more than the table's %s",
							name, st, l, c, own.RatString(), table.RatString())
					}
				}
			}
		}
	}
	return compared
}

// compareBlindSolitaire compares the expected turns of solitaire under blind flips and card memory
// m (model, up to maxN pairs) with the chain of card-level turns: the fixed policies, and the
// optimum, which the chain finds by policy iteration (from daring, the choice with the fewest
// turns made once, until none is better). It returns the number of values compared.
func compareBlindSolitaire(t *testing.T, ctx context.Context, m cardMemory, model exact.Model, maxN int) int {
	t.Helper()
	compared := 0
	chain, err := newBlindChain(m, maxN)
	if err != nil {
		t.Fatal(err)
	}
	check := func(pol rules.Policy, want map[rules.State]*big.Rat) {
		for st, w := range want {
			res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, exact.Lineup{Players: 1, Policy: pol}, st)
			if err != nil {
				t.Fatalf("%v, %v, %v: %v", m, pol, st, err)
			}
			compared++
			if res.ExpectedTurns.Cmp(w) != 0 {
				t.Errorf("%v, %v, %v: %s turns from Evaluate, %s from the card-level chain", m, pol, st, res.ExpectedTurns.RatString(), w.RatString())
			}
		}
	}
	for _, pol := range fixedPolicies {
		v, err := chain.soloTurns(pol.Decide)
		if err != nil {
			t.Fatalf("%v, %v: %v", m, pol, err)
		}
		check(pol, v)
	}
	policy := map[rules.State]rules.Choice{}
	for st := range chain.steps {
		policy[st] = rules.PolicyDaring.Decide(st)
	}
	var v map[rules.State]*big.Rat
	for round := 0; ; round++ {
		if round > 50 {
			t.Fatalf("%v: policy iteration did not settle", m)
		}
		v, err = chain.soloTurns(func(st rules.State) rules.Choice { return policy[st] })
		if err != nil {
			t.Fatalf("%v, optimum: %v", m, err)
		}
		changed := false
		for st, steps := range chain.steps {
			best := chain.soloOnce(v, st, policy[st])
			for c := range steps {
				if x := chain.soloOnce(v, st, c); x.Cmp(best) < 0 {
					best, policy[st], changed = x, c, true
				}
			}
		}
		if !changed {
			break
		}
	}
	check(rules.PolicyOptimal, v)
	return compared
}
