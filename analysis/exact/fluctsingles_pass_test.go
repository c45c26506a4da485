package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSingletonsPassIdentities checks, in exact rationals under the pass rules two-known and
// always: σ = 0 gives the fixed capacity's values with singletons under the same pass rule
// (husingles_pass.go) in every state, just after a pass or not; no singletons gives the pairs-only
// fluctuating model's values under that pass rule (fluctpass.go) in every state before the draw,
// and (long form) just after a pass at every capacity drawn.
func TestFluctSingletonsPassIdentities(t *testing.T) {
	ctx := context.Background()
	pairs, lineups := 3, fsIdentityLineups
	if testing.Short() {
		pairs, lineups = 2, lineups[:2]
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range lineups {
			t.Run(fmt.Sprintf("%s/%s-%s", pass, mu.Policy, mu.Opponent), func(t *testing.T) {
				fixed := husModel(2, 3)
				fixed.Pass = pass
				m := fixed
				m.Memory.Fluctuation = 0
				s := fsSolved(t, m, mu, pairs)
				h, err := newHUSSolver(ctx, field.Rat{}, fixed, mu, pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := h.solve(); err != nil {
					t.Fatal(err)
				}
				for _, c := range h.cells[:len(h.cells)-1] { // the stalemate last
					got := s.before(c.st, 0, false)
					if c.after {
						got = s.beforePass(c.st, 0, false)
					}
					if want := c.val[0]; got.Cmp(want) != 0 {
						t.Errorf("%v after pass %v: σ = 0 gives %s, the fixed capacity %s", c.st, c.after, got.RatString(), want.RatString())
					}
				}
				if len(h.atPass) != len(s.drawsPass) {
					t.Errorf("%d states with a pass legal under σ = 0, %d under the fixed capacity", len(s.drawsPass), len(h.atPass))
				}

				pm := Model{Memory: rules.Memory{Capacity: 3, Fluctuation: 2, Forget: rules.ForgetHandoverUniform}, Pass: pass}
				ps := fsSolved(t, pm, mu, pairs+1)
				for st := range ps.draws {
					if st.N == 0 {
						continue
					}
					want, err := Evaluate(ctx, field.Rat{}, pm, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if got := ps.before(st, 0, false); got.Cmp(want.ExpectedLead) != 0 {
						t.Errorf("%v: no singletons gives %s, pairs only %s", st, got.RatString(), want.ExpectedLead.RatString())
					}
					if testing.Short() {
						continue
					}
					for _, cp := range fluctCapsTo(pm.Memory, pm.Memory.Capacity+pm.Memory.Fluctuation) {
						want, err := FluctChoiceValuesAfterPass(ctx, field.Rat{}, Model{Memory: pm.Memory, Pass: pass}, mu, st, cp.c)
						if err != nil {
							t.Fatal(err)
						}
						got := ps.cells[ps.at[fsKey{st: st, c: min(cp.c, fsTop(pm, st.N)), after: pm.Legal(st, rules.Pass)}]].val[0]
						if got.Cmp(want.Value.ExpectedLead) != 0 {
							t.Errorf("%v c=%d after a pass: no singletons gives %s, pairs only %s", st, cp.c, got.RatString(), want.Value.ExpectedLead.RatString())
						}
					}
				}
			})
		}
	}
}
