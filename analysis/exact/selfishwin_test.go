package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective with every seat for itself (docs/models.md §4.7, "Win objective"), checked
// against a search of the card-level game tree that uses neither the count states' outcomes nor
// the standings: every card has an identity (pair i owns cards 2i and 2i+1, singleton k is card
// 2n+k), a flip of a card nobody remembers shows each such card with equal probability (the deal
// is uniformly random), and the mover at every turn takes the choice that gives it the largest
// P(most pairs), ties shared, the first in the order daring, safe, known-first.

// winSearch is the card-level search of one deal size.
type winSearch struct {
	n, s, players int
	choices       []rules.Choice
	memo          map[string][4][]*big.Rat
	// follow, when not nil, is every seat's choice in a count state, in place of the best for
	// the mover (a policy that does not look at the seats' pairs).
	follow func(st rules.State) rules.Choice
	// seats, when not nil, gives each seat's choice in a count state in place of follow, nil at a
	// seat that takes the best for itself (a lineup that mixes policies).
	seats []func(st rules.State) rules.Choice
	// objective is the vector a seat that takes the best for itself maximises: wsScore (the
	// zero value) or wsPairs.
	objective int
}

// The vectors the search returns, by absolute seat: score, pairs at the end, win, draw.
const (
	wsScore = iota
	wsPairs
	wsWin
	wsDraw
)

func (w *winSearch) partner(c int) int {
	if c < 2*w.n {
		return c ^ 1
	}
	return -1
}

// value returns the vectors of the position: cards present and remembered as bit masks, each
// seat's pairs so far, the mover to move.
func (w *winSearch) value(present, known uint, pairs []int, mover int) [4][]*big.Rat {
	key := fmt.Sprint(present, known, pairs, mover)
	if v, ok := w.memo[key]; ok {
		return v
	}
	v := w.compute(present, known, pairs, mover)
	w.memo[key] = v
	return v
}

func (w *winSearch) compute(present, known uint, pairs []int, mover int) [4][]*big.Rat {
	cards := 2*w.n + w.s
	has := func(m uint, c int) bool { return m&(1<<c) != 0 }
	// A pair both of whose cards are remembered is taken first.
	left := 0
	for c := 0; c < 2*w.n; c += 2 {
		if !has(present, c) {
			continue
		}
		left++
		if has(known, c) && has(known, c+1) {
			return w.value(present&^(3<<c), known&^(3<<c), with(pairs, mover, 1), mover)
		}
	}
	if left == 0 {
		return w.final(pairs)
	}
	var unknown, knownCards []int
	for c := range cards {
		if has(present, c) {
			if has(known, c) {
				knownCards = append(knownCards, c)
			} else {
				unknown = append(unknown, c)
			}
		}
	}
	next := (mover + 1) % w.players
	var follow rules.Choice
	decide := w.follow
	if w.seats != nil {
		decide = w.seats[mover]
	}
	if decide != nil {
		st := rules.State{N: left, S: w.s}
		for c := 0; c < 2*w.n; c += 2 {
			if has(present, c) && !has(known, c) && !has(known, c+1) {
				st.J++
			}
		}
		for c := 2 * w.n; c < cards; c++ {
			if has(present, c) && !has(known, c) {
				st.F++
			}
		}
		follow = decide(st)
	}
	var best [4][]*big.Rat
	for _, ch := range w.choices {
		if ch != rules.Daring && len(knownCards) == 0 {
			continue // safe and known-first need a remembered card
		}
		acc := zeroVectors(w.players)
		add := func(p *big.Rat, v [4][]*big.Rat) {
			for k := range acc {
				for s := range acc[k] {
					acc[k][s].Add(acc[k][s], new(big.Rat).Mul(p, v[k][s]))
				}
			}
		}
		// second flips a card nobody remembers other than skip, after first (face up, now
		// remembered): a pair with first continues the turn, anything else hands it over.
		second := func(p *big.Rat, first, skip int, kn uint) {
			var rest []int
			for _, c := range unknown {
				if c != skip {
					rest = append(rest, c)
				}
			}
			q := new(big.Rat).Mul(p, big.NewRat(1, int64(len(rest))))
			for _, b := range rest {
				if b == w.partner(first) {
					add(q, w.value(present&^(1<<b|1<<first), kn&^(1<<b|1<<first), with(pairs, mover, 1), mover))
					continue
				}
				add(q, w.value(present, kn|1<<b, pairs, next))
			}
		}
		if ch == rules.KnownFirst {
			// A remembered card whose partner is on the table if there is one, else a singleton.
			first := knownCards[0]
			for _, c := range knownCards {
				if w.partner(c) >= 0 {
					first = c
					break
				}
			}
			second(big.NewRat(1, 1), first, -1, known)
		} else {
			p := big.NewRat(1, int64(len(unknown)))
			for _, a := range unknown {
				pa := w.partner(a)
				switch {
				case pa >= 0 && has(known, pa):
					add(p, w.value(present&^(1<<a|1<<pa), known&^(1<<a|1<<pa), with(pairs, mover, 1), mover))
				case len(knownCards) > 0 && (pa < 0 || ch == rules.Safe):
					// A remembered card second: nothing more is learnt.
					add(p, w.value(present, known|1<<a, pairs, next))
				default:
					second(p, a, a, known|1<<a)
				}
			}
		}
		switch {
		case decide != nil:
			if ch == follow {
				best = acc
			}
		case best[0] == nil || acc[w.objective][mover].Cmp(best[w.objective][mover]) > 0:
			best = acc
		}
	}
	return best
}

// final returns the vectors of the end of a game with these pairs: the seats with the most share
// the score.
func (w *winSearch) final(pairs []int) [4][]*big.Rat {
	v := zeroVectors(w.players)
	most, top := 0, 0
	for _, x := range pairs {
		most = max(most, x)
	}
	for _, x := range pairs {
		if x == most {
			top++
		}
	}
	for s, x := range pairs {
		v[wsPairs][s].SetInt64(int64(x))
		if x != most {
			continue
		}
		v[wsScore][s].SetFrac64(1, int64(top))
		if top == 1 {
			v[wsWin][s].SetInt64(1)
		} else {
			v[wsDraw][s].SetInt64(1)
		}
	}
	return v
}

func zeroVectors(p int) [4][]*big.Rat {
	var v [4][]*big.Rat
	for k := range v {
		v[k] = make([]*big.Rat, p)
		for s := range v[k] {
			v[k][s] = new(big.Rat)
		}
	}
	return v
}

// with returns a copy of pairs with seat s's count raised by k.
func with(pairs []int, s, k int) []int {
	out := append([]int(nil), pairs...)
	out[s] += k
	return out
}

// searchFrom returns the card-level vectors of a fresh deal of n pairs and s singletons, seat i
// having taken pairs[i] pairs before, seat 0 to move.
func searchFrom(n, s int, pairs []int, choices []rules.Choice, follow func(rules.State) rules.Choice) [4][]*big.Rat {
	w := &winSearch{n: n, s: s, players: len(pairs), choices: choices, memo: map[string][4][]*big.Rat{}, follow: follow}
	return w.value(1<<(2*n+s)-1, 0, pairs, 0)
}

func ratsString(v []*big.Rat) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = x.RatString()
	}
	return strings.Join(parts, " ")
}

// TestCardLevelSelfWin compares the solver's scores, win and draw probabilities and expected
// pairs with the card-level search, from fresh deals and from standings in which seats lead, trail
// or can no longer reach the most.
func TestCardLevelSelfWin(t *testing.T) {
	full := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}
	ds := []rules.Choice{rules.Daring, rules.Safe}
	type tc struct {
		n, s      int
		standings []int
		choices   []rules.Choice
	}
	var cases []tc
	for n := 1; n <= 4; n++ {
		cases = append(cases, tc{n, 0, []int{0, 0, 0}, full}, tc{n, 0, []int{0, 0, 0}, ds})
	}
	cases = append(cases,
		tc{3, 0, []int{1, 0, 0}, full}, tc{3, 0, []int{0, 2, 1}, full}, tc{3, 0, []int{0, 0, 1}, ds},
		tc{2, 0, []int{0, 5, 2}, full}, tc{4, 0, []int{2, 0, 1}, full}, tc{3, 0, []int{4, 0, 0}, full},
		tc{2, 1, []int{0, 0, 0}, full}, tc{3, 1, []int{1, 0, 1}, full}, tc{2, 2, []int{0, 1, 0}, ds},
		tc{1, 0, []int{0, 0, 0, 0}, full}, tc{2, 0, []int{0, 0, 0, 0}, full}, tc{3, 0, []int{0, 0, 0, 0}, full},
		tc{3, 0, []int{0, 1, 0, 1}, ds}, tc{2, 0, []int{1, 0, 2, 0}, full}, tc{2, 1, []int{0, 0, 0, 0}, full},
	)
	ctx := context.Background()
	for _, c := range cases {
		if exact.RaceEnabled && c.n >= 4 {
			continue // the smallest sizes under the race detector
		}
		set := rules.NewChoiceSet(c.choices...)
		t.Run(fmt.Sprintf("n=%d,s=%d/standings=%v/%v", c.n, c.s, c.standings, set), func(t *testing.T) {
			want := searchFrom(c.n, c.s, c.standings, c.choices, nil)
			m := exact.Model{Singletons: c.s, Choices: set}
			st := rules.State{N: c.n, J: c.n, S: c.s, F: c.s}
			got, err := exact.EvaluateSelfWin[*big.Rat](ctx, field.Rat{}, m, len(c.standings), st, c.standings)
			if err != nil {
				t.Fatal(err)
			}
			remaining := make([]*big.Rat, len(c.standings))
			for i, x := range want[wsPairs] {
				remaining[i] = new(big.Rat).Sub(x, big.NewRat(int64(c.standings[i]), 1))
			}
			for _, k := range []struct {
				name      string
				got, want []*big.Rat
			}{{"score", got.Score, want[wsScore]}, {"win", got.Win, want[wsWin]}, {"draw", got.Draw, want[wsDraw]}, {"pairs", got.Pairs, remaining}} {
				for i := range k.want {
					if k.got[i].Cmp(k.want[i]) != 0 {
						t.Errorf("%s: solver %s, card level %s", k.name, ratsString(k.got), ratsString(k.want))
						break
					}
				}
			}
		})
	}
}

// TestCardLevelStandings compares every seat's P(most pairs) and expected pairs under a policy
// every seat plays (the optimum of every seat for itself in expected pairs, a fixed policy) with
// the card-level search in which every seat follows that policy's table.
func TestCardLevelStandings(t *testing.T) {
	ctx := context.Background()
	full := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}
	for _, c := range []struct {
		n, s      int
		standings []int
		policy    rules.Policy
	}{
		{4, 0, []int{0, 0, 0}, rules.PolicyOptimal}, {3, 0, []int{1, 0, 2}, rules.PolicyOptimal},
		{3, 1, []int{0, 0, 0}, rules.PolicyOptimal}, {3, 0, []int{0, 0, 0, 0}, rules.PolicyOptimal},
		{4, 0, []int{0, 1, 0}, rules.PolicySafe}, {3, 0, []int{0, 0, 0, 1}, rules.PolicyParity},
	} {
		if exact.RaceEnabled && c.n >= 4 {
			continue // the smallest sizes under the race detector
		}
		t.Run(fmt.Sprintf("n=%d,s=%d/standings=%v/%v", c.n, c.s, c.standings, c.policy), func(t *testing.T) {
			m := exact.Model{Singletons: c.s}
			mu := exact.Lineup{Players: len(c.standings), Policy: c.policy, Opponent: c.policy}
			tab, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, c.n)
			if err != nil {
				t.Fatal(err)
			}
			follow := func(st rules.State) rules.Choice {
				ch, ok := tab.Lookup(st, false)
				if !ok {
					t.Fatalf("no choice in %v", st)
				}
				return ch
			}
			want := searchFrom(c.n, c.s, c.standings, full, follow)
			st := rules.State{N: c.n, J: c.n, S: c.s, F: c.s}
			got, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, m, mu, st, c.standings)
			if err != nil {
				t.Fatal(err)
			}
			for s := range c.standings {
				pairs := new(big.Rat).Sub(want[wsPairs][s], big.NewRat(int64(c.standings[s]), 1))
				if got.Score[s].Cmp(want[wsScore][s]) != 0 || got.Pairs[s].Cmp(pairs) != 0 {
					t.Errorf("seat %d: score %s, pairs %s; card level %s, %s", s, got.Score[s].RatString(), got.Pairs[s].RatString(),
						want[wsScore][s].RatString(), pairs.RatString())
				}
			}
		})
	}
}

// TestSelfWinScoresSumToOne checks every state of the tables of three and four seats: the seats'
// scores add up to 1, and the choice made is among the best for the mover.
func TestSelfWinScoresSumToOne(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ players, maxN, s int }{{3, 5, 0}, {4, 3, 0}, {3, 3, 1}, {5, 2, 0}} {
		m := exact.Model{Singletons: c.s}
		cells := 0
		err := exact.SelfWinTable[*big.Rat](ctx, field.Rat{}, m, c.players, c.maxN, func(sc *exact.SelfWinCell[*big.Rat]) error {
			cells++
			sum := new(big.Rat)
			for _, x := range sc.Score {
				sum.Add(sum, x)
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				return fmt.Errorf("%v standings %v: scores %s sum to %s", sc.State, sc.Deficits, ratsString(sc.Score), sum.RatString())
			}
			if len(sc.Best) == 0 || sc.Best[0] != sc.Choice {
				return fmt.Errorf("%v standings %v: choice %v, best %v", sc.State, sc.Deficits, sc.Choice, sc.Best)
			}
			return nil
		})
		if err != nil {
			t.Errorf("%d seats: %v", c.players, err)
		}
		if cells == 0 {
			t.Errorf("%d seats: no cell visited", c.players)
		}
	}
}

// TestSelfWinTwoSeatsIsTheWinObjective checks that the sweep at two seats gives the two-player
// win objective: P(win) + P(draw)/2 of win-optimal self-play and its choice, at every lead.
func TestSelfWinTwoSeatsIsTheWinObjective(t *testing.T) {
	ctx := context.Background()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	const maxN = 8
	for _, s := range []int{0, 1} {
		m := exact.Model{Singletons: s}
		want := map[string]exact.WinCell[*big.Rat]{}
		err := exact.WinTable[*big.Rat](ctx, field.Rat{}, m, mu, maxN, func(c *exact.WinCell[*big.Rat]) error {
			st := c.State.Counts()
			d := []int{max(-c.State.Lead, 0), max(c.State.Lead, 0)} // deficits of mover and other
			for i := range d {
				d[i] = min(d[i], st.N+1)
			}
			want[fmt.Sprint(st, d)] = *c
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		err = exact.SelfWinTableTwoSeats[*big.Rat](ctx, field.Rat{}, m, maxN, func(c *exact.SelfWinCell[*big.Rat]) error {
			w, ok := want[fmt.Sprint(c.State, c.Deficits)]
			if !ok {
				return nil // a lead beyond what a game of maxN pairs reaches
			}
			compared++
			if c.Score[0].Cmp(w.Value) != 0 || c.Choice != w.Choice {
				t.Errorf("%v deficits %v: score %s, %v; two-player objective %s, %v", c.State, c.Deficits,
					c.Score[0].RatString(), c.Choice, w.Value.RatString(), w.Choice)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared < len(want)/2 {
			t.Errorf("singletons %d: compared %d of %d cells", s, compared, len(want))
		}
	}
}

// TestSelfWinDependsOnStandingsOnly checks that pairs taken by every seat alike change nothing,
// and that a seat too far behind to reach the most scores nothing however far behind it is.
func TestSelfWinDependsOnStandingsOnly(t *testing.T) {
	ctx := context.Background()
	m := exact.Model{}
	st := rules.State{N: 3, J: 2}
	for _, c := range []struct{ a, b []int }{
		{[]int{1, 0, 2}, []int{4, 3, 5}},
		{[]int{0, 5, 2}, []int{1, 5, 2}},
		{[]int{6, 0, 1, 6}, []int{7, 1, 0, 7}},
	} {
		a, err := exact.EvaluateSelfWin[*big.Rat](ctx, field.Rat{}, m, len(c.a), st, c.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := exact.EvaluateSelfWin[*big.Rat](ctx, field.Rat{}, m, len(c.b), st, c.b)
		if err != nil {
			t.Fatal(err)
		}
		if ratsString(a.Score) != ratsString(b.Score) || a.Choice != b.Choice {
			t.Errorf("standings %v: %s (%v); %v: %s (%v)", c.a, ratsString(a.Score), a.Choice, c.b, ratsString(b.Score), b.Choice)
		}
	}
}

// TestSelfWinRefusals checks the models and seat counts the win objective at three or more seats
// does not cover.
func TestSelfWinRefusals(t *testing.T) {
	ctx := context.Background()
	st := rules.State{N: 3, J: 3}
	for _, c := range []struct {
		m       exact.Model
		players int
		want    string
	}{
		{exact.Model{}, 2, "needs 3 to 8 seats"},
		{exact.Model{}, 9, "needs 3 to 8 seats"},
		{exact.Model{Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetLRU, Fluctuation: 1}}, 2, "needs 3 to 8 seats"},
		{exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, Variant: rules.Variant{TurnLimit: 5}}, 3, "a fluctuating capacity under a turn limit is solved for a matchup's values"},
		{exact.Model{Variant: rules.Variant{Copies: 4}}, 3, "the copies model's computation"},
	} {
		_, err := exact.EvaluateSelfWin[float64](ctx, field.Float{}, c.m, c.players, st, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v, %d seats: error %v, want one saying %q", c.m, c.players, err, c.want)
		}
	}
}
