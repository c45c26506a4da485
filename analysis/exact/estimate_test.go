package exact_test

import (
	"context"
	"errors"
	"math"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// estimate is exact.Estimate, failing the test on an error.
func estimate(t *testing.T, m exact.Model, mu exact.Lineup, pairs int, o exact.Options) exact.Cost {
	t.Helper()
	c, err := exact.Estimate(m, mu, pairs, o)
	if err != nil {
		t.Fatalf("Estimate(%+v, %+v, %d, %+v): %v", m, mu, pairs, o, err)
	}
	return c
}

// near reports whether a and b agree to a relative 1e-9.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// The work of a sweep in float64 is its states times the work of one state: the same per state
// whatever the deal size and singletons; limited memory holds fewer states, counted here
// directly (the states (n', j) with n' - j <= capacity); the distribution's work per state grows
// with the leads it holds (2n + 1), more players' with the seats' vectors (players²), and a
// table that plays to win holds every lead (2n + 3) of every state.
func TestEstimateIsStatesTimesTheWorkOfAState(t *testing.T) {
	float := exact.Options{Float: true}
	perState := func(m exact.Model, mu exact.Lineup, n int, o exact.Options) float64 {
		states := exact.SweepStates(m, exact.Lineup{Players: 2}, n)
		return estimate(t, m, mu, n, o).Ops / states
	}
	base := perState(exact.Model{}, selfPlay, 10, float)
	for _, n := range []int{1, 37, 500} {
		for _, s := range []int{0, 4} {
			if got := perState(exact.Model{Singletons: s}, selfPlay, n, float); !near(got, base) {
				t.Errorf("%d pairs, %d singletons: %g operations a state, want %g as at 10 pairs", n, s, got, base)
			}
		}
	}
	for _, capacity := range []int{2, 5, 40} {
		const n = 30
		m := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetLRU}}
		held := 0
		for k := 0; k <= n; k++ {
			for j := 0; j <= k; j++ {
				if k-j <= capacity {
					held++
				}
			}
		}
		got := estimate(t, m, selfPlay, n, float).Ops
		if want := base * float64(held); !near(got, want) {
			t.Errorf("memory %d, %d pairs: %g operations, want %g for %d states", capacity, n, got, want, held)
		}
	}
	// Affine in the leads of a distribution: equal steps of n give equal steps per state.
	dist := exact.Options{Call: exact.CallDistribution, Float: true}
	d1, d2, d3 := perState(exact.Model{}, selfPlay, 10, dist), perState(exact.Model{}, selfPlay, 20, dist), perState(exact.Model{}, selfPlay, 30, dist)
	if !near(d2-d1, d3-d2) || d2 <= d1 {
		t.Errorf("distribution: %g, %g, %g operations a state at 10, 20, 30 pairs: not growing with the leads", d1, d2, d3)
	}
	// Affine in players²: 3, 5 and 7 players (9, 25, 49) step by 16, then 24.
	p := func(k int) float64 {
		return perState(exact.Model{}, exact.Lineup{Players: k, Policy: rules.PolicyParity, Opponent: rules.PolicyParity}, 20, float)
	}
	if got, want := (p(7)-p(5))/(p(5)-p(3)), 24.0/16; !near(got, want) {
		t.Errorf("players: steps in the ratio %g, want %g (players²)", got, want)
	}
	// Proportional to the leads of a table that plays to win.
	win := exact.Options{Call: exact.CallWinTable, Float: true}
	w10, w40 := perState(exact.Model{}, toWin, 10, win)/23, perState(exact.Model{}, toWin, 40, win)/83
	if !near(w10, w40) {
		t.Errorf("win table: %g and %g operations a state and lead at 10 and 40 pairs, want equal", w10, w40)
	}
}

// Exact rationals cost more than float64 and more so as the deal grows; the distribution more
// than the values, more players more than two, playing to win more than optimal; every request
// holds at least its two rows of values.
func TestEstimateOrdersRequests(t *testing.T) {
	perfect := exact.Model{}
	eight := exact.Lineup{Players: 8, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	winVsOpt := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyOptimal}
	for _, tt := range []struct {
		name          string
		less, more    exact.Cost
		lessOpsFactor float64 // more.Ops must be at least this times less.Ops
	}{
		{"float64 < rationals", estimate(t, perfect, selfPlay, 300, exact.Options{Float: true}),
			estimate(t, perfect, selfPlay, 300, exact.Options{}), 1},
		{"values < distribution", estimate(t, perfect, selfPlay, 100, exact.Options{}),
			estimate(t, perfect, selfPlay, 100, exact.Options{Call: exact.CallDistribution}), 10},
		{"2 players < 8", estimate(t, perfect, selfPlay, 100, exact.Options{}),
			estimate(t, perfect, eight, 100, exact.Options{}), 10},
		{"optimal < win-optimal", estimate(t, perfect, selfPlay, 40, exact.Options{}),
			estimate(t, perfect, winVsOpt, 40, exact.Options{}), 40},
		{"table < win table", estimate(t, perfect, selfPlay, 40, exact.Options{Call: exact.CallTable}),
			estimate(t, perfect, toWin, 40, exact.Options{Call: exact.CallWinTable}), 40},
		// The states grow as n², about 4 times at twice the pairs; in rationals the size of the
		// numbers with them.
		{"100 < 200 pairs in rationals", estimate(t, perfect, eight, 100, exact.Options{}),
			estimate(t, perfect, eight, 200, exact.Options{}), 4.5},
	} {
		if tt.more.Ops < tt.lessOpsFactor*tt.less.Ops {
			t.Errorf("%s: %g operations against %g, want at least %g times", tt.name, tt.more.Ops, tt.less.Ops, tt.lessOpsFactor)
		}
	}
	// The distribution in float64 keeps two rows of n + 1 states, each with two distributions of
	// 2n + 1 float64 values.
	const n = 2000
	c := estimate(t, perfect, selfPlay, n, exact.Options{Call: exact.CallDistribution, Float: true})
	if rows := 2.0 * (n + 1) * 2 * (2*n + 1) * 8; c.Bytes < rows {
		t.Errorf("distribution at %d pairs: %g bytes, less than its rows' %g", n, c.Bytes, rows)
	}
	if got := c.Then(c); got.Ops != 2*c.Ops || got.Bytes != c.Bytes {
		t.Errorf("Then: %+v, want the work of both and the memory of one", got)
	}
}

// Estimate refuses what the call refuses.
func TestEstimateRefusesWhatTheCallRefuses(t *testing.T) {
	three := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, tt := range []struct {
		name  string
		m     exact.Model
		mu    exact.Lineup
		pairs int
		o     exact.Options
	}{
		{"negative pairs", exact.Model{}, selfPlay, -1, exact.Options{}},
		{"distribution of 3 players playing to win under decay", exact.Model{Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetDecay, Decay: 0.5}}, exact.Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, 10, exact.Options{Call: exact.CallDistribution}},
		{"win, draw and loss of 3 players", exact.Model{}, three, 10, exact.Options{Call: exact.CallWinDrawLoss}},
		{"win table of optimal", exact.Model{}, selfPlay, 10, exact.Options{Call: exact.CallWinTable}},
		{"table of 0 pairs", exact.Model{}, selfPlay, 0, exact.Options{Call: exact.CallTable}},
		{"decay memory", exact.Model{Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetDecay}}, selfPlay, 10, exact.Options{}},
		{"no such call", exact.Model{}, selfPlay, 10, exact.Options{Call: exact.CallPolicyTable + 1}},
	} {
		if _, err := exact.Estimate(tt.m, tt.mu, tt.pairs, tt.o); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	// A fixed policy's table is written out without solving.
	parity := exact.Lineup{Players: 2, Policy: rules.PolicyParity, Opponent: rules.PolicyParity}
	if c := estimate(t, exact.Model{}, parity, 100, exact.Options{Call: exact.CallPolicyTable}); c.Ops != 0 {
		t.Errorf("a fixed policy's table: %g operations, want 0", c.Ops)
	}
}

// Gerez's estimate counts the states <k, B, P> of every k up to the cards asked for.
func TestEstimateGerezCountsItsStates(t *testing.T) {
	count := func(maxCards int) int {
		n := 0
		for k := 0; k <= maxCards; k += 2 {
			for b := 0; b <= k; b++ {
				for p := 0; p <= b; p++ {
					if (exact.GerezState{K: k, B: b, P: p}).Valid() {
						n++
					}
				}
			}
		}
		return n
	}
	if a, b := exact.EstimateGerez(20), exact.EstimateGerez(40); b.Ops <= a.Ops*float64(count(40))/float64(count(20)) {
		t.Errorf("Gerez: %g operations at 40 cards, %g at 20: not growing faster than the states (%d, %d)", b.Ops, a.Ops, count(40), count(20))
	}
	if c := exact.EstimateGerez(400); c.Seconds() < 60 {
		t.Errorf("Gerez at 400 cards: %.3g s, want minutes", c.Seconds())
	}
}

// A solve under WithProgress counts the operations Estimate gives, up to the rounding of each
// deal size's to a whole number.
func TestProgressReachesTheEstimate(t *testing.T) {
	perfect := exact.Model{}
	br := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyParity}
	const n = 12
	st := rules.State{N: n, J: n}
	for _, tt := range []struct {
		name string
		o    exact.Options
		mu   exact.Lineup
		call func(ctx context.Context) error
	}{
		{"Evaluate", exact.Options{}, selfPlay, func(ctx context.Context) error {
			_, err := exact.Evaluate(ctx, field.Rat{}, perfect, selfPlay, st)
			return err
		}},
		{"Distribution", exact.Options{Call: exact.CallDistribution, Float: true}, br, func(ctx context.Context) error {
			_, err := exact.Distribution(ctx, field.Float{}, perfect, br, st)
			return err
		}},
		{"WinDrawLoss", exact.Options{Call: exact.CallWinDrawLoss}, toWin, func(ctx context.Context) error {
			_, err := exact.WinDrawLoss(ctx, field.Rat{}, perfect, toWin, st)
			return err
		}},
		{"WinDrawLoss of a best response", exact.Options{Call: exact.CallWinDrawLoss, Float: true}, br, func(ctx context.Context) error {
			_, err := exact.WinDrawLoss(ctx, field.Float{}, perfect, br, st)
			return err
		}},
		{"Table", exact.Options{Call: exact.CallTable}, selfPlay, func(ctx context.Context) error {
			return exact.Table(ctx, field.Rat{}, perfect, n, func(*exact.TableCell[*big.Rat]) error { return nil })
		}},
		{"WinTable", exact.Options{Call: exact.CallWinTable, Float: true}, toWin, func(ctx context.Context) error {
			return exact.WinTable(ctx, field.Float{}, perfect, toWin, n, func(*exact.WinCell[float64]) error { return nil })
		}},
		{"PolicyTable", exact.Options{Call: exact.CallPolicyTable}, br, func(ctx context.Context) error {
			_, err := exact.PolicyTable(ctx, field.Rat{}, perfect, br, n)
			return err
		}},
	} {
		var done atomic.Int64
		if err := tt.call(exact.WithProgress(context.Background(), &done)); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := estimate(t, perfect, tt.mu, n, tt.o).Ops
		// Each deal size's operations are counted whole: at most one less each, per sweep.
		if got := float64(done.Load()); got > want || got < want-2*(n+1) {
			t.Errorf("%s: counted %g operations, want %g", tt.name, got, want)
		}
	}
	var done atomic.Int64
	if _, err := exact.SolveGerez(exact.WithProgress(context.Background(), &done), exact.GerezState{K: 20}); err != nil {
		t.Fatal(err)
	}
	if got, want := float64(done.Load()), exact.EstimateGerez(20).Ops; got > want || got < want/2 {
		t.Errorf("Gerez: counted %g operations, want about %g", got, want)
	}
}

// Every call of the solver stops promptly once its context is cancelled, with an error that
// wraps the context's, even deep in a sweep whose states take long (exact distributions, eight
// seats, every lead, Gerez's rationals): it looks before every state. A normal build stops
// within milliseconds; the bound, far below what any of these calls takes uncancelled, allows for
// the race detector on a busy machine.
func TestSolverStopsPromptlyWhenCancelled(t *testing.T) {
	t.Parallel()
	perfect := exact.Model{}
	eight := exact.Lineup{Players: 8, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, tt := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Distribution at 1000 pairs", func(ctx context.Context) error {
			_, err := exact.Distribution(ctx, field.Rat{}, perfect, selfPlay, rules.State{N: 1000, J: 1000})
			return err
		}},
		{"Evaluate of 8 players", func(ctx context.Context) error {
			_, err := exact.Evaluate(ctx, field.Rat{}, perfect, eight, rules.State{N: 1000, J: 1000})
			return err
		}},
		{"WinTable at 200 pairs", func(ctx context.Context) error {
			return exact.WinTable(ctx, field.Float{}, perfect, toWin, 200, func(*exact.WinCell[float64]) error { return nil })
		}},
		{"PolicyTable of win-optimal", func(ctx context.Context) error {
			_, err := exact.PolicyTable(ctx, field.Float{}, perfect, toWin, 200)
			return err
		}},
		{"LuckTable of 8 players", func(ctx context.Context) error {
			_, err := exact.LuckTable(ctx, perfect, 8, 400)
			return err
		}},
		{"Gerez at 400 cards", func(ctx context.Context) error {
			_, err := exact.SolveGerez(ctx, exact.GerezState{K: 400})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The context is cancelled 300 ms into the solve (by its timer, in the runtime).
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := tt.call(ctx)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v, want one wrapping context.DeadlineExceeded", err)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("still solving %v after the cancellation", d-300*time.Millisecond)
			}
		})
	}
}
