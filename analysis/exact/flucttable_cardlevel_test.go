package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctTestTable returns a table of every state with 1 to n pairs (after a pass too), the choice
// in each of choose.
func fluctTestTable(t *testing.T, n int, choose func(st rules.State, afterPass bool) rules.Choice) *rules.ChoiceTable {
	t.Helper()
	tab, err := rules.NewChoiceTable(n, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= n; k++ {
		for j := 0; j <= k; j++ {
			for _, after := range []bool{false, true} {
				st := rules.State{N: k, J: j}
				tab.Set(st, after, choose(st, after))
			}
		}
	}
	return tab
}

// A policy given as a table under a fluctuating capacity: a table that writes safe (daring) in
// every state has safe's (daring's) values exactly against every named policy, in either seat,
// and best-response to it is best-response to safe (daring), under pass rules never and two-known.
func TestFluctTableWritingAPolicyEqualsIt(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	const n = 3
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
		for _, mem := range []rules.Memory{
			{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1},
			{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1},
		} {
			m := exact.Model{Memory: mem, Pass: pass}
			for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
				tab := fluctTestTable(t, n, func(st rules.State, _ bool) rules.Choice { return p.Decide(st) })
				st := rules.State{N: n, J: n}
				others := []rules.Policy{rules.PolicyOptimal, rules.PolicyBestResponse}
				if !testing.Short() {
					others = append(others, rules.PolicySafe, rules.PolicyDaring)
				}
				for _, other := range others {
					name := fmt.Sprintf("%s pass %s: table of %s against %s", mem, pass, p, other)
					pairs := []struct{ table, named exact.Lineup }{
						{exact.Lineup{Players: 2, Table: tab, Opponent: other}, exact.Lineup{Players: 2, Policy: p, Opponent: other}},
						{exact.Lineup{Players: 2, Policy: other, OpponentTable: tab}, exact.Lineup{Players: 2, Policy: other, Opponent: p}},
					}
					for i, pr := range pairs {
						if other == rules.PolicyBestResponse && i == 0 {
							continue // best-response answers seat 0's table from seat 1: the second lineup
						}
						got, err := exact.Evaluate(ctx, f, m, pr.table, st)
						if err != nil {
							t.Fatalf("%s (seat %d): %v", name, i, err)
						}
						want, err := exact.Evaluate(ctx, f, m, pr.named, st)
						if err != nil {
							t.Fatalf("%s (seat %d): %v", name, i, err)
						}
						if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
							t.Errorf("%s (table at seat %d): lead %s, the named policy's %s", name, i, got.ExpectedLead.RatString(), want.ExpectedLead.RatString())
						}
					}
				}
			}
		}
	}
}

// A seeded random table (a legal choice per state and pass flag, passes included under a pass
// rule) played card by card over every deal and capacity drawn against optimal, safe and the
// best reply to it, in either seat: seat 0's lead and the generating function of its lead
// distribution equal the exact model's. The reply is read from the exact model's own table and
// must gain at least what optimal gains against the table.
func TestFluctTablePolicyMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	n, depth := 3, 18
	if !testing.Short() {
		n, depth = 4, 22
	}
	for _, tc := range []struct {
		mem  rules.Memory
		pass rules.PassRule
		seed uint64
	}{
		{rules.Memory{Capacity: 2, Forget: rules.ForgetLRU, Fluctuation: 1}, rules.PassNever, 1},
		{rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, rules.PassTwoKnown, 2},
		{rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, rules.PassAlways, 3},
	} {
		if testing.Short() && tc.pass == rules.PassAlways {
			continue
		}
		m := exact.Model{Memory: tc.mem, Pass: tc.pass}
		rnd := rand.New(rand.NewPCG(tc.seed, 7))
		tab := fluctTestTable(t, n, func(st rules.State, _ bool) rules.Choice {
			var legal []rules.Choice
			for _, ch := range rules.Choices() {
				if m.Legal(st, ch) {
					legal = append(legal, ch)
				}
			}
			return legal[rnd.IntN(len(legal))]
		})
		readTab := func(st rules.State, _ int, afterPass bool) rules.Choice {
			ch, ok := tab.Lookup(st, afterPass)
			if !ok {
				t.Fatalf("no choice in %v", st)
			}
			return ch
		}
		opt, err := exact.FluctTable(ctx, field.Float{}, m, n)
		if err != nil {
			t.Fatal(err)
		}
		readCap := func(ct *rules.ChoiceTable) func(rules.State, int, bool) rules.Choice {
			return func(st rules.State, c int, afterPass bool) rules.Choice {
				ch, ok := ct.LookupCapacity(st, afterPass, c)
				if !ok {
					t.Fatalf("no choice in %v with capacity %d", st, c)
				}
				return ch
			}
		}
		safe := func(st rules.State, _ int, _ bool) rules.Choice { return rules.PolicySafe.Decide(st) }
		st := rules.State{N: n, J: n}
		// The reply to the table at seat 1, its table read from the exact model.
		reply := exact.Lineup{Players: 2, Table: tab, Opponent: rules.PolicyBestResponse}
		for _, tc2 := range []struct {
			name    string
			mu      exact.Lineup
			chooser [2]func(rules.State, int, bool) rules.Choice
		}{
			{"table-optimal", exact.Lineup{Players: 2, Table: tab, Opponent: rules.PolicyOptimal}, [2]func(rules.State, int, bool) rules.Choice{readTab, readCap(opt)}},
			{"safe-table", exact.Lineup{Players: 2, Policy: rules.PolicySafe, OpponentTable: tab}, [2]func(rules.State, int, bool) rules.Choice{safe, readTab}},
			{"table-best-response", reply, [2]func(rules.State, int, bool) rules.Choice{readTab, nil}},
		} {
			name := fmt.Sprintf("%s pass %s n=%d %s", tc.mem, tc.pass, n, tc2.name)
			want, err := exact.Evaluate(ctx, field.Float{}, m, tc2.mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if tc2.chooser[1] == nil {
				// best-response's own choices are the exact model's replies: FluctChoiceValues'
				// policy choice after every draw.
				type key struct {
					st        rules.State
					c         int
					afterPass bool
				}
				seen := map[key]rules.Choice{}
				tc2.chooser[1] = func(s rules.State, c int, afterPass bool) rules.Choice {
					if ch, ok := seen[key{s, c, afterPass}]; ok {
						return ch
					}
					// Seat 1 moving is seat 0 of the swapped lineup.
					sw := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, OpponentTable: tab}
					values := exact.FluctChoiceValues[float64]
					if afterPass {
						values = exact.FluctChoiceValuesAfterPass[float64]
					}
					cv, err := values(ctx, field.Float{}, m, sw, s, c)
					if err != nil {
						t.Fatalf("%s: %v c=%d: %v", name, s, c, err)
					}
					seen[key{s, c, afterPass}] = cv.PolicyChoice
					return cv.PolicyChoice
				}
				optVsTab, err := exact.Evaluate(ctx, field.Float{}, m, exact.Lineup{Players: 2, Table: tab, Opponent: rules.PolicyOptimal}, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if want.ExpectedLead > optVsTab.ExpectedLead+1e-9 {
					t.Errorf("%s: the reply lets the table lead %.9f, optimal %.9f", name, want.ExpectedLead, optVsTab.ExpectedLead)
				}
			}
			d, err := exact.Distribution(ctx, field.Float{}, m, tc2.mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, z := range []float64{0, 2} {
				pl := &flPlayer{lru: tc.mem.Forget == rules.ForgetLRU, m: tc.mem.Capacity, sigma: tc.mem.Fluctuation, z: z, memo: map[string][2]float64{},
					choosePass: tc2.chooser, pass: tc.pass}
				got, tail := pl.value(flPosition(n, 0), 0, depth)
				exp, bound := want.ExpectedLead, float64(n)
				if z != 0 {
					exp = 0
					for i, p := range d.Prob {
						exp += p * math.Pow(z, float64(i-n))
					}
					bound = math.Pow(z, float64(n))
				}
				if diff := math.Abs(got - exp); diff > bound*tail+1e-9 {
					t.Errorf("%s, z = %g: card play %.12f (unfinished %.2g), exact %.12f", name, z, got, tail, exp)
				}
			}
		}
	}
}
