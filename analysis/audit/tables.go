package audit

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// Table is a published strategy table: Codes[n] lists the codes of row n, for j from
// FirstJ[n] to n (0 safe better, 1 daring better, 2 equal or no choice).
type Table struct {
	Codes  map[int][]int
	FirstJ map[int]int
	MaxN   int
}

// ParseTable reads a table in the format of the claims' files: comment lines starting with '#',
// then rows "n: c c c" whose last code is for j = n.
func ParseTable(data []byte) (*Table, error) {
	t := &Table{Codes: map[int][]int{}, FirstJ: map[int]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		head, rest, ok := strings.Cut(text, ":")
		n, err := strconv.Atoi(strings.TrimSpace(head))
		if !ok || err != nil || n < 1 {
			return nil, fmt.Errorf("line %d: want \"n: codes\", got %q", line, text)
		}
		var codes []int
		for _, f := range strings.Fields(rest) {
			c, err := strconv.Atoi(f)
			if err != nil || c < 0 || c > 2 {
				return nil, fmt.Errorf("line %d: code %q is not 0, 1 or 2", line, f)
			}
			codes = append(codes, c)
		}
		if len(codes) == 0 || len(codes) > n+1 {
			return nil, fmt.Errorf("line %d: %d codes for n = %d", line, len(codes), n)
		}
		t.Codes[n], t.FirstJ[n] = codes, n-len(codes)+1
		t.MaxN = max(t.MaxN, n)
	}
	if t.MaxN == 0 {
		return nil, fmt.Errorf("no rows")
	}
	return t, sc.Err()
}

// AuditTable compares a published table with the solver's table of model m, with f unseen
// singletons (f = m.Singletons when all are unseen), cell by cell.
func AuditTable(ctx context.Context, id, claim string, data []byte, m exact.Model, f int) Finding {
	fd := Finding{ID: id, Claim: claim}
	pub, err := ParseTable(data)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the published table cannot be read: "+err.Error()
		return fd
	}
	tab, err := tableOf(ctx, m, pub.MaxN)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the solver cannot compute the table: "+err.Error()
		return fd
	}
	var diffs []string
	cells := 0
	var side strings.Builder
	side.WriteString("| n | published | solver |\n|---:|---|---|\n")
	for n := 1; n <= pub.MaxN; n++ {
		codes, ok := pub.Codes[n]
		if !ok {
			continue
		}
		var mine []string
		for k, c := range codes {
			j := pub.FirstJ[n] + k
			cv, have := tab[rules.State{N: n, J: j, S: m.Singletons, F: f}]
			o := cv.code
			cells++
			switch {
			case !have:
				mine = append(mine, "·")
				diffs = append(diffs, fmt.Sprintf("(%d,%d) no such state", n, j))
			case o != c:
				mine = append(mine, fmt.Sprintf("**%d**", o))
				diffs = append(diffs, fmt.Sprintf("(%d,%d) published %d, solver %d", n, j, c, o))
			default:
				mine = append(mine, strconv.Itoa(o))
			}
		}
		fmt.Fprintf(&side, "| %d | %s | %s |\n", n, joinInts(codes), strings.Join(mine, " "))
	}
	fd.Published = fmt.Sprintf("%d cells, n = 1..%d", cells, pub.MaxN)
	fd.Exact = fmt.Sprintf("%d cells differ", len(diffs))
	fd.Detail = side.String()
	if len(diffs) == 0 {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("all %d cells agree with the solver's table", cells)
		return fd
	}
	fd.Verdict = Refuted
	shown := diffs
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(diffs)-5))
	}
	fd.Reason = fmt.Sprintf("%d of %d cells differ: %s", len(diffs), cells, strings.Join(shown, "; "))
	return fd
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
