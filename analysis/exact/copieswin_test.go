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

// winSearch is a card-level game-tree search of the win objective under k copies of a face with
// perfect memory: every face by name, its cards on the table and how many of them are
// remembered; the unknown cards are drawn one by one with the weights of their faces. At every
// decision the mover takes the first choice, in the order daring, safe, known-first, with the
// largest P(win) - P(loss) for itself (win-optimal, both roles), or role 1 plays a fixed policy
// (seat 0 win-best-response). It knows nothing of the state of faces' classes.
type winSearch struct {
	copies  int
	fixed   rules.Policy // role 1's fixed policy, or PolicyWinOptimal
	choices rules.ChoiceSet
	// limit, when positive, ends the game after that many turns, the pairs left counting for
	// nobody; a pair remembered whole takes a turn of its own.
	limit int
	// blind names both cards of a turn before either is turned up (copieswinblind_test.go).
	blind bool
	memo  map[string]winNode
}

// winNode is the value of a position for role 0: P(win) - P(loss), P(draw) and its expected lead
// of the pairs left.
type winNode struct{ u, draw, lead *big.Rat }

func (n winNode) add(p *big.Rat, x winNode) winNode {
	mul := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	return winNode{new(big.Rat).Add(n.u, mul(p, x.u)), new(big.Rat).Add(n.draw, mul(p, x.draw)), new(big.Rat).Add(n.lead, mul(p, x.lead))}
}

func zeroNode() winNode { return winNode{new(big.Rat), new(big.Rat), new(big.Rat)} }

// table is the cards of every face: left[f] on the table, rem[f] of them remembered.
type cardTable struct{ left, rem []int }

func (c cardTable) clone() cardTable {
	return cardTable{append([]int(nil), c.left...), append([]int(nil), c.rem...)}
}

func (c cardTable) unknown() int {
	u := 0
	for f := range c.left {
		u += c.left[f] - c.rem[f]
	}
	return u
}

// start plays the start of a turn of role r at role 0's lead d with t turns left (under a limit):
// the mover takes every pair it remembers whole, a turn each under a limit, then chooses.
func (s *winSearch) start(c cardTable, r, d, t int) winNode {
	c = c.clone()
	taken := 0
	for f := range c.left {
		for c.rem[f] >= 2 && (s.limit == 0 || t > 0) {
			c.rem[f] -= 2
			c.left[f] -= 2
			taken += 1 - 2*r
			t--
		}
	}
	var v winNode
	if s.limit > 0 && t <= 0 {
		v = s.end(d + taken)
	} else {
		v = s.decide(c, r, d+taken, t)
	}
	v.lead = new(big.Rat).Add(v.lead, big.NewRat(int64(taken), 1))
	return v
}

// decide returns the value of the mover's decision, no pair remembered whole, t turns left.
func (s *winSearch) decide(c cardTable, r, d, t int) winNode {
	if c.unknown() == 0 {
		return s.end(d)
	}
	key := fmt.Sprint(c.left, c.rem, r, d, t)
	if v, ok := s.memo[key]; ok {
		return v
	}
	var best winNode
	var bestU *big.Rat
	for _, ch := range rules.Choices() {
		if !s.legal(c, ch) {
			continue
		}
		if r == 1 && s.fixed != rules.PolicyWinOptimal {
			want := rules.Daring
			if s.fixed == rules.PolicySafe && s.legal(c, rules.Safe) {
				want = rules.Safe
			}
			if ch != want {
				continue
			}
		}
		v := s.play(c, ch, r, d, t)
		u := v.u
		if r == 1 {
			u = new(big.Rat).Neg(u) // role 1 maximises its own
		}
		if bestU == nil || u.Cmp(bestU) > 0 {
			best, bestU = v, u
		}
	}
	s.memo[key] = best
	return best
}

func (s *winSearch) end(d int) winNode {
	n := zeroNode()
	switch {
	case d > 0:
		n.u.SetInt64(1)
	case d < 0:
		n.u.SetInt64(-1)
	default:
		n.draw.SetInt64(1)
	}
	return n
}

func (s *winSearch) legal(c cardTable, ch rules.Choice) bool {
	if !s.choices.Has(ch) {
		return false
	}
	switch ch {
	case rules.Daring:
		return true
	case rules.Safe, rules.KnownFirst:
		for f := range c.rem {
			if c.rem[f] > 0 {
				return true
			}
		}
	}
	return false
}

// draw calls visit with every face an unknown card may show and its probability.
func draw(c cardTable, visit func(f int, p *big.Rat)) {
	u := int64(c.unknown())
	for f := range c.left {
		if k := int64(c.left[f] - c.rem[f]); k > 0 {
			visit(f, big.NewRat(k, u))
		}
	}
}

// play plays choice ch of role r at lead d (role 0's), t turns left, card by card.
func (s *winSearch) play(c cardTable, ch rules.Choice, r, d, t int) winNode {
	if s.blind {
		return s.playBlind(c, ch, r, d, t)
	}
	gain := 1 - 2*r // a pair for role r moves role 0's lead by gain
	sum := zeroNode()
	handOver := func(c cardTable) winNode { return s.start(c, 1-r, d, t-1) }
	take := func(c cardTable, f int) winNode {
		c = c.clone()
		c.left[f] -= 2
		c.rem[f] = 0
		x := s.start(c, r, d+gain, t-1)
		x.lead = new(big.Rat).Add(x.lead, big.NewRat(int64(gain), 1))
		return x
	}
	// second turns up an unknown card after the first card, of face f, was turned up and not
	// matched (c has it remembered).
	second := func(c cardTable, f int) winNode {
		out := zeroNode()
		draw(c, func(g int, p *big.Rat) {
			if g == f {
				out = out.add(p, take(c, f))
				return
			}
			c2 := c.clone()
			c2.rem[g]++
			out = out.add(p, handOver(c2))
		})
		return out
	}
	if ch == rules.KnownFirst {
		f := -1
		for g := range c.left {
			if c.rem[g] > 0 && (f < 0 || c.left[g] > c.left[f]) {
				f = g
			}
		}
		return second(c, f)
	}
	draw(c, func(f int, p *big.Rat) {
		if c.rem[f] > 0 {
			sum = sum.add(p, take(c, f))
			return
		}
		c2 := c.clone()
		c2.rem[f]++
		if ch == rules.Safe {
			sum = sum.add(p, handOver(c2))
			return
		}
		sum = sum.add(p, second(c2, f))
	})
	return sum
}

// TestCopiesWinMatchesCardSearch checks the copies model's win-optimal and win-best-response
// values from the start of small decks, and every choice's value, against the card-level search:
// at leads 0, 1 and -2 (the decks of six pairs at lead 0).
func TestCopiesWinMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	decks := []struct{ faces, copies int }{{2, 4}, {3, 4}, {2, 6}, {1, 8}}
	noSafe := rules.NewChoiceSet(rules.Daring, rules.KnownFirst)
	for _, dk := range decks {
		for _, choices := range []rules.ChoiceSet{rules.FullChoices, noSafe} {
			for _, opp := range []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring} {
				if opp == rules.PolicySafe && !choices.Has(rules.Safe) {
					continue
				}
				pol := rules.PolicyWinBestResponse
				if opp == rules.PolicyWinOptimal {
					pol = rules.PolicyWinOptimal
				}
				mu := Lineup{Players: 2, Policy: pol, Opponent: opp}
				m := Model{Variant: rules.Variant{Copies: dk.copies}, Choices: choices}
				name := fmt.Sprintf("%d faces of %d, choices %s, %s vs %s", dk.faces, dk.copies, choices, pol, opp)
				s := &winSearch{copies: dk.copies, fixed: opp, choices: choices, memo: map[string]winNode{}}
				c := cardTable{left: make([]int, dk.faces), rem: make([]int, dk.faces)}
				for i := range c.left {
					c.left[i] = dk.copies
				}
				pairs := dk.faces * dk.copies / 2
				st, err := StartCopiesState(pairs, dk.copies)
				if err != nil {
					t.Fatal(err)
				}
				leads := []int{0, 1, -2}
				if pairs > 4 {
					leads = leads[:1] // the largest deck at lead 0 only
				}
				for _, lead := range leads {
					got, err := CopiesWinChoiceValues(ctx, f, m, mu, st, lead)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want := s.start(c, 0, lead, 0)
					if w := winWDL(f, want.u, want.draw); got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 {
						t.Errorf("%s, lead %d: win %v draw %v, search %v and %v", name, lead, got.Value.Win, got.Value.Draw, w.Win, w.Draw)
					}
					for _, v := range got.Values {
						x := s.play(c, v.Choice, 0, lead, 0)
						if w := winWDL(f, x.u, x.draw); v.Win.Cmp(w.Win) != 0 || v.Draw.Cmp(w.Draw) != 0 {
							t.Errorf("%s, lead %d, %s now: win %v draw %v, search %v and %v", name, lead, v.Choice, v.Win, v.Draw, w.Win, w.Draw)
						}
					}
					if lead != 0 {
						continue
					}
					res, err := EvaluateCopies(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if res.ExpectedLead.Cmp(want.lead) != 0 {
						t.Errorf("%s: expected lead %v, search %v", name, res.ExpectedLead, want.lead)
					}
					dist, err := CopiesDistribution(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					mean := new(big.Rat)
					for i, p := range dist.Prob {
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
					}
					if w := winWDL(f, want.u, want.draw); dist.Win.Cmp(w.Win) != 0 || dist.Draw.Cmp(w.Draw) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
						t.Errorf("%s: distribution wins %v draws %v, mean %v; search %v and %v, expected pairs %v", name, dist.Win, dist.Draw, mean, w.Win, w.Draw, res.ExpectedPairs)
					}
				}
			}
		}
	}
}

// TestCopiesWinTwoEqualsPairModel checks that with two copies of a face the copies model's values
// to win equal the (n, j) model's (win.go): every choice's score, the policy's choice and the
// best choices in every state up to 6 pairs at every lead a game reaches (WinTable), and the
// probabilities to win, draw and lose and the expected pairs from the start.
func TestCopiesWinTwoEqualsPairModel(t *testing.T) {
	ctx, f, m := context.Background(), field.Rat{}, Model{}
	maxPairs := testSize(4, 5, 6)
	for _, mu := range []Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyWinOptimal},
	} {
		name := fmt.Sprintf("%s vs %s", mu.Policy, mu.Opponent)
		if mu.Policy.PlaysToWin() {
			err := WinTable(ctx, f, m, mu, maxPairs, func(wc *WinCell[*big.Rat]) error {
				st := wc.State
				got, err := CopiesWinChoiceValues(ctx, f, m, mu, CopiesState{Unknown: []int{st.J}, Half: []int{st.N - st.J}}, st.Lead)
				if err != nil {
					return err
				}
				if got.PolicyChoice != wc.Choice || len(got.Best) != len(wc.Best) {
					t.Errorf("%s in %v: choice %v best %v, want %v and %v", name, st, got.PolicyChoice, got.Best, wc.Choice, wc.Best)
				}
				for _, v := range got.Values {
					if !wc.Legal[v.Choice] || v.Score.Cmp(wc.ChoiceValue[v.Choice]) != 0 {
						t.Errorf("%s in %v, %s now: score %v, want %v", name, st, v.Choice, v.Score, wc.ChoiceValue[v.Choice])
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		for n := 1; n <= maxPairs; n++ {
			st := rules.State{N: n, J: n}
			cst := CopiesState{Unknown: []int{n}, Half: []int{0}}
			got, err := CopiesWinChoiceValues(ctx, f, m, mu, cst, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, err := WinDrawLoss(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if w := want[0]; got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 || got.Value.Loss.Cmp(w.Loss) != 0 {
				t.Errorf("%s, %d pairs: %v, want %v", name, n, got.Value, w)
			}
			res, err := EvaluateCopies(ctx, f, m, mu, cst)
			if err != nil {
				t.Fatal(err)
			}
			wantRes, err := Evaluate(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if diff := sameResult(res, wantRes); diff != "" {
				t.Errorf("%s, %d pairs: %s", name, n, diff)
			}
		}
	}
}

// TestCopiesWinProbabilitiesSumToOne checks that seat 0's probabilities to win, draw and lose
// add up to 1 for every choice, in float64 and in exact rationals, from every state of a small
// deck of four copies.
func TestCopiesWinProbabilitiesSumToOne(t *testing.T) {
	ctx := context.Background()
	m := Model{Variant: rules.Variant{Copies: 4}}
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, st := range []string{"4:3u", "4:2u+1h", "4:1u,2:1u+1h", "4:1h,2:2h"} {
		cst, err := ParseCopiesState(st, 4)
		if err != nil {
			t.Fatal(err)
		}
		for d := -2; d <= 2; d++ {
			r, err := CopiesWinChoiceValues(ctx, field.Rat{}, m, mu, cst, d)
			if err != nil {
				t.Fatal(err)
			}
			x, err := CopiesWinChoiceValues(ctx, field.Float{}, m, mu, cst, d)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range r.Values {
				sum := new(big.Rat).Add(v.Win, v.Draw)
				if sum.Add(sum, v.Loss).Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%s at lead %d, %s: win %v draw %v loss %v", st, d, v.Choice, v.Win, v.Draw, v.Loss)
				}
				w, _ := v.Score.Float64()
				if fx := x.Values[i].Score; fx-w > 1e-12 || w-fx > 1e-12 {
					t.Errorf("%s at lead %d, %s: float64 score %v, exact %v", st, d, v.Choice, fx, w)
				}
			}
		}
	}
}

// TestCopiesWinUnderLimitMatchesCardSearch checks the copies model's values to win under turn
// limits against the card-level search, from the start of two faces of four cards (limits 1 to 5),
// two of six and three of four (limit 4): the lineup's and every choice's win and draw
// probabilities, the expected lead, and the distribution of both seats' pairs taken by the limit.
func TestCopiesWinUnderLimitMatchesCardSearch(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type game struct{ faces, copies, limit int }
	games := []game{{2, 4, 1}, {2, 4, 2}, {2, 4, 3}, {2, 4, 5}, {2, 6, 4}, {3, 4, 4}}
	for _, g := range games {
		for _, opp := range []rules.Policy{rules.PolicyWinOptimal, rules.PolicySafe} {
			pol := rules.PolicyWinBestResponse
			if opp == rules.PolicyWinOptimal {
				pol = rules.PolicyWinOptimal
			}
			mu := Lineup{Players: 2, Policy: pol, Opponent: opp}
			m := Model{Variant: rules.Variant{Copies: g.copies, TurnLimit: g.limit}}
			name := fmt.Sprintf("%d faces of %d, turn limit %d, %s vs %s", g.faces, g.copies, g.limit, pol, opp)
			s := &winSearch{copies: g.copies, fixed: opp, choices: rules.FullChoices, limit: g.limit, memo: map[string]winNode{}}
			c := cardTable{left: make([]int, g.faces), rem: make([]int, g.faces)}
			for i := range c.left {
				c.left[i] = g.copies
			}
			pairs := g.faces * g.copies / 2
			st, err := StartCopiesState(pairs, g.copies)
			if err != nil {
				t.Fatal(err)
			}
			cs, got, err := CopiesWinValues(ctx, f, m, mu, st, 0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := s.start(c, 0, 0, g.limit)
			if w := winWDL(f, want.u, want.draw); got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 {
				t.Errorf("%s: win %v draw %v, search %v and %v", name, got.Value.Win, got.Value.Draw, w.Win, w.Draw)
			}
			if cs.Value.ExpectedLead.Cmp(want.lead) != 0 {
				t.Errorf("%s: expected lead %v, search %v", name, cs.Value.ExpectedLead, want.lead)
			}
			for _, v := range got.Values {
				x := s.play(c, v.Choice, 0, 0, g.limit)
				if w := winWDL(f, x.u, x.draw); v.Win.Cmp(w.Win) != 0 || v.Draw.Cmp(w.Draw) != 0 {
					t.Errorf("%s, %s now: win %v draw %v, search %v and %v", name, v.Choice, v.Win, v.Draw, w.Win, w.Draw)
				}
			}
			dist, err := CopiesDistribution(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			mean0, mean1 := new(big.Rat), new(big.Rat)
			for i := range dist.Prob {
				mean0.Add(mean0, new(big.Rat).Mul(dist.Prob[i], big.NewRat(int64(i), 2)))
				mean1.Add(mean1, new(big.Rat).Mul(dist.Prob1[i], big.NewRat(int64(i), 2)))
			}
			if w := winWDL(f, want.u, want.draw); dist.Win.Cmp(w.Win) != 0 || dist.Draw.Cmp(w.Draw) != 0 ||
				mean0.Cmp(cs.Value.PairsBySeat[0]) != 0 || mean1.Cmp(cs.Value.PairsBySeat[1]) != 0 ||
				new(big.Rat).Sub(mean0, mean1).Cmp(want.lead) != 0 {
				t.Errorf("%s: distribution wins %v draws %v, pairs %v and %v; search %v and %v, lead %v, values %v", name, dist.Win, dist.Draw, mean0, mean1, w.Win, w.Draw, want.lead, cs.Value.PairsBySeat)
			}
		}
	}
}

// TestCopiesWinTwoEqualsPairModelUnderLimit checks that with two copies of a face the copies
// model's win-optimal values under turn limits of 2 and 5 equal the (n, j) model's (limitwin.go) in the
// states (n, n) and (n, n-1) of up to 3 pairs at leads 0 and 1: the lineup's win and draw
// probabilities, every choice's score and the policy's choice.
func TestCopiesWinTwoEqualsPairModelUnderLimit(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	for _, mu := range []Lineup{{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}} {
		for _, limit := range []int{2, 5} {
			m := Model{Variant: rules.Variant{TurnLimit: limit}}
			for n := 1; n <= 3; n++ {
				for j := n - 1; j <= n; j++ {
					for d := 0; d <= 1; d++ {
						name := fmt.Sprintf("%s vs %s, turn limit %d, (%d, %d) at lead %d", mu.Policy, mu.Opponent, limit, n, j, d)
						got, err := CopiesWinChoiceValues(ctx, f, m, mu, CopiesState{Unknown: []int{j}, Half: []int{n - j}}, d)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want, err := WinChoiceValues(ctx, f, m, mu, rules.State{N: n, J: j, Lead: d})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if got.Value.Win.Cmp(want.Value.Win) != 0 || got.Value.Draw.Cmp(want.Value.Draw) != 0 || got.PolicyChoice != want.PolicyChoice {
							t.Errorf("%s: %v choosing %v, want %v choosing %v", name, got.Value, got.PolicyChoice, want.Value, want.PolicyChoice)
						}
						for i, v := range got.Values {
							if i >= len(want.Values) || v.Choice != want.Values[i].Choice || v.Score.Cmp(want.Values[i].Score) != 0 {
								t.Errorf("%s, %s now: score %v, want %v", name, v.Choice, v.Score, want.Values)
							}
						}
					}
				}
			}
		}
	}
}

// The policies that play to win under copies are refused where they are not solved, each with a
// reason: at three seats and as replies to each other.
func TestCopiesWinRefusals(t *testing.T) {
	ctx := context.Background()
	four := rules.Variant{Copies: 4}
	for _, tc := range []struct {
		name string
		m    Model
		mu   Lineup
		want string
	}{
		{"three seats", Model{Variant: four}, Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, "copies 4"},
		{"replies to each other", Model{Variant: four}, Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyWinBestResponse}, "cannot answer win-best-response"},
	} {
		st, err := StartCopiesState(4, 4)
		if err != nil {
			t.Fatal(err)
		}
		_, err = EvaluateCopies[float64](ctx, field.Float{}, tc.m, tc.mu, st)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
