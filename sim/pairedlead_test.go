package sim_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"memsim/sim"
)

// Under a turn limit the pairs left count for nobody, so a paired tally counts each deal's lead of
// the first participant over the second (Lead) as the games replayed one by one give it, and a
// result whose lead counts are damaged, missing or present without a limit is refused.
func TestPairedLeadUnderATurnLimitFollowsTheGames(t *testing.T) {
	m := parityMatch(t, 6, sim.BatchSize+50)
	m.Setup.Variant.TurnLimit = 5
	res, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := m.Setup.Pairs
	want := make([]int64, 8*n+1)
	limited := 0
	for d := range uint64(m.Deals) {
		lead := 0 // in half pairs, over the deal's two games
		for k, order := range m.Orders {
			o, err := m.Replay(k, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			first := slices.Index(order, 0)
			lead += o.Share[first] - o.Share[1-first]
			if o.Share[0]+o.Share[1] < 2*n {
				limited++
			}
		}
		want[lead+4*n]++
	}
	if limited == 0 {
		t.Fatal("no game ended with pairs left: the limit does not bind")
	}
	if !slices.Equal(res.Paired.Lead, want) {
		t.Errorf("lead counts %v, game by game %v", res.Paired.Lead, want)
	}
	if err := m.CheckResult(res); err != nil {
		t.Fatalf("a fresh result: %v", err)
	}
	good := jsonOf(t, res)
	for _, tt := range []struct {
		name   string
		damage func(m *sim.Match, r *sim.Result)
		want   string
	}{
		{"moved lead", func(_ *sim.Match, r *sim.Result) {
			for k, c := range r.Paired.Lead {
				if c > 0 {
					r.Paired.Lead[k]--
					r.Paired.Lead[k+1]++
					return
				}
			}
		}, "lead counts total"},
		{"no lead", func(_ *sim.Match, r *sim.Result) { r.Paired.Lead = nil }, "lead counts under a turn limit"},
		{"short lead", func(_ *sim.Match, r *sim.Result) { r.Paired.Lead = r.Paired.Lead[:4*n] }, "lead counts under a turn limit"},
		{"lead without a limit", func(m *sim.Match, _ *sim.Result) { m.Setup.Variant.TurnLimit = 0 }, "without a turn limit"},
	} {
		var r sim.Result
		if err := json.Unmarshal([]byte(good), &r); err != nil {
			t.Fatal(err)
		}
		mm := *m
		tt.damage(&mm, &r)
		err := mm.CheckResult(&r)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error about %q", tt.name, err, tt.want)
		}
	}
}
