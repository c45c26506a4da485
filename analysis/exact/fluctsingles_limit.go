package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A turn limit with singletons under a fluctuating handover-uniform capacity (fluctsingles.go;
// docs/models.md §4.4 and §4.18), two seats, every pass rule. The cells are those of the model
// without a limit, states after the draw (n, j, s, f, c) just after a pass or not, each turn's
// outcomes already expanded over the next turn's draw; a cell gains the turns left, t. Every turn
// uses one, as with a fixed capacity (husingles_limit.go): a turn that takes a pair, one that
// hands the move over (the next seat then takes the pair the turn left known whole, if any, in a
// turn of its own, taken only when one is left; that turn's draw forgets nothing, handover-uniform
// forgetting happening at hand-overs only) and a pass. A pass just after a pass ends the game in a
// stalemate at any t, the pairs left shared equally; with t = 0 the game is over and the pairs
// left count for nobody. So every cell refers to cells with fewer turns left only, and the values
// follow layer by layer from t = 1 up with the fixed capacity's helpers (limitOutcome,
// bestLimitChoice): for the optimum's self-play and each role of the lineup, the mover's lead, the
// pairs both seats take by the limit and the choice, the first of the largest lead.

// fsLimit solves the turn-limited model over the cells of an fsSolver: layers[t][i] is cell i's
// values with t turns left, t = 0 .. limit.
type fsLimit[T any] struct {
	s      *fsSolver[T]
	limit  int
	pol    [2]rules.Policy
	layers [][]limitRoleVals[T]
}

// newFSLimit builds the cells of every state with at most maxPairs pairs and solves them with
// every number of turns left up to the model's limit.
func newFSLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*fsLimit[T], error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("singletons %d with %s: no turn limit to solve layers for", m.Singletons, m.Memory)
	}
	s, err := newFSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	l := &fsLimit[T]{s: s, limit: m.Variant.TurnLimit, pol: [2]rules.Policy{mu.Policy, mu.Opponent}}
	if err := l.run(); err != nil {
		return nil, err
	}
	return l, nil
}

// readRoles reads a cell's values of role r to move with u turns left.
func (l *fsLimit[T]) readRoles(j, u, r int) (T, T) {
	y := &l.layers[u][j]
	return y.lead[r], y.total[r]
}

// run computes the layers: layer 0 is all zeros, every later one reads the earlier ones only.
func (l *fsLimit[T]) run() error {
	s := l.s
	zero := zeroLimitRoleVals(s.zero)
	l.layers = make([][]limitRoleVals[T], l.limit+1)
	readOpt := limitReader(l.layers, true, func(v *limitRoleVals[T]) *limitRoleVals[T] { return v })
	for t := range l.layers {
		if err := stoppedAtTurnsLeft(s.ctx, t); err != nil {
			return err
		}
		layer := make([]limitRoleVals[T], len(s.cells))
		l.layers[t] = layer
		for i, c := range s.cells {
			layer[i] = zero
			if t == 0 || c.key.st.N == 0 {
				continue
			}
			fixed := func(r int) (rules.Choice, error) {
				ch := l.pol[r].Decide(c.key.st)
				if !c.legal[ch] {
					return ch, fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", l.pol[r], ch, c.key.st)
				}
				return ch, nil
			}
			if err := layer[i].fill(s.f, &c.legal, l.pol, fixed, readOpt, l.readRoles, func(y rules.Choice, read func(j, u, r int) (T, T), r int) (T, T) {
				return l.choice(c, t, y, read, r)
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// choice returns the lead of role r's mover making the legal choice ch in c with t turns left,
// and the pairs both seats take by the limit, reading the values of the cells it leads to with
// read(cell, turns left, role to move).
func (l *fsLimit[T]) choice(c *fsCell[T], t int, ch rules.Choice, read func(j, u, r int) (T, T), r int) (T, T) {
	s := l.s
	f := s.f
	lead, total := s.zero, s.zero
	if ch == rules.Pass {
		switch {
		case c.key.after: // the stalemate: the pairs left shared equally
			return s.zero, f.FromInt(int64(c.key.st.N))
		case t == 1: // the pass uses the last turn
			return s.zero, s.zero
		}
		// The other seat moves just after the pass, in a state the hand-over left, with its draw.
		for _, a := range c.arcs[ch] {
			x, y := read(a.to, t-1, 1-r)
			lead, total = f.Sub(lead, f.Mul(a.p, x)), f.Add(total, f.Mul(a.p, y))
		}
		return lead, total
	}
	for _, a := range c.arcs[ch] {
		x, y := limitOutcome(f, a.keep, a.handed, a.to, t, r, read)
		lead, total = f.Add(lead, f.Mul(a.p, x)), f.Add(total, f.Mul(a.p, y))
	}
	return lead, total
}

// before returns role 0's lead and the pairs both seats take in st before the draw with the
// limit's turns left.
func (l *fsLimit[T]) before(st rules.State) (T, T) {
	f := l.s.f
	lead, total := l.s.zero, l.s.zero
	for _, d := range l.s.draws[st] {
		x := &l.layers[l.limit][d.to]
		lead, total = f.Add(lead, f.Mul(d.p, x.lead[0])), f.Add(total, f.Mul(d.p, x.total[0]))
	}
	return lead, total
}

// fsLimitResult returns the two-seat result of a lead and the pairs both seats take in st.
func fsLimitResult[T any](f field.Field[T], st rules.State, lead, total T) Result[T] {
	p0 := cmLimitPairs(f, lead, total, 0)
	return Result[T]{State: st, Players: 2, ExpectedLead: lead, ExpectedPairs: p0, PairsBySeat: []T{p0, cmLimitPairs(f, lead, total, 1)}}
}

// fsLimitStart checks st against m and returns the solved turn-limited model.
func fsLimitStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*fsLimit[T], error) {
	if err := fsCheckState(m, st); err != nil {
		return nil, err
	}
	return newFSLimit(ctx, f, m, mu, max(st.N, 1))
}

// evaluateFluctSinglesLimit is evaluateFluctSingles under a turn limit: the lineup's values in st
// before the draw, with the limit's turns left.
func evaluateFluctSinglesLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	l, err := fsLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	lead, total := l.before(st)
	return fsLimitResult(f, st, lead, total), nil
}

// fsLimitChoiceValues is fsChoiceValues under a turn limit: each legal choice's values in st with
// capacity c drawn and the limit's turns left (this turn included), just after a pass by the other
// seat (where the mover may pass) or not, the lineup played afterwards; the best are the largest
// lead's.
func fsLimitChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int, after bool) (Choices[T], error) {
	if st.N < 1 {
		return Choices[T]{}, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	if lo, hi := max(2, m.Memory.Capacity-m.Memory.Fluctuation), fluctMaxKnown(m.Memory); c < lo || c > hi {
		return Choices[T]{}, fmt.Errorf("capacity %d: %s draws %d to %d", c, m.Memory, lo, hi)
	}
	l, err := fsLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	s := l.s
	key := fsKey{st: st, c: min(c, fsTop(m, st.N))}
	if _, ok := s.drawsPass[st]; ok && after {
		key.after = true
	}
	i := s.at[key]
	cell, x := s.cells[i], &l.layers[l.limit][i]
	out := Choices[T]{State: st, Value: fsLimitResult(f, st, x.lead[0], x.total[0]), PolicyChoice: x.ch[0]}
	for _, ch := range rules.Choices() {
		if !cell.legal[ch] {
			continue
		}
		lead, total := l.choice(cell, l.limit, ch, l.readRoles, 0)
		r := fsLimitResult(f, st, lead, total)
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Lead: lead, Pairs: r.ExpectedPairs, PairsBySeat: r.PairsBySeat})
	}
	markBest(f, &out, 2)
	return out, nil
}

// fluctSinglesLimitTables is FluctLimitTables for singletons under a fluctuating handover-uniform
// capacity: layers[c-lo][t-1] holds seat 0's choices (optimal, or best-response to the other
// seat's policy) with capacity c drawn and t turns left in every state of at most maxPairs pairs,
// capacities from lo = max(2, m - σ) to the largest that binds in a deal of maxPairs pairs (larger
// ones read the last layer), each with the choices just after a pass under a pass rule.
func fluctSinglesLimitTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (int, [][]*rules.ChoiceTable, error) {
	l, err := newFSLimit(ctx, f, m, mu, maxPairs)
	if err != nil {
		return 0, nil, err
	}
	s := l.s
	lo := max(2, m.Memory.Capacity-m.Memory.Fluctuation)
	hi := max(lo, min(s.maxK, fsTop(m, maxPairs)))
	layers := make([][]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		layers[i] = make([]*rules.ChoiceTable, l.limit)
		for t := 1; t <= l.limit; t++ {
			tab, err := rules.NewChoiceTable(maxPairs, m.Singletons)
			if err != nil {
				return 0, nil, err
			}
			for n := 1; n <= maxPairs; n++ {
				for _, ci := range s.rows[n] {
					if cell := s.cells[ci]; cell.key.c == min(c, fsTop(m, n)) {
						s.fsTableSetChoice(tab, cell, l.layers[t][ci].ch[0]) // fluctsingles_pass.go
					}
				}
			}
			layers[i][t-1] = tab
		}
	}
	return lo, layers, nil
}

// estimateFluctSinglesLimit is estimateFluctSingles under a turn limit: every layer of turns left
// visits each cell once (up to 2(m+σ+1)(s+1) per capacity drawn in a row, twice under a pass
// rule) and each choice's outcomes over the next turn's draw, for the optimum and both roles,
// with no system to solve; every layer is kept.
func estimateFluctSinglesLimit[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if call != CallEvaluate && call != CallPolicyTable && call != CallTable {
		return Cost{}, fmt.Errorf("singletons %d with %s, turn limit %d: the solver gives a matchup's values, each choice's values after the draw and the engine's tables of optimal and best-response, not this computation", m.Singletons, m.Memory, m.Variant.TurnLimit)
	}
	if err := checkFluctSingles(m, mu); err != nil {
		return Cost{}, err
	}
	_, isFloat := any(f).(field.Float)
	maxK := fluctMaxKnown(m.Memory)
	var cells, work float64
	for n := 1; n <= pairs; n++ {
		caps := float64(len(fluctCapsTo(m.Memory, fsTop(m, n))))
		row := float64(min(n+m.Singletons, maxK)+1) * float64(m.Singletons+1) * caps
		if m.Pass != rules.PassNever {
			row *= 2
		}
		cells += row
		work += row * 4 * 8 * caps * 3
	}
	limit := float64(m.Variant.TurnLimit)
	ops := work * limit
	bytes := baseBytes + cells*limit*(7*8+64)
	if !isFloat {
		ops *= husRatWeight * float64(max(pairs, 1))
		bytes = baseBytes + gcHeadroom*cells*limit*7*(ratBytes+8*float64(pairs))
	}
	return Cost{Ops: ops, Bytes: bytes}, nil
}
