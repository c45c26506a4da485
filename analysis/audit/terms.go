package audit

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// After says what follows one part of a published term.
type After uint8

const (
	// MoverGoesOn: the mover took a pair and moves again (1 + E(next)).
	MoverGoesOn After = iota
	// OpponentMoves: the turn passes (n - E(next)).
	OpponentMoves
	// OpponentTakes: the turn passes and the opponent first takes a pair left fully known
	// (n - (1 + E(next))).
	OpponentTakes
)

var afterNames = [...]string{"the mover goes on", "the opponent moves", "the opponent takes a pair and moves"}

// Part is one part of a published term: its probability weight and what follows, in a state.
type Part struct {
	Weight *big.Rat
	Next   rules.State
	After  After
}

// Term is a published term of a value's equation: in every state where it Applies, the outcomes
// of Choice labelled Event have, by the claim, the Parts it returns.
type Term struct {
	ID, Claim string
	Model     func(m int) exact.Model // the model at capacity m (ignored for perfect memory)
	Choice    rules.Choice
	Event     exact.Event
	Applies   func(st rules.State, m int) bool
	Parts     func(st rules.State, m int) []Part
}

// frac returns a/b as a rational; a weight with a = 0 is 0 even where its denominator vanishes
// (two unknown cards cannot be drawn from one).
func frac(a, b int) *big.Rat {
	if a == 0 {
		return new(big.Rat)
	}
	return big.NewRat(int64(a), int64(b))
}

// AuditTerm checks a term against the solver's own transitions in every state of the grid: n up
// to maxN, every j, every capacity in caps (a perfect-memory term is checked once). A term is
// refuted at the first state where its parts differ from the solver's outcomes of its event.
func AuditTerm(t Term, maxN int, caps []int) Finding {
	fd := Finding{ID: t.ID, Claim: t.Claim, Published: t.Claim}
	checked := 0
	for _, m := range caps {
		model := t.Model(m)
		for n := 1; n <= maxN; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= model.Singletons; f++ {
					st := rules.State{N: n, J: j, S: model.Singletons, F: f}
					if st.Validate(model.Memory) != nil || !model.Legal(st, t.Choice) || !t.Applies(st, m) {
						continue
					}
					checked++
					want := sumParts(t.Parts(st, m))
					got := solverParts(model, st, t.Choice, t.Event)
					if !sameParts(want, got) {
						fd.Verdict = Refuted
						where := st.String()
						if !model.Memory.Perfect() {
							where += fmt.Sprintf(", m = %d", m)
						}
						fd.Exact = "solver: " + describeParts(got)
						fd.Reason = fmt.Sprintf("first disagreement in %s: the term gives %s, the solver %s", where, describeParts(want), describeParts(got))
						return fd
					}
				}
			}
		}
		if model.Memory.Perfect() {
			break
		}
	}
	if checked == 0 {
		fd.Verdict, fd.Reason = Inconclusive, "no state of the grid is one where the term applies"
		return fd
	}
	fd.Verdict = Confirmed
	fd.Exact = fmt.Sprintf("agrees in all %d states checked", checked)
	fd.Reason = fmt.Sprintf("weights and successors agree with the solver's transitions in all %d states of the grid (n <= %d, every j%s)",
		checked, maxN, map[bool]string{true: "", false: fmt.Sprintf(", m in %v", caps)}[t.Model(caps[0]).Memory.Perfect()])
	return fd
}

type partKey struct {
	next  rules.State
	after After
}

func sumParts(parts []Part) map[partKey]*big.Rat {
	out := map[partKey]*big.Rat{}
	for _, p := range parts {
		if p.Weight.Sign() == 0 {
			continue
		}
		k := partKey{p.Next, p.After}
		if out[k] == nil {
			out[k] = new(big.Rat)
		}
		out[k].Add(out[k], p.Weight)
	}
	return out
}

// solverParts aggregates the solver's outcomes of choice c in st labelled e.
func solverParts(m exact.Model, st rules.State, c rules.Choice, e exact.Event) map[partKey]*big.Rat {
	var parts []Part
	for _, o := range m.Outcomes(st, c, nil) {
		if o.Event != e {
			continue
		}
		after := OpponentMoves
		switch {
		case o.Continue:
			after = MoverGoesOn
		case o.NextGain > 0:
			after = OpponentTakes
		}
		parts = append(parts, Part{Weight: new(big.Rat).SetFrac64(o.Prob.Num, o.Prob.Den), Next: o.Next, After: after})
	}
	return sumParts(parts)
}

func sameParts(a, b map[partKey]*big.Rat) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if y, ok := b[k]; !ok || x.Cmp(y) != 0 {
			return false
		}
	}
	return true
}

func describeParts(ps map[partKey]*big.Rat) string {
	if len(ps) == 0 {
		return "no such outcome"
	}
	var out []string
	for k, w := range ps {
		out = append(out, fmt.Sprintf("%s to %v (%s)", w.RatString(), k.next, afterNames[k.after]))
	}
	sort.Strings(out)
	return strings.Join(out, " + ")
}

// Terms lists the published terms of Sjölund & Åstrand's chapters 4 (handover-uniform memory of
// capacity m; room = m - (n - j)) and 5 (singletons, perfect memory), as published.
func Terms() []Term {
	hu := func(m int) exact.Model {
		return exact.Model{Memory: rules.Memory{Capacity: m, Forget: rules.ForgetHandoverUniform}, Choices: SourceChoices}
	}
	room := func(st rules.State, m int) int { return m - (st.N - st.J) }
	always := func(rules.State, int) bool { return true }
	roomAtLeast := func(k int) func(rules.State, int) bool {
		return func(st rules.State, m int) bool { return room(st, m) >= k }
	}
	roomIs := func(k int) func(rules.State, int) bool {
		return func(st rules.State, m int) bool { return room(st, m) == k }
	}
	d := func(st rules.State) int { u := st.N + st.J; return u * (u - 1) }
	s := func(n, j int) rules.State { return rules.State{N: n, J: j} }
	hit := func(st rules.State, _ int) []Part {
		return []Part{{frac(st.N-st.J, st.N+st.J), s(st.N-1, st.J), MoverGoesOn}}
	}
	twoNew := func(next func(st rules.State) rules.State) func(rules.State, int) []Part {
		return func(st rules.State, _ int) []Part {
			return []Part{{frac(4*st.J*(st.J-1), d(st)), next(st), OpponentMoves}}
		}
	}
	terms := []Term{
		{ID: "SA-4.1", Claim: "(n - j)/(n + j) * (1 + E(n-1, j))", Model: hu, Choice: rules.Daring, Event: exact.EventFirstHit, Applies: always, Parts: hit},
		{ID: "SA-4.2", Claim: "2j/D * (1 + E(n-1, j-1))", Model: hu, Choice: rules.Daring, Event: exact.EventLucky, Applies: always,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J, d(st)), s(st.N-1, st.J-1), MoverGoesOn}}
			}},
		{ID: "SA-4.3", Claim: "room >= 2: 4j(j-1)/D * (n - E(n, j-2))", Model: hu, Choice: rules.Daring, Event: exact.EventTwoNew, Applies: roomAtLeast(2),
			Parts: twoNew(func(st rules.State) rules.State { return s(st.N, st.J-2) })},
		{ID: "SA-4.4", Claim: "room = 1: 4j(j-1)/D * (n - E(n, j-1))", Model: hu, Choice: rules.Daring, Event: exact.EventTwoNew, Applies: roomIs(1),
			Parts: twoNew(func(st rules.State) rules.State { return s(st.N, st.J-1) })},
		{ID: "SA-4.5", Claim: "room = 0: 4j(j-1)/D * (n - E(n, j))", Model: hu, Choice: rules.Daring, Event: exact.EventTwoNew, Applies: roomIs(0),
			Parts: twoNew(func(st rules.State) rules.State { return st })},
		{ID: "SA-4.6", Claim: "room >= 2: 2j(n-j)/D * (n - (1 + E(n-1, j-1)))", Model: hu, Choice: rules.Daring, Event: exact.EventNewThenKnownPartner, Applies: roomAtLeast(2),
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J*(st.N-st.J), d(st)), s(st.N-1, st.J-1), OpponentTakes}}
			}},
		{ID: "SA-4.7", Claim: "room = 1: 2j(n-j-1)/D * (n - (1 + E(n-1, j-1))) + 2j/D * (n - E(n, j-1))", Model: hu, Choice: rules.Daring, Event: exact.EventNewThenKnownPartner, Applies: roomIs(1),
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J*(st.N-st.J-1), d(st)), s(st.N-1, st.J-1), OpponentTakes}, {frac(2*st.J, d(st)), s(st.N, st.J-1), OpponentMoves}}
			}},
		{ID: "SA-4.8", Claim: "room = 0: 2j(n-j-2)/D * (n - (1 + E(n-1, j+1))) + 4j/D * (n - E(n, j))", Model: hu, Choice: rules.Daring, Event: exact.EventNewThenKnownPartner, Applies: roomIs(0),
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J*(st.N-st.J-2), d(st)), s(st.N-1, st.J+1), OpponentTakes}, {frac(4*st.J, d(st)), st, OpponentMoves}}
			}},
		{ID: "SA-4.10", Claim: "safe, hit on the first card: as SA-4.1", Model: hu, Choice: rules.Safe, Event: exact.EventFirstHit, Applies: always, Parts: hit},
		{ID: "SA-4.11", Claim: "safe, room >= 1: 2j/(n + j) * (n - E(n, j-1))", Model: hu, Choice: rules.Safe, Event: exact.EventNewThenKnown, Applies: roomAtLeast(1),
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J, st.N+st.J), s(st.N, st.J-1), OpponentMoves}}
			}},
		{ID: "SA-4.12", Claim: "safe, room = 0: 2j/(n + j) * (n - E(n, j))", Model: hu, Choice: rules.Safe, Event: exact.EventNewThenKnown, Applies: roomIs(0),
			Parts: func(st rules.State, _ int) []Part { return []Part{{frac(2*st.J, st.N+st.J), st, OpponentMoves}} }},
	}
	s2 := func(int) exact.Model { return exact.Model{Singletons: 2, Choices: SourceChoices} }
	du := func(st rules.State) int { u := st.Unknown(); return u * (u - 1) }
	ss := func(st rules.State, n, j, f int) rules.State { return rules.State{N: n, J: j, S: st.S, F: f} }
	nothingKnown := func(st rules.State, _ int) bool { return st.Known() == 0 }
	someKnown := func(st rules.State, _ int) bool { return st.Known() > 0 }
	shit := func(st rules.State, _ int) []Part {
		return []Part{{frac(st.N-st.J, st.Unknown()), ss(st, st.N-1, st.J, st.F), MoverGoesOn}}
	}
	singleThenKnown := func(st rules.State, _ int) []Part {
		return []Part{{frac(st.F, st.Unknown()), ss(st, st.N, st.J, st.F-1), OpponentMoves}}
	}
	terms = append(terms,
		Term{ID: "SA-5.1", Claim: "(n - j)/u * (1 + E(n-1, j, s, f))", Model: s2, Choice: rules.Daring, Event: exact.EventFirstHit, Applies: always, Parts: shit},
		Term{ID: "SA-5.2", Claim: "2j/D' * (1 + E(n-1, j-1, s, f))", Model: s2, Choice: rules.Daring, Event: exact.EventLucky, Applies: always,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J, du(st)), ss(st, st.N-1, st.J-1, st.F), MoverGoesOn}}
			}},
		Term{ID: "SA-5.3", Claim: "4j(j-1)/D' * (n - E(n, j-2, s, f))", Model: s2, Choice: rules.Daring, Event: exact.EventTwoNew, Applies: always,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(4*st.J*(st.J-1), du(st)), ss(st, st.N, st.J-2, st.F), OpponentMoves}}
			}},
		Term{ID: "SA-5.4", Claim: "f/u * (n - E(n, j, s, f-1))", Model: s2, Choice: rules.Daring, Event: exact.EventSingletonThenKnown, Applies: someKnown, Parts: singleThenKnown},
		Term{ID: "SA-5.5", Claim: "2jf/D' * (n - E(n, j-1, s, f-1))", Model: s2, Choice: rules.Daring, Event: exact.EventNewThenSingleton, Applies: always,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J*st.F, du(st)), ss(st, st.N, st.J-1, st.F-1), OpponentMoves}}
			}},
		Term{ID: "SA-5.6", Claim: "2j(n-j)/D' * (n - (1 + E(n-1, j-1, s, f)))", Model: s2, Choice: rules.Daring, Event: exact.EventNewThenKnownPartner, Applies: always,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J*(st.N-st.J), du(st)), ss(st, st.N-1, st.J-1, st.F), OpponentTakes}}
			}},
		Term{ID: "SA-5.7", Claim: "safe, hit on the first card: as SA-5.1", Model: s2, Choice: rules.Safe, Event: exact.EventFirstHit, Applies: always, Parts: shit},
		Term{ID: "SA-5.8", Claim: "safe, new pair card then a known card: 2j/u * (n - E(n, j-1, s, f))", Model: s2, Choice: rules.Safe, Event: exact.EventNewThenKnown, Applies: always,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J, st.Unknown()), ss(st, st.N, st.J-1, st.F), OpponentMoves}}
			}},
		Term{ID: "SA-5.9", Claim: "safe, unseen singleton then a known card: as SA-5.4", Model: s2, Choice: rules.Safe, Event: exact.EventSingletonThenKnown, Applies: someKnown, Parts: singleThenKnown},
		Term{ID: "SA-5.10", Claim: "nothing known: f(f-1)/D' * (n - E(n, j, s, f-2))", Model: s2, Choice: rules.Daring, Event: exact.EventTwoSingletons, Applies: nothingKnown,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(st.F*(st.F-1), du(st)), ss(st, st.N, st.J, st.F-2), OpponentMoves}}
			}},
		Term{ID: "SA-5.11", Claim: "nothing known: 2jf/D' * (n - E(n, j-1, s, f-1))", Model: s2, Choice: rules.Daring, Event: exact.EventSingletonThenNew, Applies: nothingKnown,
			Parts: func(st rules.State, _ int) []Part {
				return []Part{{frac(2*st.J*st.F, du(st)), ss(st, st.N, st.J-1, st.F-1), OpponentMoves}}
			}},
	)
	return terms
}

// SolvedFor is a published "solved for E" formula: the value of Choice in a state at room 0,
// with the same choice made again when a forgotten card brings the state back.
type SolvedFor struct {
	ID, Claim string
	Choice    rules.Choice
	// Value evaluates the formula in (n, j) with e giving the solver's optimal values elsewhere.
	Value func(n, j int, e func(n, j int) *big.Rat) *big.Rat
}

// SolvedForms lists SA-4.9 and SA-4.13.
func SolvedForms() []SolvedFor {
	return []SolvedFor{
		{ID: "SA-4.9", Claim: "daring at room = 0, solved for E", Choice: rules.Daring,
			Value: func(n, j int, e func(n, j int) *big.Rat) *big.Rat {
				d := (n + j) * (n + j - 1)
				num := new(big.Rat).SetInt64(int64(4 * j * (j - 1) * n))
				num.Add(num, mulInt(2*j, addInt(1, e(n-1, j-1))))
				num.Add(num, mulInt(2*j*(n-j-2), subFrom(n-1, e(n-1, j+1))))
				num.Add(num, new(big.Rat).SetInt64(int64(4*j*n)))
				num.Add(num, mulInt((n-j)*(n+j-1), addInt(1, e(n-1, j))))
				return num.Quo(num, new(big.Rat).SetInt64(int64(d+4*j*j)))
			}},
		{ID: "SA-4.13", Claim: "safe at room = 0, solved for E", Choice: rules.Safe,
			Value: func(n, j int, e func(n, j int) *big.Rat) *big.Rat {
				num := new(big.Rat).SetInt64(int64(2 * j * n))
				num.Add(num, mulInt(n-j, addInt(1, e(n-1, j))))
				return num.Quo(num, new(big.Rat).SetInt64(int64(3*j+n)))
			}},
	}
}

func mulInt(k int, x *big.Rat) *big.Rat  { return new(big.Rat).Mul(new(big.Rat).SetInt64(int64(k)), x) }
func addInt(k int, x *big.Rat) *big.Rat  { return new(big.Rat).Add(new(big.Rat).SetInt64(int64(k)), x) }
func subFrom(k int, x *big.Rat) *big.Rat { return new(big.Rat).Sub(new(big.Rat).SetInt64(int64(k)), x) }

// AuditSolvedFor checks a solved-for-E formula at every state with room 0 (n <= maxN, m in caps)
// where the choice is optimal (so that the state's value is the choice's value, and the choice is
// made again when the state comes back): the formula, fed the solver's values of the other states
// it names, must give the solver's value.
func AuditSolvedFor(ctx context.Context, sf SolvedFor, maxN int, caps []int) Finding {
	fd := Finding{ID: sf.ID, Claim: sf.Claim, Published: sf.Claim}
	checked := 0
	for _, m := range caps {
		model := exact.Model{Memory: rules.Memory{Capacity: m, Forget: rules.ForgetHandoverUniform}, Choices: SourceChoices}
		tab, err := tableOf(ctx, model, maxN)
		if err != nil {
			fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
			return fd
		}
		e := func(n, j int) *big.Rat {
			if c, ok := tab[rules.State{N: n, J: j}]; ok {
				return c.value
			}
			if n == 0 {
				return new(big.Rat)
			}
			return nil
		}
		for n := 1; n <= maxN; n++ {
			for j := 1; j <= n; j++ {
				st := rules.State{N: n, J: j}
				c, ok := tab[st]
				if !ok || m-(n-j) != 0 || c.choice[sf.Choice] == nil || c.choice[sf.Choice].Cmp(c.value) != 0 {
					continue
				}
				got := sf.Value(n, j, func(a, b int) *big.Rat {
					if v := e(a, b); v != nil {
						return v
					}
					return new(big.Rat) // not a state: the formula's weight for it is 0 here
				})
				checked++
				if got.Cmp(c.value) != 0 {
					fd.Verdict = Refuted
					fd.Exact = fmt.Sprintf("%s in %v, m = %d", c.value.RatString(), st, m)
					fd.Reason = fmt.Sprintf("first disagreement in %v, m = %d: the formula gives %s, the solver %s", st, m, got.RatString(), c.value.RatString())
					return fd
				}
			}
		}
	}
	if checked == 0 {
		fd.Verdict, fd.Reason = Inconclusive, "no state of the grid has room 0 with this choice optimal"
		return fd
	}
	fd.Verdict, fd.Exact = Confirmed, fmt.Sprintf("agrees in all %d states checked", checked)
	fd.Reason = fmt.Sprintf("the formula gives the solver's value in all %d states with room 0 where the choice is optimal (n <= %d, m in %v)", checked, maxN, caps)
	return fd
}
