package tournament_test

import (
	"bytes"
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// stoppedConfig is a paired run that both stopping rules end early.
const stoppedConfig = `name: stopped
seed: 7
games: 200000
paired: true
rules: {pairs: [6]}
players:
  - {name: optimal, policy: optimal}
  - {name: parity, policy: parity}
  - {name: random, policy: random}
stop: {precision: 0.05, sprt: {d: 0.5, alpha: 0.05, beta: 0.05}}
`

// Every tournament of the validation suite (solitaire, three seats, singletons, every pass rule,
// forgetting memories, playing to win), played with a single game and with 64, and a run that
// stopping rules end early, write results that read back: nothing a run writes is refused, even
// where one game leaves no variance.
func TestRunResultsReadBack(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every tournament of the validation suite")
	}
	file, data := configs.ValidationSuite()
	suite, err := configs.ParseSuite(file, data, tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	stopped, err := configs.Parse("stopped.yaml", []byte(stoppedConfig), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	readBack := func(cfg *configs.Tournament) {
		tr, err := tournament.New(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Play(ctx, tournament.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		run, err := tr.Report(ctx, res)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Name, err)
		}
		var b bytes.Buffer
		if err := report.WriteJSON(&b, run); err != nil {
			t.Errorf("%s, %d games: %v", cfg.Name, cfg.Games, err)
			return
		}
		if _, err := tr.LoadRun(b.Bytes()); err != nil {
			t.Errorf("%s, %d games: the results written do not read back: %v", cfg.Name, cfg.Games, err)
		}
	}
	readBack(stopped)
	for _, games := range []int{1, 64} {
		for _, cfg := range suite {
			c := *cfg
			c.Games = games
			readBack(&c)
		}
	}
}

// A matchup with exact means but no exact distribution (win-optimal under a fluctuating capacity
// and a turn limit) reports the means, leaves the distribution out, and reads back.
func TestReportOfAMatchupWithMeansOnly(t *testing.T) {
	const doc = `name: means-only
seed: 3
games: 40
rules: {pairs: [2, 3], singletons: 2, turn_limit: 6}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: daring, policy: daring, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
`
	tr, run := playAndReport(t, "means-only.yaml", doc)
	for _, m := range run.Matchups {
		if len(m.ExactPairs) != 2 || m.ExactPairs[0] == nil {
			t.Errorf("%d pairs, %v: no exact means", m.Pairs, m.Players)
		}
		if m.ExactDistribution != nil {
			t.Errorf("%d pairs, %v: an exact distribution where the matchup has none", m.Pairs, m.Players)
		}
	}
	readsBack(t, tr, run)
}

// Copies under a handover-uniform memory and a turn limit report the exact means and the exact
// distribution of seat 0's share by the limit (a probability distribution whose mean is the
// exact pairs), and read back.
func TestReportOfCopiesUnderAMemoryAndATurnLimitHasItsDistribution(t *testing.T) {
	const doc = `name: copies-memory-limit
seed: 3
games: 40
rules: {pairs: [2, 4], copies: 4, turn_limit: 6}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: handover-uniform}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: handover-uniform}}
`
	tr, run := playAndReport(t, "copies-memory-limit.yaml", doc)
	for _, m := range run.Matchups {
		if len(m.ExactPairs) != 2 || m.ExactPairs[0] == nil {
			t.Errorf("%d pairs, %v: no exact means", m.Pairs, m.Players)
		}
		if m.ExactDistribution == nil {
			t.Errorf("%d pairs, %v: no exact distribution", m.Pairs, m.Players)
			continue
		}
		var sum, mean float64
		for i, p := range m.ExactDistribution {
			sum += p
			mean += p * float64(i) / 2
		}
		want, ok := new(big.Rat).SetString(*m.ExactPairs[0])
		if !ok {
			t.Fatalf("%d pairs, %v: exact pairs %q", m.Pairs, m.Players, *m.ExactPairs[0])
		}
		if w, _ := want.Float64(); math.Abs(sum-1) > 1e-9 || math.Abs(mean-w) > 1e-9 {
			t.Errorf("%d pairs, %v: the exact distribution adds up to %g, its mean %g; the exact pairs %s", m.Pairs, m.Players, sum, mean, *m.ExactPairs[0])
		}
	}
	readsBack(t, tr, run)
}

// playAndReport plays the tournament of YAML doc (named name) and returns it with its report,
// which has at least one matchup.
func playAndReport(t *testing.T, name, doc string) (*tournament.Tournament, *report.Run) {
	t.Helper()
	cfg, err := configs.Parse(name, []byte(doc), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(ctx, tournament.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	run, err := tr.Report(ctx, res)
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	if len(run.Matchups) == 0 {
		t.Fatal("no matchups reported")
	}
	return tr, run
}

// readsBack checks that the results of run, written as JSON, read back into tr.
func readsBack(t *testing.T, tr *tournament.Tournament, run *report.Run) {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteJSON(&b, run); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.LoadRun(b.Bytes()); err != nil {
		t.Errorf("the results written do not read back: %v", err)
	}
}
