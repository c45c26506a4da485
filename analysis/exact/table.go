package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Decision codes of a strategy table, as in Sjölund & Åstrand: the daring move against the safe
// move in one state, optimal play afterwards.
const (
	CodeSafe   = 0 // the safe move is better
	CodeDaring = 1 // the daring move is better
	CodeEqual  = 2 // they are equal, or there is no choice to make
)

// TableCell is one state of a strategy table (two players, both optimal).
type TableCell[T any] struct {
	State rules.State
	// Value is the mover's expected pairs with optimal play.
	Value T
	// Code compares daring with safe in this state, optimal play within the model's choice set
	// afterwards (CodeSafe, CodeDaring, or CodeEqual where they tie or safe is not open).
	Code int
	// Best lists the optimal choices, in the order daring, safe, known-first, pass.
	Best []rules.Choice
	// Choice is the optimal policy's choice: the first of Best.
	Choice rules.Choice
	// TurnsLeft is, under a turn limit, the turns left in the cell (its values count the pairs
	// taken within them, and its choices are compared by the mover's lead); 0 without a limit.
	TurnsLeft int
	// Legal says which choices are open; ChoiceValue gives each legal choice's expected pairs for
	// the mover, the choice made here and optimal play afterwards.
	Legal       [rules.NumChoices]bool
	ChoiceValue [rules.NumChoices]T
	// Passes is the number of seats that passed in a row just before the turn, for the optimum of
	// every seat for itself under a pass rule (SelfishTable); 0 elsewhere.
	Passes int
	// BySeat is every seat's expected pairs, in order from the mover (whose entry is Value), in a
	// table of every seat for itself (SelfishTable); nil elsewhere.
	BySeat []T
	// AfterPass says that the optimum just after a pass by the other seat has values of its own
	// (decay forgetting under pass rule two-known or always): BestAfterPass lists its optimal
	// choices there and ValueAfterPass the mover's expected pairs. Value, Best and Choice are
	// those without a pass just made.
	AfterPass      bool
	BestAfterPass  []rules.Choice
	ValueAfterPass T
}

// Table computes the two-player optimal strategy table of model m for every state with at most
// maxPairs pairs and at least one pair, calling visit for each in order of n, then j, then f. The
// cell passed to visit is reused: copy what must outlive the call.
//
// Under a turn limit the table has a layer of cells per number of turns left, 1 to the limit,
// visited in order of the turns left, then n, j and f (limitTable).
func Table[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int, visit func(*TableCell[T]) error) error {
	if m.Variant.TurnLimit > 0 {
		return limitTable(ctx, f, m, maxPairs, visit)
	}
	w, err := tableSweep(f, m, maxPairs)
	if err != nil {
		return err
	}
	var tc TableCell[T]
	return w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		tc.State = st
		tc.Value = w.pairsAt(st)
		tc.Legal = w.legal
		tc.Best = tc.Best[:0]
		for _, ch := range rules.Choices() {
			if w.legal[ch] {
				tc.ChoiceValue[ch] = w.choicePairs(st, ch, tc.Value)
			}
			if w.optBest[ch] {
				tc.Best = append(tc.Best, ch)
			}
		}
		tc.Choice = w.optChoice
		tc.AfterPass, tc.BestAfterPass = w.hasAfter, tc.BestAfterPass[:0]
		if w.hasAfter {
			f := w.f
			tc.ValueAfterPass = f.Div(f.Add(f.FromInt(int64(st.N)), w.at(st).optAfterPass), f.FromInt(2))
			for _, ch := range rules.Choices() {
				if w.optBestAfter[ch] {
					tc.BestAfterPass = append(tc.BestAfterPass, ch)
				}
			}
		}
		tc.Code = CodeEqual
		if rules.HasDecision(st) && w.legal[rules.Safe] {
			switch w.cmpDaringSafe() {
			case 1:
				tc.Code = CodeDaring
			case -1:
				tc.Code = CodeSafe
			}
		}
		return visit(&tc)
	})
}

// tableSweep returns the sweep Table runs.
func tableSweep[T any](f field.Field[T], m Model, maxPairs int) (*sweep[T], error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return nil, err
	}
	w.needOpt, w.needDev = true, true
	return w, nil
}

// startOf is the state a sweep of every state of model m up to maxPairs pairs is checked with:
// every pair and every singleton unknown.
func startOf(m Model, maxPairs int) rules.State {
	return rules.State{N: maxPairs, J: maxPairs, S: m.Singletons, F: m.Singletons}
}

// ScoreDistribution is the exact distribution of seat 0's final share of the pairs on the table in
// a two-player matchup. Shares are whole or half pairs: a stalemate splits what is left. Under a
// turn limit the pairs left at the limit count for nobody, so the two seats' shares need not add
// up to the n pairs, and Win, Draw and Loss compare the pairs each seat has taken by then.
type ScoreDistribution[T any] struct {
	State rules.State
	// Prob[i] is the probability that seat 0 collects i/2 of the n remaining pairs, i = 0..2n.
	Prob []T
	// Prob1 is seat 1's distribution as Prob is seat 0's, under a turn limit (nil without one:
	// the shares add up to n, so seat 1's is Prob reversed; see SeatProb).
	Prob1 []T
	// Win, Draw and Loss are the probabilities that seat 0 ends the game ahead, level or behind:
	// that its lead so far (State.Lead) plus its lead in the remaining pairs is positive, zero or
	// negative.
	Win, Draw, Loss T
}

// addResult adds probability p to seat 0's win, draw or loss by the sign of its final lead.
func (d *ScoreDistribution[T]) addResult(f field.Field[T], p T, lead int) {
	switch {
	case lead > 0:
		d.Win = f.Add(d.Win, p)
	case lead == 0:
		d.Draw = f.Add(d.Draw, p)
	default:
		d.Loss = f.Add(d.Loss, p)
	}
}

// SeatProb returns the distribution of seat s's share (0 or 1), indexed as Prob: Prob for seat 0;
// for seat 1 Prob1, or without it Prob reversed.
func (d ScoreDistribution[T]) SeatProb(s int) []T {
	switch {
	case s == 0:
		return d.Prob
	case d.Prob1 != nil:
		return d.Prob1
	}
	out := make([]T, len(d.Prob))
	for i, p := range d.Prob {
		out[len(out)-1-i] = p
	}
	return out
}

// HasScoreDistribution reports whether the two-seat matchup mu in model m has an exact score
// distribution where it has exact values: every matchup but those solved for their means and
// choices only: under a fluctuating capacity and a turn limit, singletons, blind flips, and the
// policies that play to win with singletons.
func HasScoreDistribution(m Model, mu Lineup) bool {
	if m.Memory.Fluctuation > 0 && m.Variant.TurnLimit > 0 {
		return !IsFluctSingles(m) && m.Variant.Flips != rules.FlipsBlind && !(mu.playsToWin() && m.Singletons > 0)
	}
	return true
}

// Distribution returns the exact distribution of seat 0's final share in a two-player matchup.
// With more than two copies of a face it is computed from the start of a game only (st.J ==
// st.N, st.Lead == 0); CopiesDistribution computes it from any state of that model. Under a turn
// limit the limit is the turns left in st (limitdist.go).
func Distribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if IsFluctSingles(m) {
		return fluctSinglesDistribution(ctx, f, m, mu, st) // fluctsinglesdist.go
	}
	if m.Memory.Fluctuation > 0 {
		return fluctDistribution(ctx, f, m, mu, st)
	}
	if IsHUSingles(m) {
		return husDistribution(ctx, f, m, mu, st) // husinglesdist.go
	}
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		return copiesStartDistribution(ctx, f, m, mu, st)
	}
	if m.Variant.TurnLimit > 0 {
		return limitDistribution(ctx, f, m, mu, st)
	}
	w, err := distributionSweep(f, m, mu, st)
	if err != nil {
		return d, err
	}
	if err := w.run(ctx, st.N, nil); err != nil {
		return d, err
	}
	var lead []T
	if l := w.lead; l != nil {
		lead = l.at(st).dist[0][0][l.li(st.Lead)]
	} else {
		lead = w.at(st).dist[0]
	}
	d.State = st
	d.Prob = make([]T, 2*st.N+1)
	d.Win, d.Draw, d.Loss = w.zero, w.zero, w.zero
	for l := -st.N; l <= st.N; l++ {
		p := lead[l+w.maxPairs]
		d.Prob[st.N+l] = p
		d.addResult(f, p, st.Lead+l)
	}
	return d, nil
}

// distributionSweep returns the sweep Distribution runs: with a lead sweep when a role plays to
// win.
func distributionSweep[T any](f field.Field[T], m Model, mu Lineup, st rules.State) (*sweep[T], error) {
	if mu.Players != 2 {
		return nil, fmt.Errorf("players %d: the score distribution is computed for 2 players", mu.Players)
	}
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return nil, err
	}
	if mu.playsToWin() {
		newLeadSweep(w, st.N).needDist = true
	} else {
		w.needPair, w.needDist = true, true
	}
	return w, nil
}

// distribution computes the lead distributions of the two roles in st, with the same equations
// as pair: continuing shifts the mover's own distribution by its gain, handing over mirrors the
// next seat's distribution, and a stalemate is a lead of 0.
func (w *sweep[T]) distribution(st rules.State, c *cell[T]) {
	size := 2*w.maxPairs + 1
	delta := w.zeros(size)
	delta[w.maxPairs] = w.one
	sum := func(role int, ch rules.Choice) ([]T, T) {
		return w.distSum(st, ch, func(o Outcome) []T { return w.at(o.Next).dist[role] },
			func(o Outcome) []T { return w.at(o.Next).dist[1-role] })
	}
	x := twoSeat(w, w.vectorSpace(func(v []T) []T { return reversed(v, size) }), w.zeros(size), [2][]T{delta, delta}, w.pairChoices(st, w.brChoice), sum)
	c.dist = [2][]T{x[0], x[2]}
}

// PolicyTable writes out the choices of seat 0's policy in matchup mu (seat 0 playing mu.Policy
// against mu.Opponent) in model m, for every state with at most maxPairs pairs, so that a
// card-level player can follow it. The optimal policy is the two-player optimum (also for more
// players, where the solver defines it so) or, with one player, the choice that minimises the
// expected number of turns; best response records its choice after a pass by the previous seat
// separately; the optimum of every seat for itself under a pass rule records its choice after every
// number of passes in a row (rules.NewPassChoiceTable); fixed policies are written out as
// rules.FixedChoiceTable does; a table seat 0 is given (mu.Table) is returned as it is.
//
// Under a turn limit the table has a choice for every number of turns left (limit.go).
func PolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if IsHUSingles(m) {
		return husPolicyTable(ctx, f, m, mu, maxPairs) // husingles.go
	}
	if isSelfWinLimit(m, mu) {
		return selfWinLimitPolicyTable(ctx, f, m, mu, maxPairs) // selfishwinlimit.go
	}
	if selfWinMixed(mu) || winReplyLimited(m, mu) {
		return selfWinMixedPolicyTable(ctx, f, m, mu, maxPairs)
	}
	if isSelfWin(mu) {
		if err := mu.Validate(m); err != nil {
			return nil, err
		}
		return SelfWinPolicyTable(ctx, f, m, mu.Players, maxPairs)
	}
	if m.Variant.TurnLimit > 0 {
		return limitPolicyTable(ctx, f, m, mu, maxPairs)
	}
	w, err := policyTableSweep(f, m, mu, maxPairs)
	switch {
	case err != nil:
		return nil, err
	case w == nil && mu.Table != nil:
		return mu.Table, nil
	case w == nil:
		return rules.FixedChoiceTable(mu.Policy, maxPairs, m.Singletons)
	case w.lead != nil:
		return winPolicyTable(ctx, w, maxPairs)
	}
	solo := mu.Players == 1
	t, err := rules.NewChoiceTable(maxPairs, m.Singletons)
	reply := mu.Policy == rules.PolicyBestResponse && mu.Players >= 3
	if (w.needSelf || reply) && w.streak != nil {
		t, err = rules.NewPassChoiceTable(maxPairs, m.Singletons, mu.Players)
	}
	if err != nil {
		return nil, err
	}
	err = w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		switch {
		case reply && w.streak != nil:
			// A best reply at three or more seats under a pass rule: a choice at every streak.
			for k, c := range w.streak.reply {
				t.SetPasses(st, k, c)
			}
		case w.needSelf && w.streak != nil:
			// Every seat for itself under a pass rule: a choice at every pass streak.
			for k, c := range w.streak.choice {
				t.SetPasses(st, k, c)
			}
		case mu.Policy == rules.PolicyBestResponse:
			t.Set(st, false, w.brChoice[0])
			t.Set(st, true, w.brChoice[1])
		case solo:
			t.Set(st, false, w.soloChoice)
			t.Set(st, true, w.soloChoice)
		default:
			t.Set(st, false, w.optimalChoice())
			t.Set(st, true, w.optimalAfterPass())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// policyTableSweep returns the sweep PolicyTable runs, or nil for a fixed policy, whose table
// needs none: with a lead sweep for a policy that plays to win.
func policyTableSweep[T any](f field.Field[T], m Model, mu Lineup, maxPairs int) (*sweep[T], error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if mu.Table != nil {
		if err := m.Validate(); err != nil {
			return nil, err
		}
		if err := mu.Validate(m); err != nil {
			return nil, err
		}
		return nil, mu.checkTables(m, startOf(m, maxPairs))
	}
	if mu.Policy.Fixed() {
		if err := m.Validate(); err != nil {
			return nil, err
		}
		return nil, mu.Policy.CheckChoices(m.Choices)
	}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return nil, err
	}
	// A best response to a table that depends on the lead depends on the lead too.
	if mu.Policy.PlaysToWin() || (mu.Policy == rules.PolicyBestResponse && mu.leadTable()) {
		newLeadSweep(w, maxPairs)
		return w, nil
	}
	w.needSolo = mu.Players == 1
	w.needPair = mu.Policy == rules.PolicyBestResponse && mu.Players == 2
	// At three or more seats the reply is made in the sweep of every seat's pairs (selfishreply.go).
	w.needMulti = mu.Policy == rules.PolicyBestResponse && mu.Players >= 3
	return w, nil
}

// Solitaire computes, for one player playing policy p (optimal: fewest expected turns) in model m,
// the expected number of turns and of lucky matches from every state with at most maxPairs pairs,
// calling visit for each in order of n, then j, then f.
func Solitaire[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, maxPairs int, visit func(st rules.State, turns, lucky T) error) error {
	if maxPairs < 1 {
		return fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	mu := Lineup{Players: 1, Policy: p, Opponent: p}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return err
	}
	w.needOpt = false
	w.needSolo = true
	return w.run(ctx, maxPairs, func(st rules.State) error {
		c := w.at(st)
		return visit(st, c.solo[0], c.solo[1])
	})
}

// winPolicyTable writes out the choices of seat 0's policy, which plays to win, for every state
// with at most maxPairs pairs and every lead (a table with a lead dimension).
func winPolicyTable[T any](ctx context.Context, w *sweep[T], maxPairs int) (*rules.ChoiceTable, error) {
	l := w.lead
	t, err := rules.NewLeadChoiceTable(maxPairs, w.m.Singletons, l.D)
	if err != nil {
		return nil, err
	}
	err = w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		c := l.at(st)
		for d := -l.D; d <= l.D; d++ {
			i := l.li(d)
			s := st
			s.Lead = d
			for g := range 2 {
				t.Set(s, g == 1, c.ch[0][g][i])
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// reversed returns v mirrored into a new slice of the given size: a distribution of the other
// seat's lead seen from the mover's side.
func reversed[T any](v []T, size int) []T {
	out := make([]T, size)
	for i := range v {
		out[size-1-i] = v[i]
	}
	return out
}

// distSum is the sum of twoSeat for lead distributions: continuing shifts the mover's own
// distribution own(o) by its gain, handing over mirrors the next seat's, other(o).
func (w *sweep[T]) distSum(st rules.State, ch rules.Choice, own, other func(o Outcome) []T) ([]T, T) {
	f := w.f
	size := 2*w.maxPairs + 1
	vec, b := w.zeros(size), w.zero
	for k, o := range w.outs[ch] {
		pr := w.probs[ch][k]
		if selfLoop(o, st) {
			b = f.Add(b, pr)
			continue
		}
		src, shift := own(o), o.MoverGain
		if !o.Continue {
			src, shift = reversed(other(o), size), -o.NextGain
		}
		for i := range vec {
			if j := i - shift; j >= 0 && j < size {
				vec[i] = f.Add(vec[i], f.Mul(pr, src[j]))
			}
		}
	}
	return vec, b
}
