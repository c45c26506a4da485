package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/sim/record"
	"memsim/tournament"
)

// recordsTournament is tinyTournament with its first three games of each matchup recorded.
const recordsTournament = "records: 3\n"

// recordFiles are the files of recordsTournament's records/: one per deal size and seat order.
var recordFiles = []string{"3-greedy-vs-random.jsonl", "3-random-vs-greedy.jsonl", "4-greedy-vs-random.jsonl", "4-random-vs-greedy.jsonl"}

// readRecords returns the files of the run folder dir's records/, by name.
func readRecords(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range dirNames(t, filepath.Join(dir, "records")) {
		data, err := os.ReadFile(filepath.Join(dir, "records", name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(data)
	}
	return out
}

// memsim run with records: 3 writes records/, one file per deal size and seat order, each with
// the first three games of its matchup as the engine plays them again, and report.md links each.
func TestRunWritesGameRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "rec", tinyTournament+recordsTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "rec")
	if got := dirNames(t, filepath.Join(out, "records")); !slices.Equal(got, recordFiles) {
		t.Fatalf("records/ holds %v, want %v", got, recordFiles)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
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
	for _, name := range recordFiles {
		if !strings.Contains(string(md), "](records/"+name+")\n") {
			t.Errorf("report.md does not link records/%s", name)
		}
		pairs, _ := strconv.Atoi(name[:1])
		players := strings.Split(strings.TrimSuffix(name[2:], ".jsonl"), "-vs-")
		games, err := record.ReadFile(filepath.Join(out, "records", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != 3 {
			t.Fatalf("%s: %d games, want 3", name, len(games))
		}
		for g, got := range games {
			want, err := tour.Replay(int64(g), pairs, players)
			if err != nil {
				t.Fatal(err)
			}
			checkRecordedGame(t, name+" game "+strconv.Itoa(g), got, want)
		}
	}
}

// checkRecordedGame compares a game read from a record with the engine's replay of it: its
// players, deal size, moves seat by seat and scores, and the game its meta names.
func checkRecordedGame(t *testing.T, what string, got *record.Game, want *tournament.Replayed) {
	t.Helper()
	var names []string
	for _, p := range got.Players {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, want.Players) || got.Rules.Pairs != want.Pairs {
		t.Errorf("%s: players %v at %d pairs, want %v at %d", what, names, got.Rules.Pairs, want.Players, want.Pairs)
	}
	if got.Meta["game"] != strconv.FormatInt(want.Game, 10) || got.Meta["config"] != "rec" || got.Meta["source"] != "memsim run" {
		t.Errorf("%s: meta %v", what, got.Meta)
	}
	var moves []record.Move
	for _, turn := range want.Log.Turns {
		if len(turn.Flips) == 0 {
			moves = append(moves, record.Move{Seat: turn.Seat, Pass: true, MS: -1})
		}
		for _, f := range turn.Flips {
			moves = append(moves, record.Move{Seat: turn.Seat, Pos: f.Pos, Face: f.Face, MS: -1})
		}
	}
	if !slices.Equal(got.Moves, moves) {
		t.Errorf("%s: moves\n%v\nwant\n%v", what, got.Moves, moves)
	}
	scores := make([]float64, len(want.Outcome.Share))
	for i, s := range want.Outcome.Share {
		scores[i] = float64(s) / float64(len(scores))
	}
	if !slices.Equal(got.Result.Scores, scores) {
		t.Errorf("%s: scores %v, want %v", what, got.Result.Scores, scores)
	}
}

// A game of records/ is the game memsim replay --record writes, but for the command it names.
func TestRunRecordsAreReplaysRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "rec", tinyTournament+recordsTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	games, err := record.ReadFile(filepath.Join(dir, "out", "rec", "records", "4-random-vs-greedy.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for g, got := range games {
		file := filepath.Join(dir, "replay-"+strconv.Itoa(g)+".jsonl")
		if _, stderr, code := runArgs(t, "replay", "--config", cfg, "--pairs", "4", "--players", "random,greedy", "--game", strconv.Itoa(g), "--record", file); code != exitOK {
			t.Fatalf("replay: exit %d: %s", code, stderr)
		}
		replayed, err := record.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := replayed[0]
		if want.Meta["source"] != "memsim replay" || got.Meta["source"] != "memsim run" {
			t.Errorf("game %d: sources %q and %q", g, got.Meta["source"], want.Meta["source"])
		}
		delete(want.Meta, "source")
		delete(got.Meta, "source")
		if !slices.Equal(got.Moves, want.Moves) || !slices.Equal(got.Result.Scores, want.Result.Scores) ||
			!slices.Equal(got.Players, want.Players) || got.Rules != want.Rules || len(got.Meta) != len(want.Meta) {
			t.Errorf("game %d: the run's record differs from memsim replay --record's", g)
		}
		for k, v := range want.Meta {
			if got.Meta[k] != v {
				t.Errorf("game %d: meta %s = %q, want %q", g, k, got.Meta[k], v)
			}
		}
	}
}

// A run resumed from its checkpoint and a merge of its shards write the records/ of a run played
// in one go, byte for byte; a shard folder holds none, and records: 0 writes none.
func TestRecordsOfResumedAndMergedRuns(t *testing.T) {
	t.Parallel()
	body := tinyTournament + recordsTournament
	whole := t.TempDir()
	cfg := writeConfig(t, whole, "rec", body)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	want := readRecords(t, filepath.Join(whole, "out", "rec"))
	if len(want) != len(recordFiles) {
		t.Fatalf("the run wrote %d record files, want %d", len(want), len(recordFiles))
	}

	_, resumed := finishedRunFolder(t, t.TempDir(), "rec", body)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--resume", resumed); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if got := readRecords(t, resumed); !maps.Equal(got, want) {
		t.Error("the resumed run's records/ differs from the run's")
	}

	dir := t.TempDir()
	cfg = writeConfig(t, dir, "rec", body)
	var shards []string
	for _, s := range []string{"1/2", "2/2"} {
		if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--shard", s, cfg); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
		shard := filepath.Join(dir, "out", "rec", "shard-"+s[:1]+"-of-2")
		if slices.Contains(dirNames(t, shard), "records") {
			t.Errorf("shard %s wrote records", s)
		}
		shards = append(shards, shard)
	}
	merged := filepath.Join(dir, "merged")
	if _, stderr, code := runArgs(t, append([]string{"merge", "--no-figures", "--out", merged}, shards...)...); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if got := readRecords(t, merged); !maps.Equal(got, want) {
		t.Error("the merged run's records/ differs from the run's")
	}

	none := t.TempDir()
	cfg = writeConfig(t, none, "rec", tinyTournament+"records: 0\n")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run with records: 0: exit %d: %s", code, stderr)
	}
	if got := dirNames(t, filepath.Join(none, "out", "rec")); slices.Contains(got, "records") {
		t.Errorf("records: 0 wrote records/: %v", got)
	}
}

// A records value out of its range, or not an integer, is refused at its line and column.
func TestRunRefusesBadRecords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ value, want string }{
		{"1001", "records: must be between 0 and 1000, got 1001"},
		{"-1", "records: must be between 0 and 1000, got -1"},
		{"all", `records: expected an integer, got string "all"`},
	} {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "rec", tinyTournament+"records: "+tt.value+"\n")
		line := strconv.Itoa(strings.Count(tinyTournament, "\n") + 3)
		_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
		wantOneLineExit(t, "records: "+tt.value, code, exitUsage, stderr, "memsim run: "+configs.ShortPath(cfg)+":"+line+":10: ", tt.want)
	}
}
