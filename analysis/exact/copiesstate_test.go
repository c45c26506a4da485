package exact

import (
	"strings"
	"testing"
)

// A state written by String parses back to itself, in any order of groups and with commas or
// spaces; malformed states are refused with the group at fault.
func TestParseCopiesState(t *testing.T) {
	for _, tt := range []struct {
		in     string
		copies int
		want   string
		pairs  int
	}{
		{"4:3u+1h,2:2u", 4, "4:3u+1h,2:2u", 10},
		{"2:2u 4:1h+3u", 4, "4:3u+1h,2:2u", 10},
		{"26:2u", 26, "26:2u", 26},
		{"2:1h,2:1u", 6, "2:1u+1h", 2},
		{"2:0u", 2, "empty", 0},
	} {
		st, err := ParseCopiesState(tt.in, tt.copies)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if st.String() != tt.want || st.Pairs() != tt.pairs || st.Copies() != tt.copies {
			t.Errorf("%q: %v, %d pairs, copies %d; want %v, %d pairs", tt.in, st, st.Pairs(), st.Copies(), tt.want, tt.pairs)
		}
	}
	for _, tt := range []struct {
		in     string
		copies int
		want   string
	}{
		{"", 4, "no faces"},
		{"4:3x", 4, `"3x" is not Au`},
		{"3:1u", 4, "3 cards on the table, must be even"},
		{"6:1u", 4, "6 cards on the table"},
		{"4-1u", 4, "want R:Au+Bh"},
		{"4:-1u", 4, "is not Au or Bh"},
		{"4:1u", 5, "copies 5"},
	} {
		if _, err := ParseCopiesState(tt.in, tt.copies); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one with %q", tt.in, err, tt.want)
		}
	}
}

// The start of a game has every face whole and unknown; counts of states follow C(F + k, k).
func TestStartCopiesState(t *testing.T) {
	st, err := StartCopiesState(26, 4)
	if err != nil || st.String() != "4:13u" || st.UnknownCards() != 52 || st.Remembered() != 0 {
		t.Errorf("start of 26 pairs, copies 4: %v (%v)", st, err)
	}
	if _, err := StartCopiesState(3, 4); err == nil {
		t.Error("3 pairs with copies 4 accepted")
	}
	for _, tt := range []struct {
		pairs, copies int
		want          int64
	}{{26, 4, 2380}, {26, 26, 378}, {4, 2, 15}, {200, 4, 4598126}} {
		if got := CopiesStates(tt.pairs, tt.copies); got != tt.want {
			t.Errorf("CopiesStates(%d, %d) = %d, want %d", tt.pairs, tt.copies, got, tt.want)
		}
	}
}
