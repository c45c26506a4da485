package main

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/report"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// maxPairs is the largest deal size a configuration may ask for.
const maxPairs = 1000

// exactLimit is the largest deal size for which run reports exact values.
const exactLimit = 200

// tournament is a parsed configuration with its players built and its matches laid out.
type tournament struct {
	cfg     *configs.Tournament
	players []strategies.Built
	matches []match
	games   int64       // games in all (at most, with a stopping rule)
	stops   []*stopRule // per match, after play: its stopping rule (nil without one)
}

// match is one sim.Match of the tournament with the names needed to report it.
type match struct {
	sim.Match
	ids []int // tournament player index of each participant
}

func configOptions() configs.Options {
	return configs.Options{Policies: strategies.Names(), Opponents: strategies.OpponentNames(), MaxPairs: maxPairs}
}

// newTournament builds the players of cfg and lays out its matches.
func newTournament(ctx context.Context, cfg *configs.Tournament) (*tournament, error) {
	t := &tournament{cfg: cfg}
	env := strategies.Env{
		MaxPairs:   maxInts(cfg.Rules.Pairs),
		Singletons: cfg.Rules.Singletons,
		Players:    cfg.Rules.PlayersPerGame,
		Pass:       cfg.Rules.Pass,
		Tables:     strategies.NewTables(),
	}
	for _, p := range cfg.Players {
		spec := strategies.Spec{Name: p.Name, Policy: p.Policy, Opponent: p.Opponent, Memory: strategies.MemoryOverride{
			Capacity: p.Memory.Capacity, Forget: p.Memory.Forget, Scope: p.Memory.Scope, Decay: p.Memory.Q,
		}}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			return nil, cfg.At(p.MemoryPos, err)
		}
		t.players = append(t.players, b)
	}
	tuples := seatTuples(len(cfg.Players), cfg.Rules.PlayersPerGame, cfg.Format)
	for ni, n := range cfg.Rules.Pairs {
		var groups [][][]int
		if cfg.Paired {
			groups = pairUp(tuples)
		} else {
			for _, tu := range tuples {
				groups = append(groups, [][]int{tu})
			}
		}
		for gi, orders := range groups {
			// The participants are the players of the first order; the orders refer to them by
			// their place in it.
			ids := orders[0]
			m := match{ids: ids}
			m.Setup = sim.Setup{Pairs: n, Singletons: cfg.Rules.Singletons, Pass: cfg.Rules.Pass}
			for _, id := range ids {
				m.Setup.Players = append(m.Setup.Players, t.players[id].Player)
			}
			for _, o := range orders {
				var local []int
				for _, id := range o {
					for k, x := range ids {
						if x == id {
							local = append(local, k)
						}
					}
				}
				m.Orders = append(m.Orders, local)
			}
			m.Deals = int64(cfg.Games)
			m.Seed = cfg.Seed
			m.DealStream = uint64(ni)<<40 | uint64(gi)<<8
			m.PlayStream = m.DealStream + 1
			if err := m.Validate(); err != nil {
				return nil, fmt.Errorf("%s: %d pairs, players %v: %w", cfg.File, n, ids, err)
			}
			t.matches = append(t.matches, m)
			t.games += m.Deals * int64(len(m.Orders))
		}
	}
	return t, nil
}

func maxInts(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// seatTuples lists the seatings of a tournament of k players with p seats per game: every
// ordered tuple of distinct players (round-robin), or those that include player 0 (gauntlet).
// With one seat, every player plays alone.
func seatTuples(k, p int, format configs.Format) [][]int {
	var out [][]int
	cur := make([]int, 0, p)
	used := make([]bool, k)
	var rec func()
	rec = func() {
		if len(cur) == p {
			if format == configs.Gauntlet && p > 1 && !used[0] {
				return
			}
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := range k {
			if !used[i] {
				used[i] = true
				cur = append(cur, i)
				rec()
				cur = cur[:len(cur)-1]
				used[i] = false
			}
		}
	}
	rec()
	return out
}

// pairUp groups two-seat tuples (a, b) with (b, a), in the order of their first appearance.
func pairUp(tuples [][]int) [][][]int {
	var out [][][]int
	for _, tu := range tuples {
		if tu[0] < tu[1] {
			out = append(out, [][]int{tu, {tu[1], tu[0]}})
		}
	}
	return out
}

// seats returns the tournament player indices of a seat order of the match.
func (m *match) seats(order []int) []int {
	out := make([]int, len(order))
	for i, local := range order {
		out[i] = m.ids[local]
	}
	return out
}

// names returns the names of tournament players, in the order given.
func (t *tournament) names(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.cfg.Players[id].Name
	}
	return out
}

// exactValues evaluates a seating with the exact solver where a model covers it: every seat's
// expected pairs as "p/q" (nil where there is no model), and for one player the expected turns.
type exactKey struct {
	model exact.Model
	mu    exact.Matchup
	n     int
}

type exactCache map[exactKey]*exact.Result[*big.Rat]

// exactModel returns the exact model and matchup of a seating (tournament player indices in seat
// order) at n pairs, and false where the solver has none: every seat must be a player the solver
// can evaluate, all in one shared memory model; the seats after the first must play one policy;
// and a best response is evaluated only against the policy it answers.
func (t *tournament) exactModel(n int, seats []int) (exact.Model, exact.Matchup, bool) {
	var none exact.Model
	for _, id := range seats {
		e := t.players[id].Exact
		if e == nil || n > exactLimit || e.Memory != t.players[seats[0]].Exact.Memory {
			return none, exact.Matchup{}, false
		}
	}
	e0 := t.players[seats[0]].Exact
	mu := exact.Matchup{Players: len(seats), Policy: e0.Policy, Opponent: e0.Policy}
	if len(seats) > 1 {
		e1 := t.players[seats[1]].Exact
		mu.Opponent = e1.Policy
		for _, id := range seats[2:] {
			if t.players[id].Exact.Policy != mu.Opponent {
				return none, exact.Matchup{}, false
			}
		}
		if (mu.Policy == rules.PolicyBestResponse && e0.Opponent != mu.Opponent) ||
			(mu.Opponent == rules.PolicyBestResponse && e1.Opponent != mu.Policy) {
			return none, exact.Matchup{}, false
		}
	}
	model := exact.Model{Pass: t.cfg.Rules.Pass, Memory: e0.Memory, Singletons: t.cfg.Rules.Singletons}
	if model.Validate() != nil || mu.Validate(model) != nil {
		return none, exact.Matchup{}, false
	}
	return model, mu, true
}

func (c exactCache) values(ctx context.Context, t *tournament, n int, seats []int) ([]*string, *string, error) {
	pairs := make([]*string, len(seats))
	model, mu, ok := t.exactModel(n, seats)
	if !ok {
		return pairs, nil, nil
	}
	key := exactKey{model, mu, n}
	res, ok := c[key]
	if !ok {
		st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
		r, err := exact.Evaluate(ctx, field.Rat{}, model, mu, st)
		if err != nil {
			return nil, nil, fmt.Errorf("exact value of %d pairs, %v: %w", n, mu, err)
		}
		res = &r
		c[key] = res
	}
	if len(seats) == 1 {
		s := fmt.Sprint(n)
		pairs[0] = &s
		turns := res.ExpectedTurns.RatString()
		return pairs, &turns, nil
	}
	for i, v := range res.PairsBySeat {
		s := v.RatString()
		pairs[i] = &s
	}
	return pairs, nil, nil
}

// report assembles the run's report from the matches' results.
func (t *tournament) report(ctx context.Context, results []*sim.Result) (*report.Run, error) {
	cfg := t.cfg
	r := &report.Run{
		SchemaVersion: report.SchemaVersion,
		Name:          cfg.Name,
		Seed:          cfg.Seed,
		Games:         cfg.Games,
		Paired:        cfg.Paired,
		Format:        cfg.Format.String(),
		Rules: report.Rules{Pairs: cfg.Rules.Pairs, Singletons: cfg.Rules.Singletons,
			PlayersPerGame: cfg.Rules.PlayersPerGame, Pass: cfg.Rules.Pass.String()},
	}
	for i, b := range t.players {
		p := cfg.Players[i]
		r.Players = append(r.Players, report.Player{Name: p.Name, Policy: p.Policy, Opponent: p.Opponent,
			Memory: b.Player.Memory.String(), Table: b.Table})
	}
	cache := exactCache{}
	for mi, m := range t.matches {
		res := results[mi]
		for k, order := range m.Orders {
			tally := res.Orders[k]
			seats := m.seats(order)
			names := t.names(seats)
			mu := report.Matchup{Pairs: m.Setup.Pairs, Players: names, Games: tally.Games,
				Wins: tally.Wins, Draws: tally.Draws, Losses: tally.Losses, Stalemates: tally.Stalemates}
			for i := range order {
				mo := sharesMoments(tally, i)
				lo, hi := stats.StudentCI(mo, 0.95)
				mu.MeanPairs = append(mu.MeanPairs, mo.Mean)
				mu.StdDev = append(mu.StdDev, mo.StdDev())
				mu.CI95 = append(mu.CI95, [2]float64{lo, hi})
			}
			for i := range order {
				mu.WinCI95 = append(mu.WinCI95, wilson(tally.Wins[i], tally.Games))
				mu.DrawCI95 = append(mu.DrawCI95, wilson(tally.Draws[i], tally.Games))
				mu.LossCI95 = append(mu.LossCI95, wilson(tally.Losses[i], tally.Games))
			}
			turns := stats.MomentsFromSums(tally.Games, tally.TurnSum, tally.TurnSumSq)
			mu.MeanTurns = turns.Mean
			mu.CI95Turns[0], mu.CI95Turns[1] = stats.StudentCI(turns, 0.95)
			var err error
			mu.ExactPairs, mu.ExactTurns, err = cache.values(ctx, t, m.Setup.Pairs, seats)
			if err != nil {
				return nil, err
			}
			if mu.ExactDistribution, err = cache.distribution(ctx, t, m.Setup.Pairs, seats); err != nil {
				return nil, err
			}
			for _, h := range tally.Share {
				mu.ShareCounts = append(mu.ShareCounts, append([]int64(nil), h...))
			}
			mu.Convergence = convergence(res.Batches[k], len(order))
			if res.Stopped && mi < len(t.stops) {
				mu.StoppedEarly = t.stops[mi].reason
			}
			r.Matchups = append(r.Matchups, mu)
		}
		if res.Paired != nil {
			n := m.Setup.Pairs
			// Sum[k]: the first participant's two scores add up to k/2 pairs; its advantage over
			// an even split is k/4 - n/2 pairs per game.
			mo := stats.MomentsFromHistogram(res.Paired.Sum, -2*n, 0.25)
			lo, hi := stats.StudentCI(mo, 0.95)
			// The first participant's scores in the two seat orders, and their per-deal sum.
			a1 := sharesMoments(res.Orders[0], slices.Index(m.Orders[0], 0))
			a2 := sharesMoments(res.Orders[1], slices.Index(m.Orders[1], 0))
			sum := stats.MomentsFromHistogram(res.Paired.Sum, 0, 0.5)
			var vr *float64
			if x := stats.VarianceReduction(a1, a2, sum); !math.IsInf(x, 0) && !math.IsNaN(x) && sum.M2 > 0 {
				vr = &x
			}
			r.Pairings = append(r.Pairings, report.Pairing{Pairs: n,
				Players: [2]string{cfg.Players[m.ids[0]].Name, cfg.Players[m.ids[1]].Name},
				Deals:   res.Paired.Deals, MeanAdvantage: mo.Mean, CI95: [2]float64{lo, hi},
				VarianceReduction: vr})
			if mi < len(t.stops) {
				pr := &r.Pairings[len(r.Pairings)-1]
				pr.SPRT = t.stops[mi].report(pr.Players[0], pr.Players[1])
			}
		}
	}
	if cfg.Rules.PlayersPerGame == 2 && len(cfg.Players) >= 3 {
		for _, n := range cfg.Rules.Pairs {
			r.Comparisons = append(r.Comparisons, t.comparisons(results, n)...)
		}
	}
	if cfg.Rules.PlayersPerGame == 2 && cfg.Format == configs.RoundRobin {
		for _, n := range cfg.Rules.Pairs {
			if rs, ok := ratings(r, n); ok {
				r.Ratings = append(r.Ratings, rs)
			}
		}
	}
	return r, nil
}

// comparisons compares, by Welch's test, every two players' mean pairs per game against the first
// player at n pairs, over the games of both seat orders.
func (t *tournament) comparisons(results []*sim.Result, n int) []report.Comparison {
	// against[p]: player p's scores against player 0.
	against := make([]stats.Moments, len(t.players))
	for mi, m := range t.matches {
		if m.Setup.Pairs != n {
			continue
		}
		for k, order := range m.Orders {
			seats := m.seats(order)
			if len(seats) != 2 || (seats[0] != 0 && seats[1] != 0) {
				continue
			}
			for i, p := range seats {
				if p != 0 {
					against[p].Merge(sharesMoments(results[mi].Orders[k], i))
				}
			}
		}
	}
	var out []report.Comparison
	for a := 1; a < len(t.players); a++ {
		for b := a + 1; b < len(t.players); b++ {
			if against[a].N < 2 || against[b].N < 2 {
				continue
			}
			w := stats.Welch(against[a], against[b])
			if math.IsInf(w.T, 0) {
				continue
			}
			out = append(out, report.Comparison{Pairs: n, Opponent: t.cfg.Players[0].Name,
				A: t.cfg.Players[a].Name, B: t.cfg.Players[b].Name, Diff: w.Diff, T: w.T, DF: w.DF, P: w.P})
		}
	}
	return out
}

// wilson returns the 95% Wilson interval of the rate k/n.
func wilson(k, n int64) [2]float64 {
	lo, hi := stats.Wilson(k, n, 0.95)
	return [2]float64{lo, hi}
}

// ratings fits Bradley-Terry ratings to the two-player games at n pairs: a win counts 1 for the
// winner, a draw half for each. It returns false when they cannot be fitted (a player who never
// won or never lost, say): the maximum-likelihood scores do not exist.
func ratings(r *report.Run, n int) (report.Ratings, bool) {
	index := map[string]int{}
	var names []string
	for _, p := range r.Players {
		index[p.Name] = len(names)
		names = append(names, p.Name)
	}
	wins := make([][]float64, len(names))
	for i := range wins {
		wins[i] = make([]float64, len(names))
	}
	for _, m := range r.Matchups {
		if m.Pairs != n || len(m.Players) != 2 {
			continue
		}
		a, b := index[m.Players[0]], index[m.Players[1]]
		wins[a][b] += float64(m.Wins[0]) + float64(m.Draws[0])/2
		wins[b][a] += float64(m.Wins[1]) + float64(m.Draws[1])/2
	}
	fit, err := stats.BradleyTerry(names, wins, 0.95)
	if err != nil {
		return report.Ratings{}, false
	}
	rs := report.Ratings{Pairs: n}
	for _, f := range fit {
		rs.Players = append(rs.Players, report.Rating{Name: f.Name, Score: f.Score, Lo: f.Lo, Hi: f.Hi})
	}
	return rs, true
}

// distLimit is the largest deal size for which run reports the exact score distribution.
const distLimit = 60

// distribution returns the exact distribution of seat 0's share in a two-player seating, where
// the solver has a model, or nil.
func (c exactCache) distribution(ctx context.Context, t *tournament, n int, seats []int) ([]float64, error) {
	model, mu, ok := t.exactModel(n, seats)
	if !ok || mu.Players != 2 || n > distLimit {
		return nil, nil
	}
	st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
	d, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
	if err != nil {
		return nil, fmt.Errorf("exact distribution of %d pairs, %v: %w", n, mu, err)
	}
	return d.Prob, nil
}

// convergence returns seat 0's running mean pairs per game, in deal order, with its 95% interval,
// after batches 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, ... (each at least a quarter more than the
// last; a batch is sim.BatchSize deals) and after the last.
func convergence(batches []sim.Batch, seats int) []report.ConvergencePoint {
	var out []report.ConvergencePoint
	var games, sum, sumSq int64
	next := int64(1)
	for b, x := range batches {
		games, sum, sumSq = games+x.Games, sum+x.Sum, sumSq+x.SumSq
		if int64(b+1) < next && b != len(batches)-1 {
			continue
		}
		next = max(next+1, next*5/4)
		mo := stats.MomentsFromSums(games, sum, sumSq)
		scale := 1 / float64(seats)
		lo, hi := stats.StudentCI(mo, 0.95)
		out = append(out, report.ConvergencePoint{Games: games, Mean: mo.Mean * scale, Lo: lo * scale, Hi: hi * scale})
	}
	return out
}

// sharesMoments returns the moments of seat i's pairs per game.
func sharesMoments(t *sim.Tally, i int) stats.Moments {
	return stats.MomentsFromHistogram(t.Share[i], 0, 1/float64(t.Seats))
}

// play runs every match, reporting progress to p. With ck not nil it resumes from ck's state
// and keeps it up to date, round by round, for a checkpoint.
func (t *tournament) play(ctx context.Context, workers int, p *progress, ck *checkpointer) ([]*sim.Result, time.Duration, error) {
	start := time.Now()
	var results []*sim.Result
	t.stops = nil
	var from checkpoint
	if ck != nil {
		from = ck.state
		ck.state.Done, ck.state.Current = nil, nil
	}
	for i := range t.matches {
		m := &t.matches[i]
		rule, err := newStopRule(t.cfg.Stop, &m.Match)
		if err != nil {
			return nil, 0, err
		}
		opts := sim.PlayOptions{Workers: workers, Done: p.done}
		if rule != nil {
			opts.Stop = rule.done
		}
		if ck != nil {
			opts.Round = ck.round
		}
		var res *sim.Result
		orders := int64(len(m.Orders))
		if i < len(from.Done) {
			res = from.Done[i] // finished before the checkpoint
			p.done.Add(res.Deals * orders)
		} else {
			if i == len(from.Done) && from.Current != nil {
				opts.From = from.Current // under way at the checkpoint
				p.done.Add(opts.From.Deals * orders)
			}
			if res, err = m.PlayWith(ctx, opts); err != nil {
				return nil, 0, err
			}
		}
		if res.Stopped && rule != nil && rule.reason == "" {
			rule.done(res) // a match that stopped before the checkpoint: say why again
		}
		if ck != nil {
			ck.matchDone(res)
		}
		results = append(results, res)
		t.stops = append(t.stops, rule)
	}
	return results, time.Since(start), nil
}
