package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memsim/sim/record"
	"memsim/sim/rules"
)

// blind names both cards of a blind turn: a pair seen whole, else two cards never seen, else one
// never seen and another card on the table.
func (r *reader) blind() string {
	known := func(c string) bool { return r.cells[c] != ".." && r.faces[c] != "" }
	for i, a := range r.order {
		for _, b := range r.order[i+1:] {
			if known(a) && known(b) && r.faces[a] == r.faces[b] {
				return a + " " + b
			}
		}
	}
	var unseen, other []string
	for _, c := range r.order {
		switch {
		case r.cells[c] == "##" && r.faces[c] == "":
			unseen = append(unseen, c)
		case r.cells[c] == "##":
			other = append(other, c)
		}
	}
	cards := append(unseen, other...)
	return cards[0] + " " + cards[1]
}

// A game under copies of a face, blind flips and a turn limit, played line by line: the person
// names both cards of a turn at once (or one, then the other, the first staying face down), the
// coach values the turns in the copies model's choices, in pairs, with the turns left, and the
// record gives the variant and the result.
func TestPlayUnderTheVariants(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(cfg, []byte("name: v\nrules: {pairs: 6, copies: 4, flips: blind, turn_limit: 8}\nplayers:\n  - {name: daring, policy: daring}\n  - {name: safe, policy: safe}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, dir, "--config", cfg, "--against", "daring", "--seed", "5", "--coach", "--record", "g.jsonl")
	r := newReader()
	prompts, oneByOne, twice := 0, false, false
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		r.see(line)
		switch {
		case strings.HasPrefix(line, "not allowed: ") && !strings.HasSuffix(line, "named twice: name two different cards"):
			t.Fatalf("a move refused: %s\n%s", line, p.out.String())
		case strings.HasPrefix(line, "your move (card 2, blind: your first card stays face down"):
			p.send(strings.Fields(r.blind())[1])
		case strings.HasPrefix(line, "your move (both cards, blind: "):
			prompts++
			both := r.blind()
			switch {
			case !twice:
				twice = true
				first := strings.Fields(both)[0]
				p.send(first + " " + first)
			case !oneByOne:
				oneByOne = true
				p.send(strings.Fields(both)[0])
			default:
				p.send(both)
			}
		case strings.HasPrefix(line, "your move"):
			t.Fatalf("a prompt of the standard game: %s\n%s", line, p.out.String())
		}
	}
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, p.stderr.String(), p.out.String())
	}
	out := p.out.String()
	for _, want := range []string{
		"memsim play: 6 pairs, pass never, copies 4, blind flips, turn limit 8, seed 5",
		"\ncoach: this turn (8 turns left), expected pairs from it on and win score: daring ",
		"\ncoach: your last turn (turn 1: ",
		"named twice: name two different cards",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if prompts < 2 || !oneByOne || strings.Contains(out, "no values") {
		t.Errorf("%d blind prompts, one card at a time %v, the coach without values:\n%s", prompts, oneByOne, out)
	}
	g := checkRecordOf(t, filepath.Join(dir, "g.jsonl"), out)
	if want := (rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 8}); g.Rules.Variant != want {
		t.Errorf("the record's variant is %v, want %v", g.Rules.Variant, want)
	}
	if g.Result.Limited != strings.Contains(out, "(turn limit with ") {
		t.Errorf("the record ended at the limit: %v; memsim play printed:\n%s", g.Result.Limited, out)
	}
}

// checkRecordOf reads the record of one finished game at path and checks its scores against the
// result line memsim play printed.
func checkRecordOf(t *testing.T, path, out string) *record.Game {
	t.Helper()
	games, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if want := resultScores(t, out); len(games) != 1 || !g.Result.Over || !slices.Equal(g.Result.Scores, want) {
		t.Errorf("%s: %d games, the first over %v with scores %v; memsim play printed %v", path, len(games), g.Result.Over, g.Result.Scores, want)
	}
	return g
}
