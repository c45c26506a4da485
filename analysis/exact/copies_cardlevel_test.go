package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// deals calls visit with every arrangement of faces copies cards each, up to the names of the
// faces: the faces appear in the order 0, 1, 2, ... (a game does not depend on the faces' names,
// and every such arrangement stands for the same number, faces!, of distinct sequences, each as
// likely as the others under a uniform shuffle).
func deals(faces, copies int, visit func(deal []int)) {
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

// cardGame is a game played card by card with perfect memory. The next unknown card is always
// the first one in position order: given what has been seen, the faces of the unknown cards are
// exchangeable under a uniform deal, so this is as good as a uniform choice.
type cardGame struct {
	face           []int
	present, known []bool
	copies         int
}

// counts returns the count state the mover sees: counts[2i+b] faces with 2(i+1) cards on the
// table, b of them remembered.
func (g *cardGame) counts() []int {
	faces := 0
	for _, f := range g.face {
		faces = max(faces, f+1)
	}
	left, rem := make([]int, faces), make([]int, faces)
	for pos, f := range g.face {
		if g.present[pos] {
			left[f]++
			if g.known[pos] {
				rem[f]++
			}
		}
	}
	c := make([]int, g.copies)
	for f := range left {
		if left[f] > 0 {
			c[left[f]-2+rem[f]]++
		}
	}
	return c
}

// find returns the first card on the table that passes ok, or -1.
func (g *cardGame) find(ok func(pos int) bool) int {
	for pos := range g.face {
		if g.present[pos] && ok(pos) {
			return pos
		}
	}
	return -1
}

// cardRules is the rule variant playCardGame plays: copies cards to a face, the seats, a turn
// limit (0: none) and blind flips (else sequential), with perfect memory and pass rule never.
type cardRules struct {
	copies, players, limit int
	blind                  bool
}

// playCardGame plays a game of the deal card by card, the cards known remembered at the start
// (nil: none), as docs/models.md §1.7 and §5.2 describe it, without the count formulas, with the
// seats' choices given by choose (turn counts from 1). A pair remembered whole is taken first, a
// turn of its own. Under sequential flips daring and safe turn up the first unknown card (its
// remembered partner, else another unknown card or, for safe where a card is remembered, the
// turn ends), known-first a remembered card of a face with the most cards on the table (the first
// among equals) and then the first unknown card. Under blind flips daring names the first two
// unknown cards (the first remembered one when one unknown card is left), safe and known-first a
// remembered card of a face with the most cards on the table and the first unknown card; both are
// turned up together. The game stops after limit turns (0: no limit), the pairs left counting for
// nobody. It returns every seat's pairs, the turns and the lucky matches (two cards of a face
// unknown before the turn).
func playCardGame(deal []int, known []bool, r cardRules, choose func(seat, turn int, counts []int) rules.Choice) (pairs []int, turns, lucky int) {
	g := &cardGame{face: deal, present: make([]bool, len(deal)), known: make([]bool, len(deal)), copies: r.copies}
	copy(g.known, known)
	for i := range g.present {
		g.present[i] = true
	}
	pairs = make([]int, r.players)
	seat := 0
	take := func(a, b int) {
		g.present[a], g.present[b] = false, false
		pairs[seat]++
	}
	unknown := func(pos int) bool { return !g.known[pos] }
	partnerOf := func(a int) int {
		return g.find(func(b int) bool { return b != a && g.known[b] && g.face[b] == g.face[a] })
	}
	for g.find(func(int) bool { return true }) >= 0 && (r.limit == 0 || turns < r.limit) {
		turns++
		if a := g.find(func(a int) bool { return g.known[a] && partnerOf(a) >= 0 }); a >= 0 {
			take(a, partnerOf(a))
			continue
		}
		c := choose(seat, turns, g.counts())
		var x, y int
		fresh := true // x and y unknown before the turn
		switch {
		case r.blind:
			x = g.find(unknown)
			if c != rules.Daring {
				y = mostCardsRemembered(g)
			} else if y = g.find(func(pos int) bool { return unknown(pos) && pos != x }); y < 0 {
				y = g.find(func(pos int) bool { return g.known[pos] })
			}
			fresh = !g.known[x] && !g.known[y]
			g.known[x], g.known[y] = true, true
		case c == rules.KnownFirst:
			x, y, fresh = mostCardsRemembered(g), g.find(unknown), false
			g.known[y] = true
		default:
			x = g.find(unknown)
			g.known[x] = true
			if p := partnerOf(x); p >= 0 {
				take(x, p)
				continue
			}
			if c == rules.Safe && g.find(func(p int) bool { return p != x && g.known[p] }) >= 0 {
				seat = (seat + 1) % r.players
				continue
			}
			y = g.find(unknown)
			g.known[y] = true
		}
		if g.face[x] == g.face[y] {
			if fresh {
				lucky++
			}
			take(x, y)
			continue
		}
		seat = (seat + 1) % r.players
	}
	return pairs, turns, lucky
}

// mostCardsRemembered returns the first remembered card on the table of a face with the most
// cards on the table.
func mostCardsRemembered(g *cardGame) int {
	best, most := -1, 0
	for pos := range g.face {
		if !g.present[pos] || !g.known[pos] {
			continue
		}
		left := 0
		for q := range g.face {
			if g.present[q] && g.face[q] == g.face[pos] {
				left++
			}
		}
		if left > most {
			best, most = pos, left
		}
	}
	return best
}

// TestCopiesModelMatchesCardPlay plays every deal of small decks card by card, each seat following
// its policy (optimal and best-response read from the solver's table, the values from the cards),
// and compares the averages with the copies model's values exactly. Without safe in the choice
// set, known-first is the optimum in some states.
func TestCopiesModelMatchesCardPlay(t *testing.T) {
	decks := []struct{ faces, copies int }{{3, 4}, {2, 6}, {2, 4}, {1, 8}}
	if testing.Short() {
		decks = decks[1:] // three faces of four cards, the largest, only in the long run
	}
	noSafe := rules.NewChoiceSet(rules.Daring, rules.KnownFirst)
	for _, d := range decks {
		for _, mu := range copiesLineups() {
			checkCardPlay(t, Model{Variant: rules.Variant{Copies: d.copies}}, mu, d.faces, d.copies)
		}
		for _, mu := range []Lineup{
			{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
			{Players: 1, Policy: rules.PolicyOptimal},
			{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		} {
			checkCardPlay(t, Model{Variant: rules.Variant{Copies: d.copies}, Choices: noSafe}, mu, d.faces, d.copies)
		}
	}
}

// checkCardPlay compares the copies model's values of mu in m with the averages of card play
// over every deal of the given faces.
func checkCardPlay(t *testing.T, m Model, mu Lineup, faces, copies int) {
	t.Helper()
	ctx, f := context.Background(), field.Rat{}
	pairs := faces * copies / 2
	seats := make([]rules.Policy, mu.Players)
	for i := range seats {
		seats[i] = mu.Opponent
		if mu.PerSeat {
			seats[i] = mu.Seats[i]
		}
	}
	seats[0] = mu.Policy
	tables := map[rules.Policy]*rules.CopiesTable{}
	for _, p := range seats {
		if p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
			continue
		}
		tm := mu
		if p == rules.PolicyOptimal {
			tm = Lineup{Players: mu.Players, Policy: p, Opponent: p}
		}
		tab, err := CopiesPolicyTable(ctx, f, m, tm, pairs)
		if err != nil {
			t.Fatal(err)
		}
		tables[p] = tab
	}
	choose := func(seat, _ int, counts []int) rules.Choice {
		p := seats[seat]
		if tab := tables[p]; tab != nil {
			c, ok := tab.Lookup(counts)
			if !ok {
				t.Fatalf("%s: no choice in %v", lineupName(mu), counts)
			}
			return c
		}
		known := 0
		for i := 1; i < len(counts); i += 2 {
			known += counts[i]
		}
		if p == rules.PolicySafe && known > 0 {
			return rules.Safe
		}
		return rules.Daring
	}
	sumPairs := make([]int64, mu.Players)
	var sumTurns, sumLucky, count int64
	leads := make([]int64, 2*pairs+1) // two players: the games by seat 0's lead
	deals(faces, copies, func(deal []int) {
		ps, turns, lucky := playCardGame(deal, nil, cardRules{copies: copies, players: mu.Players}, choose)
		for i, p := range ps {
			sumPairs[i] += int64(p)
		}
		if mu.Players == 2 {
			leads[ps[0]-ps[1]+pairs]++
		}
		sumTurns += int64(turns)
		sumLucky += int64(lucky)
		count++
	})
	start, err := StartCopiesState(pairs, copies)
	if err != nil {
		t.Fatal(err)
	}
	res, err := EvaluateCopies(ctx, f, m, mu, start)
	if err != nil {
		t.Fatal(err)
	}
	mean := func(sum int64) *big.Rat { return big.NewRat(sum, count) }
	name := fmt.Sprintf("%d faces of %d, choices %s, %s", faces, copies, m.Choices, lineupName(mu))
	if mu.Players == 1 {
		if res.ExpectedTurns.Cmp(mean(sumTurns)) != 0 || res.ExpectedLucky.Cmp(mean(sumLucky)) != 0 {
			t.Errorf("%s: turns %v lucky %v, cards %v and %v", name, res.ExpectedTurns, res.ExpectedLucky, mean(sumTurns), mean(sumLucky))
		}
		return
	}
	for i := range sumPairs {
		if res.PairsBySeat[i].Cmp(mean(sumPairs[i])) != 0 {
			t.Errorf("%s: seat %d expects %v pairs, cards %v", name, i, res.PairsBySeat[i], mean(sumPairs[i]))
		}
	}
	if mu.Players != 2 || mu.PerSeat {
		return
	}
	d, err := CopiesDistribution(ctx, f, m, mu, start)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range d.Prob {
		if p.Cmp(mean(leads[i])) != 0 {
			t.Errorf("%s: P(seat 0 collects %d/2 pairs) = %v, cards %v", name, i, p, mean(leads[i]))
		}
	}
}

// TestCopiesChoicesMatchCardPlay checks every legal choice's two-player lead, optimal play
// afterwards, from states with remembered cards of faces with different numbers of cards on the
// table (where known-first's choice of face matters), against card play over every arrangement of
// the unknown cards.
func TestCopiesChoicesMatchCardPlay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, v := range []copiesVec{{0, 1, 0, 1}, {1, 1, 0, 1}, {0, 1, 1, 1}, {0, 1, 0, 1, 0, 1}, {0, 0, 0, 1, 0, 1}} {
		m := Model{Variant: rules.Variant{Copies: len(v)}}
		s, err := newCopiesSolver(ctx, f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.get(v.key(), 0)
		if err != nil {
			t.Fatal(err)
		}
		// The deal: one remembered card of every half-known face first, then the unknown cards.
		var known, unknown []int
		face := 0
		for cl, a := range v {
			r, b := cl&^1+2, cl&1
			for range a {
				if b == 1 {
					known = append(known, face)
				}
				for range r - b {
					unknown = append(unknown, face)
				}
				face++
			}
		}
		for _, ch := range rules.Choices() {
			if !c.legal[ch] {
				continue
			}
			choose := func(_, turn int, counts []int) rules.Choice {
				if turn == 1 {
					return ch
				}
				x, ok := s.memo[copiesAt{string(rules.AppendCopiesKey(nil, counts)), 0}]
				if !ok {
					t.Fatalf("state %v not solved", counts)
				}
				return x.optChoice
			}
			var sum, count int64
			permutations(unknown, func(rest []int) {
				deal := append(append([]int(nil), known...), rest...)
				start := make([]bool, len(deal))
				for i := range known {
					start[i] = true
				}
				ps, _, _ := playCardGame(deal, start, cardRules{copies: len(v), players: 2}, choose)
				sum += int64(ps[0] - ps[1])
				count++
			})
			if want := big.NewRat(sum, count); c.optDev[ch].Cmp(want) != 0 {
				t.Errorf("%s, %s: lead %v, cards %v", v.state(), ch, c.optDev[ch], want)
			}
		}
	}
}

// permutations calls visit with every distinct arrangement of the multiset cards.
func permutations(cards []int, visit func([]int)) {
	count := map[int]int{}
	var faces []int
	for _, c := range cards {
		if count[c] == 0 {
			faces = append(faces, c)
		}
		count[c]++
	}
	out := make([]int, len(cards))
	var rec func(pos int)
	rec = func(pos int) {
		if pos == len(out) {
			visit(out)
			return
		}
		for _, f := range faces {
			if count[f] > 0 {
				count[f]--
				out[pos] = f
				rec(pos + 1)
				count[f]++
			}
		}
	}
	rec(0)
}
