package sim

import (
	"context"
	"encoding/json"
	"errors"
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
		if !res.Stopped || res.Deals != 2*round || calls != 2 || res.NextBatch != 2*RoundBatches {
			t.Fatalf("workers %d: stopped %v after %d deals, %d calls, next batch %d", workers, res.Stopped, res.Deals, calls, res.NextBatch)
		}
		if err := m.CheckResult(res); err != nil {
			t.Fatalf("workers %d: %v", workers, err)
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

// A match resumed from the state after some rounds, written out and read back as JSON, ends with
// the tallies of an uninterrupted match.
func TestPlayWithResumes(t *testing.T) {
	setup := benchSetup(t, 5, rules.Memory{})
	round := int64(RoundBatches * BatchSize)
	m := Match{Setup: setup, Orders: [][]int{{0, 1}, {1, 0}}, Deals: 3*round + 1000, Seed: 9, DealStream: 4, PlayStream: 5}
	whole, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var saved []byte
	ctx, cancel := context.WithCancel(context.Background())
	_, err = m.PlayWith(ctx, PlayOptions{Workers: 2, Round: func(r *Result) error {
		if r.Deals == 2*round {
			saved, _ = json.Marshal(r)
			cancel() // interrupted during the third round
		}
		return nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted match: %v", err)
	}
	var from Result
	if err := json.Unmarshal(saved, &from); err != nil {
		t.Fatal(err)
	}
	resumed, err := m.PlayWith(context.Background(), PlayOptions{Workers: 3, From: &from})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, resumed) {
		t.Fatal("the resumed match differs from the uninterrupted one")
	}
	bad := from
	bad.Deals = 100
	if _, err := m.PlayWith(context.Background(), PlayOptions{From: &bad}); err == nil {
		t.Error("a checkpoint off a round boundary was accepted")
	}
}

// The shards of a match, played apart and merged, give the tallies of the whole match.
func TestShardsMergeToTheWholeMatch(t *testing.T) {
	setup := benchSetup(t, 6, rules.Memory{})
	m := Match{Setup: setup, Orders: [][]int{{0, 1}, {1, 0}}, Deals: 7*BatchSize + 300, Seed: 2, DealStream: 7, PlayStream: 8}
	whole, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 8} {
		var parts []*Result
		for i := 1; i <= n; i++ {
			s := m
			s.Shard, s.Shards = i, n
			r, err := s.Play(context.Background(), 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, r)
		}
		merged, err := m.MergeShards(parts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(whole, merged) {
			t.Fatalf("%d shards merged differ from the whole match", n)
		}
		if n > 1 {
			if _, err := m.MergeShards(parts[1:]); err == nil {
				t.Errorf("%d shards: a missing shard was not noticed", n)
			}
		}
	}
}
