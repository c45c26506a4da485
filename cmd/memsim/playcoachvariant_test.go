package main

import (
	"context"
	"fmt"
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
