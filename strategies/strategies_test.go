package strategies

import (
	"context"
	"strings"
	"testing"

	"memsim/sim/rules"
)

func ptr[T any](v T) *T { return &v }

func TestBuild(t *testing.T) {
	ctx := context.Background()
	env := Env{MaxPairs: 6, Players: 2, Tables: NewTables()}
	lru := rules.ForgetLRU
	decay := rules.ForgetDecay
	shared := rules.ScopeShared
	private := rules.ScopePrivate
	tests := []struct {
		name      string
		spec      Spec
		memory    string // the built player's memory
		table     string // a fragment of the table note ("" for strategies)
		exact     bool   // whether the solver can evaluate the player
		strategic bool   // a Strategy rather than a table
	}{
		{"optimal", Spec{Policy: "optimal"}, "perfect", "two-player optimal table, perfect memory", true, false},
		{"parity", Spec{Policy: "parity"}, "perfect", "fixed rule", true, false},
		{"br", Spec{Policy: "best-response", Opponent: "parity"}, "perfect", "best response to parity", true, false},
		{"forgetful", Spec{Policy: "forgetful"}, "lru(7), private", "private memory has no exact model", true, false},
		{"forgetful shared", Spec{Policy: "forgetful", Memory: MemoryOverride{Scope: &shared, Capacity: ptr(3)}}, "lru(3)", "two-player optimal table, lru(3) memory", true, false},
		{"lru", Spec{Policy: "optimal", Memory: MemoryOverride{Capacity: ptr(4), Forget: &lru}}, "lru(4)", "lru(4) memory", true, false},
		{"decay", Spec{Policy: "optimal", Memory: MemoryOverride{Forget: &decay, Decay: ptr(0.25)}}, "decay(q=0.25)", "two-player optimal table, decay(q=0.25) memory", true, false},
		{"decay capacity", Spec{Policy: "safe", Memory: MemoryOverride{Forget: &decay, Decay: ptr(0.25), Capacity: ptr(3)}}, "decay(3, q=0.25)", "fixed rule", true, false},
		{"decay private", Spec{Policy: "optimal", Memory: MemoryOverride{Forget: &decay, Decay: ptr(0.25), Scope: &private}}, "decay(q=0.25), private", "private memory has no exact model, so it plays the decay(q=0.25) table", false, false},
		{"optimal private", Spec{Policy: "optimal", Memory: MemoryOverride{Scope: &private}}, "perfect, private", "two-player optimal table, perfect memory", true, false},
		{"win-optimal private", Spec{Policy: "win-optimal", Memory: MemoryOverride{Scope: &private}}, "perfect, private", "win-optimal table, perfect memory", true, false},
		{"random", Spec{Policy: "random"}, "perfect", "", false, true},
		{"greedy", Spec{Policy: "greedy-random", Memory: MemoryOverride{Capacity: ptr(2), Forget: &lru}}, "lru(2)", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.Name = tt.name
			b, err := Build(ctx, tt.spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if b.Player.Name != tt.name || b.Player.Memory.String() != tt.memory {
				t.Errorf("player %q with memory %s", b.Player.Name, b.Player.Memory)
			}
			if (b.Player.NewStrategy != nil) != tt.strategic || (b.Player.Table != nil) == tt.strategic {
				t.Errorf("table %v, strategy %v", b.Player.Table != nil, b.Player.NewStrategy != nil)
			}
			if !strings.Contains(b.Table, tt.table) || (tt.table == "") != (b.Table == "") {
				t.Errorf("table note %q, want one containing %q", b.Table, tt.table)
			}
			if (b.Exact != nil) != tt.exact {
				t.Errorf("exact %+v, want %v", b.Exact, tt.exact)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	ctx := context.Background()
	env := Env{MaxPairs: 4, Players: 2}
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{Name: "x", Policy: "smart"}, `unknown policy "smart" (allowed: optimal, best-response, safe, daring, parity, win-optimal, win-best-response, random, greedy-random, forgetful)`},
		{Spec{Name: "x", Policy: "best-response"}, "needs an opponent"},
		{Spec{Name: "x", Policy: "best-response", Opponent: "random"}, `opponent "random"`},
		{Spec{Name: "x", Policy: "parity", Opponent: "safe"}, "takes no opponent"},
		{Spec{Name: "x", Policy: "random", Opponent: "safe"}, "takes no opponent"},
		{Spec{Name: "x", Policy: "optimal", Memory: MemoryOverride{Capacity: ptr(5)}}, "needs a forgetting rule"},
	}
	for _, tt := range tests {
		_, err := Build(ctx, tt.spec, env)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), `player "x": `) {
			t.Errorf("%+v: error %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
	// Limited memory with singletons has no exact model, so no optimal table.
	lru := rules.ForgetLRU
	_, err := Build(ctx, Spec{Name: "x", Policy: "optimal", Memory: MemoryOverride{Capacity: ptr(3), Forget: &lru}},
		Env{MaxPairs: 4, Singletons: 1, Players: 2})
	if err == nil || !strings.Contains(err.Error(), "singletons") {
		t.Errorf("optimal with lru memory and singletons: %v", err)
	}
}

// The cache hands out one table per model.
func TestTablesCache(t *testing.T) {
	ctx := context.Background()
	env := Env{MaxPairs: 5, Players: 2, Tables: NewTables()}
	a, err := Build(ctx, Spec{Name: "a", Policy: "optimal"}, env)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(ctx, Spec{Name: "b", Policy: "optimal"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if a.Player.Table != b.Player.Table {
		t.Error("two optimal players of one model got different tables")
	}
}

// TestBuildDecayUnderPassRules checks that a decay player plays its own model's table under
// every pass rule, whether it plays for pairs or to win.
func TestBuildDecayUnderPassRules(t *testing.T) {
	decay := rules.ForgetDecay
	mem := MemoryOverride{Forget: &decay, Decay: ptr(0.5), Capacity: ptr(3)}
	for _, tt := range []struct {
		policy string
		pass   rules.PassRule
		table  string
		exact  bool
	}{
		{"optimal", rules.PassNever, "two-player optimal table, decay(3, q=0.5) memory", true},
		{"optimal", rules.PassAlways, "two-player optimal table, decay(3, q=0.5) memory", true},
		{"optimal", rules.PassTwoKnown, "two-player optimal table, decay(3, q=0.5) memory", true},
		{"win-optimal", rules.PassAlways, "win-optimal table, decay(3, q=0.5) memory", true},
		{"win-best-response", rules.PassTwoKnown, "win best response to safe table, decay(3, q=0.5) memory", true},
	} {
		spec := Spec{Name: "leaky", Policy: tt.policy, Memory: mem}
		if tt.policy == "win-best-response" {
			spec.Opponent = "safe"
		}
		b, err := Build(context.Background(), spec, Env{MaxPairs: 5, Players: 2, Pass: tt.pass})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.Table, tt.table) || (b.Exact != nil) != tt.exact {
			t.Errorf("pass %v: table %q, exact %v; want %q, %v", tt.pass, b.Table, b.Exact != nil, tt.table, tt.exact)
		}
	}
}
