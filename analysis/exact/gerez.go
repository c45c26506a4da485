package exact

import (
	"context"
	"fmt"
	"math/big"
	"strings"
)

// Gerez's formulation (docs/models.md §4.10): perfect memory, two players, the unconditional
// pass, and the state <k, B, P>: k cards on the table, B known cards, P known cards whose partner
// is known too. Values count cards. The tactics are not listed by hand: they are every first card
// and every second card, or pair of second cards conditional on whether the first card's partner
// is known, that the rules allow, and their outcomes are derived from the card classes.

// GerezState is a position <k, B, P>.
type GerezState struct{ K, B, P int }

// String formats the state as <k, B, P>.
func (s GerezState) String() string { return fmt.Sprintf("<%d, %d, %d>", s.K, s.B, s.P) }

// Valid reports whether the state satisfies k >= (k + P)/2 >= B >= P >= 0 with k and P even.
func (s GerezState) Valid() bool {
	return s.K >= 0 && s.K%2 == 0 && s.P%2 == 0 && 2*s.B <= s.K+s.P && s.B >= s.P && s.P >= 0
}

// Card is a class of card a tactic flips.
type Card uint8

// The card classes of Gerez's tactics.
const (
	BMN Card = iota // a known card whose partner is known
	BZN             // a known card whose partner is not known
	ONB             // an unknown card
	NEK             // the partner of the first card
)

var cardNames = [...]string{"bmn", "bzn", "onb", "nek"}

// String returns the class's name.
func (c Card) String() string { return cardNames[c] }

// Tactic is a first card and a second card; after an unknown first card the second may depend on
// whether its partner is known (IfKnown, else Otherwise); otherwise IfKnown == Otherwise.
type Tactic struct {
	First              Card
	IfKnown, Otherwise Card
}

// String formats the tactic as Gerez writes it.
func (t Tactic) String() string {
	if t.First == ONB && t.IfKnown != t.Otherwise {
		return fmt.Sprintf("<onb, if partner known then %s else %s>", t.IfKnown, t.Otherwise)
	}
	return fmt.Sprintf("<%s, %s>", t.First, t.IfKnown)
}

// Pass reports whether the tactic flips two known cards that are not a pair: it reveals nothing.
func (t Tactic) Pass() bool {
	return (t.First == BMN || t.First == BZN) && (t.IfKnown == BMN || t.IfKnown == BZN)
}

// GerezTactics enumerates the tactics the rules allow: after a known first card with a known
// partner any second card; after a known card whose partner is not known, any but its partner;
// after an unknown card, a plain second card other than its partner (which is known only when the
// partner is), or a conditional pair (X if the partner is known, Y otherwise; Y not the partner;
// X != Y).
func GerezTactics() []Tactic {
	var out []Tactic
	for _, first := range []Card{BMN, BZN, ONB} {
		for _, x := range []Card{BMN, BZN, ONB, NEK} {
			for _, y := range []Card{BMN, BZN, ONB, NEK} {
				switch {
				case first != ONB && x != y:
					continue // only an unknown first card can condition the second
				case first == BZN && x == NEK:
					continue // its partner is not known
				case first == ONB && y == NEK:
					continue // the partner of an unknown first card is unknown when not known
				}
				out = append(out, Tactic{First: first, IfKnown: x, Otherwise: y})
			}
		}
	}
	return out
}

// gerezBranch is one outcome of a tactic: its probability, the next state, and whether the mover
// took a pair (and moves again) or the turn passes.
type gerezBranch struct {
	prob *big.Rat
	next GerezState
	took bool
}

// gerezOutcomes returns the outcomes of tactic t in s, and false when the rules do not allow it
// there (a card class it needs has no card, in a case of positive probability).
func gerezOutcomes(s GerezState, t Tactic) ([]gerezBranch, bool) {
	h := s.B - s.P // known cards whose partner is not known
	u := s.K - s.B // unknown cards: h partners of known cards, z of unknown pairs
	z := s.K + s.P - 2*s.B
	r := func(a, b int) *big.Rat { return big.NewRat(int64(a), int64(b)) }
	st := func(dk, dB, dP int) GerezState { return GerezState{s.K + dk, s.B + dB, s.P + dP} }
	same := []gerezBranch{{prob: r(1, 1), next: s}}
	switch t.First {
	case BMN:
		if s.P < 2 {
			return nil, false
		}
		switch t.IfKnown {
		case NEK:
			return []gerezBranch{{prob: r(1, 1), next: st(-2, -2, -2), took: true}}, true
		case BMN:
			return same, s.P >= 4
		case BZN:
			return same, h >= 1
		}
		if u < 1 {
			return nil, false
		}
		return nonzero([]gerezBranch{{prob: r(h, u), next: st(0, 1, 2)}, {prob: r(z, u), next: st(0, 1, 0)}}), true
	case BZN:
		if h < 1 {
			return nil, false
		}
		switch t.IfKnown {
		case BMN:
			return same, s.P >= 2
		case BZN:
			return same, h >= 2
		}
		if u < 1 {
			return nil, false
		}
		return nonzero([]gerezBranch{{prob: r(1, u), next: st(-2, -1, 0), took: true},
			{prob: r(h-1, u), next: st(0, 1, 2)}, {prob: r(z, u), next: st(0, 1, 0)}}), true
	}
	if u < 1 {
		return nil, false
	}
	var out []gerezBranch
	scale := func(p *big.Rat, bs []gerezBranch) {
		for _, b := range bs {
			out = append(out, gerezBranch{prob: new(big.Rat).Mul(p, b.prob), next: b.next, took: b.took})
		}
	}
	if h > 0 { // the first card's partner is known: the first card completes a pair
		var bs []gerezBranch
		switch t.IfKnown {
		case NEK:
			bs = []gerezBranch{{prob: r(1, 1), next: st(-2, -1, 0), took: true}}
		case BMN:
			if s.P < 2 {
				return nil, false
			}
			bs = []gerezBranch{{prob: r(1, 1), next: st(0, 1, 2)}}
		case BZN:
			if h < 2 {
				return nil, false
			}
			bs = []gerezBranch{{prob: r(1, 1), next: st(0, 1, 2)}}
		case ONB:
			if u < 2 {
				return nil, false
			}
			bs = nonzero([]gerezBranch{{prob: r(h-1, u-1), next: st(0, 2, 4)}, {prob: r(z, u-1), next: st(0, 2, 2)}})
		}
		scale(r(h, u), bs)
	}
	if z > 0 { // the first card is of a pair nobody knows
		var bs []gerezBranch
		switch t.Otherwise {
		case BMN:
			if s.P < 2 {
				return nil, false
			}
			bs = []gerezBranch{{prob: r(1, 1), next: st(0, 1, 0)}}
		case BZN:
			if h < 1 {
				return nil, false
			}
			bs = []gerezBranch{{prob: r(1, 1), next: st(0, 1, 0)}}
		case ONB:
			bs = nonzero([]gerezBranch{{prob: r(1, u-1), next: st(-2, 0, 0), took: true},
				{prob: r(h, u-1), next: st(0, 2, 2)}, {prob: r(z-2, u-1), next: st(0, 2, 0)}})
		}
		scale(r(z, u), bs)
	}
	return out, true
}

func nonzero(bs []gerezBranch) []gerezBranch {
	out := bs[:0]
	for _, b := range bs {
		if b.prob.Sign() > 0 {
			out = append(out, b)
		}
	}
	return out
}

// GerezCell is one state of Gerez's model solved: its value in cards with optimal play by both,
// the value of every allowed tactic (that tactic now, optimal play afterwards), and the optimal
// tactics.
type GerezCell struct {
	State   GerezState
	Value   *big.Rat
	Tactics []Tactic
	Values  []*big.Rat // parallel to Tactics
	Best    []Tactic
	// PassValue is the value of passing (k minus the value: the opponent moves in the same
	// state); PassBest reports whether passing is optimal.
	PassValue *big.Rat
	PassBest  bool
}

// Gerez solves every valid state with at most maxCards cards, calling visit in order of k, then
// B and P decreasing. The pass is unconditional (pass rule always): passing, or a tactic that
// flips two known cards that are not a pair, leaves the state to the opponent, so where the best
// tactic that reveals something is worth less than k/2, passing is optimal and the value is k/2
// (a pass answered by a pass ends the game and splits the table).
func Gerez(ctx context.Context, maxCards int, visit func(*GerezCell) error) error {
	if maxCards < 0 || maxCards%2 != 0 {
		return fmt.Errorf("cards %d: must be an even number, at least 0", maxCards)
	}
	vals := map[GerezState]*big.Rat{}
	tactics := GerezTactics()
	done := ctx.Done()
	prog := progressOf(ctx)
	for k := 0; k <= maxCards; k += 2 {
		for b := k; b >= 0; b-- {
			for p := b - b%2; p >= 0; p -= 2 {
				select {
				case <-done:
					return ctx.Err()
				default:
				}
				s := GerezState{k, b, p}
				if !s.Valid() {
					continue
				}
				c := &GerezCell{State: s}
				if k == 0 {
					c.Value = new(big.Rat)
					vals[s] = c.Value
					if err := visit(c); err != nil {
						return err
					}
					continue
				}
				half := big.NewRat(int64(k), 2)
				var best *big.Rat
				for _, t := range tactics {
					bs, ok := gerezOutcomes(s, t)
					if !ok {
						continue
					}
					c.Tactics = append(c.Tactics, t)
					if t.Pass() {
						c.Values = append(c.Values, nil) // filled in once the value is known
						continue
					}
					v := new(big.Rat)
					for _, br := range bs {
						w := vals[br.next]
						var x *big.Rat
						if br.took {
							x = new(big.Rat).Add(big.NewRat(2, 1), w)
						} else {
							x = new(big.Rat).Sub(big.NewRat(int64(br.next.K), 1), w)
						}
						v.Add(v, x.Mul(x, br.prob))
					}
					c.Values = append(c.Values, v)
					if best == nil || v.Cmp(best) > 0 {
						best = v
					}
				}
				// The unconditional pass is always open; it leaves the state to the opponent.
				c.Value = best
				if best == nil || best.Cmp(half) < 0 {
					c.Value = half
				}
				c.PassValue = new(big.Rat).Sub(big.NewRat(int64(k), 1), c.Value)
				c.PassBest = c.PassValue.Cmp(c.Value) == 0
				for i, t := range c.Tactics {
					if t.Pass() {
						c.Values[i] = new(big.Rat).Sub(big.NewRat(int64(k), 1), c.Value)
					}
					if c.Values[i].Cmp(c.Value) == 0 {
						c.Best = append(c.Best, t)
					}
				}
				vals[s] = c.Value
				if err := visit(c); err != nil {
					return err
				}
			}
		}
		prog.add(gerezRowOps(k))
	}
	return nil
}

// GerezEX2 is the value of <onb, if partner known then nek else bzn> by Gerez's formula
// (docs/models.md §4.10, claim GZ-EX2), given the values w of the states it names.
func GerezEX2(s GerezState, w func(GerezState) *big.Rat) *big.Rat {
	k, b, p := s.K, s.B, s.P
	a := new(big.Rat).Add(w(GerezState{k - 2, b - 1, p}), big.NewRat(2, 1))
	a.Mul(a, big.NewRat(int64(b-p), int64(k-b)))
	c := new(big.Rat).Sub(big.NewRat(int64(k), 1), w(GerezState{k, b + 1, p}))
	c.Mul(c, big.NewRat(int64(k+p-2*b), int64(k-b)))
	return a.Add(a, c)
}

// TacticNames joins tactics for printing.
func TacticNames(ts []Tactic) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return strings.Join(out, ", ")
}

// GerezSuccessors lists the states every allowed tactic can lead to from s (after a pair taken or
// the turn passed).
func GerezSuccessors(s GerezState) []GerezState {
	var out []GerezState
	for _, t := range GerezTactics() {
		bs, ok := gerezOutcomes(s, t)
		if !ok {
			continue
		}
		for _, b := range bs {
			out = append(out, b.next)
		}
	}
	return out
}
