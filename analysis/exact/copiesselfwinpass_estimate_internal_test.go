package exact

import (
	"context"
	"fmt"
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

// TestCopiesSelfWinLimitCellsCountsAllocatedStreaks checks CopiesSelfWinLimitCells against the
// states the solver allocates under copies 4 from the start of a game: the states kept are at
// most the count (without a limit it bounds them), and the pass streaks the count multiplies by
// (its ratio to the count under never) are the streaks the solver's states are kept at, read from
// the memo's keys: 0 to p-1 under two-known and always when every seat plays to win (at most those
// beside seats that never pass), 0 alone under never.
func TestCopiesSelfWinLimitCellsCountsAllocatedStreaks(t *testing.T) {
	win, safe, daring := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring
	cases := []struct {
		pairs, limit int
		seats        []rules.Policy
	}{
		{6, 0, []rules.Policy{win, win, win}},
		{4, 0, []rules.Policy{win, safe, daring}},
		{4, 0, []rules.Policy{win, win, win, win}},
		{6, 5, []rules.Policy{win, win, win}},
	}
	for _, c := range cases {
		p := len(c.seats)
		mu := Lineup{Players: p, PerSeat: true}
		copy(mu.Seats[:], c.seats)
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			name := fmt.Sprintf("%d pairs, seats %v, limit %d, pass %s", c.pairs, c.seats, c.limit, pass)
			m := Model{Pass: pass}
			m.Variant.Copies, m.Variant.TurnLimit = 4, c.limit
			s, err := newCopiesSelfWin(context.Background(), field.Float{}, m, mu)
			if err != nil {
				t.Fatal(err)
			}
			st, err := StartCopiesState(c.pairs, 4)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.get(st.vec(), make([]int, p), 0, s.limit, 0); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cells := CopiesSelfWinLimitCells(c.pairs, 4, p, mu.SelfWinMixed(), c.limit, pass)
			never := CopiesSelfWinLimitCells(c.pairs, 4, p, mu.SelfWinMixed(), c.limit, rules.PassNever)
			if int64(len(s.memo)) > cells {
				t.Errorf("%s: the solver keeps %d states, more than the count %d", name, len(s.memo), cells)
			}
			// The streak byte follows the faces (two bytes a count), the standings (two bytes a
			// seat) and, under a limit, the turns left (two bytes).
			at := 2*4 + 2*p
			if c.limit > 0 {
				at += 2
			}
			seen := map[int]bool{0: true}
			for key := range s.memo {
				if s.streaks {
					seen[int(key[at])] = true
				}
			}
			// Every seat playing to win reaches every streak; safe and daring never pass, so
			// beside them fewer streaks are reached than the key holds.
			if never <= 0 || cells%never != 0 || cells/never < int64(len(seen)) || (!mu.SelfWinMixed() && cells/never != int64(len(seen))) {
				t.Errorf("%s: the count is %d, %d under never, while the solver keeps states at %d pass streaks", name, cells, never, len(seen))
			}
			for k := range len(seen) {
				if !seen[k] {
					t.Errorf("%s: no state at pass streak %d of 0 to %d", name, k, len(seen)-1)
				}
			}
		}
	}
}
