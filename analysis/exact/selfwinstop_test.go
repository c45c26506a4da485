package exact_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// stopAfterContext is a context that reports itself cancelled from the k-th call of Done on: a
// solver that looks at its context only between rows sees it a few times, one that looks between
// the cycles of a row many more.
type stopAfterContext struct {
	context.Context
	mu     sync.Mutex
	calls  int
	k      int
	closed chan struct{}
}

func newStopAfterContext(k int) *stopAfterContext {
	c := &stopAfterContext{Context: context.Background(), k: k, closed: make(chan struct{})}
	close(c.closed)
	return c
}

func (c *stopAfterContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.calls >= c.k {
		return c.closed
	}
	return nil
}

func (c *stopAfterContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls >= c.k {
		return context.Canceled
	}
	return nil
}

// TestSelfWinStopsWithinARow checks that the win objective at four seats under a fluctuating
// capacity, whose last row holds hundreds of standings, stops inside that row when its context
// is cancelled, not at the next row: a stop requested after a few dozen looks at the context
// (far more than the rows of a 3-pair deal) ends the solve with an error wrapping
// context.Canceled.
func TestSelfWinStopsWithinARow(t *testing.T) {
	m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}}
	st := rules.State{N: 3, J: 3}
	for _, mu := range []exact.Lineup{
		{Players: 4, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 4, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
	} {
		ctx := newStopAfterContext(40)
		_, err := exact.Evaluate[float64](ctx, field.Float{}, m, mu, st)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s against %s: error %v after %d looks at the context, want one wrapping context.Canceled", mu.Policy, mu.Opponent, err, ctx.calls)
		}
	}
}
