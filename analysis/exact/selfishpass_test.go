package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat for itself under a pass rule (docs/models.md §4.7), checked against a search over
// the card-level game: cards with identities (pair i owns cards 2i and 2i+1) and a perfect shared
// memory, a flip of a card nobody remembers turning up each such card with equal probability, the
// rules of §1 and §3.2 played card by card, and the pass streak counted as the engine counts it.
// The search uses no count formula of the solver: the count state is read off the table only to
// compare with the solver.

// passWorld is a card-level position at the start of a turn: which cards are on the table and
// which are remembered, and how many seats passed in a row just before.
type passWorld struct {
	present, known []bool
	passes         int
	// mover is the seat to move, counted only by a search that follows a policy per seat.
	mover int
}

func (w passWorld) key() string {
	b := make([]byte, len(w.present)+2)
	for c := range w.present {
		b[c] = byte(btoiPass(w.present[c]) + 2*btoiPass(w.known[c]))
	}
	b[len(w.present)], b[len(w.present)+1] = byte(w.passes), byte(w.mover)
	return string(b)
}

func (w passWorld) clone() passWorld {
	return passWorld{present: append([]bool(nil), w.present...), known: append([]bool(nil), w.known...), passes: w.passes, mover: w.mover}
}

// counts reads the count state (n, j) and the remembered cards off the table.
func (w passWorld) counts() (st rules.State, known int) {
	for c := 0; c < len(w.present); c += 2 {
		if !w.present[c] {
			continue
		}
		st.N++
		if !w.known[c] && !w.known[c+1] {
			st.J++
		}
		known += btoiPass(w.known[c]) + btoiPass(w.known[c+1])
	}
	return st, known
}

func btoiPass(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unremembered lists the cards on the table nobody remembers.
func (w passWorld) unremembered() []int {
	var out []int
	for c := range w.present {
		if w.present[c] && !w.known[c] {
			out = append(out, c)
		}
	}
	return out
}

// passSearch searches the card-level game of players seats under a pass rule.
type passSearch struct {
	players int
	rule    rules.PassRule
	// decide, when not nil, gives the mover's choice in a position (a policy to follow); nil
	// makes every seat take the first choice with the most expected pairs for itself, in the
	// order daring, safe, known-first, pass.
	decide func(w passWorld) rules.Choice
	// seats makes the search count the seat to move (passWorld.mover), for a decide that reads it.
	seats bool
	memo  map[string][]*big.Rat
	// seen records, for every position searched, its count state, pass streak and the mover's
	// value and choice.
	seen map[string]passSeen
}

type passSeen struct {
	world  passWorld
	st     rules.State
	passes int
	value  *big.Rat
	choice rules.Choice
}

func newPassSearch(players int, rule rules.PassRule, decide func(passWorld) rules.Choice) *passSearch {
	return &passSearch{players: players, rule: rule, decide: decide, memo: map[string][]*big.Rat{}, seen: map[string]passSeen{}}
}

// addRot adds scale*b to a, b in order from the seat shift places after a's first seat.
func addRot(a []*big.Rat, scale *big.Rat, b []*big.Rat, shift int) {
	p := len(a)
	for s := range a {
		v := new(big.Rat).Mul(scale, b[(s+p-shift)%p])
		a[s].Add(a[s], v)
	}
}

func zerosRat(p int) []*big.Rat {
	v := make([]*big.Rat, p)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

// value returns every seat's expected pairs from w, in order from the mover.
func (s *passSearch) value(w passWorld) []*big.Rat {
	k := w.key()
	if v, ok := s.memo[k]; ok {
		return v
	}
	p := s.players
	out := zerosRat(p)
	// A pair remembered whole is taken first: the mover scores and moves again.
	for c := 0; c < len(w.present); c += 2 {
		if w.present[c] && w.known[c] && w.known[c+1] {
			x := w.clone()
			x.present[c], x.present[c+1], x.passes = false, false, 0
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
	for _, c := range rules.Choices() {
		if !s.legal(c, known) {
			continue
		}
		v := s.choiceValue(w, c)
		if s.decide == nil && (best == nil || v[0].Cmp(best[0]) > 0) {
			best, choice = v, c
		}
	}
	if s.decide != nil {
		choice = s.decide(w)
		if !s.legal(choice, known) {
			panic(fmt.Sprintf("%v: %v is not legal", st, choice))
		}
		best = s.choiceValue(w, choice)
	}
	s.memo[k] = best
	s.seen[k] = passSeen{world: w, st: st, passes: w.passes, value: best[0], choice: choice}
	return best
}

// legal says whether choice c is open with known remembered cards on the table (§3.2).
func (s *passSearch) legal(c rules.Choice, known int) bool {
	switch c {
	case rules.Safe, rules.KnownFirst:
		return known >= 1
	case rules.Pass:
		return s.rule == rules.PassAlways || (s.rule == rules.PassTwoKnown && known >= 2)
	}
	return true
}

// choiceValue returns every seat's expected pairs, in order from the mover, when the mover of w
// makes choice c now and the search's play follows.
func (s *passSearch) choiceValue(w passWorld, c rules.Choice) []*big.Rat {
	p := s.players
	out := zerosRat(p)
	if c == rules.Pass {
		if w.passes == p-1 {
			st, _ := w.counts()
			for i := range out {
				out[i].SetFrac64(int64(st.N), int64(p))
			}
			return out
		}
		x := w.clone()
		x.passes++
		s.handOver(&x)
		addRot(out, big.NewRat(1, 1), s.value(x), 1)
		return out
	}
	// take removes the pair of card a and credits the mover, who moves again.
	take := func(x passWorld, a int, pr *big.Rat) {
		x.present[a], x.present[a^1], x.passes = false, false, 0
		addRot(out, pr, s.value(x), 0)
		out[0].Add(out[0], pr)
	}
	// miss hands x to the next seat.
	miss := func(x passWorld, pr *big.Rat) {
		x.passes = 0
		s.handOver(&x)
		addRot(out, pr, s.value(x), 1)
	}
	if c == rules.KnownFirst {
		first := -1
		for a := range w.present {
			if w.present[a] && w.known[a] && !w.known[a^1] {
				first = a
				break
			}
		}
		un := w.unremembered()
		for _, b := range un {
			pr := big.NewRat(1, int64(len(un)))
			x := w.clone()
			if b == first^1 {
				take(x, b, pr)
				continue
			}
			x.known[b] = true
			miss(x, pr)
		}
		return out
	}
	un := w.unremembered()
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

// handOver gives the move in x to the next seat.
func (s *passSearch) handOver(x *passWorld) {
	if s.seats {
		x.mover = (x.mover + 1) % s.players
	}
}

// startWorld is the full deal of n pairs, nothing remembered.
func startWorld(n int) passWorld {
	w := passWorld{present: make([]bool, 2*n), known: make([]bool, 2*n)}
	for i := range w.present {
		w.present[i] = true
	}
	return w
}

// streakTable records the solver's table of every seat for itself: value and choice by state and
// pass streak.
type streakKey struct {
	n, j, passes int
}

func selfishStreakTable(t *testing.T, m exact.Model, players, maxN int) map[streakKey]exact.TableCell[*big.Rat] {
	t.Helper()
	out := map[streakKey]exact.TableCell[*big.Rat]{}
	err := exact.SelfishTable(context.Background(), field.Rat{}, m, players, maxN, func(c *exact.TableCell[*big.Rat]) error {
		cp := *c
		cp.Best = append([]rules.Choice(nil), c.Best...)
		out[streakKey{c.State.N, c.State.J, c.Passes}] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("SelfishTable(%d players, pass %s): %v", players, m.Pass, err)
	}
	return out
}

// TestSelfishPassIsTheCardLevelSearch compares the solver's optimum of every seat for itself under
// the pass rules with the card-level search in which every seat maximises its own expected pairs:
// every seat's value from the full deal, and the mover's value and choice in every position the
// search reaches, at every pass streak.
func TestSelfishPassIsTheCardLevelSearch(t *testing.T) {
	ctx := context.Background()
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, p := range []int{3, 4} {
			for n := 1; n <= 4; n++ {
				if testing.Short() && p == 4 && n == 4 {
					continue // the largest search, left to the long tests
				}
				t.Run(fmt.Sprintf("%s/p=%d/n=%d", rule, p, n), func(t *testing.T) {
					m := exact.Model{Pass: rule}
					s := newPassSearch(p, rule, nil)
					want := s.value(startWorld(n))
					mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
					res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, mu, rules.State{N: n, J: n})
					if err != nil {
						t.Fatal(err)
					}
					for i := range p {
						if res.PairsBySeat[i].Cmp(want[i]) != 0 {
							t.Errorf("seat %d: Evaluate %s, card-level search %s", i, res.PairsBySeat[i].RatString(), want[i].RatString())
						}
					}
					tab := selfishStreakTable(t, m, p, n)
					passed := false
					for _, v := range s.seen {
						c, ok := tab[streakKey{v.st.N, v.st.J, v.passes}]
						switch {
						case !ok:
							t.Errorf("%v after %d passes: not in the table", v.st, v.passes)
						case c.Value.Cmp(v.value) != 0 || c.Choice != v.choice:
							t.Errorf("%v after %d passes: table %s (%v), card-level search %s (%v)", v.st, v.passes, c.Value.RatString(), c.Choice, v.value.RatString(), v.choice)
						}
						passed = passed || v.passes > 0
					}
					if n >= 2 && !passed {
						t.Error("no position after a pass searched")
					}
				})
			}
		}
	}
}

// TestSelfishPassIsEquilibrium checks, at card level, that no seat gains by deviating once from
// the solver's table (read at the pass streak) in any position a game reaches: the seat that
// moves there makes every other legal choice once, and every seat follows the table afterwards.
func TestSelfishPassIsEquilibrium(t *testing.T) {
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, p := range []int{3, 4} {
			for _, n := range []int{3, 4} {
				if testing.Short() && n == 4 {
					continue // the largest searches, left to the long tests
				}
				t.Run(fmt.Sprintf("%s/p=%d/n=%d", rule, p, n), func(t *testing.T) {
					m := exact.Model{Pass: rule}
					mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
					tab, err := exact.PolicyTable(context.Background(), field.Rat{}, m, mu, n)
					if err != nil {
						t.Fatal(err)
					}
					follow := func(w passWorld) rules.Choice {
						st, _ := w.counts()
						c, ok := tab.LookupPasses(st, w.passes)
						if !ok {
							t.Fatalf("%v after %d passes: no choice in the table", st, w.passes)
						}
						return c
					}
					base := newPassSearch(p, rule, follow)
					base.value(startWorld(n))
					reached := make([]passSeen, 0, len(base.seen))
					for _, v := range base.seen {
						reached = append(reached, v)
					}
					checked := 0
					for _, v := range reached {
						_, known := v.world.counts()
						for _, c := range rules.Choices() {
							if c == v.choice || !base.legal(c, known) {
								continue
							}
							// The positions after this one are searched following the table.
							got := base.choiceValue(v.world, c)[0]
							checked++
							if got.Cmp(v.value) > 0 {
								t.Errorf("%v after %d passes: %v once gives the mover %s, the table's %v %s", v.st, v.passes, c, got.RatString(), v.choice, v.value.RatString())
							}
						}
					}
					if checked == 0 {
						t.Fatal("no deviation checked")
					}
				})
			}
		}
	}
}

// TestSelfishPassLineups compares the values of lineups of optimal (its table read at the pass
// streak) and fixed policies under the pass rules with the card-level search in which every seat
// follows its policy.
func TestSelfishPassLineups(t *testing.T) {
	ctx := context.Background()
	o, sa, da, pa := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	lineups := [][]rules.Policy{{o, sa, da}, {da, o, pa}, {o, o, sa, da}}
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		m := exact.Model{Pass: rule}
		for _, pols := range lineups {
			p := len(pols)
			const n = 3
			mu := exact.Lineup{Players: p, Policy: o, Opponent: o}
			tab, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, n)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(fmt.Sprintf("%s/%v", rule, pols), func(t *testing.T) {
				s := newPassSearch(p, rule, func(w passWorld) rules.Choice {
					st, _ := w.counts()
					if pol := pols[w.mover]; pol != o {
						return pol.Decide(st)
					}
					c, _ := tab.LookupPasses(st, w.passes)
					return c
				})
				s.seats = true
				want := s.value(startWorld(n))
				res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(pols...), rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				for i := range p {
					if res.PairsBySeat[i].Cmp(want[i]) != 0 {
						t.Errorf("seat %d: Evaluate %s, card-level search %s", i, res.PairsBySeat[i].RatString(), want[i].RatString())
					}
				}
			})
		}
	}
}

// TestSelfishPassChoiceIgnoresTheStreak checks what docs/models.md §4.7 reports of the tables of
// 3, 4 and 5 seats under both pass rules up to 30 pairs: the optimum's choice and the mover's value
// are the same at every pass streak of a state, and where the choice is a pass the value is the
// stalemate's n/p.
func TestSelfishPassChoiceIgnoresTheStreak(t *testing.T) {
	const maxN = 30
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, p := range []int{3, 4, 5} {
			var first exact.TableCell[float64]
			passes := 0
			err := exact.SelfishTable(context.Background(), field.Float{}, exact.Model{Pass: rule}, p, maxN, func(c *exact.TableCell[float64]) error {
				if c.Passes == 0 {
					first = *c
				}
				if c.Choice != first.Choice || c.Value != first.Value {
					t.Errorf("%s, %d seats, %v after %d passes: %v worth %g, after none %v worth %g", rule, p, c.State, c.Passes, c.Choice, c.Value, first.Choice, first.Value)
				}
				if c.Choice == rules.Pass {
					passes++
					if want := float64(c.State.N) / float64(p); math.Abs(c.Value-want) > 1e-9 {
						t.Errorf("%s, %d seats, %v: a pass worth %g, the stalemate %g", rule, p, c.State, c.Value, want)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if passes == 0 {
				t.Errorf("%s, %d seats: no state where the optimum passes", rule, p)
			}
		}
	}
}
