package rules

import (
	"strings"
	"testing"
)

func TestParseRoundTrip(t *testing.T) {
	for _, p := range []PassRule{PassNever, PassTwoKnown, PassAlways} {
		got, err := ParsePassRule(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePassRule(%q) = %v, %v", p, got, err)
		}
	}
	for _, f := range []Forgetting{ForgetNone, ForgetHandoverUniform, ForgetLRU, ForgetDecay} {
		got, err := ParseForgetting(f.String())
		if err != nil || got != f {
			t.Errorf("ParseForgetting(%q) = %v, %v", f, got, err)
		}
	}
	for _, name := range PolicyNames() {
		p, err := ParsePolicy(name)
		if err != nil || p.String() != name {
			t.Errorf("ParsePolicy(%q) = %v, %v", name, p, err)
		}
	}
}

func TestParseErrorsListAllowedValues(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{func() error { _, err := ParsePassRule("sometimes"); return err }(), "never, two-known, always"},
		{func() error { _, err := ParseForgetting("fifo"); return err }(), "handover-uniform, lru, decay"},
		{func() error { _, err := ParsePolicy("smart"); return err }(), "optimal, safe, daring, parity, best-response"},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("error %v does not list %q", tt.err, tt.want)
		}
	}
}

func TestStateCounts(t *testing.T) {
	st := State{N: 5, J: 2, S: 3, F: 1}
	if st.HalfKnown() != 3 || st.Known() != 5 || st.Unknown() != 8 {
		t.Fatalf("%v: half-known %d, known %d, unknown %d", st, st.HalfKnown(), st.Known(), st.Unknown())
	}
	// Every card is on the table exactly once: known + unknown cards = 2n + s, where the
	// half-known pairs contribute one known and one unknown card each.
	if st.Known()+st.Unknown() != 2*st.N+st.S {
		t.Fatalf("cards do not add up")
	}
}

func TestStateValidate(t *testing.T) {
	lru3 := Memory{Capacity: 3, Forget: ForgetLRU}
	tests := []struct {
		st   State
		m    Memory
		want string // "" when valid
	}{
		{State{N: 4, J: 4}, Memory{}, ""},
		{State{N: 4, J: 1}, lru3, ""},
		{State{N: 4, J: 0}, lru3, "exceed the memory capacity 3"},
		{State{N: 4, J: 5}, Memory{}, "unknown pairs 5"},
		{State{N: -1}, Memory{}, "pairs -1"},
		{State{N: 2, J: 2, S: 1, F: 2}, Memory{}, "unseen singletons 2"},
		{State{N: 2, J: 2, S: -1}, Memory{}, "singletons -1"},
	}
	for _, tt := range tests {
		err := tt.st.Validate(tt.m)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v %v: unexpected error %v", tt.st, tt.m, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v %v: error %v, want one containing %q", tt.st, tt.m, err, tt.want)
		}
	}
}

func TestMemoryValidate(t *testing.T) {
	tests := []struct {
		m  Memory
		ok bool
	}{
		{Memory{}, true},
		{Memory{Capacity: 2, Forget: ForgetLRU}, true},
		{Memory{Capacity: 1, Forget: ForgetLRU}, false},
		{Memory{Capacity: -3, Forget: ForgetLRU}, false},
		{Memory{Capacity: 4}, false},
		{Memory{Forget: ForgetDecay}, false},
		{Memory{Capacity: 7, Forget: ForgetLRU, Fluctuation: 2147483647}, true},
		{Memory{Capacity: 7, Forget: ForgetLRU, Fluctuation: 2147483648}, false},
		{Memory{Capacity: 7, Forget: ForgetLRU, Fluctuation: -1}, false},
	}
	for _, tt := range tests {
		if err := tt.m.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: Validate() = %v, want ok=%v", tt.m, err, tt.ok)
		}
	}
}

func TestLegal(t *testing.T) {
	nothingKnown := State{N: 3, J: 3}
	oneKnown := State{N: 3, J: 2}
	twoKnown := State{N: 3, J: 1}
	singletonKnown := State{N: 2, J: 2, S: 1, F: 0}
	tests := []struct {
		st   State
		c    Choice
		pass PassRule
		want bool
	}{
		{nothingKnown, Daring, PassNever, true},
		{nothingKnown, Safe, PassNever, false},
		{nothingKnown, KnownFirst, PassNever, false},
		{nothingKnown, Pass, PassAlways, true},
		{nothingKnown, Pass, PassTwoKnown, false},
		{oneKnown, Safe, PassNever, true},
		{oneKnown, Pass, PassTwoKnown, false},
		{twoKnown, Pass, PassTwoKnown, true},
		{twoKnown, Pass, PassNever, false},
		{singletonKnown, Safe, PassNever, true},
	}
	for _, tt := range tests {
		if got := Legal(tt.st, tt.c, tt.pass); got != tt.want {
			t.Errorf("Legal(%v, %v, %v) = %v, want %v", tt.st, tt.c, tt.pass, got, tt.want)
		}
	}
}

func TestFixedPolicies(t *testing.T) {
	tests := []struct {
		p    Policy
		st   State
		want Choice
	}{
		{PolicySafe, State{N: 4, J: 2}, Safe},
		{PolicySafe, State{N: 4, J: 4}, Daring}, // nothing known: daring is forced
		{PolicyDaring, State{N: 4, J: 2}, Daring},
		{PolicyParity, State{N: 4, J: 3}, Daring},
		{PolicyParity, State{N: 4, J: 2}, Safe},
		{PolicyParity, State{N: 4, J: 4}, Daring},
	}
	for _, tt := range tests {
		if !tt.p.Fixed() {
			t.Fatalf("%v should be fixed", tt.p)
		}
		if got := tt.p.Decide(tt.st); got != tt.want {
			t.Errorf("%v.Decide(%v) = %v, want %v", tt.p, tt.st, got, tt.want)
		}
	}
	if PolicyOptimal.Fixed() || PolicyBestResponse.Fixed() {
		t.Error("optimal and best-response are computed, not fixed")
	}
}

func TestChoiceSet(t *testing.T) {
	if !FullChoices.Full() || FullChoices.String() != "daring,safe,known-first,pass" {
		t.Errorf("full set %q", FullChoices)
	}
	two, err := ParseChoiceSet("safe, daring")
	if err != nil || two != NewChoiceSet(Daring, Safe) || two.String() != "daring,safe" || two.Full() {
		t.Errorf("ParseChoiceSet(safe, daring) = %v, %v", two, err)
	}
	if two.Has(KnownFirst) || two.Has(Pass) || !two.Has(Safe) {
		t.Errorf("%v membership", two)
	}
	for _, bad := range []struct{ list, want string }{
		{"safe", "must include daring"},
		{"daring,daring", "listed twice"},
		{"daring,bold", `unknown choice "bold" (allowed: daring, safe, known-first, pass)`},
		{"", "unknown choice"},
	} {
		if _, err := ParseChoiceSet(bad.list); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseChoiceSet(%q): %v, want %q", bad.list, err, bad.want)
		}
	}
	for s := range 1 << NumChoices {
		set := ChoiceSet{excluded: uint8(s)}
		if set.Validate() != nil {
			continue
		}
		back, err := ParseChoiceSet(set.String())
		if err != nil || back != set {
			t.Errorf("round trip of %v: %v, %v", set, back, err)
		}
	}
	if err := PolicyParity.CheckChoices(NewChoiceSet(Daring, KnownFirst)); err == nil || !strings.Contains(err.Error(), "plays safe") {
		t.Errorf("parity without safe: %v", err)
	}
	if err := PolicyOptimal.CheckChoices(NewChoiceSet(Daring)); err != nil {
		t.Errorf("optimal within {daring}: %v", err)
	}
}
