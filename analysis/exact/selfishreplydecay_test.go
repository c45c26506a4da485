package exact_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCardLevelSeatReplyDecay checks a best reply at three and four seats under decay forgetting
// against value iteration on the card-level turns in which the replying seat takes, at every
// turn, the first choice (daring, safe, known-first) of the most expected pairs for itself, and
// every other seat plays its policy (optimal following the table of every seat for itself).
func TestCardLevelSeatReplyDecay(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	B, O, S, D := rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lineups := [][]rules.Policy{{B, S, S}, {S, B, D}, {B, O, O}, {D, O, B, S}}
	for _, dc := range decayCases() {
		if dc.mem.Decay != 0.25 && testing.Short() {
			continue
		}
		chain, err := decayChain(dc.card, maxN)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem}
		for _, pols := range lineups {
			t.Run(fmt.Sprintf("%v/%v", dc.card, pols), func(t *testing.T) {
				p := len(pols)
				decide := anyDecide(t, selfishTable(t, model, p, maxN))
				want := chain.iterateReply(pols, decide)
				for st, w := range want {
					res, err := exact.Evaluate(ctx, field.Float{}, model, exact.SeatLineup(pols...), st)
					if err != nil {
						t.Fatalf("%v: %v", st, err)
					}
					for s := range p {
						if math.Abs(res.PairsBySeat[s]-w[s]) > 1e-9 {
							t.Errorf("%v: pairs by seat %v, card level %v", st, res.PairsBySeat, w)
							break
						}
					}
				}
			})
		}
	}
}

// iterateReply returns every seat's expected pairs in every state of the chain with seat 0 to
// move, the seat of pols that plays best-response taking in every state the first choice of the
// most expected pairs for itself (ties within 1e-12), every other seat r playing pols[r] (optimal
// following decide), by iterating to a fixed point.
func (ch cardChain) iterateReply(pols []rules.Policy, decide func(rules.State) rules.Choice) map[rules.State][]float64 {
	p := len(pols)
	// v[r][st][s]: seat s's expected pairs when seat r is to move in st.
	v := make([]map[rules.State][]float64, p)
	for r := range v {
		v[r] = map[rules.State][]float64{}
		for st := range ch {
			v[r][st] = make([]float64, p)
		}
	}
	get := func(r int, st rules.State) []float64 {
		if st.N == 0 {
			return make([]float64, p)
		}
		return v[r][st]
	}
	// after returns every seat's expected pairs when seat r makes choice c in st.
	after := func(r int, st rules.State, c rules.Choice) []float64 {
		nv := make([]float64, p)
		for _, s := range ch[st][c] {
			mover, gain := r, s.key.moverGain
			if !s.key.cont {
				mover, gain = (r+1)%p, s.key.nextGain
			}
			next := get(mover, s.key.next)
			for i := range nv {
				x := next[i]
				if i == mover {
					x += float64(gain)
				}
				nv[i] += s.p * x
			}
		}
		return nv
	}
	for range 1_000_000 {
		delta := 0.0
		for st := range ch {
			for r := range p {
				var nv []float64
				switch pols[r] {
				case rules.PolicyBestResponse:
					for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
						if _, ok := ch[st][c]; !ok {
							continue
						}
						if x := after(r, st, c); nv == nil || x[r] > nv[r]+1e-12 {
							nv = x
						}
					}
				case rules.PolicyOptimal:
					nv = after(r, st, decide(st))
				default:
					nv = after(r, st, pols[r].Decide(st))
				}
				for i := range nv {
					delta = math.Max(delta, math.Abs(nv[i]-v[r][st][i]))
				}
				v[r][st] = nv
			}
		}
		if delta < 1e-14 {
			return v[0]
		}
	}
	panic("value iteration did not converge")
}

// TestCardLevelSeatReplyStreak checks a best reply at three and four seats under decay forgetting
// and limited memory with a pass rule against value iteration on the card-level turns in which the
// replying seat takes, at every turn and pass streak, the first choice (daring, safe, known-first,
// pass) of the most expected pairs for itself, and every other seat plays its policy (optimal
// following the table of every seat for itself at the streak, fixed policies never passing).
func TestCardLevelSeatReplyStreak(t *testing.T) {
	const maxN = 3
	ctx := context.Background()
	B, O, S, D := rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lineups := [][]rules.Policy{{B, S, S}, {D, B, O}, {S, D, B, S}}
	for _, sc := range streakCases() {
		chain := sc.chain(t, sc.card, sc.rule, maxN)
		model := exact.Model{Memory: sc.mem, Pass: sc.rule}
		for _, pols := range lineups {
			t.Run(fmt.Sprintf("%v/%s/%v", sc.mem, sc.rule, pols), func(t *testing.T) {
				p := len(pols)
				cells := streakCells(t, model, p, maxN)
				v := chain.iterateReply(pols, func(st rules.State, l int) rules.Choice {
					return cells[streakKey{st.N, st.J, l}].Choice
				})
				for st := range chain.chain {
					res, err := exact.Evaluate(ctx, field.Float{}, model, exact.SeatLineup(pols...), st)
					if err != nil {
						t.Fatalf("%v: %v", st, err)
					}
					want := v[streakSeat{st, 0, 0}]
					for s := range p {
						if math.Abs(res.PairsBySeat[s]-want[s]) > 1e-9 {
							t.Errorf("%v: pairs by seat %v, card level %v", st, res.PairsBySeat, want)
							break
						}
					}
				}
			})
		}
	}
}

// iterateReply returns the values of every seat r playing pols[r] (optimal following decide at
// the streak), the seat that plays best-response taking the first legal choice, in the order of
// rules.Choices, of the most expected pairs for itself (ties within 1e-12), by value iteration to
// a fixed point.
func (sc streakChain) iterateReply(pols []rules.Policy, decide func(st rules.State, l int) rules.Choice) streakValues {
	p := len(pols)
	v := streakValues{}
	for st := range sc.chain {
		for r := range p {
			for l := range p {
				v[streakSeat{st, r, l}] = make([]float64, p)
			}
		}
	}
	for range 1_000_000 {
		delta := 0.0
		for key := range v {
			var nv []float64
			switch r := key.mover; pols[r] {
			case rules.PolicyBestResponse:
				legal := sc.legalChoices(key.st)
				for _, c := range rules.Choices() {
					if !slices.Contains(legal, c) {
						continue
					}
					if x := sc.choiceValue(v, key.st, r, key.level, p, c); nv == nil || x[r] > nv[r]+1e-12 {
						nv = x
					}
				}
			case rules.PolicyOptimal:
				nv = sc.choiceValue(v, key.st, r, key.level, p, decide(key.st, key.level))
			default:
				nv = sc.choiceValue(v, key.st, r, key.level, p, pols[r].Decide(key.st))
			}
			for i := range nv {
				delta = math.Max(delta, math.Abs(nv[i]-v[key][i]))
			}
			v[key] = nv
		}
		if delta < 1e-14 {
			return v
		}
	}
	panic("value iteration did not converge")
}
