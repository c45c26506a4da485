package sim

import (
	"context"
	"reflect"
	"testing"

	"memsim/sim/rules"
)

// A match stopped after some rounds has exactly the tallies of a match of that many deals, on any
// number of workers.
func TestPlayUntilStopsAtARoundOnAnyWorkers(t *testing.T) {
	setup := benchSetup(t, 6, rules.Memory{})
	round := int64(RoundBatches * BatchSize)
	var first *Result
	for _, workers := range []int{1, 2, 3} {
		m := Match{Setup: setup, Orders: [][]int{{0, 1}, {1, 0}}, Deals: 5 * round, Seed: 3, DealStream: 1, PlayStream: 2}
		calls := 0
		res, err := m.PlayUntil(context.Background(), workers, nil, func(r *Result) bool {
			calls++
			if r.Deals != int64(calls)*round || r.Orders[0].Games != r.Deals {
				t.Errorf("call %d: %d deals, %d games", calls, r.Deals, r.Orders[0].Games)
			}
			return r.Deals >= 2*round
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Stopped || res.Deals != 2*round || calls != 2 || len(res.Batches[0]) != 2*RoundBatches {
			t.Fatalf("workers %d: stopped %v after %d deals, %d calls, %d batches", workers, res.Stopped, res.Deals, calls, len(res.Batches[0]))
		}
		if first == nil {
			first = res
		} else if !reflect.DeepEqual(first, res) {
			t.Fatalf("workers %d: a different result", workers)
		}
	}
	m := Match{Setup: setup, Orders: [][]int{{0, 1}, {1, 0}}, Deals: 2 * round, Seed: 3, DealStream: 1, PlayStream: 2}
	whole, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole.Orders, first.Orders) || !reflect.DeepEqual(whole.Paired, first.Paired) || whole.Stopped {
		t.Fatal("the stopped match's tallies differ from a match of as many deals")
	}
}
