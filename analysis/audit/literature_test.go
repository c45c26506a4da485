package audit

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// everyDeal lists every deal of n pairs: every distinct sequence of the faces 0, 0, 1, 1, ...,
// n-1, n-1, each as likely as the others under a uniform shuffle.
func everyDeal(n int) [][]int {
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

// On every deal of up to 5 pairs, a player that flips the leftmost card it has not seen, one
// after another, sees two matching cards after FirstMatchFlips flips on average.
func TestFirstMatchFlipsOnEveryDeal(t *testing.T) {
	got := FirstMatchFlips(5)
	for n := 1; n <= 5; n++ {
		deals := everyDeal(n)
		total := 0
		for _, d := range deals {
			seen := map[int]bool{}
			for i, f := range d {
				if seen[f] {
					total += i + 1
					break
				}
				seen[f] = true
			}
		}
		if want := big.NewRat(int64(total), int64(len(deals))); got[n].Cmp(want) != 0 {
			t.Errorf("%d pairs: %s flips, every deal gives %s", n, got[n].RatString(), want.RatString())
		}
	}
	if f := AuditFirstMatch(30); f.Verdict != Confirmed {
		t.Errorf("VW-FLIPS up to 30 pairs: %+v", f)
	}
}

// solitaireOptimum is the fewest expected turns of solitaire, the second card chosen after the
// first is seen, from an information state: removed and seen are sets of positions and deals the
// indices of the deals consistent with what has been seen. Every first card and every second card
// is tried, on every consistent deal.
type solitaireOptimum struct {
	deals [][]int
	memo  map[string]*big.Rat
}

func (o *solitaireOptimum) value(removed, seen uint32, deals []int) *big.Rat {
	size := len(o.deals[0])
	if removed == 1<<size-1 {
		return new(big.Rat)
	}
	d0 := o.deals[deals[0]]
	key := fmt.Sprint(removed, seen)
	for x, f := range d0 {
		if seen&^removed&(1<<x) != 0 {
			key += fmt.Sprintf(" %d:%d", x, f)
		}
	}
	if v, ok := o.memo[key]; ok {
		return v
	}
	var best *big.Rat
	for a := 0; a < size; a++ {
		if removed&(1<<a) != 0 {
			continue
		}
		byFace := map[int][]int{}
		for _, i := range deals {
			byFace[o.deals[i][a]] = append(byFace[o.deals[i][a]], i)
		}
		v := big.NewRat(1, 1)
		for _, part := range byFace {
			v.Add(v, new(big.Rat).Mul(o.second(removed, seen, a, part), big.NewRat(int64(len(part)), int64(len(deals)))))
		}
		if best == nil || v.Cmp(best) < 0 {
			best = v
		}
	}
	o.memo[key] = best
	return best
}

// second is the fewest expected turns after the first card a has been turned up (the turn itself
// not counted), over the consistent deals.
func (o *solitaireOptimum) second(removed, seen uint32, a int, deals []int) *big.Rat {
	d0 := o.deals[deals[0]]
	var best *big.Rat
	for b := range d0 {
		if b == a || removed&(1<<b) != 0 {
			continue
		}
		if seen&(1<<a) != 0 && seen&(1<<b) != 0 && d0[a] != d0[b] {
			continue // two seen cards that are no pair: a turn that changes nothing
		}
		byFace := map[int][]int{}
		for _, i := range deals {
			byFace[o.deals[i][b]] = append(byFace[o.deals[i][b]], i)
		}
		v := new(big.Rat)
		for f, part := range byFace {
			r, s := removed, seen|1<<a|1<<b
			if f == d0[a] {
				r |= 1<<a | 1<<b
			}
			v.Add(v, new(big.Rat).Mul(o.value(r, s, part), big.NewRat(int64(len(part)), int64(len(deals)))))
		}
		if best == nil || v.Cmp(best) < 0 {
			best = v
		}
	}
	return best
}

// The solver's solitaire values, which FW-BOUNDS and FW-1.75 are judged on, are the card game's:
// with n <= 3 pairs and k cards of different pairs known (positions 0..k-1 show faces 0..k-1),
// trying every first and second card at every turn on every consistent deal gives E(n, n - k).
func TestSolitaireTurnsOnEveryDeal(t *testing.T) {
	turns, err := solitaireTurns(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		deals := everyDeal(n)
		o := &solitaireOptimum{deals: deals, memo: map[string]*big.Rat{}}
		for k := 0; k <= n; k++ {
			var consistent []int
			for i, d := range deals {
				ok := true
				for x := 0; x < k; x++ {
					ok = ok && d[x] == x
				}
				if ok {
					consistent = append(consistent, i)
				}
			}
			want := o.value(0, 1<<k-1, consistent)
			if turns[n][n-k].Cmp(want) != 0 {
				t.Errorf("n = %d, k = %d: solver %s turns, every deal %s", n, k, turns[n][n-k].RatString(), want.RatString())
			}
		}
	}
}

// The bounds as published are confirmed; a lower bound raised above E(1, 0) = 1 and an upper
// bound lowered below E are refuted, naming the state.
func TestAuditSolitaireBounds(t *testing.T) {
	turns, err := solitaireTurns(context.Background(), 12)
	if err != nil {
		t.Fatal(err)
	}
	if f := AuditSolitaireBounds(turns, 1.5, 0.5, 1); f.Verdict != Confirmed {
		t.Errorf("published bounds: %+v", f)
	}
	if f := AuditSolitaireBounds(turns, 1.5, 0.5, 0.25); f.Verdict != Refuted || !strings.Contains(f.Reason, "(n = 1, k = 0)") {
		t.Errorf("lower bound 1.5n - 0.5k - 0.25: %+v", f)
	}
	if f := AuditBelow175(turns); f.Verdict != Confirmed {
		t.Errorf("FW-1.75: %+v", f)
	}
	spoilt := append([][]*big.Rat(nil), turns...)
	spoilt[5] = append([]*big.Rat(nil), turns[5]...)
	spoilt[5][2] = big.NewRat(8, 1) // k = 3: above 2n - k = 7
	if f := AuditSolitaireBounds(spoilt, 1.5, 0.5, 1); f.Verdict != Refuted || !strings.Contains(f.Reason, "(n = 5, k = 3)") {
		t.Errorf("E(5, 2) = 8: %+v", f)
	}
	spoilt[5][5] = big.NewRat(9, 1) // 9 >= 1.75 * 5
	if f := AuditBelow175(spoilt); f.Verdict != Refuted || !strings.Contains(f.Reason, "n = 5") {
		t.Errorf("E(5, 5) = 9: %+v", f)
	}
}

// zwickTable writes the solver's table of Zwick & Paterson's model in their format, each cell
// the first optimal move, with the move at (n, k) = flip replaced by one that is not optimal.
func zwickTable(t *testing.T, maxN int, flip [2]int) []byte {
	t.Helper()
	code := map[rules.Choice]int{rules.Pass: 0, rules.Safe: 1, rules.Daring: 2}
	rows := map[int][]string{}
	err := exact.Table(context.Background(), field.Rat{}, ZwickPatersonModel, maxN, func(c *exact.TableCell[*big.Rat]) error {
		n, k := c.State.N, c.State.N-c.State.J
		move := code[c.Best[0]]
		if [2]int{n, k} == flip {
			for _, ch := range []rules.Choice{rules.Pass, rules.Safe, rules.Daring} {
				if !slices.Contains(c.Best, ch) {
					move = code[ch]
				}
			}
		}
		// The table visits j upwards: k downwards.
		rows[n] = append([]string{fmt.Sprint(move)}, rows[n]...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for n := 1; n <= maxN; n++ {
		fmt.Fprintf(&b, "%d: %s\n", n, strings.Join(rows[n], " "))
	}
	return []byte(b.String())
}

// The solver's own table is confirmed; one cell changed to a move that is not optimal is refuted
// and named; a row of the wrong length cannot be read.
func TestAuditZwickPaterson(t *testing.T) {
	ctx := context.Background()
	if f := AuditZwickPaterson(ctx, zwickTable(t, 9, [2]int{})); f.Verdict != Confirmed {
		t.Errorf("the solver's table: %+v", f)
	}
	f := AuditZwickPaterson(ctx, zwickTable(t, 9, [2]int{8, 5}))
	if f.Verdict != Refuted || !strings.Contains(f.Reason, "1 of 54") || !strings.Contains(f.Reason, "(n=8, k=5)") {
		t.Errorf("(8, 5) changed: %+v", f)
	}
	if f := AuditZwickPaterson(ctx, []byte("1: 2 1\n2: 2 1\n")); f.Verdict != Inconclusive {
		t.Errorf("a short row: %+v", f)
	}
}

// PX-BLIND is confirmed in memsim's blind solitaire, whose values exact's tests check on every deal.
func TestAuditBlind(t *testing.T) {
	turns, err := solitaireTurns(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	f := AuditBlind(context.Background(), turns)
	if f.Verdict != Confirmed || !strings.Contains(f.Detail, "| 5 | 85/9 (9.4444) | 85/9 (9.4444) | 9 (9.0000) | 793/105 (7.5524) |") {
		t.Errorf("%+v", f)
	}
}

// FW-RATIO: a curve whose slope at its end lies in the interval, as 3 - 2 ln 2 does, is
// confirmed; an interval without 3 - 2 ln 2 (1.6137056...) is refuted; a slope outside an interval
// that holds the limit is inconclusive.
func TestAuditRatio(t *testing.T) {
	line := func(slope float64) SolitaireCurves {
		c := SolitaireCurves{Turns: make([]float64, 1001)}
		for n := range c.Turns {
			c.Turns[n] = slope*float64(n) + 0.5
		}
		return c
	}
	for _, tc := range []struct {
		slope, lo, hi float64
		want          Verdict
	}{
		{1.6137, 1.613603, 1.613706, Confirmed},
		{1.6137, 1.6136, 1.6137, Refuted},
		{1.6138, 1.613603, 1.613706, Inconclusive},
	} {
		if f := AuditRatio(line(tc.slope), tc.lo, tc.hi); f.Verdict != tc.want {
			t.Errorf("slope %g in (%g, %g): %+v", tc.slope, tc.lo, tc.hi, f)
		}
	}
	if f := AuditRatio(SolitaireCurves{Err: context.Canceled}, 1, 2); f.Verdict != Inconclusive {
		t.Errorf("no curve: %+v", f)
	}
}
