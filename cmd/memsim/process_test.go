package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunWithAPlayerProcess runs a tournament with the Python example random_player.py: the run
// folder holds the player's log and results.json says which program played. A player that exits
// at its first move stops the run with one line naming it and how to resume.
func TestRunWithAPlayerProcess(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not installed (%v): the Python players are not tested", err)
	}
	script, err := filepath.Abs("../../clients/python/examples/random_player.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "proc", "games: 200\nrules: {pairs: [4]}\nplayers:\n  - {name: rnd-py, command: [python3, \""+script+"\"]}\n  - {name: daring, policy: daring}\n")
	if _, stderr, code := runArgs(t, "run", "--quiet", "--no-figures", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "proc")
	if _, err := os.Stat(filepath.Join(out, "logs", "rnd-py.log")); err != nil {
		t.Errorf("no player log: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Players []struct {
			Policy  string
			Process *struct {
				Name, View string
				Command    []string
				Files      []struct{ Path, SHA256 string }
			}
		}
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	p := res.Players[0]
	if p.Policy != "external" || p.Process == nil || p.Process.View != "events" || len(p.Process.Files) != 2 || p.Process.Files[1].Path != script {
		t.Fatalf("results.json records the player process as %+v", p)
	}

	// A player that exits at its first move.
	broken := filepath.Join(dir, "broken.py")
	if err := os.WriteFile(broken, []byte(`import sys, json
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "player", "name": "broken", "version": "1", "view": "events"}), flush=True)
    elif m["type"] == "move":
        print("cannot think", file=sys.stderr)
        sys.exit(4)
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg = writeConfig(t, dir, "broken", "games: 200\nrules: {pairs: [4]}\nplayers:\n  - {name: broken, command: [python3, \""+broken+"\"]}\n  - {name: daring, policy: daring}\n")
	_, stderr, code := runArgs(t, "run", "--quiet", "--no-figures", cfg)
	lines := strings.SplitAfter(stderr, "\n")
	last := lines[len(lines)-2] // the first line says what the run plays
	wantOneLineExit(t, "a player that exits", code, exitError, last, "memsim run: ", `player "broken"`, "exited (exit status 4)",
		"its stderr is in "+filepath.Join(dir, "out", "broken", "logs", "broken.log"), "resume with: memsim run --resume")
	log, err := os.ReadFile(filepath.Join(dir, "out", "broken", "logs", "broken.log"))
	if err != nil || !strings.Contains(string(log), "cannot think") {
		t.Errorf("the player's log holds %q (%v)", log, err)
	}
}

// TestRunWithAPlayerProcessUnderVariants runs the Python example daring.py, which declares every
// rule variant, under copies of a face, blind flips and a turn limit together, and its records
// give the variant; random_player.py, which declares none, is refused with one line naming the
// rule it lacks.
func TestRunWithAPlayerProcessUnderVariants(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not installed (%v): the Python players are not tested", err)
	}
	daring, err := filepath.Abs("../../clients/python/examples/daring.py")
	if err != nil {
		t.Fatal(err)
	}
	random, err := filepath.Abs("../../clients/python/examples/random_player.py")
	if err != nil {
		t.Fatal(err)
	}
	const rules = "games: 16\nrecords: 2\nrules: {pairs: [8], copies: 4, flips: blind, turn_limit: 12}\n"
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "var", rules+"players:\n  - {name: daring-py, command: [python3, \""+daring+"\"]}\n  - {name: safe, policy: safe}\n")
	if _, stderr, code := runArgs(t, "run", "--quiet", "--no-figures", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "out", "var", "records", "8-daring-py-vs-safe.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"copies":4,"flips":"blind","turn_limit":12`; !strings.Contains(string(rec), want) {
		t.Errorf("the record's rules do not give %s:\n%s", want, rec)
	}

	cfg = writeConfig(t, dir, "refused", rules+"players:\n  - {name: rnd-py, command: [python3, \""+random+"\"]}\n  - {name: safe, policy: safe}\n")
	_, stderr, code := runArgs(t, "run", "--quiet", "--no-figures", cfg)
	lines := strings.SplitAfter(stderr, "\n")
	last := lines[len(lines)-2] // the line before, if any, says what the run plays
	wantOneLineExit(t, "a player without the variant", code, exitUsage, last, "memsim run: "+cfg+": ", `player "rnd-py"`,
		`does not declare the rule variant "copies"`, "copies 4, blind flips, turn limit 12")
}
