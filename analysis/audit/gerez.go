package audit

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// gerezMaxCards is the largest table Gerez's claims are checked on (20 pairs).
const gerezMaxCards = 40

// AuditGerez checks Gerez's claims with the solver of his formulation (exact.Gerez), which
// enumerates the tactics from the rules: the state constraint on reachable states (GZ-3.1), the
// number of tactics (GZ-T19), that taking a known pair is always optimal (GZ-3.7.1), the value
// where passing is chosen (GZ-PASS) and the formula of one tactic (GZ-EX2). It also checks that
// the formulation agrees with the (n, j) model under the same rules (pass always).
func AuditGerez(ctx context.Context) []Finding {
	cells := map[exact.GerezState]*exact.GerezCell{}
	err := exact.Gerez(ctx, gerezMaxCards, func(c *exact.GerezCell) error {
		cp := *c
		cells[c.State] = &cp
		return nil
	})
	ids := []string{"GZ-3.1", "GZ-T19", "GZ-3.7.1", "GZ-PASS", "GZ-EX2"}
	if err != nil {
		var out []Finding
		for _, id := range ids {
			out = append(out, Finding{ID: id, Verdict: Inconclusive, Reason: "the solver failed: " + err.Error()})
		}
		return out
	}
	return []Finding{gerezReachable(cells), gerezCount(), gerezT1(cells), gerezPass(cells), gerezEX2(cells), gerezAgreement(ctx, cells)}
}

func gerezReachable(cells map[exact.GerezState]*exact.GerezCell) Finding {
	fd := Finding{ID: "GZ-3.1", Claim: "reachable states satisfy k >= (k + P)/2 >= B >= P >= 0", Published: "k >= (k + P)/2 >= B >= P >= 0"}
	seen := map[exact.GerezState]bool{}
	var queue []exact.GerezState
	for k := 2; k <= gerezMaxCards; k += 2 {
		queue = append(queue, exact.GerezState{K: k})
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if seen[s] {
			continue
		}
		seen[s] = true
		if !s.Valid() {
			fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("%v is reachable and violates the constraint", s)
			return fd
		}
		for _, next := range exact.GerezSuccessors(s) {
			if !seen[next] {
				queue = append(queue, next)
			}
		}
	}
	valid := 0
	for s := range cells {
		if s.K > 0 {
			valid++
		}
	}
	fd.Exact = fmt.Sprintf("%d states reachable from the deals of 1 to %d pairs, all valid (%d valid states in all)", len(seen), gerezMaxCards/2, valid)
	fd.Verdict, fd.Reason = Confirmed, "every state reachable under every tactic satisfies the constraint"
	return fd
}

func gerezCount() Finding {
	fd := Finding{ID: "GZ-T19", Claim: "exactly 19 tactics: 4 after bmn, 3 after bzn, 12 after onb", Published: "19 = 4 + 3 + 12"}
	by := map[exact.Card]int{}
	ts := exact.GerezTactics()
	for _, t := range ts {
		by[t.First]++
	}
	fd.Exact = fmt.Sprintf("%d = %d + %d + %d", len(ts), by[exact.BMN], by[exact.BZN], by[exact.ONB])
	if len(ts) == 19 && by[exact.BMN] == 4 && by[exact.BZN] == 3 && by[exact.ONB] == 12 {
		fd.Verdict, fd.Reason = Confirmed, "enumerating the second cards the rules allow after each first card gives 4, 3 and 12"
	} else {
		fd.Verdict, fd.Reason = Refuted, "the enumeration gives "+fd.Exact
	}
	return fd
}

func gerezT1(cells map[exact.GerezState]*exact.GerezCell) Finding {
	fd := Finding{ID: "GZ-3.7.1", Claim: "T1 (take a known pair) is optimal wherever it applies", Published: "T1 optimal wherever P >= 2"}
	t1 := exact.Tactic{First: exact.BMN, IfKnown: exact.NEK, Otherwise: exact.NEK}
	checked := 0
	for k := 2; k <= gerezMaxCards; k += 2 {
		for b := 0; b <= k; b++ {
			for p := 2; p <= b; p += 2 {
				c, ok := cells[exact.GerezState{K: k, B: b, P: p}]
				if !ok {
					continue
				}
				checked++
				if !containsTactic(c.Best, t1) {
					fd.Verdict = Refuted
					fd.Reason = fmt.Sprintf("in %v T1 is worth less than the best, %s", c.State, exact.TacticNames(c.Best))
					return fd
				}
			}
		}
	}
	fd.Exact = fmt.Sprintf("T1 optimal in all %d states with P >= 2, k <= %d", checked, gerezMaxCards)
	fd.Verdict, fd.Reason = Confirmed, fd.Exact
	fd.Detail = gerezTable(cells, gerezTableCards)
	return fd
}

// gerezTableCards is the largest k of the table of optimal tactics shown in the report.
const gerezTableCards = 10

// gerezTable prints the optimal tactics of every state with at most maxK cards, as Gerez's
// program did: the state, its value in cards, and the optimal tactics.
func gerezTable(cells map[exact.GerezState]*exact.GerezCell, maxK int) string {
	var b strings.Builder
	b.WriteString("Optimal tactics by state (perfect memory, pass always):\n\n| <k, B, P> | value (cards) | optimal tactics |\n|---|---|---|\n")
	for k := 2; k <= maxK; k += 2 {
		for bb := 0; bb <= k; bb++ {
			for p := 0; p <= bb; p += 2 {
				c, ok := cells[exact.GerezState{K: k, B: bb, P: p}]
				if !ok {
					continue
				}
				best := exact.TacticNames(c.Best)
				if c.PassBest {
					best = strings.TrimPrefix(best+", pass", ", ")
				}
				fmt.Fprintf(&b, "| %v | %s | %s |\n", c.State, c.Value.RatString(), best)
			}
		}
	}
	return b.String()
}

func containsTactic(ts []exact.Tactic, t exact.Tactic) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func gerezPass(cells map[exact.GerezState]*exact.GerezCell) Finding {
	fd := Finding{ID: "GZ-PASS", Claim: "where passing is chosen the mover's value is k/2 cards", Published: "k/2"}
	chosen := 0
	for _, c := range cells {
		if c.State.K == 0 || !c.PassBest {
			continue
		}
		chosen++
		if c.Value.Cmp(big.NewRat(int64(c.State.K), 2)) != 0 {
			fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("passing is optimal in %v but its value is %s", c.State, c.Value.RatString())
			return fd
		}
	}
	fd.Exact = fmt.Sprintf("passing is optimal in %d states with k <= %d, each worth k/2", chosen, gerezMaxCards)
	if chosen == 0 {
		fd.Verdict, fd.Reason = Inconclusive, "passing is never optimal on the grid"
		return fd
	}
	fd.Verdict, fd.Reason = Confirmed, fd.Exact
	return fd
}

func gerezEX2(cells map[exact.GerezState]*exact.GerezCell) Finding {
	fd := Finding{ID: "GZ-EX2", Claim: "the value of <onb, if partner known then nek else bzn>",
		Published: "(B-P)/(k-B) [w(k-2, B-1, P) + 2] + (k+P-2B)/(k-B) [k - w(k, B+1, P)]"}
	tac := exact.Tactic{First: exact.ONB, IfKnown: exact.NEK, Otherwise: exact.BZN}
	w := func(s exact.GerezState) *big.Rat {
		if c, ok := cells[s]; ok {
			return c.Value
		}
		return new(big.Rat) // not a state: its weight in the formula is 0
	}
	checked := 0
	for _, c := range cells {
		s := c.State
		if !(s.K >= s.B+1 && s.B >= s.P+1) {
			continue
		}
		var mine *big.Rat
		for i, t := range c.Tactics {
			if t == tac {
				mine = c.Values[i]
			}
		}
		if mine == nil {
			continue
		}
		checked++
		if f := exact.GerezEX2(s, w); f.Cmp(mine) != 0 {
			fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("in %v the formula gives %s, the tactic's value is %s", s, f.RatString(), mine.RatString())
			return fd
		}
	}
	fd.Exact = fmt.Sprintf("agrees in all %d states where the tactic applies (k <= %d)", checked, gerezMaxCards)
	fd.Verdict, fd.Reason = Confirmed, "the formula gives the tactic's value, from its card-class outcomes, in "+fmt.Sprint(checked)+" states"
	return fd
}

// gerezAgreement is not a published claim: it checks Gerez's formulation against the (n, j) model
// of the same rules (perfect memory, pass always), state <2n, n-j, 0> against 2·E(n, j). Its
// finding carries the identifier GZ-MODEL.
func gerezAgreement(ctx context.Context, cells map[exact.GerezState]*exact.GerezCell) Finding {
	fd := Finding{ID: "GZ-MODEL", Claim: "(not a published claim) Gerez's model agrees with the (n, j) model of the same rules",
		Published: "—"}
	checked := 0
	err := exact.Table(ctx, field.Rat{}, exact.Model{Pass: rules.PassAlways}, gerezMaxCards/2, func(c *exact.TableCell[*big.Rat]) error {
		g, ok := cells[exact.GerezState{K: 2 * c.State.N, B: c.State.N - c.State.J}]
		if !ok {
			return fmt.Errorf("no Gerez state for %v", c.State)
		}
		checked++
		if two := new(big.Rat).Mul(c.Value, big.NewRat(2, 1)); two.Cmp(g.Value) != 0 {
			return fmt.Errorf("in %v the (n, j) model gives %s cards, Gerez's %s", c.State, two.RatString(), g.Value.RatString())
		}
		return nil
	})
	if err != nil {
		fd.Verdict, fd.Reason = Refuted, err.Error()
		return fd
	}
	fd.Exact = fmt.Sprintf("equal in all %d states with n <= %d", checked, gerezMaxCards/2)
	fd.Verdict, fd.Reason = Confirmed, "<2n, n-j, 0> is worth 2·E(n, j) cards in every state ("+fd.Exact+")"
	return fd
}
