package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A fluctuating capacity under a turn limit (docs/models.md §4.4, §4.18), two seats: the state
// before the draw is (n, k, t), k known cards and t turns left, and after the draw (n, k, c, t).
// Every turn uses one turn left: a turn that hands over without a pair (a card forgotten, or two
// new cards), a pass, and a turn that only takes a pair known whole. So the cycles of the fluct
// model without a limit (a forgotten card leads back to the same n) become a sweep by turns left,
// as under a fixed capacity (limit.go): layer t reads layers t - 1 and t - 2 only. A turn from
// (n, k, c, t) has the outcomes of §4.4's model of capacity c; a hand-over that leaves the next
// seat a pair known whole costs that seat a turn of its own, which draws a capacity too (under
// lru that draw forgets, as fluct.go's before). With no turn left the game is over and the pairs
// left count for nobody, so a value is a lead and the pairs both seats are credited with.

// flLimitVal is a lead and the total pairs credited to both seats (a stalemate's share included).
type flLimitVal[T any] struct{ lead, total T }

// flLimitCell holds the values of (n, k) with t turns left before the draw: opt is the two-seat
// optimum's, role[r] role r's to move (0: Policy, 1: Opponent); index 0 or 1 without or with a
// pass just made by the other seat.
type flLimitCell[T any] struct {
	opt  [2]flLimitVal[T]
	role [2][2]flLimitVal[T]
}

// flLimitChoices are the choices of one layer of turns left: [n][c][k][flag].
type flLimitChoices [][][][2]rules.Choice

// fluctLimitSweep solves a fluctuating capacity under a turn limit, layer by layer of turns left.
type fluctLimitSweep[T any] struct {
	f     field.Field[T]
	m     Model
	pol   [2]rules.Policy
	limit int
	maxN  int
	maxK  int
	// needOpt: the optimum is a role's policy; needRoles: the matchup is not the optimum's
	// self-play; br is the role that plays best-response (-1: none).
	needOpt, needRoles bool
	br                 int
	zero               T
	ints               []T
	caps               [][]fluctCap // caps[n]: the capacities a turn draws with n pairs left
	capP               [][]T
	// outs[n][c][k][ch] are the outcomes of choice ch in (n, k) with capacity c drawn, probs
	// their probabilities.
	outs  [][][][rules.NumChoices][]Outcome
	probs [][][][rules.NumChoices][]T
	// layers holds the last three layers of turns left, layer t at t % 3.
	layers [3][][]flLimitCell[T]
	// record, when set, keeps the choices of role keepRole (or of the optimum, keepRole -1) at every
	// layer in kept[t-1].
	record   bool
	keepRole int
	kept     []flLimitChoices
	// recordAll, when set, keeps every choice of every layer in all[t-1] (fluctlimitdist.go).
	recordAll bool
	all       []flLimitAllChoices
}

// fluctLimited reports whether the model is a fluctuating capacity under a turn limit.
func (m Model) fluctLimited() bool { return m.Memory.Fluctuation > 0 && m.Variant.TurnLimit > 0 }

// validateFluctLimit reports whether the matchup is solved under a fluctuating capacity and a turn
// limit: the models validateFluct accepts without the limit, two seats with optimal, safe, daring,
// parity or best-response to one of them, and three to eight seats as validateFluctLimitSeats says.
func validateFluctLimit(m Model, mu Lineup) error {
	if err := refuseFluctSingles(m, mu); err != nil { // fluctsingles.go
		return err
	}
	if err := refuseFluctBlind(m, mu); err != nil {
		return err
	}
	if mu.twoSeatWin() {
		return validateFluctLimitWin(m, mu) // fluctlimitwin.go
	}
	if mu.Players >= 3 {
		return validateFluctLimitSeats(m, mu) // fluctlimitseats.go
	}
	base := m
	base.Variant.TurnLimit = 0
	if err := base.Validate(); err != nil {
		return err
	}
	if err := m.Variant.Validate(); err != nil {
		return err
	}
	switch {
	case mu.Players != 2:
		return fmt.Errorf("players %d, turn limit %d: a fluctuating capacity under a turn limit is solved for two players only", mu.Players, m.Variant.TurnLimit)
	case mu.PerSeat || mu.Table != nil || mu.OpponentTable != nil || isSelfWin(mu):
		return fmt.Errorf("turn limit %d: a fluctuating capacity under a turn limit is solved for optimal, safe, daring, parity and best-response to one of them, not for a policy per seat or given as a table", m.Variant.TurnLimit)
	}
	pol := mu.roles()
	for r, p := range pol {
		if p == rules.PolicyBestResponse && pol[1-r] != rules.PolicyBestResponse {
			continue
		}
		if p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("policy %s, turn limit %d: a fluctuating capacity under a turn limit is solved for optimal, safe, daring, parity and best-response to one of them (allowed: optimal, safe, daring, parity, best-response)", p, m.Variant.TurnLimit)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return err
		}
	}
	return nil
}

func newFluctLimitSweep[T any](f field.Field[T], m Model, mu Lineup, maxN int) (*fluctLimitSweep[T], error) {
	if err := validateFluctLimit(m, mu); err != nil {
		return nil, err
	}
	if mu.twoSeatWin() {
		return nil, fmt.Errorf("policy %s, turn limit %d: under a fluctuating capacity and a turn limit the policies that play to win are solved for their values, win, draw and loss probabilities, each choice's values and their tables, not the score distribution", mu.Policy, m.Variant.TurnLimit)
	}
	s := &fluctLimitSweep[T]{f: f, m: m, pol: mu.roles(), limit: m.Variant.TurnLimit, maxN: maxN,
		maxK: fluctMaxKnown(m.Memory), zero: f.FromInt(0), br: -1, keepRole: -1}
	s.needOpt = s.pol[0] == rules.PolicyOptimal || s.pol[1] == rules.PolicyOptimal
	s.needRoles = !isSelfPlay(mu)
	for r, p := range s.pol {
		if p == rules.PolicyBestResponse {
			s.br = r
		}
	}
	for i := range 3 {
		s.ints = append(s.ints, f.FromInt(int64(i)))
	}
	return s, nil
}

func (s *fluctLimitSweep[T]) lru() bool { return s.m.Memory.Forget == rules.ForgetLRU }

// known returns the most known cards before the draw with n pairs left.
func (s *fluctLimitSweep[T]) known(n int) int { return min(n, s.maxK) }

// prepare computes the capacities of every row and the outcomes of every choice after every draw.
// A hand-over leaves the next seat at most one pair known whole (pairs only, a shared memory), two
// under blind flips.
func (s *fluctLimitSweep[T]) prepare() error {
	f := s.f
	s.caps = make([][]fluctCap, s.maxN+1)
	s.capP = make([][]T, s.maxN+1)
	s.outs = make([][][][rules.NumChoices][]Outcome, s.maxN+1)
	s.probs = make([][][][rules.NumChoices][]T, s.maxN+1)
	for n := 1; n <= s.maxN; n++ {
		s.caps[n] = fluctCapsTo(s.m.Memory, fluctTop(s.m, n))
		top := s.caps[n][len(s.caps[n])-1].c
		s.outs[n] = make([][][rules.NumChoices][]Outcome, top+1)
		s.probs[n] = make([][][rules.NumChoices][]T, top+1)
		for _, cp := range s.caps[n] {
			s.capP[n] = append(s.capP[n], f.FromFrac(cp.p.Num, cp.p.Den))
			mc := s.m
			mc.Memory.Capacity, mc.Memory.Fluctuation = cp.c, 0
			mc.Variant.TurnLimit = 0
			K := s.known(n)
			s.outs[n][cp.c] = make([][rules.NumChoices][]Outcome, K+1)
			s.probs[n][cp.c] = make([][rules.NumChoices][]T, K+1)
			for k := 0; k <= K; k++ {
				if s.lru() && k > cp.c {
					continue
				}
				st := rules.State{N: n, J: n - k}
				for _, ch := range rules.Choices() {
					if ch == rules.Pass || !s.m.Legal(st, ch) {
						continue
					}
					s.outs[n][cp.c][k][ch] = mc.Outcomes(st, ch, nil)
					for _, o := range s.outs[n][cp.c][k][ch] {
						if o.NextGain > 2 {
							return fmt.Errorf("%v with capacity %d: a hand-over leaves %d pairs known whole, which the model does not take turn by turn", st, cp.c, o.NextGain)
						}
						s.probs[n][cp.c][k][ch] = append(s.probs[n][cp.c][k][ch], f.FromFrac(o.Prob.Num, o.Prob.Den))
					}
				}
			}
		}
	}
	return nil
}

// drawn returns the known cards after drawing capacity c with k known before.
func (s *fluctLimitSweep[T]) drawn(k, c int) int {
	if s.lru() {
		return min(k, c)
	}
	return k
}

// cell returns the values of (n, k) before the draw with t >= 1 turns left.
func (s *fluctLimitSweep[T]) cell(n, k, t int) *flLimitCell[T] { return &s.layers[t%3][n][k] }

// before returns get's value of the seat to move in (n, k) before a draw with t turns left: 0 with
// no turn or no pair left. takes counts the turns that first take a pair known whole, each with
// its own draw (under lru it forgets down to the capacity drawn), so the rest is read takes turns
// later.
func (s *fluctLimitSweep[T]) before(n, k, t, takes int, get func(c *flLimitCell[T]) flLimitVal[T]) flLimitVal[T] {
	t -= takes
	if t <= 0 || n == 0 {
		return flLimitVal[T]{s.zero, s.zero}
	}
	if takes == 0 || !s.lru() {
		return get(s.cell(n, k, t))
	}
	f := s.f
	v := flLimitVal[T]{s.zero, s.zero}
	s.takeDraws(n, k, takes, s.ints[1], func(k int, p T) {
		x := get(s.cell(n, k, t))
		v.lead = f.Add(v.lead, f.Mul(p, x.lead))
		v.total = f.Add(v.total, f.Mul(p, x.total))
	})
	return v
}

// takeDraws calls visit with every count of known cards, and its probability times p, left in a
// row of n pairs after takes turns under lru that each take a pair known whole and draw a
// capacity, forgetting down to it (under blind flips a hand-over can leave two such pairs).
func (s *fluctLimitSweep[T]) takeDraws(n, k, takes int, p T, visit func(k int, p T)) {
	if takes == 0 {
		visit(k, p)
		return
	}
	for i, cp := range s.caps[n] {
		s.takeDraws(n, min(k, cp.c), takes-1, s.f.Mul(p, s.capP[n][i]), visit)
	}
}

// value returns the lead and credited pairs of choice ch made in (n, k) with capacity c drawn, t
// turns left and the pass flag flag, for the mover: own reads a successor's values of the mover
// to move there, other of the other seat, afterPass of the other seat just after a pass.
func (s *fluctLimitSweep[T]) value(n, k, c, t, flag int, ch rules.Choice, own, other, afterPass func(c *flLimitCell[T]) flLimitVal[T]) flLimitVal[T] {
	f := s.f
	if ch == rules.Pass {
		if flag == 1 {
			return flLimitVal[T]{s.zero, f.FromInt(int64(n))} // a stalemate: the pairs left shared
		}
		v := s.before(n, passKept(k, c), t-1, 0, afterPass)
		return flLimitVal[T]{f.Sub(s.zero, v.lead), v.total}
	}
	out := flLimitVal[T]{s.zero, s.zero}
	for i, o := range s.outs[n][c][k][ch] {
		k2 := o.Next.N - o.Next.J
		var l, tt T
		if o.Continue {
			v := s.before(o.Next.N, k2, t-1, 0, own)
			g := s.ints[o.MoverGain]
			l, tt = f.Add(g, v.lead), f.Add(g, v.total)
		} else {
			gain := min(o.NextGain, t-1)
			v := s.before(o.Next.N, k2, t-1, gain, other)
			g := s.ints[gain]
			if gain < o.NextGain {
				// No turn is left to take a pair known whole: the game is over.
				v = flLimitVal[T]{s.zero, s.zero}
			}
			l, tt = f.Sub(s.zero, f.Add(g, v.lead)), f.Add(g, v.total)
		}
		p := s.probs[n][c][k][ch][i]
		out.lead = f.Add(out.lead, f.Mul(p, l))
		out.total = f.Add(out.total, f.Mul(p, tt))
	}
	return out
}

// best returns the first legal choice of largest lead in the order daring, safe, known-first,
// pass.
func (s *fluctLimitSweep[T]) best(legal [rules.NumChoices]bool, v [rules.NumChoices]flLimitVal[T]) rules.Choice {
	best, have := rules.Daring, false
	for _, ch := range rules.Choices() {
		if legal[ch] && (!have || s.f.Cmp(v[ch].lead, v[best].lead) > 0) {
			best, have = ch, true
		}
	}
	return best
}

// legal returns the choices the model allows in (n, k).
func (s *fluctLimitSweep[T]) legal(n, k int) [rules.NumChoices]bool {
	var out [rules.NumChoices]bool
	for _, ch := range rules.Choices() {
		out[ch] = s.m.Legal(rules.State{N: n, J: n - k}, ch)
	}
	return out
}

// after computes the values of (n, k) with capacity c drawn and t turns left, returning the
// optimum's and the roles' values and choices.
func (s *fluctLimitSweep[T]) after(n, k, c, t int) (cell flLimitCell[T], optCh [2]rules.Choice, roleCh [2][2]rules.Choice, err error) {
	legal := s.legal(n, k)
	zero := flLimitVal[T]{s.zero, s.zero}
	cell.opt = [2]flLimitVal[T]{zero, zero}
	cell.role = [2][2]flLimitVal[T]{{zero, zero}, {zero, zero}}
	if s.needOpt || !s.needRoles {
		own := func(x *flLimitCell[T]) flLimitVal[T] { return x.opt[0] }
		ap := func(x *flLimitCell[T]) flLimitVal[T] { return x.opt[1] }
		for flag := range 2 {
			var v [rules.NumChoices]flLimitVal[T]
			for _, ch := range rules.Choices() {
				if legal[ch] {
					v[ch] = s.value(n, k, c, t, flag, ch, own, own, ap)
				}
			}
			ch := s.best(legal, v)
			cell.opt[flag], optCh[flag] = v[ch], ch
		}
	}
	if !s.needRoles {
		return cell, optCh, roleCh, nil
	}
	st := rules.State{N: n, J: n - k}
	for r := range 2 {
		own := func(x *flLimitCell[T]) flLimitVal[T] { return x.role[r][0] }
		other := func(x *flLimitCell[T]) flLimitVal[T] { return x.role[1-r][0] }
		ap := func(x *flLimitCell[T]) flLimitVal[T] { return x.role[1-r][1] }
		for flag := range 2 {
			var ch rules.Choice
			switch p := s.pol[r]; p {
			case rules.PolicyOptimal:
				ch = optCh[flag]
			case rules.PolicyBestResponse:
				var v [rules.NumChoices]flLimitVal[T]
				for _, x := range rules.Choices() {
					if legal[x] {
						v[x] = s.value(n, k, c, t, flag, x, own, other, ap)
					}
				}
				ch = s.best(legal, v)
				cell.role[r][flag], roleCh[r][flag] = v[ch], ch
				continue
			default:
				ch = p.Decide(st)
			}
			if !legal[ch] {
				return cell, optCh, roleCh, fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", s.pol[r], ch, st)
			}
			cell.role[r][flag], roleCh[r][flag] = s.value(n, k, c, t, flag, ch, own, other, ap), ch
		}
	}
	return cell, optCh, roleCh, nil
}

// run computes every layer of turns left up to the limit.
func (s *fluctLimitSweep[T]) run(ctx context.Context) error {
	f := s.f
	if err := s.prepare(); err != nil {
		return err
	}
	makeTurnLayers(&s.layers, s.maxN, s.known)
	for t := 1; t <= s.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return err
		}
		var kept flLimitChoices
		if s.record {
			kept = make(flLimitChoices, s.maxN+1)
		}
		var all flLimitAllChoices
		if s.recordAll {
			all = make(flLimitAllChoices, s.maxN+1)
		}
		for n := 1; n <= s.maxN; n++ {
			K := s.known(n)
			caps := s.caps[n]
			// after[i][k]: the values with capacity caps[i] drawn and k known after the draw.
			afterV := make([][]flLimitCell[T], len(caps))
			if s.record {
				kept[n] = make([][][2]rules.Choice, caps[len(caps)-1].c+1)
			}
			if s.recordAll {
				all[n] = make([][][3][2]rules.Choice, caps[len(caps)-1].c+1)
			}
			for i, cp := range caps {
				top := K
				if s.lru() {
					top = min(K, cp.c)
				}
				afterV[i] = make([]flLimitCell[T], top+1)
				if s.record {
					kept[n][cp.c] = make([][2]rules.Choice, top+1)
				}
				if s.recordAll {
					all[n][cp.c] = make([][3][2]rules.Choice, top+1)
				}
				for k := 0; k <= top; k++ {
					cell, optCh, roleCh, err := s.after(n, k, cp.c, t)
					if err != nil {
						return err
					}
					afterV[i][k] = cell
					if s.recordAll {
						all[n][cp.c][k] = [3][2]rules.Choice{optCh, roleCh[0], roleCh[1]}
					}
					if s.record {
						if s.keepRole < 0 {
							kept[n][cp.c][k] = optCh
						} else {
							kept[n][cp.c][k] = roleCh[s.keepRole]
						}
					}
				}
			}
			for k := 0; k <= K; k++ {
				var c flLimitCell[T]
				zero := flLimitVal[T]{s.zero, s.zero}
				c.opt = [2]flLimitVal[T]{zero, zero}
				c.role = [2][2]flLimitVal[T]{{zero, zero}, {zero, zero}}
				add := func(dst *flLimitVal[T], p T, x flLimitVal[T]) {
					dst.lead = f.Add(dst.lead, f.Mul(p, x.lead))
					dst.total = f.Add(dst.total, f.Mul(p, x.total))
				}
				for i, cp := range caps {
					a := &afterV[i][s.drawn(k, cp.c)]
					p := s.capP[n][i]
					for flag := range 2 {
						add(&c.opt[flag], p, a.opt[flag])
						add(&c.role[0][flag], p, a.role[0][flag])
						add(&c.role[1][flag], p, a.role[1][flag])
					}
				}
				*s.cell(n, k, t) = c
			}
		}
		if s.record {
			s.kept = append(s.kept, kept)
		}
		if s.recordAll {
			s.all = append(s.all, all)
		}
	}
	return nil
}

// evaluateFluctLimit is Evaluate under a fluctuating capacity and a turn limit: the values of the
// matchup from st, before the draw, with the model's turn limit as the turns left.
func evaluateFluctLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if mu.twoSeatWin() {
		return evaluateFluctLimitWin(ctx, f, m, mu, st) // fluctlimitwin.go
	}
	if mu.Players >= 3 {
		return evaluateFluctLimitSeats(ctx, f, m, mu, st) // fluctlimitseats.go
	}
	s, err := newFluctLimitSweep(f, m, mu, st.N)
	if err != nil {
		return Result[T]{}, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return Result[T]{}, err
	}
	if err := s.run(ctx); err != nil {
		return Result[T]{}, err
	}
	res := Result[T]{State: st, Players: 2}
	v := flLimitVal[T]{s.zero, s.zero}
	switch {
	case st.N == 0:
	case !s.needRoles:
		v = s.cell(st.N, k, s.limit).opt[0]
	default:
		v = s.cell(st.N, k, s.limit).role[0][0]
	}
	two := f.FromInt(2)
	res.ExpectedLead = v.lead
	res.ExpectedPairs = f.Div(f.Add(v.total, v.lead), two)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Div(f.Sub(v.total, v.lead), two)}
	return res, nil
}

// FluctLimitTables returns the choices of seat 0's policy in matchup mu (optimal, or best-response
// to the other seat's optimal, safe or daring) under the fluctuating capacity and the turn limit
// of model m, in every state of at most maxPairs pairs: layers[c-lo][t-1] holds those with
// capacity c drawn and t turns left, capacities from lo = max(2, m - σ) to the largest that binds
// in a deal of maxPairs pairs (larger capacities read the last layer), each with the choices just
// after a pass by the other seat under a pass rule.
func FluctLimitTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (lo int, layers [][]*rules.ChoiceTable, err error) {
	if maxPairs < 1 {
		return 0, nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if mu.Policy.PlaysToWin() && mu.Players == 2 {
		return fluctLimitWinTables(ctx, f, m, mu, maxPairs) // fluctlimitwin.go
	}
	if p := mu.Policy; p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
		return 0, nil, fmt.Errorf("policy %s: a fluctuating capacity under a turn limit has tables for optimal, best-response, win-optimal and win-best-response (a fixed policy needs none)", p)
	}
	if IsFluctSingles(m) {
		return fluctSinglesLimitTables(ctx, f, m, mu, maxPairs) // fluctsingles_limit.go
	}
	s, err := newFluctLimitSweep(f, m, mu, maxPairs)
	if err != nil {
		return 0, nil, err
	}
	s.record = true
	if mu.Policy == rules.PolicyBestResponse {
		s.keepRole = 0
	}
	if err := s.run(ctx); err != nil {
		return 0, nil, err
	}
	lo = fluctCaps(m.Memory, maxPairs)[0].c
	hi := max(lo, min(fluctMaxKnown(m.Memory), fluctTop(m, maxPairs)))
	passes := m.Pass != rules.PassNever
	layers = make([][]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		layers[i] = make([]*rules.ChoiceTable, s.limit)
		for t := range s.limit {
			tab, err := rules.NewChoiceTable(maxPairs, 0)
			if err != nil {
				return 0, nil, err
			}
			for n := 1; n <= maxPairs; n++ {
				cn := min(c, fluctTop(m, n)) // the capacities of a row are merged from n + 1 up (fluctTop)
				byCap := s.kept[t][n]
				if cn >= len(byCap) || byCap[cn] == nil {
					continue
				}
				for k, ch := range byCap[cn] {
					st := rules.State{N: n, J: n - k}
					tab.Set(st, false, ch[0])
					if passes {
						tab.Set(st, true, ch[1])
					}
				}
			}
			layers[i][t] = tab
		}
	}
	return lo, layers, nil
}

// estimateFluctLimit is Estimate under a fluctuating capacity and a turn limit: every layer of
// turns left visits each (n, k, c) once and each choice's outcomes, with no system to solve. The
// constants are fitted to measured solves of lru(5) with σ = 2 on a loaded 2-core machine (memsim
// solve --pairs 100 --memory 5 --forget lru --fluctuation 2 --turn-limit 200 --float: 1.9 s, 30
// MB; --pairs 30 --turn-limit 60 in exact rationals: 63 s, 42 MB); exact rationals grow with the
// turns left.
func estimateFluctLimit[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if mu.twoSeatWin() {
		return estimateFluctLimitWin(f, m, mu, pairs, call) // fluctlimitwin.go
	}
	if call != CallEvaluate && call != CallPolicyTable && call != CallTable && call != CallDistribution {
		return Cost{}, fmt.Errorf("memory %s, turn limit %d: a fluctuating capacity under a turn limit gives a matchup's values, each choice's values after the draw, the score distribution and the optimum's and best replies' tables, not this computation", m.Memory, m.Variant.TurnLimit)
	}
	if err := validateFluctLimit(m, mu); err != nil {
		return Cost{}, err
	}
	k := float64(min(int64(pairs), int64(fluctMaxKnown(m.Memory))) + 1)
	caps := float64(min(2*int64(m.Memory.Fluctuation)+1, int64(pairs)+1))
	// Cells of one layer after the draw, each computing up to four choices of about eight
	// outcomes, twice (the pass flag) for the optimum and each role.
	cells := float64(pairs) * k * caps
	work := cells * 4 * 8 * 2 * 3
	if p := mu.Players; p >= 3 {
		// Every seat's pairs with each seat to move (fluctlimitseats.go), at every pass streak
		// under a pass rule; no pass flag.
		levels := 1.0
		if m.Pass != rules.PassNever {
			levels = float64(p)
		}
		work = cells * 4 * 8 * float64(p*p) * levels
		if call == CallDistribution {
			return fluctLimitSeatsDistCost(f, m, p, pairs, levels, cells, k, work)
		}
	}
	perOp := 0.25
	bytes := baseBytes + 3*float64(pairs)*k*200 + cells*float64(m.Variant.TurnLimit)*16
	if _, exact := f.Exact(f.FromInt(0)); exact {
		perOp *= 60 * math.Max(1, math.Log2(float64(m.Variant.TurnLimit)))
		bytes += 3 * float64(pairs) * k * ratBytes * 40
	}
	ops := work * perOp * float64(m.Variant.TurnLimit)
	if call == CallDistribution {
		// The forward pass: per layer about a position per (n, k, role, flag) and reachable lead,
		// each drawing every capacity and following its choice's outcomes; every choice kept.
		// Fitted to measured solves on a loaded 2-core machine (memsim solve --pairs 100 --memory
		// 5 --forget lru --fluctuation 2 --turn-limit 200 --float --distribution: 23 s, 73 MB;
		// --pairs 12 --turn-limit 24 in exact rationals: 7.3 s, 33 MB).
		positions := float64(pairs) * k * 4 * (float64(pairs) + 1)
		ops += positions * caps * 6 * perOp * float64(m.Variant.TurnLimit)
		bytes += cells*float64(m.Variant.TurnLimit)*6 + 2*positions*(ratBytes+64)
	}
	return Cost{Ops: ops, Bytes: bytes}, nil
}
