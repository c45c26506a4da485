package exact

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fsSolved returns the solver of singletons under a fluctuating handover-uniform capacity for mu
// in m up to maxPairs pairs, solved in exact rationals.
func fsSolved(t *testing.T, m Model, mu Lineup, maxPairs int) *fsSolver[*big.Rat] {
	t.Helper()
	s, err := newFSSolver(context.Background(), field.Rat{}, m, mu, maxPairs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.solve(); err != nil {
		t.Fatal(err)
	}
	return s
}

var fsIdentityLineups = []Lineup{
	{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
	{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyParity},
	{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyOptimal},
}

// TestFluctSingletonsWithoutFluctuationIsFixedCapacity checks that the model with σ = 0 gives,
// in exact rationals, the values of singletons under a fixed handover-uniform capacity
// (husingles.go) in every state.
func TestFluctSingletonsWithoutFluctuationIsFixedCapacity(t *testing.T) {
	pairs := 4
	if testing.Short() {
		pairs = 3
	}
	for _, mu := range fsIdentityLineups {
		t.Run(fmt.Sprintf("%s-%s", mu.Policy, mu.Opponent), func(t *testing.T) {
			fixed := husModel(2, 3)
			m := fixed
			m.Memory.Fluctuation = 0
			s := fsSolved(t, m, mu, pairs)
			h, err := newHUSSolver(context.Background(), field.Rat{}, fixed, mu, pairs)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.solve(); err != nil {
				t.Fatal(err)
			}
			for _, c := range h.cells {
				if got, want := s.before(c.st, 0, false), c.val[0]; got.Cmp(want) != 0 {
					t.Errorf("%v: σ = 0 gives %s, the fixed capacity %s", c.st, got.RatString(), want.RatString())
				}
			}
			if len(h.cells) != len(s.draws) {
				t.Errorf("%d states under σ = 0, %d under the fixed capacity", len(s.draws), len(h.cells))
			}
		})
	}
}

// TestFluctSingletonsWithoutSingletonsIsFluctPairs checks that the model with no singletons
// gives, in exact rationals, the values of a fluctuating handover-uniform capacity with pairs
// only (fluct.go) in every state.
func TestFluctSingletonsWithoutSingletonsIsFluctPairs(t *testing.T) {
	pairs, mems, lineups := 6, []rules.Memory{{Capacity: 3, Fluctuation: 1}, {Capacity: 3, Fluctuation: 2}}, fsIdentityLineups
	if testing.Short() {
		pairs, mems, lineups = 3, mems[1:], lineups[:2]
	}
	ctx := context.Background()
	for _, mem := range mems {
		mem.Forget = rules.ForgetHandoverUniform
		for _, mu := range lineups {
			t.Run(fmt.Sprintf("%s/%s-%s", mem, mu.Policy, mu.Opponent), func(t *testing.T) {
				m := Model{Memory: mem}
				s := fsSolved(t, m, mu, pairs)
				for st := range s.draws {
					if st.N == 0 {
						continue
					}
					want, err := Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if got := s.before(st, 0, false); got.Cmp(want.ExpectedLead) != 0 {
						t.Errorf("%v: no singletons gives %s, pairs only %s", st, got.RatString(), want.ExpectedLead.RatString())
					}
				}
			})
		}
	}
}

// TestFluctSingletonsNeverBindingIsPerfectMemory checks that a capacity that never binds (every
// capacity drawn at least n + s + 1) gives, in exact rationals, the values of perfect memory with
// singletons, through Evaluate.
func TestFluctSingletonsNeverBindingIsPerfectMemory(t *testing.T) {
	pairs, singles, lineups := 4, 2, fsIdentityLineups
	if testing.Short() {
		pairs, lineups = 2, lineups[:2]
	}
	ctx := context.Background()
	m := fluctSinglesModel(singles, pairs+singles+1+2, 2)
	perfect := Model{Singletons: singles}
	for _, mu := range lineups {
		for j := 0; j <= pairs; j++ {
			for f := 0; f <= singles; f++ {
				st := rules.State{N: pairs, J: j, S: singles, F: f}
				got, err := Evaluate(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Evaluate(ctx, field.Rat{}, perfect, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
					t.Errorf("%s-%s %v: %s gives %s, perfect memory %s", mu.Policy, mu.Opponent, st, m.Memory,
						got.ExpectedLead.RatString(), want.ExpectedLead.RatString())
				}
			}
		}
	}
}

// TestFluctSingletonsFloatAgreesWithRational checks that float64 gives the exact rationals'
// values, each choice's values after every capacity drawn and, where the choices' values are
// apart, the same choices; and that the seats' pairs add up to the pairs on the table.
func TestFluctSingletonsFloatAgreesWithRational(t *testing.T) {
	ctx := context.Background()
	m := fluctSinglesModel(2, 3, 2)
	mu := Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal}
	st := rules.State{N: 3, J: 2, S: 2, F: 1}
	if testing.Short() {
		m, st = fluctSinglesModel(1, 3, 1), rules.State{N: 2, J: 1, S: 1, F: 0}
	}
	rat, err := Evaluate(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	flt, err := Evaluate(ctx, field.Float{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := rat.ExpectedLead.Float64(); !close(x, flt.ExpectedLead) {
		t.Errorf("lead: exact %s, float64 %v", rat.ExpectedLead.RatString(), flt.ExpectedLead)
	}
	if sum := new(big.Rat).Add(rat.PairsBySeat[0], rat.PairsBySeat[1]); sum.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
		t.Errorf("seats' pairs add up to %s, not %d", sum.RatString(), st.N)
	}
	for c := max(2, m.Memory.Capacity-m.Memory.Fluctuation); c <= m.Memory.Capacity+m.Memory.Fluctuation; c++ {
		rc, err := FluctChoiceValues(ctx, field.Rat{}, m, mu, st, c)
		if err != nil {
			t.Fatal(err)
		}
		fc, err := FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
		if err != nil {
			t.Fatal(err)
		}
		if len(rc.Values) != len(fc.Values) || len(rc.Values) < 2 {
			t.Fatalf("c=%d: %d choices exact, %d float64", c, len(rc.Values), len(fc.Values))
		}
		best := rc.Values[0].Lead
		for i, v := range rc.Values {
			if x, _ := v.Lead.Float64(); !close(x, fc.Values[i].Lead) || v.Choice != fc.Values[i].Choice {
				t.Errorf("c=%d %s: exact %s, float64 %s %v", c, v.Choice, v.Lead.RatString(), fc.Values[i].Choice, fc.Values[i].Lead)
			}
			if v.Lead.Cmp(best) > 0 {
				best = v.Lead
			}
		}
		// best-response's own choice is worth the most.
		if rc.Value.ExpectedLead.Cmp(best) != 0 {
			t.Errorf("c=%d: best-response's choice %s is worth %s, the best choice %s", c, rc.PolicyChoice, rc.Value.ExpectedLead.RatString(), best.RatString())
		}
	}
}

func close(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestFluctSingletonsRefusals checks the one-line refusals of what the model does not solve.
func TestFluctSingletonsRefusals(t *testing.T) {
	ctx := context.Background()
	m := fluctSinglesModel(1, 3, 1)
	st := rules.State{N: 3, J: 3, S: 1, F: 1}
	opt := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	limit := m
	limit.Variant.TurnLimit = 6
	lru := m
	lru.Memory.Forget = rules.ForgetLRU
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"distribution under a turn limit", func() error { _, err := Distribution(ctx, field.Float{}, limit, opt, st); return err }, "turn limit 6"},
		{"three seats under a turn limit", func() error {
			_, err := Evaluate(ctx, field.Float{}, limit, Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st)
			return err
		}, "turn limit"},
		{"three seats' distribution", func() error {
			_, err := Distribution(ctx, field.Float{}, m, Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st)
			return err
		}, "not the score distribution"},
		{"lru", func() error { return lru.Validate() }, "singletons"},
		{"distribution with a lead", func() error {
			_, err := Distribution(ctx, field.Float{}, m, opt, rules.State{N: 3, J: 3, S: 1, F: 1, Lead: 1})
			return err
		}, "lead 1"},
		{"win", func() error {
			_, err := Evaluate(ctx, field.Float{}, m, Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyOptimal}, st)
			return err
		}, "win-optimal"},
		{"capacity", func() error { _, err := FluctChoiceValues(ctx, field.Float{}, m, opt, st, 7); return err }, "capacity 7"},
	}
	for _, c := range cases {
		err := c.err()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming %q", c.name, err, c.want)
		}
	}
	if err := m.Validate(); err != nil {
		t.Errorf("the model: %v", err)
	}
}
