package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines a pool asked for n workers runs: n, or one per CPU
// (runtime.GOMAXPROCS) when n is 0 or less.
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// BatchSize is the number of deals a worker takes from the pool at a time.
const BatchSize = 1024

// Match is a set of players who meet over the same deals: every deal is played once in each seat
// order of Orders. With one order it is a plain series of games; with the two orders of two
// players, a paired series, in which both seat orders face the same cards.
type Match struct {
	// Setup is the deal and the rules; its Players are the participants.
	Setup Setup
	// Orders lists the seat orders: Orders[k][i] is the participant in seat i of order k.
	Orders [][]int
	// Deals is the number of deals, each played once per order.
	Deals int64
	// Seed, DealStream and PlayStream derive every game's generators: deal d is dealt from
	// (Seed, DealStream, d) and played in order k from (Seed, PlayStream+k, d), or from
	// (Seed, PlayStreams[k], d) when PlayStreams is given (one stream per seat order).
	Seed, DealStream, PlayStream uint64
	PlayStreams                  []uint64
	// Shard and Shards, when Shards > 1, play only the batches b with b mod Shards = Shard-1
	// (1 <= Shard <= Shards): one slice of the deals, whose tallies add up with the other
	// slices' to those of the whole match.
	Shard, Shards int
}

// Result is what a match produced: a tally per seat order and, for a paired series, the deal-by-
// deal tally of its first participant.
type Result struct {
	Orders []*Tally
	Paired *PairTally
	// Convergence[k] records seat 0's running sums in seat order k, in deal order, after the
	// batches ConvergenceAt lists (each at least a quarter more than the last): a bounded record
	// (a few dozen points for any number of games) for convergence plots.
	Convergence [][]Point
	// Deals is the number of deals played (each in every seat order): all of the match's, unless
	// a stopping rule ended it early (Stopped).
	Deals   int64
	Stopped bool
	// NextBatch is the first batch not yet played: every batch before it is in the tallies.
	NextBatch int64
	// Streams identifies the games the tallies count: the match's Streams, its deal stream and
	// each seat order's play stream, which CheckResult compares with the match's own, so that a
	// Result is never taken for another match's (two matches of the same shape swapped in a
	// checkpoint, say).
	Streams []uint64
}

// Batch sums seat 0's scores, in units of 1/seats pairs, over the games of one batch, and, for
// games with a luck table, seat 0's luck.
type Batch struct {
	Games, Sum, SumSq int64
	Luck              LuckSums
}

// Point sums seat 0's scores, in units of 1/seats pairs, over the games of the batches before
// Batch, in deal order (of this shard's batches, for a shard), and, for games with a luck table,
// seat 0's luck over the same games: what a running luck-adjusted mean needs.
type Point struct {
	Batch, Games, Sum, SumSq int64
	Luck                     LuckSums
}

// NextConvergencePoint returns the batch after b at which a match records a convergence point:
// 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, ... (each at least a quarter more than the last); b = 0
// gives the first.
func NextConvergencePoint(b int64) int64 { return max(b+1, b*5/4) }

// convergencePoints returns the number of convergence points of the first batches batches.
func convergencePoints(batches int64) int {
	k := 0
	for b := NextConvergencePoint(0); b <= batches; b = NextConvergencePoint(b) {
		k++
	}
	return k
}

// convergenceFolder folds the sums of one seat order's batches, in deal order, into cumulative
// sums, recording a Point at every batch NextConvergencePoint lists.
type convergenceFolder struct {
	next, at int64 // the next batch to fold, and the next batch to record at
	sum      Point
}

// newFolder returns a folder that has folded the first next batches, whose sums are sum.
func newFolder(next int64, sum Point) convergenceFolder {
	at := NextConvergencePoint(0)
	for at <= next {
		at = NextConvergencePoint(at)
	}
	return convergenceFolder{next: next, at: at, sum: sum}
}

// fold adds the sums of batch c.next and returns points with the point it records, if any.
func (c *convergenceFolder) fold(b Batch, points []Point) []Point {
	c.sum.Games, c.sum.Sum, c.sum.SumSq = c.sum.Games+b.Games, c.sum.Sum+b.Sum, c.sum.SumSq+b.SumSq
	c.sum.Luck.merge(b.Luck)
	c.next++
	if c.next == c.at {
		c.sum.Batch = c.next
		points = append(points, c.sum)
		c.at = NextConvergencePoint(c.at)
	}
	return points
}

// Seat0Sums returns seat 0's sums over the games the tally holds, as a convergence point holds
// them (its Batch left 0): the point of every game.
func (t *Tally) Seat0Sums() Point {
	p := Point{Games: t.Games}
	for k, c := range t.Share[0] {
		p.Sum += int64(k) * c
		p.SumSq += int64(k) * int64(k) * c
	}
	if t.Luck != nil {
		p.Luck = t.Luck[0]
	}
	return p
}

// Streams returns the random streams the match's games are drawn from: its deal stream, then each
// seat order's play stream. A Result records them (Result.Streams).
func (m *Match) Streams() []uint64 {
	s := []uint64{m.DealStream}
	for k := range m.Orders {
		s = append(s, m.playStream(k))
	}
	return s
}

// playStream returns the play stream of seat order k.
func (m *Match) playStream(k int) uint64 {
	if m.PlayStreams != nil {
		return m.PlayStreams[k]
	}
	return m.PlayStream + uint64(k)
}

// paired reports whether the match is a paired series of two players.
func (m *Match) paired() bool {
	return len(m.Setup.Players) == 2 && len(m.Orders) == 2 && len(m.Orders[0]) == 2
}

// orderSetup returns the setup of seat order k.
func (m *Match) orderSetup(k int) Setup {
	s := m.Setup
	s.Players = make([]Player, len(m.Orders[k]))
	for i, p := range m.Orders[k] {
		s.Players[i] = m.Setup.Players[p]
	}
	return s
}

// Validate reports whether the match can be played.
func (m *Match) Validate() error {
	if m.Deals < 1 {
		return fmt.Errorf("deals %d: must be at least 1", m.Deals)
	}
	if len(m.Orders) == 0 {
		return fmt.Errorf("no seat order")
	}
	if m.PlayStreams != nil && len(m.PlayStreams) != len(m.Orders) {
		return fmt.Errorf("%d play streams for %d seat orders", len(m.PlayStreams), len(m.Orders))
	}
	if m.Shards > 1 && (m.Shard < 1 || m.Shard > m.Shards) {
		return fmt.Errorf("shard %d of %d: must be between 1 and %d", m.Shard, m.Shards, m.Shards)
	}
	seats := len(m.Orders[0])
	for k, o := range m.Orders {
		if len(o) != seats {
			return fmt.Errorf("seat order %d has %d seats, order 0 has %d", k, len(o), seats)
		}
		for _, p := range o {
			if p < 0 || p >= len(m.Setup.Players) {
				return fmt.Errorf("seat order %d names participant %d of %d", k, p, len(m.Setup.Players))
			}
		}
		if err := m.orderSetup(k).Validate(); err != nil {
			return err
		}
	}
	return nil
}

// worker plays deals for one goroutine, with one engine and one tally per seat order.
type worker struct {
	games  []*Game
	tally  []*Tally
	paired *PairTally
	batch  []Batch // the current batch, per seat order
	luck   []int64 // the luck of each seat in the game just played, for games with a luck table
	// firstSeat[k] is the seat of participant 0 in seat order k (paired matches).
	firstSeat []int
	// forfeits[k][i] is the number of games seat i of order k forfeited in a row on this worker.
	forfeits [][]int
}

func (m *Match) newWorker() (*worker, error) {
	w := &worker{}
	for k := range m.Orders {
		g, err := NewGame(m.orderSetup(k))
		if err != nil {
			return nil, err
		}
		w.games = append(w.games, g)
		t := NewTally(len(m.Orders[k]), m.Setup.Pairs)
		if len(m.Orders[k]) == 1 {
			t.countTurns(2*m.Setup.Pairs + m.Setup.Singletons)
		}
		w.tally = append(w.tally, t)
		w.forfeits = append(w.forfeits, make([]int, len(m.Orders[k])))
	}
	if m.paired() {
		w.paired = NewPairTally(m.Setup.Pairs, m.Setup.Variant.TurnLimit > 0)
		for _, o := range m.Orders {
			w.firstSeat = append(w.firstSeat, slices.Index(o, 0))
		}
	}
	w.batch = make([]Batch, len(m.Orders)+8)[:len(m.Orders)] // padded: written per game
	w.luck = make([]int64, len(m.Setup.Players))
	return w, nil
}

// close releases what the worker's engines hold (see Game.Close).
func (w *worker) close() error {
	var errs []error
	for _, g := range w.games {
		errs = append(errs, g.Close())
	}
	return errors.Join(errs...)
}

// deal plays deal d in every seat order and tallies it.
func (w *worker) deal(m *Match, d uint64) error {
	pairSum, pairLead := 0, 0
	var pairLuck int64
	for k, g := range w.games {
		id := GameID{Seed: m.Seed, DealStream: m.DealStream, PlayStream: m.playStream(k), Index: d}
		if err := w.play(g, k, id); err != nil {
			return err
		}
		o := &g.outcome
		// Each seat's luck, worked out once for the tally, the batch and the pairing.
		var luck []int64
		if o.Adjusted != nil {
			luck = w.luck[:len(o.Share)]
			for i, s := range o.Share {
				luck[i] = luckUnits(s, len(o.Share), o.Adjusted[i])
			}
		}
		w.tally[k].add(o, g.lucky, luck)
		s := int64(o.Share[0])
		b := &w.batch[k]
		b.Games++
		b.Sum += s
		b.SumSq += s * s
		if luck != nil {
			b.Luck.add(luck[0], o.Share[0])
		}
		if w.paired != nil {
			first := w.firstSeat[k]
			pairSum += o.Share[first]
			if w.paired.Lead != nil {
				// Under a turn limit the second player's score is not n minus the first's.
				pairLead += o.Share[first] - o.Share[1-first]
				if luck != nil {
					pairLuck -= luck[1-first]
				}
			}
			if luck != nil {
				pairLuck += luck[first]
			}
		}
	}
	if w.paired != nil {
		w.paired.Deals++
		w.paired.Sum[pairSum]++
		luckShare := pairSum
		if w.paired.Lead != nil {
			luckShare = pairLead + 4*m.Setup.Pairs
			w.paired.Lead[luckShare]++
		}
		if m.Setup.Luck != nil {
			if w.paired.Luck == nil {
				w.paired.Luck = new(LuckSums)
			}
			w.paired.Luck.add(pairLuck, luckShare)
		}
	}
	return nil
}

// play plays game id on engine g, of seat order k. A game that the failure of another game
// stopped is played again from its start, if the seat it stopped forfeits (Player.Forfeit); a
// seat that forfeits MaxForfeitsInARow games in a row, or a game stopped that many times, stops
// the match.
func (w *worker) play(g *Game, k int, id GameID) error {
	for stops := 1; ; stops++ {
		err := g.Play(id, nil)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrStopped) || g.errSeat < 0 || !g.setup.Players[g.errSeat].Forfeit {
			return err
		}
		if stops == MaxForfeitsInARow {
			return fmt.Errorf("%w; it was stopped %d times in a row, so the match stops", err, stops)
		}
	}
	o := &g.outcome
	for i := range w.forfeits[k] {
		if o.Fault == 0 || o.FaultSeat != i {
			w.forfeits[k][i] = 0
			continue
		}
		if w.forfeits[k][i]++; w.forfeits[k][i] == MaxForfeitsInARow {
			return fmt.Errorf("%w; that is %d games in a row forfeited, so the match stops", g.fault, MaxForfeitsInARow)
		}
	}
	return nil
}

// RoundBatches is the number of batches between two evaluations of a stopping rule (see PlayUntil).
const RoundBatches = 16

// Play plays the match on workers goroutines (0: one per CPU) and returns its tallies. done, when
// not nil, is increased by the number of games played as batches complete. The result is the same
// for any number of workers: every game depends only on its GameID, and tallies are integer counts.
func (m *Match) Play(ctx context.Context, workers int, done *atomic.Int64) (*Result, error) {
	return m.PlayWith(ctx, PlayOptions{Workers: workers, Done: done})
}

// PlayUntil plays the match as Play does, but in rounds of RoundBatches batches; after each round
// it calls stop, when not nil, with the tallies of every deal so far (deals 0 .. Result.Deals-1),
// and stops if it returns true. Rounds are fixed in deal order, so the stopping point, like the
// result, does not depend on the number of workers. stop must not keep the Result.
func (m *Match) PlayUntil(ctx context.Context, workers int, done *atomic.Int64, stop func(*Result) bool) (*Result, error) {
	return m.PlayWith(ctx, PlayOptions{Workers: workers, Done: done, Stop: stop})
}

// PlayOptions tune PlayWith.
type PlayOptions struct {
	// Workers is the number of goroutines (0: one per CPU); Done, when not nil, counts the games
	// played as batches complete.
	Workers int
	Done    *atomic.Int64
	// Stop, when not nil, is asked after every round whether the match may end (see PlayUntil).
	Stop func(*Result) bool
	// Round, when not nil, is called after every round with the tallies so far, for example to
	// write a checkpoint; an error it returns ends the match with that error.
	Round func(*Result) error
	// From, when not nil, resumes the match from a Result that Round was given (a checkpoint):
	// its deals are not played again.
	From *Result
}

// PlayWith plays the match with the given options. When ctx is cancelled it returns ctx's error
// after the batches under way; the last Result given to Round is then the state to resume from.
// The engines' strategies are closed (Game.Close) before it returns; an error in closing them is
// returned when the match itself succeeded.
func (m *Match) PlayWith(ctx context.Context, o PlayOptions) (res *Result, err error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	workers := Workers(o.Workers)
	batches := m.batches()
	workers = int(min(int64(workers), batches))
	round := batches
	if o.Stop != nil || o.Round != nil {
		round = RoundBatches
	}
	// all holds every worker made, for closing: those that play and the one whose tallies hold
	// the totals.
	var all []*worker
	defer func() {
		var errs []error
		for _, w := range all {
			errs = append(errs, w.close())
		}
		if cerr := errors.Join(errs...); cerr != nil && err == nil {
			res, err = nil, cerr
		}
	}()
	for range workers + 1 {
		w, err := m.newWorker()
		if err != nil {
			return nil, err
		}
		all = append(all, w)
	}
	ws, total := all[:workers], all[workers] // total's tallies hold the totals
	// Each round's batch sums are folded into the convergence record in deal order once the
	// round is played, so that memory does not grow with the number of games.
	if round == batches {
		round = min(batches, foldRound)
	}
	out := make([][]Batch, len(m.Orders))
	folders := make([]convergenceFolder, len(m.Orders))
	for k := range out {
		out[k] = make([]Batch, round)
		folders[k] = newFolder(0, Point{})
	}
	result := &Result{Orders: total.tally, Paired: total.paired, Convergence: make([][]Point, len(m.Orders)), Streams: m.Streams()}
	start := int64(0)
	if f := o.From; f != nil {
		if err := m.checkResume(f); err != nil {
			return nil, err
		}
		for k, t := range f.Orders {
			total.tally[k].Merge(t)
			result.Convergence[k] = append([]Point(nil), f.Convergence[k]...)
			folders[k] = newFolder(f.NextBatch, t.Seat0Sums())
		}
		if f.Paired != nil {
			total.paired.Merge(f.Paired)
		}
		result.Deals, result.NextBatch = f.Deals, f.NextBatch
		start = f.NextBatch
		if f.Stopped {
			result.Stopped = true
			return result, nil
		}
	}
	for ; start < batches; start += round {
		end := min(start+round, batches)
		if err := m.playBatches(ctx, ws, start, end, out, o.Done); err != nil {
			return nil, err
		}
		for k := range out {
			for _, b := range out[k][:end-start] {
				result.Convergence[k] = folders[k].fold(b, result.Convergence[k])
			}
			clear(out[k])
		}
		for _, w := range ws {
			for k, t := range w.tally {
				total.tally[k].Merge(t)
				t.reset()
			}
			if w.paired != nil {
				total.paired.Merge(w.paired)
				w.paired.reset()
			}
		}
		result.Deals, result.NextBatch = m.dealsIn(end), end
		stopped := o.Stop != nil && end < batches && o.Stop(result)
		if stopped {
			result.Stopped = true
		}
		if o.Round != nil {
			if err := o.Round(result); err != nil {
				return nil, err
			}
		}
		if stopped {
			break
		}
	}
	return result, nil
}

// foldRound is the number of batches played between two foldings of their sums, when neither a
// stopping rule nor a round callback asks for rounds of RoundBatches.
const foldRound = 4096

// ShardDeals returns the number of deals the match plays: all of them, or its shard's slice.
func (m *Match) ShardDeals() int64 {
	return m.dealsIn(m.batches())
}

// dealsIn returns the number of deals of this shard (of the whole match, unsharded) in the
// batches 0 .. end-1.
func (m *Match) dealsIn(end int64) int64 {
	if m.Shards <= 1 {
		return min(end*BatchSize, m.Deals)
	}
	var n int64
	for b := int64(m.Shard - 1); b < end; b += int64(m.Shards) {
		n += min((b+1)*BatchSize, m.Deals) - b*BatchSize
	}
	return n
}

// checkResume reports whether r can be the state of this match after some rounds.
func (m *Match) checkResume(r *Result) error {
	if err := m.CheckResult(r); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	batches := m.batches()
	if r.NextBatch%RoundBatches != 0 && r.NextBatch != batches {
		return fmt.Errorf("resume: the checkpoint (%d deals, batch %d) is not a round boundary of this match", r.Deals, r.NextBatch)
	}
	return nil
}

// playBatches plays batches start .. end-1 on the workers ws, recording batch b's sums in
// out[k][b-start].
func (m *Match) playBatches(ctx context.Context, ws []*worker, start, end int64, out [][]Batch, done *atomic.Int64) error {
	next := atomic.Int64{}
	next.Store(start)
	var wg sync.WaitGroup
	errs := make([]error, len(ws))
	errAt := make([]uint64, len(ws))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	cancelled := ctx.Done()
	defer cancel()
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				b := next.Add(1) - 1
				if b >= end {
					return
				}
				if m.Shards > 1 && b%int64(m.Shards) != int64(m.Shard-1) {
					continue // another shard's batch
				}
				lo, hi := b*BatchSize, min((b+1)*BatchSize, m.Deals)
				clear(w.batch)
				for d := lo; d < hi; d++ {
					select {
					case <-cancelled:
						// Cancelled: the unfinished batch is dropped with the round.
						return
					default:
					}
					if err := w.deal(m, uint64(d)); err != nil {
						errs[i], errAt[i] = err, uint64(d)
						cancel()
						return
					}
				}
				for k := range out {
					out[k][b-start] = w.batch[k]
				}
				if done != nil {
					done.Add((hi - lo) * int64(len(m.Orders)))
				}
			}
		}()
	}
	wg.Wait()
	// Stopped from outside: the games' errors are likely its consequences.
	if err := parent.Err(); err != nil {
		return fmt.Errorf("match stopped: %w", err)
	}
	return firstFailure(errs, errAt)
}

// firstFailure returns the error to report of the workers' errors (nil where a worker did not
// fail), errAt giving the index of the game each failed in: a game's own failure before one that
// another game's caused (ErrStopped), and among those, the failing game of lowest index, so that
// the error too does not depend on the number of workers (when the failure is reached at all
// before the others stop).
func firstFailure(errs []error, errAt []uint64) error {
	var first error
	var firstAt uint64
	for i, err := range errs {
		if err == nil {
			continue
		}
		own, firstOwn := !errors.Is(err, ErrStopped), first != nil && !errors.Is(first, ErrStopped)
		if first == nil || (own && !firstOwn) || (own == firstOwn && errAt[i] < firstAt) {
			first, firstAt = err, errAt[i]
		}
	}
	return first
}

// Replay plays deal d of the match again in seat order k, recording it in log, and returns the
// game's outcome (valid until the next call).
func (m *Match) Replay(k int, d uint64, log *Log) (*Outcome, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if k < 0 || k >= len(m.Orders) {
		return nil, fmt.Errorf("seat order %d: the match has %d", k, len(m.Orders))
	}
	g, err := NewGame(m.orderSetup(k))
	if err != nil {
		return nil, err
	}
	id := GameID{Seed: m.Seed, DealStream: m.DealStream, PlayStream: m.playStream(k), Index: d}
	err = g.Play(id, log)
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return g.Outcome(), nil
}

// MergeShards adds up the results of the shards of one match (all of them, each once, shards[i]
// being shard i+1 of len(shards)) into the result of the whole match.
func (m *Match) MergeShards(shards []*Result) (*Result, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("merge: no shard")
	}
	w, err := m.newWorker()
	if err != nil {
		return nil, err
	}
	if err := w.close(); err != nil { // only its tallies are used
		return nil, err
	}
	batches := m.batches()
	out := &Result{Orders: w.tally, Paired: w.paired, Convergence: make([][]Point, len(m.Orders)), NextBatch: batches,
		Streams: m.Streams()}
	points := convergencePoints(batches)
	for k := range out.Convergence {
		out.Convergence[k] = make([]Point, points)
	}
	for i, r := range shards {
		sm := *m
		sm.Shard, sm.Shards = i+1, len(shards)
		if err := sm.CheckResult(r); err != nil {
			return nil, fmt.Errorf("merge: shard %d: %w", i+1, err)
		}
		if r.Stopped || r.NextBatch != batches {
			return nil, fmt.Errorf("merge: shard %d is not finished", i+1)
		}
		for k, t := range r.Orders {
			out.Orders[k].Merge(t)
			for b, x := range r.Convergence[k] {
				o := &out.Convergence[k][b]
				o.Batch, o.Games, o.Sum, o.SumSq = x.Batch, o.Games+x.Games, o.Sum+x.Sum, o.SumSq+x.SumSq
				o.Luck.merge(x.Luck)
			}
		}
		if r.Paired != nil {
			out.Paired.Merge(r.Paired)
		}
		out.Deals += r.Deals
	}
	if out.Deals != m.Deals {
		return nil, fmt.Errorf("merge: the shards hold %d deals, the match has %d", out.Deals, m.Deals)
	}
	return out, nil
}

// batches is the number of batches of BatchSize deals (the last one possibly short) the match's
// deals make.
func (m *Match) batches() int64 { return (m.Deals + BatchSize - 1) / BatchSize }
