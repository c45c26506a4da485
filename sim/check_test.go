package sim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
)

// parityMatch is a paired match of parity against daring on n pairs.
func parityMatch(t *testing.T, n int, deals int64) *sim.Match {
	t.Helper()
	var players []sim.Player
	for _, p := range []rules.Policy{rules.PolicyParity, rules.PolicyDaring} {
		tab, err := rules.FixedChoiceTable(p, n, 0)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, sim.Player{Name: p.String(), Table: tab})
	}
	return &sim.Match{Setup: sim.Setup{Pairs: n, Players: players}, Orders: [][]int{{0, 1}, {1, 0}},
		Deals: deals, Seed: 11, DealStream: 3, PlayStream: 4}
}

// The convergence record holds seat 0's running sums after the batches of the schedule, as the
// games replayed one by one give them (its luck's too, in games with a luck table), and stays
// small.
func TestConvergenceRecord(t *testing.T) {
	m := parityMatch(t, 4, 20*sim.BatchSize+300)
	m.Setup.Luck = luckTable(t, exact.Model{}, 2, 4)
	res, err := m.Play(context.Background(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := range m.Orders {
		var games, sum, sumSq int64
		var luck, luckSq, luckShare big.Int
		points := res.Convergence[k]
		i := 0
		for d := range uint64(m.Deals) {
			o, err := m.Replay(k, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := int64(o.Share[0])
			games, sum, sumSq = games+1, sum+s, sumSq+s*s
			// A game's luck: its score minus its adjusted score, in units of sim.LuckUnit.
			l := big.NewInt(int64(math.Round((float64(s)/2 - o.Adjusted[0]) / sim.LuckUnit)))
			luck.Add(&luck, l)
			luckSq.Add(&luckSq, new(big.Int).Mul(l, l))
			luckShare.Add(&luckShare, new(big.Int).Mul(l, big.NewInt(s)))
			if (d+1)%sim.BatchSize == 0 && i < len(points) && points[i].Batch == int64(d+1)/sim.BatchSize {
				p := points[i]
				if p.Games != games || p.Sum != sum || p.SumSq != sumSq {
					t.Errorf("order %d, point %d (batch %d): %+v, replayed games give %d %d %d", k, i, p.Batch, p, games, sum, sumSq)
				}
				if p.Luck.Sum.Big().Cmp(&luck) != 0 || p.Luck.SumSq.Big().Cmp(&luckSq) != 0 || p.Luck.SumShare.Big().Cmp(&luckShare) != 0 {
					t.Errorf("order %d, point %d: luck sums %v %v %v, replayed games give %v %v %v", k, i,
						p.Luck.Sum, p.Luck.SumSq, p.Luck.SumShare, &luck, &luckSq, &luckShare)
				}
				i++
			}
		}
		if i != len(points) || luckSq.Sign() == 0 {
			t.Errorf("order %d: %d points, %d checked, luck's sum of squares %v", k, len(points), i, &luckSq)
		}
	}
	// The schedule: 1 .. 8, then each at least a quarter more than the last.
	var got []int64
	for b := sim.NextConvergencePoint(0); b <= 41; b = sim.NextConvergencePoint(b) {
		got = append(got, b)
	}
	if want := "[1 2 3 4 5 6 7 8 10 12 15 18 22 27 33 41]"; fmt.Sprint(got) != want {
		t.Errorf("schedule %v, want %s", got, want)
	}
	n := 0
	for b := sim.NextConvergencePoint(0); b <= 1e10; b = sim.NextConvergencePoint(b) {
		n++
	}
	if n > 120 {
		t.Errorf("%d points for 10^10 batches: the record grows too fast", n)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// CheckResult accepts what a match produces and names each kind of damage.
func TestCheckResult(t *testing.T) {
	m := parityMatch(t, 4, 3*sim.BatchSize+10)
	res, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CheckResult(res); err != nil {
		t.Fatalf("a fresh result: %v", err)
	}
	good := jsonOf(t, res)
	tests := []struct {
		name   string
		damage func(r *sim.Result)
		want   string
	}{
		{"nil tally", func(r *sim.Result) { r.Orders[1] = nil }, "no tally"},
		{"missing order", func(r *sim.Result) { r.Orders = r.Orders[:1] }, "1 seat orders"},
		{"negative count", func(r *sim.Result) { r.Orders[0].Share[0][2] = -1 }, "negative"},
		{"short row", func(r *sim.Result) { r.Orders[0].Share[1] = r.Orders[0].Share[1][:3] }, "share counts, want"},
		{"moved games", func(r *sim.Result) { r.Orders[0].Share[0][1]++ }, "add up to"},
		{"wins", func(r *sim.Result) { r.Orders[1].Wins[0]++ }, "wins"},
		{"games", func(r *sim.Result) { r.Orders[0].Games++ }, "games"},
		{"deals", func(r *sim.Result) { r.Deals-- }, "deals"},
		{"next batch", func(r *sim.Result) { r.NextBatch = 99 }, "next batch"},
		{"turns", func(r *sim.Result) { r.Orders[0].TurnSum = -5 }, "turns"},
		{"stalemates", func(r *sim.Result) { r.Orders[0].Stalemates = r.Orders[0].Games + 1 }, "stalemates"},
		{"paired deals", func(r *sim.Result) { r.Paired.Deals++ }, "paired tally"},
		{"paired sums", func(r *sim.Result) {
			for k, c := range r.Paired.Sum {
				if c > 0 {
					r.Paired.Sum[k]--
					r.Paired.Sum[k+1]++
					return
				}
			}
		}, "half pairs"},
		{"no pairing", func(r *sim.Result) { r.Paired = nil }, "pairing"},
		{"convergence point", func(r *sim.Result) { r.Convergence[0][1].Batch = 7 }, "convergence"},
		{"convergence length", func(r *sim.Result) { r.Convergence[1] = r.Convergence[1][:1] }, "convergence"},
		{"convergence beyond totals", func(r *sim.Result) { r.Convergence[0][2].Sum = 1 << 50 }, "convergence"},
		{"luck without a luck table", func(r *sim.Result) { r.Convergence[0][2].Luck.SumSq.Lo = 1 }, "luck's sum of squares"},
		{"luck sums of no games", func(r *sim.Result) { r.Convergence[1][0].Luck.SumShare.Lo = 3 }, "luck sums"},
		{"stopped at the end", func(r *sim.Result) { r.Stopped = true }, "stopped"},
		{"overflow", func(r *sim.Result) { r.Orders[0].Share[0][0] = 1 << 62; r.Orders[0].Share[0][1] = 1 << 62 }, "overflow"},
		{"another match's streams", func(r *sim.Result) { r.Streams[2]++ }, "another match"},
		{"no streams", func(r *sim.Result) { r.Streams = nil }, "another match"},
	}
	for _, tt := range tests {
		var r sim.Result
		if err := json.Unmarshal([]byte(good), &r); err != nil {
			t.Fatal(err)
		}
		tt.damage(&r)
		err := m.CheckResult(&r)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error about %q", tt.name, err, tt.want)
		}
	}
	if err := m.CheckResult(nil); err == nil {
		t.Error("a nil result passes")
	}
}
