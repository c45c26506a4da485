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

// A best reply at three or more seats (docs/models.md §4.7): one seat plays best-response, the
// others fixed policies or the optimum of every seat for itself.

// replyDecisions returns the card-level search's choice of each seat of the lineup: nil at the
// seat that replies, the table of its policy (at this many seats) otherwise.
func replyDecisions(t *testing.T, m exact.Model, pols []rules.Policy, n int) []func(rules.State) rules.Choice {
	t.Helper()
	out := make([]func(rules.State) rules.Choice, len(pols))
	for i, p := range pols {
		if p == rules.PolicyBestResponse || p == rules.PolicyWinBestResponse {
			continue
		}
		tab, err := exact.PolicyTable(context.Background(), field.Rat{}, m, exact.Lineup{Players: len(pols), Policy: p, Opponent: p}, n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = tableDecide(t, tab)
	}
	return out
}

// TestCardLevelSeatReply compares every seat's expected pairs, one seat replying to the others,
// with the card-level search in which that seat takes, at every turn, the choice that gives it the
// most expected pairs over the cards it has not seen, and the others follow their policies.
func TestCardLevelSeatReply(t *testing.T) {
	ctx := context.Background()
	B, O, S, D, P := rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	full := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}
	type tc struct {
		n, s int
		pols []rules.Policy
	}
	var cases []tc
	for n := 1; n <= bySize(3, 3, 4); n++ {
		cases = append(cases, tc{n, 0, []rules.Policy{B, S, S}}, tc{n, 0, []rules.Policy{B, D, D}},
			tc{n, 0, []rules.Policy{B, P, P}}, tc{n, 0, []rules.Policy{B, O, O}})
	}
	cases = append(cases, tc{3, 0, []rules.Policy{S, B, D}}, tc{2, 1, []rules.Policy{B, S, S}}, tc{2, 1, []rules.Policy{D, P, B}},
		tc{2, 0, []rules.Policy{B, S, D, P}}, tc{bySize(2, 3, 3), 0, []rules.Policy{D, D, B, D}})
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,s=%d/%v", c.n, c.s, c.pols), func(t *testing.T) {
			m := exact.Model{Singletons: c.s}
			w := &winSearch{n: c.n, s: c.s, players: len(c.pols), choices: full, memo: map[string][4][]*big.Rat{},
				seats: replyDecisions(t, m, c.pols, c.n), objective: wsPairs}
			want := w.value(1<<(2*c.n+c.s)-1, 0, make([]int, len(c.pols)), 0)[wsPairs]
			st := rules.State{N: c.n, J: c.n, S: c.s, F: c.s}
			got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.pols...), st)
			if err != nil {
				t.Fatal(err)
			}
			if ratsString(got.PairsBySeat) != ratsString(want) {
				t.Errorf("pairs: solver %s, card level %s", ratsString(got.PairsBySeat), ratsString(want))
			}
		})
	}
}

// replyModels are the models a best reply at three or more seats is checked in; those marked
// slow are checked at three seats only with -short.
var replyModels = []struct {
	name string
	m    exact.Model
	slow bool
}{
	{"perfect", exact.Model{}, false},
	{"singletons", exact.Model{Singletons: 1}, false},
	{"lru(3)", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}, false},
	{"handover(2)", exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}}, false},
	{"two-known", exact.Model{Pass: rules.PassTwoKnown}, false},
	{"always", exact.Model{Pass: rules.PassAlways}, false},
	{"blind", exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}, false},
	{"decay(0.2)", exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}}, true},
	{"decay(0.5,3)", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}}, false},
	{"decay(0.2), two-known", exact.Model{Pass: rules.PassTwoKnown, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}}, true},
	{"decay(0.5,3), always", exact.Model{Pass: rules.PassAlways, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}}, true},
	{"lru(3), always", exact.Model{Pass: rules.PassAlways, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}, false},
	{"handover(2), two-known", exact.Model{Pass: rules.PassTwoKnown, Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}}, false},
}

// TestSeatReplyBeatsEveryPolicy checks that seat 0's best reply to every other seat playing
// policy X gives it at least as many expected pairs as each of optimal, safe, daring and parity
// in its place, and exactly optimal's against optimal where no state refers to itself (backward
// induction: the optimum of every seat for itself is then a best reply to itself).
func TestSeatReplyBeatsEveryPolicy(t *testing.T) {
	ctx := context.Background()
	opponents := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity}
	n := bySize(4, 5, 8)
	for mi, rm := range replyModels {
		for _, players := range []int{3, 5} {
			for xi, x := range opponents {
				if rm.m.Variant.Flips == rules.FlipsBlind && x == rules.PolicyParity || rm.slow && players > 3 && testing.Short() {
					continue
				}
				// Under -short five seats play against one of the opponents, in turn by model.
				if testing.Short() && players > 3 && xi != mi%len(opponents) {
					continue
				}
				t.Run(fmt.Sprintf("%s/p=%d/%s", rm.name, players, x), func(t *testing.T) {
					st := fullDeal(rm.m, n)
					seat0 := func(p rules.Policy) *big.Rat {
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, exact.Lineup{Players: players, Policy: p, Opponent: x}, st)
						if err != nil {
							t.Fatalf("%s against %s: %v", p, x, err)
						}
						return res.ExpectedPairs
					}
					reply := seat0(rules.PolicyBestResponse)
					for _, y := range opponents {
						if rm.m.Variant.Flips == rules.FlipsBlind && y == rules.PolicyParity {
							continue
						}
						v := seat0(y)
						if reply.Cmp(v) < 0 {
							t.Errorf("best reply %s < %s's %s", reply.RatString(), y, v.RatString())
						}
						if y == x && x == rules.PolicyOptimal && rm.m.Memory.Perfect() && reply.Cmp(v) != 0 {
							t.Errorf("best reply to optimal %s, optimal itself %s", reply.RatString(), v.RatString())
						}
					}
				})
			}
		}
	}
}

// fullDeal returns the full deal of n pairs in model m.
func fullDeal(m exact.Model, n int) rules.State {
	return rules.State{N: n, J: n, S: m.Singletons, F: m.Singletons}
}

// TestSeatReplyTable checks that the reply's table, played as a table against the same
// opponents, gives the reply's values (at four seats; in the slow models without -short only).
func TestSeatReplyTable(t *testing.T) {
	ctx := context.Background()
	n := bySize(4, 6, 6)
	for _, rm := range replyModels {
		if rm.slow && testing.Short() {
			continue
		}
		for _, x := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
			t.Run(fmt.Sprintf("%s/%s", rm.name, x), func(t *testing.T) {
				mu := exact.Lineup{Players: 4, Policy: rules.PolicyBestResponse, Opponent: x}
				tab, err := exact.PolicyTable(ctx, field.Rat{}, rm.m, mu, n)
				if err != nil {
					t.Fatal(err)
				}
				st := fullDeal(rm.m, n)
				want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, rm.m, exact.Lineup{Players: 4, Table: tab, Opponent: x}, st)
				if err != nil {
					t.Fatal(err)
				}
				if ratsString(got.PairsBySeat) != ratsString(want.PairsBySeat) {
					t.Errorf("table played: %s, reply: %s", ratsString(got.PairsBySeat), ratsString(want.PairsBySeat))
				}
			})
		}
	}
}

// TestSeatReplyRefusals checks the lineups and models a best reply at three or more seats is not
// solved for.
func TestSeatReplyRefusals(t *testing.T) {
	B, S := rules.PolicyBestResponse, rules.PolicySafe
	tab, err := rules.FixedChoiceTable(S, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		m    exact.Model
		mu   exact.Lineup
		want string
	}{
		{"two replies", exact.Model{}, exact.SeatLineup(B, S, B), "one seat replies to the others, not 2"},
		{"replies at every other seat", exact.Model{}, exact.Lineup{Players: 3, Policy: S, Opponent: B}, "one seat replies to the others, not 2"},
		{"replies beside a table", exact.Model{}, exact.Lineup{Players: 3, Table: tab, Opponent: B}, "the other seats do not reply to seat 0's table"},
		{"two replies to win", exact.Model{}, exact.SeatLineup(rules.PolicyWinBestResponse, S, rules.PolicyWinBestResponse), "one seat replies to the others, not 2"},
		{"reply to win beside win-optimal and safe", exact.Model{}, exact.SeatLineup(rules.PolicyWinBestResponse, rules.PolicyWinOptimal, S),
			"replies to win-optimal at every other seat or to optimal, safe, daring and parity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.mu.Validate(c.m)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Validate: %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestCardLevelSeatWinReply compares every seat's P(most pairs) and expected pairs, one seat
// playing win-best-response, with the card-level search in which that seat takes, at every turn,
// the choice that gives it the largest P(most pairs), and the others follow their policies
// (win-optimal seats taking the best for themselves too).
func TestCardLevelSeatWinReply(t *testing.T) {
	ctx := context.Background()
	B, W, O, S, D, P := rules.PolicyWinBestResponse, rules.PolicyWinOptimal, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	full := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}
	type tc struct {
		n, s int
		pols []rules.Policy
	}
	var cases []tc
	for n := 1; n <= 3; n++ {
		cases = append(cases, tc{n, 0, []rules.Policy{B, S, S}}, tc{n, 0, []rules.Policy{B, D, D}},
			tc{n, 0, []rules.Policy{B, P, P}}, tc{n, 0, []rules.Policy{B, O, O}}, tc{n, 0, []rules.Policy{B, W, W}})
	}
	cases = append(cases, tc{3, 0, []rules.Policy{S, B, D}}, tc{2, 1, []rules.Policy{B, S, S}}, tc{2, 0, []rules.Policy{B, S, D, P}})
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,s=%d/%v", c.n, c.s, c.pols), func(t *testing.T) {
			m := exact.Model{Singletons: c.s}
			seats := replyDecisions(t, m, c.pols, c.n)
			for i, p := range c.pols {
				if p == W {
					seats[i] = nil
				}
			}
			w := &winSearch{n: c.n, s: c.s, players: len(c.pols), choices: full, memo: map[string][4][]*big.Rat{}, seats: seats}
			want := w.value(1<<(2*c.n+c.s)-1, 0, make([]int, len(c.pols)), 0)
			st := rules.State{N: c.n, J: c.n, S: c.s, F: c.s}
			got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(c.pols...), st)
			if err != nil {
				t.Fatal(err)
			}
			if ratsString(got.ScoreBySeat) != ratsString(want[wsScore]) {
				t.Errorf("score: solver %s, card level %s", ratsString(got.ScoreBySeat), ratsString(want[wsScore]))
			}
			if ratsString(got.PairsBySeat) != ratsString(want[wsPairs]) {
				t.Errorf("pairs: solver %s, card level %s", ratsString(got.PairsBySeat), ratsString(want[wsPairs]))
			}
		})
	}
}

// TestSeatWinReplyBeatsEveryPolicy checks that seat 0's best reply to win against every other
// seat playing a fixed policy or optimal's table gives it at least the P(most pairs) of each of
// optimal, safe, daring and parity in its place. (Against win-optimal the others would not be
// fixed: a win-optimal seat beside another policy replies to it.)
func TestSeatWinReplyBeatsEveryPolicy(t *testing.T) {
	ctx := context.Background()
	all := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity}
	n := bySize(3, 3, 6)
	for _, x := range all {
		t.Run(fmt.Sprintf("p=3/%s", x), func(t *testing.T) {
			st := fullDeal(exact.Model{}, n)
			score := func(p rules.Policy) *big.Rat {
				res, err := exact.EvaluateStandings[*big.Rat](ctx, field.Rat{}, exact.Model{}, exact.SeatLineup(p, x, x), st, nil)
				if err != nil {
					t.Fatalf("%s against %s: %v", p, x, err)
				}
				return res.Score[0]
			}
			reply := score(rules.PolicyWinBestResponse)
			for _, y := range all {
				if v := score(y); reply.Cmp(v) < 0 {
					t.Errorf("best reply %s < %s's %s", reply.RatString(), y, v.RatString())
				}
			}
		})
	}
}
