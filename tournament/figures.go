package tournament

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/plots"
	"memsim/analysis/report"
	"memsim/sim/rules"
	"memsim/strategies"
)

// sizeGroups returns the indices of the matchups of r with convergence points, grouped by deal
// size in the order of r.Rules.Pairs, each group in the order of results.json.
func sizeGroups(r *report.Run) (sizes []int, groups [][]int) {
	for _, n := range r.Rules.Pairs {
		var g []int
		for i, m := range r.Matchups {
			if m.Pairs == n && len(m.Convergence) > 0 {
				g = append(g, i)
			}
		}
		if len(g) > 0 {
			sizes, groups = append(sizes, n), append(groups, g)
		}
	}
	return sizes, groups
}

// parts splits the matchups of one deal size into figures of at most plots.MaxPanels panels,
// of sizes as equal as they can be.
func parts(matchups []int) [][]int {
	k := (len(matchups) + plots.MaxPanels - 1) / plots.MaxPanels
	var out [][]int
	for i := range k {
		out = append(out, matchups[i*len(matchups)/k:(i+1)*len(matchups)/k])
	}
	return out
}

// partName returns the name and title suffix of part i of k of a figure named base.
func partName(base string, i, k int) (name, suffix string) {
	if k == 1 {
		return base, ""
	}
	if i == 0 {
		return base, fmt.Sprintf(" (%d of %d)", i+1, k)
	}
	return fmt.Sprintf("%s-%d", base, i+1), fmt.Sprintf(" (%d of %d)", i+1, k)
}

// withoutExact returns the sentence a caption ends with when some of the panels of matchups
// have no exact value (has reports whether one has).
func withoutExact(r *report.Run, matchups []int, has func(m *report.Matchup) bool, what string) string {
	missing := 0
	for _, i := range matchups {
		if !has(&r.Matchups[i]) {
			missing++
		}
	}
	switch {
	case missing == 0:
		return ""
	case missing == len(matchups) && missing == 1:
		return fmt.Sprintf(" This matchup has no %s (no exact model covers its players), so only the simulation is drawn.", what)
	case missing == len(matchups):
		return fmt.Sprintf(" None of these matchups has an %s (no exact model covers their players), so only the simulation is drawn.", what)
	}
	return fmt.Sprintf(" %d of the %d matchups have no %s (no exact model covers their players): their panels show the simulation only.", missing, len(matchups), what)
}

// convergencePanel returns the panel of matchup m: seat 0's running mean, raw and, where the run
// has one, luck-adjusted, and its exact value where there is one.
func convergencePanel(m *report.Matchup) plots.ConvergencePanel {
	pn := plots.ConvergencePanel{Title: strings.Join(m.Players, " vs ")}
	whole := true // every point has an adjusted mean a figure plots
	for _, p := range m.Convergence {
		pn.Points = append(pn.Points, plots.ConvergencePoint{Games: p.Games, Mean: p.Mean, Lo: p.Lo, Hi: p.Hi})
		a := p.Adjusted
		if whole = whole && a != nil && plotsAccept(a.Mean) && plotsAccept(a.Lo) && plotsAccept(a.Hi); whole {
			pn.Adjusted = append(pn.Adjusted, plots.ConvergencePoint{Games: p.Games, Mean: a.Mean, Lo: a.Lo, Hi: a.Hi})
		}
	}
	if !whole {
		// A line with gaps, or one point taken for the mean of all games, would mislead: without
		// an adjusted mean at every point (or with one beyond what a figure plots, in an edited
		// file), none is drawn.
		pn.Adjusted = nil
	}
	if m.ExactPairs[0] != nil {
		want := report.ExactFloat(*m.ExactPairs[0])
		pn.Exact = &want
	}
	return pn
}

// plotsAccept reports whether a figure plots v: a finite number within ±plots.MaxMagnitude.
func plotsAccept(v float64) bool { return math.Abs(v) <= plots.MaxMagnitude }

// distributionPanel returns the panel of matchup m: seat 0's final shares, simulated and, where
// the solver has them, exact. Shares that no game reached and that the solver gives no chance
// (odd half pairs without stalemates, say) are left out.
func distributionPanel(m *report.Matchup) plots.DistributionPanel {
	pn := plots.DistributionPanel{Title: strings.Join(m.Players, " vs ")}
	hasExact := len(m.ExactDistribution) == len(m.ShareCounts[0])
	for k, c := range m.ShareCounts[0] {
		if c == 0 && (!hasExact || m.ExactDistribution[k] == 0) {
			continue
		}
		pn.X = append(pn.X, float64(k)/float64(len(m.Players)))
		pn.Simulated = append(pn.Simulated, float64(c)/float64(m.Games))
		if hasExact {
			pn.Exact = append(pn.Exact, m.ExactDistribution[k])
		}
	}
	return pn
}

// Figures draws the plots of a run's report r: for each deal size, the convergence of seat 0's
// mean in every matchup (with its luck-adjusted estimate and exact value where there are) and the
// distribution of its share (against the exact one where there is), as panels of one figure per
// kind (or a few, for many matchups); the strategy table of every exact model the tournament's
// players play from, and the win-optimal choices by lead where a player plays it (but under a turn
// limit, where the choices depend on the turns left too); and, for two players, the tournament
// matrix. A run that does not Validate is refused before anything is
// drawn: every value a figure reads is then finite and within what the rules allow.
func (t *Tournament) Figures(ctx context.Context, r *report.Run) ([]report.Figure, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	models := t.TableModels()
	var figs []report.Figure
	add := func(name, title, caption string, f plots.Figure, err error) error {
		if err != nil {
			return fmt.Errorf("figure %s: %w", name, err)
		}
		figs = append(figs, report.Figure{Name: name, Title: title, Caption: caption, SVG: f.SVG, PNG: f.PNG})
		return nil
	}
	sizes, groups := sizeGroups(r)
	for g, n := range sizes {
		ps := parts(groups[g])
		for i, part := range ps {
			// Each figure takes a moment to draw; a report of many matchups stops between them.
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var conv []plots.ConvergencePanel
			for _, k := range part {
				conv = append(conv, convergencePanel(&r.Matchups[k]))
			}
			name, suffix := partName(fmt.Sprintf("convergence-n%d", n), i, len(ps))
			f, err := plots.ConvergenceGrid(fmt.Sprintf("Seat 0's mean pairs, %d pairs%s", n, suffix), conv, "mean pairs of seat 0")
			caption := "For each matchup (seat 0 first), the running mean of seat 0's pairs per game, in deal order, with its 95% interval"
			if hasLuck(r, part) {
				caption += "; the luck-adjusted running mean, fitted to the games so far, with its 95% interval (what memsim decides on)"
			}
			caption += "; and the exact value (dashed)." +
				withoutExact(r, part, func(m *report.Matchup) bool { return m.ExactPairs[0] != nil }, "exact value")
			if err := add(name, fmt.Sprintf("Convergence: %d pairs%s", n, suffix), caption, f, err); err != nil {
				return nil, err
			}
		}
		for i, part := range ps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var dist []plots.DistributionPanel
			for _, k := range part {
				if len(r.Matchups[k].ShareCounts) > 0 && r.Matchups[k].Games > 0 {
					dist = append(dist, distributionPanel(&r.Matchups[k]))
				}
			}
			if len(dist) == 0 {
				continue
			}
			name, suffix := partName(fmt.Sprintf("distribution-n%d", n), i, len(ps))
			f, err := plots.DistributionGrid(fmt.Sprintf("Seat 0's final share, %d pairs%s", n, suffix), dist, "pairs collected by seat 0")
			caption := "For each matchup (seat 0 first), the share of games in which seat 0 collected each number of pairs (a stalemate splits what is left), simulated and exact." +
				withoutExact(r, part, func(m *report.Matchup) bool { return len(m.ExactDistribution) > 0 }, "exact distribution")
			if err := add(name, fmt.Sprintf("Score distribution: %d pairs%s", n, suffix), caption, f, err); err != nil {
				return nil, err
			}
		}
	}
	maxN := slices.Max(r.Rules.Pairs)
	for i, model := range models {
		if model.Variant.CopiesOf() != rules.DefaultCopies {
			continue // the strategy map is drawn over (n, j), which k copies do not determine
		}
		if model.Variant.TurnLimit > 0 {
			continue // its choices depend on the turns left as well: no map of (n, j)
		}
		players := r.Rules.PlayersPerGame
		codes, err := strategyCodes(ctx, model, players, min(maxN, 40))
		if err != nil {
			return nil, err
		}
		title := fmt.Sprintf("When is daring better? %s memory, pass %s", model.Memory, model.Pass)
		caption := "The exact optimal choice in every state (n, j) with both players optimal: where the daring move is better, where the safe move is, and where they are equal or there is no choice."
		if players > 2 {
			title += fmt.Sprintf(", %d players", players)
			caption = fmt.Sprintf("The choice of every seat for itself at %d seats in every state (n, j), each seat maximising its own pairs: where the daring move gives the mover more, where the safe move does, and where they are equal or there is no choice.", players)
		}
		if !model.Choices.Full() {
			title += ", choices " + model.Choices.String()
		}
		if model.Singletons > 0 {
			title += fmt.Sprintf(", %d singletons (all unseen)", model.Singletons)
		}
		if model.Variant.Flips == rules.FlipsBlind {
			title += ", blind flips"
		}
		f, err := plots.StrategyMap(title, codes, "j (pairs with no card known)", "n (pairs on the table)")
		if err := add(fmt.Sprintf("strategy-%d", i), "Strategy table: "+model.Memory.String()+" memory, pass "+model.Pass.String(),
			caption, f, err); err != nil {
			return nil, err
		}
	}
	for i, model := range t.winModels() {
		if model.Variant.TurnLimit > 0 || model.Variant.CopiesOf() != rules.DefaultCopies {
			continue // a map of (j, lead) at n pairs: no turns left, and two copies of a face only
		}
		n := min(maxN, 40)
		f, err := winChoiceMap(ctx, model, n)
		if err := add(fmt.Sprintf("win-strategy-%d", i), fmt.Sprintf("Win-optimal choices: %s memory, pass %s", model.Memory, model.Pass),
			fmt.Sprintf("The choice of the policy that plays to win (win-optimal against itself) with %d of a deal's %d pairs left, in every state (j unknown pairs) and at every lead the game can have then (its pairs minus the other's).", (n+1)/2, n), f, err); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.Rules.PlayersPerGame == 2 && len(r.Players) > 1 {
		names, lead := leadMatrix(r, maxN)
		f, err := plots.HeatMap(fmt.Sprintf("Mean lead per game, %d pairs", maxN), names, names, lead, "opponent", "player", plots.Diverging)
		if err := add("tournament", fmt.Sprintf("Tournament matrix: %d pairs", maxN),
			"The row player's mean lead in pairs per game over the column player, averaged over both seat orders.", f, err); err != nil {
			return nil, err
		}
	}
	return figs, nil
}

// hasLuck reports whether one of the matchups has a luck-adjusted estimate.
func hasLuck(r *report.Run, matchups []int) bool {
	for _, i := range matchups {
		if r.Matchups[i].LuckAdjusted != nil {
			return true
		}
	}
	return false
}

// strategyCodes returns the codes of the exact optimal strategy table of model m for n = 0 ..
// maxPairs and j = 0 .. n (with all singletons unseen), -1 where there is no state: the two-player
// optimum's, or with three or more players the optimum of every seat for itself. It computes in
// exact rationals up to the model's m.RationalLimit(), in float64 beyond.
func strategyCodes(ctx context.Context, m exact.Model, players, maxPairs int) ([][]int, error) {
	codes := make([][]int, maxPairs+1)
	for n := range codes {
		codes[n] = make([]int, maxPairs+1)
		for j := range codes[n] {
			codes[n][j] = -1
		}
	}
	if maxPairs > m.RationalLimit() {
		return codes, tableCodes(ctx, field.Float{}, m, players, maxPairs, codes)
	}
	return codes, tableCodes(ctx, field.Rat{}, m, players, maxPairs, codes)
}

// tableCodes writes the codes of the optimal strategy table of model m at the given number of
// players, computed in field f, to codes.
func tableCodes[T any](ctx context.Context, f field.Field[T], m exact.Model, players, maxPairs int, codes [][]int) error {
	visit := func(c *exact.TableCell[T]) error {
		if c.State.F == c.State.S {
			codes[c.State.N][c.State.J] = c.Code
		}
		return nil
	}
	if players > 2 {
		return exact.SelfishTable(ctx, f, m, players, maxPairs, visit)
	}
	return exact.Table(ctx, f, m, maxPairs, visit)
}

// leadMatrix returns the players and, for each ordered pair, the row player's mean lead over the
// column player at n pairs, averaged over the seat orders played; NaN where they did not meet.
func leadMatrix(r *report.Run, n int) ([]string, [][]float64) {
	var names []string
	index := map[string]int{}
	for _, p := range r.Players {
		index[p.Name] = len(names)
		names = append(names, p.Name)
	}
	sum := make([][]float64, len(names))
	count := make([][]int, len(names))
	for i := range sum {
		sum[i] = make([]float64, len(names))
		count[i] = make([]int, len(names))
	}
	for _, m := range r.Matchups {
		if m.Pairs != n || len(m.Players) != 2 {
			continue
		}
		a, b := index[m.Players[0]], index[m.Players[1]]
		lead := m.MeanPairs[0] - m.MeanPairs[1]
		sum[a][b] += lead
		count[a][b]++
		sum[b][a] -= lead
		count[b][a]++
	}
	for i := range sum {
		for j := range sum[i] {
			if count[i][j] == 0 {
				sum[i][j] = math.NaN()
			} else {
				sum[i][j] /= float64(count[i][j])
			}
		}
	}
	return names, sum
}

// winModels lists the exact models in which a player plays win-optimal, once each.
func (t *Tournament) winModels() []exact.Model {
	return t.exactModels(func(e *strategies.Exact) bool { return e.Policy == rules.PolicyWinOptimal })
}

// winChoiceMap draws the win-optimal choices of model m with half of a deal of n pairs left, by
// unknown pairs and lead (with all singletons unseen).
func winChoiceMap(ctx context.Context, m exact.Model, n int) (plots.Figure, error) {
	left := (n + 1) / 2
	span := n - left
	choices := make([][]int, 2*span+1)
	for i := range choices {
		choices[i] = make([]int, left+1)
		for j := range choices[i] {
			choices[i][j] = plots.NoChoice
		}
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	err := exact.WinTable(ctx, field.Float{}, m, mu, n, func(c *exact.WinCell[float64]) error {
		if st := c.State; st.N == left && st.F == st.S && rules.HasDecision(st) {
			choices[st.Lead+span][st.J] = int(c.Choice)
		}
		return nil
	})
	if err != nil {
		return plots.Figure{}, err
	}
	title := fmt.Sprintf("Playing to win: %d pairs left of %d, %s memory, pass %s", left, n, m.Memory, m.Pass)
	return plots.ChoiceMap(title, choices, -span, "j (pairs with no card known)", "lead (the mover's pairs minus the other's)")
}
