package audit

import (
	"context"
	"fmt"
	"math"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The bounded-memory study of taulantkoka/memory-game (TK-...): Zwick & Paterson's game (pass rule
// two-known, choices daring, safe and pass) with lru memories, shared, private of different
// capacities, and its "Zwick" player, the perfect-memory optimum played with lru memory.

// PeerChoices is the choice set of that study: Zwick & Paterson's 0-, 1- and 2-moves.
var PeerChoices = rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)

// peerModel is its shared lru model of capacity m (m = 0: perfect memory).
func peerModel(m int) exact.Model {
	md := exact.Model{Pass: rules.PassTwoKnown, Choices: PeerChoices}
	if m > 0 {
		md.Memory = rules.Memory{Capacity: m, Forget: rules.ForgetLRU}
	}
	return md
}

// The grids of the study: the capacities of its strategy tables, its deal sizes for the value of a
// slot, and the capacities whose slot it values.
const peerMaxN = 40

func peerCaps() []int      { return []int{3, 5, 7, 9, 12, 20} }
func peerSlotSizes() []int { return []int{8, 12, 16, 24} }
func peerSlotCaps() []int  { return []int{3, 4, 5, 6, 7, 8, 9, 10, 12, 15} }

// AuditPeer checks the study's findings, exactly where memsim has the model (TK-GREEDY,
// TK-TWO-NEW, TK-ZWICK, TK-SLOT) and by simulation where it does not (TK-WIN, a rate of wins;
// TK-FLUCT, a fluctuating capacity).
// games is the number of games of the simulation, of which it plays at most peerWinGames per seat
// order.
func AuditPeer(ctx context.Context, sim Simulator, games int64) []Finding {
	return []Finding{peerGreedy(ctx), peerTwoNew(ctx), peerZwick(ctx), peerSlot(ctx), peerWin(ctx, sim, min(games, peerWinGames)),
		peerFluctuation(ctx, sim, min(games, peerWinGames))}
}

// peerWinGames bounds the games of TK-WIN's simulation per seat order: a rate of wins is known to
// half a percentage point from 20,000 games, and the players' private memories keep them off the
// engine's lean paths.
const peerWinGames = 20000

// peerLeads returns the mover's optimal lead e(n, j) in every state of the shared lru(m) model of
// the study with n <= maxN, indexed [n][j].
func peerLeads(ctx context.Context, m, maxN int, visit func(*exact.TableCell[float64])) ([][]float64, error) {
	e := make([][]float64, maxN+1)
	for n := range e {
		e[n] = make([]float64, n+1)
	}
	err := exact.Table(ctx, field.Float{}, peerModel(m), maxN, func(c *exact.TableCell[float64]) error {
		e[c.State.N][c.State.J] = 2*c.Value - float64(c.State.N)
		if visit != nil {
			visit(c)
		}
		return nil
	})
	return e, err
}

// peerGreedy checks TK-GREEDY: taking a pair known whole at once is optimal. With a known pair in
// (n, j), taking it is worth 1 + e(n-1, j); any other move hands the pair to the other seat, which
// takes it when that is worth 1 + e(n-1, j) >= 0 to it, and otherwise passes too (a stalemate,
// worth 0). Playing a move instead gains nothing over taking first (it only adds the chance of
// handing the pair over); passing gains when 1 + e(n-1, j) < 0. So greedy matching is optimal
// exactly when 1 + e(n-1, j) >= 0 in every state.
func peerGreedy(ctx context.Context) Finding {
	fd := Finding{ID: "TK-GREEDY", Claim: "taking a pair known whole at once is optimal (shared lru memory)",
		Published: "greedy matching is strictly optimal; 1 + e(n-1, k-2) > 0 in every relevant state"}
	worst, at := math.Inf(1), ""
	for _, m := range peerCaps() {
		e, err := peerLeads(ctx, m, peerMaxN, nil)
		if err != nil {
			fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
			return fd
		}
		for n := 0; n < peerMaxN; n++ {
			for j := max(0, n-m); j <= n; j++ {
				if v := 1 + e[n][j]; v < worst {
					worst, at = v, fmt.Sprintf("lru(%d), (n, j) = (%d, %d)", m, n, j)
				}
			}
		}
	}
	fd.Exact = fmt.Sprintf("the least 1 + e(n, j) over n < %d, every j, m in %v: %.4f, at %s", peerMaxN, peerCaps(), worst, at)
	if worst > 0 {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("taking is worth more than any deferral in every state with n <= %d, m in %v (least margin %.4f)", peerMaxN, peerCaps(), worst)
	} else {
		fd.Verdict, fd.Reason = Refuted, "passing with the pair is worth more where 1 + e < 0: "+at
	}
	return fd
}

// peerTwoNew checks TK-TWO-NEW: with bounded memory (m = 5 .. 9) and n >= 16, the optimal move
// flips two unknown cards (daring) only when at most one card is remembered (k <= 1), and never
// passes. (Where k = 1 it may flip one: the claim says when two are flipped, not that they are.)
func peerTwoNew(ctx context.Context) Finding {
	fd := Finding{ID: "TK-TWO-NEW", Claim: "flip two unknown cards only when k <= 1, and never pass (m = 5..9, n >= 16)",
		Published: "the optimal strategy: flip two new cards only at the very start; once you know a few positions, flip only one; never pass"}
	var daringLate, passes []string
	states, safeOne, one := 0, 0, 0
	for m := 5; m <= 9; m++ {
		_, err := peerLeads(ctx, m, peerMaxN, func(c *exact.TableCell[float64]) {
			k := c.State.N - c.State.J
			if c.State.N < 16 {
				return
			}
			states++
			at := fmt.Sprintf("lru(%d) (n=%d, k=%d)", m, c.State.N, k)
			switch {
			case c.Choice == rules.Pass:
				passes = append(passes, at)
			case c.Choice == rules.Daring && k >= 2:
				daringLate = append(daringLate, at)
			}
			if k == 1 {
				one++
				if c.Choice == rules.Safe {
					safeOne++
				}
			}
		})
		if err != nil {
			fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
			return fd
		}
	}
	fd.Exact = fmt.Sprintf("%d states (n = 16..%d, m = 5..9): daring with k >= 2 in %d, pass in %d; with k = 1, safe in %d of %d",
		states, peerMaxN, len(daringLate), len(passes), safeOne, one)
	if len(daringLate)+len(passes) == 0 {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("in all %d states daring is chosen only with k <= 1, and pass never", states)
		return fd
	}
	fd.Verdict = Refuted
	var parts []string
	if len(daringLate) > 0 {
		parts = append(parts, fmt.Sprintf("daring with k >= 2 in %d of %d states (%s)", len(daringLate), states, strings.Join(daringLate[:min(3, len(daringLate))], ", ")))
	}
	if len(passes) > 0 {
		parts = append(parts, fmt.Sprintf("pass in %d (%s)", len(passes), strings.Join(passes[:min(3, len(passes))], ", ")))
	} else {
		parts = append(parts, "never pass holds")
	}
	fd.Reason = strings.Join(parts, "; ")
	return fd
}

// peerZwick checks TK-ZWICK: with lru(7) memories at n = 36, the bounded-memory optimum gains about
// 3 pairs over Zwick & Paterson's (perfect-memory) strategy played with the same memory, each
// reading its table at the memory's count state. "About": within half a pair, over both seat
// orders.
func peerZwick(ctx context.Context) Finding {
	const n, m = 36, 7
	fd := Finding{ID: "TK-ZWICK", Claim: "at n = 36, lru(7), the bounded optimum gains about 3 pairs over Zwick's strategy",
		Published: "the bounded-memory player gains about 3 full pairs over a Zwick opponent at n = 36"}
	f := field.Float{}
	bounded, err := exact.PolicyTable(ctx, f, peerModel(m), exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, n)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
		return fd
	}
	zwick, err := exact.PolicyTable(ctx, f, peerModel(0), exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, n)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
		return fd
	}
	st := rules.State{N: n, J: n}
	var lead [2]float64
	for k, mu := range []exact.Lineup{{Players: 2, Table: bounded, OpponentTable: zwick}, {Players: 2, Table: zwick, OpponentTable: bounded}} {
		res, err := exact.Evaluate(ctx, f, peerModel(m), mu, st)
		if err != nil {
			fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
			return fd
		}
		lead[k] = res.ExpectedLead
	}
	gain := (lead[0] - lead[1]) / 2
	fd.Exact = fmt.Sprintf("the bounded optimum's expected lead: %.4f moving first, %.4f moving second, %.4f on average", lead[0], -lead[1], gain)
	if math.Abs(gain-3) <= 0.5 {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the exact gain is %.2f pairs", gain)
	} else {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("the exact gain is %.2f pairs, not within half a pair of 3", gain)
	}
	return fd
}

// peerSlot checks TK-SLOT: one memory slot is worth 50 to 100 times more than moving first. The
// slot: the mean of lru(M+1)'s expected lead against lru(M) moving first and moving second; the
// position: the expected lead of moving first with lru(M) both (docs/models.md §4.15, where the
// whole table is). It is judged at the study's sizes and capacities where both capacities are
// below n (from M = n on both memories are perfect and the slot is worth nothing).
func peerSlot(ctx context.Context) Finding {
	fd := Finding{ID: "TK-SLOT", Claim: "one memory slot is worth 50-100 times more than moving first",
		Published: "a single extra memory slot is worth 50-100x more than the positional advantage (about 0.03 pairs; a slot 1-4 pairs)"}
	f := field.Float{}
	var ratios []float64
	var inRange, below int
	lo, hi := math.Inf(1), 0.0
	var loAt, hiAt string
	var rows []string
	for _, n := range peerSlotSizes() {
		for _, m := range peerSlotCaps() {
			if m+1 >= n {
				continue
			}
			var lead [2]float64
			for k, caps := range [][2]int{{m + 1, m}, {m, m + 1}} {
				u := exact.Unequal{Pass: rules.PassTwoKnown, Choices: PeerChoices, Capacity: caps,
					Policy: [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}}
				res, err := exact.EvaluateUnequal(ctx, f, u, n)
				if err != nil {
					fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
					return fd
				}
				lead[k] = res.ExpectedLead
			}
			pos, err := exact.Evaluate(ctx, f, peerModel(m), exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, rules.State{N: n, J: n})
			if err != nil {
				fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
				return fd
			}
			slot, first := (lead[0]-lead[1])/2, pos.ExpectedLead
			r := slot / math.Abs(first)
			ratios = append(ratios, r)
			at := fmt.Sprintf("n = %d, M = %d", n, m)
			if r < lo {
				lo, loAt = r, at
			}
			if r > hi {
				hi, hiAt = r, at
			}
			switch {
			case r >= 50 && r <= 100:
				inRange++
			case r < 50:
				below++
			}
			rows = append(rows, fmt.Sprintf("| %d | %d | %.3f | %+.4f | %s |", n, m, slot, first, ratioString(r)))
		}
	}
	fd.Exact = fmt.Sprintf("the slot is %.0f to %s times moving first (%s; %s); within 50-100 at %d of %d points, below 50 at %d",
		lo, ratioString(hi), loAt, hiAt, inRange, len(ratios), below)
	fd.Detail = "| n | M | one slot | moving first | ratio |\n|---:|---:|---:|---:|---:|\n" + strings.Join(rows, "\n") + "\n"
	if inRange == len(ratios) {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the ratio is within 50-100 at every point (%.0f to %.0f)", lo, hi)
		return fd
	}
	fd.Verdict = Refuted
	fd.Reason = fmt.Sprintf("the slot is worth more than moving first at every point, but %.0f to %s times, within 50-100 at %d of %d points",
		lo, ratioString(hi), inRange, len(ratios))
	return fd
}

// ratioString formats a ratio, or "over 10000" for a position worth next to nothing.
func ratioString(r float64) string {
	if r > 1e4 {
		return "over 10000"
	}
	return fmt.Sprintf("%.0f", r)
}

// peerWin checks TK-WIN by simulation (memsim's unequal model gives expectations, not the
// distribution of scores): at n = 24 an lru(9) player beats an lru(7) one roughly 80% of the time
// whoever moves first; "roughly": within five percentage points.
func peerWin(ctx context.Context, sim Simulator, games int64) Finding {
	const n = 24
	fd := Finding{ID: "TK-WIN", Claim: "at n = 24, lru(9) beats lru(7) roughly 80% of the time, whoever moves first",
		Published: "a player with M = 9 beats a player with M = 7 roughly 80% of the time, regardless of who goes first"}
	var lead [2]float64
	for k, caps := range [][2]int{{9, 7}, {7, 9}} {
		u := exact.Unequal{Pass: rules.PassTwoKnown, Choices: PeerChoices, Capacity: caps, Policy: [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}}
		res, err := exact.EvaluateUnequal(ctx, field.Float{}, u, n)
		if err != nil {
			fd.Verdict, fd.Reason = Inconclusive, "the solver failed: "+err.Error()
			return fd
		}
		lead[k] = res.ExpectedLead
	}
	fd.Exact = fmt.Sprintf("lru(9)'s expected lead: %.4f moving first, %.4f moving second (no exact win rate)", lead[0], -lead[1])
	if sim == nil || games <= 0 {
		fd.Verdict, fd.Reason = Inconclusive, "a rate of wins has no exact model here, and no simulation was run"
		return fd
	}
	rate, hw, err := sim.LRUWins(ctx, n, [2]int{9, 7}, games)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the simulation failed: "+err.Error()
		return fd
	}
	fd.Simulated = fmt.Sprintf("lru(9) wins %s moving first, %s moving second (%d games each)", simString(rate[0], hw[0]), simString(rate[1], hw[1]), games)
	// Within five points: the 95% interval meets 75-85%.
	near := func(k int) bool { return rate[k]+hw[k] >= 0.75 && rate[k]-hw[k] <= 0.85 }
	if near(0) && near(1) {
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the simulated rates, %.1f%% and %.1f%%, are within 5 points of 80%%", 100*rate[0], 100*rate[1])
	} else {
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("the simulated rates are %.1f%% moving first and %.1f%% moving second, 95%% intervals beyond 75-85%%", 100*rate[0], 100*rate[1])
	}
	return fd
}

// peerFluctuation checks TK-FLUCT by simulation (a private fluctuating capacity has no exact model): at
// n = 36 with capacity 7 fluctuating by 5 (2 to 12 from turn to turn), the bounded optimum still
// gains 2 pairs or more over Zwick's strategy. Confirmed when the 95% interval of the gain lies
// above 2, refuted when it lies below, inconclusive otherwise.
func peerFluctuation(ctx context.Context, sim Simulator, games int64) Finding {
	const n, m, sigma = 36, 7, 5
	fd := Finding{ID: "TK-FLUCT", Claim: "at n = 36, capacity 7 ± 5 each turn, the bounded optimum still gains 2 pairs or more over Zwick's strategy",
		Published: "even at σ = 5 (capacity between 2 and 12 each turn) the bounded-memory player gains 2+ pairs over a Zwick opponent on large boards",
		Exact:     "no exact model for a fluctuating capacity (with a fixed lru(7): TK-ZWICK)"}
	if sim == nil || games <= 0 {
		fd.Verdict, fd.Reason = Inconclusive, "a private fluctuating capacity has no exact model, and no simulation was run"
		return fd
	}
	gain, hw, err := sim.FluctuationGain(ctx, n, m, sigma, games)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the simulation failed: "+err.Error()
		return fd
	}
	fd.Simulated = fmt.Sprintf("the bounded optimum's mean lead: %s (%d games in each seat order)", simString(gain, hw), games)
	fd.Detail = "Each memory draws its capacity at the start of its own seat's turns, max(2, 7 + d), d uniform on -5 .. 5, " +
		"forgetting its least recently seen cards beyond it. Both players read their tables at their own memory's count state: " +
		"Zwick's strategy the perfect-memory table, which covers every state; the bounded optimum the lru(7) table, taking where " +
		"more than 7 cards are remembered the choice of 7 (the study's code falls back to flipping two unknown cards there).\n"
	switch {
	case gain-hw > 2:
		fd.Verdict, fd.Reason = Confirmed, fmt.Sprintf("the simulated gain is %.2f pairs, its 95%% interval above 2", gain)
	case gain+hw < 2:
		fd.Verdict, fd.Reason = Refuted, fmt.Sprintf("the simulated gain is %.2f pairs, its 95%% interval below 2", gain)
	default:
		fd.Verdict, fd.Reason = Inconclusive, fmt.Sprintf("the simulated gain is %.2f pairs, its 95%% interval meets 2", gain)
	}
	return fd
}
