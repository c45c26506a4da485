package audit

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The largest deals the literature's claims are checked at, exactly.
const (
	flipsMaxN    = 200 // VW-FLIPS
	boundsMaxN   = 100 // FW-BOUNDS and FW-1.75
	blindMaxN    = 100 // PX-BLIND
	zwickFile    = "zwick-paterson-table-2.txt"
	zwickClaimID = "ZP-T2"
)

// ZwickPatersonModel is Zwick & Paterson's model: perfect memory, a pass allowed when two cards
// are known (their 0-move), choices daring (their 2-move), safe (1-move) and pass.
var ZwickPatersonModel = exact.Model{Pass: rules.PassTwoKnown, Choices: rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)}

// AuditLiterature checks the claims of Velleman & Warrington on the first match seen (VW-FLIPS),
// Foerster & Wattenhofer's bounds on solitaire (FW-BOUNDS, FW-1.75, and FW-RATIO on curve, the
// solitaire expectations up to 1000 pairs), Zwick & Paterson's table of optimal moves (ZP-T2,
// read from claims) and the value of naive blind solitaire (PX-BLIND), each in its source's own
// model, exactly but for FW-RATIO (float64).
func AuditLiterature(ctx context.Context, claims fs.FS, curve SolitaireCurves) []Finding {
	out := []Finding{AuditFirstMatch(flipsMaxN)}
	solo, err := solitaireTurns(ctx, boundsMaxN)
	if err != nil {
		bad := "the solver failed: " + err.Error()
		out = append(out,
			Finding{ID: "FW-BOUNDS", Claim: fwBoundsClaim, Verdict: Inconclusive, Reason: bad},
			Finding{ID: "FW-1.75", Claim: fw175Claim, Verdict: Inconclusive, Reason: bad})
	} else {
		out = append(out, AuditSolitaireBounds(solo, 1.5, 0.5, 1), AuditBelow175(solo))
	}
	out = append(out, AuditRatio(curve, 1.613603, 1.613706))
	data, err := fs.ReadFile(claims, zwickFile)
	if err != nil {
		out = append(out, Finding{ID: zwickClaimID, Claim: zwickClaim, Verdict: Inconclusive, Reason: "the published table cannot be read: " + err.Error()})
	} else {
		out = append(out, AuditZwickPaterson(ctx, data))
	}
	return append(out, AuditBlind(ctx, solo))
}

// FirstMatchFlips returns, for n = 0..maxN pairs, the expected number of cards a solitaire player
// with perfect memory flips until two matching cards have been seen (the flip that shows a card
// whose partner was flipped before it is counted), when it flips only cards it has not seen
// until then, as the optimal player does (it plays daring, docs/models.md §4.8). Count state: s
// cards seen, all of different pairs; the next unseen card, among 2n - s, is the partner of a
// seen one with probability s/(2n - s). The expectation is the sum over s of P(the first s cards
// show s different faces).
func FirstMatchFlips(maxN int) []*big.Rat {
	out := make([]*big.Rat, maxN+1)
	for n := 0; n <= maxN; n++ {
		sum, p := new(big.Rat), big.NewRat(1, 1)
		for s := 0; s <= n; s++ {
			sum.Add(sum, p)
			if s < n {
				p.Mul(p, big.NewRat(int64(2*n-2*s), int64(2*n-s)))
			}
		}
		out[n] = sum
	}
	return out
}

// fourToTheNOverCentral is Velleman & Warrington's 4^n / C(2n, n).
func fourToTheNOverCentral(n int) *big.Rat {
	num := new(big.Int).Lsh(big.NewInt(1), uint(2*n))
	return new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(2*n), int64(n)))
}

// AuditFirstMatch checks VW-FLIPS: the expected number of flips until two matching cards have been
// seen is 4^n / C(2n, n), against FirstMatchFlips for n = 1..maxN, exactly.
func AuditFirstMatch(maxN int) Finding {
	fd := Finding{ID: "VW-FLIPS", Claim: "solitaire: expected flips until two matching cards have been seen = 4^n / C(2n, n)",
		Published: "4^n / C(2n, n), about sqrt(pi n)"}
	got := FirstMatchFlips(maxN)
	var wrong []string
	for n := 1; n <= maxN; n++ {
		if want := fourToTheNOverCentral(n); got[n].Cmp(want) != 0 {
			wrong = append(wrong, fmt.Sprintf("n = %d: %s, not %s", n, got[n].RatString(), want.RatString()))
		}
	}
	f200, _ := got[maxN].Float64()
	fd.Exact = fmt.Sprintf("n = 1: %s; n = 2: %s; n = 10: %s; n = %d: %.6f", got[1].RatString(), got[2].RatString(), ratString(got[10]), maxN, f200)
	if len(wrong) > 0 {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("%d of n = 1..%d differ: %s", len(wrong), maxN, strings.Join(firstFew(wrong, 3), "; "))
		return fd
	}
	fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the count-state expectation equals 4^n / C(2n, n) exactly for every n = 1..%d "+
		"(the optimal solitaire player flips only unseen cards until a match is seen)", maxN)
	return fd
}

// solitaireTurns returns the optimal solitaire player's expected turns, perfect memory, from
// every state (n, j) with n <= maxN: turns[n][j] (docs/models.md §4.8).
func solitaireTurns(ctx context.Context, maxN int) ([][]*big.Rat, error) {
	turns := make([][]*big.Rat, maxN+1)
	for n := range turns {
		turns[n] = make([]*big.Rat, n+1)
	}
	turns[0][0] = new(big.Rat)
	err := exact.Solitaire(ctx, field.Rat{}, exact.Model{}, rules.PolicyOptimal, maxN, func(st rules.State, t, _ *big.Rat) error {
		turns[st.N][st.J] = new(big.Rat).Set(t)
		return nil
	})
	return turns, err
}

const (
	fwBoundsClaim = "solitaire with k known cards: 1.5n - 0.5k - 1 <= E <= 2n - k"
	fw175Claim    = "solitaire from the start: E < 1.75n"
)

// AuditSolitaireBounds checks FW-BOUNDS, Foerster & Wattenhofer's bounds a n - b k - c <= E <=
// 2n - k (a = 1.5, b = 0.5, c = 1 as published) on the optimal solitaire player's expected number
// of turns E with n pairs on the table and k cards known, of k different pairs: the count state
// (n, n - k) with perfect memory, in every state of turns (solitaireTurns).
func AuditSolitaireBounds(turns [][]*big.Rat, a, b, c float64) Finding {
	fd := Finding{ID: "FW-BOUNDS", Claim: fwBoundsClaim, Published: fmt.Sprintf("%gn - %gk - %g <= E <= 2n - k, every n and k <= n", a, b, c)}
	ra, rb, rc := floatRat(a), floatRat(b), floatRat(c)
	maxN := len(turns) - 1
	var lowSlack, highSlack *big.Rat
	var lowAt, highAt string
	var wrong []string
	atUpper := 0
	for n := 1; n <= maxN; n++ {
		for k := 0; k <= n; k++ {
			e := turns[n][n-k]
			low := new(big.Rat).Sub(new(big.Rat).Mul(ra, ratInt(n)), new(big.Rat).Mul(rb, ratInt(k)))
			low.Sub(low, rc)
			high := ratInt(2*n - k)
			dl, dh := new(big.Rat).Sub(e, low), new(big.Rat).Sub(high, e)
			where := fmt.Sprintf("(n = %d, k = %d)", n, k)
			if dl.Sign() < 0 {
				wrong = append(wrong, fmt.Sprintf("%s: E = %s below %s", where, e.FloatString(4), low.FloatString(4)))
			}
			if dh.Sign() < 0 {
				wrong = append(wrong, fmt.Sprintf("%s: E = %s above %s", where, e.FloatString(4), high.RatString()))
			}
			if dh.Sign() == 0 {
				atUpper++
			}
			if lowSlack == nil || dl.Cmp(lowSlack) < 0 {
				lowSlack, lowAt = dl, where
			}
			if dh.Sign() > 0 && (highSlack == nil || dh.Cmp(highSlack) < 0) {
				highSlack, highAt = dh, where
			}
		}
	}
	fd.Exact = fmt.Sprintf("n = 1..%d, every k: E - lower bound is at least %s at %s; the upper bound is met with equality in %d states (k = n: E = n), and elsewhere E is below it by at least %s at %s",
		maxN, lowSlack.FloatString(4), lowAt, atUpper, highSlack.FloatString(4), highAt)
	if len(wrong) > 0 {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("%d states break the bounds: %s", len(wrong), strings.Join(firstFew(wrong, 3), "; "))
		return fd
	}
	fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("both bounds hold, exactly, in every state (n, n - k) with n <= %d: k counts known cards "+
		"under perfect memory, not a memory capacity", maxN)
	return fd
}

// AuditBelow175 checks FW-1.75: from the start of a deal the optimal solitaire player needs fewer
// than 1.75 n turns on average, for every n of turns (solitaireTurns).
func AuditBelow175(turns [][]*big.Rat) Finding {
	fd := Finding{ID: "FW-1.75", Claim: fw175Claim, Published: "E < 1.75n for every n (and E >= 1.5n - 1)"}
	maxN := len(turns) - 1
	var wrong []string
	best, at := 0.0, 0
	for n := 1; n <= maxN; n++ {
		e := turns[n][n]
		if e.Cmp(new(big.Rat).Mul(big.NewRat(7, 4), ratInt(n))) >= 0 {
			wrong = append(wrong, fmt.Sprintf("n = %d: E = %s", n, e.FloatString(4)))
		}
		if r, _ := new(big.Rat).Quo(e, ratInt(n)).Float64(); r > best {
			best, at = r, n
		}
	}
	f, _ := turns[maxN][maxN].Float64()
	fd.Exact = fmt.Sprintf("E/n is at most %.6f (n = %d); n = %d: E = %.4f, E/n = %.6f", best, at, maxN, f, f/float64(maxN))
	if len(wrong) > 0 {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("%d deals reach 1.75n: %s", len(wrong), strings.Join(firstFew(wrong, 3), "; "))
		return fd
	}
	fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("E < 1.75n for every n = 1..%d, exactly; E/n tends to 3 - 2 ln 2, about 1.6137 (VW-ASYM)", maxN)
	return fd
}

// AuditRatio checks FW-RATIO, Foerster & Wattenhofer's conjecture that the optimal solitaire
// player's competitive ratio c, the limit of E/n, lies strictly between lo and hi: the slope
// E(n) - E(n-1) of the solver's curve at n = 1000 must lie there, and so must 3 - 2 ln 2, the
// limit Velleman & Warrington proved (VW-ASYM).
func AuditRatio(curve SolitaireCurves, lo, hi float64) Finding {
	fd := Finding{ID: "FW-RATIO", Claim: fmt.Sprintf("solitaire: the optimal player's competitive ratio lies in (%g, %g)", lo, hi),
		Published: fmt.Sprintf("%g < c < %g (a conjecture from numerical calculations)", lo, hi)}
	if curve.Err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+curve.Err.Error()
		return fd
	}
	t := curve.Turns
	n := len(t) - 1
	slope := func(n int) float64 { return t[n] - t[n-1] }
	limit := 3 - 2*math.Ln2
	fd.Exact = fmt.Sprintf("E(n) - E(n-1): %.7f at n = 100, %.7f at n = 500, %.7f at n = %d (float64); 3 - 2 ln 2 = %.7f",
		slope(100), slope(500), slope(n), n, limit)
	in := func(x float64) bool { return lo < x && x < hi }
	switch {
	case in(slope(n)) && in(limit):
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the slope of the solver's expectation at n = %d, %.7f, and its limit 3 - 2 ln 2 = %.7f both lie in the interval", n, slope(n), limit)
	case !in(limit):
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("the limit of E/n, 3 - 2 ln 2 = %.7f, lies outside the interval", limit)
	default:
		fd.Verdict, fd.Reason = Inconclusive, fmt.Sprintf("the slope of the solver's expectation at n = %d, %.7f, lies outside the interval", n, slope(n))
	}
	return fd
}

const zwickClaim = "the optimal move in every state (n, k), n <= 15 (their table 2)"

// zwickMove names Zwick & Paterson's moves: the 0-move is a pass, the 1-move safe, the 2-move
// daring.
var zwickMove = map[int]rules.Choice{0: rules.Pass, 1: rules.Safe, 2: rules.Daring}

// AuditZwickPaterson checks ZP-T2, Zwick & Paterson's table of optimal moves: data holds rows
// "n: c c ...", one code per k = 0..n known cards (0 pass, 1 safe, 2 daring). A cell agrees when
// its move is among the solver's optimal choices in the state (n, n - k) of ZwickPatersonModel.
func AuditZwickPaterson(ctx context.Context, data []byte) Finding {
	fd := Finding{ID: zwickClaimID, Claim: zwickClaim}
	pub, err := ParseTable(data)
	if err == nil {
		for n, codes := range pub.Codes {
			if len(codes) != n+1 {
				err = fmt.Errorf("row %d has %d moves, want %d (k = 0..%d)", n, len(codes), n+1, n)
				break
			}
		}
	}
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the published table cannot be read: "+err.Error()
		return fd
	}
	best := map[rules.State][]rules.Choice{}
	err = exact.Table(ctx, field.Rat{}, ZwickPatersonModel, pub.MaxN, func(c *exact.TableCell[*big.Rat]) error {
		best[c.State] = append([]rules.Choice(nil), c.Best...)
		return nil
	})
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the solver cannot compute the table: "+err.Error()
		return fd
	}
	code := map[rules.Choice]int{rules.Pass: 0, rules.Safe: 1, rules.Daring: 2}
	var diffs, ties []string
	cells := 0
	var side strings.Builder
	side.WriteString("Codes per k = 0..n known cards: 0 pass (0-move), 1 safe (1-move), 2 daring (2-move); the solver lists every optimal move, " +
		"as 2/0 where daring and pass are equally good (2/1 with k = n, where every first card is a known card's partner).\n\n" +
		"| n | published | solver |\n|---:|---|---|\n")
	for n := 1; n <= pub.MaxN; n++ {
		codes, ok := pub.Codes[n]
		if !ok {
			continue
		}
		var mine []string
		for k, c := range codes {
			st := rules.State{N: n, J: n - k}
			cells++
			var set []string
			for _, ch := range best[st] {
				set = append(set, strconv.Itoa(code[ch]))
			}
			cell := strings.Join(set, "/")
			switch {
			case !slices.Contains(best[st], zwickMove[c]):
				diffs = append(diffs, fmt.Sprintf("(n=%d, k=%d) published %d, solver %s", n, k, c, cell))
				cell = "**" + cell + "**"
			case len(set) > 1 && k < n:
				ties = append(ties, fmt.Sprintf("(n=%d, k=%d) %s", n, k, strings.Join(set, "/")))
			}
			mine = append(mine, cell)
		}
		fmt.Fprintf(&side, "| %d | %s | %s |\n", n, joinInts(codes), strings.Join(mine, " "))
	}
	fd.Published = fmt.Sprintf("%d cells, n = 1..%d (from a transcription of the table, named in %s)", cells, pub.MaxN, zwickFile)
	fd.Exact = fmt.Sprintf("%d cells differ; model: perfect memory, pass two-known, choices {daring, safe, pass}", len(diffs))
	fd.Detail = side.String()
	if len(diffs) > 0 {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("%d of %d cells differ: %s", len(diffs), cells, strings.Join(firstFew(diffs, 5), "; "))
		return fd
	}
	fd.Verdict = Confirmed
	fd.Reason = fmt.Sprintf("in all %d cells the published move is an optimal move of the solver's table", cells)
	if len(ties) > 0 {
		fd.Reason += fmt.Sprintf(" (another is as good in %d: %s)", len(ties), strings.Join(firstFew(ties, 3), "; "))
	}
	return fd
}

// blindFormula is the published value of naive blind solitaire, (2n - 1) + (n - 1)/(2n - 1).
func blindFormula(n int) *big.Rat {
	return new(big.Rat).Add(ratInt(2*n-1), big.NewRat(int64(n-1), int64(2*n-1)))
}

// AuditBlind checks PX-BLIND: the naive strategy of blind solitaire (docs/models.md §4.8) takes
// (2n - 1) + (n - 1)/(2n - 1) turns on average, for n = 1..blindMaxN, exactly; its detail sets the
// optimal blind strategy and, from solo (solitaireTurns, nil to leave it out), the optimal player
// who flips one card after the other beside it.
func AuditBlind(ctx context.Context, solo [][]*big.Rat) Finding {
	fd := Finding{ID: "PX-BLIND", Claim: "blind solitaire, naive strategy: (2n - 1) + (n - 1)/(2n - 1) turns",
		Published: "(2n - 1) + (n - 1)/(2n - 1) turns on average (exact enumeration for n <= 9)"}
	naive, err := exact.BlindSolitaire(ctx, exact.BlindNaive, blindMaxN)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the blind solitaire solver failed: "+err.Error()
		return fd
	}
	opt, err := exact.BlindSolitaire(ctx, exact.BlindOptimal, blindMaxN)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the blind solitaire solver failed: "+err.Error()
		return fd
	}
	var wrong []string
	optIs2n1 := true
	for n := 1; n <= blindMaxN; n++ {
		if got, want := naive[n][n].Turns, blindFormula(n); got.Cmp(want) != 0 {
			d := new(big.Rat).Sub(got, want)
			wrong = append(wrong, fmt.Sprintf("n = %d: %s, the formula %s (off by %s)", n, got.RatString(), want.RatString(), d.RatString()))
		}
		optIs2n1 = optIs2n1 && opt[n][n].Turns.Cmp(ratInt(2*n-1)) == 0
	}
	fd.Exact = fmt.Sprintf("n = 2: %s; n = 5: %s; n = %d: %s", naive[2][2].Turns.RatString(), ratString(naive[5][5].Turns),
		blindMaxN, naive[blindMaxN][blindMaxN].Turns.FloatString(6))
	var d strings.Builder
	d.WriteString("Expected turns from the start of a deal, exact. The optimal blind strategy (naming a seen card with an unseen one " +
		"where that is better; docs/models.md §4.8) is not a claim of the source, reported for comparison; so is the optimal player " +
		"who flips the second card after seeing the first (ordinary solitaire).\n\n" +
		"| n | naive blind | the formula | optimal blind | optimal, one card after the other |\n|---:|---|---|---|---|\n")
	for _, n := range []int{1, 2, 3, 4, 5, 10, 20, 50, 100} {
		if n > blindMaxN {
			continue
		}
		seq := "—"
		if n < len(solo) {
			seq = ratCell(solo[n][n])
		}
		fmt.Fprintf(&d, "| %d | %s | %s | %s | %s |\n", n, ratCell(naive[n][n].Turns), ratCell(blindFormula(n)), ratCell(opt[n][n].Turns), seq)
	}
	if optIs2n1 {
		fmt.Fprintf(&d, "\nThe optimal blind strategy takes exactly 2n - 1 turns on average for every n = 1..%d: it saves (n - 1)/(2n - 1) turns on the naive one.\n", blindMaxN)
	}
	fd.Detail = d.String()
	if len(wrong) > 0 {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("%d of n = 1..%d differ: %s", len(wrong), blindMaxN, strings.Join(firstFew(wrong, 3), "; "))
		return fd
	}
	fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the naive strategy's exact expectation equals the formula for every n = 1..%d", blindMaxN)
	return fd
}

// ratCell formats a rational for a table cell: exact when short, with its decimal value.
func ratCell(r *big.Rat) string {
	if s := r.RatString(); len(s) <= 15 {
		return fmt.Sprintf("%s (%s)", s, r.FloatString(4))
	}
	return r.FloatString(6)
}

func ratInt(n int) *big.Rat { return new(big.Rat).SetInt64(int64(n)) }

// floatRat is the exact value of a float64 (the bounds' coefficients, halves and integers).
func floatRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func firstFew(xs []string, k int) []string {
	if len(xs) <= k {
		return xs
	}
	return append(xs[:k:k], fmt.Sprintf("and %d more", len(xs)-k))
}
