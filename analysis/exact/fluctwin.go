package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective under a fluctuating capacity (docs/models.md §4.4, §4.13), two seats; the
// pass rules two-known and always add a flag to every unknown (fluctwinpass.go). A policy that plays to win chooses by the lead so far d as well as by the state after
// the draw, (n, k, c). As under decay (decaywin.go), a row's unknowns come in groups: the values at
// lead d and those at -d, for every state of the row before the draw and after it, since a turn that
// hands the move over without a pair negates the lead and stays in the row, and every other outcome
// leaves the row for the previous one, already solved. A group is a system of linear equations, in
// which a role that plays to win chooses at every (k, c) by policy iteration (choiceSys), as the
// optimum chooses in fluct.go.
//
// The values are kept as u = P(win) - P(loss), which is twice the centred score P(win) +
// P(draw)/2 - 1/2, so that handing the move over negates it, v = P(draw), which handing over keeps,
// and the expected lead in pairs, which handing over negates. A lead with |d| > n is decided: every
// choice is worth the same, and a policy that plays to win takes the first legal choice in the
// order daring, safe, known-first, as at a fixed capacity (win.go). Leads are clamped to -D .. D,
// D one more than the pairs of the deal, so that every lead beyond is decided.

// fluctWinRow holds the values of a row before the draw, by known cards k and lead index: wo,
// win-optimal self-play's u; and for role r of the matchup u[r], the probability of a draw v[r]
// and the expected lead lead[r].
type fluctWinRow[T any] struct {
	wo            [][]T
	u, v, leadVal [2][][]T
	// Under a pass rule, afterU, afterV and afterLead are u, v and leadVal just after a pass by the
	// other seat.
	afterU, afterV, afterLead [2][][]T
}

// fluctWin solves the win objective under a fluctuating capacity row by row.
type fluctWin[T any] struct {
	// s is the pair objective's sweep of the model: its rows, capacities and equations, and the
	// optimum's choices for a role that plays optimal.
	s   *fluctSweep[T]
	f   field.Field[T]
	pol [2]rules.Policy
	// D: leads run from -D to D; fromN and fromLead: the state the values are asked from (its lead
	// bounds the leads a row can reach).
	D, fromN, fromLead int
	// needSelf: win-optimal's self-play (a role plays win-optimal); needPair: the matchup's values.
	needSelf, needPair bool
	prev, cur          fluctWinRow[T]
	// woC[n][c][k][i] is win-optimal's choice in (n, k) with capacity c drawn at lead index i;
	// ch[r] the matchup's choices of role r, likewise.
	woC [][][][]rules.Choice
	ch  [2][][][][]rules.Choice
	// Under a pass rule, woA and chA are woC and ch just after a pass by the other seat.
	woA [][][][]rules.Choice
	chA [2][][][][]rules.Choice
	// outs caches the outcomes of the row being solved, by node and choice, with their
	// probabilities in the field.
	outs  map[fluctOutKey][]Outcome
	probs map[fluctOutKey][]T
	zero  T
	one   T
}

type fluctOutKey struct {
	k, c int
	ch   rules.Choice
}

// validateFluctWin reports whether the two-seat matchup, in which a role plays to win, is solved
// under a fluctuating capacity: win-optimal or win-best-response against win-optimal, optimal, safe,
// daring or parity, under any pass rule.
func validateFluctWin(m Model, mu Lineup) error {
	if err := refuseFluctSingles(m, mu); err != nil { // fluctsingles.go
		return err
	}
	if err := refuseFluctBlind(m, mu); err != nil {
		return err
	}
	return fluctWinLineup(m, mu)
}

// fluctWinLineup reports whether model m (without a turn limit) and the two-seat lineup mu, in
// which a role plays to win, are one validateFluctWin accepts, the refusals of singletons and blind
// flips aside.
func fluctWinLineup(m Model, mu Lineup) error {
	if err := m.Validate(); err != nil {
		return err
	}
	switch {
	case mu.Players != 2:
		return fmt.Errorf("players %d: the policies that play to win are solved under a fluctuating capacity for two players only", mu.Players)
	case mu.PerSeat || mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("a fluctuating capacity is solved for the policies that play to win by name, not for a policy per seat or given as a table")
	}
	pol := mu.roles()
	for r, p := range pol {
		switch p {
		case rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity:
		case rules.PolicyWinBestResponse:
			if pol[1-r] == rules.PolicyWinBestResponse {
				return fmt.Errorf("policy win-best-response against win-best-response: a reply to a reply has no exact model (allowed against: win-optimal, optimal, safe, daring, parity)")
			}
		default:
			return fmt.Errorf("policy %s: under a fluctuating capacity a policy that plays to win is solved beside win-optimal, win-best-response, optimal, safe, daring and parity only (allowed: win-optimal, win-best-response, optimal, safe, daring, parity)", p)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return err
		}
	}
	return nil
}

// newFluctWin returns the sweep of matchup mu, whose values are asked from state from (n and lead).
func newFluctWin[T any](f field.Field[T], m Model, mu Lineup, from rules.State) (*fluctWin[T], error) {
	if err := validateFluctWin(m, mu); err != nil {
		return nil, err
	}
	pol := mu.roles()
	s := &fluctSweep[T]{f: f, m: m, pol: [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal},
		maxK: fluctMaxKnown(m.Memory), zero: f.FromInt(0), br: -1}
	s.needOpt = pol[0] == rules.PolicyOptimal || pol[1] == rules.PolicyOptimal
	w := &fluctWin[T]{s: s, f: f, pol: pol, D: from.N + 1, fromN: from.N, fromLead: from.Lead,
		needPair: true, zero: f.FromInt(0), one: f.FromInt(1)}
	w.needSelf = pol[0] == rules.PolicyWinOptimal || pol[1] == rules.PolicyWinOptimal
	return w, nil
}

// li returns the index of lead d, clamped to -D .. D.
func (w *fluctWin[T]) li(d int) int { return min(max(d, -w.D), w.D) + w.D }

// reach returns the largest |lead| a game from the asked state reaches in a row of n pairs.
func (w *fluctWin[T]) reach(n int) int { return min(w.D, abs(w.fromLead)+w.fromN-n) }

// finalU returns P(win) - P(loss) of a game over at lead d.
func (w *fluctWin[T]) finalU(d int) T {
	switch {
	case d > 0:
		return w.one
	case d < 0:
		return w.f.Sub(w.zero, w.one)
	}
	return w.zero
}

// finalV returns P(draw) of a game over at lead d.
func (w *fluctWin[T]) finalV(d int) T {
	if d == 0 {
		return w.one
	}
	return w.zero
}

// firstLegal returns the first legal choice in (n, k) in the order daring, safe, known-first.
func (w *fluctWin[T]) firstLegal(n, k int) rules.Choice {
	for _, ch := range rules.Choices() {
		if w.s.m.Legal(rules.State{N: n, J: n - k}, ch) {
			return ch
		}
	}
	return rules.Daring
}

// outcomes returns the outcomes of choice ch in (n, k) with capacity c drawn and their
// probabilities, cached for the row.
func (w *fluctWin[T]) outcomes(n, k, c int, ch rules.Choice) ([]Outcome, []T) {
	key := fluctOutKey{k, c, ch}
	if o, ok := w.outs[key]; ok {
		return o, w.probs[key]
	}
	mc := w.s.m
	mc.Memory.Capacity, mc.Memory.Fluctuation = c, 0
	o := mc.Outcomes(rules.State{N: n, J: n - k}, ch, nil)
	p := make([]T, len(o))
	for i := range o {
		p[i] = w.f.FromFrac(o[i].Prob.Num, o[i].Prob.Den)
	}
	w.outs[key], w.probs[key] = o, p
	return o, p
}

// winEq returns the equation of a quantity of the mover at node (k, c) of the row of n pairs
// making choice ch at lead d: an outcome that stays in the row (a hand-over without a pair)
// refers to index(k') with coefficient hoSign·p, the next seat's unknown before its draw at lead
// -d; one that leaves the row reads prevOwn (the mover keeps the move) or prevOther (the next
// seat moves) at the known cards and lead there in the previous row, the next seat's values
// negated (hoSign -1) or not (hoSign 1). Component gainAt (none when -1) counts pairs: it adds
// the pairs the mover takes and subtracts those the next seat takes first.
func (w *fluctWin[T]) winEq(n, k, c int, ch rules.Choice, d int, index func(k int) int,
	prevOwn, prevOther func(k, lead int) []T, gainAt, hoSign, comps int) *decayEq[T] {
	f := w.f
	e := &decayEq[T]{a: make([]T, comps)}
	for i := range e.a {
		e.a[i] = w.zero
	}
	outs, probs := w.outcomes(n, k, c, ch)
	for i, o := range outs {
		p := probs[i]
		if k2 := sameRow(o, n); k2 >= 0 {
			coef := p
			if hoSign < 0 {
				coef = f.Sub(w.zero, p)
			}
			e.to = append(e.to, index(k2))
			e.coef = append(e.coef, coef)
			continue
		}
		k2 := o.Next.N - o.Next.J
		var vs []T
		if o.Continue {
			vs = prevOwn(k2, d+o.MoverGain)
		} else {
			lead := -(d + o.MoverGain) + o.NextGain
			vs = w.before(n-1, k2, o.NextGain > 0, func(k int) []T { return prevOther(k, lead) }, comps)
			if gainAt >= 0 {
				vs[gainAt] = f.Add(f.FromInt(int64(o.NextGain)), vs[gainAt])
			}
			if hoSign < 0 {
				for t := range vs {
					vs[t] = f.Sub(w.zero, vs[t])
				}
			}
		}
		if gainAt >= 0 {
			vs[gainAt] = f.Add(f.FromInt(int64(o.MoverGain)), vs[gainAt])
		}
		for t := range vs {
			e.a[t] = f.Add(e.a[t], f.Mul(p, vs[t]))
		}
	}
	e.merge(f)
	return e
}

// before returns the values of the next seat before its draw in (n1, k) of the previous row, read
// by at; twice asks for a turn that first takes a pair known whole, so that two capacities are
// drawn (under lru both forget), as fluctSweep.before.
func (w *fluctWin[T]) before(n1, k int, twice bool, at func(k int) []T, comps int) []T {
	if !twice || !w.s.lru() {
		return at(k)
	}
	f := w.f
	out := make([]T, comps)
	for i := range out {
		out[i] = w.zero
	}
	for _, cp := range fluctCaps(w.s.m.Memory, n1) {
		p := f.FromFrac(cp.p.Num, cp.p.Den)
		for i, x := range at(min(k, cp.c)) {
			out[i] = f.Add(out[i], f.Mul(p, x))
		}
	}
	return out
}

// drawEq returns the equation of a quantity before the draw in (n, k): the average over the
// capacities of the quantity after it, at(k', c).
func (w *fluctWin[T]) drawEq(k int, caps []fluctCap, at func(k, c int) int, comps int) decayEq[T] {
	e := w.s.drawEq(k, caps, at)
	for len(e.a) < comps {
		e.a = append(e.a, w.zero)
	}
	return e
}

// rowTable makes the choices of row n by capacity and known cards, every lead.
func (w *fluctWin[T]) rowTable(n int, caps []fluctCap) [][][]rules.Choice {
	K := min(n, w.s.maxK)
	out := make([][][]rules.Choice, caps[len(caps)-1].c+1)
	for _, cp := range caps {
		out[cp.c] = make([][]rules.Choice, K+1)
		for k := range out[cp.c] {
			out[cp.c][k] = make([]rules.Choice, 2*w.D+1)
			for i := range out[cp.c][k] {
				out[cp.c][k][i] = w.firstLegal(n, k)
			}
		}
	}
	return out
}

// newValues returns a row's values by known cards and lead, each that of a game over at the lead.
func (w *fluctWin[T]) newValues(n int, final func(d int) T) [][]T {
	out := make([][]T, min(n, w.s.maxK)+1)
	for k := range out {
		out[k] = make([]T, 2*w.D+1)
		for i := range out[k] {
			out[k][i] = final(i - w.D)
		}
	}
	return out
}

// row solves the row of n pairs: the optimum's choices (when a role plays optimal), win-optimal's
// self-play at every lead, and the matchup's values at every lead.
func (w *fluctWin[T]) row(n int) error {
	if w.s.needOpt {
		if err := w.s.row(n); err != nil {
			return err
		}
		w.s.prev, w.s.cur = w.s.cur, fluctRow[T]{}
	}
	w.outs, w.probs = map[fluctOutKey][]Outcome{}, map[fluctOutKey][]T{}
	nodes, caps := w.s.rowNodes(n)
	pos := make(map[fluctNode]int, len(nodes))
	for i, nd := range nodes {
		pos[nd] = i
	}
	if w.needSelf {
		w.woC = append(w.woC, w.rowTable(n, caps))
		if w.flags() == 2 {
			w.woA = append(w.woA, w.rowTable(n, caps))
		}
		w.cur.wo = w.newValues(n, w.finalU)
		for d := 0; d <= min(n, w.reach(n)); d++ {
			if err := w.selfPlay(n, d, nodes, caps, pos); err != nil {
				return err
			}
		}
	}
	if !w.needPair {
		return nil
	}
	for r := range 2 {
		w.ch[r] = append(w.ch[r], w.rowTable(n, caps))
		w.cur.u[r], w.cur.v[r] = w.newValues(n, w.finalU), w.newValues(n, w.finalV)
		w.cur.leadVal[r] = w.newValues(n, func(int) T { return w.zero })
		if w.flags() == 2 {
			w.chA[r] = append(w.chA[r], w.rowTable(n, caps))
			w.cur.afterU[r], w.cur.afterV[r] = w.newValues(n, w.finalU), w.newValues(n, w.finalV)
			w.cur.afterLead[r] = w.newValues(n, func(int) T { return w.zero })
		}
	}
	for d := 0; d <= w.reach(n); d++ {
		for _, e := range []int{d, -d} {
			if err := w.matchup(n, e, nodes, caps, pos); err != nil {
				return err
			}
			if d == 0 {
				break
			}
		}
	}
	return nil
}

// selfPlay solves win-optimal's self-play in the row of n pairs at leads d and -d (d <= n):
// unknown w.idx(s, flag, node), s = 0 at lead d and 1 at -d, every state after the draw choosing
// the largest value of its mover.
func (w *fluctWin[T]) selfPlay(n, d int, nodes []fluctNode, caps []fluctCap, pos map[fluctNode]int) error {
	N, F := len(nodes), w.flags()
	leads := [2]int{d, -d}
	prev := func(k, lead int) []T { return []T{w.prev.wo[k][w.li(lead)]} }
	sys := &choiceSys[T]{sign: 1, fixed: make([]decayEq[T], 2*F*N)}
	for s := range 2 {
		index := func(k int) int { return w.idx(1-s, 0, N, pos[fluctNode{k: k}]) }
		afterIndex := func(k int) int { return w.idx(1-s, 1, N, pos[fluctNode{k: k}]) }
		stale := []T{w.finalU(leads[s])}
		for flag := range F {
			at := func(k, c int) int { return w.idx(s, flag, N, pos[fluctNode{k: k, c: c}]) }
			for i, nd := range nodes {
				if nd.c == 0 {
					sys.fixed[w.idx(s, flag, N, i)] = w.drawEq(nd.k, caps, at, 1)
					continue
				}
				sys.at = append(sys.at, w.idx(s, flag, N, i))
				var eqs [rules.NumChoices]*decayEq[T]
				for _, ch := range rules.Choices() {
					if w.s.m.Legal(rules.State{N: n, J: n - nd.k}, ch) {
						eqs[ch] = w.turnEq(n, nd.k, nd.c, ch, leads[s], flag, index, afterIndex, prev, prev, -1, -1, stale)
					}
				}
				sys.eqs = append(sys.eqs, eqs)
			}
		}
	}
	_, x, vals, err := sys.solve(w.f)
	if err != nil {
		return fmt.Errorf("%d pairs: win-optimal at lead %d: %w", n, d, err)
	}
	for p, i := range sys.at {
		s, flag, nd := i/(F*N), (i/N)%F, nodes[i%N]
		(*w.choices(-1, flag))[n-1][nd.c][nd.k][w.li(leads[s])] = sys.firstBest(w.f, p, vals[p], x[i][0])
	}
	for s := range 2 {
		for i, nd := range nodes {
			if nd.c == 0 {
				w.cur.wo[nd.k][w.li(leads[s])] = x[w.idx(s, 0, N, i)][0]
			}
		}
	}
	return nil
}

// matchup solves the matchup's group of the row of n pairs in which role 0 moves at lead e and
// role 1 at -e (unknown w.idx(r, flag, node)): a win best response's choices maximising its u
// against the other role's, then the roles' u and expected lead (one system, both negated on a
// hand-over) and the probability of a draw.
func (w *fluctWin[T]) matchup(n, e int, nodes []fluctNode, caps []fluctCap, pos map[fluctNode]int) error {
	f := w.f
	N, F := len(nodes), w.flags()
	lead := [2]int{e, -e}
	decided := e > n || -e > n
	index := func(r, flag int) func(k int) int {
		return func(k int) int { return w.idx(r, flag, N, pos[fluctNode{k: k}]) }
	}
	// The roles' choices at every state after the draw: a win best response's are free.
	free := -1
	for r, p := range w.pol {
		for flag := range F {
			for _, nd := range nodes {
				if nd.c == 0 {
					continue
				}
				i := w.li(lead[r])
				st := rules.State{N: n, J: n - nd.k}
				var ch rules.Choice
				switch {
				case p == rules.PolicyWinBestResponse:
					free = r
					ch = w.firstLegal(n, nd.k)
				case p == rules.PolicyWinOptimal:
					ch = (*w.choices(-1, flag))[n-1][nd.c][nd.k][i]
				case p == rules.PolicyOptimal && flag == 1:
					ch = w.s.optAfter[n][nd.c][nd.k]
				case p == rules.PolicyOptimal:
					ch = w.s.optChoice[n][nd.c][nd.k]
				default:
					ch = p.Decide(st)
				}
				if !w.s.m.Legal(st, ch) {
					return fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", p, ch, st)
				}
				(*w.choices(r, flag))[n-1][nd.c][nd.k][i] = ch
			}
		}
	}
	// prevOf reads role r's values in the previous row: u and the lead, or v.
	prevUL := func(r int) func(k, d int) []T {
		return func(k, d int) []T {
			i := w.li(d)
			return []T{w.prev.u[r][k][i], w.prev.leadVal[r][k][i]}
		}
	}
	prevU := func(r int) func(k, d int) []T {
		return func(k, d int) []T { return []T{w.prev.u[r][k][w.li(d)]} }
	}
	prevV := func(r int) func(k, d int) []T {
		return func(k, d int) []T { return []T{w.prev.v[r][k][w.li(d)]} }
	}
	// The values of a stalemate (a pass answered by a pass) to role r: u and the lead, or v.
	staleUL := func(r int) []T { return []T{w.finalU(lead[r]), w.zero} }
	staleU := func(r int) []T { return []T{w.finalU(lead[r])} }
	staleV := func(r int) []T { return []T{w.finalV(lead[r])} }
	if free >= 0 && !decided {
		sys := &choiceSys[T]{sign: 1, fixed: make([]decayEq[T], 2*F*N)}
		for r := range 2 {
			for flag := range F {
				at := func(k, c int) int { return w.idx(r, flag, N, pos[fluctNode{k: k, c: c}]) }
				for i, nd := range nodes {
					j := w.idx(r, flag, N, i)
					switch {
					case nd.c == 0:
						sys.fixed[j] = w.drawEq(nd.k, caps, at, 1)
					case r == free:
						sys.at = append(sys.at, j)
						var eqs [rules.NumChoices]*decayEq[T]
						for _, ch := range rules.Choices() {
							if w.s.m.Legal(rules.State{N: n, J: n - nd.k}, ch) {
								eqs[ch] = w.turnEq(n, nd.k, nd.c, ch, lead[r], flag, index(1-r, 0), index(1-r, 1), prevU(r), prevU(1-r), -1, -1, staleU(r))
							}
						}
						sys.eqs = append(sys.eqs, eqs)
					default:
						ch := (*w.choices(r, flag))[n-1][nd.c][nd.k][w.li(lead[r])]
						sys.fixed[j] = *w.turnEq(n, nd.k, nd.c, ch, lead[r], flag, index(1-r, 0), index(1-r, 1), prevU(r), prevU(1-r), -1, -1, staleU(r))
					}
				}
			}
		}
		_, x, vals, err := sys.solve(f)
		if err != nil {
			return fmt.Errorf("%d pairs: win-best-response at lead %d: %w", n, lead[free], err)
		}
		for p, i := range sys.at {
			flag, nd := (i/N)%F, nodes[i%N]
			(*w.choices(free, flag))[n-1][nd.c][nd.k][w.li(lead[free])] = sys.firstBest(f, p, vals[p], x[i][0])
		}
	}
	// The linear systems of the roles' choices.
	system := func(prev func(r int) func(k, d int) []T, stale func(r int) []T, gainAt, hoSign int) ([][]T, error) {
		eqs := make([]decayEq[T], 2*F*N)
		for r := range 2 {
			for flag := range F {
				at := func(k, c int) int { return w.idx(r, flag, N, pos[fluctNode{k: k, c: c}]) }
				for i, nd := range nodes {
					j := w.idx(r, flag, N, i)
					if nd.c == 0 {
						eqs[j] = w.drawEq(nd.k, caps, at, len(stale(r)))
						continue
					}
					ch := (*w.choices(r, flag))[n-1][nd.c][nd.k][w.li(lead[r])]
					eqs[j] = *w.turnEq(n, nd.k, nd.c, ch, lead[r], flag, index(1-r, 0), index(1-r, 1), prev(r), prev(1-r), gainAt, hoSign, stale(r))
				}
			}
		}
		return solveRow(f, eqs)
	}
	x, err := system(prevUL, staleUL, 1, -1)
	if err != nil {
		return fmt.Errorf("%d pairs: lead %d: %w", n, e, err)
	}
	var y [][]T
	if !decided {
		if y, err = system(prevV, staleV, -1, 1); err != nil {
			return fmt.Errorf("%d pairs: lead %d: %w", n, e, err)
		}
	}
	for r := range 2 {
		i := w.li(lead[r])
		for flag := range F {
			u, v, ld := w.cur.u[r], w.cur.v[r], w.cur.leadVal[r]
			if flag == 1 {
				u, v, ld = w.cur.afterU[r], w.cur.afterV[r], w.cur.afterLead[r]
			}
			for j, nd := range nodes {
				if nd.c != 0 {
					continue
				}
				at := w.idx(r, flag, N, j)
				ld[nd.k][i] = x[at][1]
				if !decided {
					u[nd.k][i], v[nd.k][i] = x[at][0], y[at][0]
				}
			}
		}
	}
	return nil
}

// run solves every row up to maxPairs, calling visit, when not nil, after each with the row just
// solved in w.cur.
func (w *fluctWin[T]) run(ctx context.Context, maxPairs int, visit func(n int) error) error {
	zeros := [][]T{make([]T, 2*w.D+1)}
	final := func(fn func(int) T) [][]T {
		row := [][]T{make([]T, 2*w.D+1)}
		for i := range row[0] {
			row[0][i] = fn(i - w.D)
		}
		return row
	}
	for i := range zeros[0] {
		zeros[0][i] = w.zero
	}
	w.prev = fluctWinRow[T]{wo: final(w.finalU)}
	for r := range 2 {
		w.prev.u[r], w.prev.v[r], w.prev.leadVal[r] = final(w.finalU), final(w.finalV), zeros
	}
	if w.s.needOpt {
		z := []T{w.zero}
		w.s.prev = fluctRow[T]{w: [2][]T{z, z}, opt: z}
		w.s.optChoice, w.s.optAfter = [][][]rules.Choice{nil}, [][][]rules.Choice{nil}
	}
	done := ctx.Done()
	for n := 1; n <= maxPairs; n++ {
		select {
		case <-done:
			return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		if err := w.row(n); err != nil {
			return err
		}
		if visit != nil {
			if err := visit(n); err != nil {
				return err
			}
		}
		w.prev, w.cur = w.cur, fluctWinRow[T]{}
	}
	return nil
}

// fluctWinFrom runs the sweep of matchup mu up to state st (before the draw) and returns it with
// st's known cards.
func fluctWinFrom[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*fluctWin[T], int, error) {
	w, err := newFluctWin(f, m, mu, st)
	if err != nil {
		return nil, 0, err
	}
	k, err := fluctKnown(st, w.s.maxK)
	if err != nil {
		return nil, 0, err
	}
	if err := w.run(ctx, st.N, nil); err != nil {
		return nil, 0, err
	}
	return w, k, nil
}

// evaluateFluctWin is Evaluate under a fluctuating capacity for a matchup in which a role plays to
// win: seat 0's expected lead and pairs from st before the draw, at its lead st.Lead.
func evaluateFluctWin[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	w, k, err := fluctWinFrom(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	res := Result[T]{State: st, Players: 2, ExpectedLead: w.zero}
	if st.N > 0 {
		res.ExpectedLead = w.prev.leadVal[0][k][w.li(st.Lead)]
	}
	n := f.FromInt(int64(st.N))
	res.ExpectedPairs = pairsFromLead(f, n, res.ExpectedLead)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	return res, nil
}

// fluctWinDrawLoss is WinDrawLoss under a fluctuating capacity for a matchup in which a role plays
// to win, from st before the draw: [0] with mu.Policy moving first, [1] with mu.Opponent.
func fluctWinDrawLoss[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) ([2]WDL[T], error) {
	var out [2]WDL[T]
	w, k, err := fluctWinFrom(ctx, f, m, mu, st)
	if err != nil {
		return out, err
	}
	for r := range 2 {
		u, v := w.finalU(st.Lead), w.finalV(st.Lead)
		if st.N > 0 {
			u, v = w.prev.u[r][k][w.li(st.Lead)], w.prev.v[r][k][w.li(st.Lead)]
		}
		out[r] = wdlOf(f, u, v)
	}
	return out, nil
}

// wdlOf returns the probabilities of a win, a draw and a loss from u = P(win) - P(loss) and
// v = P(draw).
func wdlOf[T any](f field.Field[T], u, v T) WDL[T] {
	two := f.FromInt(2)
	rest := f.Sub(f.FromInt(1), v)
	return WDL[T]{Win: f.Div(f.Add(rest, u), two), Draw: v, Loss: f.Div(f.Sub(rest, u), two)}
}

// FluctWinChoiceValues returns the value of every legal choice of the mover (seat 0) under the
// fluctuating capacity of model m in state st with capacity c drawn for the turn, at its lead so
// far st.Lead, when a role of lineup mu plays to win (two players): the choice made now, then mu
// played afterwards, in expected pairs and lead (the first result) and in the probabilities of a
// win, a draw and a loss and the score P(win) + P(draw)/2 (the second). st is the state after the
// draw, as for FluctChoiceValues. The second's Value is the lineup's own probabilities from st
// with c drawn. Under the pass rules two-known and always the turn follows no pass
// (FluctWinChoiceValuesAfterPass: just after one). Under a turn limit the turns left are the
// limit, this turn included, and the pairs are those taken within it.
func FluctWinChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], WinChoices[T], error) {
	return fluctWinChoiceValues(ctx, f, m, mu, st, c, 0)
}

// fluctWinChoiceValues is FluctWinChoiceValues with the pass flag flag (1: just after a pass by
// the other seat): it solves the rows up to st's, then reads every legal choice's equations at
// (st, c) in the row's values before the draw, the other role's without the flag for a turn and
// with it for a pass.
func fluctWinChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c, flag int) (Choices[T], WinChoices[T], error) {
	if m.fluctLimited() {
		return fluctLimitWinChoiceValues(ctx, f, m, mu, st, c, flag) // fluctlimitwin.go
	}
	var out Choices[T]
	var win WinChoices[T]
	w, err := newFluctWin(f, m, mu, st)
	if err != nil {
		return out, win, err
	}
	k, err := w.s.checkDrawn(st, c)
	if err != nil {
		return out, win, err
	}
	cn := min(c, st.N+1)
	d := st.Lead
	n := f.FromInt(int64(st.N))
	err = w.run(ctx, st.N, func(row int) error {
		if row != st.N {
			return nil
		}
		i := w.li(d)
		out.State, win.State = st, st
		out.PolicyChoice = (*w.choices(0, flag))[row-1][cn][k][i]
		win.PolicyChoice = out.PolicyChoice
		// The other role's values before its draw in this row: without the flag at k', with it at
		// K + k' (a hand-over by a pass).
		K := len(w.cur.u[1])
		read := func(plain, after [][]T, to int) T {
			if to >= K {
				return after[to-K][w.li(-d)]
			}
			return plain[to][w.li(-d)]
		}
		plain := func(k2 int) int { return k2 }
		afterIndex := func(k2 int) int { return K + k2 }
		prevUL := func(r int) func(k, d int) []T {
			return func(k, d int) []T { return []T{w.prev.u[r][k][w.li(d)], w.prev.leadVal[r][k][w.li(d)]} }
		}
		prevV := func(r int) func(k, d int) []T {
			return func(k, d int) []T { return []T{w.prev.v[r][k][w.li(d)]} }
		}
		for _, ch := range rules.Choices() {
			if !w.s.m.Legal(st, ch) {
				continue
			}
			eUL := w.turnEq(row, k, cn, ch, d, flag, plain, afterIndex, prevUL(0), prevUL(1), 1, -1, []T{w.finalU(d), w.zero})
			eV := w.turnEq(row, k, cn, ch, d, flag, plain, afterIndex, prevV(0), prevV(1), -1, 1, []T{w.finalV(d)})
			u, lead, v := eUL.a[0], eUL.a[1], eV.a[0]
			for t, to := range eUL.to {
				u = f.Add(u, f.Mul(eUL.coef[t], read(w.cur.u[1], w.cur.afterU[1], to)))
				lead = f.Add(lead, f.Mul(eUL.coef[t], read(w.cur.leadVal[1], w.cur.afterLead[1], to)))
			}
			for t, to := range eV.to {
				v = f.Add(v, f.Mul(eV.coef[t], read(w.cur.v[1], w.cur.afterV[1], to)))
			}
			if d > row || -d > row {
				u, v = w.finalU(d), w.finalV(d)
			}
			cv := ChoiceValue[T]{Choice: ch, Lead: lead, Pairs: pairsFromLead(f, n, lead)}
			cv.PairsBySeat = []T{cv.Pairs, f.Sub(n, cv.Pairs)}
			out.Values = append(out.Values, cv)
			p := wdlOf(f, u, v)
			win.Values = append(win.Values, WinChoiceValue[T]{Choice: ch, Win: p.Win, Draw: p.Draw, Loss: p.Loss, Score: p.Score(f)})
			if ch == out.PolicyChoice {
				out.Value = Result[T]{State: st, Players: 2, ExpectedLead: cv.Lead, ExpectedPairs: cv.Pairs, PairsBySeat: cv.PairsBySeat}
				win.Value = p
			}
		}
		return nil
	})
	if err != nil {
		return out, win, err
	}
	markBestUnlimited(f, &out, 2)
	win.markBest(f)
	return out, win, nil
}

// FluctWinTable returns the choices of seat 0's policy in matchup mu, which plays to win
// (win-optimal, or win-best-response to mu.Opponent: win-optimal, optimal, safe or daring), under
// the fluctuating capacity of model m (two players) in every state of at most maxPairs pairs,
// every capacity drawn and every lead: a table with a layer per capacity, as FluctTable's, each
// with a lead dimension (rules.NewLeadChoiceTable) from -(maxPairs + 1) to maxPairs + 1, where
// every game is decided. Under a pass rule every layer also holds the choices just after a pass
// by the other seat.
func FluctWinTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if !mu.Policy.PlaysToWin() {
		return nil, fmt.Errorf("policy %s does not play to win (allowed: win-optimal, win-best-response)", mu.Policy)
	}
	// Every lead, not only those a game of maxPairs pairs reaches from lead 0.
	w, err := newFluctWin(f, m, mu, rules.State{N: maxPairs, Lead: maxPairs + 1})
	if err != nil {
		return nil, err
	}
	// Win-optimal's table is its self-play's, whoever it plays.
	role := 0
	if mu.Policy == rules.PolicyWinOptimal {
		w.needPair = false
		role = -1
	}
	if err := w.run(ctx, maxPairs, nil); err != nil {
		return nil, err
	}
	lo := fluctCaps(m.Memory, maxPairs)[0].c
	hi := max(lo, min(fluctMaxKnown(m.Memory), maxPairs+1))
	layers := make([]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		t, err := rules.NewLeadChoiceTable(maxPairs, 0, w.D)
		if err != nil {
			return nil, err
		}
		for flag := range w.flags() {
			choices := w.choices(role, flag)
			for n := 1; n <= maxPairs; n++ {
				cn := min(c, n+1) // the capacities of a row are merged from n + 1 up
				byCap := (*choices)[n-1]
				if cn >= len(byCap) || byCap[cn] == nil {
					continue
				}
				for k, byLead := range byCap[cn] {
					if w.s.lru() && k > cn {
						continue
					}
					for li, ch := range byLead {
						t.Set(rules.State{N: n, J: n - k, Lead: li - w.D}, flag == 1, ch)
					}
				}
			}
		}
		layers[i] = t
	}
	return rules.NewCapacityChoiceTable(lo, layers)
}

// FluctWinRationalLimit is FluctRationalLimit for a matchup in which a seat plays to win: its rows
// have a system per lead, so larger tables and tournaments' values are computed in float64 (lru(5)
// with σ = 2, win-optimal against itself: 1.3 s for 10 pairs, 18 s for 20 in exact rationals).
const FluctWinRationalLimit = 8

// estimateFluctWin is Estimate under a fluctuating capacity for a matchup in which a seat plays to
// win (under a pass rule three times the work, with twice the unknowns): a curve fitted to measured solves of lru(5) with σ = 2 on a loaded machine (memsim solve
// --memory 5 --forget lru --fluctuation 2 --policy win-optimal: exact rationals 1.3 s for 10 pairs,
// 18 s for 20; float64 1.1 s for 20, 4.1 s for 60, 42 s for 120), times 2.3 for a lineup with a
// fixed or optimal seat (both roles' systems besides self-play's; win-optimal against safe: 3.0 s for
// 10 pairs) and 4.5 with win-best-response (its policy iteration; against optimal: 5.7 s for 10
// pairs, against safe in float64 11 s for 60), scaled by the square of a row's unknowns against
// that memory's, as estimateFluct.
func estimateFluctWin[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if err := validateFluctWin(m, mu); err != nil {
		return Cost{}, err
	}
	k := float64(min(int64(pairs), int64(m.Memory.Capacity)+int64(m.Memory.Fluctuation)) + 1)
	caps := float64(min(2*int64(m.Memory.Fluctuation)+1, int64(pairs)+1) + 1)
	unknowns := 2 * k * caps
	scale := unknowns * unknowns / (96 * 96)
	if m.Pass != rules.PassNever {
		// Every unknown twice, without and with a pass just made: about three times the work
		// (measured on a loaded machine, win-optimal against itself: 3.7 s for 10 pairs in exact
		// rationals against 1.1 s under never, 11 s for 60 in float64 against 4.1 s).
		unknowns *= 2
		scale *= 3
	}
	pol := mu.roles()
	switch {
	case pol[0] == rules.PolicyWinBestResponse || pol[1] == rules.PolicyWinBestResponse:
		scale *= 4.5
	case pol[0] != pol[1]:
		scale *= 2.3
	}
	n := float64(pairs)
	leads := 2*n + 3
	var seconds, bytes float64
	if _, isFloat := any(f).(field.Float); isFloat {
		seconds = 4.1 * math.Pow(n/60, 2.5)
		bytes = baseBytes + unknowns*unknowns*8 + 3*n*leads*unknowns*8
	} else {
		seconds = 1.3 * math.Pow(n/10, 3.8)
		bytes = baseBytes + gcHeadroom*unknowns*unknowns*(ratBytes+8*n) + 3*n*leads*unknowns*(ratBytes+8*n)
	}
	if call == CallDistribution {
		seconds, bytes = fluctWinDistCost(f, n, seconds, bytes) // fluctwindist.go
	}
	return Cost{Ops: seconds * scale * OpsPerSecond, Bytes: bytes}, nil
}
