package tournament_test

import (
	"bytes"
	"context"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim/rules"
	"memsim/tournament"
)

// A tournament under four copies of a face and a shared decay memory reports the copies model's
// exact means, seat by seat, and seat 0's exact score distribution as the library gives them; its
// results read back.
func TestReportOfCopiesUnderDecayGivesTheModelsValues(t *testing.T) {
	const doc = `name: copies-decay
seed: 3
games: 40
rules: {pairs: [2, 4], copies: 4}
players:
  - {name: optimal, policy: optimal, memory: {forget: decay, q: 0.3}}
  - {name: safe, policy: safe, memory: {forget: decay, q: 0.3}}
`
	cfg, err := configs.Parse("copies-decay.yaml", []byte(doc), tournament.ConfigOptions())
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
	policy := map[string]rules.Policy{"optimal": rules.PolicyOptimal, "safe": rules.PolicySafe}
	m := exact.Model{Variant: rules.Variant{Copies: 4}, Choices: rules.FullChoices,
		Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.3}}
	for _, mt := range run.Matchups {
		if len(mt.ExactPairs) != 2 || mt.ExactPairs[0] == nil || mt.ExactPairs[1] == nil {
			t.Errorf("%d pairs, %v: no exact means", mt.Pairs, mt.Players)
			continue
		}
		st, err := exact.StartCopiesState(mt.Pairs, 4)
		if err != nil {
			t.Fatal(err)
		}
		mu := exact.Lineup{Players: 2, Policy: policy[mt.Players[0]], Opponent: policy[mt.Players[1]]}
		d, err := exact.CopiesDistribution(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if len(mt.ExactDistribution) != len(d.Prob) {
			t.Errorf("%d pairs, %v: %d exact probabilities, the copies model under decay %d", mt.Pairs, mt.Players, len(mt.ExactDistribution), len(d.Prob))
		} else {
			for i, p := range d.Prob {
				if math.Abs(mt.ExactDistribution[i]-p) > 1e-12 {
					t.Errorf("%d pairs, %v: share %d/2: exact %v, the copies model under decay %v", mt.Pairs, mt.Players, i, mt.ExactDistribution[i], p)
				}
			}
		}
		want, err := exact.EvaluateCopies(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		for seat, v := range want.PairsBySeat {
			if got := *mt.ExactPairs[seat]; got != v.RatString() {
				t.Errorf("%d pairs, %v: seat %d's exact mean %s, the copies model under decay %s", mt.Pairs, mt.Players, seat, got, v.RatString())
			}
		}
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, run); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.LoadRun(b.Bytes()); err != nil {
		t.Errorf("the results written do not read back: %v", err)
	}
}
