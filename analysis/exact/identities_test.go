package exact_test

// Identities the exact solver must satisfy, each derived independently of the code under test:
// identities between models (a memory that never fills is perfect memory), conservation (the
// seats share the n pairs), optimality (a best response is at least as good as any policy, the
// optimal policy is an equilibrium), the stalemate rule, agreement of the exact and float fields,
// input validation, cancellation, and a second method: idRefModel below re-derives the perfect
// memory, pairs-only model of docs/models.md §4.2 from the rules text (values, optimal choices,
// best responses, score distributions, more players and solitaire) with its own recursion, and
// the solver must agree with it exactly. No expected number here is published or copied from the
// solver's output.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// ---------------------------------------------------------------------------------------------
// Shared helpers.

// idFamily is a named exact model.
type idFamily struct {
	name  string
	model exact.Model
}

func idPerfect(pass rules.PassRule) idFamily {
	return idFamily{"perfect/pass=" + pass.String(), exact.Model{Pass: pass}}
}

func idSingletons(s int, pass rules.PassRule) idFamily {
	return idFamily{fmt.Sprintf("singletons=%d/pass=%s", s, pass), exact.Model{Pass: pass, Singletons: s}}
}

func idLimited(forget rules.Forgetting, capacity int, pass rules.PassRule) idFamily {
	return idFamily{
		fmt.Sprintf("%s(%d)/pass=%s", forget, capacity, pass),
		exact.Model{Pass: pass, Memory: rules.Memory{Capacity: capacity, Forget: forget}},
	}
}

// idStates lists every valid state of model m with minN <= n <= maxN pairs.
func idStates(m exact.Model, minN, maxN int) []rules.State {
	var out []rules.State
	for n := minN; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= m.Singletons; f++ {
				st := rules.State{N: n, J: j, S: m.Singletons, F: f}
				if st.Validate(m.Memory) == nil {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

// idSample lists every valid state with 1 <= n <= full pairs and, for each larger n up to top, the
// edge states: j = n (the start of a game) and the smallest valid j (the most cards remembered),
// with every number of unseen singletons. Evaluate sweeps every state
// below the one asked for, so the larger sizes exercise all the smaller states at the cost of one
// sweep each, while checking every state of every size would cost O(n^4) state evaluations.
func idSample(m exact.Model, full, top int) []rules.State {
	out := idStates(m, 1, full)
	for n := full + 1; n <= top; n++ {
		jMin := 0
		if !m.Memory.Perfect() {
			jMin = max(0, n-m.Memory.Capacity)
		}
		for _, st := range idStates(m, n, n) {
			if st.J == n || st.J == jMin {
				out = append(out, st)
			}
		}
	}
	return out
}

// idTop trims the top size for families with singletons, whose states are S+1 times as many.
func idTop(fam idFamily, top int) int {
	if fam.model.Singletons > 0 {
		return top - 1
	}
	return top
}

// idDedupe drops families listed twice.
func idDedupe(fams []idFamily) []idFamily {
	var out []idFamily
	seen := map[string]bool{}
	for _, f := range fams {
		if !seen[f.name] {
			seen[f.name] = true
			out = append(out, f)
		}
	}
	return out
}

var idFourPolicies = []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity}

// idSomeMatchups is a cheaper selection of two-player matchups: each policy against itself, two
// mixed pairs, and best-response on either side.
func idSomeMatchups() []exact.Lineup {
	o, sa, da, pa, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity, rules.PolicyBestResponse
	pairs := [][2]rules.Policy{
		{o, o}, {sa, sa}, {da, da}, {pa, pa}, {sa, da}, {pa, o}, {br, o}, {br, pa}, {da, br},
	}
	out := make([]exact.Lineup, len(pairs))
	for i, p := range pairs {
		out[i] = exact.Lineup{Players: 2, Policy: p[0], Opponent: p[1]}
	}
	return out
}

// idMultiMatchups is a selection of matchups for players seats (pass rule never).
func idMultiMatchups(players int) []exact.Lineup {
	o, sa, da, pa := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	pairs := [][2]rules.Policy{{o, o}, {sa, sa}, {da, da}, {pa, pa}, {sa, o}, {o, da}}
	out := make([]exact.Lineup, len(pairs))
	for i, p := range pairs {
		out[i] = exact.Lineup{Players: players, Policy: p[0], Opponent: p[1]}
	}
	return out
}

func idMatchupName(mu exact.Lineup) string {
	return fmt.Sprintf("p=%d/%v-vs-%v", mu.Players, mu.Policy, mu.Opponent)
}

func idEval(t *testing.T, m exact.Model, mu exact.Lineup, st rules.State) exact.Result[*big.Rat] {
	t.Helper()
	res, err := exact.Evaluate[*big.Rat](context.Background(), field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("Evaluate(%+v, %s, %v): %v", m, idMatchupName(mu), st, err)
	}
	return res
}

// idTable returns the exact optimal table of m up to maxN, keyed by state (cells copied).
func idTable(t *testing.T, m exact.Model, maxN int) map[rules.State]exact.TableCell[*big.Rat] {
	t.Helper()
	out := map[rules.State]exact.TableCell[*big.Rat]{}
	err := exact.Table[*big.Rat](context.Background(), field.Rat{}, m, maxN, func(c *exact.TableCell[*big.Rat]) error {
		cp := *c
		cp.Best = slices.Clone(c.Best)
		out[c.State] = cp
		return nil
	})
	if err != nil {
		t.Fatalf("Table(%+v, %d): %v", m, maxN, err)
	}
	return out
}

func idRS(r *big.Rat) string {
	if r == nil {
		return "<nil>"
	}
	return r.RatString()
}

func idRat(a, b int64) *big.Rat { return big.NewRat(a, b) }

func idHalf(n int) *big.Rat { return big.NewRat(int64(n), 2) }

func idSum(xs []*big.Rat) *big.Rat {
	s := new(big.Rat)
	for _, x := range xs {
		s.Add(s, x)
	}
	return s
}

func idShort(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}

// bySize returns a test's size: race under the race detector (exact.RaceEnabled), short in -short
// mode, long otherwise.
func bySize(race, short, long int) int {
	switch {
	case exact.RaceEnabled:
		return race
	case testing.Short():
		return short
	}
	return long
}

// ---------------------------------------------------------------------------------------------
// idRefModel: the perfect-memory, pairs-only model (docs/models.md §4.2), derived here from the rules.
//
// In state (n, j) there are k = n - j half-known pairs and u = n + j cards nobody remembers, all
// exchangeable. A turn:
//   - unknown first card: its partner is one of the k remembered cards with probability k/u (take
//     the pair, move again in (n-1, j)); otherwise (2j/u) it is new, and then
//   - safe (k >= 1): flip a remembered card, nothing matches, hand over in (n, j-1);
//   - daring (or safe with nothing remembered): of the u-1 cards left, 1 is the partner (take it,
//     move again in (n-1, j-1)), k are partners of remembered cards (that pair is now fully known:
//     the next seat takes it, then moves in (n-1, j-1)), 2(j-1) are new (hand over in (n, j-2));
//   - known-first (k >= 1): flip a remembered card, then an unknown one: 1/u its partner (take,
//     move again in (n-1, j)), (k-1)/u another remembered card's partner (the next seat takes that
//     pair, then moves in (n-1, j)), 2j/u new (hand over in (n, j-1));
//   - pass (two-known: k >= 2; always): nothing happens; pass answered by pass ends the game with
//     the pairs left split equally.
// No perfect-memory move returns to its own state, so plain recursion over (n, j) terminates.

type idRefOut struct {
	p     *big.Rat
	n, j  int
	cont  bool // the mover took a pair and moves again
	gain  int  // pairs taken first: by the mover (cont) or by the next seat (hand-over)
	lucky bool // the second card matched a new first card by chance
}

func idRefOutcomes(n, j int, c rules.Choice) []idRefOut {
	k, u := int64(n-j), int64(n+j)
	var out []idRefOut
	add := func(p *big.Rat, nn, jj int, cont bool, gain int, lucky bool) {
		if p.Sign() > 0 {
			out = append(out, idRefOut{p, nn, jj, cont, gain, lucky})
		}
	}
	switch c {
	case rules.Daring, rules.Safe:
		add(idRat(k, u), n-1, j, true, 1, false)
		if j == 0 {
			break
		}
		pNew := idRat(2*int64(j), u)
		if c == rules.Safe && k >= 1 {
			add(pNew, n, j-1, false, 0, false)
			break
		}
		rest := u - 1
		add(new(big.Rat).Mul(pNew, idRat(1, rest)), n-1, j-1, true, 1, true)
		add(new(big.Rat).Mul(pNew, idRat(k, rest)), n-1, j-1, false, 1, false)
		add(new(big.Rat).Mul(pNew, idRat(2*int64(j-1), rest)), n, j-2, false, 0, false)
	case rules.KnownFirst:
		add(idRat(1, u), n-1, j, true, 1, false)
		add(idRat(k-1, u), n-1, j, false, 1, false)
		add(idRat(2*int64(j), u), n, j-1, false, 0, false)
	}
	return out
}

// idRefLegal is the legality of a choice by the rules text: daring always; safe and known-first need
// a remembered card; a pass needs the pass rule (two-known: two remembered unmatched cards).
func idRefLegal(n, j int, c rules.Choice, pass rules.PassRule) bool {
	k := n - j
	switch c {
	case rules.Daring:
		return true
	case rules.Safe, rules.KnownFirst:
		return k >= 1
	case rules.Pass:
		return pass == rules.PassAlways || (pass == rules.PassTwoKnown && k >= 2)
	}
	return false
}

// idRefFixed is a fixed policy's choice by docs/models.md §3.3: safe and daring make that choice where it
// is legal (daring is forced when nothing is known); parity is daring for odd j, safe for even j.
func idRefFixed(p rules.Policy, n, j int) rules.Choice {
	c := rules.Daring
	switch p {
	case rules.PolicySafe:
		c = rules.Safe
	case rules.PolicyParity:
		if j%2 == 0 {
			c = rules.Safe
		}
	}
	if c == rules.Safe && n-j == 0 {
		c = rules.Daring
	}
	return c
}

var idRefOrder = []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass}

type idRefKey struct{ n, j int }

// idRefModel memoises optimal play for one pass rule and one set of allowed choices (the full
// game: every choice); matchup quantities are computed on demand.
type idRefModel struct {
	pass    rules.PassRule
	allowed map[rules.Choice]bool // nil: every choice
	opt     map[idRefKey]idRefOptCell
}

// legal is a choice's legality by the rules text, within the allowed choices.
func (r *idRefModel) legal(n, j int, c rules.Choice) bool {
	return (r.allowed == nil || r.allowed[c]) && idRefLegal(n, j, c, r.pass)
}

// idRefOptCell is the two-player optimal solution of a state: the mover's lead, the lead of each
// legal choice with optimal play afterwards, and the documented tie-break (the first best choice in
// the order daring, safe, known-first, pass).
type idRefOptCell struct {
	lead   *big.Rat
	choice [rules.NumChoices]*big.Rat // nil where illegal
	pick   rules.Choice
}

func newIDRefModel(pass rules.PassRule) *idRefModel {
	return &idRefModel{pass: pass, opt: map[idRefKey]idRefOptCell{}}
}

// idMoveLead is the mover's lead for non-pass choice c given the lead own of the mover when it
// moves again and the lead other of the next seat when it moves.
func idMoveLead(n, j int, c rules.Choice, own, other func(n, j int) *big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, o := range idRefOutcomes(n, j, c) {
		v := new(big.Rat)
		if o.cont {
			v.Add(idRat(int64(o.gain), 1), own(o.n, o.j))
		} else {
			v.Sub(idRat(-int64(o.gain), 1), other(o.n, o.j))
		}
		sum.Add(sum, v.Mul(v, o.p))
	}
	return sum
}

// optimal: the lead N of the best non-pass choice; where a pass is legal the value is max(N, 0)
// (the opponent facing a pass can pass too and split, so a pass is worth -max(N, 0), and the
// mover takes the larger of N and -max(N, 0)).
func (r *idRefModel) optimal(n, j int) idRefOptCell {
	key := idRefKey{n, j}
	if c, ok := r.opt[key]; ok {
		return c
	}
	var cell idRefOptCell
	if n == 0 {
		cell.lead = new(big.Rat)
		r.opt[key] = cell
		return cell
	}
	lead := func(n, j int) *big.Rat { return r.optimal(n, j).lead }
	var top *big.Rat
	for _, c := range idRefOrder[:3] {
		if !r.legal(n, j, c) {
			continue
		}
		cell.choice[c] = idMoveLead(n, j, c, lead, lead)
		if top == nil || cell.choice[c].Cmp(top) > 0 {
			top = cell.choice[c]
		}
	}
	cell.lead = top
	if r.legal(n, j, rules.Pass) {
		reply := top
		if reply.Sign() < 0 {
			reply = new(big.Rat)
		}
		cell.choice[rules.Pass] = new(big.Rat).Neg(reply)
		if cell.choice[rules.Pass].Cmp(top) > 0 {
			cell.lead = cell.choice[rules.Pass]
		}
	}
	for _, c := range idRefOrder {
		if cell.choice[c] != nil && cell.choice[c].Cmp(cell.lead) == 0 {
			cell.pick = c
			break
		}
	}
	r.opt[key] = cell
	return cell
}

// choiceOf is the choice of a policy other than best-response.
func (r *idRefModel) choiceOf(p rules.Policy, n, j int) rules.Choice {
	if p == rules.PolicyOptimal {
		return r.optimal(n, j).pick
	}
	return idRefFixed(p, n, j)
}

// idRefMatch evaluates a two-player matchup: role 0 plays pol[0], role 1 pol[1].
type idRefMatch struct {
	r    *idRefModel
	pol  [2]rules.Policy
	lead map[[4]int]*big.Rat // role, flag (1: the other seat just passed), n, j
	dist map[[3]int][]*big.Rat
}

func (r *idRefModel) match(policy, opponent rules.Policy) *idRefMatch {
	return &idRefMatch{r: r, pol: [2]rules.Policy{policy, opponent}, lead: map[[4]int]*big.Rat{}, dist: map[[3]int][]*big.Rat{}}
}

// leadOf is the lead of role ro to move in (n, j), flag 1 when the other role has just passed. A
// best-response role takes the best legal choice; a pass answered by a pass is a split (lead 0).
func (m *idRefMatch) leadOf(ro, flag, n, j int) *big.Rat {
	key := [4]int{ro, flag, n, j}
	if v, ok := m.lead[key]; ok {
		return v
	}
	if n == 0 {
		return new(big.Rat)
	}
	value := func(c rules.Choice) *big.Rat {
		if c == rules.Pass {
			if flag == 1 {
				return new(big.Rat)
			}
			return new(big.Rat).Neg(m.leadOf(1-ro, 1, n, j))
		}
		own := func(n, j int) *big.Rat { return m.leadOf(ro, 0, n, j) }
		other := func(n, j int) *big.Rat { return m.leadOf(1-ro, 0, n, j) }
		return idMoveLead(n, j, c, own, other)
	}
	var v *big.Rat
	if m.pol[ro] == rules.PolicyBestResponse {
		for _, c := range idRefOrder {
			if m.r.legal(n, j, c) {
				if x := value(c); v == nil || x.Cmp(v) > 0 {
					v = x
				}
			}
		}
	} else {
		v = value(m.r.choiceOf(m.pol[ro], n, j))
	}
	m.lead[key] = v
	return v
}

// pairs is seat 0's expected pairs, (n + lead)/2.
func (m *idRefMatch) pairs(n, j int) *big.Rat {
	v := new(big.Rat).Add(idRat(int64(n), 1), m.leadOf(0, 0, n, j))
	return v.Quo(v, idRat(2, 1))
}

// distOf is the distribution of the final share of role ro moving in (n, j), in half pairs
// (index i: i/2 pairs), for roles that are not best-response.
func (m *idRefMatch) distOf(ro, n, j int) []*big.Rat {
	key := [3]int{ro, n, j}
	if d, ok := m.dist[key]; ok {
		return d
	}
	d := make([]*big.Rat, 2*n+1)
	for i := range d {
		d[i] = new(big.Rat)
	}
	c := m.r.choiceOf(m.pol[ro], n, j)
	switch {
	case n == 0:
		d[0].SetInt64(1)
	case c == rules.Pass:
		if m.r.choiceOf(m.pol[1-ro], n, j) == rules.Pass {
			d[n].SetInt64(1) // stalemate: n/2 pairs each
			break
		}
		od := m.distOf(1-ro, n, j)
		for i, p := range od {
			d[2*n-i].Add(d[2*n-i], p)
		}
	default:
		for _, o := range idRefOutcomes(n, j, c) {
			if o.cont {
				for i, p := range m.distOf(ro, o.n, o.j) {
					d[2*o.gain+i].Add(d[2*o.gain+i], new(big.Rat).Mul(o.p, p))
				}
				continue
			}
			for i, p := range m.distOf(1-ro, o.n, o.j) {
				idx := 2*n - 2*o.gain - i
				d[idx].Add(d[idx], new(big.Rat).Mul(o.p, p))
			}
		}
	}
	m.dist[key] = d
	return d
}

// seats is every seat's expected pairs with p players, pass never, seat t to move, seat 0
// playing policy and the others opponent.
func (r *idRefModel) seats(p int, policy, opponent rules.Policy) func(t, n, j int) []*big.Rat {
	memo := map[[3]int][]*big.Rat{}
	self := r.selfish(p)
	var f func(t, n, j int) []*big.Rat
	f = func(t, n, j int) []*big.Rat {
		key := [3]int{t, n, j}
		if v, ok := memo[key]; ok {
			return v
		}
		v := make([]*big.Rat, p)
		for i := range v {
			v[i] = new(big.Rat)
		}
		if n > 0 {
			pol := opponent
			if t == 0 {
				pol = policy
			}
			c := r.choiceOf(pol, n, j)
			if pol == rules.PolicyOptimal && p >= 3 {
				c = self(n, j).pick
			}
			for _, o := range idRefOutcomes(n, j, c) {
				mover := t
				if !o.cont {
					mover = (t + 1) % p
				}
				for s, x := range f(mover, o.n, o.j) {
					if s == mover {
						x = new(big.Rat).Add(x, idRat(int64(o.gain), 1))
					}
					v[s].Add(v[s], new(big.Rat).Mul(o.p, x))
				}
			}
		}
		memo[key] = v
		return v
	}
	return f
}

// idRefSelfCell is a state of the optimum of every seat for itself: every seat's expected pairs
// in order from the mover, and the mover's choice.
type idRefSelfCell struct {
	v    []*big.Rat
	pick rules.Choice
}

// selfish is the optimum of p seats that each maximise their own expected pairs (perfect memory,
// pass never): the mover takes the first legal choice, in the order daring, safe, known-first,
// with the most expected pairs for itself, every seat playing so afterwards.
func (r *idRefModel) selfish(p int) func(n, j int) idRefSelfCell {
	memo := map[idRefKey]idRefSelfCell{}
	var f func(n, j int) idRefSelfCell
	f = func(n, j int) idRefSelfCell {
		if c, ok := memo[idRefKey{n, j}]; ok {
			return c
		}
		cell := idRefSelfCell{v: make([]*big.Rat, p)}
		for i := range cell.v {
			cell.v[i] = new(big.Rat)
		}
		have := false
		for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
			if n == 0 || !r.legal(n, j, c) {
				continue
			}
			v := make([]*big.Rat, p)
			for i := range v {
				v[i] = new(big.Rat)
			}
			for _, o := range idRefOutcomes(n, j, c) {
				// The seat that moves next: the mover (shift 0) or the next seat (shift 1).
				shift := 1
				if o.cont {
					shift = 0
				}
				next := f(o.n, o.j).v
				for s := range v {
					x := new(big.Rat).Set(next[(s-shift+p)%p])
					if s == shift {
						x.Add(x, idRat(int64(o.gain), 1))
					}
					v[s].Add(v[s], x.Mul(x, o.p))
				}
			}
			if !have || v[0].Cmp(cell.v[0]) > 0 {
				cell.v, cell.pick, have = v, c, true
			}
		}
		memo[idRefKey{n, j}] = cell
		return cell
	}
	return f
}

// solitaire is the expected number of turns (two flips each; a pair left fully known costs the
// turn that takes it) and of lucky turns, for a fixed policy or, with optimal, the fewest turns.
func (r *idRefModel) solitaire(policy rules.Policy) func(n, j int) (turns, lucky *big.Rat) {
	type tl struct{ t, l *big.Rat }
	memo := map[idRefKey]tl{}
	var f func(n, j int) tl
	f = func(n, j int) tl {
		if v, ok := memo[idRefKey{n, j}]; ok {
			return v
		}
		if n == 0 {
			return tl{new(big.Rat), new(big.Rat)}
		}
		eval := func(c rules.Choice) tl {
			res := tl{new(big.Rat), new(big.Rat)}
			for _, o := range idRefOutcomes(n, j, c) {
				next := f(o.n, o.j)
				cost := new(big.Rat).Add(idRat(1, 1), next.t)
				if !o.cont {
					cost.Add(cost, idRat(int64(o.gain), 1))
				}
				res.t.Add(res.t, cost.Mul(cost, o.p))
				luck := new(big.Rat).Set(next.l)
				if o.lucky {
					luck.Add(luck, idRat(1, 1))
				}
				res.l.Add(res.l, luck.Mul(luck, o.p))
			}
			return res
		}
		var v tl
		if policy == rules.PolicyOptimal {
			for _, c := range idRefOrder[:3] {
				if idRefLegal(n, j, c, rules.PassNever) {
					if x := eval(c); v.t == nil || x.t.Cmp(v.t) < 0 {
						v = x
					}
				}
			}
		} else {
			v = eval(idRefFixed(policy, n, j))
		}
		memo[idRefKey{n, j}] = v
		return v
	}
	return func(n, j int) (*big.Rat, *big.Rat) { v := f(n, j); return v.t, v.l }
}

// TestReferenceHandDerived pins the reference recursion itself to values derived by hand from the
// rules (see example_test.go for the derivation of E(2,1) = 4/3 and E(2,2) = 2/3), so that a slip
// in the reference cannot make both sides agree on a wrong answer unnoticed.
func TestReferenceHandDerived(t *testing.T) {
	r := newIDRefModel(rules.PassNever)
	tests := []struct {
		n, j int
		want *big.Rat
	}{
		{1, 0, idRat(1, 1)}, {1, 1, idRat(1, 1)}, {2, 0, idRat(2, 1)}, {2, 1, idRat(4, 3)}, {2, 2, idRat(2, 3)},
	}
	for _, tt := range tests {
		if got := r.match(rules.PolicyOptimal, rules.PolicyOptimal).pairs(tt.n, tt.j); got.Cmp(tt.want) != 0 {
			t.Errorf("reference E(%d,%d) = %s, want %s", tt.n, tt.j, idRS(got), idRS(tt.want))
		}
	}
	for n := 0; n <= 6; n++ {
		for j := 0; j <= n; j++ {
			for _, c := range idRefOrder[:3] {
				if !idRefLegal(n, j, c, rules.PassNever) || n == 0 {
					continue
				}
				var sum big.Rat
				for _, o := range idRefOutcomes(n, j, c) {
					sum.Add(&sum, o.p)
				}
				if sum.Cmp(idRat(1, 1)) != 0 {
					t.Errorf("reference outcomes of %v in (%d,%d) sum to %s", c, n, j, sum.RatString())
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// 1. A memory of capacity at least 2n never forgets: at most 2n cards are ever on the table, so
// no card is ever evicted (lru) or forgotten at hand-over (handover-uniform), and the model is
// perfect memory exactly.

func TestIdentityLargeCapacityIsPerfect(t *testing.T) {
	t.Parallel()
	maxN := idShort(5, 8)
	forgets := []rules.Forgetting{rules.ForgetHandoverUniform, rules.ForgetLRU}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		perfect := exact.Model{Pass: pass}
		// Each policy against itself and best-response against each fixed policy.
		matchups := idMultiMatchups(2)[:4]
		for _, o := range idFourPolicies[1:] {
			matchups = append(matchups, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: o})
		}
		if pass != rules.PassNever {
			// Fixed policies never pass: the pass rules only matter for optimal and best-response.
			matchups = []exact.Lineup{
				{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal},
			}
		}
		t.Run("pass="+pass.String(), func(t *testing.T) {
			t.Parallel()
			for _, st := range idStates(perfect, 1, maxN) {
				n := st.N
				for _, mu := range matchups {
					want := idEval(t, perfect, mu, st)
					for _, forget := range forgets {
						for _, capacity := range []int{2 * n, 2*n + 3} {
							limited := exact.Model{Pass: pass, Memory: rules.Memory{Capacity: capacity, Forget: forget}}
							got := idEval(t, limited, mu, st)
							if got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 || got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
								t.Errorf("%v %v %s: pairs %s lead %s, perfect memory %s lead %s", limited.Memory, st,
									idMatchupName(mu), idRS(got.ExpectedPairs), idRS(got.ExpectedLead),
									idRS(want.ExpectedPairs), idRS(want.ExpectedLead))
							}
							for i := range want.PairsBySeat {
								if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
									t.Errorf("%v %v %s: seat %d %s, perfect memory %s", limited.Memory, st, idMatchupName(mu),
										i, idRS(got.PairsBySeat[i]), idRS(want.PairsBySeat[i]))
								}
							}
						}
					}
				}
				if pass != rules.PassNever {
					continue
				}
				for _, p := range idFourPolicies {
					mu := exact.Lineup{Players: 1, Policy: p}
					want := idEval(t, perfect, mu, st)
					for _, forget := range forgets {
						limited := exact.Model{Memory: rules.Memory{Capacity: 2 * n, Forget: forget}}
						got := idEval(t, limited, mu, st)
						if got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
							t.Errorf("%v %v solitaire %v: turns %s lucky %s, perfect memory %s %s", limited.Memory, st, p,
								idRS(got.ExpectedTurns), idRS(got.ExpectedLucky), idRS(want.ExpectedTurns), idRS(want.ExpectedLucky))
						}
					}
				}
			}
			// Tables: capacity 2*maxN covers every state with at most maxN pairs.
			want := idTable(t, perfect, maxN)
			for _, forget := range forgets {
				for _, capacity := range []int{2 * maxN, 2*maxN + 3} {
					limited := exact.Model{Pass: pass, Memory: rules.Memory{Capacity: capacity, Forget: forget}}
					got := idTable(t, limited, maxN)
					if len(got) != len(want) {
						t.Fatalf("%v: table has %d cells, perfect memory %d", limited.Memory, len(got), len(want))
					}
					for st, w := range want {
						g, ok := got[st]
						switch {
						case !ok:
							t.Errorf("%v: table lacks %v", limited.Memory, st)
						case g.Value.Cmp(w.Value) != 0 || g.Code != w.Code || !slices.Equal(g.Best, w.Best) || g.Choice != w.Choice:
							t.Errorf("%v %v: cell value %s code %d best %v, perfect memory %s code %d best %v", limited.Memory, st,
								idRS(g.Value), g.Code, g.Best, idRS(w.Value), w.Code, w.Best)
						}
					}
				}
			}
		})
	}
}

// ---------------------------------------------------------------------------------------------
// 2. Conservation: every pair on the table ends with some seat (a stalemate splits what is
// left), so the seats' expected pairs sum to n, and the lead is pairs minus the rest.

func idConservationFamilies() []idFamily {
	fams := []idFamily{
		idPerfect(rules.PassNever), idPerfect(rules.PassTwoKnown), idPerfect(rules.PassAlways),
		idSingletons(1, rules.PassNever), idSingletons(2, rules.PassNever), idSingletons(1, rules.PassAlways),
	}
	for _, forget := range []rules.Forgetting{rules.ForgetHandoverUniform, rules.ForgetLRU} {
		for _, capacity := range []int{2, 3, 4} {
			fams = append(fams, idLimited(forget, capacity, rules.PassNever))
		}
		fams = append(fams, idLimited(forget, 3, rules.PassTwoKnown), idLimited(forget, 2, rules.PassAlways))
	}
	return fams
}

func TestIdentitySeatsShareThePairs(t *testing.T) {
	t.Parallel()
	for _, fam := range idConservationFamilies() {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			matchups := idSomeMatchups()
			if fam.model.Pass == rules.PassNever {
				matchups = append(matchups, idMultiMatchups(3)...)
				matchups = append(matchups, idMultiMatchups(4)...)
			}
			states := append(idStates(fam.model, 0, 0), idSample(fam.model, 3, idTop(fam, idShort(5, 6)))...)
			for _, st := range states {
				n := big.NewRat(int64(st.N), 1)
				for _, mu := range matchups {
					res := idEval(t, fam.model, mu, st)
					name := fmt.Sprintf("%v %s", st, idMatchupName(mu))
					if len(res.PairsBySeat) != mu.Players {
						t.Fatalf("%s: %d seats in PairsBySeat", name, len(res.PairsBySeat))
					}
					if s := idSum(res.PairsBySeat); s.Cmp(n) != 0 {
						t.Errorf("%s: seats sum to %s, want %d", name, s.RatString(), st.N)
					}
					for i, v := range res.PairsBySeat {
						if v.Sign() < 0 || v.Cmp(n) > 0 {
							t.Errorf("%s: seat %d expects %s pairs, outside [0, %d]", name, i, v.RatString(), st.N)
						}
					}
					if res.ExpectedPairs.Cmp(res.PairsBySeat[0]) != 0 {
						t.Errorf("%s: ExpectedPairs %s, PairsBySeat[0] %s", name, idRS(res.ExpectedPairs), idRS(res.PairsBySeat[0]))
					}
					if mu.Players == 2 {
						lead := new(big.Rat).Sub(new(big.Rat).Mul(big.NewRat(2, 1), res.ExpectedPairs), n)
						if res.ExpectedLead.Cmp(lead) != 0 {
							t.Errorf("%s: ExpectedLead %s, 2*pairs - n = %s", name, idRS(res.ExpectedLead), lead.RatString())
						}
					}
				}
			}
		})
	}
}

// TestReferenceMorePlayers compares every seat's expected pairs with 2, 3 and 4 players (pass
// never, perfect memory) with idRefModel's independent recursion.
func TestReferenceMorePlayers(t *testing.T) {
	t.Parallel()
	r := newIDRefModel(rules.PassNever)
	for _, p := range []int{2, 3, 4} {
		for ai, a := range idFourPolicies {
			for bi, b := range idFourPolicies {
				if testing.Short() && p > 2 && (ai+bi+p)%2 != 0 {
					continue // the short form plays half the matchups at 3 and 4 seats, in turn
				}
				mu := exact.Lineup{Players: p, Policy: a, Opponent: b}
				t.Run(idMatchupName(mu), func(t *testing.T) {
					ref := r.seats(p, a, b)
					for _, st := range idSample(exact.Model{}, 4, bySize(4, 6, 8)) {
						res := idEval(t, exact.Model{}, mu, st)
						want := ref(0, st.N, st.J)
						for i := range want {
							if res.PairsBySeat[i].Cmp(want[i]) != 0 {
								t.Errorf("%v seat %d: %s, reference %s", st, i, idRS(res.PairsBySeat[i]), idRS(want[i]))
							}
						}
					}
				})
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// 3. Score distributions: a probability distribution over the shares 0, 1/2, ..., n whose mean is
// the expected pairs of Evaluate, and whose Win, Draw and Loss are its masses above, at and below
// n/2. Without passes every pair is won whole, so no half-integer share can occur.
//
// No symmetry between "A vs B" and "B vs A" from the same state is asserted: the seat that moves
// first differs, so the two are different games and their distributions are not related by a
// reflection in general (the first mover's advantage depends on the state and the policies).

func TestIdentityDistribution(t *testing.T) {
	t.Parallel()
	for _, fam := range idConservationFamilies() {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			top := idShort(5, 6)
			if fam.model.Singletons > 0 {
				top -= 2
			}
			for _, st := range idSample(fam.model, 3, top) {
				for _, mu := range idSomeMatchups() {
					name := fmt.Sprintf("%v %s", st, idMatchupName(mu))
					d, err := exact.Distribution[*big.Rat](context.Background(), field.Rat{}, fam.model, mu, st)
					if err != nil {
						t.Fatalf("%s: Distribution: %v", name, err)
					}
					if len(d.Prob) != 2*st.N+1 {
						t.Fatalf("%s: %d shares, want %d", name, len(d.Prob), 2*st.N+1)
					}
					total, mean := new(big.Rat), new(big.Rat)
					win, draw, loss := new(big.Rat), new(big.Rat), new(big.Rat)
					for i, p := range d.Prob {
						if p.Sign() < 0 {
							t.Errorf("%s: share %d/2 has probability %s", name, i, p.RatString())
						}
						if fam.model.Pass == rules.PassNever && i%2 == 1 && p.Sign() != 0 {
							t.Errorf("%s: half-integer share %d/2 with probability %s under pass never", name, i, p.RatString())
						}
						total.Add(total, p)
						mean.Add(mean, new(big.Rat).Mul(p, idHalf(i)))
						switch {
						case i > st.N:
							win.Add(win, p)
						case i == st.N:
							draw.Add(draw, p)
						default:
							loss.Add(loss, p)
						}
					}
					if total.Cmp(idRat(1, 1)) != 0 {
						t.Errorf("%s: probabilities sum to %s", name, total.RatString())
					}
					if d.Win.Cmp(win) != 0 || d.Draw.Cmp(draw) != 0 || d.Loss.Cmp(loss) != 0 {
						t.Errorf("%s: win/draw/loss %s/%s/%s, from Prob %s/%s/%s", name,
							idRS(d.Win), idRS(d.Draw), idRS(d.Loss), win.RatString(), draw.RatString(), loss.RatString())
					}
					if s := new(big.Rat).Add(d.Win, new(big.Rat).Add(d.Draw, d.Loss)); s.Cmp(idRat(1, 1)) != 0 {
						t.Errorf("%s: win+draw+loss = %s", name, s.RatString())
					}
					if d.Draw.Sign() < 0 {
						t.Errorf("%s: draw probability %s", name, d.Draw.RatString())
					}
					res := idEval(t, fam.model, mu, st)
					if mean.Cmp(res.ExpectedPairs) != 0 {
						t.Errorf("%s: mean share %s, ExpectedPairs %s", name, mean.RatString(), idRS(res.ExpectedPairs))
					}
				}
			}
		})
	}
}

// TestReferenceDistribution compares the score distributions of perfect memory (every pass rule,
// policies other than best-response) with idRefModel.
func TestReferenceDistribution(t *testing.T) {
	t.Parallel()
	for pi, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		r := newIDRefModel(pass)
		m := exact.Model{Pass: pass}
		for ai, a := range idFourPolicies {
			for bi, b := range idFourPolicies {
				if testing.Short() && (pi+ai+bi)%3 != 0 {
					continue // the short form plays each matchup under one pass rule, in turn
				}
				mu := exact.Lineup{Players: 2, Policy: a, Opponent: b}
				t.Run(fmt.Sprintf("pass=%v/%s", pass, idMatchupName(mu)), func(t *testing.T) {
					ref := r.match(a, b)
					for _, st := range idSample(m, 4, bySize(4, 6, 7)) {
						d, err := exact.Distribution[*big.Rat](context.Background(), field.Rat{}, m, mu, st)
						if err != nil {
							t.Fatalf("%v: %v", st, err)
						}
						want := ref.distOf(0, st.N, st.J)
						for i := range want {
							if d.Prob[i].Cmp(want[i]) != 0 {
								t.Errorf("%v share %d/2: probability %s, reference %s", st, i, idRS(d.Prob[i]), want[i].RatString())
							}
						}
					}
				})
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// 4. Optimality.

func idOptimalityFamilies() []idFamily {
	return []idFamily{
		idPerfect(rules.PassNever), idPerfect(rules.PassTwoKnown), idPerfect(rules.PassAlways),
		idSingletons(1, rules.PassNever), idSingletons(2, rules.PassNever),
		idLimited(rules.ForgetHandoverUniform, 2, rules.PassNever), idLimited(rules.ForgetHandoverUniform, 3, rules.PassNever),
		idLimited(rules.ForgetLRU, 2, rules.PassNever), idLimited(rules.ForgetLRU, 3, rules.PassNever),
		idLimited(rules.ForgetHandoverUniform, 3, rules.PassAlways), idLimited(rules.ForgetLRU, 2, rules.PassTwoKnown),
	}
}

// TestIdentityBestResponse: against a fixed opponent policy B, the best response is at least as
// good as optimal, safe, daring and parity against B, from every state; against the optimal
// policy it is worth exactly the optimal value (the optimal policy is an equilibrium), which is
// also the value of optimal against optimal and the table's value.
func TestIdentityBestResponse(t *testing.T) {
	t.Parallel()
	for _, fam := range idOptimalityFamilies() {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			// Every state up to 3 pairs, the edge states of idSample up to 7 pairs (6 with
			// singletons), and the start of a game with 12 pairs (8 with singletons).
			top := idShort(8, 12)
			if fam.model.Singletons > 0 {
				top = idShort(6, 8)
			}
			table := idTable(t, fam.model, top)
			states := idSample(fam.model, 3, min(7, top-2))
			states = append(states, rules.State{N: top, J: top, S: fam.model.Singletons, F: fam.model.Singletons})
			for _, st := range states {
				cell, ok := table[st]
				if !ok {
					t.Fatalf("table lacks %v", st)
				}
				for _, b := range idFourPolicies {
					br := idEval(t, fam.model, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: b}, st)
					for _, a := range idFourPolicies {
						v := idEval(t, fam.model, exact.Lineup{Players: 2, Policy: a, Opponent: b}, st)
						if v.ExpectedPairs.Cmp(br.ExpectedPairs) > 0 {
							t.Errorf("%v: %v vs %v gets %s, more than best-response vs %v %s", st, a, b,
								idRS(v.ExpectedPairs), b, idRS(br.ExpectedPairs))
						}
						if a == rules.PolicyOptimal && b == rules.PolicyOptimal && v.ExpectedPairs.Cmp(cell.Value) != 0 {
							t.Errorf("%v: optimal vs optimal %s, table value %s", st, idRS(v.ExpectedPairs), idRS(cell.Value))
						}
					}
					if b == rules.PolicyOptimal && br.ExpectedPairs.Cmp(cell.Value) != 0 {
						t.Errorf("%v: best-response vs optimal %s, optimal value %s: optimal is not an equilibrium",
							st, idRS(br.ExpectedPairs), idRS(cell.Value))
					}
					// The other side: optimal against a best response to it can do no better than
					// the optimal value, and it cannot do worse either (equilibrium).
					if b == rules.PolicyOptimal {
						rev := idEval(t, fam.model, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyBestResponse}, st)
						if rev.ExpectedPairs.Cmp(cell.Value) != 0 {
							t.Errorf("%v: optimal vs best-response %s, optimal value %s", st, idRS(rev.ExpectedPairs), idRS(cell.Value))
						}
					}
				}
			}
		})
	}
}

// TestIdentityTableCells: in every cell the value is the largest choice value over the legal
// choices, Best lists exactly the maximisers in the order daring, safe, known-first, pass, Choice
// is Best[0], and Code compares the daring and safe choice values where the decision arises.
func TestIdentityTableCells(t *testing.T) {
	t.Parallel()
	maxN := idShort(10, 16)
	for _, fam := range idDedupe(append(idOptimalityFamilies(), idConservationFamilies()...)) {
		t.Run(fam.name, func(t *testing.T) {
			fMax := maxN
			if fam.model.Singletons > 0 {
				fMax = min(maxN, 10)
			}
			want := idStates(fam.model, 1, fMax)
			seen := 0
			err := exact.Table[*big.Rat](context.Background(), field.Rat{}, fam.model, fMax, func(c *exact.TableCell[*big.Rat]) error {
				if seen < len(want) && c.State != want[seen] {
					t.Errorf("cell %d is %v, want %v (order n, j, f)", seen, c.State, want[seen])
				}
				seen++
				st := c.State
				var top *big.Rat
				for _, ch := range rules.Choices() {
					if c.Legal[ch] != rules.Legal(st, ch, fam.model.Pass) {
						t.Errorf("%v: Legal[%v] = %v", st, ch, c.Legal[ch])
					}
					if c.Legal[ch] && (top == nil || c.ChoiceValue[ch].Cmp(top) > 0) {
						top = c.ChoiceValue[ch]
					}
				}
				if top == nil || c.Value.Cmp(top) != 0 {
					t.Errorf("%v: value %s, largest choice value %s", st, idRS(c.Value), idRS(top))
					return nil
				}
				var best []rules.Choice
				for _, ch := range rules.Choices() {
					if c.Legal[ch] && c.ChoiceValue[ch].Cmp(top) == 0 {
						best = append(best, ch)
					}
				}
				if !slices.Equal(best, c.Best) {
					t.Errorf("%v: Best %v, maximisers %v", st, c.Best, best)
				}
				if len(c.Best) == 0 || c.Choice != c.Best[0] {
					t.Errorf("%v: Choice %v, Best %v", st, c.Choice, c.Best)
				}
				code := exact.CodeEqual
				if st.J >= 1 && st.Known() >= 1 {
					switch c.ChoiceValue[rules.Daring].Cmp(c.ChoiceValue[rules.Safe]) {
					case 1:
						code = exact.CodeDaring
					case -1:
						code = exact.CodeSafe
					}
				}
				if c.Code != code {
					t.Errorf("%v: Code %d, choice values daring %s safe %s give %d", st, c.Code,
						idRS(c.ChoiceValue[rules.Daring]), idRS(c.ChoiceValue[rules.Safe]), code)
				}
				if c.Value.Sign() < 0 || c.Value.Cmp(big.NewRat(int64(st.N), 1)) > 0 {
					t.Errorf("%v: value %s outside [0, n]", st, idRS(c.Value))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if seen != len(want) {
				t.Errorf("visited %d cells, want %d", seen, len(want))
			}
		})
	}
}

// TestReferenceOptimal compares the perfect-memory table (every pass rule) and best responses
// with idRefModel: values, every choice value, Best, and the best response against each policy.
func TestReferenceOptimal(t *testing.T) {
	t.Parallel()
	// The choice sets: the full game, the published models ({daring, safe} and Zwick & Paterson's
	// {daring, safe, pass}) and two more.
	sets := [][]rules.Choice{nil, {rules.Daring, rules.Safe}, {rules.Daring, rules.Safe, rules.Pass},
		{rules.Daring, rules.KnownFirst}, {rules.Daring}}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, set := range sets {
			name := "pass=" + pass.String()
			choices := rules.FullChoices
			if set != nil {
				choices = rules.NewChoiceSet(set...)
				name += "/choices=" + choices.String()
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				testReferenceOptimal(t, pass, set, choices)
			})
		}
	}
}

func testReferenceOptimal(t *testing.T, pass rules.PassRule, set []rules.Choice, choices rules.ChoiceSet) {
	r := newIDRefModel(pass)
	if set != nil {
		r.allowed = map[rules.Choice]bool{}
		for _, c := range set {
			r.allowed[c] = true
		}
	}
	m := exact.Model{Pass: pass, Choices: choices}
	maxN := idShort(20, 30)
	for st, c := range idTable(t, m, maxN) {
		ref := r.optimal(st.N, st.J)
		if want := new(big.Rat).Quo(new(big.Rat).Add(big.NewRat(int64(st.N), 1), ref.lead), big.NewRat(2, 1)); c.Value.Cmp(want) != 0 {
			t.Errorf("%v: value %s, reference %s", st, idRS(c.Value), want.RatString())
		}
		var best []rules.Choice
		for _, ch := range rules.Choices() {
			if (ref.choice[ch] != nil) != c.Legal[ch] {
				t.Errorf("%v: Legal[%v] = %v, rules text says %v", st, ch, c.Legal[ch], ref.choice[ch] != nil)
				continue
			}
			if ref.choice[ch] == nil {
				continue
			}
			want := new(big.Rat).Quo(new(big.Rat).Add(big.NewRat(int64(st.N), 1), ref.choice[ch]), big.NewRat(2, 1))
			if c.ChoiceValue[ch].Cmp(want) != 0 {
				t.Errorf("%v: ChoiceValue[%v] %s, reference %s", st, ch, idRS(c.ChoiceValue[ch]), want.RatString())
			}
			if ref.choice[ch].Cmp(ref.lead) == 0 {
				best = append(best, ch)
			}
		}
		if !slices.Equal(best, c.Best) {
			t.Errorf("%v: Best %v, reference %v", st, c.Best, best)
		}
	}
	for _, b := range idFourPolicies {
		if b.CheckChoices(choices) != nil {
			continue
		}
		for _, br := range []exact.Lineup{
			{Players: 2, Policy: rules.PolicyBestResponse, Opponent: b},
			{Players: 2, Policy: b, Opponent: rules.PolicyBestResponse},
		} {
			ref := r.match(br.Policy, br.Opponent)
			for _, st := range idSample(m, 4, idShort(7, 9)) {
				got := idEval(t, m, br, st)
				if want := ref.pairs(st.N, st.J); got.ExpectedPairs.Cmp(want) != 0 {
					t.Errorf("%v %s: %s, reference %s", st, idMatchupName(br), idRS(got.ExpectedPairs), want.RatString())
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// 5. Pass rules.
//
// (b) Where a pass is legal the optimal value is at least n/2. Proof: let N be the lead (mover's
// pairs minus the opponent's) of the best non-pass move from state s, under optimal play
// afterwards. After a pass the opponent faces s with the same non-pass moves, worth the same N to
// it (the position is identical and a non-pass move ends the pass sequence), or it passes back,
// which ends the game with lead 0. So the opponent's value after a pass is max(N, 0) and a pass is
// worth -max(N, 0) to the mover, whose value is L = max(N, -max(N, 0)). If N >= 0 then L = N >= 0;
// if N < 0 then L = max(N, 0) = 0. Either way L >= 0, i.e. at least n/2 pairs. (This holds for
// the fixed point of the equations whatever N is, so self-referencing states under limited memory
// are covered too.) Nothing is claimed about comparing pass rules with one another: more options
// for both sides need not help the mover.
//
// (c) In a state where the pass is legal, a pass is worth -max(N, 0) <= 0 to the mover: its choice
// value is at most n/2, and equal to n/2 exactly when no other move has a positive lead. N is the
// largest lead among the non-pass choice values of the table (each is the choice's lead with
// optimal play afterwards, the same for the opponent after a pass since the state is the same).
//
// (a) A state where the optimal policy passes (or may pass: a pass is among the best choices) is
// worth exactly n/2: its value is then the pass's value -max(N, 0) <= 0 by (c), and at least 0 by
// (b), so it is 0, an even split.
//
// (d) Optimal against optimal from such a state ends at once in a stalemate: the optimal policy's
// choice is a function of the state, so the opponent, in the same state, passes too, and each seat
// is credited n/2: the score distribution is all on the share n/2 (Draw = 1).

func TestIdentityPassRules(t *testing.T) {
	t.Parallel()
	maxN := bySize(8, 12, 20)
	var fams []idFamily
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		fams = append(fams, idPerfect(pass), idSingletons(1, pass), idSingletons(2, pass),
			idLimited(rules.ForgetHandoverUniform, 2, pass), idLimited(rules.ForgetHandoverUniform, 3, pass),
			idLimited(rules.ForgetLRU, 2, pass), idLimited(rules.ForgetLRU, 3, pass))
	}
	for _, fam := range fams {
		t.Run(fam.name, func(t *testing.T) {
			fMax := maxN
			if fam.model.Singletons > 0 {
				fMax = min(maxN, 10)
			}
			passes := 0
			for st, c := range idTable(t, fam.model, fMax) {
				half := idHalf(st.N)
				if slices.Contains(c.Best, rules.Pass) || c.Choice == rules.Pass {
					passes++
					if c.Value.Cmp(half) != 0 {
						t.Errorf("%v: the optimal policy may pass but the value is %s, not n/2", st, idRS(c.Value))
					}
				}
				if c.Choice == rules.Pass && st.N <= 8 {
					mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
					d, err := exact.Distribution[*big.Rat](context.Background(), field.Rat{}, fam.model, mu, st)
					if err != nil {
						t.Fatalf("%v: Distribution: %v", st, err)
					}
					if d.Prob[st.N].Cmp(idRat(1, 1)) != 0 || d.Draw.Cmp(idRat(1, 1)) != 0 {
						t.Errorf("%v: optimal passes, yet optimal vs optimal gives share n/2 with probability %s, draw %s",
							st, idRS(d.Prob[st.N]), idRS(d.Draw))
					}
				}
				if !c.Legal[rules.Pass] {
					continue
				}
				if c.Value.Cmp(half) < 0 {
					t.Errorf("%v: pass is legal but the value %s is below n/2", st, idRS(c.Value))
				}
				if c.ChoiceValue[rules.Pass].Cmp(half) > 0 {
					t.Errorf("%v: a pass is worth %s, more than n/2", st, idRS(c.ChoiceValue[rules.Pass]))
				}
				nonPassTop := new(big.Rat)
				for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if c.Legal[ch] && c.ChoiceValue[ch].Cmp(nonPassTop) > 0 {
						nonPassTop = c.ChoiceValue[ch]
					}
				}
				if (c.ChoiceValue[rules.Pass].Cmp(half) == 0) != (nonPassTop.Cmp(half) <= 0) {
					t.Errorf("%v: pass worth %s while the best other move is worth %s", st,
						idRS(c.ChoiceValue[rules.Pass]), nonPassTop.RatString())
				}
			}
			t.Logf("%d states where the optimal policy may pass", passes)
		})
	}
}

// ---------------------------------------------------------------------------------------------
// 6. Float and exact fields run the same code: their results agree.

// idClose reports whether a float result is within 1e-9 of the exact one, relative to its size
// (absolute for values below 1, such as probabilities).
func idClose(a float64, b *big.Rat) bool {
	want, _ := b.Float64()
	return math.Abs(a-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func TestIdentityFloatMatchesExact(t *testing.T) {
	t.Parallel()
	for _, fam := range idDedupe(append(idConservationFamilies(), idOptimalityFamilies()...)) {
		t.Run("evaluate/"+fam.name, func(t *testing.T) {
			t.Parallel()
			matchups := idSomeMatchups()
			if fam.model.Pass == rules.PassNever {
				for _, p := range idFourPolicies {
					matchups = append(matchups, exact.Lineup{Players: 1, Policy: p}, exact.Lineup{Players: 3, Policy: p, Opponent: rules.PolicyOptimal})
				}
			}
			// Every state up to 2 pairs, and the edge states of idSample up to 5 pairs (4 with
			// -short; one fewer with singletons).
			for _, st := range idSample(fam.model, 2, idTop(fam, idShort(4, 5))) {
				for _, mu := range matchups {
					ex := idEval(t, fam.model, mu, st)
					fl, err := exact.Evaluate[float64](context.Background(), field.Float{}, fam.model, mu, st)
					if err != nil {
						t.Fatalf("%v %s: float: %v", st, idMatchupName(mu), err)
					}
					check := func(what string, f float64, r *big.Rat) {
						if !idClose(f, r) {
							t.Errorf("%v %s: %s float %.17g, exact %s", st, idMatchupName(mu), what, f, idRS(r))
						}
					}
					if mu.Players == 1 {
						check("turns", fl.ExpectedTurns, ex.ExpectedTurns)
						check("lucky", fl.ExpectedLucky, ex.ExpectedLucky)
						continue
					}
					check("pairs", fl.ExpectedPairs, ex.ExpectedPairs)
					for i := range ex.PairsBySeat {
						check(fmt.Sprintf("seat %d", i), fl.PairsBySeat[i], ex.PairsBySeat[i])
					}
					if mu.Players == 2 {
						check("lead", fl.ExpectedLead, ex.ExpectedLead)
						if mu.Policy != mu.Opponent && mu.Policy != rules.PolicyBestResponse {
							continue // distributions: each policy against itself and best responses
						}
						fd, err1 := exact.Distribution[float64](context.Background(), field.Float{}, fam.model, mu, st)
						ed, err2 := exact.Distribution[*big.Rat](context.Background(), field.Rat{}, fam.model, mu, st)
						if err1 != nil || err2 != nil {
							t.Fatalf("%v %s: Distribution: %v, %v", st, idMatchupName(mu), err1, err2)
						}
						for i := range ed.Prob {
							check(fmt.Sprintf("share %d/2", i), fd.Prob[i], ed.Prob[i])
						}
					}
				}
			}
		})
	}
	tables := []struct {
		fam  idFamily
		maxN int
	}{
		{idPerfect(rules.PassNever), idShort(40, 60)},
		{idPerfect(rules.PassTwoKnown), idShort(25, 40)},
		{idPerfect(rules.PassAlways), idShort(25, 40)},
		{idSingletons(2, rules.PassNever), idShort(12, 20)},
		{idLimited(rules.ForgetHandoverUniform, 3, rules.PassNever), idShort(25, 40)},
		{idLimited(rules.ForgetLRU, 3, rules.PassNever), idShort(25, 40)},
	}
	for _, tt := range tables {
		t.Run(fmt.Sprintf("table/%s/n<=%d", tt.fam.name, tt.maxN), func(t *testing.T) {
			t.Parallel()
			ex := idTable(t, tt.fam.model, tt.maxN)
			cells := 0
			err := exact.Table[float64](context.Background(), field.Float{}, tt.fam.model, tt.maxN, func(c *exact.TableCell[float64]) error {
				cells++
				e, ok := ex[c.State]
				switch {
				case !ok:
					t.Errorf("float table has %v, exact does not", c.State)
				case c.Code != e.Code || !slices.Equal(c.Best, e.Best) || c.Choice != e.Choice:
					t.Errorf("%v: float code %d best %v, exact code %d best %v", c.State, c.Code, c.Best, e.Code, e.Best)
				case !idClose(c.Value, e.Value):
					t.Errorf("%v: float value %.17g, exact %s", c.State, c.Value, idRS(e.Value))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if cells != len(ex) {
				t.Errorf("float table %d cells, exact %d", cells, len(ex))
			}
		})
	}
}

// ---------------------------------------------------------------------------------------------
// 7. Solitaire.

func TestIdentitySolitaire(t *testing.T) {
	t.Parallel()
	maxN := bySize(4, 7, 9)
	fams := []idFamily{
		idPerfect(rules.PassNever), idSingletons(1, rules.PassNever), idSingletons(2, rules.PassNever),
		idLimited(rules.ForgetHandoverUniform, 2, rules.PassNever), idLimited(rules.ForgetHandoverUniform, 3, rules.PassNever),
		idLimited(rules.ForgetLRU, 2, rules.PassNever), idLimited(rules.ForgetLRU, 3, rules.PassNever),
	}
	for _, fam := range fams {
		t.Run(fam.name, func(t *testing.T) {
			for _, st := range idSample(fam.model, 5, idTop(fam, maxN)) {
				n := big.NewRat(int64(st.N), 1)
				res := map[rules.Policy]exact.Result[*big.Rat]{}
				for _, p := range idFourPolicies {
					r := idEval(t, fam.model, exact.Lineup{Players: 1, Policy: p}, st)
					res[p] = r
					// Every turn flips two cards and removes at most one pair (a pair left fully
					// known costs the turn that takes it), so at least n turns are needed.
					if r.ExpectedTurns.Cmp(n) < 0 {
						t.Errorf("%v %v: %s expected turns, fewer than n", st, p, idRS(r.ExpectedTurns))
					}
					// Each pair is matched by luck at most once.
					if r.ExpectedLucky.Sign() < 0 || r.ExpectedLucky.Cmp(n) > 0 {
						t.Errorf("%v %v: %s expected lucky turns, outside [0, n]", st, p, idRS(r.ExpectedLucky))
					}
					// One pair and no singleton: with its card known, flip the other (the only
					// unknown card); with none known, the two cards are the two unknown cards.
					if st.N == 1 && st.S == 0 && r.ExpectedTurns.Cmp(idRat(1, 1)) != 0 {
						t.Errorf("%v %v: %s expected turns for one pair, want 1", st, p, idRS(r.ExpectedTurns))
					}
					if r.PairsBySeat != nil {
						t.Errorf("%v %v: solitaire result has PairsBySeat", st, p)
					}
				}
				for _, p := range idFourPolicies[1:] {
					if res[rules.PolicyOptimal].ExpectedTurns.Cmp(res[p].ExpectedTurns) > 0 {
						t.Errorf("%v: optimal takes %s turns, %v only %s", st, idRS(res[rules.PolicyOptimal].ExpectedTurns),
							p, idRS(res[p].ExpectedTurns))
					}
				}
			}
		})
	}
	t.Run("reference", func(t *testing.T) {
		r := newIDRefModel(rules.PassNever)
		for _, p := range idFourPolicies {
			ref := r.solitaire(p)
			for _, st := range idStates(exact.Model{}, 1, maxN) {
				got := idEval(t, exact.Model{}, exact.Lineup{Players: 1, Policy: p}, st)
				turns, lucky := ref(st.N, st.J)
				if got.ExpectedTurns.Cmp(turns) != 0 {
					t.Errorf("%v %v: turns %s, reference %s", st, p, idRS(got.ExpectedTurns), turns.RatString())
				}
				if p != rules.PolicyOptimal && got.ExpectedLucky.Cmp(lucky) != 0 {
					t.Errorf("%v %v: lucky %s, reference %s", st, p, idRS(got.ExpectedLucky), lucky.RatString())
				}
			}
		}
	})
}

// ---------------------------------------------------------------------------------------------
// 8. Bad input is an error, never a panic.

func TestBadInputIsAnError(t *testing.T) {
	perfect := exact.Model{}
	opt := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	st := rules.State{N: 3, J: 3}
	tests := []struct {
		name  string
		model exact.Model
		mu    exact.Lineup
		st    rules.State
	}{
		{"players 0", perfect, exact.Lineup{Players: 0, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}, st},
		{"players 9", perfect, exact.Lineup{Players: 9, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}, st},
		{"players -1", perfect, exact.Lineup{Players: -1, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}, st},
		{"two-known with 3 players, decay and the two-player optimum", exact.Model{Pass: rules.PassTwoKnown, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}},
			exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}, st},
		{"always with 1 player", exact.Model{Pass: rules.PassAlways}, exact.Lineup{Players: 1, Policy: rules.PolicySafe}, st},
		{"best-response vs best-response", perfect, exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyBestResponse}, st},
		{"best-response at two seats of 3", perfect, exact.Lineup{Players: 3, Policy: rules.PolicySafe, Opponent: rules.PolicyBestResponse}, st},
		{"best-response solitaire", perfect, exact.Lineup{Players: 1, Policy: rules.PolicyBestResponse}, st},
		{"singletons with private handover memory", exact.Model{Singletons: 1, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform, Scope: rules.ScopePrivate}}, opt, rules.State{N: 2, J: 2, S: 1, F: 1}},
		{"singletons with lru memory", exact.Model{Singletons: 2, Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetLRU}}, opt, rules.State{N: 2, J: 2, S: 2, F: 2}},
		{"decay forgetting", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay}}, opt, st},
		{"capacity 1", exact.Model{Memory: rules.Memory{Capacity: 1, Forget: rules.ForgetLRU}}, opt, st},
		{"capacity -2", exact.Model{Memory: rules.Memory{Capacity: -2, Forget: rules.ForgetLRU}}, opt, st},
		{"capacity without forgetting rule", exact.Model{Memory: rules.Memory{Capacity: 3}}, opt, st},
		{"forgetting rule without capacity", exact.Model{Memory: rules.Memory{Forget: rules.ForgetLRU}}, opt, st},
		{"negative singletons", exact.Model{Singletons: -1}, opt, rules.State{N: 2, J: 2, S: -1}},
		{"J > N", perfect, opt, rules.State{N: 2, J: 3}},
		{"J < 0", perfect, opt, rules.State{N: 2, J: -1}},
		{"N < 0", perfect, opt, rules.State{N: -1, J: 0}},
		{"F > S", exact.Model{Singletons: 2}, opt, rules.State{N: 2, J: 2, S: 2, F: 3}},
		{"F < 0", exact.Model{Singletons: 2}, opt, rules.State{N: 2, J: 2, S: 2, F: -1}},
		{"more known cards than capacity", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}}, opt, rules.State{N: 5, J: 1}},
		{"more known cards than lru capacity", exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}}, opt, rules.State{N: 3, J: 0}},
		{"state singletons != model singletons", exact.Model{Singletons: 1}, opt, rules.State{N: 2, J: 2, S: 2, F: 2}},
		{"state singletons without model singletons", perfect, opt, rules.State{N: 2, J: 2, S: 1, F: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := func(what string, f func() error) {
				t.Helper()
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panicked: %v", what, r)
					}
				}()
				if err := f(); err == nil {
					t.Errorf("%s(%+v, %s, %v) returned no error", what, tt.model, idMatchupName(tt.mu), tt.st)
				}
			}
			call("Evaluate exact", func() error {
				_, err := exact.Evaluate[*big.Rat](context.Background(), field.Rat{}, tt.model, tt.mu, tt.st)
				return err
			})
			call("Evaluate float", func() error {
				_, err := exact.Evaluate[float64](context.Background(), field.Float{}, tt.model, tt.mu, tt.st)
				return err
			})
			if tt.mu.Players == 2 || tt.mu.Players == 0 || tt.mu.Players == 9 {
				call("Distribution", func() error {
					_, err := exact.Distribution[*big.Rat](context.Background(), field.Rat{}, tt.model, tt.mu, tt.st)
					return err
				})
			}
		})
	}
	// Models without an exact solution, and sizes below one pair, are refused by Table too.
	badTables := []struct {
		name  string
		model exact.Model
		maxN  int
	}{
		{"pairs-max 0", perfect, 0},
		{"pairs-max -3", perfect, -3},
		{"decay", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay}}, 3},
		{"capacity 1", exact.Model{Memory: rules.Memory{Capacity: 1, Forget: rules.ForgetHandoverUniform}}, 3},
		{"singletons with lru", exact.Model{Singletons: 1, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}, 3},
		{"negative singletons", exact.Model{Singletons: -2}, 3},
	}
	for _, tt := range badTables {
		t.Run("table/"+tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Table panicked: %v", r)
				}
			}()
			visited := 0
			err := exact.Table[*big.Rat](context.Background(), field.Rat{}, tt.model, tt.maxN, func(*exact.TableCell[*big.Rat]) error {
				visited++
				return nil
			})
			if err == nil {
				t.Errorf("Table(%+v, %d) returned no error after %d cells", tt.model, tt.maxN, visited)
			}
		})
	}
	t.Run("distribution/3 players", func(t *testing.T) {
		mu := exact.Lineup{Players: 3, Policy: rules.PolicySafe, Opponent: rules.PolicySafe}
		if _, err := exact.Distribution[*big.Rat](context.Background(), field.Rat{}, perfect, mu, st); err == nil {
			t.Error("Distribution with 3 players returned no error")
		}
	})
}

// A visitor's error stops Table and is returned as is.
func TestTableVisitorError(t *testing.T) {
	stop := errors.New("stop here")
	visited := 0
	err := exact.Table[*big.Rat](context.Background(), field.Rat{}, exact.Model{}, 5, func(*exact.TableCell[*big.Rat]) error {
		visited++
		if visited == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || visited != 3 {
		t.Errorf("Table returned %v after %d cells, want the visitor's error after 3", err, visited)
	}
}

// ---------------------------------------------------------------------------------------------
// 9. Cancellation.

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fams := []idFamily{idPerfect(rules.PassNever), idSingletons(2, rules.PassAlways), idLimited(rules.ForgetLRU, 3, rules.PassNever)}
	for _, fam := range fams {
		t.Run(fam.name, func(t *testing.T) {
			st := rules.State{N: 6, J: 6, S: fam.model.Singletons, F: fam.model.Singletons}
			for _, mu := range []exact.Lineup{
				{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
				{Players: 1, Policy: rules.PolicyDaring},
			} {
				if mu.Players == 1 && fam.model.Pass != rules.PassNever {
					continue
				}
				if _, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, fam.model, mu, st); !errors.Is(err, context.Canceled) {
					t.Errorf("Evaluate %s: error %v, want one wrapping context.Canceled", idMatchupName(mu), err)
				}
				if _, err := exact.Evaluate[float64](ctx, field.Float{}, fam.model, mu, st); !errors.Is(err, context.Canceled) {
					t.Errorf("Evaluate float %s: error %v, want one wrapping context.Canceled", idMatchupName(mu), err)
				}
				if mu.Players == 2 {
					if _, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, fam.model, mu, st); !errors.Is(err, context.Canceled) {
						t.Errorf("Distribution %s: error %v, want one wrapping context.Canceled", idMatchupName(mu), err)
					}
				}
			}
			visited := 0
			err := exact.Table[*big.Rat](ctx, field.Rat{}, fam.model, 6, func(*exact.TableCell[*big.Rat]) error {
				visited++
				return nil
			})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Table: error %v after %d cells, want one wrapping context.Canceled", err, visited)
			}
		})
	}
	// Cancelled in the middle of a table: the sweep stops at the next size and says why.
	t.Run("mid-table", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		visited := 0
		err := exact.Table[*big.Rat](ctx, field.Rat{}, exact.Model{}, 50, func(c *exact.TableCell[*big.Rat]) error {
			visited++
			if c.State.N == 3 {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Table: error %v after %d cells, want one wrapping context.Canceled", err, visited)
		}
		if visited >= 50*53/2 {
			t.Errorf("Table visited all %d cells despite the cancellation", visited)
		}
	})
}

// TestIdentityKnownFirstAgainstSafe checks, with perfect memory and pass rule never, that
// known-first and safe differ by what the rules make them differ by. Both take the pair when the
// unknown card is a remembered card's partner, and both hand over in (n, j-1) when it is new; but
// after known-first the partner of another remembered card (k-1 of the u unknown cards, k = n - j)
// leaves that pair to the opponent, who takes it and moves in (n-1, j), where safe would have
// taken it and moved on in (n-1, j). So, with optimal play afterwards,
// V(known-first) - V(safe) = (k-1)/u * (n - 2 - 2 E(n-1, j)): known-first is better exactly when
// k >= 2 and E(n-1, j) < (n-2)/2.
func TestIdentityKnownFirstAgainstSafe(t *testing.T) {
	t.Parallel()
	maxN := idShort(30, 60)
	tab := idTable(t, exact.Model{}, maxN)
	for st, c := range tab {
		k, u := st.N-st.J, st.N+st.J
		if k < 1 {
			continue
		}
		e := new(big.Rat)
		if st.N > 1 {
			e = tab[rules.State{N: st.N - 1, J: st.J}].Value
		}
		want := new(big.Rat).Sub(big.NewRat(int64(st.N-2), 1), new(big.Rat).Mul(big.NewRat(2, 1), e))
		want.Mul(want, big.NewRat(int64(k-1), int64(u)))
		got := new(big.Rat).Sub(c.ChoiceValue[rules.KnownFirst], c.ChoiceValue[rules.Safe])
		if got.Cmp(want) != 0 {
			t.Errorf("%v: known-first - safe = %s, the rules give %s", st, idRS(got), want.RatString())
		}
	}
}
