package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A turn limit in the copies model under a shared handover-uniform memory (copiesmem.go;
// docs/models.md §4.16, "A handover-uniform memory", and §4.18), two seats, every pass rule. A
// cell of the model gains the turns left, t. Every turn uses one: a turn that takes a pair, one
// that hands the move over (the next seat then takes the pair the turn left known whole, if any,
// in a turn of its own, taken only when one is left, as in the perfect-memory copies model) and a
// pass. A pass just after a pass ends the game in a stalemate at any t, the pairs left shared
// equally; with t = 0 the game is over and the pairs left count for nobody. So every cell refers
// to cells with fewer turns left only: the values follow layer by layer from t = 1 up, with no
// system to solve. Each layer holds, for the optimum's self-play and for each role of the
// lineup, the mover's lead and the pairs both seats take by the limit (a stalemate's share
// included), and the choice; optimal and best-response take the largest lead, the first of the
// best in the order of rules.Choices.

// cmLimit solves the turn-limited copies model under a handover-uniform memory over the cells
// copiesMemSolver explored: layers[t][i] is cell i's values with t turns left, t = 0 .. limit.
type cmLimit[T any] struct {
	s      *copiesMemSolver[T]
	limit  int
	pol    [2]rules.Policy
	layers [][]limitRoleVals[T]
}

// checkCopiesMemLimit reports whether the turn-limited copies model under a handover-uniform
// memory solves mu: two seats (checkCopiesMemPolicies says which policies).
func checkCopiesMemLimit(m Model, mu Lineup) error {
	if mu.Players == 1 {
		return fmt.Errorf("copies %d with %s, turn limit %d: solitaire has no exact model under a turn limit (two seats have)", m.Variant.CopiesOf(), m.Memory, m.Variant.TurnLimit)
	}
	return nil
}

// newCMLimit explores the cells a game from st reaches and solves them with every number of
// turns left up to the model's limit.
func newCMLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (*cmLimit[T], error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("copies %d with %s: no turn limit to solve layers for", m.Variant.CopiesOf(), m.Memory)
	}
	var s *copiesMemSolver[T]
	if isCopiesDecay(m) {
		d, err := newCopiesDecaySolver(ctx, f, m, mu, st) // copiesdecaylimit.go
		if err != nil {
			return nil, err
		}
		s = d.copiesMemSolver
	} else {
		var err error
		if s, err = newCopiesMemSolver(ctx, f, m, mu, st); err != nil {
			return nil, err
		}
	}
	return newCMLimitOver(s, m.Variant.TurnLimit)
}

// newCMLimitOver solves the cells s explored with every number of turns left up to limit, for
// s's lineup.
func newCMLimitOver[T any](s *copiesMemSolver[T], limit int) (*cmLimit[T], error) {
	mu := s.mu
	l := &cmLimit[T]{s: s, limit: limit, pol: [2]rules.Policy{mu.Policy, mu.Opponent}}
	if err := l.run(); err != nil {
		return nil, err
	}
	return l, nil
}

// run computes the layers: layer 0 is all zeros, every later one reads the earlier ones only.
func (l *cmLimit[T]) run() error {
	s := l.s
	zero := zeroLimitRoleVals(s.zero)
	l.layers = make([][]limitRoleVals[T], l.limit+1)
	vals := func(v *limitRoleVals[T]) *limitRoleVals[T] { return v }
	readOpt, readRoles := limitReader(l.layers, true, vals), limitReader(l.layers, false, vals)
	for t := range l.layers {
		if err := stoppedAtTurnsLeft(s.ctx, t); err != nil {
			return err
		}
		layer := make([]limitRoleVals[T], len(s.cells))
		l.layers[t] = layer
		for i, c := range s.cells {
			layer[i] = zero
			if t == 0 || c.stalemate || unknownCards(c.v) == 0 {
				continue
			}
			fixed := func(r int) (rules.Choice, error) { return fixedChoiceOf(c, l.pol[r]), nil }
			if err := layer[i].fill(s.f, &c.legal, l.pol, fixed, readOpt, readRoles, func(y rules.Choice, read func(j, u, r int) (T, T), r int) (T, T) {
				return l.choice(c, t, y, read, r)
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// limitOutcome returns the lead of role r's mover and the pairs both seats take by the limit
// after a turn with t turns left that ends in cell to: keep says the mover took a pair and moves
// again; otherwise the next seat first takes the handed pairs the turn left known whole, each in a
// turn of its own while turns are left. read(cell, turns left, role to move) gives the values of
// the cells. The turn-limit layers of the handover-uniform copies and singletons models share it.
func limitOutcome[T any](f field.Field[T], keep bool, handed, to, t, r int, read func(j, u, r int) (T, T)) (T, T) {
	if keep {
		one := f.FromInt(1)
		a, b := read(to, t-1, r)
		return f.Add(one, a), f.Add(one, b)
	}
	g := int64(min(handed, t-1))
	a, b := read(to, t-1-int(g), 1-r)
	return f.Sub(f.FromInt(-g), a), f.Add(f.FromInt(g), b)
}

// bestLimitChoice returns the largest lead value(y) gives over the legal choices y, the pairs
// both seats take with it, and the choice (the first of the best in the order of rules.Choices).
// The turn-limit layers of the handover-uniform copies and singletons models share it.
func bestLimitChoice[T any](f field.Field[T], legal *[rules.NumChoices]bool, value func(rules.Choice) (T, T)) (T, T, rules.Choice) {
	var lead, total T
	ch, have := rules.Daring, false
	for _, y := range rules.Choices() {
		if !legal[y] {
			continue
		}
		a, b := value(y)
		if !have || f.Cmp(a, lead) > 0 {
			lead, total, ch, have = a, b, y, true
		}
	}
	return lead, total, ch
}

// limitRoleVals are one cell's values with some turns left in a two-seat turn-limit sweep (the
// handover-uniform copies and singletons models, and singletons under a fluctuating capacity):
// the optimum's self-play (both seats maximising their lead) and each role's lead, the pairs both
// seats take by the limit and the choice.
type limitRoleVals[T any] struct {
	opt, optTotal T
	optChoice     rules.Choice
	lead, total   [2]T
	ch            [2]rules.Choice
}

// zeroLimitRoleVals returns the values of a cell with no turn or no pair left.
func zeroLimitRoleVals[T any](z T) limitRoleVals[T] {
	return limitRoleVals[T]{opt: z, optTotal: z, lead: [2]T{z, z}, total: [2]T{z, z}}
}

// fill computes a cell's values: value(y, read, r) is the lead of role r's mover making the legal
// choice y and the pairs both seats take, reading the values of the cells it leads to with
// read(cell, turns left, role to move), readOpt for the optimum's self-play and readRoles for the
// lineup's roles. An optimal role plays the optimum's choice, a best-response role the largest
// lead of its own (bestLimitChoice), another policy fixed(r).
func (x *limitRoleVals[T]) fill(f field.Field[T], legal *[rules.NumChoices]bool, pol [2]rules.Policy, fixed func(r int) (rules.Choice, error),
	readOpt, readRoles func(j, u, r int) (T, T), value func(y rules.Choice, read func(j, u, r int) (T, T), r int) (T, T)) error {
	x.opt, x.optTotal, x.optChoice = bestLimitChoice(f, legal, func(y rules.Choice) (T, T) { return value(y, readOpt, 0) })
	for r, p := range pol {
		ch := x.optChoice
		switch p {
		case rules.PolicyBestResponse:
			x.lead[r], x.total[r], x.ch[r] = bestLimitChoice(f, legal, func(y rules.Choice) (T, T) { return value(y, readRoles, r) })
			continue
		case rules.PolicyOptimal:
		default:
			var err error
			if ch, err = fixed(r); err != nil {
				return err
			}
		}
		x.lead[r], x.total[r] = value(ch, readRoles, r)
		x.ch[r] = ch
	}
	return nil
}

// limitReader returns how a choice reads the layers' values of the cells it leads to: read(cell,
// turns left, role to move) of the optimum's self-play (self) or of the lineup's roles; vals(i)
// is layer i's values of a cell.
func limitReader[V any, T any](layers [][]V, self bool, vals func(v *V) *limitRoleVals[T]) func(j, u, r int) (T, T) {
	if self {
		return func(j, u, _ int) (T, T) {
			y := vals(&layers[u][j])
			return y.opt, y.optTotal
		}
	}
	return func(j, u, r int) (T, T) {
		y := vals(&layers[u][j])
		return y.lead[r], y.total[r]
	}
}

// choice returns the lead of role r's mover making the legal choice ch in c with t turns left,
// and the pairs both seats take by the limit, reading the values of the cells it leads to with
// read(cell, turns left, role to move).
func (l *cmLimit[T]) choice(c *cmCell[T], t int, ch rules.Choice, read func(j, u, r int) (T, T), r int) (T, T) {
	s := l.s
	f := s.f
	if ch == rules.Pass {
		switch {
		case c.after(): // the stalemate: the pairs left shared equally
			return s.zero, f.FromInt(int64(c.pairs))
		case t == 1: // the pass uses the last turn
			return s.zero, s.zero
		}
		// The other seat moves just after the pass, in the state the hand-over left (under a
		// decay memory one of several).
		lead, total := s.zero, s.zero
		for i, o := range c.outs[ch] {
			a, b := read(o.to, t-1, 1-r)
			p := c.probs[ch][i]
			lead, total = f.Sub(lead, f.Mul(p, a)), f.Add(total, f.Mul(p, b))
		}
		return lead, total
	}
	lead, total := s.zero, s.zero
	for i, o := range c.outs[ch] {
		a, b := limitOutcome(f, o.keep, o.handed, o.to, t, r, read)
		p := c.probs[ch][i]
		lead, total = f.Add(lead, f.Mul(p, a)), f.Add(total, f.Mul(p, b))
	}
	return lead, total
}

// result reads the lineup's value from the start cell with the limit's turns left.
func (l *cmLimit[T]) result(st CopiesState) Result[T] {
	f := l.s.f
	x := l.layers[l.limit][0]
	return Result[T]{State: st.RulesState(), Players: 2, ExpectedLead: x.lead[0],
		ExpectedPairs: cmLimitPairs(f, x.lead[0], x.total[0], 0),
		PairsBySeat:   []T{cmLimitPairs(f, x.lead[0], x.total[0], 0), cmLimitPairs(f, x.lead[0], x.total[0], 1)}}
}

// cmLimitPairs returns seat s's pairs (0: the mover's) of a lead and the pairs both seats take.
func cmLimitPairs[T any](f field.Field[T], lead, total T, s int) T {
	if s == 0 {
		return f.Div(f.Add(total, lead), f.FromInt(2))
	}
	return f.Div(f.Sub(total, lead), f.FromInt(2))
}

// evaluateCopiesMemLimit is evaluateCopiesMem under a turn limit.
func evaluateCopiesMemLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Result[T], error) {
	l, err := newCMLimit(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	return l.result(st), nil
}

// copiesMemLimitChoiceValues is copiesMemChoiceValues under a turn limit: each legal choice's
// lead and pairs with the limit's turns left, the lineup played afterwards; the best are the
// largest lead's.
func copiesMemLimitChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Choices[T], error) {
	l, err := newCMLimit(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	c, t := l.s.cells[0], l.limit
	out := Choices[T]{State: st.RulesState(), Value: l.result(st), PolicyChoice: l.layers[t][0].ch[0]}
	read := func(j, u, r int) (T, T) {
		y := l.layers[u][j]
		return y.lead[r], y.total[r]
	}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		lead, total := l.choice(c, t, ch, read, 0)
		cv := ChoiceValue[T]{Choice: ch, Lead: lead, Pairs: cmLimitPairs(f, lead, total, 0)}
		cv.PairsBySeat = []T{cv.Pairs, cmLimitPairs(f, lead, total, 1)}
		out.Values = append(out.Values, cv)
	}
	markBest(f, &out, 2)
	return out, nil
}

// CopiesMemPolicyTurnTables returns, under the turn limit T of the copies model under a shared
// handover-uniform memory m (docs/models.md §4.16, "A handover-uniform memory"), two seats and
// every pass rule, the choices of seat 0's policy of mu (optimal, or best-response to the other
// seat's optimal, safe or daring) with each number of turns left: layers[t-1] holds those with t
// turns left, t = 1 .. T, in every state of faces a game of the given number of pairs reaches
// from its start (with seat 0's choice just after a pass), and so in every smaller game's. The
// engine plays optimal and best-response from them (rules.NewTurnChoiceTable of
// rules.NewCopiesChoiceTable layers). Each choice is the first of the largest lead in the order
// of rules.Choices.
func CopiesMemPolicyTurnTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if !isCopiesMem(m) {
		return nil, fmt.Errorf("copies %d with %s: not the copies model under a handover-uniform memory (see CopiesPolicyTurnTables)", k, m.Memory)
	}
	return copiesLimitTurnTables(ctx, f, m, mu, pairs)
}

// copiesLimitTurnTables returns the layers of CopiesMemPolicyTurnTables and
// CopiesDecayPolicyTurnTables, the memory m's.
func copiesLimitTurnTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if p := mu.Policy; p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
		return nil, fmt.Errorf("copies %d with %s: a table of policy %s (allowed: optimal, best-response)", k, m.Memory, p)
	}
	if mu.Players != 2 {
		return nil, fmt.Errorf("copies %d with %s, turn limit %d: a table for %d players (allowed: 2)", k, m.Memory, m.Variant.TurnLimit, mu.Players)
	}
	start, err := StartCopiesState(pairs, k)
	if err != nil {
		return nil, err
	}
	l, err := newCMLimit(ctx, f, m, mu, start)
	if err != nil {
		return nil, err
	}
	out := make([]*rules.CopiesTable, l.limit)
	for t := 1; t <= l.limit; t++ {
		tab := rules.NewCopiesTable(k)
		for i, c := range l.s.cells {
			if c.stalemate || unknownCards(c.v) == 0 {
				continue
			}
			// setMemTable reads the cell's choice of role 0: this layer's.
			c2 := *c
			c2.ch[0] = l.layers[t][i].ch[0]
			if err := setMemTable(tab, m, &c2); err != nil {
				return nil, err
			}
		}
		out[t-1] = tab
	}
	return out, nil
}
