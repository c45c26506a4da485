package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"memsim/sim/rules"
)

// randomTable returns a table with a random legal choice in every state and pass flag: it
// exercises every choice, passes and stalemates included.
func randomTable(t *testing.T, r *rand.Rand, n int, pass rules.PassRule) *rules.ChoiceTable {
	t.Helper()
	all := rules.Choices()
	return randomTableOf(t, r, n, pass, all[:])
}

// randomTableOf returns a table with a random legal choice among choices (daring included) in
// every state and pass flag.
func randomTableOf(t *testing.T, r *rand.Rand, n int, pass rules.PassRule, choices []rules.Choice) *rules.ChoiceTable {
	t.Helper()
	tab, err := rules.NewChoiceTable(n, 0)
	if err != nil {
		t.Fatal(err)
	}
	for pairs := 0; pairs <= n; pairs++ {
		for j := 0; j <= pairs; j++ {
			st := rules.State{N: pairs, J: j}
			for _, after := range []bool{false, true} {
				var legal []rules.Choice
				for _, c := range choices {
					if rules.Legal(st, c, pass) {
						legal = append(legal, c)
					}
				}
				tab.Set(st, after, legal[r.IntN(len(legal))])
			}
		}
	}
	return tab
}

// The perfect-memory path plays exactly the game the general path plays (which a log forces),
// for every kind of table, pass rule and number of seats, with the list of remembered cards
// (some table chooses known-first) and with faces alone (none does).
func TestPerfectPathIsTheGeneralPath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	games, listed := 0, 0
	noKnownFirst := []rules.Choice{rules.Daring, rules.Safe, rules.Pass}
	for _, n := range []int{1, 2, 3, 5, 8, 13, 26} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			for seats := 2; seats <= 8; seats++ {
				players := seats / 2 // 1 to 4, with and without known-first
				kf := seats%2 == 0
				var ps []Player
				hasKF := false
				for i := range players {
					var tab *rules.ChoiceTable
					switch i % 3 {
					case 0:
						if kf {
							tab = randomTable(t, r, n, pass)
						} else {
							tab = randomTableOf(t, r, n, pass, noKnownFirst)
						}
						for m := 1; m <= n; m++ {
							for j := 0; j <= m; j++ {
								for _, after := range []bool{false, true} {
									if c, _ := tab.Lookup(rules.State{N: m, J: j}, after); c == rules.KnownFirst {
										hasKF = true
									}
								}
							}
						}
					case 1:
						tab, _ = rules.FixedChoiceTable(rules.PolicyParity, n, 0)
					default:
						tab, _ = rules.FixedChoiceTable(rules.PolicySafe, n, 0)
					}
					ps = append(ps, Player{Name: fmt.Sprint("p", i), Table: tab})
				}
				g, err := NewGame(Setup{Pairs: n, Pass: pass, Players: ps})
				if err != nil {
					t.Fatal(err)
				}
				if !g.fast {
					t.Fatal("the setup does not take the perfect-memory path")
				}
				if g.perfectListed != hasKF {
					t.Fatalf("n=%d: the path keeps the list of remembered cards: %v; a table chooses known-first: %v", n, g.perfectListed, hasKF)
				}
				for k := range uint64(40) {
					id := GameID{Seed: 5, DealStream: uint64(n), PlayStream: uint64(players), Index: k}
					if err := g.Play(id, nil); err != nil {
						t.Fatal(err)
					}
					fast, fastLucky := *g.Outcome(), g.lucky
					fast.Pairs = append([]int(nil), fast.Pairs...)
					fast.Share = append([]int(nil), fast.Share...)
					var log Log
					if err := g.Play(id, &log); err != nil {
						t.Fatal(err)
					}
					if general := *g.Outcome(); !reflect.DeepEqual(fast, general) || fastLucky != g.lucky {
						t.Fatalf("n=%d pass %s, %d players, game %d: perfect path %+v (lucky %d), general path %+v (lucky %d)",
							n, pass, players, k, fast, fastLucky, general, g.lucky)
					}
					games++
					if hasKF {
						listed++
					}
				}
			}
		}
	}
	t.Logf("%d games compared, %d of them with the list of remembered cards", games, listed)
	if listed == 0 || listed == games {
		t.Fatal("one of the two perfect-memory paths was not compared")
	}
}

// Tables without a choice in some states: the perfect-memory path reports the same error as the
// general path, in the same turn, and the next game on the same engine is played as the general
// path plays it.
func TestPerfectPathErrorsAreTheGeneralPath(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	errs, games := 0, 0
	noKnownFirst := []rules.Choice{rules.Daring, rules.Safe, rules.Pass}
	for _, n := range []int{2, 3, 5, 8, 13} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			for _, kf := range []bool{false, true} {
				var ps []Player
				for i := range 2 {
					tab := randomTableOf(t, r, n, pass, noKnownFirst)
					if kf {
						tab = randomTable(t, r, n, pass)
					}
					ps = append(ps, Player{Name: fmt.Sprint("p", i), Table: holeyTable(t, r, tab, n)})
				}
				g, err := NewGame(Setup{Pairs: n, Pass: pass, Players: ps})
				if err != nil {
					t.Fatal(err)
				}
				for k := range uint64(30) {
					id := GameID{Seed: 11, DealStream: uint64(n), PlayStream: 3, Index: k}
					errFast := g.Play(id, nil)
					fast, fastTurn := *g.Outcome(), g.turn
					fast.Pairs = append([]int(nil), fast.Pairs...)
					fast.Share = append([]int(nil), fast.Share...)
					errGeneral := g.Play(id, &Log{})
					if fmt.Sprint(errFast) != fmt.Sprint(errGeneral) || fastTurn != g.turn {
						t.Fatalf("n=%d pass %s, game %d: perfect path error %v (turn %d), general path %v (turn %d)",
							n, pass, k, errFast, fastTurn, errGeneral, g.turn)
					}
					if errFast != nil {
						errs++
						continue
					}
					if general := *g.Outcome(); !reflect.DeepEqual(fast, general) {
						t.Fatalf("n=%d pass %s, game %d: perfect path %+v, general path %+v", n, pass, k, fast, general)
					}
					games++
				}
			}
		}
	}
	t.Logf("%d games compared, %d more ended in the same error", games, errs)
	if errs == 0 || games == 0 {
		t.Fatal("no error, or no game without one")
	}
}
