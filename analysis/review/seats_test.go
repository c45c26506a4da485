package review_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// seatsTable is a card-level view of a game of several seats as a perfect memory sees it: every
// position gone, seen (with its face) or never seen.
type seatsTable struct {
	face []int // the face seen at a position, -1 for one never seen
	gone []bool
}

// seatsTurn is what the card-by-card replay of a record says of a turn's start.
type seatsTurn struct {
	tab           seatsTable
	mover, passes int
	taken         []int
}

// replaySeats replays game g card by card, without the record's own tables, and returns the
// start of every completed turn: the cards as a perfect memory sees them, the mover (seat 0
// first, the mover again after a pair, else the next seat) and the pass streak (a pass line or
// two seen cards that are not a pair add one, other turns end it; none under pass rule never).
func replaySeats(g *record.Game) []seatsTurn {
	cards := g.Rules.Cards()
	p := g.Rules.Seats
	tab := seatsTable{face: make([]int, cards), gone: make([]bool, cards)}
	for i := range tab.face {
		tab.face[i] = -1
	}
	taken := make([]int, p)
	var out []seatsTurn
	mover, passes := 0, 0
	for i := 0; i < len(g.Moves); {
		cp := seatsTable{face: append([]int(nil), tab.face...), gone: append([]bool(nil), tab.gone...)}
		out = append(out, seatsTurn{tab: cp, mover: mover, passes: passes, taken: append([]int(nil), taken...)})
		a := g.Moves[i]
		if a.Pass {
			passes++
			mover = (mover + 1) % p
			i++
			continue
		}
		if i+1 >= len(g.Moves) {
			out = out[:len(out)-1] // an unfinished turn
			break
		}
		b := g.Moves[i+1]
		i += 2
		bothSeen := tab.face[a.Pos] >= 0 && tab.face[b.Pos] >= 0
		tab.face[a.Pos], tab.face[b.Pos] = a.Face, b.Face
		switch {
		case a.Face == b.Face:
			tab.gone[a.Pos], tab.gone[b.Pos] = true, true
			taken[mover]++
			passes = 0
		case bothSeen:
			passes++
			mover = (mover + 1) % p
		default:
			passes = 0
			mover = (mover + 1) % p
		}
		if g.Rules.Pass == rules.PassNever {
			passes = 0
		}
	}
	return out
}

// counts returns the count state of t in a game of pairs pairs (no singletons) once the pairs
// known whole are taken: n the pairs on the table less those known whole, j those with no card
// seen.
func (t seatsTable) counts(pairs int) rules.State {
	seen := make([]int, pairs)
	on := 0
	for pos, fc := range t.face {
		if t.gone[pos] {
			continue
		}
		on++
		if fc >= 0 {
			seen[fc]++
		}
	}
	whole, half := 0, 0
	for _, c := range seen {
		switch c {
		case 2:
			whole++
		case 1:
			half++
		}
	}
	return rules.State{N: on/2 - whole, J: on/2 - whole - half}
}

// cardLevel values the choices of a game of pairs only card by card: the table as positions, the
// face of a card never seen drawn from the faces whose cards are not all seen, each seat taking
// the pairs it knows whole and then making the first choice in the order daring, safe,
// known-first, pass with the most expected pairs for itself (docs/models.md §3.2, §4.7). Values
// are vectors of expected pairs from the turn on, in order from the mover.
type cardLevel struct {
	pairs, p int
	pass     rules.PassRule
	memo     map[string][]*big.Rat
}

func (c *cardLevel) key(t seatsTable, k int) string {
	var b strings.Builder
	for pos, fc := range t.face {
		switch {
		case t.gone[pos]:
			b.WriteString("x,")
		default:
			fmt.Fprintf(&b, "%d,", fc)
		}
	}
	fmt.Fprintf(&b, "/%d", k)
	return b.String()
}

func (c *cardLevel) zero() []*big.Rat {
	v := make([]*big.Rat, c.p)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

// addScaled adds pr * v to acc; with shift, v is from the next seat's side.
func (c *cardLevel) addScaled(acc []*big.Rat, pr *big.Rat, v []*big.Rat, shift bool) {
	for s := range acc {
		w := v[s]
		if shift {
			w = v[(s-1+c.p)%c.p]
		}
		acc[s].Add(acc[s], new(big.Rat).Mul(pr, w))
	}
}

// value returns the vector of the mover in t at pass streak k, every seat for itself.
func (c *cardLevel) value(t seatsTable, k int) []*big.Rat {
	key := c.key(t, k)
	if v, ok := c.memo[key]; ok {
		return v
	}
	// A pair known whole is taken first: one pair to the mover, who moves again.
	for a, fa := range t.face {
		for b := a + 1; b < len(t.face); b++ {
			if fa >= 0 && !t.gone[a] && !t.gone[b] && t.face[b] == fa {
				v := c.zero()
				c.addScaled(v, big.NewRat(1, 1), c.value(t.take(a, b), 0), false)
				v[0].Add(v[0], big.NewRat(1, 1))
				c.memo[key] = v
				return v
			}
		}
	}
	opts := c.options(t, k)
	var best []*big.Rat
	for _, ch := range rules.Choices() {
		if v, ok := opts[ch]; ok && (best == nil || v[0].Cmp(best[0]) > 0) {
			best = v
		}
	}
	if best == nil {
		best = c.zero() // no card left
	}
	c.memo[key] = best
	return best
}

// take returns t with the cards at a and b gone.
func (t seatsTable) take(a, b int) seatsTable {
	u := seatsTable{face: append([]int(nil), t.face...), gone: append([]bool(nil), t.gone...)}
	u.gone[a], u.gone[b] = true, true
	return u
}

// show returns t with the card at pos seen to show face.
func (t seatsTable) show(pos, face int) seatsTable {
	u := seatsTable{face: append([]int(nil), t.face...), gone: append([]bool(nil), t.gone...)}
	u.face[pos] = face
	return u
}

// draws returns the first card never seen (other than not) and the chance of each face it may
// show: each face's cards on the table not yet seen, over all such cards.
func (c *cardLevel) draws(t seatsTable, not int) (int, map[int]*big.Rat) {
	left := make([]int, c.pairs)
	for fc := range left {
		left[fc] = 2
	}
	pos := -1
	for q, fc := range t.face {
		switch {
		case fc >= 0:
			left[fc]--
		case t.gone[q]:
		case q != not && pos < 0:
			pos = q
		}
	}
	// Faces whose cards are gone were both seen (faces are set when a card is turned).
	total := 0
	for _, l := range left {
		total += l
	}
	out := map[int]*big.Rat{}
	for fc, l := range left {
		if l > 0 {
			out[fc] = big.NewRat(int64(l), int64(total))
		}
	}
	return pos, out
}

// seenOf returns a seen card of face on the table other than not, or -1.
func (t seatsTable) seenOf(face, not int) int {
	for q, fc := range t.face {
		if fc == face && !t.gone[q] && q != not {
			return q
		}
	}
	return -1
}

// options returns the vector of each legal choice of the mover in t at streak k.
func (c *cardLevel) options(t seatsTable, k int) map[rules.Choice][]*big.Rat {
	known, on := 0, 0
	firstSeen := -1
	for q, fc := range t.face {
		if t.gone[q] {
			continue
		}
		on++
		if fc >= 0 {
			known++
			if firstSeen < 0 {
				firstSeen = q
			}
		}
	}
	out := map[rules.Choice][]*big.Rat{}
	if on == 0 {
		return out
	}
	// after returns the mover's vector once a turn ends with cards a and b shown: a pair keeps
	// the move, a miss hands it on.
	after := func(acc []*big.Rat, pr *big.Rat, t seatsTable, a, b int) {
		if t.face[a] == t.face[b] {
			v := c.value(t.take(a, b), 0)
			c.addScaled(acc, pr, v, false)
			acc[0].Add(acc[0], pr)
			return
		}
		c.addScaled(acc, pr, c.value(t, 0), true)
	}
	newFirst := func(second func(acc []*big.Rat, pr *big.Rat, t seatsTable, u int)) []*big.Rat {
		acc := c.zero()
		u, faces := c.draws(t, -1)
		for fc, pr := range faces {
			tu := t.show(u, fc)
			if q := tu.seenOf(fc, u); q >= 0 {
				after(acc, pr, tu, u, q)
				continue
			}
			second(acc, pr, tu, u)
		}
		return acc
	}
	out[rules.Daring] = newFirst(func(acc []*big.Rat, pr *big.Rat, tu seatsTable, u int) {
		v, faces := c.draws(tu, u)
		for fc, pv := range faces {
			after(acc, new(big.Rat).Mul(pr, pv), tu.show(v, fc), u, v)
		}
	})
	if known >= 1 {
		out[rules.Safe] = newFirst(func(acc []*big.Rat, pr *big.Rat, tu seatsTable, u int) {
			after(acc, pr, tu, u, firstSeen)
		})
		acc := c.zero()
		u, faces := c.draws(t, -1)
		for fc, pr := range faces {
			after(acc, pr, t.show(u, fc), firstSeen, u)
		}
		out[rules.KnownFirst] = acc
	}
	if c.pass == rules.PassAlways || c.pass == rules.PassTwoKnown && known >= 2 {
		if k == c.p-1 {
			v := c.zero()
			for s := range v {
				v[s].SetFrac64(int64(on/2), int64(c.p))
			}
			out[rules.Pass] = v
		} else {
			v := c.zero()
			c.addScaled(v, big.NewRat(1, 1), c.value(t, k+1), true)
			out[rules.Pass] = v
		}
	}
	return out
}

// seatsRandomRecord returns the record of a game of p seats in which each turn takes a pair
// known whole, or else makes a choice of the model picked at random among those legal (daring,
// safe, known-first, pass), or, one turn in three, turns two cards on the table at random (often
// outside the model).
func seatsRandomRecord(t *testing.T, pass rules.PassRule, p, pairs int, seed uint64) *record.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	cards := 2 * pairs
	deal := make([]int, cards)
	for i := range deal {
		deal[i] = i / 2
	}
	rng.Shuffle(cards, func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	g := &record.Game{Rules: record.Rules{Pairs: pairs, Seats: p, Pass: pass}, Deal: deal}
	seen, gone := make([]bool, cards), make([]bool, cards)
	passes := 0
	flip := func(pos int) { g.Moves = append(g.Moves, record.Flip(pos, deal[pos])) }
	for left := pairs; left > 0 && len(g.Moves) < 400 && passes < p; {
		var unseen, known []int
		partner := -1 // a seen card whose partner is seen too
		for pos := range cards {
			switch {
			case gone[pos]:
			case seen[pos]:
				known = append(known, pos)
				for _, q := range known[:len(known)-1] {
					if deal[q] == deal[pos] {
						partner = q
					}
				}
			default:
				unseen = append(unseen, pos)
			}
		}
		seenOf := func(face, not int) int {
			for _, q := range known {
				if deal[q] == face && q != not {
					return q
				}
			}
			return -1
		}
		var a, b int
		passOK := pass == rules.PassAlways || pass == rules.PassTwoKnown && len(known) >= 2
		choice := rng.IntN(4)
		if passes > 0 && rng.IntN(4) > 0 {
			choice = 3 // a streak of passes now and then, up to the stalemate
		}
		switch {
		case partner >= 0:
			a, b = partner, seenOf(deal[partner], partner)
		case rng.IntN(3) == 0 && len(unseen)+len(known) >= 2:
			on := append(append([]int(nil), unseen...), known...)
			a = on[rng.IntN(len(on))]
			for b = a; b == a; b = on[rng.IntN(len(on))] {
			}
		case choice == 3 && passOK:
			g.Moves = append(g.Moves, record.PassMove())
			passes++
			continue
		case choice == 2 && len(known) > 0 && len(unseen) > 0: // known-first
			a, b = known[rng.IntN(len(known))], unseen[rng.IntN(len(unseen))]
		default: // daring, or safe: a new card, its partner if seen, else a new or a seen card
			a = unseen[rng.IntN(len(unseen))]
			switch q := seenOf(deal[a], a); {
			case q >= 0:
				b = q
			case choice == 1 && len(known) > 0:
				b = known[rng.IntN(len(known))]
			default:
				b = a
				for len(unseen) > 1 && b == a {
					b = unseen[rng.IntN(len(unseen))]
				}
				if b == a {
					b = known[0]
				}
			}
		}
		flip(a)
		flip(b)
		if seen[a] && seen[b] && deal[a] != deal[b] && pass != rules.PassNever {
			passes++
		} else {
			passes = 0
		}
		seen[a], seen[b] = true, true
		if deal[a] == deal[b] {
			gone[a], gone[b] = true, true
			left--
		}
	}
	g.Ended = passes == p
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	return g
}

// seatsChoicesOf returns a decision's options by choice.
func seatsChoicesOf[T any](d review.SeatsDecision[T]) map[rules.Choice]T {
	out := map[rules.Choice]T{}
	for _, o := range d.Options {
		out[o.Choice] = o.Pairs
	}
	return out
}

// TestSeatsReviewIsTheCardLevelOptimum checks the review of games of three seats and a few pairs
// under every pass rule against a card-level search written here: at each decision the state,
// the mover and the pass streak of a card-by-card replay of the record, every legal choice's
// value to the mover (the choice made, then every seat for itself) and the best option the
// largest of them; every seat's values at the decision add up to the pairs on the table.
func TestSeatsReviewIsTheCardLevelOptimum(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	pairsMax, seeds := 4, uint64(6)
	passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	if testing.Short() {
		pairsMax, seeds = 3, 3
	}
	lastStreak, outside := 0, 0
	for _, pass := range passRules {
		for pairs := 2; pairs <= pairsMax; pairs++ {
			cl := &cardLevel{pairs: pairs, p: 3, pass: pass, memo: map[string][]*big.Rat{}}
			for seed := range seeds {
				g := seatsRandomRecord(t, pass, 3, pairs, seed)
				name := fmt.Sprintf("pass %v, %d pairs, seed %d", pass, pairs, seed)
				r, err := review.SeatsGame(ctx, f, g)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				turns := replaySeats(g)
				for _, d := range r.Decisions {
					if d.Passes == 2 {
						lastStreak++
					}
					if d.Chosen < 0 {
						outside++
					}
				}
				for i, d := range r.Decisions {
					at := turns[d.Turn]
					if st := at.tab.counts(pairs); d.State != st || d.Seat != at.mover || d.Passes != at.passes {
						t.Fatalf("%s: turn %d: state %v, seat %d, streak %d; the replay has %v, seat %d, streak %d",
							name, d.Turn+1, d.State, d.Seat, d.Passes, st, at.mover, at.passes)
					}
					want := cl.options(at.tab, at.passes)
					got := seatsChoicesOf(d)
					if len(got) != len(want) {
						t.Fatalf("%s: turn %d: options %v, the card level has %d", name, d.Turn+1, got, len(want))
					}
					best := new(big.Rat)
					first := true
					for ch, v := range want {
						if g, ok := got[ch]; !ok || g.Cmp(v[0]) != 0 {
							t.Errorf("%s: turn %d: %v is worth %v to the mover, the card level says %v", name, d.Turn+1, ch, g, v[0].RatString())
						}
						if first || v[0].Cmp(best) > 0 {
							best, first = v[0], false
						}
					}
					if b := d.Options[d.Best].Pairs; b.Cmp(best) != 0 {
						t.Errorf("%s: turn %d: the best option (%v) is worth %v, the card level's best %v", name, d.Turn+1, d.Options[d.Best].Choice, b, best.RatString())
					}
					if d.Chosen >= 0 {
						if want := cardLevelLuck(cl, g, r, i, turns); d.Luck.Cmp(want) != 0 {
							t.Errorf("%s: turn %d: luck %v, the card level says %v", name, d.Turn+1, d.Luck.RatString(), want.RatString())
						}
					}
					sum := new(big.Rat)
					for _, v := range d.BySeat {
						sum.Add(sum, v)
					}
					if sum.Cmp(big.NewRat(int64(d.State.N), 1)) != 0 {
						t.Errorf("%s: turn %d: the seats' values add up to %v, not n = %d", name, d.Turn+1, sum.RatString(), d.State.N)
					}
				}
			}
		}
	}
	if lastStreak == 0 || outside == 0 {
		t.Errorf("the games hold %d decisions at the last pass streak and %d outside the model: want some of each", lastStreak, outside)
	}
}

// cardLevelLuck returns the luck of the i-th decision of review r of game g by the card level:
// when the turn turned a card never seen, the mover's pairs so far plus its value at the next
// decision (or its score when the game is over), less its pairs before the turn plus the value of
// the choice credited; zero otherwise, and for a last turn whose outcome is not valued yet.
func cardLevelLuck(cl *cardLevel, g *record.Game, r *review.SeatsReview[*big.Rat], i int, turns []seatsTurn) *big.Rat {
	d := r.Decisions[i]
	at := turns[d.Turn]
	turn := g.Turns[d.Turn]
	fresh := false
	for m := turn.First; m < turn.First+turn.Moves; m++ {
		if mv := g.Moves[m]; !mv.Pass && at.tab.face[mv.Pos] < 0 {
			fresh = true
		}
	}
	if !fresh {
		return new(big.Rat)
	}
	var after *big.Rat
	switch {
	case i+1 < len(r.Decisions):
		next := turns[r.Decisions[i+1].Turn]
		v := cl.value(next.tab, next.passes)
		after = new(big.Rat).Add(big.NewRat(int64(next.taken[d.Seat]), 1), v[(d.Seat-next.mover+cl.p)%cl.p])
	case g.Result.Over:
		after = new(big.Rat).SetFloat64(g.Result.Scores[d.Seat])
		if g.Result.Stalemate { // a share of the pairs left: a third, not a float64
			after = new(big.Rat).Add(big.NewRat(int64(g.Result.Taken[d.Seat]), 1), big.NewRat(int64(g.Result.Left), int64(cl.p)))
		}
	default:
		return new(big.Rat)
	}
	credited := cl.options(at.tab, at.passes)[d.Options[d.Chosen].Choice][0]
	before := new(big.Rat).Add(big.NewRat(int64(at.taken[d.Seat]), 1), credited)
	return after.Sub(after, before)
}

// TestSeatsReviewValuesAreTheSolversChoiceValues checks the review of longer games of three to
// five seats against exact.ChoiceValues in the state a card-by-card replay of the record gives:
// daring, safe and known-first are worth the same at every pass streak, and a pass at streak k
// hands the state to the next seat at streak k+1 (the stalemate at the last streak, n/p pairs to
// each seat), which this test follows up the streaks from the choice values' vectors.
func TestSeatsReviewValuesAreTheSolversChoiceValues(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	pairs, seats := 7, []int{3, 4, 5}
	if testing.Short() {
		pairs, seats = 4, []int{3, 4}
	}
	for _, p := range seats {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			g := seatsRandomRecord(t, pass, p, pairs, uint64(p))
			r, err := review.SeatsGame(ctx, f, g)
			if err != nil {
				t.Fatal(err)
			}
			turns := replaySeats(g)
			m := exact.Model{Pass: pass, Choices: g.Rules.Choices}
			mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			for _, d := range r.Decisions {
				at := turns[d.Turn]
				st := at.tab.counts(pairs)
				cs, err := exact.ChoiceValues(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want := streakChoices(f, cs, p, at.passes)
				got := seatsChoicesOf(d)
				if len(got) != len(want) {
					t.Fatalf("%d seats, pass %v: turn %d: options %v, the solver has %v", p, pass, d.Turn+1, got, want)
				}
				for ch, v := range want {
					if g, ok := got[ch]; !ok || g.Cmp(v) != 0 {
						t.Errorf("%d seats, pass %v: turn %d (%v, streak %d): %v is worth %v, the solver says %v", p, pass, d.Turn+1, st, at.passes, ch, g, v.RatString())
					}
				}
			}
		}
	}
}

// streakChoices returns the mover's value of each legal choice at pass streak k from the choice
// values at streak 0: the same for every choice but the pass; a pass at the last streak is the
// stalemate, and at streak k < p-1 it gives the mover the last seat's entry of the vector the next
// seat makes at streak k+1 (its first best choice in the order daring, safe, known-first, pass).
func streakChoices(f field.Field[*big.Rat], cs exact.Choices[*big.Rat], p, k int) map[rules.Choice]*big.Rat {
	// level returns every legal choice's vector, in order from the mover, at streak k.
	var level func(k int) [][]*big.Rat
	best := func(vs [][]*big.Rat) []*big.Rat {
		var b []*big.Rat
		for _, v := range vs {
			if v != nil && (b == nil || v[0].Cmp(b[0]) > 0) {
				b = v
			}
		}
		return b
	}
	level = func(k int) [][]*big.Rat {
		out := make([][]*big.Rat, rules.NumChoices)
		for _, v := range cs.Values {
			if v.Choice != rules.Pass {
				out[v.Choice] = v.PairsBySeat
				continue
			}
			vec := make([]*big.Rat, p)
			if k == p-1 {
				for s := range vec {
					vec[s] = big.NewRat(int64(cs.State.N), int64(p))
				}
			} else {
				next := best(level(k + 1))
				for s := range vec {
					vec[s] = next[(s-1+p)%p]
				}
			}
			out[rules.Pass] = vec
		}
		return out
	}
	out := map[rules.Choice]*big.Rat{}
	for ch, v := range level(k) {
		if v != nil {
			out[rules.Choice(ch)] = v[0]
		}
	}
	return out
}
