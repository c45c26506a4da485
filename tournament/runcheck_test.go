package tournament_test

import (
	"testing"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

func TestCheckRunConfig(t *testing.T) {
	src := "name: small\nseed: 7\ngames: 2000\nrules: {pairs: [4, 6], singletons: 1, pass: two-known}\n" +
		"players: [{name: a, policy: optimal}, {name: b, policy: daring}]\n"
	cfg, err := configs.Parse("small.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	// The run as the configuration describes it, written out by hand.
	run := func() *report.Run {
		return &report.Run{Name: "small", Seed: 7, Games: 2000,
			Rules:   report.Rules{Pairs: []int{4, 6}, Singletons: 1, PlayersPerGame: 2, Pass: "two-known"},
			Players: []report.Player{{Name: "a", Policy: "optimal"}, {Name: "b", Policy: "daring"}}}
	}
	tests := []struct {
		name   string
		change func(r *report.Run)
		err    string // "" for none
	}{
		{"the same run", func(*report.Run) {}, ""},
		{"another name", func(r *report.Run) { r.Name = "big" }, `name "big" and seed 7, the configuration's "small" and 7`},
		{"another seed", func(r *report.Run) { r.Seed = 8 }, `name "small" and seed 8, the configuration's "small" and 7`},
		{"other games", func(r *report.Run) { r.Games = 1000 }, "1000 games per matchup, the configuration's 2000"},
		{"other deal sizes", func(r *report.Run) { r.Rules.Pairs = []int{4} }, "other rules than the configuration's"},
		{"other singletons", func(r *report.Run) { r.Rules.Singletons = 0 }, "other rules than the configuration's"},
		{"other seats", func(r *report.Run) { r.Rules.PlayersPerGame = 3 }, "other rules than the configuration's"},
		{"another pass rule", func(r *report.Run) { r.Rules.Pass = "never" }, "other rules than the configuration's"},
		{"a player more", func(r *report.Run) { r.Players = append(r.Players, report.Player{Name: "c", Policy: "safe"}) },
			"3 players, the configuration 2"},
		{"another policy", func(r *report.Run) { r.Players[1].Policy = "safe" }, "player 1 is b (safe), the configuration's b (daring)"},
		{"players swapped", func(r *report.Run) { r.Players[0], r.Players[1] = r.Players[1], r.Players[0] },
			"player 0 is b (daring), the configuration's a (optimal)"},
	}
	for _, tt := range tests {
		r := run()
		tt.change(r)
		err := tournament.CheckRunConfig(cfg, r)
		if got := errText(err); got != tt.err {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.err)
		}
	}
}

// TestCheckRunConfigOfAPlayerProcess checks that a player process, written "external" in the
// results, is the configuration's player of that command.
func TestCheckRunConfigOfAPlayerProcess(t *testing.T) {
	src := "name: p\nrules: {pairs: [4]}\nplayers: [{name: a, command: [./a], on_error: forfeit}, {name: b, policy: daring}]\n"
	cfg, err := configs.Parse("p.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := &report.Run{Name: "p", Seed: 1, Games: cfg.Games,
		Rules:   report.Rules{Pairs: []int{4}, PlayersPerGame: 2, Pass: "never"},
		Players: []report.Player{{Name: "a", Policy: "external", OnError: report.OnErrorForfeit}, {Name: "b", Policy: "daring"}}}
	if err := tournament.CheckRunConfig(cfg, r); err != nil {
		t.Errorf("a run of the configuration: %v", err)
	}
	r.Players[0].Policy = "daring"
	if got, want := errText(tournament.CheckRunConfig(cfg, r)), "player 0 is a (daring), the configuration's a (external)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
