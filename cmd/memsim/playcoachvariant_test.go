package main

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Under blind flips and a turn limit the coach gives each choice's value from the variant's
// model with the turns left: at the first turn those the solver gives the start of the game
// with the whole limit left, and after each of the person's turns what it cost.
func TestPlayCoachUnderBlindFlipsAndATurnLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(cfg, []byte("name: v\nrules: {pairs: 3, flips: blind, turn_limit: 6}\nplayers:\n  - {name: daring, policy: daring}\n  - {name: safe, policy: safe}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, dir, "--config", cfg, "--against", "safe", "--seed", "2", "--coach")
	r := newReader()
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		r.see(line)
		if strings.HasPrefix(line, "your move (both cards, blind: ") {
			p.send(r.blind())
		}
	}
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, p.stderr.String(), p.out.String())
	}
	m := exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 6}}
	st := rules.State{N: 3, J: 3}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	cs, err := exact.ChoiceValues(context.Background(), field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	ws, err := exact.WinChoiceValues(context.Background(), field.Rat{}, m, wmu, st)
	if err != nil {
		t.Fatal(err)
	}
	out := p.out.String()
	want := fmt.Sprintf("coach: this turn (6 turns left), expected pairs from it on and win score: daring %s pairs, win %s (best)",
		cs.Values[0].Pairs.FloatString(4), ws.Values[0].Score.FloatString(4))
	for _, w := range []string{want, "\ncoach: your last turn (turn "} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
}

// Under copies of a face and pass rule always the coach values the pass with the other choices:
// at the first turn each choice's value, in expected pairs and in win score, is the copies
// model's at two faces of four cards, none seen, at lead 0, and after the person passes the coach
// judges the pass against the best from those values.
func TestPlayCoachOfCopiesUnderPassAlways(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(cfg, []byte("name: v\nrules: {pairs: 4, copies: 4, pass: always}\nplayers:\n  - {name: daring, policy: daring}\n  - {name: safe, policy: safe}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, dir, "--config", cfg, "--against", "safe", "--seed", "3", "--coach")
	r := newReader()
	passed := false
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		r.see(line)
		switch {
		case strings.HasPrefix(line, "your move (card 1") && !passed:
			passed = true
			p.send("pass")
		case strings.HasPrefix(line, "your move (card "):
			p.send(r.move(strings.HasPrefix(line, "your move (card 2")))
		}
	}
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, p.stderr.String(), p.out.String())
	}
	m := exact.Model{Pass: rules.PassAlways, Variant: rules.Variant{Copies: 4}}
	st, err := exact.ParseCopiesState("4:2u", 4)
	if err != nil {
		t.Fatal(err)
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	cs, err := exact.CopiesChoiceValues(context.Background(), field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	ws, err := exact.CopiesWinChoiceValues(context.Background(), field.Rat{}, m, wmu, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.Values) < 2 || cs.Values[len(cs.Values)-1].Choice != rules.Pass || len(ws.Values) != len(cs.Values) {
		t.Fatalf("the model's choices at 4:2u under pass rule always: %+v, to win %+v", cs.Values, ws.Values)
	}
	var parts []string
	best, pass := cs.Values[0].Lead, cs.Values[0].Lead
	bestWin, passWin := ws.Values[0].Score, ws.Values[0].Score
	for i, cv := range cs.Values {
		if cv.Lead.Cmp(best) > 0 {
			best = cv.Lead
		}
		if w := ws.Values[i].Score; w.Cmp(bestWin) > 0 {
			bestWin = w
		}
		if cv.Choice == rules.Pass {
			pass, passWin = cv.Lead, ws.Values[i].Score
		}
	}
	var bestNames []string
	for i, cv := range cs.Values {
		w := ws.Values[i].Score
		s := fmt.Sprintf("%s %s pairs, win %s", cv.Choice, cv.Pairs.FloatString(4), w.FloatString(4))
		forPairs, toWin := cv.Lead.Cmp(best) == 0, w.Cmp(bestWin) == 0
		switch {
		case forPairs && toWin:
			s += " (best)"
		case forPairs:
			s += " (best for pairs)"
		case toWin:
			s += " (best to win)"
		}
		if forPairs || toWin {
			bestNames = append(bestNames, cv.Choice.String())
		}
		parts = append(parts, s)
	}
	last := "coach: your last turn (turn 1: pass) was the best"
	cost, costWin := new(big.Rat).Sub(best, pass), new(big.Rat).Sub(bestWin, passWin)
	if cost.Sign() != 0 || costWin.Sign() != 0 {
		last = fmt.Sprintf("coach: your last turn (turn 1: pass) cost %s pairs and %s win; best: %s",
			new(big.Rat).Quo(cost, big.NewRat(2, 1)).FloatString(4), costWin.FloatString(4), strings.Join(bestNames, " or "))
	}
	out := p.out.String()
	for _, w := range []string{"coach: this turn, expected pairs from it on and win score: " + strings.Join(parts, "; "), last} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
	if strings.Contains(out, "no values") {
		t.Errorf("the coach says it has no values:\n%s", out)
	}
}
