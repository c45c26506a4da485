package sim_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
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
					tabs[i] = fixedTable(t, []rules.Policy{rules.PolicySafe, rules.PolicyDaring}[i], tc.pairs, tc.singletons)
					continue
				}
				tabs[i] = randomChoices(t, r, tc.pairs, pass, noKnownFirst)
			}
			setup := func(m0 rules.Memory) *sim.Game {
				g, err := sim.NewGame(sim.Setup{Pairs: tc.pairs, Singletons: tc.singletons, Pass: pass, Players: []sim.Player{
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
				for k := range uint64(identityGames()) {
					id := sim.GameID{Seed: 7, DealStream: uint64(tc.pairs), PlayStream: uint64(a), Index: k}
					var want, got sim.Log
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

// identityGames is the number of games of each setup TestPerfectMemoryIsUnboundedLRU compares.
func identityGames() int {
	if testing.Short() || raceEnabled {
		return 8
	}
	return 30
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
		var ps []sim.Player
		for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
			ps = append(ps, sim.Player{Name: p.String(), Table: fixedTable(t, p, tc.pairs, tc.sgl)})
		}
		g, err := sim.NewGame(sim.Setup{Pairs: tc.pairs, Singletons: tc.sgl, Variant: tc.variant, Players: ps})
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		var log sim.Log
		for k := range uint64(200) {
			lp := (*sim.Log)(nil)
			if tc.log {
				lp = &log
			}
			if err := g.Play(sim.GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: k}, lp); err != nil {
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

// randomChoices returns a table with a random legal choice among choices (daring included) in
// every state and pass flag.
func randomChoices(t *testing.T, r *rand.Rand, n int, pass rules.PassRule, choices []rules.Choice) *rules.ChoiceTable {
	return customTable(t, n, 0, func(st rules.State, _ bool) rules.Choice {
		var legal []rules.Choice
		for _, c := range choices {
			if rules.Legal(st, c, pass) {
				legal = append(legal, c)
			}
		}
		return legal[r.IntN(len(legal))]
	})
}

// The engine's games of a perfect memory against a private lru(b) memory, each seat playing the
// optimal table of its own memory, average the exact value of the unequal model (perfect memory
// as capacity 0) within 4.5 standard errors. (Every deal played once does not give the value
// exactly: a memory that has forgotten a card draws its unknown card at random.)
func TestPerfectAgainstLRUAveragesTheUnequalModel(t *testing.T) {
	ctx := context.Background()
	cs := rules.NewChoiceSet(rules.Daring, rules.Safe)
	opt := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, tc := range []struct{ n, b int }{{4, 2}, {6, 3}} {
		lru := rules.Memory{Capacity: tc.b, Forget: rules.ForgetLRU}
		perfectTab, err := exact.PolicyTable(ctx, field.Rat{}, exact.Model{Choices: cs}, opt, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		lruTab, err := exact.PolicyTable(ctx, field.Rat{}, exact.Model{Choices: cs, Memory: lru}, opt, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		u := exact.Unequal{Choices: cs, Capacity: [2]int{0, tc.b}, Policy: [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}}
		want, err := exact.EvaluateUnequal(ctx, field.Float{}, u, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		private := lru
		private.Scope = rules.ScopePrivate
		g, err := sim.NewGame(sim.Setup{Pairs: tc.n, Players: []sim.Player{{Name: "perfect", Table: perfectTab}, {Name: "lru", Memory: private, Table: lruTab}}})
		if err != nil {
			t.Fatal(err)
		}
		games := float64(agreeDeals() / 5)
		sum, sq := 0.0, 0.0
		for k := range uint64(games) {
			if err := g.Play(sim.GameID{Seed: 13, DealStream: 1, PlayStream: 2, Index: k}, nil); err != nil {
				t.Fatal(err)
			}
			lead := float64(g.Outcome().Pairs[0] - g.Outcome().Pairs[1])
			sum += lead
			sq += lead * lead
		}
		mean := sum / games
		se := math.Sqrt((sq/games - mean*mean) / (games - 1))
		if math.Abs(mean-want.ExpectedLead) > 4.5*se {
			t.Errorf("n=%d, perfect memory against lru(%d): mean lead %.4f ± %.4f, exact %.4f", tc.n, tc.b, mean, se, want.ExpectedLead)
		}
	}
}
