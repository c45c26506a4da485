package exact

import (
	"context"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesSelfWinMemo returns how many states the win objective of every seat for itself at p seats
// under copies 4 keeps from the start of a game of n pairs under the pass rule pass.
func copiesSelfWinMemo(t *testing.T, n, p int, pass rules.PassRule) int {
	t.Helper()
	m := Model{Pass: pass}
	m.Variant.Copies = 4
	mu := Lineup{Players: p, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	st, err := StartCopiesState(n, 4)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newCopiesSelfWin(context.Background(), field.Float{}, m, mu)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.get(st.vec(), make([]int, p), 0, s.limit, 0); err != nil {
		t.Fatalf("%d pairs, %d seats, pass %s: %v", n, p, pass, err)
	}
	return len(s.memo)
}

// TestCopiesSelfWinEstimateCountsPassStreaks checks that the cost estimate of the win objective
// at three or more seats under copies grows under a pass rule as the states the solver keeps do
// (every pass streak a state of its own): the estimate's ratio to the estimate under never is
// within a factor 1.6 of the ratio of the states kept.
func TestCopiesSelfWinEstimateCountsPassStreaks(t *testing.T) {
	cases := []struct{ pairs, players int }{{8, 3}, {6, 4}}
	if !testing.Short() {
		cases = append(cases, struct{ pairs, players int }{12, 3}, struct{ pairs, players int }{8, 4})
	}
	mu := func(p int) Lineup {
		return Lineup{Players: p, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	}
	for _, c := range cases {
		never := copiesSelfWinMemo(t, c.pairs, c.players, rules.PassNever)
		m := Model{}
		m.Variant.Copies = 4
		base, err := Estimate(m, mu(c.players), c.pairs, Options{Float: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			kept := float64(copiesSelfWinMemo(t, c.pairs, c.players, pass)) / float64(never)
			m.Pass = pass
			for _, fl := range []bool{true, false} {
				e, err := Estimate(m, mu(c.players), c.pairs, Options{Float: fl})
				if err != nil {
					t.Fatal(err)
				}
				b := base
				if !fl {
					if b, err = Estimate(Model{Variant: m.Variant}, mu(c.players), c.pairs, Options{}); err != nil {
						t.Fatal(err)
					}
				}
				if r := e.Ops / b.Ops; r < kept/1.6 || r > kept*1.6 {
					t.Errorf("%d pairs, %d seats, pass %s, float %v: the estimate is %.2f times never's, the states kept %.2f times", c.pairs, c.players, pass, fl, r, kept)
				}
				if e.Bytes <= b.Bytes {
					t.Errorf("%d pairs, %d seats, pass %s, float %v: the memory estimate %.0f is not above never's %.0f", c.pairs, c.players, pass, fl, e.Bytes, b.Bytes)
				}
			}
		}
	}
}
