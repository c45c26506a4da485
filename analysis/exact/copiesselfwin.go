package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective with every seat for itself at three or more seats in the copies model
// (docs/models.md §4.7, "Win objective"; §4.16): every seat's score is P(it ends with the most
// pairs), a k-way tie for the most giving each of the k seats 1/k, as in selfishwin.go. The state
// is the state of faces (copies.go) with the standings of the seats (rules.Deficits: every seat's
// deficit to the most pairs so far, capped at the pairs left plus one) and, when the seats play
// different policies, the mover's seat. A seat that plays win-optimal (or win-best-response, at
// one seat) takes the first choice with the largest own score in the order daring, safe,
// known-first; a seat of optimal plays the optimum of every seat for itself in expected pairs
// under copies (which ignores the standings), safe and daring their fixed choices. Every turn
// takes a pair or turns up a card that was unknown, so no state refers to itself and the
// memoised recursion is backward induction, exact in rationals and in float64 on the same path,
// under sequential and blind flips (copiesblind.go). Under a turn limit the state gains the turns
// left (copiesselfwinlimit.go): every turn uses one, a pair handed over remembered whole costs the
// next seat one more, and with none left the standings decide, the pairs left counting for nobody.

// copiesSelfWin solves the win objective of every seat for itself under copies by memoised
// recursion over the states of faces, the standings and the mover's seat.
type copiesSelfWin[T any] struct {
	ctx context.Context
	f   field.Field[T]
	m   Model
	p   int
	pol []rules.Policy
	// same says that every seat plays to win: the state then needs no mover's seat.
	same bool
	// opt solves the optimum of every seat for itself in expected pairs, for seats of optimal.
	opt *copiesSolver[T]
	// limit is the model's turn limit: the states carry the turns left (0: no limit).
	limit int
	// streaks says that the states carry the pass streak: a pass rule other than never
	// (copiesselfwinpass.go).
	streaks bool

	memo      map[string]*copiesSelfWinCell[T]
	zero, one T
	shares    []T // shares[k] = 1/k
	ints      []T // small integers: the pairs a turn takes
}

// copiesSelfWinCell holds the vectors of one state (selfishwin.go's swScore .. swDraw, p entries
// each, in order from the mover) and the mover's choice.
type copiesSelfWinCell[T any] struct {
	vals   []T
	choice rules.Choice
}

// isCopiesSelfWin reports whether the lineup mu in model m is the win objective at three or more
// seats under k copies of a face, or under blind flips with perfect memory without a turn limit
// (two copies under a turn limit are the count state's, selfishwinlimit.go, and so are blind flips
// with a shared limited memory, blindwin.go).
func isCopiesSelfWin(m Model, mu Lineup) bool {
	return !m.Variant.Standard() && m.Variant.CopiesOf() >= 2 && isSelfWin(mu) && !isSelfWinLimit(m, mu) && !isBlindLimitedSelfWin(m, mu)
}

// checkCopiesSelfWinModel reports whether the copies model m has the win objective of every seat
// for itself at p seats.
func checkCopiesSelfWinModel(m Model, p int) error {
	k := m.Variant.CopiesOf()
	switch {
	case !m.Memory.Perfect():
		return fmt.Errorf("copies %d: the win objective at %d seats is solved with perfect memory only, not %s", k, p, m.Memory)
	case m.Singletons != 0:
		return fmt.Errorf("copies %d: singletons have no exact model", k)
	}
	return m.Validate()
}

// checkCopiesSelfWin reports whether the copies model m solves the lineup mu of three or more
// seats in which a seat plays to win: every seat win-optimal (one may play win-best-response), or
// win-optimal at some seats (win-best-response at one) beside optimal, safe and daring.
func checkCopiesSelfWin(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	if mu.Players < 3 || mu.Players > rules.MaxPlayers {
		return fmt.Errorf("players %d: the win objective of every seat for itself needs 3 to %d seats", mu.Players, rules.MaxPlayers)
	}
	if mu.Table != nil || mu.OpponentTable != nil || mu.TwoPlayerOptimal {
		return fmt.Errorf("copies %d: win-optimal with %d players is not combined with tables", k, mu.Players)
	}
	if err := mu.checkWinReply(); err != nil {
		return err
	}
	for i, p := range mu.SeatPolicies() {
		switch p {
		case rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring:
		default:
			return fmt.Errorf("seat %d: policy %s with copies %d beside win-optimal has no exact model (allowed: win-optimal, win-best-response, optimal, safe, daring)", i, p, k)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return checkCopiesSelfWinModel(m, mu.Players)
}

// newCopiesSelfWin returns a solver of the lineup mu, checked.
func newCopiesSelfWin[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup) (*copiesSelfWin[T], error) {
	if err := checkCopiesSelfWin(m, mu); err != nil {
		return nil, err
	}
	return buildCopiesSelfWin(ctx, f, m, mu.SeatPolicies())
}

// buildCopiesSelfWin returns a solver of the seats' policies pol in m, unchecked (two seats give
// the two-player win objective, which tests compare).
func buildCopiesSelfWin[T any](ctx context.Context, f field.Field[T], m Model, pol []rules.Policy) (*copiesSelfWin[T], error) {
	p := len(pol)
	s := &copiesSelfWin[T]{ctx: ctx, f: f, m: m, p: p, pol: pol, same: true, limit: m.Variant.TurnLimit,
		streaks: m.Pass != rules.PassNever,
		memo:    map[string]*copiesSelfWinCell[T]{}, zero: f.FromInt(0), one: f.FromInt(1)}
	for _, q := range s.pol {
		s.same = s.same && q.PlaysToWin()
		if q == rules.PolicyOptimal && s.opt == nil {
			var err error
			s.opt, err = newCopiesSolver(ctx, f, m, Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
			if err != nil {
				return nil, err
			}
		}
	}
	s.shares = []T{s.zero}
	for k := 1; k <= p; k++ {
		s.shares = append(s.shares, f.FromFrac(1, int64(k)))
	}
	for i := range 3 {
		s.ints = append(s.ints, f.FromInt(int64(i)))
	}
	return s, nil
}

// key returns the memo key of the state of faces key with the standings d (in order from the
// mover), t turns left under a turn limit, the pass streak k under a pass rule and the mover's
// seat q.
func (s *copiesSelfWin[T]) key(faces string, d []int, q, t, k int) string {
	b := make([]byte, 0, len(faces)+2*len(d)+4)
	b = append(b, faces...)
	for _, x := range d {
		b = append(b, byte(x), byte(x>>8))
	}
	if s.limit > 0 {
		b = append(b, byte(t), byte(t>>8))
	}
	if s.streaks {
		b = append(b, byte(k))
	}
	if !s.same {
		b = append(b, byte(q))
	}
	return string(b)
}

// outcomes returns the outcomes of the legal choice ch in v under the model's flip rule.
func (s *copiesSelfWin[T]) outcomes(v copiesVec, ch rules.Choice) []copiesOutcome {
	if s.m.Variant.Flips == rules.FlipsBlind {
		return copiesBlindOutcomes(v, ch, nil)
	}
	return copiesOutcomes(v, ch, nil)
}

// vec returns vector i (swScore .. swDraw) of the values vals.
func (s *copiesSelfWin[T]) vec(vals []T, i int) []T { return vals[i*s.p : (i+1)*s.p] }

// terminal returns the values of the empty table at the standings d: the seats level with the
// most share the score.
func (s *copiesSelfWin[T]) terminal(d []int) *copiesSelfWinCell[T] {
	c := &copiesSelfWinCell[T]{vals: make([]T, swVectors*s.p), choice: rules.Daring}
	top := 0
	for _, x := range d {
		if x == 0 {
			top++
		}
	}
	for i := range c.vals {
		c.vals[i] = s.zero
	}
	for q, x := range d {
		if x != 0 {
			continue
		}
		s.vec(c.vals, swScore)[q] = s.shares[top]
		if top == 1 {
			s.vec(c.vals, swWin)[q] = s.one
		} else {
			s.vec(c.vals, swDraw)[q] = s.one
		}
	}
	return c
}

// get returns the values of the state of faces v at the standings d with seat q to move, t turns
// left under a turn limit (0 without one) and k seats having passed in a row just before under a
// pass rule (0 without one).
func (s *copiesSelfWin[T]) get(v copiesVec, d []int, q, t, streak int) (*copiesSelfWinCell[T], error) {
	faces := v.key()
	k := s.key(faces, d, q, t, streak)
	if c, ok := s.memo[k]; ok {
		return c, nil
	}
	select {
	case <-s.ctx.Done():
		return nil, fmt.Errorf("solver stopped: %w", s.ctx.Err())
	default:
	}
	if unknownCards(v) == 0 || (s.limit > 0 && t == 0) {
		c := s.terminal(d)
		s.memo[k] = c
		return c, nil
	}
	follow, fixed, err := s.follow(v, faces, q, t, streak)
	if err != nil {
		return nil, err
	}
	c := &copiesSelfWinCell[T]{choice: rules.Daring}
	for _, ch := range rules.Choices() {
		if !s.legal(v, ch) || (fixed && ch != follow) {
			continue
		}
		vals, err := s.valuesOf(v, d, q, t, streak, ch)
		if err != nil {
			return nil, err
		}
		if c.vals == nil || s.f.Cmp(vals[0], c.vals[0]) > 0 {
			c.vals, c.choice = vals, ch
		}
	}
	s.memo[k] = c
	return c, nil
}

// follow returns the choice seat q makes in v with t turns left at pass streak k when its policy
// does not play to win (fixed true), or fixed false when it maximises its own score.
func (s *copiesSelfWin[T]) follow(v copiesVec, faces string, q, t, k int) (ch rules.Choice, fixed bool, err error) {
	switch p := s.pol[q]; p {
	case rules.PolicyWinOptimal, rules.PolicyWinBestResponse:
		return rules.Daring, false, nil
	case rules.PolicyOptimal:
		c, err := s.opt.get(faces, t)
		if err != nil {
			return rules.Daring, false, err
		}
		if c.streak != nil {
			return c.streak.choice[k], true, nil // the optimum of every seat for itself at streak k
		}
		return c.selfChoice, true, nil
	case rules.PolicySafe:
		if copiesLegal(v, rules.Safe, s.m.Choices) {
			return rules.Safe, true, nil
		}
	}
	return rules.Daring, true, nil
}

// choiceValues returns every vector, in order from the mover, after the mover's legal choice ch
// in v at the standings d with seat q to move and t turns left, the lineup played afterwards.
func (s *copiesSelfWin[T]) choiceValues(v copiesVec, d []int, q, t int, ch rules.Choice) ([]T, error) {
	f, p := s.f, s.p
	acc := make([]T, swVectors*p)
	for i := range acc {
		acc[i] = s.zero
	}
	nd := make([]int, p)
	for _, o := range s.outcomes(v, ch) {
		next := vecOfKey(o.next)
		nt, g := s.after(o, t)
		// The seats' pairs relative to the most, after the turn, in order from the next mover.
		for i := range nd {
			nd[i] = -d[i]
		}
		rot, nq := 0, q
		if o.keep {
			nd[0]++
		} else {
			nd[1] += g
			first := nd[0]
			copy(nd, nd[1:])
			nd[p-1] = first
			rot, nq = 1, (q+1)%p
		}
		rules.Deficits(nd, nd, next.state().Pairs())
		c, err := s.get(next, nd, nq, nt, 0)
		if err != nil {
			return nil, err
		}
		pr := f.FromFrac(o.num, o.den)
		for vi := range swVectors {
			src := s.vec(c.vals, vi)
			for i := range p {
				x := src[(i+p-rot)%p]
				if vi == swPairs {
					switch {
					case i == 0 && o.keep:
						x = f.Add(x, s.one)
					case i == 1 && !o.keep && g > 0:
						x = f.Add(x, s.ints[g])
					}
				}
				acc[vi*p+i] = f.Add(acc[vi*p+i], f.Mul(pr, x))
			}
		}
	}
	return acc, nil
}

// EvaluateCopiesSelfWin returns the values of the win objective at three or more seats in the
// copies model m (perfect memory, any pass rule, with or without a turn limit; docs/models.md
// §4.16) from the state of faces st at the start of a turn that follows no pass, seat s (in order
// from the mover, seat 0) having taken standings[s] pairs so far (nil: none yet), each seat
// playing its policy of mu: win-optimal at every seat (one may play win-best-response), or
// win-optimal (win-best-response at one seat) beside optimal, safe and daring. Result.State is
// st.RulesState(); Choices gives every legal choice of the mover made now, the lineup played
// afterwards. EvaluateCopiesSelfWinPasses gives the values after a streak of passes.
func EvaluateCopiesSelfWin[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState, standings []int) (SelfWinResult[T], error) {
	return EvaluateCopiesSelfWinPasses(ctx, f, m, mu, st, standings, 0)
}

// EvaluateCopiesSelfWinPasses is EvaluateCopiesSelfWin at the start of a turn that follows a
// streak of passes seats passing in a row (0 to players-1; under a pass rule other than never
// only when it is not 0).
func EvaluateCopiesSelfWinPasses[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState, standings []int, passes int) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	switch {
	case passes < 0 || passes >= mu.Players:
		return res, fmt.Errorf("passes %d: a streak of 0 to %d passes in a row at %d seats", passes, mu.Players-1, mu.Players)
	case passes > 0 && m.Pass == rules.PassNever:
		return res, fmt.Errorf("passes %d: pass rule never has no pass", passes)
	}
	if err := st.Validate(); err != nil {
		return res, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return res, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	s, err := newCopiesSelfWin(ctx, f, m, mu)
	if err != nil {
		return res, err
	}
	if standings, err = checkStandings(mu.Players, standings); err != nil {
		return res, err
	}
	v := st.vec()
	d := make([]int, mu.Players)
	rules.Deficits(d, standings, st.Pairs())
	c, err := s.get(v, d, 0, s.limit, passes)
	if err != nil {
		return res, err
	}
	p := mu.Players
	res = SelfWinResult[T]{State: st.RulesState(), Standings: append([]int(nil), standings...), Choice: c.choice}
	res.SelfWinValues = *valuesOf(c.vals, p)
	if unknownCards(v) == 0 {
		return res, nil
	}
	for _, ch := range rules.Choices() {
		if !s.legal(v, ch) {
			continue
		}
		res.Legal[ch] = true
		vals, err := s.valuesOf(v, d, 0, s.limit, passes, ch)
		if err != nil {
			return res, err
		}
		res.Choices[ch] = valuesOf(vals, p)
	}
	return res, nil
}

// CopiesSelfWinCells returns the number of values the win objective at players seats (3 or
// more) keeps for a deal of the given pairs and copies of a face: the count states (CopiesStates)
// times the standings of the largest deal, (pairs + 2)^(players-1)·players bounding those with a
// deficit 0, times players when the seats play different policies (mixed); or -1 beyond 2^62.
func CopiesSelfWinCells(pairs, copies, players int, mixed bool) int64 {
	c := CopiesStates(pairs, copies)
	if c < 0 {
		return -1
	}
	mul := int64(players)
	if mixed {
		mul *= int64(players)
	}
	for range players - 1 {
		mul *= int64(pairs + 2)
		if mul > 1<<40 {
			return -1
		}
	}
	if c > (1<<62)/mul {
		return -1
	}
	return c * mul
}

// CheckCopiesSelfWin reports whether the copies model m solves the lineup mu of three or more
// seats in which a seat plays to win (EvaluateCopiesSelfWin).
func CheckCopiesSelfWin(m Model, mu Lineup) error { return checkCopiesSelfWin(m, mu) }

// IsCopiesSelfWin reports whether the lineup mu in model m is the win objective at three or more
// seats under k copies of a face (EvaluateCopiesSelfWin solves it).
func IsCopiesSelfWin(m Model, mu Lineup) bool { return isCopiesSelfWin(m, mu) }

// CopiesSelfWinPolicyTable returns the choices of seat 0's policy of mu, which plays to win
// (win-optimal, or win-best-response to the other seats' policies), at mu.Players seats (3 or
// more) in the copies model m, in every state of faces and at every standings a game of
// k/2, k, .., pairs pairs reaches from its start, whichever seat moves first: the table the engine plays
// win-optimal at three or more seats from under k copies of a face
// (rules.NewCopiesStandingsTable). Under a turn limit the choices depend on the turns left:
// CopiesSelfWinPolicyTurnTables gives them.
func CopiesSelfWinPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) (*rules.CopiesTable, error) {
	if m.Variant.TurnLimit > 0 {
		return nil, fmt.Errorf("copies %d, turn limit %d: the choices depend on the turns left (see CopiesSelfWinPolicyTurnTables)", m.Variant.CopiesOf(), m.Variant.TurnLimit)
	}
	layers, err := copiesSelfWinLayers(ctx, f, m, mu, pairs)
	if err != nil {
		return nil, err
	}
	return layers[0], nil
}

// CopiesSelfWinRationalCells is the largest number of values (CopiesSelfWinCells) for which a
// table or a tournament's exact values of win-optimal at three or more seats under copies are
// computed in exact rationals (about a second); larger ones are computed in float64.
const CopiesSelfWinRationalCells = 100000

// CopiesSelfWinCellLimit is the largest number of values (CopiesSelfWinCells) a table of
// win-optimal at three or more seats under copies is solved for (about 30 s in float64).
const CopiesSelfWinCellLimit = 25000000

// evaluateCopiesSelfWinStart is EvaluateStandings in the copies model: from the start of a game
// of st.N pairs, the seats having taken standings pairs so far.
func evaluateCopiesSelfWinStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (SelfWinResult[T], error) {
	if st.J != st.N || st.S != 0 || st.F != 0 {
		return SelfWinResult[T]{}, fmt.Errorf("copies %d: state %v: the count state (n, j) solves the start of a game only, (n, n); see EvaluateCopiesSelfWin", m.Variant.CopiesOf(), st)
	}
	start, err := StartCopiesState(st.N, m.Variant.CopiesOf())
	if err != nil {
		return SelfWinResult[T]{}, err
	}
	return EvaluateCopiesSelfWin(ctx, f, m, mu, start, standings)
}

// evaluateCopiesSelfWinLineup is Evaluate for a lineup of three or more seats in the copies model
// in which a seat plays to win, from the start of a game of st.N pairs.
func evaluateCopiesSelfWinLineup[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	r, err := evaluateCopiesSelfWinStart(ctx, f, m, mu, st, nil)
	if err != nil {
		return Result[T]{}, err
	}
	return Result[T]{State: st, Players: mu.Players, ExpectedPairs: r.Pairs[0], PairsBySeat: r.Pairs, ScoreBySeat: r.Score}, nil
}

// estimateCopiesSelfWin returns the cost of a call for a lineup of three or more seats in the
// copies model in which a seat plays to win: CopiesSelfWinLimitCells values (a bound on the
// standings of the start for every state, times about a third of a turn limit, times the pass
// streaks a state carries under a pass rule), each opsCopiesSelfWin
// operations in float64, weighted in exact rationals by copiesSelfWinRational·pairs (the
// fractions grow with the deal). Measured at copies 4, three seats: 12 to 32 pairs in float64,
// 12 to 20 in exact rationals, within a factor 1.5.
func estimateCopiesSelfWin[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if err := checkCopiesSelfWin(m, mu); err != nil {
		return Cost{}, err
	}
	if call != CallEvaluate && call != CallPolicyTable {
		return Cost{}, fmt.Errorf("copies %d, players %d: win-optimal at three or more seats gives values and tables, not this computation", m.Variant.CopiesOf(), mu.Players)
	}
	mixed := false
	for _, p := range mu.SeatPolicies() {
		mixed = mixed || !p.PlaysToWin()
	}
	cells := float64(CopiesSelfWinLimitCells(pairs, m.Variant.CopiesOf(), mu.Players, mixed, m.Variant.TurnLimit, m.Pass))
	if cells < 0 {
		cells = 1 << 62
	}
	_, exact := any(f).(field.Rat)
	w, value := 1.0, float64(floatBytes)
	if exact {
		w, value = copiesSelfWinRational*float64(pairs), pointerBytes+ratBytes+2*8*float64(pairs+1)/8
	}
	// The memo holds about an eighth of the bound's cells, each swVectors·players values and a key.
	live := cells / 8 * (swVectors*float64(mu.Players)*value + 96)
	return Cost{Ops: cells * opsCopiesSelfWin * w, Bytes: baseBytes + gcHeadroom*live}, nil
}

// The work of one value of the win objective at three or more seats under copies, measured (see
// estimateCopiesSelfWin).
const (
	opsCopiesSelfWin      = 22
	copiesSelfWinRational = 0.8
)
