package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats under decay forgetting (docs/models.md
// §4.7, §4.14). A forgotten card can hand the next seat a state of the same size, so the states of
// a row refer to each other: the row's unknowns are, for each state k, pass streak l (under a pass
// rule) and seat t to move, one vector of every seat's distribution of the pairs it takes from
// there on (seat s's block from s*width). Every seat's choice is fixed once the lineup's values of
// the row are solved (decayMulti, decayMultiPass and the replies' policy iteration), and the
// coefficients that tie the unknowns together are scalars (the probabilities of the outcomes that
// stay in the row): the row is one linear system with vectors for right-hand sides, the values'
// system with every seat's distribution in place of its expected pairs, eliminated once for every
// component. An outcome that leaves the row reads the previous row's vectors, the taker's block
// shifted by the pairs it takes; the stalemate gives every seat n/p pairs.

// decaySeatsDist solves every seat's distribution in the row of n pairs (cells indexed by their
// known cards) once the lineup's values of the row are solved, and keeps each state's vectors at
// pass streak 0.
func (w *sweep[T]) decaySeatsDist(n int, cells []decayCell[T]) error {
	p := w.mu.Players
	d := w.sdist
	levels := 1
	if w.streak != nil {
		levels = p
	}
	index := func(k, l, t int) int { return (k*levels+l)*p + t }
	r := w.mu.replySeat()
	eqs := make([]decayEq[T], levels*p*len(cells))
	for k := range cells {
		c := &cells[k]
		w.load(c)
		for l := range levels {
			for t := range p {
				ch := w.decayDistChoice(c, t, l, r)
				next := (t + 1) % p
				e := decayEq[T]{a: w.zeros(p * d.width)}
				switch {
				case ch == rules.Pass && l == p-1:
					// The stalemate: n/p pairs to every seat, n units of 1/p.
					for b := range p {
						e.a[b*d.width+n*d.unit/p] = w.one
					}
				case ch == rules.Pass:
					for i, o := range c.outs[ch] {
						e.to = append(e.to, index(sameRow(o, n), l+1, next))
						e.coef = append(e.coef, c.probs[ch][i])
					}
				default:
					for i, o := range c.outs[ch] {
						pr := c.probs[ch][i]
						if k2 := sameRow(o, n); k2 >= 0 {
							e.to = append(e.to, index(k2, 0, next))
							e.coef = append(e.coef, pr)
							continue
						}
						w.addSeatsDist(e.a, pr, o, t)
					}
				}
				e.merge(w.f)
				eqs[index(k, l, t)] = e
			}
		}
	}
	x, err := solveRow(w.f, eqs)
	if err != nil {
		return fmt.Errorf("every seat's score distribution at %d seats: %w", p, err)
	}
	for k := range cells {
		v := make([][]T, p)
		for t := range p {
			v[t] = x[index(k, 0, t)]
		}
		d.set(w, cells[k].st, v)
	}
	return nil
}

// decayDistChoice returns the choice of seat t in the row's state c (loaded) at pass streak l, as
// the values' row made it: the replying seat r's own choice, the others' from their policies or
// the optimum of every seat for itself.
func (w *sweep[T]) decayDistChoice(c *decayCell[T], t, l, r int) rules.Choice {
	switch {
	case w.streak == nil && t == r:
		return c.brChoice[0]
	case w.streak == nil:
		return w.seatChoice(t, c.st)
	case t == r:
		return w.streak.reply[l]
	}
	return w.seatChoiceAt(t, c.st, l)
}
