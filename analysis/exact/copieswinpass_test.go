package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesWinPassTwoEqualsPairModel checks that with two copies of a face under pass rules
// two-known and always the copies model's values to win equal the (n, j) model's (win.go with
// the pass flag): every choice's score, the policy's choice and the best choices in every state
// up to 5 pairs (3 with -short) at every lead a game reaches (WinTable, no pass just made), and the probabilities
// to win, draw and lose and the expected pairs from the start.
func TestCopiesWinPassTwoEqualsPairModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs := testSize(2, 3, 5)
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		m := Model{Pass: pass}
		for _, mu := range []Lineup{
			{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
			{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
			{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
			{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyWinOptimal},
		} {
			name := fmt.Sprintf("pass %s, %s vs %s", pass, mu.Policy, mu.Opponent)
			if mu.Policy.PlaysToWin() {
				err := WinTable(ctx, f, m, mu, maxPairs, func(wc *WinCell[*big.Rat]) error {
					st := wc.State
					got, err := CopiesWinChoiceValues(ctx, f, m, mu, CopiesState{Unknown: []int{st.J}, Half: []int{st.N - st.J}}, st.Lead)
					if err != nil {
						return err
					}
					if got.PolicyChoice != wc.Choice || len(got.Best) != len(wc.Best) {
						t.Errorf("%s in %v: choice %v best %v, want %v and %v", name, st, got.PolicyChoice, got.Best, wc.Choice, wc.Best)
					}
					n := 0
					for _, v := range got.Values {
						n++
						if !wc.Legal[v.Choice] || v.Score.Cmp(wc.ChoiceValue[v.Choice]) != 0 {
							t.Errorf("%s in %v, %s now: score %v, want %v", name, st, v.Choice, v.Score, wc.ChoiceValue[v.Choice])
						}
					}
					legal := 0
					for _, ok := range wc.Legal {
						if ok {
							legal++
						}
					}
					if n != legal {
						t.Errorf("%s in %v: %d legal choices, want %d", name, st, n, legal)
					}
					return nil
				})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			for n := 1; n <= maxPairs; n++ {
				st := rules.State{N: n, J: n}
				cst := CopiesState{Unknown: []int{n}, Half: []int{0}}
				got, err := CopiesWinChoiceValues(ctx, f, m, mu, cst, 0)
				if err != nil {
					t.Fatal(err)
				}
				want, err := WinDrawLoss(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if w := want[0]; got.Value.Win.Cmp(w.Win) != 0 || got.Value.Draw.Cmp(w.Draw) != 0 || got.Value.Loss.Cmp(w.Loss) != 0 {
					t.Errorf("%s, %d pairs: %v, want %v", name, n, got.Value, w)
				}
				res, err := EvaluateCopies(ctx, f, m, mu, cst)
				if err != nil {
					t.Fatal(err)
				}
				wantRes, err := Evaluate(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if diff := sameResult(res, wantRes); diff != "" {
					t.Errorf("%s, %d pairs: %s", name, n, diff)
				}
			}
		}
	}
}

// TestCopiesWinPassFloatMatchesRational checks that the copies model's values to win under pass
// rules two-known and always in float64 agree with the exact rationals, for every choice at
// every lead from the start of two faces of four cards (and three without -short).
func TestCopiesWinPassFloatMatchesRational(t *testing.T) {
	ctx := context.Background()
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		sizes := []int{4}
		if !testing.Short() {
			sizes = append(sizes, 6)
		}
		for _, pairs := range sizes {
			m := Model{Variant: rules.Variant{Copies: 4}, Pass: pass}
			mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
			st, err := StartCopiesState(pairs, 4)
			if err != nil {
				t.Fatal(err)
			}
			for d := -pairs - 1; d <= pairs+1; d++ {
				r, err := CopiesWinChoiceValues(ctx, field.Rat{}, m, mu, st, d)
				if err != nil {
					t.Fatal(err)
				}
				x, err := CopiesWinChoiceValues(ctx, field.Float{}, m, mu, st, d)
				if err != nil {
					t.Fatal(err)
				}
				if r.PolicyChoice != x.PolicyChoice || len(r.Values) != len(x.Values) {
					t.Fatalf("pass %s, %d pairs, lead %d: choice %s and %d values exact, %s and %d in float64", pass, pairs, d, r.PolicyChoice, len(r.Values), x.PolicyChoice, len(x.Values))
				}
				for i, v := range r.Values {
					w, _ := v.Win.Float64()
					dr, _ := v.Draw.Float64()
					if xv := x.Values[i]; xv.Choice != v.Choice || !nearlyEqual(xv.Win, w) || !nearlyEqual(xv.Draw, dr) {
						t.Errorf("pass %s, %d pairs, lead %d, %s: win %v draw %v exact, %v and %v in float64", pass, pairs, d, v.Choice, w, dr, xv.Win, xv.Draw)
					}
				}
			}
		}
	}
}

// nearlyEqual reports whether x and y agree to 1e-12.
func nearlyEqual(x, y float64) bool { return x-y < 1e-12 && y-x < 1e-12 }

// TestCopiesWinPassSameChoiceAtLeadZero checks that with both seats win-optimal under a pass rule
// the choice just after a pass equals the choice otherwise at lead 0, in every state a game of
// three faces of four cards (two of six) reaches: a pass is worth -max(B, 0) without the flag and
// 0 with it, B the best other choice, the same for either seat in the same state at lead 0.
func TestCopiesWinPassSameChoiceAtLeadZero(t *testing.T) {
	ctx := context.Background()
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, k := range []int{4, 6} {
			s, err := newCopiesSolver(ctx, field.Rat{}, Model{Variant: rules.Variant{Copies: k}, Pass: pass}, mu)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solveStarts(6); err != nil {
				t.Fatal(err)
			}
			passes := 0
			for at, c := range s.memo {
				w := c.win
				if w.afterPass == nil || w.afterPass == w {
					continue
				}
				a := w.afterPass
				if w.ch[0][w.at(0)] != a.ch[0][a.at(0)] {
					t.Errorf("pass %s, %v: win-optimal chooses %s, just after a pass %s", pass, vecOfKey(at.key).state(), w.ch[0][w.at(0)], a.ch[0][a.at(0)])
				}
				if w.ch[0][w.at(0)] == rules.Pass {
					passes++
				}
			}
			if pass == rules.PassAlways && passes == 0 {
				t.Errorf("pass %s, copies %d: no state in which win-optimal passes at lead 0", pass, k)
			}
		}
	}
}
