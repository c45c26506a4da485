package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A best reply at three or more seats to a policy given as a table (docs/models.md §4.7): seat 0
// plays best-response, every other seat the table.

// randomTable returns a table of seeded random choices, each open in model m, in every count state
// of 1 to n pairs, without and after a pass.
func randomTable(t *testing.T, m exact.Model, n int, seed uint64) *rules.ChoiceTable {
	t.Helper()
	tab, err := rules.NewChoiceTable(n, m.Singletons)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 17))
	for k := 1; k <= n; k++ {
		for j := 0; j <= k; j++ {
			for f := 0; f <= m.Singletons; f++ {
				st := rules.State{N: k, J: j, S: m.Singletons, F: f}
				for _, after := range []bool{false, true} {
					var open []rules.Choice
					for _, c := range rules.Choices() {
						if m.Legal(st, c) {
							open = append(open, c)
						}
					}
					tab.Set(st, after, open[r.IntN(len(open))])
				}
			}
		}
	}
	return tab
}

// tableReplySearch plays every deal of a game of perfect memory card by card: seat 0 takes, at every
// turn, the choice that gives it the most expected pairs over the cards not yet seen, and every
// other seat the choice of the table, read in the count state after a pass by the previous seat
// (a pass streak of 1 or more) or not. Cards 2i and 2i+1 are a pair, cards from 2n on singletons.
type tableReplySearch struct {
	n, s, players int
	pass          rules.PassRule
	table         *rules.ChoiceTable
	memo          map[[4]uint][]*big.Rat
}

// value returns every seat's expected pairs of those left (by absolute seat), the cards present
// and remembered as bit masks, mover to move after streak seats passed in a row.
func (w *tableReplySearch) value(present, known uint, mover, streak int) []*big.Rat {
	key := [4]uint{present, known, uint(mover), uint(streak)}
	if v, ok := w.memo[key]; ok {
		return v
	}
	v := w.compute(present, known, mover, streak, nil)
	w.memo[key] = v
	return v
}

// choiceValue returns every seat's expected pairs when seat 0, to move at streak 0 in the
// position, makes choice c, the search's play afterwards.
func (w *tableReplySearch) choiceValue(present, known uint, c rules.Choice) []*big.Rat {
	return w.compute(present, known, 0, 0, &c)
}

func (w *tableReplySearch) zeros() []*big.Rat {
	v := make([]*big.Rat, w.players)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

// compute is value without the memo; only, when not nil, is seat 0's choice in this position in
// place of its best.
func (w *tableReplySearch) compute(present, known uint, mover, streak int, only *rules.Choice) []*big.Rat {
	has := func(m uint, c int) bool { return m&(1<<c) != 0 }
	cards := 2*w.n + w.s
	left := 0
	for c := 0; c < 2*w.n; c += 2 {
		if !has(present, c) {
			continue
		}
		left++
		if has(known, c) && has(known, c+1) {
			// A pair remembered whole: the mover takes it and moves again.
			v := w.value(present&^(3<<c), known&^(3<<c), mover, 0)
			out := w.zeros()
			for i := range out {
				out[i].Set(v[i])
			}
			out[mover].Add(out[mover], big.NewRat(1, 1))
			return out
		}
	}
	if left == 0 {
		return w.zeros()
	}
	st := rules.State{N: left, S: w.s}
	var unknown, knownCards []int
	for c := range cards {
		if !has(present, c) {
			continue
		}
		if has(known, c) {
			knownCards = append(knownCards, c)
		} else {
			unknown = append(unknown, c)
			if c >= 2*w.n {
				st.F++
			} else if !has(known, c^1) {
				st.J++
			}
		}
	}
	st.J /= 2
	next := (mover + 1) % w.players
	partner := func(c int) int {
		if c < 2*w.n {
			return c ^ 1
		}
		return -1
	}
	// turn returns the vectors after choice ch: acc[i] seat i's expected pairs.
	turn := func(ch rules.Choice) []*big.Rat {
		acc := w.zeros()
		add := func(p *big.Rat, v []*big.Rat, gain int) {
			for i := range acc {
				acc[i].Add(acc[i], new(big.Rat).Mul(p, v[i]))
			}
			if gain > 0 {
				acc[mover].Add(acc[mover], p)
			}
		}
		if ch == rules.Pass {
			if streak == w.players-1 {
				// Every seat passed in a row: the pairs left are shared.
				share := big.NewRat(int64(left), int64(w.players))
				for i := range acc {
					acc[i].Set(share)
				}
				return acc
			}
			return w.value(present, known, next, streak+1)
		}
		second := func(p *big.Rat, first, skip int, kn uint) {
			var rest []int
			for _, c := range unknown {
				if c != skip {
					rest = append(rest, c)
				}
			}
			q := new(big.Rat).Mul(p, big.NewRat(1, int64(len(rest))))
			for _, b := range rest {
				if b == partner(first) {
					add(q, w.value(present&^(1<<b|1<<first), kn&^(1<<b|1<<first), mover, 0), 1)
					continue
				}
				add(q, w.value(present, kn|1<<b, next, 0), 0)
			}
		}
		if ch == rules.KnownFirst {
			first := knownCards[0]
			for _, c := range knownCards {
				if partner(c) >= 0 {
					first = c
					break
				}
			}
			second(big.NewRat(1, 1), first, -1, known)
			return acc
		}
		p := big.NewRat(1, int64(len(unknown)))
		for _, a := range unknown {
			pa := partner(a)
			switch {
			case pa >= 0 && has(known, pa):
				add(p, w.value(present&^(1<<a|1<<pa), known&^(1<<a|1<<pa), mover, 0), 1)
			case len(knownCards) > 0 && (pa < 0 || ch == rules.Safe):
				add(p, w.value(present, known|1<<a, next, 0), 0)
			default:
				second(p, a, a, known|1<<a)
			}
		}
		return acc
	}
	if mover != 0 {
		c, ok := w.table.Lookup(st, streak > 0)
		if !ok {
			panic(fmt.Sprintf("table has no choice in %v", st))
		}
		return turn(c)
	}
	if only != nil {
		return turn(*only)
	}
	var best []*big.Rat
	for _, c := range rules.Choices() {
		if (c == rules.Safe || c == rules.KnownFirst) && len(knownCards) == 0 {
			continue
		}
		if c == rules.Pass && !w.pass.Allows(st) {
			continue
		}
		if v := turn(c); best == nil || v[0].Cmp(best[0]) > 0 {
			best = v
		}
	}
	return best
}

// TestCardLevelSeatReplyToTable compares every seat's expected pairs, seat 0 replying to a table
// at every other seat, with the card-level search over every deal (perfect memory, every pass
// rule, 3 and 4 seats), the table a seeded random one or safe's or daring's.
func TestCardLevelSeatReplyToTable(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		n, s, players int
		pass          rules.PassRule
	}
	cases := []tc{{1, 0, 3, rules.PassNever}, {2, 0, 3, rules.PassNever}, {3, 0, 3, rules.PassNever}, {2, 1, 3, rules.PassNever},
		{2, 0, 4, rules.PassNever}, {2, 0, 3, rules.PassTwoKnown}, {3, 0, 3, rules.PassAlways}, {2, 1, 3, rules.PassAlways},
		{2, 0, 4, rules.PassAlways}, {3, 0, 4, rules.PassTwoKnown}}
	if !testing.Short() {
		cases = append(cases, tc{4, 0, 3, rules.PassNever}, tc{4, 0, 3, rules.PassTwoKnown}, tc{4, 0, 3, rules.PassAlways},
			tc{3, 1, 4, rules.PassAlways}, tc{4, 0, 4, rules.PassNever}, tc{4, 0, 4, rules.PassTwoKnown}, tc{3, 1, 3, rules.PassTwoKnown})
	}
	for i, c := range cases {
		m := exact.Model{Singletons: c.s, Pass: c.pass}
		safe, err := rules.FixedChoiceTable(rules.PolicySafe, c.n, c.s)
		if err != nil {
			t.Fatal(err)
		}
		daring, err := rules.FixedChoiceTable(rules.PolicyDaring, c.n, c.s)
		if err != nil {
			t.Fatal(err)
		}
		tables := map[string]*rules.ChoiceTable{"random": randomTable(t, m, c.n, uint64(i)), "safe": safe, "daring": daring}
		for _, name := range []string{"random", "safe", "daring"} {
			if name != "random" && c.n > 3 {
				continue
			}
			tab := tables[name]
			t.Run(fmt.Sprintf("n=%d,s=%d,p=%d,%s/%s", c.n, c.s, c.players, c.pass, name), func(t *testing.T) {
				w := &tableReplySearch{n: c.n, s: c.s, players: c.players, pass: c.pass, table: tab, memo: map[[4]uint][]*big.Rat{}}
				want := w.value(1<<(2*c.n+c.s)-1, 0, 0, 0)
				got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m,
					exact.Lineup{Players: c.players, Policy: rules.PolicyBestResponse, OpponentTable: tab}, fullDeal(m, c.n))
				if err != nil {
					t.Fatal(err)
				}
				if ratsString(got.PairsBySeat) != ratsString(want) {
					t.Errorf("pairs: solver %s, card level %s", ratsString(got.PairsBySeat), ratsString(want))
				}
				// The reply at every position in the order of play: seat 0 is the k-th to move
				// when seat players-k moves first.
				res, err := exact.BestResponseToSeats[*big.Rat](ctx, field.Rat{}, m, tab, c.players, c.n)
				if err != nil {
					t.Fatal(err)
				}
				for k := range c.players {
					want := w.value(1<<(2*c.n+c.s)-1, 0, (c.players-k)%c.players, 0)[0]
					if res.Pairs[k].Cmp(want) != 0 {
						t.Errorf("moving %d-th: BestResponseToSeats %s, card level %s", k, res.Pairs[k].RatString(), want.RatString())
					}
				}
				if c.n < 2 {
					return
				}
				// Every choice's value with one card of each of two pairs remembered: j = n-2.
				all := uint(1)<<(2*c.n+c.s) - 1
				st := rules.State{N: c.n, J: c.n - 2, S: c.s, F: c.s}
				cv, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, m, exact.Lineup{Players: c.players, Policy: rules.PolicyBestResponse, OpponentTable: tab}, st)
				if err != nil {
					t.Fatal(err)
				}
				if len(cv.Values) == 0 {
					t.Fatalf("no choice valued in %v", st)
				}
				for _, v := range cv.Values {
					want := w.choiceValue(all, 1|1<<2, v.Choice)
					if ratsString(v.PairsBySeat) != ratsString(want) {
						t.Errorf("%v in %v: solver %s, card level %s", v.Choice, st, ratsString(v.PairsBySeat), ratsString(want))
					}
				}
				if want := w.value(all, 1|1<<2, 0, 0); ratsString(cv.Value.PairsBySeat) != ratsString(want) {
					t.Errorf("reply in %v: solver %s, card level %s", st, ratsString(cv.Value.PairsBySeat), ratsString(want))
				}
				if pc, ok := cv.Of(cv.PolicyChoice); !ok || pc.Pairs.Cmp(cv.Value.ExpectedPairs) != 0 {
					t.Errorf("reply's choice %v in %v: worth %v, the reply %s", cv.PolicyChoice, st, pc.Pairs, cv.Value.ExpectedPairs.RatString())
				}
			})
		}
	}
}

// seatsTableOf returns the P-seat table of policy p in model m, for deals of up to n pairs.
func seatsTableOf(t *testing.T, m exact.Model, p rules.Policy, players, n int) *rules.ChoiceTable {
	t.Helper()
	tab, err := exact.PolicyTable(context.Background(), field.Rat{}, m, exact.Lineup{Players: players, Policy: p, Opponent: p}, n)
	if err != nil {
		t.Fatalf("table of %s: %v", p, err)
	}
	return tab
}

// streakChoicesDiffer reports the first count state and pass streak (0 to players-1) of 1 to n pairs in
// which tables a and b differ, or "" when they agree everywhere.
func streakChoicesDiffer(m exact.Model, a, b *rules.ChoiceTable, players, n int) string {
	for k := 1; k <= n; k++ {
		for j := 0; j <= k; j++ {
			for f := 0; f <= m.Singletons; f++ {
				st := rules.State{N: k, J: j, S: m.Singletons, F: f}
				if !m.Memory.Holds(st.Known()) {
					continue
				}
				for l := range players {
					ca, oka := a.LookupPasses(st, l)
					cb, okb := b.LookupPasses(st, l)
					if ca != cb || oka != okb {
						return fmt.Sprintf("%v at streak %d: %v (%v) against %v (%v)", st, l, ca, oka, cb, okb)
					}
				}
			}
		}
	}
	return ""
}

// TestSeatReplyToPolicysTable checks that the best reply to a policy's P-seat table at every other
// seat is the best reply to the policy itself (optimal, safe, daring, parity): the same values and
// the same table, in every model of a best reply at three or more seats; and, with perfect memory
// (every pass rule), that the reply to optimal's table gains nothing over optimal (backward
// induction: the optimum of every seat for itself is a best reply to itself).
func TestSeatReplyToPolicysTable(t *testing.T) {
	ctx := context.Background()
	n := bySize(3, 3, 6)
	for _, rm := range replyModels {
		for _, players := range []int{3, 5} {
			if players > 3 && (rm.slow || (testing.Short() || exact.RaceEnabled) && slowAtSeats(rm.m)) {
				continue
			}
			for _, x := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity} {
				if rm.m.Variant.Flips == rules.FlipsBlind && x == rules.PolicyParity || rm.slow && testing.Short() && x != rules.PolicyOptimal {
					continue
				}
				t.Run(fmt.Sprintf("%s/p=%d/%s", rm.name, players, x), func(t *testing.T) {
					tab := seatsTableOf(t, rm.m, x, players, n)
					st := fullDeal(rm.m, n)
					byTable := exact.Lineup{Players: players, Policy: rules.PolicyBestResponse, OpponentTable: tab}
					byPolicy := exact.Lineup{Players: players, Policy: rules.PolicyBestResponse, Opponent: x}
					got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, byTable, st)
					if err != nil {
						t.Fatal(err)
					}
					want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, byPolicy, st)
					if err != nil {
						t.Fatal(err)
					}
					if ratsString(got.PairsBySeat) != ratsString(want.PairsBySeat) {
						t.Errorf("reply to the table %s, to %s %s", ratsString(got.PairsBySeat), x, ratsString(want.PairsBySeat))
					}
					gotTab, err := exact.PolicyTable(ctx, field.Rat{}, rm.m, byTable, n)
					if err != nil {
						t.Fatal(err)
					}
					wantTab, err := exact.PolicyTable(ctx, field.Rat{}, rm.m, byPolicy, n)
					if err != nil {
						t.Fatal(err)
					}
					if d := streakChoicesDiffer(rm.m, gotTab, wantTab, players, n); d != "" {
						t.Errorf("reply's table to the table and to %s differ in %s", x, d)
					}
					if x != rules.PolicyOptimal || !rm.m.Memory.Perfect() {
						return
					}
					self, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, exact.Lineup{Players: players, Policy: x, Opponent: x}, st)
					if err != nil {
						t.Fatal(err)
					}
					if ratsString(got.PairsBySeat) != ratsString(self.PairsBySeat) {
						t.Errorf("reply to optimal's table %s, optimal at every seat %s", ratsString(got.PairsBySeat), ratsString(self.PairsBySeat))
					}
				})
			}
		}
	}
}

// TestSeatReplyToRandomTable checks the best reply to a seeded random table at every other seat in
// every model of a best reply at three or more seats: at every position in the order of play it
// makes at least what optimal, safe, daring and parity make in its place against the table (Gain
// never negative); its table played as a table gives its values; and float64 agrees with the
// rationals to 1e-9.
func TestSeatReplyToRandomTable(t *testing.T) {
	ctx := context.Background()
	n := bySize(3, 4, 6)
	for i, rm := range replyModels {
		for _, players := range []int{3, 4} {
			if players > 3 && (rm.slow || (testing.Short() || exact.RaceEnabled) && slowAtSeats(rm.m)) {
				continue
			}
			t.Run(fmt.Sprintf("%s/p=%d", rm.name, players), func(t *testing.T) {
				tab := randomTable(t, rm.m, n, uint64(100+i))
				res, err := exact.BestResponseToSeats[*big.Rat](ctx, field.Rat{}, rm.m, tab, players, n)
				if err != nil {
					t.Fatal(err)
				}
				st := fullDeal(rm.m, n)
				for k := range players {
					if res.Gain[k].Sign() < 0 {
						t.Errorf("moving %d-th: gain %s over optimal", k, res.Gain[k].RatString())
					}
				}
				for _, y := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity} {
					if rm.m.Variant.Flips == rules.FlipsBlind && y == rules.PolicyParity {
						continue
					}
					v, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, exact.Lineup{Players: players, Policy: y, OpponentTable: tab}, st)
					if err != nil {
						t.Fatalf("%s against the table: %v", y, err)
					}
					if res.Pairs[0].Cmp(v.ExpectedPairs) < 0 {
						t.Errorf("best reply %s < %s's %s", res.Pairs[0].RatString(), y, v.ExpectedPairs.RatString())
					}
					if y == rules.PolicyOptimal && res.Optimal[0].Cmp(v.ExpectedPairs) != 0 {
						t.Errorf("Optimal[0] %s, optimal against the table %s", res.Optimal[0].RatString(), v.ExpectedPairs.RatString())
					}
				}
				played, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, exact.Lineup{Players: players, Table: res.Table, OpponentTable: tab}, st)
				if err != nil {
					t.Fatal(err)
				}
				if played.ExpectedPairs.Cmp(res.Pairs[0]) != 0 {
					t.Errorf("reply's table played %s, reply %s", played.ExpectedPairs.RatString(), res.Pairs[0].RatString())
				}
				fl, err := exact.BestResponseToSeats[float64](ctx, field.Float{}, rm.m, tab, players, n)
				if err != nil {
					t.Fatal(err)
				}
				for k := range players {
					want, _ := res.Pairs[k].Float64()
					if math.Abs(fl.Pairs[k]-want) > 1e-9 {
						t.Errorf("moving %d-th: float64 %v, rational %v", k, fl.Pairs[k], want)
					}
				}
			})
		}
	}
}

// TestSeatReplyToTableRefusals checks the lineups with a table a best reply at three or more seats
// is not solved for, and that the refusal says why.
func TestSeatReplyToTableRefusals(t *testing.T) {
	ctx := context.Background()
	B, S := rules.PolicyBestResponse, rules.PolicySafe
	tab, err := rules.FixedChoiceTable(S, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	single, err := rules.FixedChoiceTable(S, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	lead, err := rules.NewLeadChoiceTable(3, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	layered, err := rules.NewCapacityChoiceTable(2, []*rules.ChoiceTable{tab, tab})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		m    exact.Model
		mu   exact.Lineup
		want string
	}{
		{"table by capacity drawn", exact.Model{}, exact.Lineup{Players: 3, Policy: B, OpponentTable: layered}, "read by count state and pass streak"},
		{"replies to seat 0's table", exact.Model{}, exact.Lineup{Players: 3, Table: tab, Opponent: B}, "the other seats do not reply to seat 0's table"},
		{"table for other singletons", exact.Model{}, exact.Lineup{Players: 3, Policy: B, OpponentTable: single}, "is for 1 singletons, the model has 0"},
		{"table by lead", exact.Model{}, exact.Lineup{Players: 4, Policy: B, OpponentTable: lead}, "depends on the lead, which is defined for 2 players only, not 4"},
		{"fluctuating capacity", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}},
			exact.Lineup{Players: 3, Policy: B, OpponentTable: tab}, "not for a policy given as a table"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.mu.Validate(c.m)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Validate: %v, want an error containing %q", err, c.want)
			}
		})
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		copies := exact.Model{Pass: pass, Variant: rules.Variant{Copies: 4}}
		_, err = exact.Evaluate[*big.Rat](ctx, field.Rat{}, copies, exact.Lineup{Players: 3, Policy: B, OpponentTable: tab}, rules.State{N: 4, J: 4})
		if want := "cannot describe a state of faces"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("copies, pass %s: %v, want an error containing %q", pass, err, want)
		}
	}
	if _, err := exact.BestResponseToSeats[*big.Rat](ctx, field.Rat{}, exact.Model{}, tab, 2, 3); err == nil || !strings.Contains(err.Error(), "BestResponseTo for 2") {
		t.Errorf("two players: %v, want a pointer to BestResponseTo", err)
	}
}

// slowAtSeats reports whether model m's best reply at more than three seats is left to the long
// tests: every model with forgotten cards.
func slowAtSeats(m exact.Model) bool { return !m.Memory.Perfect() }
