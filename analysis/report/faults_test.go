package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// faultsRun is sampleRun with br a player process that forfeits at a fault: it forfeited 3 games
// at 2 pairs (2 crashes, 1 timeout) and 1 at 4 pairs (an illegal move).
func faultsRun() *Run {
	r := sampleRun()
	r.Players[1].Process = &Process{Name: "br-agent", Version: "1", View: "events", Command: []string{"./br"}}
	r.Players[1].OnError = OnErrorForfeit
	r.Matchups[1].Faults = []Faults{{Crashes: 2, Timeouts: 1, Forfeits: 3}, {}}
	r.Matchups[2].Faults = []Faults{{}, {Illegal: 1, Forfeits: 1}}
	return r
}

// TestFaultsTable checks the report's table of faults: one row per player that forfeits, summed
// over its matchups, and no table in a run whose players never forfeit.
func TestFaultsTable(t *testing.T) {
	var md bytes.Buffer
	if err := WriteMarkdown(&md, faultsRun(), nil); err != nil {
		t.Fatal(err)
	}
	head := "| player | games | crashes | timeouts | illegal moves | games forfeited |"
	if !strings.Contains(md.String(), "## Faults\n") || !strings.Contains(md.String(), head) {
		t.Fatalf("no faults table in\n%s", md.String())
	}
	if got, want := tableRow(t, md.String(), "Faults", "br"), "| br | 2000 | 2 | 1 | 1 | 4 |"; got != want {
		t.Errorf("faults row %q, want %q", got, want)
	}
	faults, _, _ := strings.Cut(md.String()[strings.Index(md.String(), "## Faults"):], "\n## 2 pairs")
	if strings.Contains(faults, "| opt |") {
		t.Error("a player that does not forfeit has a row")
	}
	md.Reset()
	if err := WriteMarkdown(&md, sampleRun(), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Faults") {
		t.Error("a run whose players never forfeit has a faults table")
	}
}

// TestFaultsRoundTrip checks that the fault counts and on_error survive results.json, and that a
// run without them writes neither.
func TestFaultsRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, faultsRun()); err != nil {
		t.Fatal(err)
	}
	var back Run
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Players[1].OnError != OnErrorForfeit || back.Matchups[1].Faults[0] != (Faults{Crashes: 2, Timeouts: 1, Forfeits: 3}) {
		t.Errorf("read back %+v and %+v", back.Players[1], back.Matchups[1].Faults)
	}
	b.Reset()
	if err := WriteJSON(&b, sampleRun()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "on_error") || strings.Contains(b.String(), "faults") {
		t.Error("a run whose players never forfeit writes on_error or faults")
	}
}

// TestValidateFaults checks that Validate refuses fault counts no run can have.
func TestValidateFaults(t *testing.T) {
	if err := faultsRun().Validate(); err != nil {
		t.Fatalf("faults run: %v", err)
	}
	for _, tt := range []struct {
		name  string
		spoil func(r *Run)
		want  string
	}{
		{"negative", func(r *Run) { r.Matchups[1].Faults[0].Crashes = -1 }, "matchups[1].faults[0]: crashes -1, timeouts 1, illegal 0: not within [0, 1000] (games)"},
		{"forfeits not the sum", func(r *Run) { r.Matchups[1].Faults[0].Forfeits = 4 }, "matchups[1].faults[0]: forfeits 4, not crashes 2 + timeouts 1 + illegal 0"},
		{"one seat short", func(r *Run) { r.Matchups[1].Faults = r.Matchups[1].Faults[:1] }, "matchups[1].faults: 1 entries for 2 seats"},
		{"a player that does not forfeit", func(r *Run) { r.Matchups[1].Faults[1] = Faults{Illegal: 1, Forfeits: 1} }, `matchups[1].faults[1]: 1 games forfeited by "opt", which has no on_error: forfeit`},
		{"more than the games", func(r *Run) {
			r.Players[0].Process, r.Players[0].OnError = &Process{Name: "o", Command: []string{"./o"}}, OnErrorForfeit
			r.Matchups[1].Faults = []Faults{{Crashes: 600, Forfeits: 600}, {Crashes: 401, Forfeits: 401}}
		}, "matchups[1].faults[1]: more games forfeited than games 1000"},
		{"on_error for a policy", func(r *Run) { r.Players[0].OnError = OnErrorForfeit }, `players[0].on_error: "forfeit": only "forfeit", for a player process`},
		{"on_error stop", func(r *Run) { r.Players[1].OnError = "stop" }, `players[1].on_error: "stop": only "forfeit", for a player process`},
	} {
		r := faultsRun()
		tt.spoil(r)
		if err := r.Validate(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}
