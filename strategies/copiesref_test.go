package strategies_test

import "memsim/sim/rules"

// everyDeal calls visit with every arrangement of faces faces of copies cards, the faces appearing
// in the order 0, 1, 2, ...: every arrangement up to the faces' names, each standing for as many
// shuffles as the others.
func everyDeal(faces, copies int, visit func(deal []int)) {
	left := make([]int, faces)
	for i := range left {
		left[i] = copies
	}
	deal := make([]int, faces*copies)
	var rec func(pos, used int)
	rec = func(pos, used int) {
		if pos == len(deal) {
			visit(deal)
			return
		}
		for f := range min(used+1, faces) {
			if left[f] > 0 {
				left[f]--
				deal[pos] = f
				rec(pos+1, max(used, f+1))
				left[f]++
			}
		}
	}
	rec(0, 0)
}

// copiesStates calls visit with every state of faces (rules.CopiesTable) of at most faces faces
// with copies cards each.
func copiesStates(faces, copies int, visit func(counts []int)) {
	counts := make([]int, copies)
	var rec func(class, left int)
	rec = func(class, left int) {
		if class == copies {
			visit(counts)
			return
		}
		for a := 0; a <= left; a++ {
			counts[class] = a
			rec(class+1, left-a)
		}
		counts[class] = 0
	}
	rec(0, faces)
}

// copiesRef is the rule variant refCopiesGame plays: copies cards to a face, the seats, a turn
// limit (0: none) and blind flips (else sequential). A pass rule needs no field: a seat passes by
// choosing rules.Pass where its rule allows it.
type copiesRef struct {
	copies, seats, limit int
	blind                bool
}

// copiesMove is what a seat chooses from in refCopiesGame.
type copiesMove struct {
	seat   int
	counts []int // the state of faces (rules.CopiesTable)
	passes int   // the seats that passed in a row just before (at two seats: 1 just after a pass)
	left   int   // the turns left under a limit, this one included (0 without a limit)
	pairs  []int // every seat's pairs so far
}

// lead returns the mover's pairs less the other seat's, at two seats.
func (m copiesMove) lead() int { return m.pairs[m.seat] - m.pairs[1-m.seat] }

// copiesOutcome is the result of a game of refCopiesGame.
type copiesOutcome struct {
	pairs []int // every seat's pairs taken
	share []int // every seat's score in units of 1/seats pair, its share of a stalemate included
	turns int
}

// refCopiesGame plays a deal card by card with copies cards to a face and perfect memory, as
// docs/models.md §1.4, §1.5, §1.7 and §5.2 describe a table player's turn, until no card is left,
// the turn limit is reached or every seat has passed in a row, each seat choosing with choose. A
// pair remembered whole is taken first, a turn of its own. A pass flips nothing and hands the
// move on; the seats-th pass in a row ends the game with the pairs left shared equally, and every
// other turn resets the streak; a pass uses a turn. Under sequential flips daring and safe turn up
// the first unknown card (its remembered partner, else another unknown card or, for safe where a
// card is remembered, the turn ends), known-first the remembered card of a face with the most
// cards on the table and then the first unknown card. Under blind flips daring names the first
// two unknown cards (the first remembered one when one unknown card is left), safe and
// known-first a remembered card of a face with the most cards on the table and the first unknown
// card; both are turned up together. Its unknown cards are the first in position order: under a
// uniform deal this is as good as a uniform choice, so its totals over every deal are the engine's.
func refCopiesGame(deal []int, r copiesRef, choose func(m copiesMove) rules.Choice) copiesOutcome {
	present, known := make([]bool, len(deal)), make([]bool, len(deal))
	for i := range present {
		present[i] = true
	}
	faces := len(deal) / r.copies
	onTable := func(f int) (n, b int) {
		for pos, g := range deal {
			if present[pos] && g == f {
				n++
				if known[pos] {
					b++
				}
			}
		}
		return n, b
	}
	first := func(ok func(pos int) bool) int {
		for pos := range deal {
			if present[pos] && ok(pos) {
				return pos
			}
		}
		return -1
	}
	unknown := func(p int) bool { return !known[p] }
	mostCards := func() int { // a remembered card of a face with the most cards on the table
		x, most := -1, 0
		for p := range deal {
			if n, _ := onTable(deal[p]); present[p] && known[p] && n > most {
				x, most = p, n
			}
		}
		return x
	}
	out := copiesOutcome{pairs: make([]int, r.seats), share: make([]int, r.seats)}
	seat, passes := 0, 0
	take := func(a, b int) {
		present[a], present[b] = false, false
		out.pairs[seat]++
		out.share[seat] += r.seats
		passes = 0
	}
	handOver := func() { seat = (seat + 1) % r.seats }
	for ; (r.limit == 0 || out.turns < r.limit) && first(func(int) bool { return true }) >= 0; out.turns++ {
		counts := make([]int, r.copies)
		whole := -1
		for f := range faces {
			if n, b := onTable(f); n > 0 {
				if b >= 2 {
					whole = f
				}
				counts[n-2+min(b, 1)]++
			}
		}
		if whole >= 0 {
			a := first(func(p int) bool { return known[p] && deal[p] == whole })
			take(a, first(func(p int) bool { return p != a && known[p] && deal[p] == whole }))
			continue
		}
		m := copiesMove{seat: seat, counts: counts, passes: passes, pairs: out.pairs}
		if r.limit > 0 {
			m.left = r.limit - out.turns
		}
		c := choose(m)
		if c == rules.Pass {
			if passes == r.seats-1 {
				left := 0
				for _, x := range present {
					if x {
						left++
					}
				}
				for s := range out.share {
					out.share[s] += left / 2 // each seat's 1/seats of left/2 pairs
				}
				out.turns++
				return out
			}
			passes++
			handOver()
			continue
		}
		passes = 0
		var x, y int
		switch {
		case r.blind:
			x = first(unknown)
			if c != rules.Daring {
				y = mostCards()
			} else if y = first(func(p int) bool { return unknown(p) && p != x }); y < 0 {
				y = first(func(p int) bool { return known[p] })
			}
			known[x], known[y] = true, true
		case c == rules.KnownFirst:
			x = mostCards()
			y = first(unknown)
			known[y] = true
		default:
			x = first(unknown)
			known[x] = true
			if p := first(func(p int) bool { return p != x && known[p] && deal[p] == deal[x] }); p >= 0 {
				take(x, p)
				continue
			}
			if c == rules.Safe && first(func(p int) bool { return p != x && known[p] }) >= 0 {
				handOver()
				continue
			}
			y = first(unknown)
			known[y] = true
		}
		if deal[x] == deal[y] {
			take(x, y)
			continue
		}
		handOver()
	}
	return out
}

// safeOrDaring returns the fixed policies' choice under copies: safe where a card is remembered
// alone and the policy is safe, else daring.
func safeOrDaring(p rules.Policy, counts []int) rules.Choice {
	if p == rules.PolicySafe {
		for i := 1; i < len(counts); i += 2 {
			if counts[i] > 0 {
				return rules.Safe
			}
		}
	}
	return rules.Daring
}
