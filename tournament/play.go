package tournament

import (
	"context"
	"sync/atomic"
	"time"

	"memsim/configs"
	"memsim/sim"
)

// Options tune Play.
type Options struct {
	// Workers is the number of goroutines (0: one per CPU). It does not change the results.
	Workers int
	// Progress, when not nil, is increased by the number of games played as batches complete
	// (and, on resuming, at once by the games the checkpoint holds).
	Progress *atomic.Int64
	// Resume, when not nil, is the state of an interrupted run of this tournament (see
	// Checkpoint): its finished matches and rounds are not played again, and the results equal
	// those of an uninterrupted run.
	Resume *Checkpoint
	// Match, when not nil, is called before each match (on the goroutine that called Play) with
	// its index in Tournament.Matches and the games of it a resumed checkpoint already holds, so
	// that a progress report can tell the match's own pace.
	Match func(index int, resumed int64)
	// Checkpoint, when not nil, is called with the run's state before play, after every round of
	// deals (sim.RoundBatches batches) and after every finished match, on the goroutine that
	// called Play.
	// The *Checkpoint is the same every time and is updated in place until Play returns; when
	// Play is cancelled, its last state is the one to resume from. An error it returns ends Play
	// with that error.
	Checkpoint func(*Checkpoint) error
}

// MatchResults are what a tournament's matches produced (each a sim.Result, in the order of
// Tournament.Matches): what Play returns, Merge puts together from shards and Report turns into
// the run's record, a report.Run.
type MatchResults struct {
	Matches []*sim.Result
	// Elapsed is the time Play took.
	Elapsed time.Duration
	// stops holds each match's stopping rule after play (nil without one), for the report.
	stops []*stopRule
}

// Games returns the games the results hold: every seat order's games of every match (fewer than
// the configuration's where a stopping rule ended a match early).
func (r *MatchResults) Games() int64 {
	var n int64
	for _, m := range r.Matches {
		for _, t := range m.Orders {
			n += t.Games
		}
	}
	return n
}

// PlayerFaults are the faults of one player that forfeits at a fault (on_error: forfeit): the
// games it forfeited, by the kind of fault, over every match.
type PlayerFaults struct {
	Name string
	sim.FaultCounts
}

// Faults returns the faults of every player that forfeits at a fault, in the order of the
// configuration's players; none when no player does.
func (t *Tournament) Faults(r *MatchResults) []PlayerFaults {
	var out []PlayerFaults
	index := map[int]int{} // tournament player -> its entry of out
	for id, b := range t.Players {
		if b.Player.Forfeit {
			index[id] = len(out)
			out = append(out, PlayerFaults{Name: t.Config.Players[id].Name})
		}
	}
	for mi, mr := range r.Matches {
		m := &t.Matches[mi]
		for k, tally := range mr.Orders {
			for i, f := range tally.Faults {
				if j, ok := index[m.IDs[m.Orders[k][i]]]; ok {
					out[j].Crash += f.Crash
					out[j].Timeout += f.Timeout
					out[j].Illegal += f.Illegal
				}
			}
		}
	}
	return out
}

// Play plays every match of the tournament, in order. With a stopping rule in the configuration,
// a match may end before its games are all played, at the same deal on any number of workers.
// When ctx is cancelled it returns an error wrapping ctx's error after the batches under way.
func (t *Tournament) Play(ctx context.Context, o Options) (*MatchResults, error) {
	// A player process may take up to its time per move to answer: when ctx is done, its
	// processes are stopped, which ends every wait for them at once.
	defer context.AfterFunc(ctx, t.killProcesses)()
	start := time.Now()
	res := &MatchResults{}
	var from Checkpoint
	if o.Resume != nil {
		from = *o.Resume
	}
	state := t.newCheckpoint()
	state.Done = append([]*sim.Result(nil), from.Done...)
	state.Current = from.Current
	if o.Checkpoint != nil {
		if err := o.Checkpoint(state); err != nil {
			return nil, err
		}
	}
	for i := range t.Matches {
		m := &t.Matches[i]
		rule, err := newStopRule(t.Config.Stop, &m.Match)
		if err != nil {
			return nil, err
		}
		var r *sim.Result
		orders := int64(len(m.Orders))
		if i < len(from.Done) {
			r = from.Done[i] // finished before the checkpoint
			o.progress(r.Deals * orders)
			if o.Match != nil {
				o.Match(i, r.Deals*orders)
			}
		} else {
			opts := sim.PlayOptions{Workers: t.matchWorkers(m, o.Workers), Done: o.Progress}
			if rule != nil {
				opts.Stop = rule.done
			}
			if o.Checkpoint != nil {
				opts.Round = func(r *sim.Result) error {
					state.Current = r
					return o.Checkpoint(state)
				}
			}
			var resumed int64
			if i == len(from.Done) && from.Current != nil {
				opts.From = from.Current // under way at the checkpoint
				resumed = opts.From.Deals * orders
				o.progress(resumed)
			}
			if o.Match != nil {
				o.Match(i, resumed)
			}
			if r, err = m.PlayWith(ctx, opts); err != nil {
				return nil, err
			}
			state.Done = append(state.Done, r)
			state.Current = nil
			if o.Checkpoint != nil {
				if err := o.Checkpoint(state); err != nil {
					return nil, err
				}
			}
		}
		if r.Stopped && rule != nil && rule.reason == "" {
			rule.done(r) // a match that stopped before the checkpoint: say why again
		}
		res.Matches = append(res.Matches, r)
		res.stops = append(res.stops, rule)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// progress adds games to the progress count, if any.
func (o *Options) progress(games int64) {
	if o.Progress != nil {
		o.Progress.Add(games)
	}
}

// matchWorkers returns the goroutines that play match m for the given workers (0: one per CPU):
// as many, times the most games in flight of the match's player processes, so that each worker
// keeps that many games in flight with a process it shares with others. The results do not
// depend on it.
func (t *Tournament) matchWorkers(m *Match, workers int) int {
	inFlight := 1
	for _, id := range m.IDs {
		if x := t.Config.Players[id].External; x != nil {
			inFlight = max(inFlight, x.GamesInFlight)
		}
	}
	return min(sim.Workers(workers)*inFlight, MaxWorkers*configs.MaxGamesInFlight)
}
