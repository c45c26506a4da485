package sim_test

// Agreement of the card-level engine with the exact solver (memsim/analysis/exact), which
// computes the same quantities from the count models of docs/models.md §4.
//
// Statistical checks: a match of many deals with a fixed seed; the sample mean must lie within
// tolerance = 4.5 standard errors of the exact value. For a correct engine a deviation that large
// has probability about 7e-6 per check (normal approximation; the means are of bounded scores over
// tens of thousands of games), so the whole file fails by chance with probability below 1e-3 for
// some seed, and, the seed being fixed, the outcome is reproducible. Each check also verifies its
// own power: every other matchup or model whose exact value differs from the right one by more
// than 2 × tolerance must be rejected by the same sample.
//
// Exact checks: with perfect memory, averaging over every distinct deal gives exact expectations
// (all arrangements are equally likely under a uniform shuffle). When the engine's play of a
// given deal is deterministic, the average must equal the solver's rational value exactly.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
)

const agreeK = 4.5 // tolerance in standard errors

// agreeDeals is the number of deals of each statistical check.
func agreeDeals() int64 {
	switch {
	case testing.Short():
		return 10000
	case raceEnabled:
		return 20000
	}
	return 40000
}

func exactResult(t *testing.T, m exact.Model, mu exact.Lineup, n int) exact.Result[float64] {
	t.Helper()
	r, err := exact.Evaluate[float64](context.Background(), field.Float{}, m, mu, rules.State{N: n, J: n, S: m.Singletons, F: m.Singletons})
	if err != nil {
		t.Fatalf("exact.Evaluate(%+v, %+v, n=%d): %v", m, mu, n, err)
	}
	return r
}

// tableFor returns the policy table a card-level player of policy pol follows in model m.
func tableFor(t *testing.T, m exact.Model, pol rules.Policy, n int) *rules.ChoiceTable {
	t.Helper()
	if pol.Fixed() {
		return fixedTable(t, pol, n, m.Singletons)
	}
	tb, err := exact.PolicyTable[*big.Rat](context.Background(), field.Rat{}, m,
		exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, n)
	if err != nil {
		t.Fatalf("exact.PolicyTable(%+v, n=%d): %v", m, n, err)
	}
	return tb
}

// matchupPlayers seats policy in seat 0 and opponent in the other seats, all with the model's
// (shared) memory.
func matchupPlayers(t *testing.T, m exact.Model, mu exact.Lineup, n int) []sim.Player {
	t.Helper()
	ps := []sim.Player{tablePlayer(mu.Policy.String(), m.Memory, tableFor(t, m, mu.Policy, n))}
	opp := tableFor(t, m, mu.Opponent, n)
	for i := 1; i < mu.Players; i++ {
		ps = append(ps, tablePlayer(fmt.Sprintf("%v%d", mu.Opponent, i), m.Memory, opp))
	}
	return ps
}

func runMatch(t *testing.T, setup sim.Setup, deals int64, seed uint64) *sim.Tally {
	t.Helper()
	order := make([]int, len(setup.Players))
	for i := range order {
		order[i] = i
	}
	m := &sim.Match{Setup: setup, Orders: [][]int{order}, Deals: deals, Seed: seed, DealStream: 1, PlayStream: 2}
	res, err := m.Play(context.Background(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Orders[0]
}

// agree checks a sample mean against the exact value and against wrong values: it returns how
// many wrong values the sample rejects.
func agree(t *testing.T, what string, mean, se, want float64, wrong map[string]float64) int {
	t.Helper()
	tol := agreeK * se
	if math.Abs(mean-want) > tol || math.IsNaN(mean) {
		t.Errorf("%s: simulated %.5f ± %.5f (4.5 SE %.5f), exact %.5f: off by %.1f standard errors",
			what, mean, se, tol, want, (mean-want)/se)
	}
	rejected := 0
	for name, w := range wrong {
		if math.Abs(w-want) <= 2*tol {
			continue // too close to tell apart with this sample
		}
		if math.Abs(mean-w) <= tol {
			t.Errorf("%s: the sample %.5f ± %.5f cannot reject the wrong value %.5f (%s)", what, mean, se, w, name)
		}
		rejected++
	}
	t.Logf("%s: simulated %.5f ± %.5f, exact %.5f; rejects %d of %d wrong values", what, mean, se, want, rejected, len(wrong))
	return rejected
}

type agreeCase struct {
	name  string
	n     int
	model exact.Model
	mu    exact.Lineup
}

func (c agreeCase) label() string {
	return fmt.Sprintf("%s/n=%d,s=%d,%v,%v/%v-vs-%v/p=%d", c.name, c.n, c.model.Singletons, c.model.Memory, c.model.Pass, c.mu.Policy, c.mu.Opponent, c.mu.Players)
}

// wrongValues lists the exact values of seat 0 in other matchups and models, and the value of
// another seat, for the power check.
func wrongValues(t *testing.T, c agreeCase, seat int) map[string]float64 {
	t.Helper()
	pols := []rules.Policy{rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring}
	if c.mu.Players == 2 {
		pols = append(pols, rules.PolicyOptimal)
	}
	out := map[string]float64{}
	for _, a := range pols {
		for _, b := range pols {
			if (a == rules.PolicyOptimal) != (b == rules.PolicyOptimal) {
				continue
			}
			mu := exact.Lineup{Players: c.mu.Players, Policy: a, Opponent: b}
			if mu == c.mu {
				continue
			}
			out[fmt.Sprintf("%v vs %v", a, b)] = exactResult(t, c.model, mu, c.n).PairsBySeat[seat]
		}
	}
	right := exactResult(t, c.model, c.mu, c.n)
	for i, v := range right.PairsBySeat {
		if i != seat {
			out[fmt.Sprintf("seat %d's value", i)] = v
		}
	}
	// The same matchup in other memory models.
	for _, mem := range []rules.Memory{perfect, {Capacity: 2, Forget: rules.ForgetLRU}, {Capacity: 3, Forget: rules.ForgetLRU},
		{Capacity: 2, Forget: rules.ForgetHandoverUniform}, {Capacity: 3, Forget: rules.ForgetHandoverUniform}} {
		m := c.model
		m.Memory = mem
		if mem == c.model.Memory || m.Validate() != nil || c.mu.Validate(m) != nil {
			continue
		}
		out[fmt.Sprintf("memory %v", mem)] = exactResult(t, m, c.mu, c.n).PairsBySeat[seat]
	}
	return out
}

func TestAgreementTwoPlayers(t *testing.T) {
	lru2 := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	lru3 := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}
	hu2 := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	hu3 := rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}
	two := func(a, b rules.Policy) exact.Lineup { return exact.Lineup{Players: 2, Policy: a, Opponent: b} }
	par, safe, dar, opt := rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal
	var cases []agreeCase
	for n := 2; n <= 6; n++ {
		cases = append(cases,
			agreeCase{"parity", n, exact.Model{}, two(par, par)},
			agreeCase{"daring-safe", n, exact.Model{}, two(dar, safe)},
			agreeCase{"optimal", n, exact.Model{}, two(opt, opt)},
		)
	}
	cases = append(cases,
		agreeCase{"lru optimal", 3, exact.Model{Memory: lru2}, two(opt, opt)},
		agreeCase{"lru optimal", 4, exact.Model{Memory: lru3}, two(opt, opt)},
		agreeCase{"lru optimal", 5, exact.Model{Memory: lru3}, two(opt, opt)},
		agreeCase{"lru parity-daring", 5, exact.Model{Memory: lru2}, two(par, dar)},
		agreeCase{"handover optimal", 3, exact.Model{Memory: hu2}, two(opt, opt)},
		agreeCase{"handover optimal", 4, exact.Model{Memory: hu3}, two(opt, opt)},
		agreeCase{"handover optimal", 5, exact.Model{Memory: hu3}, two(opt, opt)},
		agreeCase{"handover safe-parity", 5, exact.Model{Memory: hu2}, two(safe, par)},
		agreeCase{"singletons parity", 3, exact.Model{Singletons: 1}, two(par, par)},
		agreeCase{"singletons daring-safe", 4, exact.Model{Singletons: 2}, two(dar, safe)},
		agreeCase{"singletons optimal", 4, exact.Model{Singletons: 2}, two(opt, opt)},
		agreeCase{"two-known optimal", 5, exact.Model{Pass: rules.PassTwoKnown}, two(opt, opt)},
		agreeCase{"always optimal", 3, exact.Model{Pass: rules.PassAlways}, two(opt, opt)},
		agreeCase{"two-known handover optimal", 4, exact.Model{Pass: rules.PassTwoKnown, Memory: hu3}, two(opt, opt)},
		agreeCase{"two-known singletons optimal", 3, exact.Model{Pass: rules.PassTwoKnown, Singletons: 2}, two(opt, opt)},
	)
	deals := agreeDeals()
	rejected := 0
	for i, c := range cases {
		t.Run(c.label(), func(t *testing.T) {
			want := exactResult(t, c.model, c.mu, c.n)
			setup := sim.Setup{Pairs: c.n, Singletons: c.model.Singletons, Pass: c.model.Pass, Players: matchupPlayers(t, c.model, c.mu, c.n)}
			tl := runMatch(t, setup, deals, 1000+uint64(i))
			mean, se := meanSE(tl, 0)
			rejected += agree(t, "seat 0 pairs", mean, se, want.ExpectedPairs, wrongValues(t, c, 0))
			// Seat 1's mean is n minus seat 0's, stalemates included: check the lead too.
			lead := 2*mean - float64(c.n)
			if math.Abs(lead-want.ExpectedLead) > 2*agreeK*se+1e-9 {
				t.Errorf("lead %.5f, exact %.5f", lead, want.ExpectedLead)
			}
			if c.model.Pass == rules.PassNever && tl.Stalemates != 0 {
				t.Errorf("%d stalemates under pass rule never", tl.Stalemates)
			}
			if c.model.Pass != rules.PassNever {
				// Optimal play passes in some states here: the stalemate rule is exercised.
				t.Logf("%d stalemates in %d games", tl.Stalemates, tl.Games)
				if tl.Stalemates == 0 {
					t.Errorf("no stalemate under pass rule %v", c.model.Pass)
				}
			}
		})
	}
	if rejected < len(cases) {
		t.Errorf("the samples rejected only %d wrong values over %d cases", rejected, len(cases))
	}
}

func TestAgreementSolitaire(t *testing.T) {
	deals := agreeDeals()
	for _, c := range []struct{ n, s int }{{1, 0}, {2, 0}, {3, 0}, {5, 0}, {6, 0}, {3, 2}} {
		t.Run(fmt.Sprintf("n=%d,s=%d", c.n, c.s), func(t *testing.T) {
			m := exact.Model{Singletons: c.s}
			mu := exact.Lineup{Players: 1, Policy: rules.PolicyDaring, Opponent: rules.PolicyDaring}
			want := exactResult(t, m, mu, c.n)
			setup := sim.Setup{Pairs: c.n, Singletons: c.s, Players: []sim.Player{tablePlayer("daring", perfect, fixedTable(t, rules.PolicyDaring, c.n, c.s))}}
			tl := runMatch(t, setup, deals, 77+uint64(c.n))
			turns, seT := momentSE(tl.TurnSum, tl.TurnSumSq, tl.Games)
			lucky, seL := momentSE(tl.Lucky, tl.LuckySumSq, tl.Games)
			if c.n == 1 && c.s == 0 {
				// One pair: one turn, always lucky, no variance.
				if turns != 1 || lucky != 1 {
					t.Errorf("one pair: %.3f turns, %.3f lucky", turns, lucky)
				}
				return
			}
			// Wrong values: another deal size, or the safe policy (which flips a known card
			// second and so needs more turns).
			other := exactResult(t, m, mu, c.n+1)
			safeRes := exactResult(t, m, exact.Lineup{Players: 1, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}, c.n)
			r := agree(t, "turns", turns, seT, want.ExpectedTurns, map[string]float64{"n+1 pairs": other.ExpectedTurns, "safe": safeRes.ExpectedTurns})
			agree(t, "lucky", lucky, seL, want.ExpectedLucky, map[string]float64{"safe": safeRes.ExpectedLucky})
			if r == 0 {
				t.Errorf("the turn sample rejects no wrong value")
			}
			if tl.Share[0][c.n] != tl.Games {
				t.Errorf("solitaire share histogram %v", tl.Share[0])
			}
		})
	}
}

func TestAgreementManyPlayers(t *testing.T) {
	deals := agreeDeals()
	par, safe, dar := rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring
	cases := []agreeCase{
		{"three", 4, exact.Model{}, exact.Lineup{Players: 3, Policy: par, Opponent: dar}},
		{"three", 5, exact.Model{}, exact.Lineup{Players: 3, Policy: safe, Opponent: par}},
		{"three singletons", 3, exact.Model{Singletons: 1}, exact.Lineup{Players: 3, Policy: dar, Opponent: safe}},
		{"four", 4, exact.Model{}, exact.Lineup{Players: 4, Policy: dar, Opponent: safe}},
	}
	for i, c := range cases {
		t.Run(c.label(), func(t *testing.T) {
			want := exactResult(t, c.model, c.mu, c.n)
			setup := sim.Setup{Pairs: c.n, Singletons: c.model.Singletons, Players: matchupPlayers(t, c.model, c.mu, c.n)}
			tl := runMatch(t, setup, deals, 500+uint64(i))
			rejected := 0
			for seat := range c.mu.Players {
				mean, se := meanSE(tl, seat)
				rejected += agree(t, fmt.Sprintf("seat %d pairs", seat), mean, se, want.PairsBySeat[seat], wrongValues(t, c, seat))
			}
			if rejected == 0 {
				t.Errorf("the samples reject no wrong value")
			}
		})
	}
}

// TestAgreementAllDeals plays every distinct deal once and compares the average with the exact
// value as rationals. All arrangements of the cards are equally likely under a uniform shuffle,
// so with perfect memory the average over deals is the expectation, provided the engine plays a
// given deal the same way in every play stream (then its choice among unknown cards is a
// function of what has been seen, which is as good as a uniform draw). If a deal plays
// differently in two play streams, the comparison falls back to a statistical one.
func TestAgreementAllDeals(t *testing.T) {
	par, safe, dar, opt := rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal
	type allCase struct {
		n, s int
		mu   exact.Lineup
	}
	cases := []allCase{
		{2, 0, exact.Lineup{Players: 2, Policy: par, Opponent: par}},
		{3, 0, exact.Lineup{Players: 2, Policy: par, Opponent: par}},
		{4, 0, exact.Lineup{Players: 2, Policy: par, Opponent: par}},
		{4, 0, exact.Lineup{Players: 2, Policy: dar, Opponent: safe}},
		{4, 0, exact.Lineup{Players: 2, Policy: safe, Opponent: dar}},
		{4, 0, exact.Lineup{Players: 2, Policy: opt, Opponent: opt}},
		{3, 1, exact.Lineup{Players: 2, Policy: safe, Opponent: safe}},
		{3, 1, exact.Lineup{Players: 2, Policy: opt, Opponent: opt}},
		{4, 0, exact.Lineup{Players: 3, Policy: par, Opponent: dar}},
		{3, 0, exact.Lineup{Players: 1, Policy: dar, Opponent: dar}},
		{4, 0, exact.Lineup{Players: 1, Policy: dar, Opponent: dar}},
		{3, 1, exact.Lineup{Players: 1, Policy: dar, Opponent: dar}},
	}
	if testing.Short() {
		cases = slices.DeleteFunc(cases, func(c allCase) bool { return c.n == 4 && c.mu.Players != 2 })
	}
	for _, c := range cases {
		model := exact.Model{Singletons: c.s}
		t.Run(fmt.Sprintf("n=%d,s=%d,%v-vs-%v,p=%d", c.n, c.s, c.mu.Policy, c.mu.Opponent, c.mu.Players), func(t *testing.T) {
			want, err := exact.Evaluate[*big.Rat](context.Background(), field.Rat{}, model, c.mu, rules.State{N: c.n, J: c.n, S: c.s, F: c.s})
			if err != nil {
				t.Fatal(err)
			}
			setup := sim.Setup{Pairs: c.n, Singletons: c.s, Players: matchupPlayers(t, model, c.mu, c.n)}
			if c.mu.Players == 1 {
				setup.Players = []sim.Player{tablePlayer("daring", perfect, fixedTable(t, dar, c.n, c.s))}
			}
			g, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			tables := make([]bool, c.mu.Players)
			for i := range tables {
				tables[i] = true
			}
			p := c.mu.Players
			pairs := make([]int64, p) // per seat, over all deals
			var turns, lucky, deals int64
			deterministic := true
			la, lb := &sim.Log{}, &sim.Log{}
			allDeals(c.n, c.s, func(faces []int) {
				if err := g.PlayDeal(sim.GameID{Seed: 3, PlayStream: 0, Index: uint64(deals)}, faces, la); err != nil {
					t.Fatal(err)
				}
				o := g.Outcome()
				f := checkLog(t, setup, la, o, true, tables)
				for i := range p {
					pairs[i] += int64(o.Pairs[i])
				}
				turns += int64(o.Turns)
				lucky += int64(f.lucky)
				if err := g.PlayDeal(sim.GameID{Seed: 3, PlayStream: 1, Index: uint64(deals) + 1e6}, faces, lb); err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(la.Turns, lb.Turns, func(x, y sim.LoggedTurn) bool {
					return x.Seat == y.Seat && x.End == y.End && slices.Equal(x.Flips, y.Flips)
				}) {
					deterministic = false
				}
				deals++
			})
			ratio := func(sum int64) *big.Rat { return big.NewRat(sum, deals) }
			type check struct {
				what string
				sum  int64
				want *big.Rat
			}
			var checks []check
			if p == 1 {
				checks = append(checks, check{"turns", turns, want.ExpectedTurns}, check{"lucky", lucky, want.ExpectedLucky})
			} else {
				for i := range p {
					checks = append(checks, check{fmt.Sprintf("seat %d pairs", i), pairs[i], want.PairsBySeat[i]})
				}
			}
			for _, ch := range checks {
				got := ratio(ch.sum)
				if deterministic {
					if got.Cmp(ch.want) != 0 {
						t.Errorf("%s over all %d deals: %s = %.6f, exact %s = %.6f", ch.what, deals, got.RatString(), fv(got), ch.want.RatString(), fv(ch.want))
					}
					continue
				}
				// Random play: the pairs are a sample mean over deals (a crude bound on the spread
				// of one game, n, for turns and lucky matches).
				if math.Abs(fv(got)-fv(ch.want)) > agreeK*float64(c.n+c.s)/math.Sqrt(float64(deals)) {
					t.Errorf("%s over all %d deals: %.6f, exact %.6f", ch.what, deals, fv(got), fv(ch.want))
				}
			}
			t.Logf("%d deals, deterministic play %v", deals, deterministic)
			if !deterministic {
				t.Logf("the engine plays a given deal differently in different play streams: statistical comparison")
			}
		})
	}
}

func fv(r *big.Rat) float64 { f, _ := r.Float64(); return f }
