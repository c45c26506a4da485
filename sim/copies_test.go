package sim_test

import (
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

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

// canonicalDeals calls visit with every arrangement of faces faces of copies cards, the faces
// appearing in the order 0, 1, 2, ... (every arrangement up to the faces' names).
func canonicalDeals(faces, copies int, visit func(deal []int)) {
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

// refCopiesGame plays a deal card by card as docs/models.md §4.16 describes a table player's turn
// with k copies of a face, each seat choosing with choose, and returns seat 0's pairs less seat
// 1's and the turns. Its next unknown card is the first in position order: under a uniform deal
// this is as good as a uniform choice, so its averages over every deal are the engine's.
func refCopiesGame(deal []int, copies int, choose func(counts []int) rules.Choice) (lead, turns int) {
	present, known := make([]bool, len(deal)), make([]bool, len(deal))
	for i := range present {
		present[i] = true
	}
	faces := len(deal) / copies
	left := func(f int) (r, b int) {
		for pos, g := range deal {
			if present[pos] && g == f {
				r++
				if known[pos] {
					b++
				}
			}
		}
		return r, b
	}
	first := func(ok func(pos int) bool) int {
		for pos := range deal {
			if present[pos] && ok(pos) {
				return pos
			}
		}
		return -1
	}
	score := [2]int{}
	seat := 0
	take := func(a, b int) { present[a], present[b] = false, false; score[seat]++ }
	for first(func(int) bool { return true }) >= 0 {
		turns++
		counts := make([]int, copies)
		whole := -1
		for f := range faces {
			if r, b := left(f); r > 0 {
				if b >= 2 {
					whole = f
				}
				counts[r-2+min(b, 1)]++
			}
		}
		if whole >= 0 {
			a := first(func(p int) bool { return known[p] && deal[p] == whole })
			take(a, first(func(p int) bool { return p != a && known[p] && deal[p] == whole }))
			continue
		}
		unknown := func(p int) bool { return !known[p] }
		c := choose(counts)
		var x int
		if c == rules.KnownFirst {
			most := 0
			for p := range deal {
				if r, _ := left(deal[p]); present[p] && known[p] && r > most {
					x, most = p, r
				}
			}
		} else {
			x = first(unknown)
			known[x] = true
			if p := first(func(p int) bool { return p != x && known[p] && deal[p] == deal[x] }); p >= 0 {
				take(x, p)
				continue
			}
			if c == rules.Safe {
				seat = 1 - seat
				continue
			}
		}
		y := first(unknown)
		known[y] = true
		if deal[y] == deal[x] {
			take(x, y)
			continue
		}
		seat = 1 - seat
	}
	return score[0] - score[1], turns
}

// TestEnginePlaysCopiesTables plays a table read by the state of faces (known-first wherever a
// card is remembered, so that the face it flips first matters; and safe) on every deal of three
// faces of four cards and of two faces of six, and compares the engine's averages with those of a
// card-by-card reference, exactly.
func TestEnginePlaysCopiesTables(t *testing.T) {
	for _, d := range []struct{ faces, copies int }{{3, 4}, {2, 6}} {
		for _, pick := range []rules.Choice{rules.KnownFirst, rules.Safe} {
			choose := func(counts []int) rules.Choice {
				for i := 1; i < len(counts); i += 2 {
					if counts[i] > 0 {
						return pick
					}
				}
				return rules.Daring
			}
			ct := rules.NewCopiesTable(d.copies)
			copiesStates(d.faces, d.copies, func(counts []int) {
				if err := ct.Set(counts, choose(counts)); err != nil {
					t.Fatal(err)
				}
			})
			pairs := d.faces * d.copies / 2
			tab, err := rules.NewCopiesChoiceTable(pairs, ct)
			if err != nil {
				t.Fatal(err)
			}
			g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: rules.Variant{Copies: d.copies},
				Players: []sim.Player{tablePlayer("a", rules.Memory{}, tab), tablePlayer("b", rules.Memory{}, tab)}})
			if err != nil {
				t.Fatal(err)
			}
			var engLead, engTurns, refLead, refTurns int
			i := uint64(0)
			canonicalDeals(d.faces, d.copies, func(deal []int) {
				if err := g.PlayDeal(sim.GameID{Seed: 1, Index: i}, deal, nil); err != nil {
					t.Fatal(err)
				}
				i++
				o := g.Outcome()
				engLead += o.Pairs[0] - o.Pairs[1]
				engTurns += o.Turns
				l, tu := refCopiesGame(deal, d.copies, choose)
				refLead += l
				refTurns += tu
			})
			if engLead != refLead || engTurns != refTurns {
				t.Errorf("%d faces of %d, %s: engine lead %d turns %d over %d deals, reference %d and %d",
					d.faces, d.copies, pick, engLead, engTurns, i, refLead, refTurns)
			}
		}
	}
}
