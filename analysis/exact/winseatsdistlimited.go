package exact

import (
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats for a lineup in which a seat plays to
// win under limited shared memory of a fixed capacity (lru, handover-uniform; docs/models.md
// §4.13). A turn that forgets a card can hand the same count state to the next seat with no pair
// taken (selfishwinlimited.go), and a pass hands it on at the next pass streak; neither changes
// any seat's pairs. So the positions of one count state with one standings (every seat's pairs,
// absolute) are linked only among themselves: p movers at each of the pass streaks, from (streak
// l, mover q) a pass to (l+1, q+1) and a forgotten card to (0, q+1). The probability of visiting
// each of them follows from the probability brought in from earlier count states by one linear
// solve, v = in + Mᵀv, M the links' probabilities under the choices the seats' tables give there;
// every other outcome leaves the count state, for one played after it, with the visits'
// probability. The forward pass of winseatsdist.go is otherwise the same.

// winSeatsLink is a link of the positions of a count state and standings: to the position at
// index to, with probability prob.
type winSeatsLink[T any] struct {
	to   int
	prob T
}

// winSeatsNode is a position of a count state and standings: its choice, its outcomes and the
// links they make within the count state.
type winSeatsNode[T any] struct {
	streak, mover int
	choice        rules.Choice
	links         []winSeatsLink[T]
}

// winSeatsLimitedState carries the positions levels (by pass streak) of count state cs, in which
// a forgotten card or a pass can hand cs to the next seat, to their ends: leave is called with
// every outcome that leaves cs from a position (its key) and the probability of reaching it that
// way, stalemate with a position whose pass ends the game and the probability of that.
func winSeatsLimitedState[T any](f field.Field[T], m Model, p int, cs rules.State, levels []map[winSeatsKey]T, tabs []*rules.ChoiceTable,
	leave func(k winSeatsKey, o Outcome, pr T), stalemate func(k winSeatsKey, pr T)) error {
	streaks := len(levels)
	// in[standings][l*p+q]: the probability brought into each position.
	in := map[[rules.MaxPlayers]int16][]T{}
	for l, pos := range levels {
		for k, pr := range pos {
			v, ok := in[k.pairs]
			if !ok {
				v = make([]T, streaks*p)
				for i := range v {
					v[i] = f.FromInt(0)
				}
				in[k.pairs] = v
			}
			x := l*p + int(k.mover)
			v[x] = f.Add(v[x], pr)
		}
	}
	outs := map[rules.Choice][]Outcome{}
	selfProb := map[rules.Choice]T{}
	outcomes := func(ch rules.Choice) []Outcome {
		o, ok := outs[ch]
		if !ok {
			o = m.Outcomes(cs, ch, nil)
			b := f.FromInt(0)
			for _, x := range o {
				if selfLoop(x, cs) {
					b = f.Add(b, f.FromFrac(x.Prob.Num, x.Prob.Den))
				}
			}
			outs[ch], selfProb[ch] = o, b
		}
		return o
	}
	pairs := make([]int, p)
	for _, st := range sortedFinals(in) {
		inflow := in[st]
		// The positions reached from those brought in, numbered in the order found.
		index := map[int]int{}
		var nodes []winSeatsNode[T]
		var queue []int
		for x, pr := range inflow {
			if !f.IsZero(pr) {
				index[x] = len(nodes)
				nodes = append(nodes, winSeatsNode[T]{streak: x / p, mover: x % p})
				queue = append(queue, x)
			}
		}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			nd := &nodes[index[x]]
			l, q := nd.streak, nd.mover
			for i := range p {
				pairs[i] = int(st[(q+i)%p])
			}
			ch, ok := winSeatsChoice(tabs[q], m.Pass, cs, pairs, l)
			if !ok || !m.Legal(cs, ch) {
				return fmt.Errorf("seat %d: no legal choice in its table in %v at standings %v, pass streak %d (%v)", q, cs, pairs, l, ch)
			}
			nd.choice = ch
			next := (q + 1) % p
			var to int
			var prob T
			switch {
			case ch == rules.Pass && l == p-1:
				continue
			case ch == rules.Pass:
				to, prob = (l+1)*p+next, f.FromInt(1)
			default:
				outcomes(ch)
				if f.IsZero(selfProb[ch]) {
					continue
				}
				to, prob = next, selfProb[ch]
			}
			if to >= streaks*p {
				return fmt.Errorf("%v: a pass at streak %d under pass rule %s", cs, l, m.Pass)
			}
			if _, seen := index[to]; !seen {
				index[to] = len(nodes)
				nodes = append(nodes, winSeatsNode[T]{streak: to / p, mover: to % p})
				queue = append(queue, to)
			}
			nd = &nodes[index[x]]
			nd.links = append(nd.links, winSeatsLink[T]{to: index[to], prob: prob})
		}
		// v = in + Mᵀv: each position's visits, from its predecessors'.
		eqs := make([]decayEq[T], len(nodes))
		for i, nd := range nodes {
			eqs[i].a = []T{inflow[nd.streak*p+nd.mover]}
		}
		for i, nd := range nodes {
			for _, ln := range nd.links {
				eqs[ln.to].to = append(eqs[ln.to].to, i)
				eqs[ln.to].coef = append(eqs[ln.to].coef, ln.prob)
			}
		}
		visits, err := solveRow(f, eqs)
		if err != nil {
			return fmt.Errorf("%v at standings %v: %w", cs, st[:p], err)
		}
		for i, nd := range nodes {
			v := visits[i][0]
			if f.IsZero(v) {
				continue
			}
			k := winSeatsKey{mover: int8(nd.mover), pairs: st}
			switch {
			case nd.choice == rules.Pass && nd.streak == p-1:
				stalemate(k, v)
			case nd.choice == rules.Pass:
			default:
				for _, o := range outcomes(nd.choice) {
					if !selfLoop(o, cs) {
						leave(k, o, f.Mul(v, f.FromFrac(o.Prob.Num, o.Prob.Den)))
					}
				}
			}
		}
	}
	return nil
}
