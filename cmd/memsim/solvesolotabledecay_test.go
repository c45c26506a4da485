package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact/answer"
)

// TestSolitaireTableDecayJSONIsTheText prints solitaire's table under decay forgetting
// (--table --players 1) in text and in JSON and checks that every text row is the JSON cell of
// its state: the choice, the other best choices and the expected turns to six decimals, and
// that the JSON has no other cell with unknown pairs.
func TestSolitaireTableDecayJSONIsTheText(t *testing.T) {
	letter := map[string]string{"daring": "D", "safe": "S", "known-first": "K"}
	for _, flags := range [][]string{
		{"--forget", "decay", "--q", "0.3"},
		{"--memory", "2", "--forget", "decay", "--q", "0.5", "--singletons", "1"},
	} {
		args := append([]string{"solve", "--table", "--players", "1", "--pairs-max", "4"}, flags...)
		text, stderr, code := runArgs(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		jargs := append(append([]string(nil), args...), "--json")
		js, stderr, code := runArgs(t, jargs...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", jargs, code, stderr)
		}
		var doc struct {
			Cells []answer.SolitaireCell `json:"cells"`
		}
		if err := json.Unmarshal([]byte(js), &doc); err != nil {
			t.Fatalf("%q: %v", jargs, err)
		}
		want := map[string]string{}
		for _, c := range doc.Cells {
			if c.Unknown == 0 {
				continue
			}
			row := letter[c.Choice]
			for _, b := range c.Best {
				if b != c.Choice {
					row += "=" + letter[b]
				}
			}
			want[fmt.Sprintf("%d %d", c.Pairs, c.Unknown)] = row + " " + strconv.FormatFloat(c.ExpectedTurns.Float, 'f', 6, 64)
		}
		rows := 0
		sc := bufio.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") {
				continue
			}
			key, rest, ok := strings.Cut(line, ": ")
			if !ok || want[key] != rest {
				t.Errorf("%q: text row %q, JSON %q", args, line, want[key])
			}
			rows++
		}
		if rows == 0 || rows != len(want) {
			t.Errorf("%q: %d text rows, %d JSON cells with unknown pairs", args, rows, len(want))
		}
	}
}
