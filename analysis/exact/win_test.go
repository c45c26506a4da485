package exact_test

// The win objective (docs/models.md §4.13) checked against a second derivation: idWinRef below
// re-derives, from the rules text and its own recursion over (n, j, lead, flag), the perfect-
// memory values of policies that play to win, their choices and the distribution of the final
// lead; limited memory is checked against value iteration on the model's transitions; and
// identities (the outcome probabilities add up to one, more lead never hurts, a decided game is
// decided, a best reply is at least as good as any policy, float64 agrees with exact arithmetic)
// hold. No expected number is published or copied from the solver's output.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// idWinRef is the win objective of a two-player matchup in the perfect-memory model of an
// idRefModel (its pass rule and allowed choices). A role's score is its P(win) + P(draw)/2. A
// role that plays win-optimal or win-best-response takes the legal choice of the largest score
// (the first in the order daring, safe, known-first, pass among equals); a win-optimal role's
// choice is that of win-optimal self-play; every other role plays its policy's choice. With
// perfect memory no turn but a pass returns to its own state, and a pass answered by a pass
// ends the game, so the recursion terminates.
type idWinRef struct {
	r      *idRefModel
	pol    [2]rules.Policy
	self   *idWinRef // win-optimal self-play, for a win-optimal role of a matchup
	score  map[[5]int]*big.Rat
	choice map[[5]int]rules.Choice
	dist   map[[5]int]map[int]*big.Rat
}

func newIDWinRef(r *idRefModel, policy, opponent rules.Policy) *idWinRef {
	w := &idWinRef{r: r, pol: [2]rules.Policy{policy, opponent}, score: map[[5]int]*big.Rat{},
		choice: map[[5]int]rules.Choice{}, dist: map[[5]int]map[int]*big.Rat{}}
	if policy == rules.PolicyWinOptimal && opponent == rules.PolicyWinOptimal {
		w.self = w
	} else {
		w.self = newIDWinRef(r, rules.PolicyWinOptimal, rules.PolicyWinOptimal)
	}
	return w
}

// idFinal is the score of a game that ends with lead d.
func idFinal(d int) *big.Rat {
	switch {
	case d > 0:
		return big.NewRat(1, 1)
	case d == 0:
		return big.NewRat(1, 2)
	}
	return new(big.Rat)
}

// value is the score of role ro, to move in (n, j) with lead d after a pass (flag 1) or not, when
// it makes choice c and the policies are played afterwards.
func (w *idWinRef) value(ro, flag, n, j, d int, c rules.Choice) *big.Rat {
	if c == rules.Pass {
		if flag == 1 {
			return idFinal(d)
		}
		return new(big.Rat).Sub(big.NewRat(1, 1), w.scoreOf(1-ro, 1, n, j, -d))
	}
	sum := new(big.Rat)
	for _, o := range idRefOutcomes(n, j, c) {
		var v *big.Rat
		if o.cont {
			v = w.scoreOf(ro, 0, o.n, o.j, d+o.gain)
		} else {
			v = new(big.Rat).Sub(big.NewRat(1, 1), w.scoreOf(1-ro, 0, o.n, o.j, -d+o.gain))
		}
		sum.Add(sum, new(big.Rat).Mul(o.p, v))
	}
	return sum
}

// choiceOf is role ro's choice in (n, j) with lead d and flag.
func (w *idWinRef) choiceOf(ro, flag, n, j, d int) rules.Choice {
	key := [5]int{ro, flag, n, j, d}
	if c, ok := w.choice[key]; ok {
		return c
	}
	var c rules.Choice
	switch p := w.pol[ro]; {
	case p == rules.PolicyWinOptimal && w.self != w:
		c = w.self.choiceOf(0, flag, n, j, d)
	case p.PlaysToWin():
		var best *big.Rat
		for _, ch := range idRefOrder {
			if !w.r.legal(n, j, ch) {
				continue
			}
			if v := w.value(ro, flag, n, j, d, ch); best == nil || v.Cmp(best) > 0 {
				best, c = v, ch
			}
		}
	default:
		c = w.r.choiceOf(p, n, j)
	}
	w.choice[key] = c
	return c
}

// scoreOf is role ro's score in (n, j) with lead d and flag.
func (w *idWinRef) scoreOf(ro, flag, n, j, d int) *big.Rat {
	if n == 0 {
		return idFinal(d)
	}
	key := [5]int{ro, flag, n, j, d}
	if v, ok := w.score[key]; ok {
		return v
	}
	v := w.value(ro, flag, n, j, d, w.choiceOf(ro, flag, n, j, d))
	w.score[key] = v
	return v
}

// distOf is the distribution of the final lead of role ro, to move in (n, j) with lead d and flag.
func (w *idWinRef) distOf(ro, flag, n, j, d int) map[int]*big.Rat {
	if n == 0 {
		return map[int]*big.Rat{d: big.NewRat(1, 1)}
	}
	key := [5]int{ro, flag, n, j, d}
	if v, ok := w.dist[key]; ok {
		return v
	}
	out := map[int]*big.Rat{}
	add := func(p *big.Rat, from map[int]*big.Rat, negate bool) {
		for l, q := range from {
			if negate {
				l = -l
			}
			if out[l] == nil {
				out[l] = new(big.Rat)
			}
			out[l].Add(out[l], new(big.Rat).Mul(p, q))
		}
	}
	switch c := w.choiceOf(ro, flag, n, j, d); {
	case c == rules.Pass && flag == 1:
		out[d] = big.NewRat(1, 1)
	case c == rules.Pass:
		add(big.NewRat(1, 1), w.distOf(1-ro, 1, n, j, -d), true)
	default:
		for _, o := range idRefOutcomes(n, j, c) {
			if o.cont {
				add(o.p, w.distOf(ro, 0, o.n, o.j, d+o.gain), false)
			} else {
				add(o.p, w.distOf(1-ro, 0, o.n, o.j, -d+o.gain), true)
			}
		}
	}
	w.dist[key] = out
	return out
}

// idWinSets are the choice sets the win objective is checked with.
func idWinSets() [][]rules.Choice {
	return [][]rules.Choice{nil, {rules.Daring, rules.Safe}, {rules.Daring, rules.Safe, rules.Pass}}
}

func idRefWith(pass rules.PassRule, set []rules.Choice) (*idRefModel, rules.ChoiceSet) {
	r := newIDRefModel(pass)
	if set == nil {
		return r, rules.FullChoices
	}
	r.allowed = map[rules.Choice]bool{}
	for _, c := range set {
		r.allowed[c] = true
	}
	return r, rules.NewChoiceSet(set...)
}

// TestWinReference compares the solver's win tables (values, choices, every choice's value), score
// distributions and expected pairs with idWinRef, for every pass rule and choice set, win-optimal
// and win-best-response against every policy it may answer.
func TestWinReference(t *testing.T) {
	t.Parallel()
	maxN := idShort(5, 10)
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for k, set := range idWinSets() {
			if testing.Short() && (k > 1 || (k > 0 && pass != rules.PassNever) || pass == rules.PassTwoKnown) {
				// The short form: the full game under pass rules never and always, and
				// {daring, safe} under never.
				continue
			}
			r, choices := idRefWith(pass, set)
			m := exact.Model{Pass: pass, Choices: choices}
			t.Run(fmt.Sprintf("pass=%s/choices=%s", pass, choices), func(t *testing.T) {
				t.Parallel()
				mus := []exact.Lineup{{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}}
				for _, o := range rules.PolicyWinBestResponse.Opponents() {
					if o.CheckChoices(choices) == nil {
						mus = append(mus, exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: o})
					}
				}
				for _, mu := range mus {
					ref := newIDWinRef(r, mu.Policy, mu.Opponent)
					cells := 0
					err := exact.WinTable(context.Background(), field.Rat{}, m, mu, maxN, func(c *exact.WinCell[*big.Rat]) error {
						st := c.State
						cells++
						if want := ref.scoreOf(0, 0, st.N, st.J, st.Lead); c.Value.Cmp(want) != 0 {
							t.Errorf("%s %v: value %s, reference %s", idMatchupName(mu), st, idRS(c.Value), want.RatString())
						}
						var best []rules.Choice
						top := ref.scoreOf(0, 0, st.N, st.J, st.Lead)
						for _, ch := range rules.Choices() {
							if c.Legal[ch] != r.legal(st.N, st.J, ch) {
								t.Errorf("%v: Legal[%v] = %v", st, ch, c.Legal[ch])
								continue
							}
							if !c.Legal[ch] {
								continue
							}
							want := ref.value(0, 0, st.N, st.J, st.Lead, ch)
							if c.ChoiceValue[ch].Cmp(want) != 0 {
								t.Errorf("%s %v: ChoiceValue[%v] %s, reference %s", idMatchupName(mu), st, ch, idRS(c.ChoiceValue[ch]), want.RatString())
							}
							if want.Cmp(top) == 0 {
								best = append(best, ch)
							}
						}
						if !slices.Equal(best, c.Best) || c.Choice != ref.choiceOf(0, 0, st.N, st.J, st.Lead) {
							t.Errorf("%s %v: choice %v best %v, reference %v %v", idMatchupName(mu), st, c.Choice, c.Best, ref.choiceOf(0, 0, st.N, st.J, st.Lead), best)
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					if cells == 0 {
						t.Fatal("no cell visited")
					}
				}
				// Distributions and expected pairs, from a few states and leads, in both seat
				// orders.
				var all []exact.Lineup
				for _, mu := range mus {
					all = append(all, mu, exact.Lineup{Players: 2, Policy: mu.Opponent, Opponent: mu.Policy})
				}
				all = append(all, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyOptimal},
					exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
				for k, mu := range all {
					if testing.Short() && k%3 != 0 {
						continue // the short form: a third of the matchups
					}
					ref := newIDWinRef(r, mu.Policy, mu.Opponent)
					for _, st := range idSample(m, idShort(1, 3), idShort(4, 7)) {
						for _, lead := range []int{-2, 0, 1}[idShort(1, 0):] {
							s := st
							s.Lead = lead
							checkWinDistribution(t, m, mu, s, ref)
						}
					}
				}
			})
		}
	}
}

// checkWinDistribution compares the solver's score distribution and expected pairs from st with
// the reference's distribution of the final lead.
func checkWinDistribution(t *testing.T, m exact.Model, mu exact.Lineup, st rules.State, ref *idWinRef) {
	t.Helper()
	ctx := context.Background()
	d, err := exact.Distribution(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	e, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	final := ref.distOf(0, 0, st.N, st.J, st.Lead)
	win, draw, loss, mean := new(big.Rat), new(big.Rat), new(big.Rat), new(big.Rat)
	for l, p := range final {
		switch {
		case l > 0:
			win.Add(win, p)
		case l == 0:
			draw.Add(draw, p)
		default:
			loss.Add(loss, p)
		}
		mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(l-st.Lead), 1)))
		// The share i/2 of the remaining pairs has lead i - n.
		if got := d.Prob[l-st.Lead+st.N]; got.Cmp(p) != 0 {
			t.Errorf("%s %v: P(final lead %d) %s, reference %s", idMatchupName(mu), st, l, idRS(got), p.RatString())
		}
	}
	if d.Win.Cmp(win) != 0 || d.Draw.Cmp(draw) != 0 || d.Loss.Cmp(loss) != 0 {
		t.Errorf("%s %v: win/draw/loss %s %s %s, reference %s %s %s", idMatchupName(mu), st,
			idRS(d.Win), idRS(d.Draw), idRS(d.Loss), win.RatString(), draw.RatString(), loss.RatString())
	}
	both, err := exact.WinDrawLoss(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	w, dr, l := both[0].Win, both[0].Draw, both[0].Loss
	// The other seat order, from the other matchup's own distribution.
	other, err := exact.Distribution(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: mu.Opponent, Opponent: mu.Policy}, st)
	if err != nil {
		t.Fatal(err)
	}
	if both[1].Win.Cmp(other.Win) != 0 || both[1].Draw.Cmp(other.Draw) != 0 || both[1].Loss.Cmp(other.Loss) != 0 {
		t.Errorf("%s %v, other seat order: WinDrawLoss %s %s %s, Distribution %s %s %s", idMatchupName(mu), st,
			idRS(both[1].Win), idRS(both[1].Draw), idRS(both[1].Loss), idRS(other.Win), idRS(other.Draw), idRS(other.Loss))
	}
	if w.Cmp(win) != 0 || dr.Cmp(draw) != 0 || l.Cmp(loss) != 0 {
		t.Errorf("%s %v: WinDrawLoss %s %s %s, reference %s %s %s", idMatchupName(mu), st,
			idRS(w), idRS(dr), idRS(l), win.RatString(), draw.RatString(), loss.RatString())
	}
	if e.ExpectedLead.Cmp(mean) != 0 {
		t.Errorf("%s %v: expected lead %s, reference %s", idMatchupName(mu), st, idRS(e.ExpectedLead), mean.RatString())
	}
}

// winTable collects a win table, keyed by state with lead.
func winTable[T any](t *testing.T, f field.Field[T], m exact.Model, mu exact.Lineup, maxN int) map[rules.State]exact.WinCell[T] {
	t.Helper()
	out := map[rules.State]exact.WinCell[T]{}
	err := exact.WinTable(context.Background(), f, m, mu, maxN, func(c *exact.WinCell[T]) error {
		cp := *c
		cp.Best = slices.Clone(c.Best)
		out[c.State] = cp
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// winFamilies are the models the win objective covers: perfect memory (with singletons, every
// pass rule) and shared limited memory (handover-uniform and lru).
func winFamilies() []idFamily {
	return []idFamily{
		idPerfect(rules.PassNever), idPerfect(rules.PassTwoKnown), idPerfect(rules.PassAlways),
		idSingletons(1, rules.PassNever), idSingletons(2, rules.PassAlways),
		idLimited(rules.ForgetHandoverUniform, 2, rules.PassNever), idLimited(rules.ForgetHandoverUniform, 3, rules.PassAlways),
		idLimited(rules.ForgetLRU, 2, rules.PassTwoKnown), idLimited(rules.ForgetLRU, 3, rules.PassNever),
	}
}

// TestWinIdentities checks, in every model the win objective covers: float64 agrees with exact
// arithmetic; a decided game is decided; more lead never lowers the win-optimal mover's score;
// the win, draw and loss probabilities add up to one and their score is the table's value; a win
// best response scores at least as much as win-optimal, and win-optimal at least as much as the
// pairs-optimal policy, against the same opponent.
func TestWinIdentities(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, fam := range winFamilies() {
		if testing.Short() && fam.model.Singletons > 1 {
			continue // the short form: one singleton
		}
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			m := fam.model
			maxN := idShort(5, 8)
			self := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
			exactTab := winTable(t, field.Rat{}, m, self, maxN)
			floatTab := winTable(t, field.Float{}, m, self, maxN)
			for st, c := range exactTab {
				fc := floatTab[st]
				if !idClose(fc.Value, c.Value) || fc.Choice != c.Choice {
					t.Errorf("%v: float %g %v, exact %s %v", st, fc.Value, fc.Choice, idRS(c.Value), c.Choice)
				}
				if st.Lead > st.N && c.Value.Cmp(big.NewRat(1, 1)) != 0 || st.Lead < -st.N && c.Value.Sign() != 0 {
					t.Errorf("%v: a decided game is worth %s", st, idRS(c.Value))
				}
				up := st
				up.Lead++
				if u, ok := exactTab[up]; ok && u.Value.Cmp(c.Value) < 0 {
					t.Errorf("%v: %s, but one more pair of lead gives %s", st, idRS(c.Value), idRS(u.Value))
				}
			}
			for _, st := range idSample(m, 1, maxN)[idShort(3, 0):] {
				d, err := exact.Distribution(ctx, field.Rat{}, m, self, st)
				if err != nil {
					t.Fatal(err)
				}
				if sum := idSum([]*big.Rat{d.Win, d.Draw, d.Loss}); sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%v: win + draw + loss = %s", st, sum.RatString())
				}
				score := new(big.Rat).Add(d.Win, new(big.Rat).Quo(d.Draw, big.NewRat(2, 1)))
				if c, ok := exactTab[st]; ok && st.N > 0 && c.Value.Cmp(score) != 0 {
					t.Errorf("%v: the distribution's score %s, the table's value %s", st, score.RatString(), idRS(c.Value))
				}
			}
			scoreOf := func(mu exact.Lineup, st rules.State) *big.Rat {
				d, err := exact.Distribution(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				return new(big.Rat).Add(d.Win, new(big.Rat).Quo(d.Draw, big.NewRat(2, 1)))
			}
			for _, opp := range rules.PolicyWinBestResponse.Opponents() {
				if opp.CheckChoices(m.Choices) != nil {
					continue
				}
				for _, st := range []rules.State{{N: idShort(4, 6), J: idShort(4, 6), S: m.Singletons, F: m.Singletons, Lead: -1}} {
					br := scoreOf(exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: opp}, st)
					for _, p := range []rules.Policy{rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicyParity, rules.PolicyDaring} {
						if other := scoreOf(exact.Lineup{Players: 2, Policy: p, Opponent: opp}, st); br.Cmp(other) < 0 {
							t.Errorf("%v against %v: the win best response scores %s, %v scores %s", st, opp, br.RatString(), p, other.RatString())
						}
					}
				}
			}
		})
	}
}

// TestWinValueIteration solves the win-optimal game of limited-memory models a second way: value
// iteration over (n, j, lead, flag) on the model's own transitions (Model.Outcomes), the mover
// taking the best legal choice at every step, until the values move by less than 1e-13. The
// solver's closed-form values must agree.
func TestWinValueIteration(t *testing.T) {
	t.Parallel()
	for _, fam := range winFamilies()[5:] {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			m := fam.model
			maxN := idShort(5, 6)
			self := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
			tab := winTable(t, field.Float{}, m, self, maxN)
			type key struct {
				st   rules.State
				flag int
			}
			v := map[key]float64{}
			get := func(st rules.State, flag int) float64 {
				switch {
				case st.N == 0 || st.Lead > st.N || st.Lead < -st.N:
					return idFloatFinal(st.Lead, st.N)
				}
				return v[key{st, flag}]
			}
			var states []rules.State
			for _, st := range idStates(m, 1, maxN) {
				for d := -maxN; d <= maxN; d++ {
					s := st
					s.Lead = d
					states = append(states, s)
				}
			}
			for iter := 0; ; iter++ {
				change := 0.0
				for _, st := range states {
					if st.Lead > st.N || st.Lead < -st.N {
						continue
					}
					for flag := range 2 {
						best := math.Inf(-1)
						for _, c := range rules.Choices() {
							if !m.Legal(st.Counts(), c) {
								continue
							}
							var x float64
							if c == rules.Pass {
								if flag == 1 {
									x = idFloatFinal(st.Lead, 0)
								} else {
									back := st
									back.Lead = -st.Lead
									x = 1 - get(back, 1)
								}
							} else {
								for _, o := range m.Outcomes(st.Counts(), c, nil) {
									next := o.Next
									if o.Continue {
										next.Lead = st.Lead + o.MoverGain
										x += o.Prob.Float64() * get(next, 0)
									} else {
										next.Lead = -st.Lead + o.NextGain
										x += o.Prob.Float64() * (1 - get(next, 0))
									}
								}
							}
							best = max(best, x)
						}
						k := key{st, flag}
						change = max(change, math.Abs(best-v[k]))
						v[k] = best
					}
				}
				if change < 1e-13 {
					break
				}
				if iter > 100000 {
					t.Fatal("value iteration does not converge")
				}
			}
			for st, c := range tab {
				if got := get(st, 0); math.Abs(got-c.Value) > 1e-9 {
					t.Errorf("%v: value iteration %.12f, solver %.12f", st, got, c.Value)
				}
			}
		})
	}
}

// idFloatFinal is the score of a decided or ended game with lead d and n pairs left.
func idFloatFinal(d, n int) float64 {
	switch {
	case d > n:
		return 1
	case d < -n:
		return 0
	case d > 0:
		return 1
	case d == 0:
		return 0.5
	}
	return 0
}
