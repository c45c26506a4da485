package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/sim/record"
	"memsim/sim/rules"
	"memsim/tournament"
)

// variantRecordsTournament records the games of a 52-card-like deck by rank, shrunk to 6 pairs,
// under a turn limit short enough that some games end at it.
const variantRecordsTournament = `seed: 3
games: 6
rules:
  pairs: 6
  copies: 4
  turn_limit: 6
records: 6
players:
  - {name: daring, policy: daring}
  - {name: safe, policy: safe}
`

// memsim run records the games of a variant: each record game carries the variant, is the
// engine's game played again, and says when the limit ended it; memsim review judges every turn
// in the choices of the copies model under the limit, each turn fitting the choice its seat's
// policy makes, and draws its evaluation graph.
func TestRunRecordsVariantGames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "rec", variantRecordsTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	c, err := loadConfig([]string{cfg})
	if err != nil {
		t.Fatal(err)
	}
	tour, err := tournament.New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer tour.Close()
	file := filepath.Join(dir, "out", "rec", "records", "6-daring-vs-safe.jsonl")
	games, err := record.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	limited := 0
	for g, got := range games {
		want, err := tour.Replay(int64(g), 6, []string{"daring", "safe"})
		if err != nil {
			t.Fatal(err)
		}
		checkRecordedGame(t, "game "+strconv.Itoa(g), got, want)
		if v := (rules.Variant{Copies: 4, TurnLimit: 6}); got.Rules.Variant != v {
			t.Errorf("game %d: variant %v, want %v", g, got.Rules.Variant, v)
		}
		if got.Result.Limited != want.Outcome.Limited {
			t.Errorf("game %d: limited %v, the engine's %v", g, got.Result.Limited, want.Outcome.Limited)
		}
		if got.Result.Limited {
			limited++
		}
	}
	if limited == 0 {
		t.Error("no recorded game ended at the turn limit: the test does not cover it")
	}
	stdout, stderr, code := runArgs(t, "review", "--game", "1", file)
	if code != exitOK {
		t.Fatalf("review: exit %d: %s", code, stderr)
	}
	if want := "judged a turn at a time in the choices of the variant's model"; !strings.Contains(stdout, want) {
		t.Errorf("review prints\n%s\nwant a line %q", stdout, want)
	}
	stdout, _, code = runArgs(t, "review", "--json", "--game", "1", file)
	var j struct {
		Variant   string `json:"variant"`
		Values    bool   `json:"values"`
		Decisions []struct {
			Seat int      `json:"seat"`
			Made []string `json:"made"`
		} `json:"decisions"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil || code != exitOK || j.Variant != "copies 4, turn limit 6" || !j.Values || len(j.Decisions) == 0 {
		t.Fatalf("review --json: exit %d, %+v (%v): %s", code, j, err, stdout)
	}
	// Seat 0 plays daring; seat 1 safe, which flips a new second card only with no face half-known.
	for _, d := range j.Decisions {
		if want := [2]string{"daring", "safe"}[d.Seat]; !slices.Contains(d.Made, want) && !(d.Seat == 1 && slices.Contains(d.Made, "daring")) {
			t.Errorf("decision %+v: the cards do not fit %s, the seat's policy", d, want)
		}
	}
	fig := filepath.Join(dir, "f.svg")
	_, stderr, code = runArgs(t, "review", "--game", "1", "--figure", fig, file)
	if data, err := os.ReadFile(fig); code != exitOK || err != nil || !strings.HasPrefix(string(data), "<svg") {
		t.Errorf("review --figure of a variant game: exit %d, %s; the file %.20q (%v)", code, stderr, data, err)
	}
}

// memsim replay names the faces of a deal with copies of a face and singletons: the pair faces
// P0 and P1 (four cards each), the singleton S0; its record reads back with the variant.
func TestReplayNamesTheFacesOfCopies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "faces", "games: 2\nrules: {pairs: 4, singletons: 1, copies: 4}\nplayers:\n  - {name: a, policy: daring}\n  - {name: b, policy: safe}\n")
	rec := filepath.Join(dir, "g.jsonl")
	stdout, stderr, code := runArgs(t, "replay", "--config", cfg, "--game", "0", "--record", rec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "(S0, ") || strings.Contains(stdout, "(P2, ") {
		t.Errorf("the move log names the faces P0, P1 and S0, and no P2:\n%s", stdout)
	}
	games, err := record.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if v := games[0].Rules.Variant; v.Copies != 4 || games[0].Rules.Singletons != 1 {
		t.Errorf("the record's rules: %+v", games[0].Rules)
	}
}
