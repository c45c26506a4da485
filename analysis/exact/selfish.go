package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat for itself: the optimum of three to eight players (docs/models.md §4.7). The mover
// maximises its own expected pairs, and so does every other seat when it moves; the values of a
// state are a vector, every seat's expected pairs in order from the mover (self[0] the mover's,
// self[1] the next seat's, ...). They do not depend on which seat moves, since every seat plays
// the same stationary policy.
//
// In a state whose turn can come back to it with the next seat to move (a forgotten card), the
// state's value refers to itself: with choice c the mover's vector is a_c + b_c * rot(v), v the
// state's own vector seen from the next seat and rot the turn of the seats by one. A choice c is
// a stationary equilibrium of the state when, every seat playing c there, no choice c' gives the
// mover more: with v_c the solution of v = a_c + b_c*rot(v), a_c'[0] + b_c'*v_c[p-1] <= v_c[0].
// The optimum takes, among the equilibria, the one that gives the mover the most, the first in
// the order daring, safe, known-first among equals. Without a self-reference (b = 0, as with
// perfect memory) this is the first choice with the largest a_c[0]. A state of a limited memory
// may have no equilibrium in pure choices (its equilibria mix choices with probabilities that are
// in general irrational); there the optimum takes the choice whose best deviation gains least
// (SelfishGaps lists those states and the gain).

// rotate returns v, every seat's value in order from the next seat, in order from the seat
// before it: out[s] = v[s-1], out[0] = v[p-1].
func (w *sweep[T]) rotate(v []T) []T {
	p := len(v)
	out := make([]T, p)
	for s := range v {
		out[s] = v[(s+p-1)%p]
	}
	return out
}

// selfSum returns, for choice ch in st, every seat's expected pairs a collected from the outcomes
// that leave st (in order from the mover), and the probability b of coming back to st with the
// next seat to move.
func (w *sweep[T]) selfSum(st rules.State, ch rules.Choice) (a []T, b T) {
	f := w.f
	p := w.mu.Players
	a, b = w.zeros(p), w.zero
	for i, o := range w.outs[ch] {
		pr := w.probs[ch][i]
		if selfLoop(o, st) {
			b = f.Add(b, pr)
			continue
		}
		succ := w.at(o.Next).self
		if o.Continue {
			w.addSeats(a, pr, succ, 0, o.MoverGain)
			continue
		}
		// The next seat moves in o.Next: seat s from the mover is seat s-1 from it.
		for s := range a {
			v := succ[(s+p-1)%p]
			if s == 1 {
				v = f.Add(v, w.ints[o.NextGain])
			}
			a[s] = f.Add(a[s], f.Mul(pr, v))
		}
	}
	return a, b
}

// selfCycle solves v = a + b*rot(v): v = (a + b rot(a) + ... + b^(p-1) rot^(p-1)(a)) / (1 - b^p).
func (w *sweep[T]) selfCycle(a []T, b T) []T {
	f := w.f
	if f.IsZero(b) {
		return a
	}
	p := len(a)
	sum := w.zeros(p)
	term, pow := a, w.one
	for range p {
		for s := range sum {
			sum[s] = f.Add(sum[s], f.Mul(pow, term[s]))
		}
		term, pow = w.rotate(term), f.Mul(pow, b)
	}
	scale := f.Div(w.one, f.Sub(w.one, pow))
	for s := range sum {
		sum[s] = f.Mul(scale, sum[s])
	}
	return sum
}

// selfish computes the state's vector under the optimum of every seat for itself (pass rule
// never), its choice (selfChoice), the most a deviation gains (selfGap), every legal choice's
// value to the mover when the others keep the optimum (selfDev) and the best of them (optBest).
func (w *sweep[T]) selfish(st rules.State, c *cell[T]) {
	f := w.f
	p := w.mu.Players
	var as [rules.NumChoices][]T
	var bs [rules.NumChoices]T
	for _, ch := range rules.Choices() {
		if w.legal[ch] && ch != rules.Pass {
			as[ch], bs[ch] = w.selfSum(st, ch)
		}
	}
	// Among the equilibria (no gain from a deviation) the one best for the mover; without one,
	// the choice whose best deviation gains least.
	var best []T
	var bestGap T
	for _, cand := range rules.Choices() {
		if !w.legal[cand] || cand == rules.Pass {
			continue
		}
		v := w.selfCycle(as[cand], bs[cand])
		g := w.selfDeviation(as, bs, v)
		switch {
		case best == nil:
		case f.Cmp(g, w.zero) == 0 && f.Cmp(bestGap, w.zero) == 0 && f.Cmp(v[0], best[0]) > 0:
		case f.Cmp(g, bestGap) < 0:
		default:
			continue
		}
		best, bestGap, w.selfChoice = v, g, cand
	}
	w.selfGap = bestGap
	c.self = best
	for _, ch := range rules.Choices() {
		w.optBest[ch] = false
		if w.legal[ch] && ch != rules.Pass {
			w.selfDev[ch] = f.Add(as[ch][0], f.Mul(bs[ch], best[p-1]))
			w.optBest[ch] = f.Cmp(w.selfDev[ch], best[0]) == 0
		}
	}
}

// selfDeviation returns how much more than v[0] the best legal choice gives the mover when every
// seat plays the candidate whose vector is v whenever the state comes back (a one-step deviation),
// zero when none gives more: the candidate is then a stationary equilibrium of the state.
func (w *sweep[T]) selfDeviation(as [rules.NumChoices][]T, bs [rules.NumChoices]T, v []T) T {
	f := w.f
	last, gain := v[len(v)-1], w.zero
	for _, ch := range rules.Choices() {
		if as[ch] == nil {
			continue
		}
		if d := f.Sub(f.Add(as[ch][0], f.Mul(bs[ch], last)), v[0]); f.Cmp(d, gain) > 0 {
			gain = d
		}
	}
	return gain
}

// SelfishGap is a state of the optimum of every seat for itself in which no choice is a
// stationary equilibrium in pure choices (docs/models.md §4.7): the optimum plays Choice there,
// the choice whose best one-step deviation gains the mover least, Gain expected pairs. Under a
// pass rule (two-known, always) Passes is the pass streak, the seats that passed in a row just
// before the turn; under pass rule never it is 0.
type SelfishGap[T any] struct {
	State  rules.State
	Passes int
	Choice rules.Choice
	Gain   T
}

// SelfishGaps lists, in order of n then j (then the pass streak), the states with at most maxPairs
// pairs of model m in which the optimum of players seats (3 to 8) has no stationary equilibrium in
// pure choices.
// Perfect memory has none: only a forgotten card makes a state refer to itself.
func SelfishGaps[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int) ([]SelfishGap[T], error) {
	if players < 3 || players > rules.MaxPlayers {
		return nil, fmt.Errorf("players %d: the optimum of every seat for itself needs 3 to %d", players, rules.MaxPlayers)
	}
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return nil, err
	}
	var out []SelfishGap[T]
	err = w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N > 0 && w.streak != nil {
			for k, g := range w.streak.gap {
				if f.Cmp(g, w.zero) > 0 {
					out = append(out, SelfishGap[T]{State: st, Passes: k, Choice: w.streak.choice[k], Gain: g})
				}
			}
			return nil
		}
		if st.N > 0 && f.Cmp(w.selfGap, w.zero) > 0 {
			out = append(out, SelfishGap[T]{State: st, Choice: w.selfChoice, Gain: w.selfGap})
		}
		return nil
	})
	return out, err
}

// SelfishTable computes the strategy table of the optimum of every seat for itself at players
// seats (3 to 8) in model m, for every state with at most maxPairs pairs and at least one pair,
// calling visit for each in order of n, then j, then f: the mover's expected pairs (Value) and
// every seat's, in order from the mover (BySeat), each legal choice's made once with the optimum
// afterwards (ChoiceValue), the choices that give the mover the most (Best), the optimum's choice
// (Choice, which in a state without an equilibrium in pure choices is not among Best: see
// SelfishGaps) and the code comparing daring with safe. The cell passed to visit is reused, and
// so is BySeat: copy what must outlive the call. Under a pass rule (two-known, always) each state
// is visited once for every pass streak, 0 to players-1 (TableCell.Passes).
func SelfishTable[T any](ctx context.Context, f field.Field[T], m Model, players, maxPairs int, visit func(*TableCell[T]) error) error {
	if players < 3 || players > rules.MaxPlayers {
		return fmt.Errorf("players %d: the optimum of every seat for itself needs 3 to %d", players, rules.MaxPlayers)
	}
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return err
	}
	var tc TableCell[T]
	return w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		if w.streak != nil {
			return w.visitStreaks(st, &tc, visit)
		}
		tc.State, tc.Value, tc.Legal, tc.Choice = st, w.at(st).self[0], w.legal, w.selfChoice
		tc.BySeat = w.at(st).self
		tc.Best = tc.Best[:0]
		for _, ch := range rules.Choices() {
			if w.legal[ch] && ch != rules.Pass {
				tc.ChoiceValue[ch] = w.selfDev[ch]
			}
			if w.optBest[ch] {
				tc.Best = append(tc.Best, ch)
			}
		}
		tc.Code = CodeEqual
		if rules.HasDecision(st) && w.legal[rules.Safe] {
			switch f.Cmp(w.selfDev[rules.Daring], w.selfDev[rules.Safe]) {
			case 1:
				tc.Code = CodeDaring
			case -1:
				tc.Code = CodeSafe
			}
		}
		return visit(&tc)
	})
}

// SeatLineup returns the lineup of len(policies) seats in which seat i plays policies[i]: each
// one of optimal (with three or more players, every seat's own optimum), safe, daring or parity.
// When every seat after the first plays one policy it is the lineup of Policy and Opponent, so
// that it equals the lineup written with them.
func SeatLineup(policies ...rules.Policy) Lineup {
	mu := Lineup{Players: len(policies)}
	if len(policies) == 0 {
		return mu
	}
	mu.Policy, mu.Opponent = policies[0], policies[0]
	if len(policies) > 1 {
		mu.Opponent = policies[1]
	}
	for i, p := range policies {
		if i < len(mu.Seats) {
			mu.Seats[i] = p
		}
		if i > 1 && p != mu.Opponent {
			mu.PerSeat = true
		}
	}
	if len(policies) > len(mu.Seats) {
		mu.PerSeat = true // refused by Validate
	}
	return mu
}

// SeatPolicies returns every seat's policy, seat 0's first: Seats with PerSeat, otherwise Policy
// and then Opponent at every other seat (tables are not policies: a seat that plays one is
// reported with the policy it replaces).
func (mu Lineup) SeatPolicies() []rules.Policy {
	out := make([]rules.Policy, 0, mu.Players)
	for i := range mu.Players {
		switch {
		case mu.PerSeat && i < len(mu.Seats):
			out = append(out, mu.Seats[i])
		case i == 0:
			out = append(out, mu.Policy)
		default:
			out = append(out, mu.Opponent)
		}
	}
	return out
}

// validateSeats is Lineup.Validate for a lineup with a policy per seat: three to eight seats, no
// tables, and at every seat optimal or a fixed policy open in the model's choices.
func (mu Lineup) validateSeats(m Model) error {
	switch {
	case mu.Players < 3:
		return fmt.Errorf("a policy per seat needs 3 to %d players, not %d", rules.MaxPlayers, mu.Players)
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("a policy per seat is not combined with tables")
	}
	if err := m.Choices.Validate(); err != nil {
		return err
	}
	for i, p := range mu.Seats[:mu.Players] {
		if p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("seat %d: policy %s: with a policy per seat each is optimal, safe, daring or parity", i, p)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// playsOptimal reports whether a seat of the lineup plays the optimal policy.
func (mu Lineup) playsOptimal() bool {
	if mu.PerSeat {
		for _, p := range mu.Seats[:min(mu.Players, len(mu.Seats))] {
			if p == rules.PolicyOptimal {
				return true
			}
		}
		return false
	}
	pol := mu.roles()
	return pol[0] == rules.PolicyOptimal || pol[1] == rules.PolicyOptimal
}

// isSelfish reports whether every seat of a lineup of three or more plays its own optimum.
func isSelfish(mu Lineup) bool {
	pol := mu.roles()
	return mu.Players >= 3 && !mu.TwoPlayerOptimal && !mu.PerSeat &&
		pol[0] == rules.PolicyOptimal && pol[1] == rules.PolicyOptimal
}

// selfChoiceValue returns every seat's expected pairs, in order from the mover, in the last state
// st of a sweep of every seat for itself after the mover's legal choice c, the optimum played
// afterwards (also by the next seat, should the turn come back to st).
func (w *sweep[T]) selfChoiceValue(st rules.State, c rules.Choice) []T {
	f := w.f
	a, b := w.selfSum(st, c)
	back := w.rotate(w.at(st).self)
	for s := range a {
		a[s] = f.Add(a[s], f.Mul(b, back[s]))
	}
	return a
}

// addOutcome adds to vec pr times every seat's expected pairs after outcome o of seat t's turn,
// next being the seat after t: the mover's vector where it keeps the move (with the pairs it
// took), the next seat's where the turn passes (with the pairs it takes first).
func (w *sweep[T]) addOutcome(vec []T, pr T, o Outcome, t, next int) {
	mover, gain := next, o.NextGain
	if o.Continue {
		mover, gain = t, o.MoverGain
	}
	w.addSeats(vec, pr, w.at(o.Next).seats[mover], mover, gain)
}

// addSeats adds pr times the seats' vector succ, with gain pairs more for seat mover, to vec.
func (w *sweep[T]) addSeats(vec []T, pr T, succ []T, mover, gain int) {
	f := w.f
	for s := range vec {
		v := succ[s]
		if s == mover {
			v = f.Add(v, w.ints[gain])
		}
		vec[s] = f.Add(vec[s], f.Mul(pr, v))
	}
}
