package answer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
)

// The answer of a state of Gerez's model lists every allowed tactic with its value and passing
// last, worth the cards the value leaves; the best are those worth the value. At <8, 2, 0> the
// best tactic is <onb, if partner known then nek else bzn>, worth what Gerez's formula gives it.
func TestNewGerez(t *testing.T) {
	s := exact.GerezState{K: 8, B: 2}
	cell, err := exact.SolveGerez(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	g := answer.NewGerez(cell)
	if g.State != (answer.GerezState{Cards: 8, Known: 2, Paired: 0}) {
		t.Errorf("state %+v", g.State)
	}
	vals := map[exact.GerezState]*big.Rat{}
	err = exact.Gerez(context.Background(), 8, func(c *exact.GerezCell) error { vals[c.State] = c.Value; return nil })
	if err != nil {
		t.Fatal(err)
	}
	ex2 := exact.GerezEX2(s, func(x exact.GerezState) *big.Rat { return vals[x] })
	if ratOf(t, g.Value).Cmp(ex2) != 0 || !slices.Equal(g.Best, []string{"<onb, if partner known then nek else bzn>"}) {
		t.Errorf("value %s, best %v; want %s, the tactic of Gerez's formula", g.Value.Exact, g.Best, ex2.RatString())
	}
	if len(g.Tactics) != len(cell.Tactics)+1 {
		t.Fatalf("%d tactics, want %d and passing", len(g.Tactics), len(cell.Tactics))
	}
	value := ratOf(t, g.Value)
	var best []string
	for i, tv := range g.Tactics {
		if i < len(cell.Tactics) && tv.Tactic != cell.Tactics[i].String() {
			t.Errorf("tactic %d is %s, want %s", i, tv.Tactic, cell.Tactics[i])
		}
		if v := ratOf(t, tv.Value); v.Cmp(value) == 0 {
			best = append(best, tv.Tactic)
		} else if v.Cmp(value) > 0 {
			t.Errorf("%s is worth %s, more than the value %s", tv.Tactic, tv.Value.Exact, g.Value.Exact)
		}
	}
	pass := g.Tactics[len(g.Tactics)-1]
	if rest := new(big.Rat).Sub(big.NewRat(8, 1), value); pass.Tactic != "pass" || ratOf(t, pass.Value).Cmp(rest) != 0 {
		t.Errorf("last tactic %+v, want pass worth %s", pass, rest.RatString())
	}
	if !slices.Equal(best, g.Best) {
		t.Errorf("tactics worth the value %v, best %v", best, g.Best)
	}
	// Where passing is as good as the best tactic, it is among the best.
	for _, s := range []exact.GerezState{{K: 2, B: 1, P: 0}, {K: 4, B: 2, P: 0}, {K: 6, B: 3, P: 0}, {K: 0}} {
		cell, err := exact.SolveGerez(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		g := answer.NewGerez(cell)
		if slices.Contains(g.Best, "pass") != cell.PassBest {
			t.Errorf("%v: best %v, passing best %v", s, g.Best, cell.PassBest)
		}
	}
}

// The JSON form names the state's parts and writes tactics as Gerez does.
func TestGerezJSON(t *testing.T) {
	cell, err := exact.SolveGerez(context.Background(), exact.GerezState{K: 4, B: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(answer.NewGerez(cell)); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.HasPrefix(s, `{"state":{"cards":4,"known":1,"paired":0},"value":{"exact":`) || !strings.Contains(s, `"tactic":"<onb, `) {
		t.Errorf("%s", s)
	}
	var back answer.Gerez
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.State.Cards != 4 || len(back.Tactics) != len(cell.Tactics)+1 {
		t.Errorf("decoded %+v, %v", back, err)
	}
}
