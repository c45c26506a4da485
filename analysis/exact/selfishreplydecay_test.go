package exact_test

import (
	"context"
	"fmt"
	"math"
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
