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

// Three or more seats under decay forgetting or limited memory and the pass rules two-known and
// always (docs/models.md §4.7, §4.14), checked against value iteration on the card-level turns
// with the pass streak, and against values derived without these rows.

// streakChain is the card-level game of a memory under a pass rule: every choice's turn other
// than a pass, and a pass's outcomes where it is legal.
type streakChain struct {
	chain cardChain
	pass  map[rules.State][]cardStep
}

// decayStreakChain builds the card-level game of decay memory m under pass rule rule.
func decayStreakChain(t *testing.T, m cardMemory, rule rules.PassRule, maxN int) streakChain {
	t.Helper()
	pc, err := newPassChain(m, rule, maxN)
	if err != nil {
		t.Fatal(err)
	}
	return streakChain(pc)
}

// limitStreakChain builds the card-level game of limited memory m (lru, handover-uniform) under
// pass rule rule: a pass flips nothing, so nothing goes beyond the capacity and nothing is
// forgotten; the next seat moves in the same state.
func limitStreakChain(t *testing.T, m cardMemory, rule rules.PassRule, maxN int) streakChain {
	t.Helper()
	sc := streakChain{chain: cardChain{}, pass: map[rules.State][]cardStep{}}
	for n := 1; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			if n-j > m.capacity {
				continue
			}
			sc.chain[st] = map[rules.Choice][]cardStep{}
			for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
				if !rules.Legal(st, c, rules.PassNever) {
					continue
				}
				d, err := cardDist(st, nil, m, c, pickOldest)
				if err != nil {
					t.Fatal(err)
				}
				for k, p := range d.pruned() {
					f, _ := p.Float64()
					sc.chain[st][c] = append(sc.chain[st][c], cardStep{f, k})
				}
			}
			if rules.Legal(st, rules.Pass, rule) {
				sc.pass[st] = []cardStep{{1, outKey{false, 0, 0, st}}}
			}
		}
	}
	return sc
}

// streakSeat is a state with the seat to move and the pass streak.
type streakSeat struct {
	st           rules.State
	mover, level int
}

// streakValues holds every seat's expected pairs (seat 0 first) with each seat to move in every
// state at every streak.
type streakValues map[streakSeat][]float64

func (v streakValues) at(st rules.State, mover, level, p int) []float64 {
	if st.N == 0 {
		return make([]float64, p)
	}
	return v[streakSeat{st, mover, level}]
}

// choiceValue returns every seat's expected pairs (seat 0 first) when seat r makes choice c in st
// at streak l, every seat then playing the profile of v.
func (sc streakChain) choiceValue(v streakValues, st rules.State, r, l, p int, c rules.Choice) []float64 {
	out := make([]float64, p)
	next := (r + 1) % p
	switch {
	case c == rules.Pass && l == p-1:
		for i := range out {
			out[i] = float64(st.N) / float64(p)
		}
	case c == rules.Pass:
		for _, s := range sc.pass[st] {
			succ := v.at(s.key.next, next, l+1, p)
			for i := range out {
				out[i] += s.p * succ[i]
			}
		}
	default:
		for _, s := range sc.chain[st][c] {
			mover, gain := next, s.key.nextGain
			if s.key.cont {
				mover, gain = r, s.key.moverGain
			}
			succ := v.at(s.key.next, mover, 0, p)
			for i := range out {
				x := succ[i]
				if i == mover {
					x += float64(gain)
				}
				out[i] += s.p * x
			}
		}
	}
	return out
}

// iterate returns the values of every seat r playing decide(r, st, l), by value iteration to a
// fixed point.
func (sc streakChain) iterate(p int, decide func(r int, st rules.State, l int) rules.Choice) streakValues {
	v := streakValues{}
	for st := range sc.chain {
		for r := range p {
			for l := range p {
				v[streakSeat{st, r, l}] = make([]float64, p)
			}
		}
	}
	for range 1_000_000 {
		delta := 0.0
		for key := range v {
			nv := sc.choiceValue(v, key.st, key.mover, key.level, p, decide(key.mover, key.st, key.level))
			for i := range nv {
				delta = math.Max(delta, math.Abs(nv[i]-v[key][i]))
			}
			v[key] = nv
		}
		if delta < 1e-14 {
			return v
		}
	}
	panic("value iteration did not converge")
}

// legalChoices returns the choices open in st under the chain's pass rule.
func (sc streakChain) legalChoices(st rules.State) []rules.Choice {
	var out []rules.Choice
	for c := range sc.chain[st] {
		out = append(out, c)
	}
	if _, ok := sc.pass[st]; ok {
		out = append(out, rules.Pass)
	}
	return out
}

// streakCells returns the solver's table of every seat for itself at every streak, in float64.
func streakCells(t *testing.T, m exact.Model, p, maxN int) map[streakKey]exact.TableCell[float64] {
	t.Helper()
	out := map[streakKey]exact.TableCell[float64]{}
	err := exact.SelfishTable(context.Background(), field.Float{}, m, p, maxN, func(c *exact.TableCell[float64]) error {
		cp := *c
		cp.BySeat = append([]float64(nil), c.BySeat...)
		out[streakKey{c.State.N, c.State.J, c.Passes}] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("%v, pass %s, %d players: %v", m.Memory, m.Pass, p, err)
	}
	return out
}

// streakCase is a memory at card level and as the model's, under a pass rule.
type streakCase struct {
	card  cardMemory
	mem   rules.Memory
	rule  rules.PassRule
	chain func(*testing.T, cardMemory, rules.PassRule, int) streakChain
}

func streakCases() []streakCase {
	quarter := big.NewRat(1, 4)
	var out []streakCase
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		out = append(out,
			streakCase{cardMemory{forget: rules.ForgetDecay, q: quarter}, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}, rule, decayStreakChain},
			streakCase{cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 2)}, rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}, rule, decayStreakChain},
			streakCase{cardMemory{capacity: 2, forget: rules.ForgetLRU}, rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, rule, limitStreakChain},
			streakCase{cardMemory{capacity: 2, forget: rules.ForgetHandoverUniform}, rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}, rule, limitStreakChain},
		)
	}
	return out
}

// TestSelfishStreakIsEquilibriumCardLevel checks the optimum of every seat for itself under decay
// forgetting and limited memory with the pass rules two-known and always at three and four seats:
// value iteration on the card-level turns and passes, every seat following the solver's table at
// every pass streak, gives the solver's vectors at every streak, and no choice made once, the
// table followed afterwards, gives the mover more than SelfishGaps says (nothing where it lists
// no gap). Three seats with q = 0.2 under two-known have a state without an equilibrium in pure
// choices at 5 pairs, (5, 2) at streak 0.
func TestSelfishStreakIsEquilibriumCardLevel(t *testing.T) {
	for _, sc := range streakCases() {
		for _, p := range []int{3, 4} {
			t.Run(fmt.Sprintf("%v/%s/p=%d", sc.mem, sc.rule, p), func(t *testing.T) {
				if gaps := checkStreakEquilibrium(t, sc, p, 3); gaps != 0 {
					t.Logf("%d states without an equilibrium in pure choices", gaps)
				}
			})
		}
	}
	fifth := streakCase{cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 5)}, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2},
		rules.PassTwoKnown, decayStreakChain}
	if gaps := checkStreakEquilibrium(t, fifth, 3, 5); gaps == 0 {
		t.Error("q = 0.2, two-known, 3 seats, 5 pairs: no state without an equilibrium in pure choices")
	}
}

// checkStreakEquilibrium runs TestSelfishStreakIsEquilibriumCardLevel's checks for p seats and at
// most maxN pairs and returns how many states at a streak SelfishGaps lists.
func checkStreakEquilibrium(t *testing.T, sc streakCase, p, maxN int) int {
	t.Helper()
	chain := sc.chain(t, sc.card, sc.rule, maxN)
	model := exact.Model{Memory: sc.mem, Pass: sc.rule}
	cells := streakCells(t, model, p, maxN)
	gaps, err := exact.SelfishGaps(context.Background(), field.Float{}, model, p, maxN)
	if err != nil {
		t.Fatal(err)
	}
	gapAt := map[streakKey]float64{}
	for _, g := range gaps {
		gapAt[streakKey{g.State.N, g.State.J, g.Passes}] = g.Gain
	}
	decide := func(_ int, st rules.State, l int) rules.Choice {
		c, ok := cells[streakKey{st.N, st.J, l}]
		if !ok {
			t.Fatalf("%v at streak %d: no cell", st, l)
		}
		return c.Choice
	}
	v := chain.iterate(p, decide)
	for st := range chain.chain {
		for l := range p {
			key := streakKey{st.N, st.J, l}
			got := v[streakSeat{st, 0, l}]
			for s := range p {
				if math.Abs(cells[key].BySeat[s]-got[s]) > 1e-9 {
					t.Errorf("%v, %s, %v streak %d seat %d: solver %v, card level %v", sc.mem, sc.rule, st, l, s, cells[key].BySeat[s], got[s])
				}
			}
			gain := 0.0
			for _, c := range chain.legalChoices(st) {
				gain = math.Max(gain, chain.choiceValue(v, st, 0, l, p, c)[0]-got[0])
			}
			if math.Abs(gain-gapAt[key]) > 1e-9 {
				t.Errorf("%v, %s, %v streak %d: a choice made once gains the mover %v over %v, SelfishGaps %v", sc.mem, sc.rule, st, l, gain, cells[key].Choice, gapAt[key])
			}
		}
	}
	return len(gaps)
}

// TestSelfishStreakLineups checks lineups that mix optimal with fixed policies under decay
// forgetting and limited memory with a pass rule: every seat's pairs agree with value iteration on
// the card-level turns, each optimal seat following the table of every seat for itself at the
// pass streak and each fixed policy never passing; so do the values of seat 0's choices made once,
// the pass included.
func TestSelfishStreakLineups(t *testing.T) {
	const maxN = 3
	ctx := context.Background()
	o, sa, da := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lineups := [][]rules.Policy{{o, sa, da}, {da, o, o}, {sa, da, sa}, {o, da, sa, o}}
	for _, sc := range streakCases() {
		chain := sc.chain(t, sc.card, sc.rule, maxN)
		model := exact.Model{Memory: sc.mem, Pass: sc.rule}
		for _, pols := range lineups {
			p := len(pols)
			cells := streakCells(t, model, p, maxN)
			v := chain.iterate(p, func(r int, st rules.State, l int) rules.Choice {
				if pols[r] != o {
					return pols[r].Decide(st)
				}
				return cells[streakKey{st.N, st.J, l}].Choice
			})
			mu := exact.SeatLineup(pols...)
			for st := range chain.chain {
				res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%v, %s, %v, %v: %v", sc.mem, sc.rule, pols, st, err)
				}
				want := v[streakSeat{st, 0, 0}]
				for s := range p {
					if math.Abs(res.PairsBySeat[s]-want[s]) > 1e-9 {
						t.Errorf("%v, %s, %v, %v: pairs by seat %v, card level %v", sc.mem, sc.rule, pols, st, res.PairsBySeat, want)
						break
					}
				}
				choices, err := exact.ChoiceValues(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%v, %s, %v, %v: %v", sc.mem, sc.rule, pols, st, err)
				}
				for _, cv := range choices.Values {
					want := chain.choiceValue(v, st, 0, 0, p, cv.Choice)
					for s := range p {
						if math.Abs(cv.PairsBySeat[s]-want[s]) > 1e-9 {
							t.Errorf("%v, %s, %v, %v, %v made once: pairs by seat %v, card level %v", sc.mem, sc.rule, pols, st, cv.Choice, cv.PairsBySeat, want)
							break
						}
					}
				}
			}
		}
	}
}

// TestSelfishStreakIdentities checks the optimum of every seat for itself under decay forgetting
// and limited memory with a pass rule against values derived without these rows: the seats share
// the pairs left at every streak (exactly), a decay capacity of at least twice the pairs is no
// capacity (exactly), and q = 1e-9 is within 1e-6 of perfect memory's optimum under the same pass
// rule at every streak (the mover's value: a tie of perfect memory may break either way and move
// the other seats' values).
func TestSelfishStreakIdentities(t *testing.T) {
	maxN := bySize(3, 4, 6)
	decay := func(q float64, capacity int, rule rules.PassRule) exact.Model {
		return exact.Model{Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: q, Capacity: capacity}}
	}
	seats := []int{3, 5, rules.MaxPlayers}
	if testing.Short() {
		seats = []int{3, 4}
	}
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, p := range seats {
			lru := exact.Model{Pass: rule, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}
			for _, m := range []exact.Model{decay(0.1, 0, rule), decay(0.1, 3, rule), lru} {
				for key, c := range selfishStreakTable(t, m, p, min(maxN, 4)) {
					if s := idSum(c.BySeat); s.Cmp(big.NewRat(int64(key.n), 1)) != 0 {
						t.Errorf("%v, %s, %d players, %+v: seats sum to %s", m.Memory, rule, p, key, s.RatString())
					}
				}
			}
			none := selfishStreakTable(t, decay(0.25, 0, rule), p, min(maxN, 4))
			wide := selfishStreakTable(t, decay(0.25, 2*min(maxN, 4), rule), p, min(maxN, 4))
			for key, a := range none {
				for s := range p {
					if a.BySeat[s].Cmp(wide[key].BySeat[s]) != 0 {
						t.Errorf("%s, %d players, %+v seat %d: no capacity %s, wide capacity %s", rule, p, key, s,
							a.BySeat[s].RatString(), wide[key].BySeat[s].RatString())
					}
				}
			}
			tiny := streakCells(t, decay(1e-9, 0, rule), p, maxN)
			perfect := streakCells(t, exact.Model{Pass: rule}, p, maxN)
			for key, want := range perfect {
				// A tie of perfect memory (a pass's n/p against a turn's, say) may break either way
				// under a tiny q, and change the other seats' values at the streaks below: the
				// mover's value is compared.
				if math.Abs(tiny[key].Value-want.Value) > 1e-6 {
					t.Errorf("%s, %d players, %+v: the mover's value under q = 1e-9 %v, perfect memory %v", rule, p, key, tiny[key].Value, want.Value)
				}
			}
		}
	}
}

// TestSelfishStreakRefusals checks what stays refused at three or more seats under decay
// forgetting and a pass rule: the two-player optimum's choices.
func TestSelfishStreakRefusals(t *testing.T) {
	m := exact.Model{Pass: rules.PassAlways, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}}
	mu := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}
	if _, err := exact.Evaluate(context.Background(), field.Float{}, m, mu, rules.State{N: 3, J: 3}); err == nil {
		t.Error("decay under pass rule always, 3 players, the two-player optimum's choices: no error")
	}
}

// TestSelfishStreakChoiceValues checks the list of the choices' values (exact.ChoiceValues) at
// three seats under decay forgetting and lru with a pass rule against the table's values of the
// choices at streak 0, the pass included (which under decay reads the states the hand-over's
// forgetting leaves, at one pass made), and that every choice's vector shares the pairs left.
func TestSelfishStreakChoiceValues(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	for _, sc := range streakCases() {
		model := exact.Model{Memory: sc.mem, Pass: sc.rule}
		cells := streakCells(t, model, 3, maxN)
		mu := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		passes := 0
		for key, c := range cells {
			if key.passes != 0 {
				continue
			}
			got, err := exact.ChoiceValues(ctx, field.Float{}, model, mu, c.State)
			if err != nil {
				t.Fatalf("%v, %s, %v: %v", sc.mem, sc.rule, c.State, err)
			}
			for _, v := range got.Values {
				if v.Choice == rules.Pass {
					passes++
				}
				if math.Abs(v.Pairs-c.ChoiceValue[v.Choice]) > 1e-12 {
					t.Errorf("%v, %s, %v, %v: ChoiceValues %v, the table %v", sc.mem, sc.rule, c.State, v.Choice, v.Pairs, c.ChoiceValue[v.Choice])
				}
				sum := 0.0
				for _, x := range v.PairsBySeat {
					sum += x
				}
				if math.Abs(sum-float64(c.State.N)) > 1e-12 {
					t.Errorf("%v, %s, %v, %v: the seats' pairs %v sum to %v", sc.mem, sc.rule, c.State, v.Choice, v.PairsBySeat, sum)
				}
			}
		}
		if passes == 0 {
			t.Errorf("%v, %s: no state with a pass", sc.mem, sc.rule)
		}
	}
}
