package exact

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesWinSearch plays the copies game card by card over a set of deals, all equally likely,
// every seat maximising its own P(most pairs), a tie for the most shared, from what it has seen:
// its information is the faces turned up so far, so a choice's value averages over the deals
// that agree with them. A card named is the first unseen one in position order (the faces of the
// unseen cards are exchangeable). Seats whose policy is safe or daring play that choice. Under a
// turn limit (limit > 0) every turn uses one of the turns left, taking a pair remembered whole
// too, and with none left the pairs taken decide. Under a pass rule (rule) a seat that plays to
// win may also pass (always, or two-known with two cards seen and not taken on the table): a pass
// flips nothing, uses a turn under a limit and hands the move to the next seat one pass further
// in a row; the players-th pass in a row ends the game, the pairs left shared equally, and every
// other turn resets the streak. Values are vectors of swVectors·players entries by absolute seat:
// the scores, the pairs taken in all (those before the start included), alone with the most, tied.
type copiesWinSearch struct {
	deals   [][]int
	players int
	blind   bool
	limit   int
	rule    rules.PassRule
	pol     []rules.Policy
	memo    map[string][]*big.Rat
}

// cards is the state of the table in a search: obs[pos] is the face turned up at pos, -1 unseen,
// gone+f taken (the faces of the cards taken stay known); left is the turns left under a limit,
// streak the seats that passed in a row just before this turn.
type cards struct {
	obs    []int
	pairs  []int
	seat   int
	left   int
	streak int
}

// gone is added to the face of a card taken.
const gone = 100

func (c cards) clone() cards {
	return cards{obs: append([]int(nil), c.obs...), pairs: append([]int(nil), c.pairs...), seat: c.seat, left: c.left, streak: c.streak}
}

func (c cards) key() string { return fmt.Sprint(c.obs, c.pairs, c.seat, c.left, c.streak) }

// first returns the first position that passes ok, or -1.
func (c cards) first(ok func(pos, face int) bool) int {
	for pos, f := range c.obs {
		if ok(pos, f) {
			return pos
		}
	}
	return -1
}

// consistent returns the deals that agree with what c has seen.
func (w *copiesWinSearch) consistent(c cards) [][]int {
	var out [][]int
next:
	for _, d := range w.deals {
		for pos, f := range c.obs {
			if f >= 0 && d[pos] != f%gone {
				continue next
			}
		}
		out = append(out, d)
	}
	return out
}

// reveal turns up the card at pos: each face it may have, with its probability among the deals
// consistent with c, is passed to then, whose vectors are averaged.
func (w *copiesWinSearch) reveal(c cards, pos int, then func(c cards) []*big.Rat) []*big.Rat {
	ds := w.consistent(c)
	byFace := map[int]int64{}
	for _, d := range ds {
		byFace[d[pos]]++
	}
	var sum []*big.Rat
	for f, n := range byFace {
		nc := c.clone()
		nc.obs[pos] = f
		v := then(nc)
		if sum == nil {
			sum = ratZeros(len(v))
		}
		p := big.NewRat(n, int64(len(ds)))
		for i := range sum {
			sum[i].Add(sum[i], new(big.Rat).Mul(p, v[i]))
		}
	}
	return sum
}

func ratZeros(n int) []*big.Rat {
	out := make([]*big.Rat, n)
	for i := range out {
		out[i] = new(big.Rat)
	}
	return out
}

// value returns every seat's score (by absolute seat) from the start of c.seat's turn.
func (w *copiesWinSearch) value(c cards) []*big.Rat {
	k := c.key()
	if v, ok := w.memo[k]; ok {
		return v
	}
	v := w.turn(c)
	w.memo[k] = v
	return v
}

func (w *copiesWinSearch) turn(c cards) []*big.Rat {
	if w.limit > 0 {
		if c.left == 0 {
			return w.final(c.pairs, nil)
		}
		c = c.clone()
		c.left-- // this turn
	}
	// A pair remembered whole is taken first.
	for a, fa := range c.obs {
		if fa < 0 || fa >= gone {
			continue
		}
		if b := c.first(func(b, fb int) bool { return b != a && fb == fa }); b >= 0 {
			return w.take(c, a, b)
		}
	}
	if c.first(func(_, f int) bool { return f < gone }) < 0 {
		return w.final(c.pairs, nil)
	}
	var best []*big.Rat
	for _, v := range w.options(c) {
		if v != nil && (best == nil || v[c.seat].Cmp(best[c.seat]) > 0) {
			best = v
		}
	}
	return best
}

// options returns the vectors of every choice the mover's policy may make in c (a turn's start,
// its turn counted, no pair remembered whole), nil for the others: a seat that plays to win may
// make every legal choice, safe and daring their own.
func (w *copiesWinSearch) options(c cards) [rules.NumChoices][]*big.Rat {
	var out [rules.NumChoices][]*big.Rat
	seen := 0
	for _, f := range c.obs {
		if f >= 0 && f < gone {
			seen++
		}
	}
	remembered := seen > 0
	canPass := w.rule == rules.PassAlways || (w.rule == rules.PassTwoKnown && seen >= 2)
	for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass} {
		switch {
		case ch == rules.Pass && !canPass, ch != rules.Daring && ch != rules.Pass && !remembered:
			continue
		case w.pol[c.seat] == rules.PolicyDaring && ch != rules.Daring:
			continue
		case w.pol[c.seat] == rules.PolicySafe && ch != map[bool]rules.Choice{true: rules.Safe, false: rules.Daring}[remembered]:
			continue
		}
		if ch == rules.Pass {
			out[ch] = w.passTurn(c)
		} else {
			out[ch] = w.play(c, ch)
		}
	}
	return out
}

// passTurn is a pass in c: a stalemate at the players-th pass in a row, the pairs left shared
// equally, otherwise the next seat's turn one pass further.
func (w *copiesWinSearch) passTurn(c cards) []*big.Rat {
	if c.streak == w.players-1 {
		left := 0
		for _, f := range c.obs {
			if f < gone {
				left++
			}
		}
		return w.final(c.pairs, big.NewRat(int64(left/2), int64(w.players)))
	}
	nc := c.clone()
	nc.seat, nc.streak = (c.seat+1)%w.players, c.streak+1
	return w.value(nc)
}

// pass hands the move to the next seat after a miss, no pass made.
func (w *copiesWinSearch) pass(c cards) []*big.Rat {
	nc := c.clone()
	nc.seat, nc.streak = (c.seat+1)%w.players, 0
	return w.value(nc)
}

// take removes the cards at a and b, a pair of the mover, who moves again.
func (w *copiesWinSearch) take(c cards, a, b int) []*big.Rat {
	nc := c.clone()
	nc.obs[a], nc.obs[b] = gone+c.obs[a], gone+c.obs[b]
	nc.pairs[c.seat]++
	nc.streak = 0
	return w.value(nc)
}

// play returns the scores after the mover's choice ch in c.
func (w *copiesWinSearch) play(c cards, ch rules.Choice) []*big.Rat {
	unseen := func(_, f int) bool { return f == -1 }
	if ch == rules.KnownFirst || (w.blind && ch == rules.Safe) {
		// The remembered card of a face with the most cards on the table, then an unseen card.
		x, most := -1, 0
		for pos, f := range c.obs {
			if f < 0 || f >= gone {
				continue
			}
			left := w.cardsLeft(c, f)
			if left > most {
				x, most = pos, left
			}
		}
		y := c.first(unseen)
		return w.reveal(c, y, func(c cards) []*big.Rat {
			if c.obs[y] == c.obs[x] {
				return w.take(c, x, y)
			}
			return w.pass(c)
		})
	}
	x := c.first(unseen)
	if w.blind {
		y := c.first(func(pos, f int) bool { return f == -1 && pos != x })
		if y < 0 { // the last unseen card and its remembered match
			return w.reveal(c, x, func(c cards) []*big.Rat {
				return w.take(c, x, c.first(func(p, f int) bool { return p != x && f == c.obs[x] }))
			})
		}
		return w.reveal(c, x, func(c cards) []*big.Rat {
			return w.reveal(c, y, func(c cards) []*big.Rat {
				if c.obs[x] == c.obs[y] {
					return w.take(c, x, y)
				}
				return w.pass(c)
			})
		})
	}
	return w.reveal(c, x, func(c cards) []*big.Rat {
		if p := c.first(func(p, f int) bool { return p != x && f == c.obs[x] }); p >= 0 {
			return w.take(c, x, p)
		}
		if ch == rules.Safe {
			return w.pass(c) // a remembered card of another face: a miss
		}
		y := c.first(unseen)
		return w.reveal(c, y, func(c cards) []*big.Rat {
			if c.obs[x] == c.obs[y] {
				return w.take(c, x, y)
			}
			return w.pass(c)
		})
	})
}

// cardsLeft returns the cards of face f on the table in c (the same in every consistent deal).
func (w *copiesWinSearch) cardsLeft(c cards, f int) int {
	d := w.consistent(c)[0]
	n := 0
	for pos, g := range d {
		if g == f && c.obs[pos] < gone {
			n++
		}
	}
	return n
}

// final returns the vectors of a game that ends with these pairs and shared pairs left to every
// seat (nil: none): the seats with the most share a score of 1.
func (w *copiesWinSearch) final(pairs []int, shared *big.Rat) []*big.Rat {
	most, top := -1, 0
	for _, x := range pairs {
		switch {
		case x > most:
			most, top = x, 1
		case x == most:
			top++
		}
	}
	p := len(pairs)
	out := ratZeros(swVectors * p)
	for i, x := range pairs {
		out[swPairs*p+i].SetInt64(int64(x))
		if shared != nil {
			out[swPairs*p+i].Add(out[swPairs*p+i], shared)
		}
		if x == most {
			out[swScore*p+i].SetFrac64(1, int64(top))
			if top == 1 {
				out[swWin*p+i].SetInt64(1)
			} else {
				out[swDraw*p+i].SetInt64(1)
			}
		}
	}
	return out
}

// everyDeal returns every arrangement of faces copies cards each, faces named in order of first
// appearance.
func everyDeal(faces, copies int) [][]int {
	var out [][]int
	left := make([]int, faces)
	for i := range left {
		left[i] = copies
	}
	deal := make([]int, faces*copies)
	var rec func(pos, used int)
	rec = func(pos, used int) {
		if pos == len(deal) {
			out = append(out, append([]int(nil), deal...))
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
	return out
}

// TestCopiesSelfWinMatchesCardSearch compares every seat's score under win-optimal at three
// seats (and beside safe and daring) with a search over every deal card by card, from no pairs
// and from uneven standings, under sequential and blind flips.
func TestCopiesSelfWinMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	decks := []struct{ faces, copies int }{{2, 4}, {1, 6}, {3, 2}}
	lineups := [][]rules.Policy{
		{rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal},
		{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, rules.PolicyWinOptimal, rules.PolicySafe},
		{rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal, rules.PolicyWinOptimal},
	}
	for _, d := range decks {
		all := everyDeal(d.faces, d.copies)
		pairs := d.faces * d.copies / 2
		for _, blind := range []bool{false, true} {
			m := Model{Variant: rules.Variant{Copies: d.copies}}
			if blind {
				m.Variant.Flips = rules.FlipsBlind
			}
			for _, pol := range lineups {
				for _, standings := range [][]int{nil, []int{1, 0, 2, 0}[:len(pol)]} {
					mu := Lineup{Players: len(pol), PerSeat: true}
					copy(mu.Seats[:], pol)
					name := fmt.Sprintf("%d faces of %d, blind %v, %v, standings %v", d.faces, d.copies, blind, pol, standings)
					st, err := StartCopiesState(pairs, d.copies)
					if err != nil {
						t.Fatal(err)
					}
					res, err := EvaluateCopiesSelfWin(ctx, f, m, mu, st, standings)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want := newWinSearch(all, pol, blind, 0, rules.PassNever).value(startCards(len(all[0]), len(pol), standings, 0, 0))
					for s := range pol {
						if res.Score[s].Cmp(want[s]) != 0 {
							t.Errorf("%s: seat %d: P(most pairs) %v, card search %v", name, s, res.Score[s].RatString(), want[s].RatString())
						}
					}
				}
			}
		}
	}
}

// TestCopiesSelfWinTwoCopiesIsSelfWin checks that with two cards to a face the values equal
// those of the standard game's win objective at three and four seats, every seat and every
// choice, from no pairs and from uneven standings.
func TestCopiesSelfWinTwoCopiesIsSelfWin(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, p := range []int{3, 4} {
		for _, n := range []int{1, 7 - p} {
			for _, standings := range [][]int{nil, []int{0, 2, 1, 0}[:p]} {
				mu := Lineup{Players: p, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
				st, err := StartCopiesState(n, 2)
				if err != nil {
					t.Fatal(err)
				}
				got, err := EvaluateCopiesSelfWin(ctx, f, Model{}, mu, st, standings)
				if err != nil {
					t.Fatal(err)
				}
				want, err := EvaluateSelfWin(ctx, f, Model{}, p, rules.State{N: n, J: n}, standings)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%d seats, %d pairs, standings %v", p, n, standings)
				sameRats(t, name+": score", got.Score, want.Score)
				sameRats(t, name+": alone", got.Win, want.Win)
				sameRats(t, name+": tied", got.Draw, want.Draw)
				sameRats(t, name+": pairs", got.Pairs, want.Pairs)
				if got.Choice != want.Choice {
					t.Errorf("%s: choice %s, standard game %s", name, got.Choice, want.Choice)
				}
			}
		}
	}
}

func sameRats(t *testing.T, name string, got, want []*big.Rat) {
	t.Helper()
	for i := range want {
		if got[i].Cmp(want[i]) != 0 {
			t.Errorf("%s: seat %d: %v, want %v", name, i, got[i].RatString(), want[i].RatString())
		}
	}
}

// TestCopiesSelfWinScoresAddUp checks that the seats' scores sum to 1, that alone and tied
// add up to a seat's chance to end among the most, and that the expected pairs sum to the
// pairs on the table, for every legal choice too, in float64 and in rationals alike.
func TestCopiesSelfWinScoresAddUp(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		copies, pairs, players int
		blind                  bool
	}{{4, 6, 3, false}, {6, 6, 4, false}, {4, 4, 5, true}, {8, 8, 3, true}} {
		m := Model{Variant: rules.Variant{Copies: c.copies}}
		if c.blind {
			m.Variant.Flips = rules.FlipsBlind
		}
		mu := Lineup{Players: c.players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		st, err := StartCopiesState(c.pairs, c.copies)
		if err != nil {
			t.Fatal(err)
		}
		exactRes, err := EvaluateCopiesSelfWin(ctx, field.Rat{}, m, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		floatRes, err := EvaluateCopiesSelfWin(ctx, field.Float{}, m, mu, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("copies %d, %d pairs, %d seats, blind %v", c.copies, c.pairs, c.players, c.blind)
		vals := []*SelfWinValues[*big.Rat]{&exactRes.SelfWinValues}
		for _, v := range exactRes.Choices {
			if v != nil {
				vals = append(vals, v)
			}
		}
		for _, v := range vals {
			score, pairs := new(big.Rat), new(big.Rat)
			for s := range v.Score {
				score.Add(score, v.Score[s])
				pairs.Add(pairs, v.Pairs[s])
				if v.Win[s].Cmp(v.Score[s]) > 0 || new(big.Rat).Add(v.Win[s], v.Draw[s]).Cmp(v.Score[s]) < 0 {
					t.Errorf("%s: seat %d: alone %v and tied %v do not bound its score %v", name, s, v.Win[s], v.Draw[s], v.Score[s])
				}
			}
			if score.Cmp(big.NewRat(1, 1)) != 0 || pairs.Cmp(big.NewRat(int64(c.pairs), 1)) != 0 {
				t.Errorf("%s: scores sum to %v, pairs to %v", name, score.RatString(), pairs.RatString())
			}
		}
		for s := range exactRes.Score {
			x, _ := exactRes.Score[s].Float64()
			if d := x - floatRes.Score[s]; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s: seat %d: float64 %v, exact %v", name, s, floatRes.Score[s], x)
			}
		}
	}
}

// TestCopiesSelfWinRefusals checks the one-line errors of lineups and models the win objective
// under copies does not solve.
func TestCopiesSelfWinRefusals(t *testing.T) {
	ctx, f := context.Background(), field.Float{}
	st, err := StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	win := Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, c := range []struct {
		m    Model
		mu   Lineup
		want string
	}{
		{Model{Variant: rules.Variant{Copies: 4}, Pass: rules.PassAlways, Singletons: 1}, win, "singletons"},
		{Model{Variant: rules.Variant{Copies: 4}}, Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyParity}, "parity"},
		{Model{Variant: rules.Variant{Copies: 4}}, Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, "3 to"},
	} {
		_, err := EvaluateCopiesSelfWin(ctx, f, c.m, c.mu, st, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v %v: error %v, want one line naming %q", c.m.Variant, c.mu, err, c.want)
		}
	}
}

// TestCopiesSelfWinTwoSeatsIsCopiesWin checks that at two seats the score, P(most pairs) with a
// tie shared, is the two-player win objective's P(win) + P(draw)/2 under copies, at several
// leads so far, under sequential and blind flips.
func TestCopiesSelfWinTwoSeatsIsCopiesWin(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	half := big.NewRat(1, 2)
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, c := range []struct{ copies, pairs int }{{4, 4}, {4, 6}, {6, 6}} {
		for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
			m := Model{Variant: rules.Variant{Copies: c.copies, Flips: flips}}
			st, err := StartCopiesState(c.pairs, c.copies)
			if err != nil {
				t.Fatal(err)
			}
			s, err := buildCopiesSelfWin(ctx, f, m, []rules.Policy{rules.PolicyWinOptimal, rules.PolicyWinOptimal})
			if err != nil {
				t.Fatal(err)
			}
			for _, standings := range [][]int{{0, 0}, {2, 0}, {0, 1}} {
				d := make([]int, 2)
				rules.Deficits(d, standings, c.pairs)
				cell, err := s.get(st.vec(), d, 0, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				_, win, err := CopiesWinValues(ctx, f, m, mu, st, standings[0]-standings[1])
				if err != nil {
					t.Fatal(err)
				}
				want := new(big.Rat).Add(win.Value.Win, new(big.Rat).Mul(half, win.Value.Draw))
				if got := cell.vals[0]; got.Cmp(want) != 0 {
					t.Errorf("copies %d, %d pairs, %s, standings %v: score %v, two-player win %v", c.copies, c.pairs, flips, standings, got.RatString(), want.RatString())
				}
			}
		}
	}
}

// TestCopiesSelfWinFollowersMatchCopiesPairs checks that a lineup of optimal and fixed policies
// only, which ignore the standings, gives every seat the expected pairs of the copies model's
// lineup of those policies.
func TestCopiesSelfWinFollowersMatchCopiesPairs(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, pol := range [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring},
		{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal, rules.PolicySafe},
	} {
		for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
			m := Model{Variant: rules.Variant{Copies: 4, Flips: flips}}
			mu := SeatLineup(pol...)
			st, err := StartCopiesState(6, 4)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EvaluateCopiesSelfWin(ctx, f, m, mu, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			sameRats(t, fmt.Sprintf("%v, %s: pairs", pol, flips), got.Pairs, want.PairsBySeat)
		}
	}
}
