package sim

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"testing"

	"memsim/sim/rules"
)

// A perfect memory is an lru memory of unbounded capacity: beside a private lru(b) memory, a
// perfect memory plays game by game as an lru memory of any capacity that never fills (at least
// the pairs and singletons of the deal), flipping the same positions in the same order, when no
// seat chooses known-first (whose card is read from the memory's list, not by recency).
func TestPerfectMemoryIsUnboundedLRU(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	noKnownFirst := []rules.Choice{rules.Daring, rules.Safe, rules.Pass}
	lru := func(c int) rules.Memory {
		return rules.Memory{Capacity: c, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}
	}
	for _, tc := range []struct{ pairs, singletons, b int }{
		{3, 0, 2}, {5, 0, 2}, {6, 0, 3}, {8, 0, 4}, {12, 0, 5}, {6, 2, 3}, {9, 3, 4},
	} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			var tabs [2]*rules.ChoiceTable
			for i := range tabs {
				if tc.singletons > 0 {
					tabs[i] = policyTable(t, []rules.Policy{rules.PolicySafe, rules.PolicyDaring}[i], tc.pairs, tc.singletons)
					continue
				}
				tabs[i] = randomTableOf(t, r, tc.pairs, pass, noKnownFirst)
			}
			setup := func(m0 rules.Memory) *Game {
				g, err := NewGame(Setup{Pairs: tc.pairs, Singletons: tc.singletons, Pass: pass, Players: []Player{
					{Name: "a", Memory: m0, Table: tabs[0]},
					{Name: "b", Memory: lru(tc.b), Table: tabs[1]},
				}})
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			perfect := setup(rules.Memory{})
			cards := tc.pairs + tc.singletons
			for _, a := range []int{cards, cards + 1, 2 * cards} {
				bounded := setup(lru(a))
				for k := range uint64(30) {
					id := GameID{Seed: 7, DealStream: uint64(tc.pairs), PlayStream: uint64(a), Index: k}
					var want, got Log
					if err := perfect.Play(id, &want); err != nil {
						t.Fatal(err)
					}
					if err := bounded.Play(id, &got); err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(want.Turns, got.Turns) || !reflect.DeepEqual(*perfect.Outcome(), *bounded.Outcome()) {
						t.Fatalf("%d pairs, %d singletons, pass %s, lru(%d) against lru(%d), game %d: perfect memory flips\n%v\nlru(%d) flips\n%v",
							tc.pairs, tc.singletons, pass, a, tc.b, k, want.Turns, a, got.Turns)
					}
				}
			}
		}
	}
}

// A shared perfect memory plays the same games whichever remembered card the rules leave open
// (what the seats know does not depend on it): these digests of the outcomes, game by game, of
// general-path games where a safe move or a singleton flips a remembered card, were recorded
// when the engine flipped the first card of the memory's list there, by
//
//	go test ./sim -run TestSharedPerfectMemoryOutcomesAreFixed -v
//
// (which logs them).
func TestSharedPerfectMemoryOutcomesAreFixed(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pairs, sgl int
		variant    rules.Variant
		log        bool // a log forces the general path
		want       uint64
	}{
		{"standard, logged", 12, 0, rules.Variant{}, true, 0xd1adb0587ba7d57},
		{"singletons", 8, 3, rules.Variant{}, false, 0x9ecd918be50aa85b},
		{"blind flips", 10, 0, rules.Variant{Flips: rules.FlipsBlind}, false, 0xf181c373afbb5e8c},
		{"copies 4", 12, 0, rules.Variant{Copies: 4}, false, 0x9008f34f47cd92c3},
	} {
		var ps []Player
		for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
			ps = append(ps, Player{Name: p.String(), Table: policyTable(t, p, tc.pairs, tc.sgl)})
		}
		g, err := NewGame(Setup{Pairs: tc.pairs, Singletons: tc.sgl, Variant: tc.variant, Players: ps})
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		var log Log
		for k := range uint64(200) {
			lp := (*Log)(nil)
			if tc.log {
				lp = &log
			}
			if err := g.Play(GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: k}, lp); err != nil {
				t.Fatal(err)
			}
			o := g.Outcome()
			fmt.Fprintln(h, o.Pairs, o.Turns, o.Stalemate, o.Left)
		}
		t.Logf("%s: %#x", tc.name, h.Sum64())
		if got := h.Sum64(); got != tc.want {
			t.Errorf("%s: outcomes digest %#x, want %#x", tc.name, got, tc.want)
		}
	}
}

// policyTable returns the table of the fixed policy p.
func policyTable(tb testing.TB, p rules.Policy, pairs, singletons int) *rules.ChoiceTable {
	tb.Helper()
	t, err := rules.FixedChoiceTable(p, pairs, singletons)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}
