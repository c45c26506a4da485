package tournament

import (
	"strings"
	"testing"
)

// A record file is named after its deal size and players, in characters every file system takes,
// and no two files of a run share a name.
func TestRecordNames(t *testing.T) {
	long := strings.Repeat("x", 120)
	taken := map[string]bool{}
	for _, tt := range []struct {
		pairs int
		names []string
		k     int
		want  string
	}{
		{12, []string{"optimal", "parity"}, 1, "12-optimal-vs-parity.jsonl"},
		{12, []string{"parity", "optimal"}, 2, "12-parity-vs-optimal.jsonl"},
		{26, []string{"optimal", "parity"}, 1, "26-optimal-vs-parity.jsonl"},
		{12, []string{"solo"}, 3, "12-solo.jsonl"},
		{12, []string{"a+b", "c"}, 4, "12-a_b-vs-c.jsonl"},
		{12, []string{"a-vs-b", "c"}, 5, "12-a-vs-b-vs-c.jsonl"},
		{12, []string{"a", "b-vs-c"}, 6, "12-a-vs-b-vs-c-2.jsonl"},
		{12, []string{"a_b", "c"}, 7, "12-a_b-vs-c-2.jsonl"},
		{12, []string{long, long}, 8, "12-matchup-8.jsonl"},
	} {
		if got := recordName(tt.pairs, tt.names, tt.k, taken); got != tt.want {
			t.Errorf("%d %v: %q, want %q", tt.pairs, tt.names, got, tt.want)
		}
	}
}
