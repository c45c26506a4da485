package rules

import (
	"strings"
	"testing"
)

func TestVariantString(t *testing.T) {
	tests := []struct {
		v    Variant
		want string
	}{
		{Variant{}, "standard"},
		{Variant{Copies: 2}, "standard"},
		{Variant{Copies: 4}, "copies 4"},
		{Variant{Flips: FlipsBlind}, "blind flips"},
		{Variant{TurnLimit: 40}, "turn limit 40"},
		{Variant{Copies: 26, Flips: FlipsBlind, TurnLimit: 52}, "copies 26, blind flips, turn limit 52"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.v, got, tt.want)
		}
		if standard := tt.want == "standard"; tt.v.Standard() != standard {
			t.Errorf("%+v: Standard() = %v, want %v", tt.v, !standard, standard)
		}
	}
}

func TestVariantValidate(t *testing.T) {
	tests := []struct {
		v     Variant
		pairs int
		want  string // "" for valid
	}{
		{Variant{}, 12, ""},
		{Variant{Copies: 4}, 26, ""},
		{Variant{Copies: 26}, 26, ""},
		{Variant{Copies: 64}, 32, ""},
		{Variant{Copies: 4}, 25, "25 pairs with copies 4: the 50 cards must make whole faces of 4 cards (pairs a multiple of 2)"},
		{Variant{Copies: 3}, 3, "copies 3: must be an even number from 2 to 64"},
		{Variant{Copies: 66}, 33, "copies 66: must be an even number from 2 to 64"},
		{Variant{Copies: -2}, 1, "copies -2: must be an even number from 2 to 64"},
		{Variant{Flips: 2}, 1, "flip rule Flips(2): unknown (allowed: sequential, blind)"},
		{Variant{TurnLimit: -1}, 1, "turn limit -1: must be at least 1 (or 0 for none)"},
	}
	for _, tt := range tests {
		err := tt.v.Validate()
		if err == nil {
			err = tt.v.ValidateDeal(tt.pairs)
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v, %d pairs: %v", tt.v, tt.pairs, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%+v, %d pairs: error %v, want %q", tt.v, tt.pairs, err, tt.want)
		}
	}
}

func TestParseFlips(t *testing.T) {
	for _, f := range []Flips{FlipsSequential, FlipsBlind} {
		if got, err := ParseFlips(f.String()); err != nil || got != f {
			t.Errorf("ParseFlips(%q) = %v, %v", f, got, err)
		}
	}
	if _, err := ParseFlips("simultaneous"); err == nil || !strings.Contains(err.Error(), "allowed: sequential, blind") {
		t.Errorf("ParseFlips(simultaneous): %v", err)
	}
}

// Every board preset is a deal its variant can deal, and its name parses back to it.
func TestBoards(t *testing.T) {
	for _, b := range Boards() {
		if err := b.Variant.Validate(); err != nil {
			t.Errorf("%s: %v", b.Name, err)
		}
		if err := b.Variant.ValidateDeal(b.Pairs); err != nil {
			t.Errorf("%s: %v", b.Name, err)
		}
		if got, err := ParseBoard(b.Name); err != nil || got != b {
			t.Errorf("ParseBoard(%q) = %+v, %v", b.Name, got, err)
		}
	}
	// The 52-card decks: 52 cards in 13 faces of 4, and in 2 faces of 26.
	for name, faces := range map[string]int{"deck-52-rank": 13, "deck-52-colour": 2} {
		b, _ := ParseBoard(name)
		if 2*b.Pairs != 52 || b.Variant.Faces(b.Pairs) != faces {
			t.Errorf("%s: %d cards in %d faces, want 52 in %d", name, 2*b.Pairs, b.Variant.Faces(b.Pairs), faces)
		}
	}
	if _, err := ParseBoard("chess"); err == nil || !strings.Contains(err.Error(), "allowed: tournament-32,") {
		t.Errorf("ParseBoard(chess): %v", err)
	}
}
