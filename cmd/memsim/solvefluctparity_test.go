package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A fluctuating capacity that never binds (base 8 ± 1, four pairs) gives perfect memory's values
// of parity and of best-response to parity, at two seats with the score distribution too, and at
// three seats every seat's pairs.
func TestSolveFluctuationParityNeverBindingIsPerfectMemory(t *testing.T) {
	t.Parallel()
	for _, lineup := range [][]string{
		{"--policy", "parity", "--opponent", "optimal", "--distribution"},
		{"--policy", "daring", "--opponent", "parity", "--distribution"},
		{"--policy", "best-response", "--opponent", "parity"},
		{"--seats", "parity,optimal,safe"},
		{"--seats", "parity,best-response,parity"},
	} {
		var got, want map[string]json.RawMessage
		seatsDecode(t, &got, append([]string{"--pairs", "4", "--memory", "8", "--forget", "lru", "--fluctuation", "1"}, lineup...)...)
		seatsDecode(t, &want, append([]string{"--pairs", "4"}, lineup...)...)
		for _, key := range []string{"expected_pairs_by_seat", "expected_lead", "score_distribution"} {
			if _, ok := want[key]; ok && !reflect.DeepEqual(got[key], want[key]) {
				t.Errorf("%v: %s %s, perfect memory's %s", lineup, key, got[key], want[key])
			}
		}
		if got["expected_pairs_by_seat"] == nil {
			t.Errorf("%v: no expected_pairs_by_seat", lineup)
		}
	}
}
