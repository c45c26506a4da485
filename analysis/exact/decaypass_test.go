package exact_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// passChain is the card-level game under decay forgetting and a pass rule: the turns of every
// state but the pass (chain), and the pass's outcomes where it is legal.
type passChain struct {
	chain cardChain
	pass  map[rules.State][]cardStep
}

// decayPassSteps enumerates a pass card by card: nothing is flipped that the mover does not
// remember, and the hand-over forgets every remembered card with probability q.
func decayPassSteps(st rules.State, m cardMemory) ([]cardStep, error) {
	w := newCardWorld(st, nil)
	w.old = make([]bool, len(w.present))
	for _, x := range w.mem {
		w.old[x] = true
	}
	d := dist{}
	var failed error
	decayHandOver(w, m, big.NewRat(1, 1), 0, func(p *big.Rat, w *cardWorld, cont bool, mg, ng int) {
		next, err := w.countState()
		if err != nil {
			failed = err
			return
		}
		d.add(outKey{cont, mg, ng, next}, p)
	})
	var out []cardStep
	for k, p := range d.pruned() {
		f, _ := p.Float64()
		out = append(out, cardStep{f, k})
	}
	return out, failed
}

func newPassChain(m cardMemory, rule rules.PassRule, maxN int) (passChain, error) {
	ch, err := decayChain(m, maxN)
	if err != nil {
		return passChain{}, err
	}
	pc := passChain{chain: ch, pass: map[rules.State][]cardStep{}}
	for st := range ch {
		if !rules.Legal(st, rules.Pass, rule) {
			continue
		}
		if pc.pass[st], err = decayPassSteps(st, m); err != nil {
			return passChain{}, err
		}
	}
	return pc, nil
}

// turnLead is the mover's lead after a turn other than a pass with outcomes steps: own gives the
// mover's lead where it goes on, other the next seat's where the turn passes (no pass just made).
func turnLead(steps []cardStep, own, other func(rules.State) float64) float64 {
	x := 0.0
	for _, s := range steps {
		if s.key.cont {
			x += s.p * (float64(s.key.moverGain) + own(s.key.next))
		} else {
			x -= s.p * (float64(s.key.nextGain) + other(s.key.next))
		}
	}
	return x
}

// passLead is the mover's lead after a pass with outcomes steps, after being the next seat's lead
// just after a pass; with a pass just made (flag 1) it is the stalemate, 0.
func passLead(steps []cardStep, flag int, after func(rules.State) float64) float64 {
	if flag == 1 {
		return 0
	}
	x := 0.0
	for _, s := range steps {
		x -= s.p * after(s.key.next)
	}
	return x
}

// iterate runs value iteration to a fixed point on leads[flag][st] with update giving the new
// value of st with the flag.
func iterate(states []rules.State, update func(st rules.State, flag int) float64) {
	for range 1_000_000 {
		delta := 0.0
		for _, st := range states {
			for flag := range 2 {
				delta = math.Max(delta, math.Abs(update(st, flag)))
			}
		}
		if delta < 1e-14 {
			return
		}
	}
}

func (pc passChain) states() []rules.State {
	var out []rules.State
	for st := range pc.chain {
		out = append(out, st)
	}
	return out
}

// optimalLeads iterates the self-play optimum: v[flag][st], the mover's lead without and with a
// pass just made, the largest over the legal choices.
func (pc passChain) optimalLeads() [2]map[rules.State]float64 {
	v := [2]map[rules.State]float64{{}, {}}
	plain := func(st rules.State) float64 { return v[0][st] }
	after := func(st rules.State) float64 { return v[1][st] }
	iterate(pc.states(), func(st rules.State, flag int) float64 {
		best := math.Inf(-1)
		for _, steps := range pc.chain[st] {
			best = math.Max(best, turnLead(steps, plain, plain))
		}
		if steps, ok := pc.pass[st]; ok {
			best = math.Max(best, passLead(steps, flag, after))
		}
		d := best - v[flag][st]
		v[flag][st] = best
		return d
	})
	return v
}

// pairLeads iterates the leads of two roles: lead[r][flag][st], role r choosing by decide (nil:
// the best response, the largest).
func (pc passChain) pairLeads(decide [2]func(st rules.State, flag int) rules.Choice) [2][2]map[rules.State]float64 {
	var v [2][2]map[rules.State]float64
	for r := range v {
		v[r] = [2]map[rules.State]float64{{}, {}}
	}
	role := 0
	read := func(r, flag int) func(rules.State) float64 {
		return func(st rules.State) float64 { return v[r][flag][st] }
	}
	value := func(st rules.State, flag int, c rules.Choice) float64 {
		if c == rules.Pass {
			return passLead(pc.pass[st], flag, read(1-role, 1))
		}
		return turnLead(pc.chain[st][c], read(role, 0), read(1-role, 0))
	}
	iterate(pc.states(), func(st rules.State, flag int) float64 {
		d := 0.0
		for role = range 2 {
			var x float64
			if decide[role] != nil {
				x = value(st, flag, decide[role](st, flag))
			} else {
				x = math.Inf(-1)
				for c := range pc.chain[st] {
					x = math.Max(x, value(st, flag, c))
				}
				if _, ok := pc.pass[st]; ok {
					x = math.Max(x, value(st, flag, rules.Pass))
				}
			}
			d = math.Max(d, math.Abs(x-v[role][flag][st]))
			v[role][flag][st] = x
		}
		return d
	})
	return v
}

// TestDecayPassIsCardLevel compares the decay model under the pass rules two-known and always
// with value iteration on the card-level turns and passes: the optimum's leads and the lead of a
// pass (which reads the leads just after a pass), the optimum's choices, the luck table's values
// and the strategy table's, each without and with a pass just made, and the leads of optimal,
// fixed policies and best-response against each other, with the means of their score
// distributions.
func TestDecayPassIsCardLevel(t *testing.T) {
	const maxN = 4
	ctx := context.Background()
	// With q = 0.1 and a capacity of 3 or 4, a pass under two-known at (4, 2) is worth other than
	// the stalemate (it can leave the next seat fewer than two known cards, unable to pass back):
	// with 3 it is the best choice; with 4 safe is, and just after a pass the pass.
	cases := decayCases()
	for _, capacity := range []int{3, 4} {
		cases = append(cases, decayCase{
			card: cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: big.NewRat(1, 10)},
			mem:  rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.1},
		})
	}
	for _, dc := range cases {
		if dc.mem.Decay == 0.5 && testing.Short() {
			continue
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			pc, err := newPassChain(dc.card, rule, maxN)
			if err != nil {
				t.Fatal(err)
			}
			model := exact.Model{Memory: dc.mem, Pass: rule}
			t.Run(dc.card.String()+"/"+rule.String(), func(t *testing.T) {
				opt := pc.optimalLeads()
				self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
				table, err := exact.PolicyTable(ctx, field.Float{}, model, self, maxN)
				if err != nil {
					t.Fatal(err)
				}
				luck, err := exact.LuckTable(ctx, model, 2, maxN)
				if err != nil {
					t.Fatal(err)
				}
				for st, want := range opt[0] {
					for flag := range 2 {
						if v, ok := luck.Value(st, flag == 1, 0); !ok || math.Abs(v-(float64(st.N)+opt[flag][st])/2) > 1e-9 {
							t.Errorf("%v, flag %d: luck table value %v (%v), card level %v", st, flag, v, ok, (float64(st.N)+opt[flag][st])/2)
						}
					}
					res, err := exact.Evaluate(ctx, field.Rat{}, model, self, st)
					if err != nil {
						t.Fatal(err)
					}
					if got, _ := res.ExpectedLead.Float64(); math.Abs(got-want) > 1e-9 {
						t.Errorf("optimal, %v: lead %v, card level %v", st, got, want)
					}
					for flag := range 2 {
						c, ok := table.Lookup(st, flag == 1)
						if !ok {
							t.Fatalf("%v, flag %d: no choice in the table", st, flag)
						}
						got := passLead(pc.pass[st], flag, func(s rules.State) float64 { return opt[1][s] })
						if c != rules.Pass {
							plain := func(s rules.State) float64 { return opt[0][s] }
							got = turnLead(pc.chain[st][c], plain, plain)
						}
						if math.Abs(got-opt[flag][st]) > 1e-9 {
							t.Errorf("%v, flag %d: the table's %v gives %v, the best %v", st, flag, c, got, opt[flag][st])
						}
					}
				}
				err = exact.Table(ctx, field.Float{}, model, maxN, func(c *exact.TableCell[float64]) error {
					st := c.State
					want := (float64(st.N) + opt[1][st]) / 2
					first, _ := table.Lookup(st, true)
					if !c.AfterPass || math.Abs(c.ValueAfterPass-want) > 1e-9 || len(c.BestAfterPass) == 0 || c.BestAfterPass[0] != first {
						t.Errorf("%v: strategy table after a pass %v, %v, best %v; card level %v, the player's table %v",
							st, c.AfterPass, c.ValueAfterPass, c.BestAfterPass, want, first)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				fromTable := func(st rules.State, flag int) rules.Choice {
					c, _ := table.Lookup(st, flag == 1)
					return c
				}
				fixed := func(p rules.Policy) func(rules.State, int) rules.Choice {
					return func(st rules.State, _ int) rules.Choice { return p.Decide(st) }
				}
				for _, lc := range []struct {
					policy, opponent rules.Policy
					decide           [2]func(rules.State, int) rules.Choice
				}{
					{rules.PolicyOptimal, rules.PolicyOptimal, [2]func(rules.State, int) rules.Choice{fromTable, fromTable}},
					{rules.PolicyOptimal, rules.PolicySafe, [2]func(rules.State, int) rules.Choice{fromTable, fixed(rules.PolicySafe)}},
					{rules.PolicyDaring, rules.PolicyOptimal, [2]func(rules.State, int) rules.Choice{fixed(rules.PolicyDaring), fromTable}},
					{rules.PolicySafe, rules.PolicyParity, [2]func(rules.State, int) rules.Choice{fixed(rules.PolicySafe), fixed(rules.PolicyParity)}},
					{rules.PolicyBestResponse, rules.PolicySafe, [2]func(rules.State, int) rules.Choice{nil, fixed(rules.PolicySafe)}},
					{rules.PolicyDaring, rules.PolicyBestResponse, [2]func(rules.State, int) rules.Choice{fixed(rules.PolicyDaring), nil}},
				} {
					want := pc.pairLeads(lc.decide)
					mu := exact.Lineup{Players: 2, Policy: lc.policy, Opponent: lc.opponent}
					for st, w := range want[0][0] {
						res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
						if err != nil {
							t.Fatalf("%v vs %v, %v: %v", lc.policy, lc.opponent, st, err)
						}
						if math.Abs(res.ExpectedLead-w) > 1e-9 {
							t.Errorf("%v vs %v, %v: lead %v, card level %v", lc.policy, lc.opponent, st, res.ExpectedLead, w)
						}
						d, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						total, mean := 0.0, 0.0
						for i, p := range d.Prob {
							total += p
							mean += p * float64(i) / 2
						}
						if wantPairs := (float64(st.N) + w) / 2; math.Abs(total-1) > 1e-9 || math.Abs(mean-wantPairs) > 1e-9 {
							t.Errorf("%v vs %v, %v: the score distribution sums to %v with mean %v; card level: mean %v", lc.policy, lc.opponent, st, total, mean, wantPairs)
						}
						if _, ok := pc.pass[st]; !ok {
							continue
						}
						cv, err := exact.ChoiceValues(ctx, field.Float{}, model, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						wantPass := passLead(pc.pass[st], 0, func(s rules.State) float64 { return want[1][1][s] })
						for _, v := range cv.Values {
							if v.Choice == rules.Pass && math.Abs(v.Lead-wantPass) > 1e-9 {
								t.Errorf("%v vs %v, %v: a pass leads by %v, card level %v", lc.policy, lc.opponent, st, v.Lead, wantPass)
							}
						}
					}
				}
			})
		}
	}
}

// TestDecayPassIdentities checks the decay model under a pass rule against models it must agree
// with: solved with the pass flag under pass rule never it equals the decay model without it; a
// capacity of 2n equals none; and q = 1e-9 is perfect memory under the same pass rule.
func TestDecayPassIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
	}
	const n = 6
	st := rules.State{N: n, J: n}
	for _, mu := range lineups {
		never := exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2, Capacity: 3}}
		want, err := exact.Evaluate(ctx, field.Rat{}, never, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.EvaluateDecayPassRows(ctx, field.Rat{}, never, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
			t.Errorf("%v vs %v, pass rule never with the pass flag: lead %s, without %s", mu.Policy, mu.Opponent,
				got.ExpectedLead.RatString(), want.ExpectedLead.RatString())
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			none := exact.Model{Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}}
			wide := none
			wide.Memory.Capacity = 2 * n
			a, err := exact.Evaluate(ctx, field.Rat{}, none, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			b, err := exact.Evaluate(ctx, field.Rat{}, wide, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if a.ExpectedLead.Cmp(b.ExpectedLead) != 0 {
				t.Errorf("%v vs %v, %v: capacity %d leads by %s, none by %s", mu.Policy, mu.Opponent, rule, 2*n,
					b.ExpectedLead.RatString(), a.ExpectedLead.RatString())
			}
			tiny := exact.Model{Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}}
			perfect := exact.Model{Pass: rule}
			x, err := exact.Evaluate(ctx, field.Float{}, tiny, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			y, err := exact.Evaluate(ctx, field.Float{}, perfect, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(x.ExpectedLead-y.ExpectedLead) > 1e-6 {
				t.Errorf("%v vs %v, %v: q = 1e-9 leads by %v, perfect memory by %v", mu.Policy, mu.Opponent, rule,
					x.ExpectedLead, y.ExpectedLead)
			}
		}
	}
}
