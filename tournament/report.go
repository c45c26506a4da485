package tournament

import (
	"context"
	"math"
	"math/big"
	"slices"

	"memsim/analysis/report"
	"memsim/analysis/stats"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
)

// Report assembles the report data of a run from its results: per seat order and deal size, the
// means with Student-t intervals, Wilson intervals of win, draw and loss rates, exact values and
// distributions where the solver has a model, score counts and the convergence of seat 0's mean;
// per pairing of paired deals, the advantage, its interval, the variance reduction and the
// sequential test; Welch's comparisons against the first player and Bradley-Terry ratings. Each
// matchup is judged (report.Run.Judge), and the run is sealed (report.Seal) with the hash of its
// configuration (ResultsConfigHash).
func (t *Tournament) Report(ctx context.Context, res *MatchResults) (*report.Run, error) {
	cfg := t.Config
	r := &report.Run{
		SchemaVersion: report.SchemaVersion,
		Name:          cfg.Name,
		Seed:          cfg.Seed,
		Games:         cfg.Games,
		Paired:        cfg.Paired,
		Format:        cfg.Format.String(),
		Rules:         t.reportRules(),
		Players:       t.reportPlayers(),
	}
	for i, b := range t.Players {
		if b.External != nil {
			proc, err := processRecord(b.External)
			if err != nil {
				return nil, err
			}
			r.Players[i].Process = proc
		}
	}
	cache := exactCache{}
	for mi, m := range t.Matches {
		mr := res.Matches[mi]
		var rule *stopRule
		if mi < len(res.stops) {
			rule = res.stops[mi]
		}
		for k, order := range m.Orders {
			mu, err := t.matchup(ctx, cache, &m, k, order, mr)
			if err != nil {
				return nil, err
			}
			if mr.Stopped && rule != nil {
				mu.StoppedEarly = rule.reason
			}
			r.Matchups = append(r.Matchups, mu)
		}
		if mr.Paired != nil {
			p := t.pairing(&m, mr)
			p.SPRT = rule.report(p.Players[0], p.Players[1])
			r.Pairings = append(r.Pairings, p)
		}
	}
	if cfg.Rules.PlayersPerGame == 2 && len(cfg.Players) >= 3 {
		for _, n := range cfg.Rules.Pairs {
			r.Comparisons = append(r.Comparisons, t.comparisons(res, n)...)
		}
	}
	if cfg.Rules.PlayersPerGame == 2 && cfg.Format == configs.RoundRobin {
		for _, n := range cfg.Rules.Pairs {
			if rs, ok := ratings(r, n); ok {
				r.Ratings = append(r.Ratings, rs)
			}
		}
	}
	r.Judge()
	if err := report.Seal(r, ResultsConfigHash(cfg)); err != nil {
		return nil, err
	}
	return r, nil
}

// reportRules returns the rules of the configuration as a report describes them.
func (t *Tournament) reportRules() report.Rules {
	r := t.Config.Rules
	rr := report.Rules{Pairs: r.Pairs, Singletons: r.Singletons, PlayersPerGame: r.PlayersPerGame, Pass: r.Pass.String(),
		TurnLimit: r.Variant.TurnLimit}
	if c := r.Variant.CopiesOf(); c != rules.DefaultCopies {
		rr.Copies = c
	}
	if r.Variant.Flips != rules.FlipsSequential {
		rr.Flips = r.Variant.Flips.String()
	}
	return rr
}

// reportPlayers returns the players of the tournament as a report describes them.
func (t *Tournament) reportPlayers() []report.Player {
	var out []report.Player
	for i, b := range t.Players {
		p := t.Config.Players[i]
		rp := report.Player{Name: p.Name, Policy: p.Policy, Opponent: p.Opponent,
			Memory: b.Player.Memory.String(), Table: b.Table}
		if b.External != nil {
			rp.Policy = strategies.ExternalPolicy
		}
		if b.Player.Forfeit {
			rp.OnError = report.OnErrorForfeit
		}
		if p.Choices != nil && !p.Choices.Full() {
			rp.Choices = p.Choices.String()
		}
		out = append(out, rp)
	}
	return out
}

// matchup reports seat order k of match m.
func (t *Tournament) matchup(ctx context.Context, cache exactCache, m *Match, k int, order []int, mr *sim.Result) (report.Matchup, error) {
	tally := mr.Orders[k]
	seats := m.Seats(order)
	mu := report.Matchup{Pairs: m.Setup.Pairs, Players: t.Names(seats), Games: tally.Games,
		Wins: tally.Wins, Draws: tally.Draws, Losses: tally.Losses, Stalemates: tally.Stalemates, TurnLimited: tally.TurnLimited}
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
	if mu.ExactPairs, mu.ExactTurns, err = cache.values(ctx, t, m.Setup.Pairs, seats); err != nil {
		return mu, err
	}
	if mu.ExactDistribution, err = t.distribution(ctx, m.Setup.Pairs, seats); err != nil {
		return mu, err
	}
	for _, h := range tally.Share {
		mu.ShareCounts = append(mu.ShareCounts, append([]int64(nil), h...))
	}
	mu.Convergence = convergence(mr.Convergence[k], tally, len(order))
	mu.LuckAdjusted = luckAdjusted(m.LuckReference, tally, m.Setup.Variant.TurnLimit > 0, largestAdvantages(m.Setup, order, m.Setup.Pairs))
	mu.Faults = faults(m, order, tally)
	return mu, nil
}

// pairing reports the paired deals of a two-player match.
func (t *Tournament) pairing(m *Match, mr *sim.Result) report.Pairing {
	n := m.Setup.Pairs
	counts, offset, scale := pairAdvantages(mr.Paired)
	mo := stats.MomentsFromHistogram(counts, offset, scale)
	lo, hi := stats.StudentCI(mo, 0.95)
	var vr *float64
	if mr.Paired.Lead == nil {
		// The first participant's scores in the two seat orders, and their per-deal sum (under a
		// turn limit the seat orders' tallies do not hold each game's lead, and there is none).
		a1 := sharesMoments(mr.Orders[0], slices.Index(m.Orders[0], 0))
		a2 := sharesMoments(mr.Orders[1], slices.Index(m.Orders[1], 0))
		sum := stats.MomentsFromHistogram(mr.Paired.Sum, 0, 0.5)
		if x := stats.VarianceReduction(a1, a2, sum); !math.IsInf(x, 0) && !math.IsNaN(x) && sum.M2 > 0 {
			vr = &x
		}
	}
	return report.Pairing{Pairs: n,
		Players: [2]string{t.Config.Players[m.IDs[0]].Name, t.Config.Players[m.IDs[1]].Name},
		Deals:   mr.Paired.Deals, MeanAdvantage: mo.Mean, CI95: [2]float64{lo, hi},
		VarianceReduction: vr, LuckAdjusted: pairingLuck(mr.Paired, pairingSwing(&m.Match))}
}

// comparisons compares, by Welch's test, every two players' mean pairs per game against the first
// player at n pairs, over the games of both seat orders.
func (t *Tournament) comparisons(res *MatchResults, n int) []report.Comparison {
	// against[p]: player p's scores against player 0.
	against := make([]stats.Moments, len(t.Players))
	for mi, m := range t.Matches {
		if m.Setup.Pairs != n {
			continue
		}
		for k, order := range m.Orders {
			seats := m.Seats(order)
			if len(seats) != 2 || (seats[0] != 0 && seats[1] != 0) {
				continue
			}
			for i, p := range seats {
				if p != 0 {
					against[p].Merge(sharesMoments(res.Matches[mi].Orders[k], i))
				}
			}
		}
	}
	var out []report.Comparison
	for a := 1; a < len(t.Players); a++ {
		for b := a + 1; b < len(t.Players); b++ {
			if against[a].N < 2 || against[b].N < 2 {
				continue
			}
			w := stats.Welch(against[a], against[b])
			if math.IsInf(w.T, 0) {
				continue
			}
			out = append(out, report.Comparison{Pairs: n, Opponent: t.Config.Players[0].Name,
				A: t.Config.Players[a].Name, B: t.Config.Players[b].Name, Diff: w.Diff, T: w.T, DF: w.DF, P: w.P})
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

// convergence returns seat 0's running mean pairs per game, in deal order, with its 95% interval,
// raw and, where the games have luck sums, luck-adjusted (fitted to the games so far), at the
// points the match recorded (after batches 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, ...: each at least
// a quarter more than the last; a batch is sim.BatchSize deals) and after the last batch.
func convergence(points []sim.Point, t *sim.Tally, seats int) []report.ConvergencePoint {
	var out []report.ConvergencePoint
	scale := 1 / float64(seats)
	add := func(p sim.Point) {
		mo := stats.MomentsFromSums(p.Games, p.Sum, p.SumSq)
		lo, hi := stats.StudentCI(mo, 0.95)
		cp := report.ConvergencePoint{Games: p.Games, Mean: mo.Mean * scale, Lo: lo * scale, Hi: hi * scale}
		if t.Luck != nil {
			fit := stats.FitLuck(stats.LuckSums{N: p.Games, X: big.NewInt(p.Sum), XX: big.NewInt(p.SumSq),
				L: p.Luck.Sum.Big(), LL: p.Luck.SumSq.Big(), XL: p.Luck.SumShare.Big(), XUnit: scale, LUnit: sim.LuckUnit})
			alo, ahi := stats.StudentCI(fit.Adjusted, 0.95)
			cp.Adjusted = &report.RunningMean{Mean: fit.Adjusted.Mean, Lo: alo, Hi: ahi}
		}
		out = append(out, cp)
	}
	for _, p := range points {
		add(p)
	}
	if len(points) == 0 || points[len(points)-1].Games != t.Games {
		add(t.Seat0Sums())
	}
	return out
}

// faults returns the fault counts of the seats of a seat order, when some seat's player forfeits
// at a fault (nil otherwise).
func faults(m *Match, order []int, t *sim.Tally) []report.Faults {
	if !slices.ContainsFunc(order, func(p int) bool { return m.Setup.Players[p].Forfeit }) {
		return nil
	}
	out := make([]report.Faults, len(order))
	for i, f := range t.Faults {
		out[i] = report.Faults{Crashes: f.Crash, Timeouts: f.Timeout, Illegal: f.Illegal, Forfeits: f.Forfeits()}
	}
	return out
}

// sharesMoments returns the moments of seat i's pairs per game.
func sharesMoments(t *sim.Tally, i int) stats.Moments {
	return stats.MomentsFromHistogram(t.Share[i], 0, 1/float64(t.Seats))
}

// processRecord describes a player process for the results: its handshake (a process is started
// for it if none has been), its command and the hashes of its files.
func processRecord(x *external.Player) (*report.Process, error) {
	info, err := x.Hello()
	if err != nil {
		return nil, err
	}
	files, err := x.Files()
	if err != nil {
		return nil, err
	}
	p := &report.Process{Name: info.Name, Version: info.Version, View: info.View, Command: x.Command().Argv}
	for _, f := range files {
		p.Files = append(p.Files, report.FileHash{Path: f.Path, SHA256: f.SHA256})
	}
	return p, nil
}
