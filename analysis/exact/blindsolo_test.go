package exact

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// blindDeals lists every deal of n pairs: every distinct sequence of the faces 0, 0, 1, 1, ...,
// n-1, n-1, each equally likely under a uniform shuffle.
func blindDeals(n int) [][]int {
	left := make([]int, n)
	for i := range left {
		left[i] = 2
	}
	var deals [][]int
	deal := make([]int, 0, 2*n)
	var rec func()
	rec = func() {
		if len(deal) == 2*n {
			deals = append(deals, append([]int(nil), deal...))
			return
		}
		for f := range left {
			if left[f] > 0 {
				left[f]--
				deal = append(deal, f)
				rec()
				deal = deal[:len(deal)-1]
				left[f]++
			}
		}
	}
	rec()
	return deals
}

// naiveBlindTurns plays one deal card by card with the naive strategy: take a pair both of whose
// cards have been seen; otherwise turn up the two leftmost cards never seen, or the last one and
// the leftmost seen card.
func naiveBlindTurns(deal []int) int {
	gone := make([]bool, len(deal))
	seen := make([]bool, len(deal))
	turns := 0
	for left := len(deal); left > 0; turns++ {
		a, b := -1, -1
		for x := range deal { // a pair known whole
			for y := x + 1; y < len(deal) && a < 0; y++ {
				if !gone[x] && !gone[y] && seen[x] && seen[y] && deal[x] == deal[y] {
					a, b = x, y
				}
			}
		}
		var unseen, known []int
		for x := range deal {
			switch {
			case gone[x]:
			case seen[x]:
				known = append(known, x)
			default:
				unseen = append(unseen, x)
			}
		}
		switch {
		case a >= 0:
		case len(unseen) >= 2:
			a, b = unseen[0], unseen[1]
		default:
			a, b = unseen[0], known[0]
		}
		seen[a], seen[b] = true, true
		if deal[a] == deal[b] {
			gone[a], gone[b] = true, true
			left -= 2
		}
	}
	return turns
}

// blindOptimum is the fewest expected turns of blind solitaire from an information state, found
// by trying every two cards on the table at every turn over the deals consistent with what has
// been seen: removed and seen are sets of positions, deals the indices of the consistent deals.
type blindOptimum struct {
	deals [][]int
	memo  map[string]*big.Rat
}

func (o *blindOptimum) value(removed, seen uint32, deals []int) *big.Rat {
	size := len(o.deals[0])
	if removed == 1<<size-1 {
		return new(big.Rat)
	}
	key := fmt.Sprint(removed, seen, o.faces(seen&^removed, deals[0]))
	if v, ok := o.memo[key]; ok {
		return v
	}
	var best *big.Rat
	for a := 0; a < size; a++ {
		for b := a + 1; b < size; b++ {
			if removed&(1<<a|1<<b) != 0 {
				continue
			}
			d := o.deals[deals[0]]
			if seen&(1<<a) != 0 && seen&(1<<b) != 0 && d[a] != d[b] {
				continue // two seen cards that are no pair: a turn that changes nothing
			}
			parts := map[[2]int][]int{}
			for _, i := range deals {
				k := [2]int{o.deals[i][a], o.deals[i][b]}
				parts[k] = append(parts[k], i)
			}
			v := big.NewRat(1, 1)
			for k, part := range parts {
				r, s := removed, seen|1<<a|1<<b
				if k[0] == k[1] {
					r |= 1<<a | 1<<b
				}
				w := new(big.Rat).Mul(o.value(r, s, part), big.NewRat(int64(len(part)), int64(len(deals))))
				v.Add(v, w)
			}
			if best == nil || v.Cmp(best) < 0 {
				best = v
			}
		}
	}
	o.memo[key] = best
	return best
}

// faces writes the faces of the positions in set, as one consistent deal shows them.
func (o *blindOptimum) faces(set uint32, deal int) string {
	var b strings.Builder
	for x, f := range o.deals[deal] {
		if set&(1<<x) != 0 {
			fmt.Fprintf(&b, "%d:%d ", x, f)
		}
	}
	return b.String()
}

// The count-state values of blind solitaire are those of the card game: the naive strategy
// played on every deal of up to 5 pairs, and the optimum found by trying every two cards at every
// turn on every deal of up to 3 pairs.
func TestBlindSolitaireMatchesEveryDeal(t *testing.T) {
	ctx := context.Background()
	naive, err := BlindSolitaire(ctx, BlindNaive, 5)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := BlindSolitaire(ctx, BlindOptimal, 3)
	if err != nil {
		t.Fatal(err)
	}
	maxN := testSize(3, 4, 5) // 113,400 deals of 5 pairs
	for n := 1; n <= maxN; n++ {
		deals := blindDeals(n)
		total := 0
		for _, d := range deals {
			total += naiveBlindTurns(d)
		}
		if want := big.NewRat(int64(total), int64(len(deals))); naive[n][n].Turns.Cmp(want) != 0 {
			t.Errorf("naive, %d pairs: %s turns, every deal played gives %s", n, naive[n][n].Turns.RatString(), want.RatString())
		}
		if n > 3 {
			continue
		}
		o := &blindOptimum{deals: deals, memo: map[string]*big.Rat{}}
		all := make([]int, len(deals))
		for i := range all {
			all[i] = i
		}
		if want := o.value(0, 0, all); opt[n][n].Turns.Cmp(want) != 0 {
			t.Errorf("optimal, %d pairs: %s turns, every move tried on every deal gives %s", n, opt[n][n].Turns.RatString(), want.RatString())
		}
	}
}

// By hand, 2 pairs, naive: two unseen cards match with probability 1/3 (then one turn more),
// otherwise both pairs are half seen and the next two unseen cards make both known: 3 more turns.
// 1/3 * 2 + 2/3 * 4 = 10/3. The optimum names a seen card and an unseen one in (2, 0): half the time
// its partner (1 + 1 turns), half the time the other pair's (2 + 1): 5/2, so 1/3 * 2 + 2/3 * 7/2 = 3.
func TestBlindSolitaireTwoPairs(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		p      BlindPolicy
		want   string
		choice BlindChoice
	}{{BlindNaive, "10/3", BlindUnseenPair}, {BlindOptimal, "3", BlindSeenUnseen}} {
		cells, err := BlindSolitaire(ctx, tc.p, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got := cells[2][2].Turns.RatString(); got != tc.want {
			t.Errorf("policy %d: (2, 2) takes %s turns, want %s", tc.p, got, tc.want)
		}
		if got := cells[2][0].Choice; got != tc.choice {
			t.Errorf("policy %d: (2, 0) plays %s, want %s", tc.p, got, tc.choice)
		}
	}
	if _, err := BlindSolitaire(ctx, BlindNaive, 0); err == nil {
		t.Error("0 pairs accepted")
	}
}
