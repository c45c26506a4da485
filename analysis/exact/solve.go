// Package exact computes, with exact rational arithmetic or in float64 on the same code path, what
// every policy is worth in every position of the exact models of Memory: perfect shared memory,
// singletons, limited shared memory with handover-uniform, lru or decay forgetting, the pass rules
// with the stalemate rule, three to eight players (every seat for itself, or a policy per seat),
// and solitaire; and the rule variants: k copies of a face, the copies model of perfect memory
// (copies.go, under blind flips copiesblind.go), blind flips (blind.go) and a turn limit (limit.go,
// limitwin.go), which the model's Variant sets.
//
// Positions are rules.State values. The solver sweeps them in dependency order (a turn removes at
// most one pair, and within a row it only moves to states with fewer unknown cards, or back to the
// same state when a card is forgotten), keeping two rows of values. Values are computed as leads
// (the mover's pairs minus the other seat's), in which every equation is linear; the few unknowns
// that refer to each other within one state (a forgotten card leading back to the same state, a
// pass answered in the same state) are solved in closed form, never iterated to a tolerance.
// With three or more seats the values are every seat's expected pairs (selfish.go).
// Decay forgetting can also lead to a state with more unknown pairs: its states of one size are
// solved together, as a system of linear equations (decayrow.go).
package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// RationalLimit is the largest deal size for which memsim solves in exact rationals when it needs
// a whole table or a tournament's exact values: the policy tables of the simulator's players up
// to this size are exact (larger ones are computed in float64, whose comparisons are within a
// relative 1e-12), and tournaments report exact values up to it.
const RationalLimit = 200

// WinRationalLimit is the largest deal size for which memsim solves a policy that plays to win in
// exact rationals when it needs its whole table or a tournament's exact values: the lead
// multiplies the states by about 2n, so larger tables are computed in float64, and tournaments
// report exact values of such matchups up to this size.
const WinRationalLimit = 40

// WinTableLimit is the largest deal size a player that plays to win can play: its table holds a
// choice for every lead as well as every count state.
const WinTableLimit = 200

// Lineup says who plays: Players seats, seat 0 (the mover in the evaluated state) playing Policy
// and every other seat playing Opponent. A seat may instead play a policy given as a table
// (docs/solver.md, "Exact values of a policy given as a table"): Table, when not nil, is seat 0's
// policy in place of Policy, and OpponentTable every other seat's in place of Opponent. With
// PerSeat (see SeatLineup) every seat plays a policy of its own.
//
// With three or more players, optimal is the optimum of every seat for itself (docs/models.md
// §4.7), unless TwoPlayerOptimal asks for the two-player optimum's choices at every seat.
type Lineup struct {
	Players  int
	Policy   rules.Policy
	Opponent rules.Policy
	// Table and OpponentTable, when not nil, are the choices of seat 0 and of the other seats, in
	// every state the solve reaches (see Lineup.Validate and tables.go).
	Table, OpponentTable *rules.ChoiceTable
	// PerSeat says that seat i plays Seats[i], for i < Players, in place of Policy and Opponent.
	PerSeat bool
	Seats   [rules.MaxPlayers]rules.Policy
	// TwoPlayerOptimal makes optimal play, at any number of seats, the choices of the two-player
	// optimum (both seats maximising their lead) in place of every seat's own optimum.
	TwoPlayerOptimal bool
}

// Validate reports whether the matchup can be solved exactly in model m. Which policy may answer
// which is rules.Policy.CheckReply's to say; a reply (best-response, win-best-response) may also
// answer a table. Whether a table holds a choice wherever a solve reads one depends on the state
// solved from: the solver checks it before solving.
func (mu Lineup) Validate(m Model) error {
	if err := checkBlindSinglesLineup(m, mu); err != nil {
		return err // blindsingles.go
	}
	if IsCopiesMem(m) {
		return checkCopiesMem(m, mu) // copiesmem.go
	}
	if IsCopiesDecay(m) {
		return checkCopiesDecay(m, mu) // copiesdecay.go
	}
	if IsHUSingles(m) {
		return checkHUSingles(m, mu) // husingles.go
	}
	if IsFluctSingles(m) {
		return checkFluctSingles(m, mu) // fluctsingles.go
	}
	if m.fluctLimited() {
		return validateFluctLimit(m, mu) // fluctlimit.go
	}
	if m.Memory.Fluctuation > 0 && mu.Players == 1 {
		return validateFluctSolo(m, mu) // fluctsolo.go
	}
	if m.Memory.Fluctuation > 0 && isSelfWin(mu) {
		return checkFluctSelfWin(m, mu) // fluctselfwin.go
	}
	if m.Memory.Fluctuation > 0 && mu.Players >= 3 {
		return validateFluctSeats(m, mu)
	}
	if m.Memory.Fluctuation > 0 {
		return validateFluct(m, mu)
	}
	switch {
	case mu.Players < 1 || mu.Players > rules.MaxPlayers:
		return fmt.Errorf("players %d: must be between 1 and %d", mu.Players, rules.MaxPlayers)
	case mu.Players == 1 && m.Pass != rules.PassNever:
		return fmt.Errorf("pass rule %s: with %d players only pass rule never has an exact model", m.Pass, mu.Players)
	case isSelfWin(mu):
		return mu.validateSelfWin(m)
	case mu.Players >= 3 && m.Pass != rules.PassNever && m.isDecay() && mu.TwoPlayerOptimal && mu.playsOptimal():
		return fmt.Errorf("pass rule %s: with %d players decay forgetting under a pass rule is solved for every seat's own optimum and fixed policies, not the two-player optimum's choices (its choice after a pass does not say what to do after several)", m.Pass, mu.Players)
	case isSeatReply(mu):
		return mu.validateSeatReply(m)
	case mu.PerSeat:
		return mu.validateSeats(m)
	}
	if mu.Table != nil || mu.OpponentTable != nil {
		return mu.validateTables(m)
	}
	if err := mu.Policy.CheckChoices(m.Choices); err != nil {
		return err
	}
	// With one player there is no opponent to answer.
	if err := mu.Policy.CheckReply(mu.Opponent, mu.Players > 1 && mu.Policy.Opponents() != nil, mu.Players); err != nil {
		return err
	}
	if mu.Players == 1 {
		return nil
	}
	if err := mu.Opponent.CheckChoices(m.Choices); err != nil {
		return err
	}
	return mu.Opponent.CheckReply(mu.Policy, mu.Opponent.Opponents() != nil, mu.Players)
}

// playsToWin reports whether a role of the matchup plays to win, so that its values depend on the
// lead (docs/models.md §4.13).
func (mu Lineup) playsToWin() bool {
	pol := mu.roles()
	return pol[0].PlaysToWin() || pol[1].PlaysToWin() || mu.leadTable()
}

// Result is the value of a matchup from one state.
type Result[T any] struct {
	State   rules.State
	Players int
	// ExpectedPairs is seat 0's expected number of the remaining pairs (two or more players; under
	// a turn limit, of the pairs taken within it, also with one player).
	ExpectedPairs T
	// ExpectedLead is seat 0's expected pairs minus seat 1's (two players).
	ExpectedLead T
	// PairsBySeat gives every seat's expected pairs, seat 0 first (two or more players).
	PairsBySeat []T
	// ScoreBySeat gives, for win-optimal at three or more seats, every seat's P(most pairs at the
	// end), a tie for the most shared equally, seat 0 first (docs/models.md §4.7); nil otherwise.
	ScoreBySeat []T
	// ExpectedTurns is the expected number of turns (two flips each) to clear the table (under a
	// turn limit, the turns played), and ExpectedLucky the expected number of turns whose second
	// card matched a new first card by chance (one player).
	ExpectedTurns, ExpectedLucky T
}

// Evaluate returns the value of the matchup from state st in model m. With more than two copies
// of a face it solves from the start of a game only (st.J == st.N); EvaluateCopies solves from
// any state of that model.
//
// Under a turn limit (m.Variant.TurnLimit > 0) the limit is the number of turns left in st, and
// the values count the pairs taken within it (limit.go).
func Evaluate[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if IsFluctSingles(m) {
		return evaluateFluctSingles(ctx, f, m, mu, st) // fluctsingles.go
	}
	if m.fluctLimited() {
		return evaluateFluctLimit(ctx, f, m, mu, st) // fluctlimit.go
	}
	if m.Memory.Fluctuation > 0 && mu.Players == 1 {
		return evaluateFluctSolo(ctx, f, m, mu, st) // fluctsolo.go
	}
	if m.Memory.Fluctuation > 0 && isSelfWin(mu) {
		return evaluateFluctSelfWinLineup(ctx, f, m, mu, st) // fluctselfwin.go
	}
	if m.Memory.Fluctuation > 0 && mu.Players >= 3 {
		return evaluateFluctSeats(ctx, f, m, mu, st)
	}
	if m.Memory.Fluctuation > 0 {
		return evaluateFluct(ctx, f, m, mu, st)
	}
	if isSelfWin(mu) {
		return evaluateSelfWinLineup(ctx, f, m, mu, st)
	}
	if IsHUSingles(m) {
		return evaluateHUSingles(ctx, f, m, mu, st) // husingles.go
	}
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		return evaluateCopiesStart(ctx, f, m, mu, st)
	}
	if m.Variant.TurnLimit > 0 {
		return evaluateLimit(ctx, f, m, mu, st)
	}
	w, err := evaluateSweep(f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	if err := w.run(ctx, st.N, nil); err != nil {
		return Result[T]{}, err
	}
	return w.result(st), nil
}

// result reads the value of the matchup from st off an evaluation sweep (evaluateSweep) that has
// computed st.
func (w *sweep[T]) result(st rules.State) Result[T] {
	f, mu := w.f, w.mu
	res := Result[T]{State: st, Players: mu.Players}
	n := f.FromInt(int64(st.N))
	if l := w.lead; l != nil {
		res.ExpectedLead = l.at(st).lead[0][0][l.li(st.Lead)]
		res.ExpectedPairs = pairsFromLead(f, n, res.ExpectedLead)
		res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
		return res
	}
	c := w.at(st)
	switch {
	case w.needSelf && !w.needMulti:
		res.PairsBySeat = append([]T(nil), c.self...)
		res.ExpectedPairs = c.self[0]
	case isSelfPlay(mu):
		res.ExpectedLead = w.optAt(st)
		res.ExpectedPairs = pairsFromLead(f, n, res.ExpectedLead)
		res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	case mu.Players == 1:
		res.ExpectedTurns, res.ExpectedLucky = c.solo[0], c.solo[1]
	case mu.Players == 2:
		res.ExpectedLead = c.lead[0]
		res.ExpectedPairs = pairsFromLead(f, n, c.lead[0])
		if w.needMulti {
			res.PairsBySeat = c.seats[0]
		} else {
			res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
		}
	default:
		res.PairsBySeat = c.seats[0]
		res.ExpectedPairs = c.seats[0][0]
	}
	return res
}

// isSelfPlay reports whether both seats of a two-player matchup play optimal.
func isSelfPlay(mu Lineup) bool {
	pol := mu.roles()
	return mu.Players == 2 && pol[0] == rules.PolicyOptimal && pol[1] == rules.PolicyOptimal
}

// evaluateSweep returns the sweep Evaluate runs: with a lead sweep when a role plays to win.
func evaluateSweep[T any](f field.Field[T], m Model, mu Lineup, st rules.State) (*sweep[T], error) {
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return nil, err
	}
	if mu.playsToWin() {
		newLeadSweep(w, st.N).needEval = true
		return w, nil
	}
	// With both seats optimal, the optimal sweep alone gives the answer: the mover's lead is the
	// optimal value and the seats share the pairs (each seat's pairs follow from the lead).
	switch {
	case mu.Players == 1:
		w.needSolo = true
		w.needOpt = false // solitaire's optimum is its own (fewest turns)
	case isSelfPlay(mu):
	case isSelfish(mu):
		// Every seat plays its own optimum: the state's vector is the answer.
	case mu.Players == 2:
		w.needPair = true
		w.needMulti = m.Pass == rules.PassNever
	default:
		w.needMulti = true
	}
	return w, nil
}

func pairsFromLead[T any](f field.Field[T], n, lead T) T {
	return f.Div(f.Add(n, lead), f.FromInt(2))
}

// cell holds the values of one state.
type cell[T any] struct {
	opt   T      // two-player lead of the mover when both play optimally
	self  []T    // every seat for itself: every seat's expected pairs in order from the mover
	lead  [2]T   // lead of the mover playing the matchup's policy (0) or opponent policy (1)
	seats [][]T  // seats[t][i]: seat i's expected pairs when seat t is to move
	solo  [2]T   // one player: expected turns and lucky matches
	dist  [2][]T // lead distributions, indexed by lead + maxPairs, for the two roles

	// leadAfter and optAfterPass are lead and opt just after a pass by the other seat, under
	// decay forgetting and a pass rule (decaypass.go), where they differ.
	leadAfter    [2]T
	optAfterPass T
}

// sweep visits the states of a model in dependency order and computes the values asked for.
type sweep[T any] struct {
	f  field.Field[T]
	m  Model
	mu Lineup
	// pol[r] is role r's policy (0: seat 0, 1: the other seats), policyTable for a role that plays
	// tab[r].
	pol [2]rules.Policy
	tab [2]*rules.ChoiceTable

	needOpt, needPair, needMulti, needSolo, needDist bool
	// needSelf asks for the optimum of every seat for itself (three or more players, selfish.go).
	needSelf bool

	maxPairs int
	stride   int // states per value of j in a row: S + 1
	// rows holds the values of the last two deal sizes, three under blind flips (blindFlips).
	rows [3][]cell[T]

	// The current state's outcomes, per legal choice.
	legal [rules.NumChoices]bool
	outs  [rules.NumChoices][]Outcome
	probs [rules.NumChoices][]T

	// The current state's decisions, read by later evaluators and by table visitors.
	optChoice  rules.Choice
	optDev     [rules.NumChoices]T // each legal choice's lead, optimal play afterwards
	optBest    [rules.NumChoices]bool
	brChoice   [2]rules.Choice // best response's choice without and with a pass just made
	soloChoice rules.Choice    // solitaire: the choice that minimises the expected turns
	// soloDev holds, in solitaire under optimal, each legal choice's expected turns and lucky
	// matches, the optimum played afterwards.
	soloDev    [rules.NumChoices][2]T
	selfChoice rules.Choice // every seat for itself: the optimum's choice
	selfGap    T            // and the most a deviation from it gains the mover (0: an equilibrium)
	// selfDev holds each legal choice's expected pairs for the mover, made once with the optimum
	// of every seat for itself afterwards.
	selfDev [rules.NumChoices]T
	// hasAfter says that the optimum's choice just after a pass, optAfter, is a choice of its own
	// (decay forgetting under a pass rule, decaypass.go).
	hasAfter     bool
	optAfter     rules.Choice
	optBestAfter [rules.NumChoices]bool
	// passRows solves decay's rows with the pass flag under every pass rule, never included
	// (decaypass.go; tests compare the two).
	passRows bool
	// streak, with three or more seats under a pass rule, holds the current state's values and
	// choices at every pass streak (selfishpass.go).
	streak *passStreak[T]

	zero, one T
	ints      []T // small integers, so that gains do not allocate

	// lead, when not nil, extends the sweep with the lead (a role plays to win).
	lead *leadSweep[T]
	// sdist, when not nil, extends the sweep with every seat's score distribution at three or
	// more seats (seatsdist.go).
	sdist *seatsDistRows[T]

	// fast, when not nil, computes the optimal values in exact arithmetic (ratOpt); needDev asks
	// for every legal choice's lead in optDev, not only the choice made (a strategy table).
	fast               *ratOpt
	needDev, needProbs bool
	// useFast says that the optimal values are computed by ratOpt (see useFastOpt).
	useFast bool
	// from, when not nil, is the one state whose values are asked for: the sweep computes only
	// the states and leads a game from it reaches (see sweep.onlyFrom).
	from *rules.State
	// decayRat, when not nil, computes the optimal values of the decay model in exact rationals
	// (decayoptrat.go).
	decayRat *decayOptRat
}

func newSweep[T any](f field.Field[T], m Model, mu Lineup, st rules.State) (*sweep[T], error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if m.Memory.Fluctuation > 0 {
		return nil, fmt.Errorf("memory %s: under a fluctuating capacity the solver gives a matchup's values (Evaluate) and the optimum's table (FluctTable), not this computation", m.Memory)
	}
	if IsHUSingles(m) {
		return nil, fmt.Errorf("singletons %d with %s: the solver gives a matchup's values, each choice's values and the score distribution (two seats) and the engine's tables of optimal and best-response, not this computation", m.Singletons, m.Memory)
	}
	if m.Variant.TurnLimit > 0 {
		return nil, fmt.Errorf("turn limit %d: under a turn limit the solver gives a matchup's values, its win, draw and loss probabilities and its players' tables, not this computation", m.Variant.TurnLimit)
	}
	if err := mu.Validate(m); err != nil {
		return nil, err
	}
	if isSelfWin(mu) {
		return nil, fmt.Errorf("players %d: win-optimal at three or more seats gives values (every seat's score and expected pairs) and tables, not this computation", mu.Players)
	}
	if k := m.Variant.CopiesOf(); k != rules.DefaultCopies {
		return nil, fmt.Errorf("copies %d: this solve covers two copies of a face (the copies model solves values, not tables)", k)
	}
	if st.S != m.Singletons {
		return nil, fmt.Errorf("state has %d singletons, the model %d", st.S, m.Singletons)
	}
	if err := st.Validate(m.Memory); err != nil {
		return nil, err
	}
	if err := mu.checkTables(m, st); err != nil {
		return nil, err
	}
	w := &sweep[T]{f: f, m: m, mu: mu, pol: mu.roles(), tab: [2]*rules.ChoiceTable{mu.Table, mu.OpponentTable},
		zero: f.FromInt(0), one: f.FromInt(1)}
	// The optimal policy's choices come from the self-play sweep: the two-player one, or with
	// three or more players the optimum of every seat for itself.
	optimal := mu.playsOptimal()
	w.needSelf = optimal && mu.Players >= 3 && !mu.TwoPlayerOptimal
	w.needOpt = optimal && !w.needSelf
	if mu.Players >= 3 && m.Pass != rules.PassNever {
		w.streak = newPassStreak[T](mu.Players)
	}
	for i := range 4 {
		w.ints = append(w.ints, f.FromInt(int64(i)))
	}
	return w, nil
}

// jMin is the smallest j of a valid state with n pairs: at most Capacity cards are remembered
// (any number without a capacity).
func (w *sweep[T]) jMin(n int) int {
	if w.m.Memory.Capacity == 0 {
		return 0
	}
	return max(0, n-w.m.Memory.Capacity)
}

func (w *sweep[T]) at(st rules.State) *cell[T] {
	return &w.rows[w.row(st.N)][st.J*w.stride+st.F]
}

// row returns the row that holds the states with n pairs.
func (w *sweep[T]) row(n int) int {
	if w.blindFlips() {
		return n % 3
	}
	return n & 1
}

// prepare sets what a sweep of every state with at most maxPairs pairs computes with, without
// allocating anything: the cost of the sweep (see sweep.rowOps) follows from it.
func (w *sweep[T]) prepare(maxPairs int) {
	w.maxPairs = maxPairs
	w.stride = w.m.Singletons + 1
	w.useFast = useFastOpt(w)
	// The probabilities in the field, for every evaluator but ratOpt (which reads the outcomes').
	w.needProbs = w.needPair || w.needMulti || w.needSolo || w.needDist || w.needSelf || w.lead != nil || (w.needOpt && !w.useFast)
}

// run computes every state with at most maxPairs pairs, calling visit (when not nil) after each.
// It stops, with an error wrapping ctx's, as soon as ctx is done: it looks before every row of
// states (n, j), at most Singletons + 1 of them.
func (w *sweep[T]) run(ctx context.Context, maxPairs int, visit func(st rules.State) error) error {
	w.prepare(maxPairs)
	for r := range w.rows {
		if r == 2 && !w.blindFlips() {
			w.rows[r] = nil
			if w.lead != nil {
				w.lead.rows[r] = nil
			}
			continue
		}
		w.rows[r] = make([]cell[T], (maxPairs+1)*w.stride)
		if w.lead != nil {
			w.lead.rows[r] = make([]leadCell[T], (maxPairs+1)*w.stride)
		}
	}
	w.fast = nil
	if w.useFast {
		w.fast = newRatOpt(maxPairs, w.m.Singletons, (maxPairs+1)*w.stride)
	}
	if w.m.isDecay() {
		return w.runDecay(ctx, maxPairs, visit)
	}
	done := ctx.Done()
	prog := progressOf(ctx)
	for n := 0; n <= maxPairs; n++ {
		for j := w.jMin(n); j <= w.jMax(n); j++ {
			select {
			case <-done:
				return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
			default:
			}
			for fu := 0; fu <= w.m.Singletons; fu++ {
				st := rules.State{N: n, J: j, S: w.m.Singletons, F: fu}
				if !w.m.Memory.Holds(st.Known()) {
					continue
				}
				w.state(st)
				if visit != nil {
					if err := visit(st); err != nil {
						return err
					}
				}
			}
		}
		prog.add(w.rowOps(n))
	}
	return nil
}

func (w *sweep[T]) state(st rules.State) {
	c := w.at(st)
	if st.N == 0 {
		w.terminal(c)
		if w.fast != nil {
			w.fast.value(w.key(st), len(w.rows[0])).SetInt64(0)
		}
		if w.lead != nil {
			w.lead.state(st)
		}
		if w.sdist != nil {
			w.seatsDist(st)
		}
		return
	}
	for _, ch := range rules.Choices() {
		w.legal[ch] = w.m.Legal(st, ch)
		w.outs[ch] = w.outs[ch][:0]
		w.probs[ch] = w.probs[ch][:0]
		if !w.legal[ch] {
			continue
		}
		w.outs[ch] = w.m.Outcomes(st, ch, w.outs[ch])
		if w.needProbs {
			for _, o := range w.outs[ch] {
				w.probs[ch] = append(w.probs[ch], w.f.FromFrac(o.Prob.Num, o.Prob.Den))
			}
		}
	}
	switch {
	case w.needOpt && w.fast != nil:
		w.fastOptimal(st)
	case w.needOpt:
		w.optimal(st, c)
	}
	switch {
	case w.needSelf && w.streak != nil:
		w.selfishPass(st, c)
	case w.needSelf:
		w.selfish(st, c)
	}
	if w.needPair {
		w.pair(st, c)
	}
	switch {
	case w.needMulti && w.streak != nil:
		w.multiPass(st, c)
	case w.needMulti:
		w.multi(st, c)
	}
	if w.needSolo {
		w.solitaire(st, c)
	}
	if w.needDist {
		w.distribution(st, c)
	}
	if w.lead != nil {
		w.lead.state(st)
	}
	if w.sdist != nil {
		w.seatsDist(st)
	}
}

// terminal sets the values of a table without pairs: nothing more to win, no turn to play.
func (w *sweep[T]) terminal(c *cell[T]) {
	c.opt, c.lead, c.solo = w.zero, [2]T{w.zero, w.zero}, [2]T{w.zero, w.zero}
	if w.needSelf {
		c.self = w.zeros(w.mu.Players)
	}
	if w.needMulti {
		c.seats = make([][]T, w.mu.Players)
		for t := range c.seats {
			c.seats[t] = w.zeros(w.mu.Players)
		}
	}
	if w.needDist {
		d := w.zeros(2*w.maxPairs + 1)
		d[w.maxPairs] = w.one
		c.dist = [2][]T{d, d}
	}
}

func (w *sweep[T]) zeros(k int) []T {
	v := make([]T, k)
	for i := range v {
		v[i] = w.zero
	}
	return v
}

// selfLoop reports whether outcome o returns to state st with the next seat to move.
func selfLoop(o Outcome, st rules.State) bool { return !o.Continue && o.Next == st }

// leadSum returns, for choice ch in st, the lead a collected from outcomes that leave st and the
// probability b of coming back to st with the next seat to move: the mover's lead is
// a - b*(next seat's lead in st). own and other give the lead of the mover and of the next seat
// at a successor where they move.
func (w *sweep[T]) leadSum(st rules.State, ch rules.Choice, own, other func(o Outcome) T) (a, b T) {
	f := w.f
	a, b = w.zero, w.zero
	for i, o := range w.outs[ch] {
		p := w.probs[ch][i]
		if selfLoop(o, st) {
			b = f.Add(b, p)
			continue
		}
		var v T
		if o.Continue {
			v = f.Add(w.ints[o.MoverGain], own(o))
		} else {
			v = f.Sub(f.Sub(w.zero, w.ints[o.NextGain]), other(o))
		}
		a = f.Add(a, f.Mul(p, v))
	}
	return a, b
}

// optimal computes the two-player value when both sides play optimally. For a choice c with
// lead a_c - b_c*v (v the opponent's value back in the same state), the value is the largest of
// a_c/(1+b_c) over the choices, and 0 (an even split) where passing is legal: a pass answered by
// a pass ends the game by the stalemate rule. Each choice's lead with optimal play afterwards is
// kept for the strategy table, and the optimal policy takes the first best choice in the order
// daring, safe, known-first, pass.
func (w *sweep[T]) optimal(st rules.State, c *cell[T]) {
	f := w.f
	opt := func(o Outcome) T { return w.at(o.Next).opt }
	var as, bs [rules.NumChoices]T
	var best T
	have := false
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		as[ch], bs[ch] = w.leadSum(st, ch, opt, opt)
		v := f.Div(as[ch], f.Add(w.one, bs[ch]))
		if !have || f.Cmp(v, best) > 0 {
			best, have = v, true
		}
	}
	if w.legal[rules.Pass] && f.Cmp(best, w.zero) < 0 {
		best = w.zero
	}
	c.opt = best
	var top T
	haveTop := false
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		w.optDev[ch] = f.Sub(as[ch], f.Mul(bs[ch], best))
		if !haveTop || f.Cmp(w.optDev[ch], top) > 0 {
			top, haveTop = w.optDev[ch], true
		}
	}
	if w.legal[rules.Pass] {
		// The opponent answers a pass in the same state: passing again splits the table.
		reply := top
		if f.Cmp(reply, w.zero) < 0 {
			reply = w.zero
		}
		w.optDev[rules.Pass] = f.Sub(w.zero, reply)
		if f.Cmp(w.optDev[rules.Pass], top) > 0 {
			top = w.optDev[rules.Pass]
		}
	}
	found := false
	for _, ch := range rules.Choices() {
		w.optBest[ch] = w.legal[ch] && f.Cmp(w.optDev[ch], top) == 0
		if w.optBest[ch] && !found {
			w.optChoice, found = ch, true
		}
	}
}

// choice returns the choice of role r in st, after a pass by the other role or not, for a role
// that does not reply to the other (not best-response, not playing to win).
func (w *sweep[T]) choice(r int, st rules.State, afterPass bool) rules.Choice {
	switch p := w.pol[r]; p {
	case policyTable:
		return w.tableChoice(w.tab[r], st, afterPass)
	case rules.PolicyOptimal:
		if afterPass {
			return w.optimalAfterPass()
		}
		return w.optimalChoice()
	default:
		return p.Decide(st)
	}
}

// optimalChoice returns the optimal policy's choice in the current state: every seat's own
// optimum with three or more players, the two-player optimum otherwise.
func (w *sweep[T]) optimalChoice() rules.Choice {
	if w.needSelf {
		return w.selfChoice
	}
	return w.optChoice
}

// pairNode numbers the unknowns of a two-player state: the lead of role r (0: Policy, 1:
// Opponent) to move, without (flag 0) or with (flag 1) a pass just made by the other seat.
func pairNode(role, flag int) int { return 2*role + flag }

// twoSeat solves the four unknowns of a two-player state in the vector space sp, for the roles'
// choices ch[role][flag]. A role that passes with flag 0 hands the other role the same state with
// flag 1; a pass with flag 1 ends the game in a stalemate (worth stalemate[role] to the role that
// passed). For any other choice, sum returns the value collected from the outcomes that leave the
// state and the probability of coming back to it with the other role to move.
func twoSeat[T, V any](w *sweep[T], sp space[T, V], zero V, stalemate [2]V, ch [2][2]rules.Choice,
	sum func(role int, c rules.Choice) (V, T)) []V {
	var cs [4]V
	var bs [4]T
	var to [4]int
	for role := range 2 {
		for flag := range 2 {
			i := pairNode(role, flag)
			switch c := ch[role][flag]; {
			case c == rules.Pass && flag == 1:
				cs[i], bs[i], to[i] = stalemate[role], w.zero, -1
			case c == rules.Pass:
				cs[i], bs[i], to[i] = zero, w.one, pairNode(1-role, 1)
			case flag == 1 && c == ch[role][0]:
				cs[i], bs[i], to[i] = cs[i-1], bs[i-1], to[i-1] // the same choice: the same sum
			default:
				cs[i], bs[i] = sum(role, c)
				to[i] = pairNode(1-role, 0)
				if w.f.IsZero(bs[i]) {
					to[i] = -1
				}
			}
		}
	}
	return solveLocal(w.f, sp, cs[:], bs[:], to[:])
}

// pairChoices returns the roles' choices in st without and with a pass just made; a
// best-response role takes br.
func (w *sweep[T]) pairChoices(st rules.State, br [2]rules.Choice) [2][2]rules.Choice {
	var ch [2][2]rules.Choice
	for role, p := range w.pol {
		if p == rules.PolicyBestResponse {
			ch[role] = br
			continue
		}
		ch[role] = [2]rules.Choice{w.choice(role, st, false), w.choice(role, st, true)}
	}
	return ch
}

// pair computes the leads of the two roles of the matchup in st. A best-response role tries
// every combination of its choices with and without a pass just made and keeps the best.
func (w *sweep[T]) pair(st rules.State, c *cell[T]) {
	f := w.f
	leadOf := [2]func(Outcome) T{
		func(o Outcome) T { return w.at(o.Next).lead[0] },
		func(o Outcome) T { return w.at(o.Next).lead[1] },
	}
	var done [2][rules.NumChoices]bool
	var as, bs [2][rules.NumChoices]T
	sum := func(role int, ch rules.Choice) (T, T) {
		if !done[role][ch] {
			as[role][ch], bs[role][ch] = w.leadSum(st, ch, leadOf[role], leadOf[1-role])
			done[role][ch] = true
		}
		return as[role][ch], bs[role][ch]
	}
	sp := w.scalarSpace()
	br := -1
	if w.pol[0] == rules.PolicyBestResponse {
		br = 0
	} else if w.pol[1] == rules.PolicyBestResponse {
		br = 1
	}
	if br < 0 {
		x := twoSeat(w, sp, w.zero, [2]T{w.zero, w.zero}, w.pairChoices(st, [2]rules.Choice{}), sum)
		c.lead = [2]T{x[0], x[2]}
		return
	}
	var bestX []T
	for _, c0 := range rules.Choices() {
		if !w.legal[c0] {
			continue
		}
		for _, c1 := range rules.Choices() {
			if !w.legal[c1] || (!w.legal[rules.Pass] && c1 != c0) {
				continue
			}
			choice := [2]rules.Choice{c0, c1}
			x := twoSeat(w, sp, w.zero, [2]T{w.zero, w.zero}, w.pairChoices(st, choice), sum)
			if bestX == nil || better(f, x[pairNode(br, 0)], x[pairNode(br, 1)], bestX[pairNode(br, 0)], bestX[pairNode(br, 1)]) {
				bestX, w.brChoice = x, choice
			}
		}
	}
	c.lead = [2]T{bestX[0], bestX[2]}
}

// better orders pairs of values lexicographically.
func better[T any](f field.Field[T], a0, a1, b0, b1 T) bool {
	if d := f.Cmp(a0, b0); d != 0 {
		return d > 0
	}
	return f.Cmp(a1, b1) > 0
}

func (w *sweep[T]) scalarSpace() space[T, T] {
	f := w.f
	return space[T, T]{
		add:    f.Add,
		scale:  f.Mul,
		mirror: func(a T) T { return f.Sub(w.zero, a) },
	}
}

func (w *sweep[T]) vectorSpace(mirror func([]T) []T) space[T, []T] {
	f := w.f
	sp := space[T, []T]{
		add: func(a, b []T) []T {
			out := make([]T, len(a))
			for i := range a {
				out[i] = f.Add(a[i], b[i])
			}
			return out
		},
		scale: func(t T, a []T) []T {
			out := make([]T, len(a))
			for i := range a {
				out[i] = f.Mul(t, a[i])
			}
			return out
		},
		mirror:   mirror,
		identity: mirror == nil,
	}
	if mirror == nil {
		sp.mirror = func(a []T) []T { return a }
	}
	return sp
}

// seatChoice returns the choice of seat t in st, for evaluators without pass flags.
func (w *sweep[T]) seatChoice(t int, st rules.State) rules.Choice {
	if w.mu.PerSeat {
		switch p := w.mu.Seats[t]; p {
		case rules.PolicyOptimal:
			return w.optimalChoice()
		case rules.PolicyBestResponse:
			return w.brChoice[0]
		default:
			return p.Decide(st)
		}
	}
	r := min(t, 1)
	if w.pol[r] == rules.PolicyBestResponse {
		return w.brChoice[0]
	}
	return w.choice(r, st, false)
}

// multi computes every seat's expected pairs with each seat to move (pass rule never). A turn that
// ends without a pair hands the state to the next seat; a forgotten card can bring the same state
// back to the next seat, so the seats of one state form a cycle, solved in closed form. A seat
// that plays best-response takes its best choice (multiReply).
func (w *sweep[T]) multi(st rules.State, c *cell[T]) {
	if r := w.mu.replySeat(); r >= 0 {
		w.multiReply(st, c, r)
		return
	}
	c.seats = w.multiSeats(st)
}

// multiSeats returns every seat's expected pairs with each seat to move in st, every seat
// playing its choice there (seatChoice).
func (w *sweep[T]) multiSeats(st rules.State) [][]T {
	p := w.mu.Players
	return w.seatsCycle(st, p, func(vec []T, pr T, o Outcome, t int) { w.addOutcome(vec, pr, o, t, (t+1)%p) })
}

// seatsCycle solves the seats' vectors of st (size entries each) with each seat to move, every
// seat playing its choice there (seatChoice): add adds an outcome that leaves st, seat t moving, to
// a vector; one that forgets a card hands st back to the next seat, so the seats form a cycle,
// solved in closed form.
func (w *sweep[T]) seatsCycle(st rules.State, size int, add func(vec []T, pr T, o Outcome, t int)) [][]T {
	f := w.f
	p := w.mu.Players
	cs := make([][]T, p)
	bs := make([]T, p)
	to := make([]int, p)
	for t := range p {
		ch := w.seatChoice(t, st)
		next := (t + 1) % p
		vec := w.zeros(size)
		b := w.zero
		for i, o := range w.outs[ch] {
			pr := w.probs[ch][i]
			if selfLoop(o, st) {
				b = f.Add(b, pr)
				continue
			}
			add(vec, pr, o, t)
		}
		cs[t], bs[t], to[t] = vec, b, next
		if f.IsZero(b) {
			to[t] = -1
		}
	}
	return solveLocal(f, w.vectorSpace(nil), cs, bs, to)
}

// solitaire computes the expected number of turns and of lucky matches for one player. The
// optimal policy is the one that minimises the expected number of turns; soloDev keeps each
// legal choice's values, the optimum played afterwards.
func (w *sweep[T]) solitaire(st rules.State, c *cell[T]) {
	f := w.f
	if w.pol[0] != rules.PolicyOptimal {
		c.solo = w.soloValue(st, w.choice(0, st, false))
		return
	}
	have := false
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		v := w.soloValue(st, ch)
		w.soloDev[ch] = v
		if !have || f.Cmp(v[0], c.solo[0]) < 0 {
			c.solo, have = v, true
			w.soloChoice = ch
		}
	}
}

// soloValue returns the expected turns and lucky matches of one player who makes choice ch in
// st and plays the sweep's policy afterwards.
func (w *sweep[T]) soloValue(st rules.State, ch rules.Choice) [2]T {
	f := w.f
	turns, lucky, b := w.zero, w.zero, w.zero
	for i, o := range w.outs[ch] {
		pr := w.probs[ch][i]
		// A pair left fully known costs the next turn, which takes it.
		turns = f.Add(turns, f.Mul(pr, w.ints[1+o.NextGain]))
		if o.Event == EventLucky {
			lucky = f.Add(lucky, pr)
		}
		if selfLoop(o, st) {
			b = f.Add(b, pr)
			continue
		}
		next := w.at(o.Next)
		turns = f.Add(turns, f.Mul(pr, next.solo[0]))
		lucky = f.Add(lucky, f.Mul(pr, next.solo[1]))
	}
	scale := f.Div(w.one, f.Sub(w.one, b))
	return [2]T{f.Mul(turns, scale), f.Mul(lucky, scale)}
}
