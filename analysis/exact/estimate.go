package exact

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Cost is an estimate of what a call of the solver takes: an order of magnitude, on the
// conservative side, not a measurement. Estimate gives it before solving.
type Cost struct {
	// Ops is the work, in operations: one operation is about one term of a state's equations
	// (an outcome's probability times a successor's value) in float64. In exact rationals an
	// operation is weighted by the size its numbers reach at that deal size, so that Ops is
	// proportional to the time either way.
	Ops float64
	// Bytes is about the most memory the call holds at once, the garbage collector's headroom
	// included.
	Bytes float64
}

// OpsPerSecond is the operations one core does per second, measured (see Estimate): Cost.Seconds
// divides by it.
const OpsPerSecond = 2e7

// Seconds returns the time the work takes on one core of the machine Estimate was calibrated
// on (a 2020s x86-64 server core): Ops / OpsPerSecond.
func (c Cost) Seconds() float64 { return c.Ops / OpsPerSecond }

// Then returns the cost of c's call followed by d's: the work adds up, the memory is the larger
// of the two (the first call's is released before the second's).
func (c Cost) Then(d Cost) Cost { return Cost{Ops: c.Ops + d.Ops, Bytes: max(c.Bytes, d.Bytes)} }

// Call names a computation of the solver whose cost Estimate gives.
type Call int

// The calls Estimate prices.
const (
	// CallEvaluate is Evaluate.
	CallEvaluate Call = iota
	// CallDistribution is Distribution.
	CallDistribution
	// CallWinDrawLoss is WinDrawLoss.
	CallWinDrawLoss
	// CallTable is Table (the lineup is ignored: two optimal players).
	CallTable
	// CallWinTable is WinTable.
	CallWinTable
	// CallPolicyTable is PolicyTable.
	CallPolicyTable
	// CallBestResponseTo is BestResponseTo of the lineup's OpponentTable.
	CallBestResponseTo
)

// Options says what Estimate prices.
type Options struct {
	// Call is the computation; the zero value is Evaluate.
	Call Call
	// Float asks for the cost in float64 rather than exact rationals.
	Float bool
}

// Estimate returns the cost of solving lineup mu in model m up to pairs pairs: the call
// o.Call from a state of pairs pairs (Evaluate, Distribution, WinDrawLoss), or a table up to
// pairs pairs. It is computed from what the call sweeps and allocates, without solving: the
// states of every deal size up to pairs (see SweepStates), times the work of one state, which
// the score distribution multiplies by the leads it holds (2·pairs + 1), more players by the
// seats' vectors (players²), a role that plays to win by the leads (2·pairs + 3); limited memory
// holds fewer states (at most Capacity cards known). Exact rationals weigh each operation by
// the size of the numbers, which grows with the deal size. It returns an error for a request
// the call refuses.
//
// The constants are calibrated on the user CPU time and the largest resident memory of memsim
// solve on one core (a 2020s x86-64 server, Go 1.26), for example
//
//	/usr/bin/time -f '%U s %M KB' memsim solve --pairs 100 --distribution
//
// at two or more sizes of each kind of request: the values (optimal, parity, best response, 3
// and 8 players, lru and handover-uniform memory, singletons), the distribution, playing to win,
// the tables and Gerez's model, each in float64 and in exact rationals. Over those 34 runs (0.2
// to 30 s) the estimated time is 0.5 to 1.8 times the time measured, and the memory 0.5 to 2.3
// times; so it is for larger runs it was not fitted to (--pairs 130 --distribution, 160 pairs
// of 8 players, 400 pairs under lru memory of 1000 cards, 600 under handover-uniform of 50,
// Gerez at 200 cards: 0.7 to 1.7 times). Beyond what was measured it extrapolates: read it as
// an order of magnitude.
func Estimate(m Model, mu Lineup, pairs int, o Options) (Cost, error) {
	if o.Float {
		return estimate(field.Float{}, m, mu, pairs, o.Call)
	}
	return estimate(field.Rat{}, m, mu, pairs, o.Call)
}

func estimate[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if pairs < 0 {
		return Cost{}, fmt.Errorf("pairs %d: must be at least 0", pairs)
	}
	if IsFluctSingles(m) {
		return estimateFluctSingles(f, m, mu, pairs, call) // fluctsingles.go
	}
	if m.fluctLimited() {
		return estimateFluctLimit(f, m, mu, pairs, call) // fluctlimit.go
	}
	if IsHUSingles(m) {
		return estimateHUSingles(f, m, mu, pairs, call) // husingles.go
	}
	if call == CallDistribution && isWinSeatsDist(mu) && m.Memory.Fluctuation == 0 {
		return winSeatsDistCost(f, m, mu, pairs) // winseatsdistcost.go
	}
	if m.Memory.Fluctuation > 0 && isSelfWin(mu) {
		return estimateFluctSelfWin(f, m, mu, pairs, call) // fluctselfwin.go
	}
	if isCopiesSelfWin(m, mu) {
		return estimateCopiesSelfWin(f, m, mu, pairs, call) // copiesselfwin.go
	}
	if selfWinMixed(mu) || winReplyLimited(m, mu) {
		return estimateSelfWinMixed(f, m, mu, pairs, call)
	}
	if isSelfWin(mu) {
		return estimateSelfWin(f, m, mu, pairs, call)
	}
	if call == CallDistribution && mu.Players >= 3 && m.Variant.CopiesOf() != rules.DefaultCopies {
		return copiesSeatsDistCost(f, m, mu, pairs) // copiesseatsdist.go
	}
	if m.Variant.TurnLimit > 0 {
		return estimateLimit(f, m, mu, pairs, call)
	}
	if m.Memory.Fluctuation > 0 && mu.Players >= 3 {
		c, err := estimateFluctSeats(f, m, mu, pairs)
		if call == CallDistribution {
			c = fluctSeatsDistCost(f, pairs, c) // fluctseatsdist.go
		}
		return c, err
	}
	if m.Memory.Fluctuation > 0 && mu.Players == 1 {
		return estimateFluctSolo(f, m, mu, pairs, call) // fluctsolo.go
	}
	if m.Memory.Fluctuation > 0 {
		return estimateFluct(f, m, mu, pairs, call)
	}
	if call == CallDistribution && mu.Players >= 3 {
		return seatsDistCost(f, m, mu, pairs) // seatsdist.go
	}
	st := startOf(m, pairs)
	var w *sweep[T]
	var err error
	switch call {
	case CallEvaluate:
		w, err = evaluateSweep(f, m, mu, st)
	case CallDistribution:
		w, err = distributionSweep(f, m, mu, st)
	case CallWinDrawLoss:
		if mu.Players != 2 {
			return Cost{}, fmt.Errorf("players %d: win, draw and loss are computed for 2 players", mu.Players)
		}
		if mu.hasBestResponse() {
			// Through the distribution, of both seat orders (see WinDrawLoss).
			c, err := estimate(f, m, mu, pairs, CallDistribution)
			return c.Then(c), err
		}
		w, err = winDrawLossSweep(f, m, mu, st)
	case CallTable:
		w, err = tableSweep(f, m, pairs)
	case CallWinTable:
		w, err = winTableSweep(f, m, mu, pairs)
	case CallPolicyTable:
		w, err = policyTableSweep(f, m, mu, pairs)
	case CallBestResponseTo:
		return estimateBestResponseTo(f, m, mu.OpponentTable, pairs)
	default:
		return Cost{}, fmt.Errorf("call %d: no such call", call)
	}
	if err != nil || w == nil {
		return Cost{}, err
	}
	return w.cost(pairs), nil
}

// The work of one state, in operations, in float64: measured (see Estimate).
const (
	opsOptimal   = 17 // the optimal values (self-play)
	opsDeviation = 8  // every choice's value besides, for a table
	opsPair      = 20 // the two roles' leads; a best response tries up to 16 combinations
	opsSolitaire = 17 // solitaire's turns and lucky matches
	opsMulti     = 3  // more players: this plus players² (each seat's vector of every seat)
	opsDistEntry = 1  // one lead of the two roles' distributions
	opsLead      = 30 // one lead of a sweep that plays to win
	opsLeadDist  = 3  // one lead of one lead's distributions, when a role plays to win
	opsLeadWDL   = 5  // the win, draw and loss of one lead
)

// The weight of an operation in exact rationals at deal size n (the numbers grow with it): for
// the values of a state, rationalScalar·(n+1)^0.8; for the entries of a distribution,
// rationalDist·(n+1)² more; for the optimal values without forgetting (ratOpt),
// rationalFastBase + rationalFast·(n+1)^1.3. The seats' vectors of three or more players weigh
// rationalMulti times a scalar, every choice's value of a table computed by ratOpt
// rationalFastDeviation times its optimal value, and a deal size beyond the memory's capacity
// (where cards are forgotten, and a state refers to itself) rationalForget times more.
const (
	rationalScalar        = 1.5
	rationalDist          = 0.04
	rationalFastBase      = 4
	rationalFast          = 0.0025
	rationalMulti         = 5.5
	rationalFastDeviation = 7
	rationalForget        = 4
)

func scalarWeight(n int) float64 { return rationalScalar * math.Pow(float64(n+1), 0.8) }
func distWeight(n int) float64   { return scalarWeight(n) + rationalDist*float64(n+1)*float64(n+1) }
func fastWeight(n int) float64 {
	return rationalFastBase + rationalFast*math.Pow(float64(n+1), 1.3)
}

// rowStates returns the states of deal size n the sweep visits.
func (w *sweep[T]) rowStates(n int) float64 {
	return float64(n-w.jMin(n)+1) * float64(w.m.Singletons+1)
}

// exact reports whether the sweep computes in exact rationals.
func (w *sweep[T]) exact() bool {
	_, ok := any(w.f).(field.Rat)
	return ok
}

// rowOps returns the estimated operations of the states of deal size n of a prepared sweep (see
// Estimate): what the sweep counts as its progress.
func (w *sweep[T]) rowOps(n int) float64 {
	if w.m.isDecay() {
		return w.decayRowOps(n)
	}
	scalar, dist, fast, multi, dev := 1.0, 1.0, 1.0, 1.0, 1.0
	if w.exact() {
		scalar, dist, fast = scalarWeight(n), distWeight(n), fastWeight(n)
		multi, dev = rationalMulti, rationalFastDeviation
		if !w.m.Memory.Perfect() && n > w.m.Memory.Capacity {
			scalar, dist = scalar*rationalForget, dist*rationalForget
		}
	}
	ops := 0.0
	switch {
	case w.needOpt && w.useFast:
		ops += opsOptimal * fast
		if w.needDev {
			ops += opsDeviation * dev * fast
		}
	case w.needOpt:
		ops += opsOptimal * scalar
		if w.needDev {
			ops += opsDeviation * scalar
		}
	}
	if w.needPair {
		k := 1.0
		if w.mu.hasBestResponse() {
			k = 4
		}
		ops += k * opsPair * scalar
	}
	if w.needSolo {
		ops += opsSolitaire * scalar
	}
	if w.needMulti {
		p := float64(w.mu.Players)
		if p <= 2 {
			multi = 1
		}
		k := 1.0
		if isSeatReply(w.mu) {
			k = 3 // the replying seat's cycle solved once per choice (selfishreply.go)
		}
		ops += k * (opsMulti + p*p) * multi * scalar
	}
	if w.needSelf {
		// Each legal choice's vector, then each candidate's cycle and its deviation test.
		p := float64(w.mu.Players)
		ops += (opsMulti + 3*p) * multi * scalar
	}
	vec := float64(2*w.maxPairs + 1)
	if w.needDist {
		ops += opsDistEntry * vec * dist
	}
	if l := w.lead; l != nil {
		leads := float64(2*l.D + 1)
		per := opsLead * scalar
		if l.needWin || l.needBR {
			per *= 2
		}
		if l.needDist {
			per += opsLeadDist * vec * dist
		}
		if l.needWDL {
			per += opsLeadWDL * scalar
		}
		ops += leads * per
	}
	return ops * w.rowStates(n)
}

// Memory: the bytes of a value, and of what holds values.
const (
	floatBytes    = 8
	pointerBytes  = 8
	sliceBytes    = 24
	cellBytes     = 112 // a cell[T]
	ratBytes      = 64  // a big.Rat without its words
	leadSlotBytes = 280 // one lead of a leadCell: its values, choices and slice headers
	baseBytes     = 16 << 20
	gcHeadroom    = 2 // the heap grows to twice what is live before a collection (GOGC=100)
)

// valueBytes returns the bytes of one value of a state of deal size n: a float64, or a rational
// whose numerator and denominator grow with n (a distribution's entries, dist, faster).
func (w *sweep[T]) valueBytes(n int, dist bool) float64 {
	if !w.exact() {
		return 0 // held in the cells and slices themselves
	}
	bits := 8 * float64(n+1)
	if dist {
		bits = math.Pow(float64(n+1), 1.5)
	}
	return ratBytes + 2*bits/8
}

// cost returns the estimated cost of the prepared sweep up to maxPairs pairs.
func (w *sweep[T]) cost(maxPairs int) Cost {
	w.prepare(maxPairs)
	var c Cost
	for n := 0; n <= maxPairs; n++ {
		c.Ops += w.rowOps(n)
	}
	// The two rows, of which the states of the last two deal sizes are filled.
	n := maxPairs
	cells := 2 * float64(maxPairs+1) * float64(w.m.Singletons+1)
	filled := 2 * w.rowStates(n)
	vec := float64(2*maxPairs + 1)
	live := cells * cellBytes
	scalars := 0.0
	if w.needOpt && !w.useFast {
		scalars++
	}
	if w.needPair || w.needDist {
		scalars += 2
	}
	if w.needSolo {
		scalars += 2
	}
	live += filled * scalars * w.valueBytes(n, false)
	if w.needMulti {
		p := float64(w.mu.Players)
		live += filled * p * (sliceBytes + p*(floatBytes+w.valueBytes(n, false)))
	}
	if w.needDist {
		// Zero entries share one value; the others are the leads the row can reach. The row
		// before the last two is garbage not yet collected.
		live += 1.5 * filled * 2 * (sliceBytes + vec*floatBytes + float64(2*n+1)*w.valueBytes(n, true))
	}
	if w.useFast {
		live += cells * w.valueBytes(n, false)
	}
	if l := w.lead; l != nil {
		leads := float64(2*l.D + 1)
		per := leadSlotBytes + 10*w.valueBytes(n, false)
		if l.needDist {
			per += 4 * (sliceBytes + vec*floatBytes + float64(2*n+1)*w.valueBytes(n, true))
		}
		if l.needWDL {
			per += 4 * (sliceBytes + 2*(floatBytes+w.valueBytes(n, false)))
		}
		live += cells * leads * per
	}
	c.Bytes = baseBytes + gcHeadroom*live
	return c
}

// EstimateGerez returns the cost of solving Gerez's model up to cards cards (Gerez, SolveGerez),
// calibrated as Estimate is: every state <k, B, P> with k <= cards, about 60 rational operations
// each, weighted by the size of the numbers; every value is kept to the end.
func EstimateGerez(cards int) Cost {
	var c Cost
	states := 0.0
	for k := 0; k <= cards; k += 2 {
		states += gerezStates(k)
		c.Ops += gerezRowOps(k)
	}
	bits := 20 * float64(cards+1)
	c.Bytes = baseBytes + gcHeadroom*states*(gerezEntryBytes+ratBytes+2*bits/8)
	return c
}

const (
	opsGerez        = 60
	gerezWeight     = 2.5
	gerezEntryBytes = 64 // a map entry: the state and a pointer, with the map's overhead
)

// gerezRowOps returns the estimated operations of the states of Gerez's model with k cards.
func gerezRowOps(k int) float64 {
	return gerezStates(k) * opsGerez * gerezWeight * math.Pow(float64(k+1), 0.76)
}

// gerezStates returns the number of states <k, B, P> of Gerez's model with k cards: P even,
// P <= B <= (k + P)/2.
func gerezStates(k int) float64 {
	n := 0
	for p := 0; p <= k; p += 2 {
		if hi := (k + p) / 2; hi >= p {
			n += hi - p + 1
		}
	}
	return float64(n)
}

// progressKey is the context key of WithProgress's counter.
type progressKey struct{}

// WithProgress returns a context under which the solver's calls count their work in done as
// they go, in the operations of Estimate: a sweep adds the operations of every deal size once it
// has solved its states. Comparing done with Estimate's Ops shows the progress of a long solve;
// done may be read from any goroutine.
func WithProgress(ctx context.Context, done *atomic.Int64) context.Context {
	return context.WithValue(ctx, progressKey{}, done)
}

// progress counts a call's work in the counter of WithProgress, if any.
type progress struct {
	done *atomic.Int64
}

func progressOf(ctx context.Context) progress {
	done, _ := ctx.Value(progressKey{}).(*atomic.Int64)
	return progress{done}
}

// add counts ops more operations.
func (p progress) add(ops float64) {
	if p.done != nil {
		p.done.Add(int64(math.Min(ops, math.MaxInt64/4)))
	}
}

// estimateBestResponseTo returns the cost of BestResponseTo(table): the best response's sweep, then
// optimal's against the table.
func estimateBestResponseTo[T any](f field.Field[T], m Model, table *rules.ChoiceTable, pairs int) (Cost, error) {
	if table == nil {
		return Cost{}, fmt.Errorf("no table to answer (the lineup's OpponentTable)")
	}
	br, err := estimate(f, m, Lineup{Players: 2, Policy: rules.PolicyBestResponse, OpponentTable: table}, pairs, CallPolicyTable)
	if err != nil {
		return Cost{}, err
	}
	opt, err := estimate(f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, OpponentTable: table}, pairs, CallEvaluate)
	return br.Then(opt), err
}
