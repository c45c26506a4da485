package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A turn limit with singletons under a shared handover-uniform memory (husingles.go;
// docs/models.md §4.4, "Singletons under a handover-uniform memory", and §4.18), two seats under
// every pass rule, and solitaire. A cell of the model gains the turns left, t. Every turn uses
// one: a turn that takes a pair, one that hands the move over (the next seat then takes the pair
// the turn left known whole, if any, in a turn of its own, taken only when one is left) and a
// pass. A pass just after a pass ends the game in a stalemate at any t, the pairs left shared
// equally; with t = 0 the game is over and the pairs left count for nobody. A forgotten card
// leads to a state of the same size with a turn fewer, so every cell refers to cells with fewer
// turns left only: the values follow layer by layer from t = 1 up, with no system to solve (the
// unlimited model's rows are systems, husingles.go). Each layer holds, for the optimum's
// self-play and each role of the lineup, the mover's lead and the pairs both seats take by the
// limit (a stalemate's share included), and the choice; optimal and best-response take the
// largest lead, the first of the best in the order of rules.Choices. In solitaire a layer holds
// the expected pairs taken by the limit, the turns played and the lucky matches; optimal takes
// the most pairs and, among the choices that do, the fewest turns.

// husLimitVal is one cell's values with t turns left.
type husLimitVal[T any] struct {
	limitRoleVals[T]
	// solo is solitaire's expected pairs, turns and lucky matches by the limit.
	solo [3]T
}

// husLimit solves the turn-limited model over the cells of a husSolver: layers[t][i] is cell i's
// values with t turns left, t = 0 .. limit.
type husLimit[T any] struct {
	s      *husSolver[T]
	limit  int
	pol    [2]rules.Policy
	layers [][]husLimitVal[T]
}

// newHUSLimit builds the cells of every state with at most maxPairs pairs and solves them with
// every number of turns left up to the model's limit.
func newHUSLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*husLimit[T], error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("singletons %d with %s: no turn limit to solve layers for", m.Singletons, m.Memory)
	}
	s, err := newHUSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	l := &husLimit[T]{s: s, limit: m.Variant.TurnLimit, pol: [2]rules.Policy{mu.Policy, mu.Opponent}}
	if err := l.run(); err != nil {
		return nil, err
	}
	return l, nil
}

// run computes the layers: layer 0 is all zeros, every later one reads the earlier ones only.
func (l *husLimit[T]) run() error {
	s := l.s
	z := s.zero
	zero := husLimitVal[T]{limitRoleVals: zeroLimitRoleVals(z), solo: [3]T{z, z, z}}
	solo := s.mu.Players == 1
	l.layers = make([][]husLimitVal[T], l.limit+1)
	vals := func(v *husLimitVal[T]) *limitRoleVals[T] { return &v.limitRoleVals }
	readOpt, readRoles := limitReader(l.layers, true, vals), limitReader(l.layers, false, vals)
	for t := range l.layers {
		if err := stoppedAtTurnsLeft(s.ctx, t); err != nil {
			return err
		}
		layer := make([]husLimitVal[T], len(s.cells))
		l.layers[t] = layer
		for i, c := range s.cells {
			layer[i] = zero
			if t == 0 || c.st.N == 0 {
				continue
			}
			x := &layer[i]
			if solo {
				x.solo, x.ch[0] = l.soloBest(c, t)
				continue
			}
			fixed := func(r int) (rules.Choice, error) { return l.pol[r].Decide(c.st), nil }
			if err := x.fill(s.f, &c.legal, l.pol, fixed, readOpt, readRoles, func(y rules.Choice, read func(j, u, r int) (T, T), r int) (T, T) {
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
func (l *husLimit[T]) choice(c *husCell[T], t int, ch rules.Choice, read func(j, u, r int) (T, T), r int) (T, T) {
	s := l.s
	f := s.f
	if ch == rules.Pass {
		switch {
		case c.after: // the stalemate: the pairs left shared equally
			return s.zero, f.FromInt(int64(c.st.N))
		case t == 1: // the pass uses the last turn
			return s.zero, s.zero
		}
		a, b := read(c.outs[ch][0].to, t-1, 1-r)
		return f.Sub(s.zero, a), b
	}
	lead, total := s.zero, s.zero
	for i, o := range c.outs[ch] {
		a, b := limitOutcome(f, o.keep, o.handed, o.to, t, r, read)
		p := c.probs[ch][i]
		lead, total = f.Add(lead, f.Mul(p, a)), f.Add(total, f.Mul(p, b))
	}
	return lead, total
}

// soloChoice returns solitaire's expected pairs, turns and lucky matches by the limit of choice
// ch in c with t turns left, the policy played afterwards.
func (l *husLimit[T]) soloChoice(c *husCell[T], t int, ch rules.Choice) [3]T {
	s := l.s
	f := s.f
	x := [3]T{s.zero, s.zero, s.zero}
	for i, o := range c.outs[ch] {
		p := c.probs[ch][i]
		g := 0
		if !o.keep {
			g = min(o.handed, t-1) // the pair known whole, taken in a turn of its own if one is left
		}
		y := l.layers[t-1-g][o.to].solo
		gain := int64(g)
		if o.keep {
			gain = 1
		}
		x[0] = f.Add(x[0], f.Mul(p, f.Add(f.FromInt(gain), y[0])))
		x[1] = f.Add(x[1], f.Mul(p, f.Add(f.FromInt(int64(1+g)), y[1])))
		lucky := y[2]
		if o.lucky {
			lucky = f.Add(s.one, lucky)
		}
		x[2] = f.Add(x[2], f.Mul(p, lucky))
	}
	return x
}

// soloBest returns solitaire's values in c with t turns left and the policy's choice: a fixed
// policy's, or optimal's, the most pairs and then the fewest turns (the first of the best).
func (l *husLimit[T]) soloBest(c *husCell[T], t int) ([3]T, rules.Choice) {
	f := l.s.f
	if l.pol[0] != rules.PolicyOptimal {
		ch := l.pol[0].Decide(c.st)
		return l.soloChoice(c, t, ch), ch
	}
	var best [3]T
	ch, have := rules.Daring, false
	for _, y := range rules.Choices() {
		if !c.legal[y] {
			continue
		}
		x := l.soloChoice(c, t, y)
		if !have {
			best, ch, have = x, y, true
			continue
		}
		if d := f.Cmp(x[0], best[0]); d > 0 || (d == 0 && f.Cmp(x[1], best[1]) < 0) {
			best, ch = x, y
		}
	}
	return best, ch
}

// result reads the lineup's value in cell c with the limit's turns left.
func (l *husLimit[T]) result(c int) Result[T] {
	f := l.s.f
	x := &l.layers[l.limit][c]
	st := l.s.cells[c].st
	if l.s.mu.Players == 1 {
		return Result[T]{State: st, Players: 1, ExpectedPairs: x.solo[0], ExpectedTurns: x.solo[1], ExpectedLucky: x.solo[2]}
	}
	p0 := cmLimitPairs(f, x.lead[0], x.total[0], 0)
	return Result[T]{State: st, Players: 2, ExpectedLead: x.lead[0], ExpectedPairs: p0,
		PairsBySeat: []T{p0, cmLimitPairs(f, x.lead[0], x.total[0], 1)}}
}

// husLimitStart checks st against m and returns the solved turn-limited model and st's cell.
func husLimitStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*husLimit[T], int, error) {
	if err := husCheckState(m, st); err != nil {
		return nil, 0, err
	}
	l, err := newHUSLimit(ctx, f, m, mu, max(st.N, 1))
	if err != nil {
		return nil, 0, err
	}
	return l, l.s.at[st.Counts()], nil
}

// evaluateHUSinglesLimit is evaluateHUSingles under a turn limit.
func evaluateHUSinglesLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	l, c, err := husLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	return l.result(c), nil
}

// husLimitChoiceValues is husChoiceValues under a turn limit: each legal choice's values with the
// limit's turns left, the lineup played afterwards; the best are the largest lead's, in solitaire
// the most pairs' and then the fewest turns'.
func husLimitChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Choices[T], error) {
	l, i, err := husLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	c, t := l.s.cells[i], l.limit
	out := Choices[T]{State: c.st, Value: l.result(i), PolicyChoice: l.layers[t][i].ch[0]}
	read := func(j, u, r int) (T, T) {
		y := &l.layers[u][j]
		return y.lead[r], y.total[r]
	}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		if mu.Players == 1 {
			x := l.soloChoice(c, t, ch)
			out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Pairs: x[0], Turns: x[1], Lucky: x[2]})
			continue
		}
		lead, total := l.choice(c, t, ch, read, 0)
		cv := ChoiceValue[T]{Choice: ch, Lead: lead, Pairs: cmLimitPairs(f, lead, total, 0)}
		cv.PairsBySeat = []T{cv.Pairs, cmLimitPairs(f, lead, total, 1)}
		out.Values = append(out.Values, cv)
	}
	markBest(f, &out, mu.Players)
	return out, nil
}

// husLimitPolicyTable is husPolicyTable under a turn limit: seat 0's choices (optimal, or
// best-response to the other seat's policy; in solitaire optimal's) in every state of at most
// maxPairs pairs, a layer per number of turns left (rules.NewTurnChoiceTable), just after a pass
// or not.
func husLimitPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	l, err := newHUSLimit(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	layers := make([]*rules.ChoiceTable, l.limit)
	for t := 1; t <= l.limit; t++ {
		tab, err := rules.NewChoiceTable(maxPairs, m.Singletons)
		if err != nil {
			return nil, err
		}
		for i, c := range l.s.cells {
			if c.st.N == 0 {
				continue
			}
			l.s.setHUSTable(tab, c, l.layers[t][i].ch[0]) // husingles_pass.go
		}
		layers[t-1] = tab
	}
	return rules.NewTurnChoiceTable(layers)
}

// husLimitPos is a position of the forward pass of husLimitDistribution: a cell, the turns left,
// the role to move and the pairs each seat took so far.
type husLimitPos struct {
	cell, t, role, a, b int
}

// husLimitDistribution is husDistribution under a turn limit: every role's choice with t turns
// left comes from the backward induction (newHUSLimit), and the probability of every position
// (cell, turns left, role to move, each seat's pairs so far) is then carried forwards turn by turn
// to the end: no turn left, no pair left, or a stalemate (each seat gets half the pairs left).
// Seat 0's and seat 1's shares (in half pairs) need not add up to n; wins, draws and losses
// compare the pairs taken.
func husLimitDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if mu.Players != 2 {
		return d, fmt.Errorf("singletons %d with %s, turn limit %d: the score distribution is solved for two seats, not %d", m.Singletons, m.Memory, m.Variant.TurnLimit, mu.Players)
	}
	l, start, err := husLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return d, err
	}
	s, n := l.s, st.N
	d.State = st
	d.Prob, d.Prob1 = make([]T, 2*n+1), make([]T, 2*n+1)
	for i := range d.Prob {
		d.Prob[i], d.Prob1[i] = s.zero, s.zero
	}
	d.Win, d.Draw, d.Loss = s.zero, s.zero, s.zero
	end := func(p T, a2, b2 int) {
		d.Prob[a2] = f.Add(d.Prob[a2], p)
		d.Prob1[b2] = f.Add(d.Prob1[b2], p)
		d.addResult(f, p, a2-b2)
	}
	at := make([]map[husLimitPos]T, l.limit+1)
	for t := range at {
		at[t] = map[husLimitPos]T{}
	}
	put := func(x husLimitPos, p T) {
		if x.t == 0 || s.cells[x.cell].st.N == 0 {
			end(p, 2*x.a, 2*x.b)
			return
		}
		if q, ok := at[x.t][x]; ok {
			p = f.Add(q, p)
		}
		at[x.t][x] = p
	}
	put(husLimitPos{cell: start, t: l.limit}, s.one)
	for t := l.limit; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return d, err
		}
		for x, p := range at[t] {
			c := s.cells[x.cell]
			ch := l.layers[t][x.cell].ch[x.role]
			gain := func(a, b, g, role int) (int, int) {
				if role == 0 {
					return a + g, b
				}
				return a, b + g
			}
			if ch == rules.Pass {
				if c.after { // the stalemate: the pairs left shared equally
					k := c.st.N
					end(p, 2*x.a+k, 2*x.b+k)
					continue
				}
				put(husLimitPos{cell: c.outs[ch][0].to, t: t - 1, role: 1 - x.role, a: x.a, b: x.b}, p)
				continue
			}
			for i, o := range c.outs[ch] {
				q := f.Mul(p, c.probs[ch][i])
				if o.keep {
					a, b := gain(x.a, x.b, 1, x.role)
					put(husLimitPos{cell: o.to, t: t - 1, role: x.role, a: a, b: b}, q)
					continue
				}
				g := min(o.handed, t-1)
				a, b := gain(x.a, x.b, g, 1-x.role)
				put(husLimitPos{cell: o.to, t: t - 1 - g, role: 1 - x.role, a: a, b: b}, q)
			}
		}
		at[t] = nil
	}
	return d, nil
}
