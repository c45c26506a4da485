package exact_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Policies given as tables under a turn limit: a table that writes out a fixed policy must give
// that policy's values whatever the limit, optimal's table (of the game without a limit) must give
// optimal's values under a limit no game reaches, and random tables must give the expected pairs
// of play card by card (fsdPlayer of fluctseatsdist_cardlevel_test.go with the limit), the table
// read at the count state and the pass streak whatever the turns left.

// withLimit returns model m under a turn limit of limit turns.
func withLimit(m exact.Model, limit int) exact.Model {
	m.Variant.TurnLimit = limit
	return m
}

func TestTableUnderATurnLimitHasItsPolicysValues(t *testing.T) {
	n, limit := 4, 5
	fams := []idFamily{idPerfect(rules.PassNever), idPerfect(rules.PassAlways)}
	opponents := []rules.Policy{rules.PolicyOptimal, rules.PolicyBestResponse}
	if !testing.Short() {
		fams = append(fams, idLimited(rules.ForgetLRU, 3, rules.PassNever), idPerfect(rules.PassTwoKnown),
			idLimited(rules.ForgetHandoverUniform, 2, rules.PassTwoKnown), idSingletons(1, rules.PassAlways))
		opponents = append(opponents, rules.PolicySafe)
	} else {
		n = 3
	}
	for k, fam := range fams {
		m := withLimit(fam.model, limit)
		st := tabStart(m, n)
		for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity} {
			table, err := rules.FixedChoiceTable(p, n, m.Singletons)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range opponents {
				name := fmt.Sprintf("%s/limit %d/%s-table-vs-%s", fam.name, limit, p, q)
				got := tabEval(t, m, exact.Lineup{Players: 2, Table: table, Opponent: q}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 2, Policy: p, Opponent: q}, st); !tabSame(got, want) {
					t.Errorf("%s: seat 0 playing the table gets %v, playing %s %v", name, got.PairsBySeat, p, want.PairsBySeat)
				}
				got = tabEval(t, m, exact.Lineup{Players: 2, Policy: q, OpponentTable: table}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 2, Policy: q, Opponent: p}, st); !tabSame(got, want) {
					t.Errorf("%s: seat 1 playing the table gets %v, playing %s %v", name, got.PairsBySeat, p, want.PairsBySeat)
				}
			}
			if k == 0 {
				got, err := exact.WinDrawLossTable[*big.Rat](tabCtx, field.Rat{}, m, table, rules.PolicyOptimal, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := exact.WinDrawLoss[*big.Rat](tabCtx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: p, Opponent: rules.PolicyOptimal}, st)
				if err != nil {
					t.Fatal(err)
				}
				for r := range 2 {
					if got[r].Win.Cmp(want[r].Win) != 0 || got[r].Draw.Cmp(want[r].Draw) != 0 || got[r].Loss.Cmp(want[r].Loss) != 0 {
						t.Errorf("%s: %s table's win, draw, loss in order %d: %v, %s's %v", fam.name, p, r, got[r], p, want[r])
					}
				}
			}
			if m.Pass == rules.PassNever {
				solo := tabEval(t, m, exact.Lineup{Players: 1, Table: table}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 1, Policy: p}, st); !tabSame(solo, want) {
					t.Errorf("%s: solitaire, %s table: %v pairs, %v turns; %s %v, %v", fam.name, p, solo.ExpectedPairs, solo.ExpectedTurns, p, want.ExpectedPairs, want.ExpectedTurns)
				}
			}
			if testing.Short() && k != 1 {
				continue
			}
			for _, q := range []rules.Policy{rules.PolicyOptimal, rules.PolicyBestResponse} {
				got := tabEval(t, m, exact.Lineup{Players: 3, Policy: q, OpponentTable: table}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 3, Policy: q, Opponent: p}, st); !tabSame(got, want) {
					t.Errorf("%s: 3 players, %s against %s tables: %v, against %s %v", fam.name, q, p, got.PairsBySeat, p, want.PairsBySeat)
				}
			}
			got := tabEval(t, m, exact.Lineup{Players: 3, Table: table, Opponent: rules.PolicyOptimal}, st)
			if want := tabEval(t, m, exact.Lineup{Players: 3, Policy: p, Opponent: rules.PolicyOptimal}, st); !tabSame(got, want) {
				t.Errorf("%s: 3 players, %s table against optimal: %v, %s %v", fam.name, p, got.PairsBySeat, p, want.PairsBySeat)
			}
		}
	}
}

// TestOptimalTableUnderALimitNoGameReaches checks optimal's table of the game without a limit
// (pass rule never, perfect memory) under a limit of 3n turns: every turn of such a game takes a
// pair or shows a card never seen, so no game of n pairs lasts more than 3n turns, and the table
// must have optimal's values under the limit, and the values without it.
func TestOptimalTableUnderALimitNoGameReaches(t *testing.T) {
	const n = 4
	m := exact.Model{}
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	table, err := exact.PolicyTable[*big.Rat](tabCtx, field.Rat{}, m, self, n)
	if err != nil {
		t.Fatal(err)
	}
	lm := withLimit(m, 3*n)
	st := tabStart(m, n)
	for _, q := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyBestResponse} {
		got := tabEval(t, lm, exact.Lineup{Players: 2, Table: table, Opponent: q}, st)
		if want := tabEval(t, lm, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: q}, st); !tabSame(got, want) {
			t.Errorf("optimal's table against %s under limit %d: %v, optimal %v", q, 3*n, got.PairsBySeat, want.PairsBySeat)
		}
		if want := tabEval(t, m, exact.Lineup{Players: 2, Table: table, Opponent: q}, st); !tabSame(got, want) {
			t.Errorf("optimal's table against %s: %v under limit %d, %v without", q, got.PairsBySeat, 3*n, want.PairsBySeat)
		}
	}
}

// limitTableRandom returns a table of random choices legal under pass for every count state up to
// n pairs, after a pass or not.
func limitTableRandom(t *testing.T, rng *rand.Rand, pass rules.PassRule, n int) *rules.ChoiceTable {
	t.Helper()
	return tabRandom(t, rng, pass, n, -1)
}

// TestRandomTableUnderATurnLimitMatchesCardPlay plays deals of three pairs card by card at one,
// two and three seats under turn limits, perfect memory and lru and handover-uniform of capacity
// 2, pass rules never and always, seat 0 following one random table and the other seats another
// (read at the count state and the pass streak), and compares every seat's expected pairs taken
// by the limit with Evaluate's, in float64.
func TestRandomTableUnderATurnLimitMatchesCardPlay(t *testing.T) {
	const n = 3
	type tcase struct {
		mem     rules.Memory
		pass    rules.PassRule
		players int
		known   []int
		limits  []int
	}
	lru := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	cases := []tcase{
		{rules.Memory{}, rules.PassNever, 2, nil, []int{3, 7}},
		{hu, rules.PassAlways, 2, []int{0}, []int{2, 6}},
		{lru, rules.PassNever, 3, []int{0, 2}, []int{5}},
		{rules.Memory{}, rules.PassNever, 1, nil, []int{4}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.Memory{}, rules.PassAlways, 2, []int{0}, []int{4}},
			tcase{rules.Memory{}, rules.PassAlways, 3, nil, []int{3, 8}},
			tcase{hu, rules.PassNever, 3, []int{0}, []int{6}},
			tcase{lru, rules.PassNever, 1, []int{0, 2}, []int{3, 5}})
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range cases {
		pass := tc.pass
		tabs := [2]*rules.ChoiceTable{limitTableRandom(t, rng, pass, n), limitTableRandom(t, rng, pass, n)}
		chooser := func(tab *rules.ChoiceTable) fspChooser {
			return func(st rules.State, _, streak int, _ bool) rules.Choice {
				ch, ok := tab.LookupPasses(st, streak)
				if !ok || !rules.Legal(st, ch, pass) {
					t.Fatalf("no legal choice in %v at streak %d (%v)", st, streak, ch)
				}
				return ch
			}
		}
		cardLRU, capacity := true, 2*n
		if !tc.mem.Perfect() {
			cardLRU, capacity = tc.mem.Forget == rules.ForgetLRU, tc.mem.Capacity
		}
		p := tc.players
		for _, limit := range tc.limits {
			m := exact.Model{Memory: tc.mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
			start := rules.State{N: n, J: n - len(tc.known)}
			name := fmt.Sprintf("%s %s %d players limit %d/%v", pass, tc.mem, p, limit, start)
			choose := []fspChooser{chooser(tabs[0])}
			for range p - 1 {
				choose = append(choose, chooser(tabs[1]))
			}
			w := p*n + 1
			pl := &fsdPlayer{lru: cardLRU, m: capacity, p: p, top: limit, w: w, limited: true, choose: choose, memo: map[string]seatsDist{}}
			dist := pl.value(newFlDeal(n, tc.known), 0, 0, limit)
			mu := exact.Lineup{Players: p, Table: tabs[0]}
			if p > 1 {
				mu.OpponentTable = tabs[1]
			}
			res, err := exact.Evaluate(tabCtx, field.Float{}, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for seat := range p {
				mean := 0.0
				for i := range w {
					mean += float64(i) / float64(p) * dist[seat*w+i]
				}
				if math.Abs(mean-res.PairsBySeat[seat]) > 1e-9 {
					t.Errorf("%s: seat %d takes %.12f pairs card by card, %.12f exact", name, seat, mean, res.PairsBySeat[seat])
				}
			}
		}
	}
}
