package answer_test

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The table of every seat for itself holds one cell per state with 1 to N pairs (per pass streak
// under a pass rule, streak 0 first), in order of n and j; every seat's expected pairs add up to
// n, and at streak 0 they are exact.Evaluate's from that state.
func TestWriteSeatsTable(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		m       exact.Model
		players int
		streaks int
	}{
		{exact.Model{}, 3, 1},
		{exact.Model{Pass: rules.PassAlways}, 4, 4},
		{exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}}, 3, 1},
	} {
		var tab answer.SeatsTable
		writeTable(t, func(b *bytes.Buffer) error {
			return answer.WriteSeatsTable(ctx, b, field.Rat{}, tt.m, tt.players, 3, 0)
		}, &tab)
		i := 0
		for n := 1; n <= 3; n++ {
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j}
				if !tt.m.Memory.Holds(st.Known()) {
					continue
				}
				mu := exact.Lineup{Players: tt.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
				res, err := exact.Evaluate(ctx, field.Rat{}, tt.m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for k := range tt.streaks {
					if i >= len(tab.Cells) {
						t.Fatalf("%+v: %d cells, want more", tt.m, len(tab.Cells))
					}
					c := tab.Cells[i]
					i++
					if c.Pairs != n || c.Unknown != j || (c.Passes == nil) != (tt.streaks == 1) || (c.Passes != nil && *c.Passes != k) {
						t.Fatalf("%+v: cell %d is %+v, want n=%d j=%d streak %d", tt.m, i-1, c, n, j, k)
					}
					sum := new(big.Rat)
					for s, v := range c.ExpectedBySeat {
						x, ok := new(big.Rat).SetString(v.Exact)
						if !ok {
							t.Fatalf("value %q", v.Exact)
						}
						sum.Add(sum, x)
						if k == 0 && x.Cmp(res.PairsBySeat[s]) != 0 {
							t.Errorf("%+v: %v seat %d: %s, Evaluate %s", tt.m, st, s, v.Exact, res.PairsBySeat[s].RatString())
						}
					}
					if sum.Cmp(big.NewRat(int64(n), 1)) != 0 {
						t.Errorf("%+v: %v streak %d: the seats' pairs add up to %s", tt.m, st, k, sum.RatString())
					}
				}
			}
		}
		if i != len(tab.Cells) {
			t.Errorf("%+v: %d cells, want %d", tt.m, len(tab.Cells), i)
		}
	}
}

// The win table of every seat for itself holds, per count state, one cell per standings with a
// deficit 0 ((n+2)^p - (n+1)^p of them), whose seats' scores add up to 1, and its choice is among
// the best.
func TestWriteSeatsWinTable(t *testing.T) {
	var tab answer.SeatsWinTable
	writeTable(t, func(b *bytes.Buffer) error {
		return answer.WriteSeatsWinTable(context.Background(), b, field.Rat{}, exact.Model{}, 3, 2, 0)
	}, &tab)
	if want := 2*(27-8) + 3*(64-27); len(tab.Cells) != want {
		t.Fatalf("%d cells, want %d", len(tab.Cells), want)
	}
	for _, c := range tab.Cells {
		sum := new(big.Rat)
		for _, v := range c.ScoreBySeat {
			x, _ := new(big.Rat).SetString(v.Exact)
			sum.Add(sum, x)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 || len(c.Best) == 0 || c.Best[0] != c.Choice {
			t.Errorf("%+v: scores add up to %s", c, sum.RatString())
		}
	}
}

// Under a pass rule the win table holds each cell at every pass streak, the streak named, the
// scores adding up to 1 at each.
func TestWriteSeatsWinTableStreaks(t *testing.T) {
	var tab answer.SeatsWinTable
	writeTable(t, func(b *bytes.Buffer) error {
		return answer.WriteSeatsWinTable(context.Background(), b, field.Rat{}, exact.Model{Pass: rules.PassAlways}, 3, 2, 0)
	}, &tab)
	if want := 3 * (2*(27-8) + 3*(64-27)); len(tab.Cells) != want {
		t.Fatalf("%d cells, want %d (every standings at 3 streaks)", len(tab.Cells), want)
	}
	streaks := map[int]int{}
	for _, c := range tab.Cells {
		if c.Passes == nil {
			t.Fatalf("%+v: no pass streak", c)
		}
		streaks[*c.Passes]++
		sum := new(big.Rat)
		for _, v := range c.ScoreBySeat {
			x, _ := new(big.Rat).SetString(v.Exact)
			sum.Add(sum, x)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%+v: scores add up to %s", c, sum.RatString())
		}
	}
	if len(streaks) != 3 || streaks[0] != streaks[1] || streaks[1] != streaks[2] {
		t.Errorf("cells by streak %v, want as many at each of 0, 1, 2", streaks)
	}
}

// Unseen singletons the model cannot have, a model the tables do not cover, and a failing
// writer, are errors.
func TestWriteSeatsTableErrors(t *testing.T) {
	ctx := context.Background()
	var buf bytes.Buffer
	if err := answer.WriteSeatsTable(ctx, &buf, field.Float{}, exact.Model{Singletons: 1}, 3, 3, 2); err == nil || buf.Len() > 0 {
		t.Errorf("2 unseen of 1 singleton: %v, wrote %q", err, buf.String())
	}
	fluct := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}}
	if err := answer.WriteSeatsWinTable(ctx, &buf, field.Float{}, fluct, 3, 3, 0); err == nil || buf.Len() > 0 {
		t.Errorf("win table under a fluctuating capacity: %v, wrote %d bytes", err, buf.Len())
	}
	copiesPass := exact.Model{Variant: rules.Variant{Copies: 4}, Pass: rules.PassTwoKnown}
	if err := answer.WriteSeatsTable(ctx, &buf, field.Float{}, copiesPass, 3, 4, 0); err == nil || buf.Len() > 0 {
		t.Errorf("four copies of a face under pass rule two-known: %v, wrote %q", err, buf.String())
	}
	if err := answer.WriteSeatsTable(ctx, &buf, field.Float{}, exact.Model{}, 2, 3, 0); err == nil || buf.Len() > 0 {
		t.Errorf("2 players: %v, wrote %q", err, buf.String())
	}
	if err := answer.WriteSeatsTable(ctx, failWriter{}, field.Float{}, exact.Model{}, 3, 3, 0); !errors.Is(err, errWrite) {
		t.Errorf("failing writer: %v", err)
	}
	if err := answer.WriteSeatsWinTable(ctx, failWriter{}, field.Float{}, exact.Model{}, 3, 3, 0); !errors.Is(err, errWrite) {
		t.Errorf("failing writer, win table: %v", err)
	}
}
