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

// Three or more seats under a pass rule with blind flips and under a turn limit (docs/models.md
// §1.7, §4.7, §4.17, §4.18), checked against a search over the card-level game as
// selfishpass_test.go searches the standard game: cards with identities and a perfect shared
// memory, the pass streak counted as the engine counts it, and the turns left. Every turn uses one
// (a pass, and a turn that takes a pair known whole, included); the p-th pass in a row ends the
// game in a stalemate whatever the turns left, and at the limit the pairs left count for nobody.
// Under blind flips the mover names both cards before either is turned up: daring two cards
// nobody remembers (the remembered one when a single such card is left), safe and known-first a
// remembered card and one nobody remembers.

// limitWorld is a card-level position at the start of a turn with the turns left (0: no limit).
type limitWorld struct {
	passWorld
	left int
}

func (w limitWorld) key() string { return w.passWorld.key() + string(rune(w.left)) }

func (w limitWorld) clone() limitWorld {
	return limitWorld{passWorld: w.passWorld.clone(), left: w.left}
}

// variantSearch searches the card-level game of players seats under a pass rule, blind or
// sequential flips, and a turn limit (limitWorld.left).
type variantSearch struct {
	players int
	rule    rules.PassRule
	blind   bool
	limited bool
	// decide, when not nil, gives the choice of the seat to move (limitWorld.mover); nil makes
	// every seat take the first choice with the most expected pairs for itself, in the order
	// daring, safe, known-first, pass.
	decide func(w limitWorld) rules.Choice
	memo   map[string][]*big.Rat
	// choice records the mover's choice in every position searched, and reached those positions.
	choice  map[string]rules.Choice
	reached []limitWorld
}

func newVariantSearch(players int, rule rules.PassRule, blind, limited bool, decide func(limitWorld) rules.Choice) *variantSearch {
	return &variantSearch{players: players, rule: rule, blind: blind, limited: limited, decide: decide,
		memo: map[string][]*big.Rat{}, choice: map[string]rules.Choice{}}
}

// value returns every seat's expected pairs from w, in order from the mover.
func (s *variantSearch) value(w limitWorld) []*big.Rat {
	k := w.key()
	if v, ok := s.memo[k]; ok {
		return v
	}
	p := s.players
	out := zerosRat(p)
	if s.limited && w.left == 0 {
		s.memo[k] = out
		return out
	}
	// A pair remembered whole is taken first, in a turn of its own: the mover scores and moves
	// again.
	for c := 0; c < len(w.present); c += 2 {
		if w.present[c] && w.known[c] && w.known[c+1] {
			x := w.clone()
			x.present[c], x.present[c+1], x.passes = false, false, 0
			s.useTurn(&x)
			addRot(out, big.NewRat(1, 1), s.value(x), 0)
			out[0].Add(out[0], big.NewRat(1, 1))
			s.memo[k] = out
			return out
		}
	}
	st, known := w.counts()
	if st.N == 0 {
		s.memo[k] = out
		return out
	}
	var choice rules.Choice
	var best []*big.Rat
	if s.decide != nil {
		choice = s.decide(w)
	}
	if choice != replies && s.decide != nil {
		if !legalWith(s.rule, choice, known) {
			panic(fmt.Sprintf("%v: %v is not legal", st, choice))
		}
		best = s.choiceValue(w, choice)
	} else {
		for _, c := range rules.Choices() {
			if !legalWith(s.rule, c, known) {
				continue
			}
			if v := s.choiceValue(w, c); best == nil || v[0].Cmp(best[0]) > 0 {
				best, choice = v, c
			}
		}
	}
	s.memo[k] = best
	s.choice[k] = choice
	s.reached = append(s.reached, w)
	return best
}

// replies is what a search's decide returns for a seat that replies: it takes the first choice,
// in the order daring, safe, known-first, pass, with the most expected pairs for itself, every
// other seat following its policy.
const replies = rules.Choice(rules.NumChoices)

// legalWith says whether choice c is open under rule with known remembered cards on the table
// (§3.2).
func legalWith(rule rules.PassRule, c rules.Choice, known int) bool {
	switch c {
	case rules.Safe, rules.KnownFirst:
		return known >= 1
	case rules.Pass:
		return rule == rules.PassAlways || (rule == rules.PassTwoKnown && known >= 2)
	}
	return true
}

// choiceValue returns every seat's expected pairs, in order from the mover, when the mover of w
// makes choice c now and the search's play follows.
func (s *variantSearch) choiceValue(w limitWorld, c rules.Choice) []*big.Rat {
	p := s.players
	out := zerosRat(p)
	if c == rules.Pass && w.passes == p-1 {
		st, _ := w.counts()
		for i := range out {
			out[i].SetFrac64(int64(st.N), int64(p))
		}
		return out
	}
	w = w.clone()
	s.useTurn(&w)
	if c == rules.Pass {
		x := w.clone()
		x.passes++
		s.handOver(&x)
		addRot(out, big.NewRat(1, 1), s.value(x), 1)
		return out
	}
	// take removes the pair of card a and credits the mover, who moves again.
	take := func(x limitWorld, a int, pr *big.Rat) {
		x.present[a], x.present[a^1], x.passes = false, false, 0
		addRot(out, pr, s.value(x), 0)
		out[0].Add(out[0], pr)
	}
	// miss hands x to the next seat.
	miss := func(x limitWorld, pr *big.Rat) {
		x.passes = 0
		s.handOver(&x)
		addRot(out, pr, s.value(x), 1)
	}
	// half is the lowest remembered card whose partner nobody remembers.
	half := -1
	for a := range w.present {
		if w.present[a] && w.known[a] && !w.known[a^1] {
			half = a
			break
		}
	}
	un := w.unremembered()
	switch {
	case c != rules.Daring && (s.blind || c == rules.KnownFirst):
		// A remembered card and one nobody remembers (blind: named together).
		for _, b := range un {
			pr := big.NewRat(1, int64(len(un)))
			x := w.clone()
			if b == half^1 {
				take(x, b, pr)
				continue
			}
			x.known[b] = true
			miss(x, pr)
		}
		return out
	case s.blind && len(un) == 1:
		// The one card nobody remembers and a remembered one: its partner.
		take(w.clone(), un[0], big.NewRat(1, 1))
		return out
	case s.blind:
		pairs := int64(len(un) * (len(un) - 1) / 2)
		for i, a := range un {
			for _, b := range un[i+1:] {
				pr := big.NewRat(1, pairs)
				x := w.clone()
				if b == a^1 {
					take(x, a, pr)
					continue
				}
				x.known[a], x.known[b] = true, true
				miss(x, pr)
			}
		}
		return out
	}
	for _, a := range un {
		pa := big.NewRat(1, int64(len(un)))
		x := w.clone()
		x.known[a] = true
		if x.known[a^1] {
			take(x, a, pa)
			continue
		}
		if c == rules.Safe {
			miss(x, pa) // a remembered card second: nothing new
			continue
		}
		un2 := x.unremembered()
		for _, b := range un2 {
			pr := new(big.Rat).Mul(pa, big.NewRat(1, int64(len(un2))))
			y := x.clone()
			if b == a^1 {
				take(y, b, pr)
				continue
			}
			y.known[b] = true
			miss(y, pr)
		}
	}
	return out
}

// useTurn counts a turn off the turns left in x, under a limit.
func (s *variantSearch) useTurn(x *limitWorld) {
	if s.limited {
		x.left--
	}
}

// handOver gives the move in x to the next seat, counted where a policy per seat reads it.
func (s *variantSearch) handOver(x *limitWorld) {
	if s.decide != nil {
		x.mover = (x.mover + 1) % s.players
	}
}

// variantCase is a game of the tests: seats, pass rule, flip rule and turn limit (0: none).
type variantCase struct {
	players int
	rule    rules.PassRule
	blind   bool
	limit   int
	maxN    int
}

func (c variantCase) model() exact.Model {
	m := exact.Model{Pass: c.rule, Variant: rules.Variant{TurnLimit: c.limit}}
	if c.blind {
		m.Variant.Flips = rules.FlipsBlind
	}
	return m
}

func (c variantCase) String() string {
	return fmt.Sprintf("p=%d/%s/blind=%v/limit=%d", c.players, c.rule, c.blind, c.limit)
}

// variantCases are the games the card-level tests search: three and four seats, both pass rules,
// blind flips without a limit and limits of 1 to 5 turns under either flip rule.
func variantCases() []variantCase {
	var out []variantCase
	for _, p := range []int{3, 4} {
		maxN := 3
		if p == 4 {
			maxN = 2
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			out = append(out, variantCase{players: p, rule: rule, blind: true, maxN: maxN})
			for limit := 1; limit <= 5; limit++ {
				for _, blind := range []bool{false, true} {
					out = append(out, variantCase{players: p, rule: rule, blind: blind, limit: limit, maxN: maxN})
				}
			}
		}
	}
	return out
}

// solverStreaks returns the solver's optimum of every seat for itself in case c: every seat's
// values in order from the mover, and the mover's choice, by count state, turns left and streak.
func solverStreaks(t *testing.T, c variantCase) map[[4]int]exact.TableCell[*big.Rat] {
	t.Helper()
	out := map[[4]int]exact.TableCell[*big.Rat]{}
	m := c.model()
	if c.limit == 0 {
		err := exact.SelfishTable(context.Background(), field.Rat{}, m, c.players, c.maxN, func(tc *exact.TableCell[*big.Rat]) error {
			out[[4]int{tc.State.N, tc.State.J, 0, tc.Passes}] = exact.TableCell[*big.Rat]{BySeat: append([]*big.Rat(nil), tc.BySeat...), Choice: tc.Choice}
			return nil
		})
		if err != nil {
			t.Fatalf("SelfishTable: %v", err)
		}
		return out
	}
	mu := exact.Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	err := exact.LimitStreaks(context.Background(), field.Rat{}, m, mu, c.maxN,
		func(st rules.State, left, k int, self []*big.Rat, ch rules.Choice, _ [][]*big.Rat) {
			out[[4]int{st.N, st.J, left, k}] = exact.TableCell[*big.Rat]{BySeat: self, Choice: ch}
		})
	if err != nil {
		t.Fatalf("LimitStreaks: %v", err)
	}
	return out
}

// TestSelfishPassUnderVariantsIsTheCardLevelSearch compares the solver's optimum of every seat for
// itself under a pass rule, with blind flips and under turn limits, with the card-level search in
// which every seat maximises its own expected pairs: every seat's value and the mover's choice in
// every position the search reaches from every deal of up to maxN pairs, at every pass streak and
// number of turns left.
func TestSelfishPassUnderVariantsIsTheCardLevelSearch(t *testing.T) {
	for _, c := range variantCases() {
		t.Run(c.String(), func(t *testing.T) {
			solver := solverStreaks(t, c)
			s := newVariantSearch(c.players, c.rule, c.blind, c.limit > 0, nil)
			for n := 1; n <= c.maxN; n++ {
				w := limitWorld{passWorld: startWorld(n), left: c.limit}
				s.value(w)
			}
			for _, w := range s.reached {
				st, _ := w.counts()
				got, ok := solver[[4]int{st.N, st.J, w.left, w.passes}]
				if !ok {
					t.Fatalf("%v, %d turns left, streak %d: not in the solver's table", st, w.left, w.passes)
				}
				want := s.memo[w.key()]
				for i := range want {
					if got.BySeat[i].Cmp(want[i]) != 0 {
						t.Fatalf("%v, %d turns left, streak %d: seat %d from the mover %s, the search %s", st, w.left, w.passes, i, got.BySeat[i].RatString(), want[i].RatString())
					}
				}
				if ch := s.choice[w.key()]; got.Choice != ch {
					t.Errorf("%v, %d turns left, streak %d: choice %v, the search %v", st, w.left, w.passes, got.Choice, ch)
				}
			}
			if len(s.reached) == 0 {
				t.Fatal("no position searched")
			}
		})
	}
}

// seatsFollow returns the decide of a search in which seat i plays pols[i]: a fixed policy its
// choice in the count state, optimal the choice of the search of every seat for itself (self) in
// the same position, best-response its best reply (replies).
func seatsFollow(self *variantSearch, pols []rules.Policy) func(limitWorld) rules.Choice {
	return func(w limitWorld) rules.Choice {
		st, _ := w.counts()
		switch p := pols[w.mover]; p {
		case rules.PolicyBestResponse:
			return replies
		case rules.PolicyOptimal:
		default:
			return p.Decide(st)
		}
		x := w.clone()
		x.mover = 0
		self.value(x)
		return self.choice[x.key()]
	}
}

// TestSeatLineupsUnderPassVariantsAreTheCardLevelSearch compares the values of lineups of optimal
// (every seat's own optimum, read at the pass streak and the turns left), fixed policies and a
// best reply at one seat under a pass rule, with blind flips and under turn limits, with the
// card-level search in which every seat follows its policy and the replying seat takes, at every
// turn, the choice with the most expected pairs for itself: every seat's value from every deal of
// up to maxN pairs.
func TestSeatLineupsUnderPassVariantsAreTheCardLevelSearch(t *testing.T) {
	O, S, D, B := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	lineups := map[int][][]rules.Policy{
		3: {{O, S, D}, {D, O, O}, {B, S, S}, {B, O, O}},
		4: {{S, O, D, O}, {B, D, D, D}},
	}
	for _, c := range variantCases() {
		for _, pols := range lineups[c.players] {
			t.Run(fmt.Sprintf("%v/%v", c, pols), func(t *testing.T) {
				self := newVariantSearch(c.players, c.rule, c.blind, c.limit > 0, nil)
				s := newVariantSearch(c.players, c.rule, c.blind, c.limit > 0, seatsFollow(self, pols))
				for n := 1; n <= c.maxN; n++ {
					want := s.value(limitWorld{passWorld: startWorld(n), left: c.limit})
					res, err := exact.Evaluate(context.Background(), field.Rat{}, c.model(), exact.SeatLineup(pols...), rules.State{N: n, J: n})
					if err != nil {
						t.Fatal(err)
					}
					for i := range want {
						if res.PairsBySeat[i].Cmp(want[i]) != 0 {
							t.Errorf("n=%d: seat %d %s, the search %s", n, i, res.PairsBySeat[i].RatString(), want[i].RatString())
						}
					}
				}
			})
		}
	}
}

// TestTwoSeatSearchIsTheTwoSeatModel checks the card-level search of these tests with two seats
// against the two-seat models of blind flips and of a turn limit under a pass rule: fixed
// policies under every variant of the tests, and every seat for itself without a limit, where it
// is the two-player optimum (the pairs add up to n, so the most pairs is the largest lead).
func TestTwoSeatSearchIsTheTwoSeatModel(t *testing.T) {
	for _, c := range variantCases() {
		if c.players != 3 {
			continue
		}
		c.players = 2
		lineups := [][]rules.Policy{{rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyDaring, rules.PolicyParity}}
		if c.limit == 0 {
			lineups = append(lineups, []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal})
		}
		for _, pols := range lineups {
			t.Run(fmt.Sprintf("%v/%v", c, pols), func(t *testing.T) {
				self := newVariantSearch(2, c.rule, c.blind, c.limit > 0, nil)
				s := newVariantSearch(2, c.rule, c.blind, c.limit > 0, seatsFollow(self, pols))
				mu := exact.Lineup{Players: 2, Policy: pols[0], Opponent: pols[1]}
				for n := 1; n <= c.maxN; n++ {
					want := s.value(limitWorld{passWorld: startWorld(n), left: c.limit})
					res, err := exact.Evaluate(context.Background(), field.Rat{}, c.model(), mu, rules.State{N: n, J: n})
					if err != nil {
						t.Fatal(err)
					}
					if res.PairsBySeat[0].Cmp(want[0]) != 0 || res.PairsBySeat[1].Cmp(want[1]) != 0 {
						t.Errorf("n=%d: %s and %s, the search %s and %s", n, res.PairsBySeat[0].RatString(), res.PairsBySeat[1].RatString(),
							want[0].RatString(), want[1].RatString())
					}
				}
			})
		}
	}
}

// TestPassVariantIdentities checks what docs/models.md §4.7 and §4.18 state of three to five seats
// under a pass rule: under blind flips every seat's pairs add up to n in every state at every
// streak (a stalemate shares the pairs left); under a limit they add up to at most n (the pairs
// left at the limit count for nobody); and a limit of at least p(3n + 1) turns, more than any
// game from a state of n pairs lasts, gives the values without a limit at every streak. With
// perfect memory every turn but a pass takes a pair or turns up a card never seen, at most 3n
// such turns, and at most p - 1 passes come before each of them and p at the end.
func TestPassVariantIdentities(t *testing.T) {
	const maxN = 4
	for _, p := range []int{3, 4, 5} {
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for _, blind := range []bool{false, true} {
				c := variantCase{players: p, rule: rule, blind: blind, maxN: maxN}
				t.Run(c.String(), func(t *testing.T) {
					free := solverStreaks(t, c)
					for key, cell := range free {
						sum := new(big.Rat)
						for _, v := range cell.BySeat {
							sum.Add(sum, v)
						}
						if sum.Cmp(big.NewRat(int64(key[0]), 1)) != 0 {
							t.Errorf("(n=%d, j=%d) streak %d: the seats' pairs add up to %s", key[0], key[1], key[3], sum.RatString())
						}
					}
					c.limit = p*(3*maxN+1) + 2
					limited := solverStreaks(t, c)
					for key, cell := range limited {
						n, left := key[0], key[2]
						sum := new(big.Rat)
						for _, v := range cell.BySeat {
							sum.Add(sum, v)
						}
						if sum.Cmp(big.NewRat(int64(n), 1)) > 0 {
							t.Errorf("(n=%d, j=%d), %d turns left, streak %d: the seats' pairs add up to %s", n, key[1], left, key[3], sum.RatString())
						}
						if left < p*(3*n+1) {
							continue
						}
						want := free[[4]int{n, key[1], 0, key[3]}]
						for i := range want.BySeat {
							if cell.BySeat[i].Cmp(want.BySeat[i]) != 0 || cell.Choice != want.Choice {
								t.Fatalf("(n=%d, j=%d), %d turns left, streak %d: seat %d %s (%v), without a limit %s (%v)", n, key[1], left, key[3], i,
									cell.BySeat[i].RatString(), cell.Choice, want.BySeat[i].RatString(), want.Choice)
							}
						}
					}
				})
			}
		}
	}
}
