package audit

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"

	"memsim/analysis/stats"
)

// duelMaxN is the largest interval the duel claims are checked on.
const duelMaxN = 200

// DuelValues returns, for the interval-halving duel on {1..n}, n = 0 .. maxN, the mover's winning
// probability with optimal play by both (P[0] = 0), and guess[n][i], the mover's winning
// probability when it guesses the (i+1)-th number and both play optimally afterwards:
// 1/n + (i/n)(1 - P(i)) + ((n-i-1)/n)(1 - P(n-i-1)).
func DuelValues(maxN int) (p []*big.Rat, guess [][]*big.Rat) {
	p = make([]*big.Rat, maxN+1)
	guess = make([][]*big.Rat, maxN+1)
	p[0] = new(big.Rat)
	one := big.NewRat(1, 1)
	for n := 1; n <= maxN; n++ {
		guess[n] = make([]*big.Rat, n)
		for i := range n {
			v := big.NewRat(1, int64(n))
			lo := new(big.Rat).Sub(one, p[i])
			v.Add(v, lo.Mul(lo, big.NewRat(int64(i), int64(n))))
			hi := new(big.Rat).Sub(one, p[n-i-1])
			v.Add(v, hi.Mul(hi, big.NewRat(int64(n-i-1), int64(n))))
			guess[n][i] = v
			if p[n] == nil || v.Cmp(p[n]) > 0 {
				p[n] = v
			}
		}
	}
	return p, guess
}

// SimulateDuel plays games duels on {1..n}, the secret drawn from a PCG generator seeded with
// (seed, n), both players guessing the lowest of the optimal numbers of the interval left. It
// returns the mover's winning frequency with the half-width of its 95% Wilson interval.
func SimulateDuel(n int, games int64, seed uint64) (win, hw float64) {
	_, guess := DuelValues(n)
	best := make([]int, n+1)
	for m := 1; m <= n; m++ {
		for i := range m {
			if guess[m][i].Cmp(guess[m][best[m]]) > 0 {
				best[m] = i
			}
		}
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	var wins int64
	for range games {
		secret := r.IntN(n)
		lo, hi, mover := 0, n, 0 // the interval [lo, hi)
		for {
			g := lo + best[hi-lo]
			if g == secret {
				break
			}
			if secret < g {
				hi = g
			} else {
				lo = g + 1
			}
			mover = 1 - mover
		}
		if mover == 0 {
			wins++
		}
	}
	lo, hi := stats.Wilson(wins, games, 0.95)
	return float64(wins) / float64(games), (hi - lo) / 2
}

// AuditDuel checks SA-2.1 (the mover wins with probability 1/2 for even N, (N+1)/(2N) for odd N)
// and SA-2.2 (for odd N exactly the guesses of the ends' parity are optimal; for even N every
// guess is) for N up to 200, and simulates games duels of N = simN (none when games is 0).
func AuditDuel(ctx context.Context, games int64, simN int) []Finding {
	p, guess := DuelValues(duelMaxN)
	f1 := Finding{ID: "SA-2.1", Claim: "the mover wins with 1/2 (N even) or (N+1)/(2N) (N odd)",
		Published: "1/2 for even N, (N + 1)/(2N) for odd N"}
	f1.Exact = fmt.Sprintf("N = 9: %s; N = 10: %s; N = 199: %s", p[9].RatString(), p[10].RatString(), p[199].RatString())
	var bad []string
	for n := 1; n <= duelMaxN; n++ {
		want := big.NewRat(1, 2)
		if n%2 == 1 {
			want = big.NewRat(int64(n+1), int64(2*n))
		}
		if p[n].Cmp(want) != 0 {
			bad = append(bad, fmt.Sprintf("N = %d: %s, not %s", n, p[n].RatString(), want.RatString()))
		}
	}
	if len(bad) == 0 {
		f1.Verdict, f1.Reason = Confirmed, fmt.Sprintf("the exact recursion gives the formula for every N = 1..%d", duelMaxN)
	} else {
		f1.Verdict, f1.Reason = Refuted, fmt.Sprintf("%d values differ, first %s", len(bad), bad[0])
	}
	if games > 0 && ctx.Err() == nil {
		w, hw := SimulateDuel(simN, games, Seed)
		f1.Simulated = fmt.Sprintf("N = %d: %s (exact %s)", simN, simString(w, hw), p[simN].FloatString(4))
	}

	f2 := Finding{ID: "SA-2.2", Claim: "odd N: guesses of the ends' parity are the good ones; even N: all equal",
		Published: "checked for N = 3..9"}
	bad = bad[:0]
	for n := 3; n <= duelMaxN; n++ {
		for i := range n { // the guess is the number i+1; the ends 1 and N are odd for odd N
			best := guess[n][i].Cmp(p[n]) == 0
			want := n%2 == 0 || (i+1)%2 == 1
			if best != want {
				bad = append(bad, fmt.Sprintf("N = %d, guess %d is %s the best", n, i+1, map[bool]string{true: "", false: "not"}[best]))
			}
		}
	}
	f2.Exact = fmt.Sprintf("the optimal guesses of every N = 3..%d", duelMaxN)
	if len(bad) == 0 {
		f2.Verdict, f2.Reason = Confirmed, fmt.Sprintf("for every N = 3..%d the optimal guesses are exactly the claimed ones", duelMaxN)
	} else {
		f2.Verdict, f2.Reason = Refuted, fmt.Sprintf("%d guesses differ, first %s", len(bad), bad[0])
	}
	return []Finding{f1, f2}
}
