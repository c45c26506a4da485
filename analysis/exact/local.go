package exact

import "memsim/analysis/field"

// space is a vector space over the field T in which the equations of one state are written, with
// an involution mirror: the value seen from the next seat (the negated lead for two players, the
// reversed lead distribution, or the identity where values are kept per seat).
type space[T, V any] struct {
	add    func(a, b V) V
	scale  func(t T, a V) V
	mirror func(a V) V
	// identity reports that mirror is the identity, so cycles of odd length are solvable.
	identity bool
}

// solveLocal solves the equations that tie together the unknowns of one state: unknown i is
// x[i] = c[i] + b[i] * mirror(x[to[i]]), or x[i] = c[i] when to[i] < 0. Each unknown refers to at
// most one other, so the system is a functional graph: chains are unwound and each cycle is solved
// in closed form, x = K / (1 - product of its b). Every cycle must have a product of b below one,
// and an even length unless mirror is the identity.
func solveLocal[T, V any](f field.Field[T], sp space[T, V], c []V, b []T, to []int) []V {
	x := make([]V, len(c))
	done := make([]bool, len(c))
	path := make([]int, 0, len(c))
	onPath := func(v int) int {
		for k, p := range path {
			if p == v {
				return k
			}
		}
		return -1
	}
	for i := range c {
		if done[i] {
			continue
		}
		path = path[:0]
		cur := i
		for !done[cur] && to[cur] >= 0 && onPath(cur) < 0 {
			path = append(path, cur)
			cur = to[cur]
		}
		switch {
		case done[cur]:
		case to[cur] < 0:
			x[cur], done[cur] = c[cur], true
		default:
			cyc := path[onPath(cur):]
			k, prod, odd := c[cyc[0]], b[cyc[0]], true
			for _, node := range cyc[1:] {
				term := c[node]
				if odd {
					term = sp.mirror(term)
				}
				k = sp.add(k, sp.scale(prod, term))
				prod = f.Mul(prod, b[node])
				odd = !odd
			}
			if odd && !sp.identity {
				panic("exact: odd cycle in a mirrored local system")
			}
			one := f.FromInt(1)
			x[cyc[0]] = sp.scale(f.Div(one, f.Sub(one, prod)), k)
			done[cyc[0]] = true
		}
		for idx := len(path) - 1; idx >= 0; idx-- {
			p := path[idx]
			if done[p] {
				continue
			}
			x[p] = sp.add(c[p], sp.scale(b[p], sp.mirror(x[to[p]])))
			done[p] = true
		}
	}
	return x
}
