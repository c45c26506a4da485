package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"
)

// report.md's sequential test cell gives the decision as the library words it, d in pairs per game of lead, α and β, the LLR and both of Wald's bounds.
func TestSPRTCellStatesTheTestOnTheLead(t *testing.T) {
	r := sampleRun()
	lower, upper := math.Log(0.01/0.99), math.Log(0.99/0.01)
	decision := "H1 accepted on each deal's lead: br's mean lead over opt is 0.2 pairs per game, not 0"
	r.Pairings[0].SPRT = &SPRT{D: 0.2, Alpha: 0.01, Beta: 0.01, Decision: decision, LLR: 4.61, Lower: lower, Upper: upper}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	row := tableRow(t, buf.String(), "Pairings", "2")
	want := decision + " (d 0.2 pairs per game of lead, α 0.01, β 0.01; LLR 4.61, bounds -4.60 and 4.60)"
	if !strings.Contains(row, "| "+want+" |") {
		t.Errorf("pairing row %q\nlacks the cell %q", row, want)
	}
	if !strings.Contains(buf.String(), "| advantage of A [95% CI] |") {
		t.Error("the pairings table does not say its column is the advantage")
	}
}

// In matchups.csv, a matchup stopped early says why on each of its rows, and the exact values have a numeric column.
func TestCSVStoppedEarlyAndNumericExact(t *testing.T) {
	r := sampleRun()
	r.Matchups[1].StoppedEarly = "sprt: H0 accepted"
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, row := range rows[1:] {
		want := ""
		if row[col["matchup"]] == "br vs opt" && row[col["pairs"]] == "2" {
			want = "sprt: H0 accepted"
		}
		if got := row[col["stopped_early"]]; got != want {
			t.Errorf("row %q: stopped_early %q, want %q", row, got, want)
		}
		if e := row[col["exact_pairs"]]; e != "" {
			f, err := strconv.ParseFloat(row[col["exact_pairs_float"]], 64)
			if err != nil || math.Abs(f-ratOf(t, e)) > 1e-15 {
				t.Errorf("row %q: exact %s, numeric %q", row, e, row[col["exact_pairs_float"]])
			}
		}
	}
}

func ratOf(t *testing.T, s string) float64 {
	t.Helper()
	num, den, ok := strings.Cut(s, "/")
	a, err1 := strconv.ParseFloat(num, 64)
	b := 1.0
	var err2 error
	if ok {
		b, err2 = strconv.ParseFloat(den, 64)
	}
	if err1 != nil || err2 != nil {
		t.Fatalf("not a fraction: %q", s)
	}
	return a / b
}
