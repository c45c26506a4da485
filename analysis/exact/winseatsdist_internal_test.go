package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// winSeatsScores returns every seat's P(most pairs) (a k-way tie giving each 1/k), P(alone with
// the most) and P(tied for the most), and its expected share, from the forward pass's joint
// distribution of the final pairs.
func winSeatsScores(j winSeatsJoint[*big.Rat], p int) (score, win, draw, mean []*big.Rat) {
	for range p {
		score, win, draw, mean = append(score, new(big.Rat)), append(win, new(big.Rat)), append(draw, new(big.Rat)), append(mean, new(big.Rat))
	}
	for k, pr := range j.final {
		most, top := int16(-1), 0
		for s := range p {
			most = max(most, k[s])
		}
		for s := range p {
			if k[s] == most {
				top++
			}
		}
		for s := range p {
			mean[s].Add(mean[s], new(big.Rat).Mul(pr, big.NewRat(int64(k[s]), int64(j.unit))))
			if k[s] != most {
				continue
			}
			score[s].Add(score[s], new(big.Rat).Mul(pr, big.NewRat(1, int64(top))))
			if top == 1 {
				win[s].Add(win[s], pr)
			} else {
				draw[s].Add(draw[s], pr)
			}
		}
	}
	return score, win, draw, mean
}

// TestWinSeatsForwardGivesTheWinSolvesValues checks the forward pass of every seat's final pairs,
// each seat reading its table by the standings, against the win solve's values (EvaluateStandings,
// a backward induction over deficits): every seat's P(most pairs), P(alone with the most),
// P(tied for the most) and expected pairs, in exact rationals, for every seat win-optimal, mixed
// lineups and win-best-response at one seat, under every pass rule, singletons and blind flips,
// lru and handover-uniform memory of a fixed capacity (where a forgotten card hands a count state
// to the next seat), from no pairs taken and from standings; and that the probabilities sum to 1 and float64 agrees.
func TestWinSeatsForwardGivesTheWinSolvesValues(t *testing.T) {
	ctx := context.Background()
	W, B, O, S, D, P := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	type tcase struct {
		m         Model
		seats     []rules.Policy
		st        rules.State
		standings []int
	}
	lru2 := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	hu3 := rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}
	cases := []tcase{
		{Model{}, []rules.Policy{W, W, W}, rules.State{N: 3, J: 3}, nil},
		{Model{}, []rules.Policy{W, S, D}, rules.State{N: 3, J: 2}, []int{0, 1, 0}},
		{Model{Pass: rules.PassAlways}, []rules.Policy{W, W, W}, rules.State{N: 3, J: 3}, nil},
		{Model{Pass: rules.PassTwoKnown}, []rules.Policy{S, B, S}, rules.State{N: 3, J: 3}, nil},
		{Model{Singletons: 1}, []rules.Policy{O, W, P}, rules.State{N: 2, J: 2, S: 1, F: 1}, nil},
		{Model{Memory: lru2}, []rules.Policy{W, W, W}, rules.State{N: 3, J: 3}, nil},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{Model{}, []rules.Policy{W, W, W}, rules.State{N: 6, J: 6}, nil},
			tcase{Model{Pass: rules.PassTwoKnown}, []rules.Policy{S, B, S}, rules.State{N: 5, J: 5}, nil},
			tcase{Model{}, []rules.Policy{W, W, W, W}, rules.State{N: 5, J: 5}, []int{1, 0, 0, 2}},
			tcase{Model{Pass: rules.PassAlways}, []rules.Policy{D, W, O}, rules.State{N: 6, J: 6}, nil},
			tcase{Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}, []rules.Policy{W, W, W}, rules.State{N: 5, J: 5}, nil},
			tcase{Model{Pass: rules.PassAlways}, []rules.Policy{D, D, B}, rules.State{N: 5, J: 4}, nil},
			tcase{Model{Memory: hu3, Pass: rules.PassAlways}, []rules.Policy{W, S, D}, rules.State{N: 3, J: 3}, nil},
			tcase{Model{Memory: lru2, Pass: rules.PassTwoKnown}, []rules.Policy{B, W, W}, rules.State{N: 3, J: 2}, nil},
			tcase{Model{Memory: hu3}, []rules.Policy{W, W, W, W}, rules.State{N: 5, J: 5}, []int{0, 1, 0, 0}},
			tcase{Model{Memory: lru2}, []rules.Policy{D, O, B}, rules.State{N: 5, J: 5}, nil},
			tcase{Model{Memory: hu3, Pass: rules.PassTwoKnown}, []rules.Policy{W, W, W}, rules.State{N: 5, J: 5}, nil},
			tcase{Model{Memory: lru2, Pass: rules.PassAlways}, []rules.Policy{S, W, W}, rules.State{N: 5, J: 5}, []int{1, 0, 0}})
	}
	for _, tc := range cases {
		mu := SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s S=%d %s/%v/%v/%v", tc.m.Pass, tc.m.Singletons, tc.m.Variant, tc.seats, tc.st, tc.standings)
		j, err := winSeatsForward(ctx, field.Rat{}, tc.m, mu, tc.st, tc.standings)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := EvaluateStandings(ctx, field.Rat{}, tc.m, mu, tc.st, tc.standings)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		score, win, draw, mean := winSeatsScores(j, len(tc.seats))
		total := new(big.Rat)
		for _, pr := range j.final {
			total.Add(total, pr)
		}
		if total.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: the final standings' probabilities add up to %s", name, total.RatString())
		}
		for s := range tc.seats {
			before := 0
			if tc.standings != nil {
				before = tc.standings[s]
			}
			taken := new(big.Rat).Sub(mean[s], big.NewRat(int64(before), 1))
			for _, c := range []struct {
				what      string
				got, want *big.Rat
			}{{"P(most pairs)", score[s], want.Score[s]}, {"P(alone)", win[s], want.Win[s]}, {"P(tied)", draw[s], want.Draw[s]}, {"pairs", taken, want.Pairs[s]}} {
				if c.got.Cmp(c.want) != 0 {
					t.Errorf("%s: seat %d: %s forward %s, win solve %s", name, s, c.what, c.got.RatString(), c.want.RatString())
				}
			}
		}
		fl, err := winSeatsForward(ctx, field.Float{}, tc.m, mu, tc.st, tc.standings)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k, pr := range j.final {
			x, _ := pr.Float64()
			if math.Abs(fl.final[k]-x) > 1e-12 {
				t.Errorf("%s: standings %v: float64 %.15f, exact %.15f", name, k, fl.final[k], x)
			}
		}
	}
}
