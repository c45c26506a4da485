package sim

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"testing"

	"memsim/sim/rules"
)

// randomLimitedMemories returns the memories of players seats that make one limited memory: one
// shared memory of a random discipline, or lru memories of one capacity in random scopes.
func randomLimitedMemories(r *rand.Rand, players int) []rules.Memory {
	capacity := 2 + r.IntN(8)
	var m rules.Memory
	switch r.IntN(5) {
	case 0:
		m = rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	case 1:
		m = rules.Memory{Forget: rules.ForgetDecay, Decay: []float64{0.05, 0.1, 0.3, 1}[r.IntN(4)]}
	case 2:
		m = rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: []float64{0.05, 0.2, 0.5}[r.IntN(3)]}
	default:
		m = rules.Memory{Capacity: capacity, Forget: rules.ForgetLRU}
	}
	out := make([]rules.Memory, players)
	for i := range out {
		out[i] = m
		if m.Forget == rules.ForgetLRU && r.IntN(2) == 0 {
			out[i].Scope = rules.ScopePrivate
		}
	}
	return out
}

// The limited-memory path plays exactly the game the general path plays (which a log forces):
// the same outcome, lucky matches, error and random numbers drawn, for every discipline, shared
// and private lru memories, capacities from 2 to 9, every kind of table, pass rule and number of
// seats.
func TestLimitedPathIsTheGeneralPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	games, setups, errs := 0, 0, 0
	perKind := map[memKind]int{}
	gamesPer, sizes := 150, []int{1, 2, 3, 5, 8, 13, 26, 52}
	if testing.Short() {
		gamesPer, sizes = 10, sizes[:7]
	}
	for _, n := range sizes {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			for players := 1; players <= 4; players++ {
				for rep := range 6 {
					mems := randomLimitedMemories(r, players)
					var ps []Player
					for i := range players {
						var tab *rules.ChoiceTable
						switch (i + rep) % 4 {
						case 0:
							tab = randomTable(t, r, n, pass)
							if rep == 5 {
								tab = holeyTable(t, r, tab, n) // games that end in an error
							}
						case 1:
							tab, _ = rules.FixedChoiceTable(rules.PolicyParity, n, 0)
						case 2:
							tab, _ = rules.FixedChoiceTable(rules.PolicySafe, n, 0)
						default:
							tab, _ = rules.FixedChoiceTable(rules.PolicyDaring, n, 0)
						}
						ps = append(ps, Player{Name: fmt.Sprint("p", i), Memory: mems[i], Table: tab})
					}
					g, err := NewGame(Setup{Pairs: n, Pass: pass, Players: ps})
					if err != nil {
						t.Fatal(err)
					}
					if !g.limited || g.fast {
						t.Fatalf("%v: the setup does not take the limited-memory path", mems)
					}
					setups++
					perKind[g.lean.kind]++
					for k := range uint64(gamesPer) {
						id := GameID{Seed: 9, DealStream: uint64(n), PlayStream: uint64(players*10 + rep), Index: k}
						errLean := g.Play(id, nil)
						lean, leanLucky, leanRNG, leanTurn := *g.Outcome(), g.lucky, g.play, g.turn
						lean.Pairs = append([]int(nil), lean.Pairs...)
						lean.Share = append([]int(nil), lean.Share...)
						var log Log
						errGeneral := g.Play(id, &log)
						if fmt.Sprint(errLean) != fmt.Sprint(errGeneral) || leanTurn != g.turn {
							t.Fatalf("n=%d pass %s, %v, game %d: limited path error %v (turn %d), general path %v (turn %d)",
								n, pass, mems, k, errLean, leanTurn, errGeneral, g.turn)
						}
						if errLean != nil {
							errs++
							continue
						}
						if general := *g.Outcome(); !reflect.DeepEqual(lean, general) || leanLucky != g.lucky || leanRNG != g.play {
							t.Fatalf("n=%d pass %s, %v, game %d: limited path %+v (lucky %d, rng %x), general path %+v (lucky %d, rng %x)",
								n, pass, mems, k, lean, leanLucky, leanRNG.s, general, g.lucky, g.play.s)
						}
						games++
					}
				}
			}
		}
	}
	t.Logf("%d setups, %d games compared (%d more ended in the same error); setups per discipline: %v", setups, games, errs, perKind)
	for _, k := range []memKind{memLRU, memHandover, memDecay} {
		if perKind[k] == 0 {
			t.Errorf("no setup of memory kind %d", k)
		}
	}
}

// holeyTable returns a copy of tab with no choice in a few states.
func holeyTable(t *testing.T, r *rand.Rand, tab *rules.ChoiceTable, n int) *rules.ChoiceTable {
	t.Helper()
	out, err := rules.NewChoiceTable(n, 0)
	if err != nil {
		t.Fatal(err)
	}
	for pairs := 0; pairs <= n; pairs++ {
		for j := 0; j <= pairs; j++ {
			for _, after := range []bool{false, true} {
				st := rules.State{N: pairs, J: j}
				if c, ok := tab.Lookup(st, after); ok && r.IntN(10) != 0 {
					out.Set(st, after, c)
				}
			}
		}
	}
	return out
}

// Setups whose memories are not one limited memory take the general path.
func TestLimitedPathEligibility(t *testing.T) {
	tab, _ := rules.FixedChoiceTable(rules.PolicyParity, 4, 0)
	lru := func(c int, s rules.Scope) rules.Memory {
		return rules.Memory{Capacity: c, Forget: rules.ForgetLRU, Scope: s}
	}
	hu := func(c int, s rules.Scope) rules.Memory {
		return rules.Memory{Capacity: c, Forget: rules.ForgetHandoverUniform, Scope: s}
	}
	for _, c := range []struct {
		mems []rules.Memory
		want bool
	}{
		{[]rules.Memory{lru(3, rules.ScopePrivate), lru(3, rules.ScopeShared)}, true},
		{[]rules.Memory{lru(3, rules.ScopePrivate), lru(4, rules.ScopePrivate)}, false},
		{[]rules.Memory{hu(3, rules.ScopeShared), hu(3, rules.ScopeShared)}, true},
		{[]rules.Memory{hu(3, rules.ScopePrivate), hu(3, rules.ScopePrivate)}, false},
		{[]rules.Memory{hu(3, rules.ScopePrivate)}, true},
		{[]rules.Memory{{}, lru(3, rules.ScopePrivate)}, false},
		{[]rules.Memory{{}, {}}, false},
	} {
		var ps []Player
		for i, m := range c.mems {
			ps = append(ps, Player{Name: fmt.Sprint(i), Memory: m, Table: tab})
		}
		g, err := NewGame(Setup{Pairs: 4, Players: ps})
		if err != nil {
			t.Fatal(err)
		}
		if g.limited != c.want {
			t.Errorf("%v: limited-memory path %v, want %v", c.mems, g.limited, c.want)
		}
	}
}

// decayThreshold turns the decay test r.float64() < q into an integer comparison with the same
// answer for every random number.
func TestDecayThreshold(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	qs := []float64{1, 0.5, 0.1, 0.3, 1e-9, math.Nextafter(1, 0), 0.05}
	for range 200 {
		qs = append(qs, r.Float64())
	}
	for _, q := range qs {
		thr := decayThreshold(q)
		k := uint64(math.Ceil(q * (1 << 53)))
		xs := []uint64{0, math.MaxUint64, (k - 1) << 11, k << 11, (k + 1) << 11, k<<11 - 1, k<<11 + 2047}
		for range 1000 {
			xs = append(xs, r.Uint64())
		}
		for _, x := range xs {
			want := float64(x>>11)/(1<<53) < q // rng.float64 of a random number x
			if got := x>>11 < thr; got != want {
				t.Fatalf("q=%v, x=%#x: threshold says %v, float64 %v", q, x, got, want)
			}
		}
	}
}

// decayDraws gives the decisions and the state of n calls of next, each compared as
// memory.handOver compares it.
func TestDecayDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		q := []float64{0.05, 0.1, 0.5, 1e-9, math.Nextafter(1, 0), r.Float64()}[r.IntN(6)]
		thr := decayThreshold(q)
		n := r.IntN(65)
		g := rng{s: r.Uint64()}
		hit, after := decayDraws(g.s, thr<<11, n, wyIncrement, wyMixConstant)
		var want uint64
		for k := range n {
			if g.float64() < q {
				want |= 1 << (63 - k)
			}
		}
		if hit != want || after != g.s {
			t.Fatalf("q=%v n=%d: mask %x state %x, next gives %x and %x", q, n, hit, after, want, g.s)
		}
	}
}

// intn draws what the multiply-and-reject loop it replaced drew, rejections included (large n
// reject often).
func TestIntnIsLemire(t *testing.T) {
	reference := func(r *rng, n int) int {
		hi, lo := bits.Mul64(r.next(), uint64(n))
		if lo < uint64(n) {
			thresh := -uint64(n) % uint64(n)
			for lo < thresh {
				hi, lo = bits.Mul64(r.next(), uint64(n))
			}
		}
		return int(hi)
	}
	src := rand.New(rand.NewPCG(11, 12))
	for range 100000 {
		n := 1 + src.IntN(100)
		if src.IntN(2) == 0 {
			n = 1 + int(src.Uint64()>>1) // up to 2^63: rejection is frequent
		}
		a := rng{s: src.Uint64()}
		b := a
		if x, y := a.intn(n), reference(&b, n); x != y || a != b {
			t.Fatalf("n=%d: intn %d (state %x), reference %d (state %x)", n, x, a.s, y, b.s)
		}
	}
}
