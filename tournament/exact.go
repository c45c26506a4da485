package tournament

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// DistributionLimit is the largest deal size for which reports give the exact score distribution.
const DistributionLimit = 60

// ExactModel returns the exact model and matchup of a seating (tournament player indices in seat
// order) at n pairs, and false where the solver has none: every seat must be a player the solver
// can evaluate, all in one shared memory model with one choice set; with three or more seats
// every seat plays optimal (the optimum of every seat for itself, as its table does) or a fixed
// policy (exact.SeatLineup), or win-optimal at every seat or beside
// optimal and fixed policies (the win objective of every seat for itself, up to
// exact.SelfWinRationalLimitOf pairs, and a mixed lineup's estimated solve at most
// MixedWinSeconds); a policy that
// answers another is evaluated only against the policy it answers (at three or more seats, with
// that policy at every other seat); and n must be at most
// exact.RationalLimit
// (exact.FluctSelfishRationalLimit at three or more seats under a fluctuating capacity,
// exact.WinRationalLimit where a seat plays to win, exact.WinLimitRationalLimit under a turn
// limit, exact.DecayRationalLimit and exact.DecayWinRationalLimit under decay forgetting; with
// more than two copies of a face, the deal's count states, times the turn limit under one or the
// leads where a seat plays to win, at most exact.CopiesRationalStates: exact.CopiesCells,
// exact.CopiesWinCells).
func (t *Tournament) ExactModel(n int, seats []int) (exact.Model, exact.Lineup, bool) {
	var none exact.Model
	for _, id := range seats {
		e := t.Players[id].Exact
		if e == nil || n > t.modelOf(e).RationalLimit() || (e.Policy == rules.PolicyOptimal && n > t.modelOf(e).SeatsRationalLimit(len(seats))) ||
			fluctSeatsBeyondLimit(t.modelOf(e), len(seats), n) ||
			e.Memory != t.Players[seats[0]].Exact.Memory ||
			e.Choices != t.Players[seats[0]].Exact.Choices {
			return none, exact.Lineup{}, false
		}
	}
	e0 := t.Players[seats[0]].Exact
	mu := exact.Lineup{Players: len(seats), Policy: e0.Policy, Opponent: e0.Policy}
	if len(seats) > 2 {
		// Three or more seats: a policy per seat (optimal or fixed).
		pols := make([]rules.Policy, len(seats))
		for i, id := range seats {
			pols[i] = t.Players[id].Exact.Policy
		}
		mu = exact.SeatLineup(pols...)
		if !repliesToEveryOtherSeat(t, seats) {
			return none, exact.Lineup{}, false
		}
		if !mu.PerSeat && mu.Policy == rules.PolicyWinOptimal && mu.Opponent == rules.PolicyWinOptimal {
			// Every seat plays win-optimal: the win objective of every seat for itself.
			mu = exact.Lineup{Players: len(seats), Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		}
	} else if len(seats) > 1 {
		e1 := t.Players[seats[1]].Exact
		mu.Opponent = e1.Policy
		if (mu.Policy.Opponents() != nil && e0.Opponent != mu.Opponent) ||
			(mu.Opponent.Opponents() != nil && e1.Opponent != mu.Policy) {
			return none, exact.Lineup{}, false
		}
	}
	winLimit := t.modelOf(e0).WinRationalLimit()
	if t.Config.Rules.Variant.TurnLimit > 0 {
		winLimit = min(winLimit, exact.WinLimitRationalLimit)
	}
	if len(seats) > 2 {
		winLimit = exact.SelfWinRationalLimitOf(t.modelOf(e0))
	}
	if (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin() || mu.SelfWinMixed()) && n > winLimit {
		return none, exact.Lineup{}, false
	}
	model := t.modelOf(e0)
	if k := model.Variant.CopiesOf(); k != rules.DefaultCopies {
		// The copies model is solved in exact rationals up to a number of count states (times
		// the turns left under a turn limit).
		if s := exact.CopiesCells(n, k, model.Variant.TurnLimit); s < 0 || s > exact.CopiesRationalStates {
			return none, exact.Lineup{}, false
		}
		// A seat that plays to win: the count states times the leads they keep, or at three or
		// more seats times the standings and the pass streaks (exact.CopiesSelfWinLimitCells).
		if s := exact.CopiesWinCells(n, k, model.Variant.TurnLimit); len(seats) == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) && (s < 0 || s > exact.CopiesRationalStates) {
			return none, exact.Lineup{}, false
		}
		if s := exact.CopiesSelfWinLimitCells(n, k, len(seats), mu.SelfWinMixed(), model.Variant.TurnLimit, model.Pass); exact.IsCopiesSelfWin(model, mu) && (s < 0 || s > exact.CopiesSelfWinRationalCells) {
			return none, exact.Lineup{}, false
		}
		if model.Pass != rules.PassNever && exact.CheckCopies(model, mu) != nil {
			// Under two-known and always the copies model solves what CheckCopies accepts: two
			// players (the policies that play to win too) and three to eight seats, without a turn
			// limit.
			return none, exact.Lineup{}, false
		}
	}
	// A fluctuating capacity under a turn limit is validated by its matchups only.
	if (!fluctLimited(model) && model.Validate() != nil) || mu.Validate(model) != nil {
		return none, exact.Lineup{}, false
	}
	if mu.SelfWinMixed() {
		// Win-optimal beside other policies: the states once per mover's seat (winmixed.go).
		if c, err := exact.Estimate(model, mu, n, exact.Options{}); err != nil || c.Seconds() > MixedWinSeconds {
			return none, exact.Lineup{}, false
		}
	}
	return model, mu, true
}

// UnequalModel returns the game of two seats with private lru memories of different capacities,
// or a perfect memory against a private lru memory (docs/models.md §4.15), a seating (two
// tournament player indices in seat order) plays at n pairs, and false where it has none: both
// seats must be table players of optimal or a fixed policy with private lru memories of
// different capacities, or one with a perfect memory, and one choice set without known-first, in
// the standard game without singletons; n must be at most exact.RationalLimit, and the solve must
// be estimated to take at most UnequalSeconds.
func (t *Tournament) UnequalModel(n int, seats []int) (exact.Unequal, bool) {
	if len(seats) != 2 || n > exact.RationalLimit || t.Config.Rules.Singletons != 0 || !t.Config.Rules.Variant.Normal().Standard() {
		return exact.Unequal{}, false
	}
	u := exact.Unequal{Pass: t.Config.Rules.Pass}
	for i, id := range seats {
		e := t.Players[id].Exact
		if e == nil || e.Choices != t.Players[seats[0]].Exact.Choices {
			return exact.Unequal{}, false
		}
		switch m := e.Memory; {
		case m.Perfect():
			u.Capacity[i] = 0 // the unequal model's perfect memory
		case m.Forget == rules.ForgetLRU && m.Scope == rules.ScopePrivate && m.Fluctuation == 0:
			u.Capacity[i] = m.Capacity
		default:
			return exact.Unequal{}, false
		}
		u.Policy[i], u.Choices = e.Policy, e.Choices
	}
	if u.Capacity[0] == u.Capacity[1] || u.Validate() != nil || exact.EstimateUnequal(u, n, true).Seconds() > UnequalSeconds {
		return exact.Unequal{}, false
	}
	return u, true
}

// UnequalSeconds bounds the estimated time of the exact values of an unequal matchup
// (exact.EstimateUnequal): a matchup whose solve would take longer has none.
const UnequalSeconds = 30

// hasExact reports whether a seating at n pairs has an exact model, shared or unequal.
func (t *Tournament) hasExact(n int, seats []int) bool {
	if _, _, ok := t.ExactModel(n, seats); ok {
		return true
	}
	_, ok := t.UnequalModel(n, seats)
	return ok
}

// KeepExact drops the matches none of whose seat orders has an exact model.
func (t *Tournament) KeepExact() {
	var kept []Match
	for _, m := range t.Matches {
		for _, order := range m.Orders {
			if t.hasExact(m.Setup.Pairs, m.Seats(order)) {
				kept = append(kept, m)
				break
			}
		}
	}
	t.Matches = kept
}

// TableModels lists the exact models the tournament's table players play from, once each.
func (t *Tournament) TableModels() []exact.Model {
	return t.exactModels(func(*strategies.Exact) bool { return true })
}

// exactModels lists, once each, the valid exact models of the table players that keep accepts.
func (t *Tournament) exactModels(keep func(*strategies.Exact) bool) []exact.Model {
	var out []exact.Model
	for _, b := range t.Players {
		if b.Exact == nil || !keep(b.Exact) {
			continue
		}
		// A fluctuating capacity's table has a layer per capacity drawn: it is not drawn.
		if m := t.modelOf(b.Exact); m.Validate() == nil && m.Memory.Fluctuation == 0 && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// modelOf is the exact model a table player plays from under the tournament's rules. A private
// lru memory is read as a shared one: lru forgets nothing at random, so private lru memories of
// one capacity, which see the same cards, always hold the same cards, and a game where every seat
// has one is the shared lru game (docs/models.md §4.15); ExactModel asks every seat's memory to be
// the same.
func (t *Tournament) modelOf(e *strategies.Exact) exact.Model {
	v := t.Config.Rules.Variant.Normal()
	if v.Standard() {
		v = rules.Variant{}
	}
	mem := e.Memory
	if mem.Forget == rules.ForgetLRU && mem.Scope == rules.ScopePrivate && mem.Fluctuation == 0 {
		mem.Scope = rules.ScopeShared
	}
	return exact.Model{Pass: t.Config.Rules.Pass, Memory: mem, Singletons: t.Config.Rules.Singletons, Choices: e.Choices, Variant: v}
}

// exactKey identifies an exact evaluation: of a shared model, or of an unequal game.
type exactKey struct {
	model   exact.Model
	mu      exact.Lineup
	unequal exact.Unequal
	n       int
}

// exactCache keeps the exact values of the seatings evaluated so far.
type exactCache map[exactKey]*exact.Result[*big.Rat]

// values evaluates a seating with the exact solver where a model covers it: every seat's expected
// pairs as "p/q" (nil where there is no model), and for one player the expected turns.
func (c exactCache) values(ctx context.Context, t *Tournament, n int, seats []int) ([]*string, *string, error) {
	pairs := make([]*string, len(seats))
	model, mu, ok := t.ExactModel(n, seats)
	if !ok {
		u, ok := t.UnequalModel(n, seats)
		if !ok {
			return pairs, nil, nil
		}
		return c.unequalValues(ctx, u, n)
	}
	key := exactKey{model: model, mu: mu, n: n}
	res, ok := c[key]
	if !ok {
		st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
		r, err := exact.Evaluate(ctx, field.Rat{}, model, mu, st)
		if err != nil {
			return nil, nil, fmt.Errorf("exact value of %d pairs, %v: %w", n, mu, err)
		}
		res = &r
		c[key] = res
	}
	if len(seats) == 1 {
		s := fmt.Sprint(n)
		if model.Variant.TurnLimit > 0 {
			s = res.ExpectedPairs.RatString() // the pairs taken within the limit
		}
		pairs[0] = &s
		turns := res.ExpectedTurns.RatString()
		return pairs, &turns, nil
	}
	for i, v := range res.PairsBySeat {
		s := v.RatString()
		pairs[i] = &s
	}
	return pairs, nil, nil
}

// distribution returns the exact distribution of seat 0's share in a two-player seating, where
// the solver has a model of it and n is at most DistributionLimit, or nil. Under a turn limit it
// is the share taken by the limit, the pairs left counting for nobody. A matchup with exact means
// but no exact distribution (exact.HasScoreDistribution) has nil.
func (t *Tournament) distribution(ctx context.Context, n int, seats []int) ([]float64, error) {
	model, mu, ok := t.ExactModel(n, seats)
	if !ok || mu.Players != 2 || n > DistributionLimit || !exact.HasScoreDistribution(model, mu) {
		return nil, nil
	}
	st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
	d, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
	if err != nil {
		return nil, fmt.Errorf("exact distribution of %d pairs, %v: %w", n, mu, err)
	}
	return d.Prob, nil
}

// unequalMemory names a seat's memory in an unequal game: lru of capacity c, or perfect memory
// for 0.
func unequalMemory(c int) string {
	if c == 0 {
		return "perfect memory"
	}
	return fmt.Sprintf("lru(%d)", c)
}

// unequalValues is values for an unequal game.
func (c exactCache) unequalValues(ctx context.Context, u exact.Unequal, n int) ([]*string, *string, error) {
	key := exactKey{unequal: u, n: n}
	res, ok := c[key]
	if !ok {
		r, err := exact.EvaluateUnequal(ctx, field.Rat{}, u, n)
		if err != nil {
			return nil, nil, fmt.Errorf("exact value of %d pairs, %s against %s: %w", n, unequalMemory(u.Capacity[0]), unequalMemory(u.Capacity[1]), err)
		}
		res = &exact.Result[*big.Rat]{PairsBySeat: r.ExpectedPairs[:]}
		c[key] = res
	}
	pairs := make([]*string, 2)
	for i, v := range res.PairsBySeat {
		s := v.RatString()
		pairs[i] = &s
	}
	return pairs, nil, nil
}

// repliesToEveryOtherSeat reports whether every seat of a seating that plays a reply
// (best-response, win-best-response) faces the policy it answers at every other seat, as its
// table assumes.
func repliesToEveryOtherSeat(t *Tournament, seats []int) bool {
	for i, id := range seats {
		e := t.Players[id].Exact
		if e.Policy.Opponents() == nil {
			continue
		}
		for j, other := range seats {
			if j != i && t.Players[other].Exact.Policy != e.Opponent {
				return false
			}
		}
	}
	return true
}

// fluctLimited reports whether model m is a fluctuating capacity under a turn limit: the solver
// gives its two-seat matchups' values, not their score distributions, and validates it by its
// matchups (exact.Lineup.Validate), not by the model alone.
func fluctLimited(m exact.Model) bool { return m.Memory.Fluctuation > 0 && m.Variant.TurnLimit > 0 }
