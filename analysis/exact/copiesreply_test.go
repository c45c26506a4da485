package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// replySearch plays the card game with perfect memory, pass rule never and sequential flips, k
// cards to a face, face by face: left[f] cards of face f on the table, rem[f] of them
// remembered. Every unknown card is equally likely to be any of them, which averages over every
// deal. A seat marked maximise takes, at every turn, the choice that gives it the most expected
// pairs (the first in the order daring, safe, known-first), the others play their policy: safe,
// daring and (two cards to a face) parity by their card-level rule, optimal the choice of the
// same search with every seat maximising (self). Under a limit the game ends after that many
// turns, the pairs left counting for nobody, and a pair remembered whole takes a turn of its own.
type replySearch struct {
	players, limit int
	pols           []rules.Policy // PolicyBestResponse marks a seat that maximises
	self           *replySearch   // every seat maximising: the optimal seats' choices
	memo           map[string]replyNode
	// follow, when not nil, gives the choice of a seat marked maximise with t turns left in place
	// of its best (a table it plays); missing counts the positions it has no choice for.
	follow  func(c faceCards, t int) (rules.Choice, bool)
	missing int
}

// replyNode is every seat's expected pairs by absolute seat, and the mover's choice.
type replyNode struct {
	pairs  []*big.Rat
	choice rules.Choice
}

func newReplySearch(pols []rules.Policy, limit int) *replySearch {
	s := &replySearch{players: len(pols), limit: limit, pols: pols, memo: map[string]replyNode{}}
	all := make([]rules.Policy, len(pols))
	for i := range all {
		all[i] = rules.PolicyBestResponse
	}
	s.self = &replySearch{players: len(pols), limit: limit, pols: all, memo: map[string]replyNode{}}
	return s
}

type faceCards struct{ left, rem []int }

func (c faceCards) clone() faceCards {
	return faceCards{append([]int(nil), c.left...), append([]int(nil), c.rem...)}
}

func (c faceCards) unknown() int {
	u := 0
	for f := range c.left {
		u += c.left[f] - c.rem[f]
	}
	return u
}

// unknownFaces returns the faces on the table none of whose cards is remembered.
func (c faceCards) unknownFaces() int {
	j := 0
	for f := range c.left {
		if c.left[f] > 0 && c.rem[f] == 0 {
			j++
		}
	}
	return j
}

func (c faceCards) anyRemembered() bool {
	for _, r := range c.rem {
		if r > 0 {
			return true
		}
	}
	return false
}

func (s *replySearch) zeros() []*big.Rat {
	z := make([]*big.Rat, s.players)
	for i := range z {
		z[i] = new(big.Rat)
	}
	return z
}

// start is the start of seat m's turn with t turns left: it takes every pair it remembers whole,
// a turn each under a limit, then chooses.
func (s *replySearch) start(c faceCards, m, t int) []*big.Rat {
	c = c.clone()
	taken := 0
	for f := range c.left {
		for c.rem[f] >= 2 && (s.limit == 0 || t > 0) {
			c.rem[f] -= 2
			c.left[f] -= 2
			taken++
			t--
		}
	}
	out := s.zeros()
	if c.unknown() > 0 && (s.limit == 0 || t > 0) {
		out = s.decide(c, m, t).pairs
	}
	out = append([]*big.Rat(nil), out...)
	out[m] = new(big.Rat).Add(out[m], big.NewRat(int64(taken), 1))
	return out
}

// decide returns seat m's choice with t turns left, no pair remembered whole, and every seat's
// expected pairs.
func (s *replySearch) decide(c faceCards, m, t int) replyNode {
	key := fmt.Sprint(c.left, c.rem, m, t)
	if v, ok := s.memo[key]; ok {
		return v
	}
	var want rules.Choice
	switch p := s.pols[m]; p {
	case rules.PolicySafe:
		want = rules.Daring
		if c.anyRemembered() {
			want = rules.Safe
		}
	case rules.PolicyDaring:
		want = rules.Daring
	case rules.PolicyParity: // two cards to a face: daring when the unknown pairs are odd
		want = rules.Daring
		if c.unknownFaces()%2 == 0 && c.anyRemembered() {
			want = rules.Safe
		}
	case rules.PolicyOptimal:
		want = s.self.decide(c, m, t).choice
	}
	fixed := s.pols[m] != rules.PolicyBestResponse
	if !fixed && s.follow != nil {
		var ok bool
		if want, ok = s.follow(c, t); !ok {
			s.missing++
		}
		fixed = true
	}
	var best replyNode
	for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
		if ch != rules.Daring && !c.anyRemembered() || fixed && ch != want {
			continue
		}
		v := s.play(c, ch, m, t)
		if best.pairs == nil || v[m].Cmp(best.pairs[m]) > 0 {
			best = replyNode{v, ch}
		}
	}
	s.memo[key] = best
	return best
}

// play plays seat m's choice ch with t turns left, card by card.
func (s *replySearch) play(c faceCards, ch rules.Choice, m, t int) []*big.Rat {
	sum := s.zeros()
	add := func(p *big.Rat, v []*big.Rat) {
		for i := range sum {
			sum[i].Add(sum[i], new(big.Rat).Mul(p, v[i]))
		}
	}
	draw := func(c faceCards, visit func(f int, p *big.Rat)) {
		u := int64(c.unknown())
		for f := range c.left {
			if k := int64(c.left[f] - c.rem[f]); k > 0 {
				visit(f, big.NewRat(k, u))
			}
		}
	}
	take := func(c faceCards, f int) []*big.Rat {
		c = c.clone()
		c.left[f] -= 2
		c.rem[f] = 0
		v := append([]*big.Rat(nil), s.start(c, m, t-1)...)
		v[m] = new(big.Rat).Add(v[m], big.NewRat(1, 1))
		return v
	}
	handOver := func(c faceCards) []*big.Rat { return s.start(c, (m+1)%s.players, t-1) }
	// second turns up an unknown card, the first card, of face f, turned up and not matched.
	second := func(c faceCards, f int, p0 *big.Rat) {
		draw(c, func(g int, p *big.Rat) {
			p = new(big.Rat).Mul(p0, p)
			if g == f {
				add(p, take(c, f))
				return
			}
			c2 := c.clone()
			c2.rem[g]++
			add(p, handOver(c2))
		})
	}
	if ch == rules.KnownFirst {
		f := -1
		for g := range c.left {
			if c.rem[g] > 0 && (f < 0 || c.left[g] > c.left[f]) {
				f = g
			}
		}
		second(c, f, big.NewRat(1, 1))
		return sum
	}
	draw(c, func(f int, p *big.Rat) {
		if c.rem[f] > 0 {
			add(p, take(c, f))
			return
		}
		c2 := c.clone()
		c2.rem[f]++
		if ch == rules.Safe {
			add(p, handOver(c2)) // a remembered card of another face: a miss
			return
		}
		second(c2, f, p)
	})
	return sum
}

// value returns every seat's expected pairs from the deal of the given faces, k cards each,
// seat 0 to move.
func (s *replySearch) value(faces, k int) []*big.Rat {
	c := faceCards{left: make([]int, faces), rem: make([]int, faces)}
	for f := range c.left {
		c.left[f] = k
	}
	return s.start(c, 0, s.limit)
}

// replyLineups are the lineups of three and four seats with one best reply the searches check.
func replyLineups() [][]rules.Policy {
	B, O, S, D := rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	return [][]rules.Policy{{B, S, S}, {B, D, D}, {B, O, O}, {S, B, D}, {B, S, D, O}, {D, D, B, S}}
}

// TestCopiesSeatReplyMatchesSearch compares every seat's expected pairs, one seat replying to the
// others under k copies of a face (with and without a turn limit), with the search in which that
// seat maximises its own pairs at every turn.
func TestCopiesSeatReplyMatchesSearch(t *testing.T) {
	ctx := context.Background()
	type tc struct{ k, faces, limit int }
	cases := []tc{{4, 2, 0}, {4, 3, 0}, {6, 2, 0}, {4, 2, 3}, {4, 3, 4}, {6, 2, 2}}
	if testing.Short() {
		cases = []tc{{4, 2, 0}, {4, 3, 0}, {6, 2, 0}, {4, 2, 3}, {4, 3, 1}}
	}
	for _, c := range cases {
		for _, pols := range replyLineups() {
			if c.faces == 3 && len(pols) > 3 && testing.Short() {
				continue
			}
			t.Run(fmt.Sprintf("k=%d,faces=%d,limit=%d/%v", c.k, c.faces, c.limit, pols), func(t *testing.T) {
				m := exact.Model{Variant: rules.Variant{Copies: c.k, TurnLimit: c.limit}}
				want := newReplySearch(pols, c.limit).value(c.faces, c.k)
				st, err := exact.StartCopiesState(c.faces*c.k/2, c.k)
				if err != nil {
					t.Fatal(err)
				}
				got, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(pols...), st)
				if err != nil {
					t.Fatal(err)
				}
				if ratsString(got.PairsBySeat) != ratsString(want) {
					t.Errorf("pairs: solver %s, search %s", ratsString(got.PairsBySeat), ratsString(want))
				}
			})
		}
	}
}

// TestSeatReplySearchTellsFixedChoices checks that the search tells a best reply from a fixed
// policy in its seat: for each of safe and daring, some lineup in which the replying seat plays
// it instead gives that seat other expected pairs than the search's reply.
func TestSeatReplySearchTellsFixedChoices(t *testing.T) {
	ctx := context.Background()
	for _, fixed := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
		t.Run(fixed.String(), func(t *testing.T) {
			differ := 0
			for _, limit := range []int{0, 3} {
				for _, pols := range replyLineups() {
					m := exact.Model{Variant: rules.Variant{Copies: 4, TurnLimit: limit}}
					want := newReplySearch(pols, limit).value(3, 4)
					r := 0
					for pols[r] != rules.PolicyBestResponse {
						r++
					}
					swapped := append([]rules.Policy(nil), pols...)
					swapped[r] = fixed
					st, err := exact.StartCopiesState(6, 4)
					if err != nil {
						t.Fatal(err)
					}
					got, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(swapped...), st)
					if err != nil {
						t.Fatal(err)
					}
					if got.PairsBySeat[r].Cmp(want[r]) != 0 {
						differ++
					}
				}
			}
			if differ == 0 {
				t.Errorf("%s in the replying seat gives it the search's reply value in every lineup", fixed)
			}
		})
	}
}

// TestCopiesSeatReplyBeatsEveryPolicy checks that seat 0's best reply under k copies of a face,
// sequential or blind flips, with and without a turn limit, gives it at least as many expected
// pairs as optimal, safe and daring in its place against the same seats, and optimal's exactly
// against optimal (no state refers to itself, so the optimum of every seat for itself is a best
// reply to itself).
func TestCopiesSeatReplyBeatsEveryPolicy(t *testing.T) {
	ctx := context.Background()
	pols := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring}
	for _, v := range []rules.Variant{{Copies: 4}, {Copies: 4, Flips: rules.FlipsBlind}, {Copies: 4, TurnLimit: 5},
		{Copies: 6, Flips: rules.FlipsBlind, TurnLimit: 4}} {
		for _, players := range []int{3, 5} {
			for _, x := range pols {
				t.Run(fmt.Sprintf("%v/p=%d/%s", v, players, x), func(t *testing.T) {
					m := exact.Model{Variant: v}
					st, err := exact.StartCopiesState(6, v.Copies)
					if err != nil {
						t.Fatal(err)
					}
					seat0 := func(p rules.Policy) *big.Rat {
						res, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, m, exact.Lineup{Players: players, Policy: p, Opponent: x}, st)
						if err != nil {
							t.Fatalf("%s against %s: %v", p, x, err)
						}
						return res.ExpectedPairs
					}
					reply := seat0(rules.PolicyBestResponse)
					for _, y := range pols {
						v := seat0(y)
						if reply.Cmp(v) < 0 {
							t.Errorf("best reply %s < %s's %s", reply.RatString(), y, v.RatString())
						}
						if y == x && x == rules.PolicyOptimal && reply.Cmp(v) != 0 {
							t.Errorf("best reply to optimal %s, optimal itself %s", reply.RatString(), v.RatString())
						}
					}
				})
			}
		}
	}
}

// TestCopiesSeatReplyWithTwoCopies checks that the copies model with two copies of a face, solved
// from a state of faces, gives the best reply of the standard game.
func TestCopiesSeatReplyWithTwoCopies(t *testing.T) {
	ctx := context.Background()
	for _, pols := range replyLineups() {
		for _, st := range []exact.CopiesState{{Unknown: []int{5}, Half: []int{0}}, {Unknown: []int{4}, Half: []int{2}}} {
			t.Run(fmt.Sprintf("%v/%v", pols, st), func(t *testing.T) {
				mu := exact.SeatLineup(pols...)
				got, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, exact.Model{Variant: rules.Variant{Copies: 2}}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st.RulesState())
				if err != nil {
					t.Fatal(err)
				}
				if ratsString(got.PairsBySeat) != ratsString(want.PairsBySeat) {
					t.Errorf("copies model %s, standard game %s", ratsString(got.PairsBySeat), ratsString(want.PairsBySeat))
				}
			})
		}
	}
}

// TestCopiesSeatReplyTable checks that the reply's table (under a turn limit, a layer per number of
// turns left), followed by the replying seat of the search, gives the reply's values.
func TestCopiesSeatReplyTable(t *testing.T) {
	ctx := context.Background()
	for _, x := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
		for _, limit := range []int{0, 4} {
			t.Run(fmt.Sprintf("%s/limit=%d", x, limit), func(t *testing.T) {
				m := exact.Model{Variant: rules.Variant{Copies: 4, TurnLimit: limit}}
				mu := exact.Lineup{Players: 3, Policy: rules.PolicyBestResponse, Opponent: x}
				var layers []*rules.CopiesTable
				var err error
				if limit == 0 {
					var tab *rules.CopiesTable
					tab, err = exact.CopiesPolicyTable(ctx, field.Rat{}, m, mu, 6)
					layers = []*rules.CopiesTable{tab}
				} else {
					layers, err = exact.CopiesPolicyTurnTables(ctx, field.Rat{}, m, mu, 6)
				}
				if err != nil {
					t.Fatal(err)
				}
				st, err := exact.StartCopiesState(6, 4)
				if err != nil {
					t.Fatal(err)
				}
				want, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				s := newReplySearch([]rules.Policy{rules.PolicyBestResponse, x, x}, limit)
				s.follow = func(c faceCards, t int) (rules.Choice, bool) {
					layer := layers[0]
					if limit > 0 {
						layer = layers[t-1]
					}
					return layer.Lookup(countsOf(c, 4))
				}
				got := s.value(3, 4)
				if s.missing > 0 {
					t.Errorf("the table has no choice in %d positions", s.missing)
				}
				if ratsString(got) != ratsString(want.PairsBySeat) {
					t.Errorf("table played: %s, reply: %s", ratsString(got), ratsString(want.PairsBySeat))
				}
			})
		}
	}
}

// countsOf returns the faces of c as the copies table counts them: index 2(r/2-1)+b the faces
// with r cards on the table, b of them remembered.
func countsOf(c faceCards, k int) []int {
	v := make([]int, k)
	for f := range c.left {
		if c.left[f] > 0 {
			v[2*(c.left[f]/2-1)+c.rem[f]]++
		}
	}
	return v
}
