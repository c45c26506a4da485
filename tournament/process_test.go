package tournament_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"memsim/configs"
	"memsim/sim"
	"memsim/strategies"
	"memsim/tournament"
)

// pythonPlayer returns the command of an example player of clients/python, or skips the test
// when python3 is not installed.
func pythonPlayer(t *testing.T, script string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not installed (%v): the Python players are not tested", err)
	}
	path, err := filepath.Abs(filepath.Join("..", "clients", "python", "examples", script))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPythonParityPlaysAsTheBuiltIn checks that the Python example parity.py, a state-view player
// written from docs/protocol.md, plays exactly as memsim's own parity policy: each of its matches
// is played again with the built-in parity in its seat, on the same deals and streams, and the
// tallies must be equal bit for bit. Against random and greedy-random both are played on the
// engine's general path, which draws the table players' cards as the process's choices are
// played; against daring (all tables, which the engine plays on a path of its own) the first
// deals are replayed move by move on the general path.
func TestPythonParityPlaysAsTheBuiltIn(t *testing.T) {
	script := pythonPlayer(t, "parity.py")
	games, replays := 400, uint64(20)
	if testing.Short() {
		games, replays = 150, 10
	}
	src := `name: parity-py
games: ` + strconv.Itoa(games) + `
luck_adjusted: false
format: gauntlet
paired: true
rules: {pairs: [6]}
players:
  - {name: parity-py, command: [python3, "` + script + `"], time_per_move: 5s}
  - {name: random, policy: random}
  - {name: greedy-random, policy: greedy-random}
  - {name: daring, policy: daring}
`
	cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	builtIn, err := strategies.Build(ctx, strategies.Spec{Name: "parity-py", Policy: "parity"}, strategies.Env{MaxPairs: 6, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tr.Matches {
		local := -1
		for k, id := range m.IDs {
			if id == 0 {
				local = k
			}
		}
		same := m.Match
		same.Setup.Players = append([]sim.Player(nil), m.Setup.Players...)
		same.Setup.Players[local] = builtIn.Player
		opponent := tr.Config.Players[m.IDs[1-local]].Name
		if opponent == "daring" {
			for k := range m.Orders {
				for d := range replays {
					var got, want sim.Log
					if _, err := m.Replay(k, d, &got); err != nil {
						t.Fatal(err)
					}
					if _, err := same.Replay(k, d, &want); err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got.Turns, want.Turns) {
						t.Fatalf("against daring, seat order %d, deal %d: parity.py played\n%+v\nthe built-in parity\n%+v", k, d, got.Turns, want.Turns)
					}
				}
			}
			continue
		}
		got, err := m.Play(ctx, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := same.Play(ctx, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Orders, want.Orders) || !reflect.DeepEqual(got.Paired, want.Paired) {
			t.Errorf("against %s: parity.py's tallies\n%+v\ndiffer from the built-in parity's\n%+v", opponent, got.Orders[0], want.Orders[0])
		}
	}
}

// TestMissingPlayerProgramIsRefused checks that a command that cannot run is refused when the
// tournament is built, before anything is played, at the command's position in the file.
func TestMissingPlayerProgramIsRefused(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "player.sh")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ command, want string }{
		{"[no-such-player-program, x.py]", `t.yaml:3:24: player "p": command "no-such-player-program": executable file not found in $PATH`},
		{"[" + plain + "]", `t.yaml:3:24: player "p": command "` + plain + `": permission denied`},
	} {
		src := "rules: {pairs: [4]}\nplayers:\n  - {name: p, command: " + c.command + "}\n  - {name: daring, policy: daring}\n"
		cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		_, err = tournament.New(context.Background(), cfg)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}
