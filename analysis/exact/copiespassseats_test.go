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

// TestCopiesPassSeatsTwoCopiesIsTheStandardModel checks that the copies model with two copies of a
// face at three and four seats under pass rules two-known and always, with sequential and blind
// flips, gives the standard game's pass-streak model (selfishpass.go, selfishpassvariant.go)
// exactly: in every state of faces a game of up to 6 pairs reaches (5 with -short), at every pass
// streak, every seat's expected pairs and the mover's choice of every seat's own optimum; and
// seat-by-seat lineups' values from every such state.
func TestCopiesPassSeatsTwoCopiesIsTheStandardModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxN := 6
	if testing.Short() {
		maxN = 5
	}
	type at struct{ n, j, k int }
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, p := range []int{3, 4} {
			for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
				std := Model{Pass: pass, Variant: rules.Variant{Flips: flips}}
				want := map[at]TableCell[*big.Rat]{}
				err := SelfishTable(ctx, f, std, p, maxN, func(c *TableCell[*big.Rat]) error {
					cp := *c
					cp.BySeat = append([]*big.Rat(nil), c.BySeat...)
					want[at{c.State.N, c.State.J, c.Passes}] = cp
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				m := Model{Variant: rules.Variant{Copies: 2, Flips: flips}, Pass: pass}
				all := make([]rules.Policy, p)
				for i := range all {
					all[i] = rules.PolicyOptimal
				}
				s, err := newCopiesSolver(ctx, f, m, SeatLineup(all...))
				if err != nil {
					t.Fatal(err)
				}
				start, err := StartCopiesState(maxN, 2)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.get(start.vec().key(), 0); err != nil {
					t.Fatal(err)
				}
				compared := 0
				for key, c := range s.memo {
					v := vecOfKey(key.key)
					if c.streak == nil {
						continue
					}
					n, j := v[0]+v[1], v[0]
					for k := range p {
						w, ok := want[at{n, j, k}]
						name := fmt.Sprintf("%s, %d seats, pass %s, (%d, %d) at streak %d", flips, p, pass, n, j, k)
						if !ok {
							t.Fatalf("%s: not in the standard model's table", name)
						}
						for i := range p {
							if c.streak.self[k][i].Cmp(w.BySeat[i]) != 0 {
								t.Errorf("%s: seat %d from the mover expects %v, standard %v", name, i, c.streak.self[k][i], w.BySeat[i])
							}
						}
						if c.streak.choice[k] != w.Choice {
							t.Errorf("%s: the mover chooses %s, standard %s", name, c.streak.choice[k], w.Choice)
						}
						compared++
					}
				}
				if compared < p*maxN {
					t.Errorf("%d seats, pass %s: %d states and streaks compared", p, pass, compared)
				}
				lineups := [][]rules.Policy{{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyOptimal, rules.PolicyBestResponse, rules.PolicyOptimal}}
				for _, pols := range lineups {
					for len(pols) < p {
						pols = append(pols, rules.PolicyOptimal)
					}
					mu := SeatLineup(pols...)
					for n := 1; n <= maxN; n++ {
						for j := 0; j <= n; j++ {
							name := fmt.Sprintf("%s, %d seats, pass %s, %v, (%d, %d)", flips, p, pass, pols, n, j)
							got, err := EvaluateCopies(ctx, f, m, mu, copiesVec{j, n - j}.state())
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							ref, err := Evaluate(ctx, f, std, mu, rules.State{N: n, J: j})
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							for i := range p {
								if got.PairsBySeat[i].Cmp(ref.PairsBySeat[i]) != 0 {
									t.Errorf("%s: seat %d expects %v, standard %v", name, i, got.PairsBySeat[i], ref.PairsBySeat[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestCopiesPassSeatsFloatAgrees checks the copies model at three and five seats under pass rules
// two-known and always in float64 against exact rationals: every seat's expected pairs from the
// start of 6 pairs of four copies, within 1e-12, for every seat's own optimum and a lineup of a
// policy per seat, and that the seats' values add up to the pairs.
func TestCopiesPassSeatsFloatAgrees(t *testing.T) {
	ctx := context.Background()
	start, err := StartCopiesState(6, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{3, 5} {
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			m := Model{Variant: rules.Variant{Copies: 4}, Pass: pass}
			all := make([]rules.Policy, p)
			for i := range all {
				all[i] = rules.PolicyOptimal
			}
			mixed := append([]rules.Policy{rules.PolicyBestResponse, rules.PolicySafe}, all[2:]...)
			for _, mu := range []Lineup{SeatLineup(all...), SeatLineup(mixed...)} {
				name := fmt.Sprintf("%d seats, pass %s, %s", p, pass, lineupName(mu))
				exact, err := EvaluateCopies(ctx, field.Rat{}, m, mu, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				fl, err := EvaluateCopies(ctx, field.Float{}, m, mu, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sum := 0.0
				for i := range p {
					x, _ := exact.PairsBySeat[i].Float64()
					if math.Abs(x-fl.PairsBySeat[i]) > 1e-12 {
						t.Errorf("%s: seat %d expects %v in float64, %v exactly", name, i, fl.PairsBySeat[i], x)
					}
					sum += fl.PairsBySeat[i]
				}
				if math.Abs(sum-6) > 1e-12 {
					t.Errorf("%s: the seats expect %v pairs in all, not 6", name, sum)
				}
			}
		}
	}
}
