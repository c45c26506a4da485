package exact_test

// Policies given as tables (Lineup.Table, Lineup.OpponentTable, EvaluateTable, WinDrawLossTable,
// BestResponseTo), checked three ways: a table that writes out a policy the solver knows must give
// exactly that policy's values; a random table (lead-independent or not) must give the values of
// tabRef, a recursion over (role, flag, n, j, lead) derived here from the rules text (perfect
// memory, every pass rule); and the card-level engine playing the table must agree with the exact
// value within its sampling error.

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// tabModels are the models a table is checked in: perfect memory under every pass rule,
// singletons, both forgetting rules of limited memory, and the sources' choice set.
func tabModels() []idFamily {
	return []idFamily{
		idPerfect(rules.PassNever),
		idPerfect(rules.PassTwoKnown),
		idPerfect(rules.PassAlways),
		idSingletons(2, rules.PassNever),
		idSingletons(1, rules.PassAlways),
		idLimited(rules.ForgetLRU, 3, rules.PassNever),
		idLimited(rules.ForgetHandoverUniform, 2, rules.PassTwoKnown),
		{"perfect/choices=daring,safe", exact.Model{Choices: rules.NewChoiceSet(rules.Daring, rules.Safe)}},
	}
}

var tabCtx = context.Background()

// tabEval is Evaluate in exact rationals.
func tabEval(t *testing.T, m exact.Model, mu exact.Lineup, st rules.State) exact.Result[*big.Rat] {
	t.Helper()
	res, err := exact.Evaluate[*big.Rat](tabCtx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("Evaluate(%+v, %+v, %v): %v", m, mu, st, err)
	}
	return res
}

// tabSame reports whether two results give every seat the same expected pairs.
func tabSame(a, b exact.Result[*big.Rat]) bool {
	if len(a.PairsBySeat) != len(b.PairsBySeat) || a.ExpectedTurns != nil != (b.ExpectedTurns != nil) {
		return false
	}
	for i := range a.PairsBySeat {
		if a.PairsBySeat[i].Cmp(b.PairsBySeat[i]) != 0 {
			return false
		}
	}
	if a.ExpectedTurns != nil {
		return a.ExpectedTurns.Cmp(b.ExpectedTurns) == 0 && a.ExpectedLucky.Cmp(b.ExpectedLucky) == 0
	}
	return true
}

// tabStart is the start of a game of n pairs in model m.
func tabStart(m exact.Model, n int) rules.State {
	return rules.State{N: n, J: n, S: m.Singletons, F: m.Singletons}
}

func TestTableOfAFixedPolicyHasItsValues(t *testing.T) {
	const n = 5
	opponents := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity,
		rules.PolicyBestResponse, rules.PolicyWinOptimal, rules.PolicyWinBestResponse}
	for k, fam := range tabModels() {
		m := fam.model
		st := tabStart(m, n)
		opponents := opponents
		if testing.Short() {
			// Every model against optimal and one other opponent in turn; all of them in the
			// long form.
			opponents = []rules.Policy{opponents[0], opponents[1+k%(len(opponents)-1)]}
		}
		for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity} {
			if p.CheckChoices(m.Choices) != nil {
				continue
			}
			table, err := rules.FixedChoiceTable(p, n, m.Singletons)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range opponents {
				// The lead sweep (opponents that play to win, and win, draw and loss) is
				// checked in fewer models: it costs more.
				wdl := q == rules.PolicyParity || q == rules.PolicyWinBestResponse
				if q.PlaysToWin() && (k%3 != 0 || p == rules.PolicySafe) {
					continue
				}
				name := fmt.Sprintf("%s/%s-table-vs-%s", fam.name, p, q)
				first := tabEval(t, m, exact.Lineup{Players: 2, Table: table, Opponent: q}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 2, Policy: p, Opponent: q}, st); !tabSame(first, want) {
					t.Errorf("%s: seat 0 playing the table gets %v, playing %s %v", name, first.PairsBySeat, p, want.PairsBySeat)
				}
				second := tabEval(t, m, exact.Lineup{Players: 2, Policy: q, OpponentTable: table}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 2, Policy: q, Opponent: p}, st); !tabSame(second, want) {
					t.Errorf("%s: seat 1 playing the table gets %v, playing %s %v", name, second.PairsBySeat, p, want.PairsBySeat)
				}
				if !wdl {
					continue
				}
				got, err := exact.WinDrawLossTable[*big.Rat](tabCtx, field.Rat{}, m, table, q, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := exact.WinDrawLoss[*big.Rat](tabCtx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: p, Opponent: q}, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for k := range 2 {
					if got[k].Win.Cmp(want[k].Win) != 0 || got[k].Draw.Cmp(want[k].Draw) != 0 || got[k].Loss.Cmp(want[k].Loss) != 0 {
						t.Errorf("%s: win, draw, loss in order %d: %v, playing %s %v", name, k, got[k], p, want[k])
					}
				}
			}
		}
	}
}

func TestTableOfAFixedPolicyHasItsValuesWithMorePlayers(t *testing.T) {
	m := exact.Model{}
	st := tabStart(m, 6)
	for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity} {
		table, err := rules.FixedChoiceTable(p, 6, 0)
		if err != nil {
			t.Fatal(err)
		}
		solo := tabEval(t, m, exact.Lineup{Players: 1, Table: table}, st)
		if want := tabEval(t, m, exact.Lineup{Players: 1, Policy: p}, st); !tabSame(solo, want) {
			t.Errorf("solitaire, %s table: %v turns, %s %v", p, solo.ExpectedTurns, p, want.ExpectedTurns)
		}
		for _, players := range []int{3, 4} {
			for _, q := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyParity} {
				got := tabEval(t, m, exact.Lineup{Players: players, Table: table, Opponent: q}, st)
				if want := tabEval(t, m, exact.Lineup{Players: players, Policy: p, Opponent: q}, st); !tabSame(got, want) {
					t.Errorf("%d players, %s table against %s: %v, %s %v", players, p, q, got.PairsBySeat, p, want.PairsBySeat)
				}
				got = tabEval(t, m, exact.Lineup{Players: players, Policy: q, OpponentTable: table}, st)
				if want := tabEval(t, m, exact.Lineup{Players: players, Policy: q, Opponent: p}, st); !tabSame(got, want) {
					t.Errorf("%d players, %s against %s tables: %v, against %s %v", players, q, p, got.PairsBySeat, p, want.PairsBySeat)
				}
			}
		}
	}
}

func TestTableOfOptimalHasOptimalsValues(t *testing.T) {
	const n = 5
	for _, fam := range tabModels() {
		m := fam.model
		st := tabStart(m, n)
		self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		table, err := exact.PolicyTable[*big.Rat](tabCtx, field.Rat{}, m, self, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse} {
			if q.CheckChoices(m.Choices) != nil {
				continue
			}
			got, err := exact.EvaluateTable[*big.Rat](tabCtx, field.Rat{}, m, table, q, st)
			if err != nil {
				t.Fatalf("%s: %v", fam.name, err)
			}
			if want := tabEval(t, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: q}, st); !tabSame(got, want) {
				t.Errorf("%s: optimal's table against %s gets %v, optimal %v", fam.name, q, got.PairsBySeat, want.PairsBySeat)
			}
		}
	}
}

func TestTableOfWinOptimalHasItsValues(t *testing.T) {
	const n = 5
	for _, fam := range []idFamily{idPerfect(rules.PassNever), idPerfect(rules.PassAlways), idLimited(rules.ForgetLRU, 2, rules.PassNever)} {
		m := fam.model
		self := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		table, err := exact.PolicyTable[*big.Rat](tabCtx, field.Rat{}, m, self, n)
		if err != nil {
			t.Fatal(err)
		}
		if table.MaxLead() < 0 {
			t.Fatalf("%s: win-optimal's table has no lead dimension", fam.name)
		}
		for _, st := range []rules.State{tabStart(m, n), {N: 4, J: 2, Lead: 1}, {N: 3, J: 3, Lead: -2}} {
			for _, q := range []rules.Policy{rules.PolicyOptimal, rules.PolicyParity, rules.PolicyWinOptimal, rules.PolicyWinBestResponse} {
				name := fmt.Sprintf("%s/%v/against-%s", fam.name, st, q)
				got := tabEval(t, m, exact.Lineup{Players: 2, Table: table, Opponent: q}, st)
				if want := tabEval(t, m, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: q}, st); !tabSame(got, want) {
					t.Errorf("%s: win-optimal's table gets %v, win-optimal %v", name, got.PairsBySeat, want.PairsBySeat)
				}
				gw, err := exact.WinDrawLossTable[*big.Rat](tabCtx, field.Rat{}, m, table, q, st)
				if err != nil {
					t.Fatal(err)
				}
				ww, err := exact.WinDrawLoss[*big.Rat](tabCtx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: q}, st)
				if err != nil {
					t.Fatal(err)
				}
				if gw[0].Win.Cmp(ww[0].Win) != 0 || gw[1].Draw.Cmp(ww[1].Draw) != 0 {
					t.Errorf("%s: win-optimal's table wins %v, win-optimal %v", name, gw, ww)
				}
			}
		}
	}
}

func TestBestResponseToTheParityTable(t *testing.T) {
	const n = 6
	for _, fam := range tabModels() {
		m := fam.model
		st := tabStart(m, n)
		table, err := rules.FixedChoiceTable(rules.PolicyParity, n, m.Singletons)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.BestResponseTo[*big.Rat](tabCtx, field.Rat{}, m, table, n)
		if err != nil {
			t.Fatalf("%s: %v", fam.name, err)
		}
		two := func(p rules.Policy) [2]*big.Rat {
			first := tabEval(t, m, exact.Lineup{Players: 2, Policy: p, Opponent: rules.PolicyParity}, st)
			second := tabEval(t, m, exact.Lineup{Players: 2, Policy: rules.PolicyParity, Opponent: p}, st)
			return [2]*big.Rat{first.ExpectedPairs, second.PairsBySeat[1]}
		}
		br, opt := two(rules.PolicyBestResponse), two(rules.PolicyOptimal)
		for k := range 2 {
			gain := new(big.Rat).Sub(br[k], opt[k])
			if res.Pairs[k].Cmp(br[k]) != 0 || res.Optimal[k].Cmp(opt[k]) != 0 || res.Gain[k].Cmp(gain) != 0 {
				t.Errorf("%s: order %d: best response %s, optimal %s, gain %s; best-response to parity %s, optimal %s",
					fam.name, k, idRS(res.Pairs[k]), idRS(res.Optimal[k]), idRS(res.Gain[k]), idRS(br[k]), idRS(opt[k]))
			}
		}
		want, err := exact.PolicyTable[*big.Rat](tabCtx, field.Rat{}, m,
			exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyParity}, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range idStates(m, 1, n) {
			for _, after := range []bool{false, true} {
				g, _ := res.Table.Lookup(s, after)
				w, _ := want.Lookup(s, after)
				if g != w {
					t.Errorf("%s: %v after a pass %v: the best response to the table plays %s, best-response to parity %s", fam.name, s, after, g, w)
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// tabRef: a two-player matchup of perfect memory, pairs only, in which a role plays a table, a
// fixed policy, optimal or the best response in expected pairs. The state of a role to move is
// (flag, n, j, d): flag 1 when the other role has just passed, d its lead so far. A pass answered
// by a pass ends the game, the pairs left split equally; no other perfect-memory move returns to
// its own state, so the recursion terminates.

type tabRef struct {
	r      *idRefModel
	choose [2]func(flag, n, j, d int) rules.Choice // nil: the best response
	lead   map[[5]int]*big.Rat
	wd     map[[5]int][2]*big.Rat
}

func newTabRef(pass rules.PassRule, role0, role1 func(flag, n, j, d int) rules.Choice) *tabRef {
	return &tabRef{r: newIDRefModel(pass), choose: [2]func(flag, n, j, d int) rules.Choice{role0, role1},
		lead: map[[5]int]*big.Rat{}, wd: map[[5]int][2]*big.Rat{}}
}

// tabChooser reads a table.
func tabChooser(t *rules.ChoiceTable) func(flag, n, j, d int) rules.Choice {
	return func(flag, n, j, d int) rules.Choice {
		c, ok := t.Lookup(rules.State{N: n, J: j, Lead: d}, flag == 1)
		if !ok {
			panic(fmt.Sprintf("no choice in (%d, %d, %d) flag %d", n, j, d, flag))
		}
		return c
	}
}

// tabPolicy plays a fixed policy or optimal.
func (r *idRefModel) tabPolicy(p rules.Policy) func(flag, n, j, d int) rules.Choice {
	return func(_, n, j, _ int) rules.Choice { return r.choiceOf(p, n, j) }
}

// leadOf is role ro's expected lead from (flag, n, j) on, its lead so far being d.
func (m *tabRef) leadOf(ro, flag, n, j, d int) *big.Rat {
	key := [5]int{ro, flag, n, j, d}
	if v, ok := m.lead[key]; ok {
		return v
	}
	if n == 0 {
		return new(big.Rat)
	}
	value := func(c rules.Choice) *big.Rat {
		if c == rules.Pass {
			if flag == 1 {
				return new(big.Rat)
			}
			return new(big.Rat).Neg(m.leadOf(1-ro, 1, n, j, -d))
		}
		sum := new(big.Rat)
		for _, o := range idRefOutcomes(n, j, c) {
			v := new(big.Rat)
			if o.cont {
				v.Add(idRat(int64(o.gain), 1), m.leadOf(ro, 0, o.n, o.j, d+o.gain))
			} else {
				v.Sub(idRat(-int64(o.gain), 1), m.leadOf(1-ro, 0, o.n, o.j, -d+o.gain))
			}
			sum.Add(sum, v.Mul(v, o.p))
		}
		return sum
	}
	var v *big.Rat
	if m.choose[ro] == nil {
		for _, c := range idRefOrder {
			if m.r.legal(n, j, c) {
				if x := value(c); v == nil || x.Cmp(v) > 0 {
					v = x
				}
			}
		}
	} else {
		v = value(m.choose[ro](flag, n, j, d))
	}
	m.lead[key] = v
	return v
}

// winDraw is role ro's probability of ending ahead and level from (flag, n, j) with lead d (no
// best-response role).
func (m *tabRef) winDraw(ro, flag, n, j, d int) [2]*big.Rat {
	key := [5]int{ro, flag, n, j, d}
	if v, ok := m.wd[key]; ok {
		return v
	}
	final := func(d int) [2]*big.Rat {
		switch {
		case d > 0:
			return [2]*big.Rat{idRat(1, 1), new(big.Rat)}
		case d == 0:
			return [2]*big.Rat{new(big.Rat), idRat(1, 1)}
		}
		return [2]*big.Rat{new(big.Rat), new(big.Rat)}
	}
	// mirror turns the other role's probabilities into the mover's.
	mirror := func(v [2]*big.Rat) [2]*big.Rat {
		lose := new(big.Rat).Sub(idRat(1, 1), v[0])
		return [2]*big.Rat{lose.Sub(lose, v[1]), v[1]}
	}
	var v [2]*big.Rat
	c := rules.Daring
	if n > 0 {
		c = m.choose[ro](flag, n, j, d)
	}
	switch {
	case n == 0 || (c == rules.Pass && flag == 1):
		v = final(d)
	case c == rules.Pass:
		v = mirror(m.winDraw(1-ro, 1, n, j, -d))
	default:
		v = [2]*big.Rat{new(big.Rat), new(big.Rat)}
		for _, o := range idRefOutcomes(n, j, c) {
			var x [2]*big.Rat
			if o.cont {
				x = m.winDraw(ro, 0, o.n, o.j, d+o.gain)
			} else {
				x = mirror(m.winDraw(1-ro, 0, o.n, o.j, -d+o.gain))
			}
			for i := range 2 {
				v[i].Add(v[i], new(big.Rat).Mul(o.p, x[i]))
			}
		}
	}
	m.wd[key] = v
	return v
}

// tabRandom returns a table of random legal choices for every state of perfect memory up to n
// pairs, after a pass or not, and for every lead up to maxLead (-1: no lead dimension).
func tabRandom(t *testing.T, rng *rand.Rand, pass rules.PassRule, n, maxLead int) *rules.ChoiceTable {
	t.Helper()
	table, err := rules.NewLeadChoiceTable(n, 0, maxLead)
	if err != nil {
		t.Fatal(err)
	}
	for nn := 1; nn <= n; nn++ {
		for j := 0; j <= nn; j++ {
			for d := -max(maxLead, 0); d <= max(maxLead, 0); d++ {
				st := rules.State{N: nn, J: j, Lead: d}
				var legal []rules.Choice
				for _, c := range idRefOrder {
					if idRefLegal(nn, j, c, pass) {
						legal = append(legal, c)
					}
				}
				for _, after := range []bool{false, true} {
					table.Set(st, after, legal[rng.IntN(len(legal))])
				}
			}
		}
	}
	return table
}

func TestRandomTableMatchesTheReference(t *testing.T) {
	const n = 5
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		m := exact.Model{Pass: pass}
		for _, maxLead := range []int{-1, 2} {
			table := tabRandom(t, rng, pass, n, maxLead)
			ref := newIDRefModel(pass)
			for _, q := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyParity} {
				for _, st := range []rules.State{{N: n, J: n}, {N: 4, J: 1, Lead: 1}, {N: 3, J: 2, Lead: -3}} {
					name := fmt.Sprintf("pass=%s/lead-max=%d/against-%s/%v", pass, maxLead, q, st)
					tr := newTabRef(pass, tabChooser(table), ref.tabPolicy(q))
					first := tabEval(t, m, exact.Lineup{Players: 2, Table: table, Opponent: q}, st)
					if want := tr.leadOf(0, 0, st.N, st.J, st.Lead); first.ExpectedLead.Cmp(want) != 0 {
						t.Errorf("%s: the table's lead moving first %s, by the rules %s", name, idRS(first.ExpectedLead), idRS(want))
					}
					second := tabEval(t, m, exact.Lineup{Players: 2, Policy: q, OpponentTable: table}, st)
					if want := tr.leadOf(1, 0, st.N, st.J, st.Lead); second.ExpectedLead.Cmp(want) != 0 {
						t.Errorf("%s: %s's lead moving first %s, by the rules %s", name, q, idRS(second.ExpectedLead), idRS(want))
					}
					wdl, err := exact.WinDrawLossTable[*big.Rat](tabCtx, field.Rat{}, m, table, q, st)
					if err != nil {
						t.Fatal(err)
					}
					for r := range 2 {
						want := tr.winDraw(r, 0, st.N, st.J, st.Lead)
						if wdl[r].Win.Cmp(want[0]) != 0 || wdl[r].Draw.Cmp(want[1]) != 0 {
							t.Errorf("%s: order %d wins %s draws %s, by the rules %s and %s", name, r,
								idRS(wdl[r].Win), idRS(wdl[r].Draw), idRS(want[0]), idRS(want[1]))
						}
					}
				}
			}
			checkBestResponseToRandomTable(t, m, table, n, maxLead)
		}
	}
}

// checkBestResponseToRandomTable checks BestResponseTo against tabRef, and its table against
// its value.
func checkBestResponseToRandomTable(t *testing.T, m exact.Model, table *rules.ChoiceTable, n, maxLead int) {
	t.Helper()
	name := fmt.Sprintf("pass=%s/lead-max=%d", m.Pass, maxLead)
	res, err := exact.BestResponseTo[*big.Rat](tabCtx, field.Rat{}, m, table, n)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ref := newIDRefModel(m.Pass)
	br := newTabRef(m.Pass, nil, tabChooser(table))
	opt := newTabRef(m.Pass, ref.tabPolicy(rules.PolicyOptimal), tabChooser(table))
	pairs := func(lead *big.Rat, sign int64) *big.Rat {
		v := new(big.Rat).Mul(lead, idRat(sign, 1))
		v.Add(v, idRat(int64(n), 1))
		return v.Quo(v, idRat(2, 1))
	}
	wantBR := [2]*big.Rat{pairs(br.leadOf(0, 0, n, n, 0), 1), pairs(br.leadOf(1, 0, n, n, 0), -1)}
	wantOpt := [2]*big.Rat{pairs(opt.leadOf(0, 0, n, n, 0), 1), pairs(opt.leadOf(1, 0, n, n, 0), -1)}
	for k := range 2 {
		if res.Pairs[k].Cmp(wantBR[k]) != 0 || res.Optimal[k].Cmp(wantOpt[k]) != 0 {
			t.Errorf("%s: order %d: best response %s, optimal %s; by the rules %s and %s", name, k,
				idRS(res.Pairs[k]), idRS(res.Optimal[k]), idRS(wantBR[k]), idRS(wantOpt[k]))
		}
		if res.Gain[k].Sign() < 0 {
			t.Errorf("%s: order %d: the best response loses %s to optimal", name, k, idRS(res.Gain[k]))
		}
	}
	if (res.Table.MaxLead() >= 0) != (maxLead >= 0) {
		t.Errorf("%s: the best response's table has lead dimension %d", name, res.Table.MaxLead())
	}
	// Played as a table, the best response makes its value.
	st := rules.State{N: n, J: n}
	got := tabEval(t, m, exact.Lineup{Players: 2, Table: res.Table, OpponentTable: table}, st)
	if got.ExpectedPairs.Cmp(res.Pairs[0]) != 0 {
		t.Errorf("%s: the best response's table makes %s, its value %s", name, idRS(got.ExpectedPairs), idRS(res.Pairs[0]))
	}
}

func TestTableFloatMatchesExact(t *testing.T) {
	const n = 8
	rng := rand.New(rand.NewPCG(3, 4))
	for _, maxLead := range []int{-1, 3} {
		m := exact.Model{Pass: rules.PassAlways}
		table := tabRandom(t, rng, m.Pass, n, maxLead)
		fres, err := exact.BestResponseTo[float64](tabCtx, field.Float{}, m, table, n)
		if err != nil {
			t.Fatal(err)
		}
		rres, err := exact.BestResponseTo[*big.Rat](tabCtx, field.Rat{}, m, table, n)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 2 {
			if !idClose(fres.Pairs[k], rres.Pairs[k]) || !idClose(fres.Optimal[k], rres.Optimal[k]) {
				t.Errorf("lead-max %d, order %d: float64 %v and %v, exact %s and %s", maxLead, k,
					fres.Pairs[k], fres.Optimal[k], idRS(rres.Pairs[k]), idRS(rres.Optimal[k]))
			}
		}
	}
}

func TestBadTableIsAnError(t *testing.T) {
	perfect := exact.Model{}
	small, _ := rules.FixedChoiceTable(rules.PolicySafe, 3, 0)
	single, _ := rules.FixedChoiceTable(rules.PolicySafe, 5, 1)
	empty, _ := rules.NewChoiceTable(5, 0)
	known, _ := rules.NewChoiceTable(5, 0)
	for n := 1; n <= 5; n++ {
		for j := 0; j <= n; j++ {
			c := rules.Daring
			if j < n {
				c = rules.KnownFirst
			}
			known.Set(rules.State{N: n, J: j}, false, c)
		}
	}
	lead, _ := rules.NewLeadChoiceTable(5, 0, 2)
	safe, _ := rules.FixedChoiceTable(rules.PolicySafe, 5, 0)
	st := rules.State{N: 5, J: 5}
	for _, tc := range []struct {
		name string
		m    exact.Model
		mu   exact.Lineup
		want string
	}{
		{"too small", perfect, exact.Lineup{Players: 2, Table: small, Opponent: rules.PolicySafe}, "covers up to 3 pairs"},
		{"singletons", perfect, exact.Lineup{Players: 2, Table: single, Opponent: rules.PolicySafe}, "1 singletons"},
		{"no choice", perfect, exact.Lineup{Players: 2, Policy: rules.PolicySafe, OpponentTable: empty}, "the opponent's table: no choice in (n=1, j=0)"},
		{"not open", exact.Model{Choices: rules.NewChoiceSet(rules.Daring, rules.Safe)},
			exact.Lineup{Players: 2, Table: known, Opponent: rules.PolicySafe}, "known-first in (n=1, j=0) is not open"},
		{"lead table, 3 players", perfect, exact.Lineup{Players: 3, Table: lead, Opponent: rules.PolicySafe}, "defined for 2 players only"},
		{"best response to a lead table, 3 players", perfect, exact.Lineup{Players: 3, Policy: rules.PolicyBestResponse, OpponentTable: lead}, "defined for 2 players only"},
		{"best response beside a table, 3 players", perfect, exact.Lineup{Players: 3, Table: safe, Opponent: rules.PolicyBestResponse}, "do not reply to seat 0's table"},
	} {
		_, err := exact.Evaluate[float64](tabCtx, field.Float{}, tc.m, tc.mu, st)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := exact.BestResponseTo[float64](tabCtx, field.Float{}, perfect, small, 5); err == nil || !strings.Contains(err.Error(), "covers up to 3 pairs") {
		t.Errorf("best response to a table too small: error %v", err)
	}
	if _, err := exact.EvaluateTable[float64](tabCtx, field.Float{}, perfect, nil, rules.PolicySafe, st); err == nil {
		t.Errorf("no table: no error")
	}
}

func TestEstimateOfATable(t *testing.T) {
	m := exact.Model{Pass: rules.PassTwoKnown}
	plain, _ := rules.FixedChoiceTable(rules.PolicyParity, 30, 0)
	lead, _ := rules.NewLeadChoiceTable(30, 0, 3)
	evalPlain, err := exact.Estimate(m, exact.Lineup{Players: 2, Table: plain, Opponent: rules.PolicySafe}, 30, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// An empty table is refused before it is priced, as before it is solved.
	if _, err := exact.Estimate(m, exact.Lineup{Players: 2, Table: lead, Opponent: rules.PolicySafe}, 30, exact.Options{}); err == nil {
		t.Errorf("the estimate of an empty table: no error")
	}
	brPlain, err := exact.Estimate(m, exact.Lineup{Players: 2, OpponentTable: plain}, 30, exact.Options{Call: exact.CallBestResponseTo})
	if err != nil {
		t.Fatal(err)
	}
	// The best response sweeps the states twice (its own, then optimal's against the table) and
	// tries every pair of choices in each.
	if brPlain.Ops <= 2*evalPlain.Ops {
		t.Errorf("the best response to a table is estimated at %.3g operations, its evaluation at %.3g", brPlain.Ops, evalPlain.Ops)
	}
	if _, err := exact.Estimate(m, exact.Lineup{Players: 2}, 30, exact.Options{Call: exact.CallBestResponseTo}); err == nil {
		t.Errorf("the estimate of a best response without a table: no error")
	}
}

// tabLeadFixed writes out fixed policy p in a table with a lead dimension, the same choice at
// every lead.
func tabLeadFixed(t *testing.T, p rules.Policy, n, singletons, maxLead int) *rules.ChoiceTable {
	t.Helper()
	table, err := rules.NewLeadChoiceTable(n, singletons, maxLead)
	if err != nil {
		t.Fatal(err)
	}
	for nn := 0; nn <= n; nn++ {
		for j := 0; j <= nn; j++ {
			for f := 0; f <= singletons; f++ {
				for d := -maxLead; d <= maxLead; d++ {
					st := rules.State{N: nn, J: j, S: singletons, F: f, Lead: d}
					table.Set(st, false, p.Decide(st))
					table.Set(st, true, p.Decide(st))
				}
			}
		}
	}
	return table
}

func TestTableWithALeadDimensionThatIgnoresItHasTheValuesOfOneWithout(t *testing.T) {
	const n = 4
	for _, fam := range tabModels() {
		m := fam.model
		if rules.PolicyParity.CheckChoices(m.Choices) != nil {
			continue
		}
		plain, err := rules.FixedChoiceTable(rules.PolicyParity, n, m.Singletons)
		if err != nil {
			t.Fatal(err)
		}
		lead := tabLeadFixed(t, rules.PolicyParity, n, m.Singletons, 2)
		want, err := exact.BestResponseTo[*big.Rat](tabCtx, field.Rat{}, m, plain, n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.BestResponseTo[*big.Rat](tabCtx, field.Rat{}, m, lead, n)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 2 {
			if got.Pairs[k].Cmp(want.Pairs[k]) != 0 || got.Optimal[k].Cmp(want.Optimal[k]) != 0 {
				t.Errorf("%s: order %d: against the lead table the best response makes %s and optimal %s, against the plain one %s and %s",
					fam.name, k, idRS(got.Pairs[k]), idRS(got.Optimal[k]), idRS(want.Pairs[k]), idRS(want.Optimal[k]))
			}
		}
		if got.Table.MaxLead() < 0 {
			t.Errorf("%s: the best response to a lead table has no lead dimension", fam.name)
		}
	}
}
