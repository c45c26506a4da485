package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/plots"
	"memsim/analysis/report"
	"memsim/sim/rules"
	"memsim/strategies"
)

// maxMatchupFigures bounds the matchups a report draws the convergence and distribution of.
const maxMatchupFigures = 8

// figureMatchups chooses the matchups with an exact value whose figures a report draws, by
// interest: those with an exact value outside its interval first, then the others, each in the
// order of results.json, up to maxMatchupFigures.
func figureMatchups(r *report.Run) []int {
	var flagged, rest []int
	for i, m := range r.Matchups {
		if m.ExactPairs[0] == nil || len(m.Convergence) == 0 {
			continue
		}
		if len(m.OutsideCI()) > 0 {
			flagged = append(flagged, i)
		} else {
			rest = append(rest, i)
		}
	}
	all := append(flagged, rest...)
	return all[:min(len(all), maxMatchupFigures)]
}

// uniqueSlug makes s a file name of lower-case letters, digits and '-', different from those in
// taken (which it joins).
func uniqueSlug(s string, taken map[string]bool) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	base := b.String()
	if len(base) > maxSlug {
		// Long player names: a prefix, and a hash of the whole that keeps names apart.
		sum := sha256.Sum256([]byte(base))
		base = base[:maxSlug-17] + "-" + hex.EncodeToString(sum[:8])
	}
	slug := base
	for k := 2; taken[slug]; k++ {
		slug = fmt.Sprintf("%s-%d", base, k)
	}
	taken[slug] = true
	return slug
}

// maxSlug bounds a figure's slug, in bytes, so that its file name ("distribution-" + slug + a
// uniqueness suffix + ".png") stays within the 255 bytes file systems allow a name.
const maxSlug = 200

// Figures draws the plots of a run's report r: for matchups with an exact value, the convergence of
// seat 0's mean and the distribution of its share against the exact ones; the strategy table of
// every exact model the tournament's players play from, and the win-optimal choices by lead where
// a player plays it; and, for two players, the tournament matrix. A run that does not Validate is
// refused before anything is drawn: every value a figure reads is then finite and within what
// the rules allow.
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
	names := map[string]bool{}
	for _, i := range figureMatchups(r) {
		// Each figure takes a moment to draw; a report of many matchups stops between them.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := r.Matchups[i]
		name := fmt.Sprintf("%s, %d pairs", strings.Join(m.Players, " vs "), m.Pairs)
		slug := uniqueSlug(fmt.Sprintf("n%d-%s", m.Pairs, strings.Join(m.Players, "-vs-")), names)
		want := report.ExactFloat(*m.ExactPairs[0])
		pts := make([]plots.ConvergencePoint, len(m.Convergence))
		for k, p := range m.Convergence {
			pts[k] = plots.ConvergencePoint{Games: p.Games, Mean: p.Mean, Lo: p.Lo, Hi: p.Hi}
		}
		f, err := plots.Convergence("Seat 0's mean pairs: "+name, pts, &want, "mean pairs of seat 0")
		if err := add("convergence-"+slug, "Convergence: "+name,
			"The running mean of seat 0's pairs per game, in deal order, with its 95% interval, against the exact value (dashed).", f, err); err != nil {
			return nil, err
		}
		if len(m.ExactDistribution) > 0 && len(m.ShareCounts) > 0 {
			var sim, exact []float64
			var labels []string
			for k, c := range m.ShareCounts[0] {
				// Shares no game reached and the solver gives no chance (odd half pairs
				// without stalemates, say) would be empty slots.
				if c == 0 && (k >= len(m.ExactDistribution) || m.ExactDistribution[k] == 0) {
					continue
				}
				sim = append(sim, float64(c)/float64(m.Games))
				exact = append(exact, m.ExactDistribution[k])
				labels = append(labels, fmt.Sprintf("%g", float64(k)/float64(len(m.Players))))
			}
			f, err := plots.Distribution("Seat 0's final share: "+name, sim, exact, labels, "pairs collected by seat 0")
			if err := add("distribution-"+slug, "Score distribution: "+name,
				"The share of games in which seat 0 collected each number of pairs (a stalemate splits what is left), simulated and exact.", f, err); err != nil {
				return nil, err
			}
		}
	}
	maxN := slices.Max(r.Rules.Pairs)
	for i, model := range models {
		codes, err := strategyCodes(ctx, model, min(maxN, 40))
		if err != nil {
			return nil, err
		}
		title := fmt.Sprintf("When is daring better? %s, pass %s", model.Memory, model.Pass)
		if !model.Choices.Full() {
			title += ", choices " + model.Choices.String()
		}
		if model.Singletons > 0 {
			title += fmt.Sprintf(", %d singletons (all unseen)", model.Singletons)
		}
		f, err := plots.StrategyMap(title, codes, "j (pairs with no card known)", "n (pairs on the table)")
		if err := add(fmt.Sprintf("strategy-%d", i), "Strategy table: "+model.Memory.String()+" memory, pass "+model.Pass.String(),
			"The exact optimal choice in every state (n, j) with both players optimal: where the daring move is better, where the safe move is, and where they are equal or there is no choice.", f, err); err != nil {
			return nil, err
		}
	}
	for i, model := range t.winModels() {
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
		if err := add("tournament", fmt.Sprintf("Tournament matrix, %d pairs", maxN),
			"The row player's mean lead in pairs per game over the column player, averaged over both seat orders.", f, err); err != nil {
			return nil, err
		}
	}
	return figs, nil
}

// strategyCodes returns the codes of the exact optimal strategy table of model m for n = 0 ..
// maxPairs and j = 0 .. n (with all singletons unseen), -1 where there is no state.
func strategyCodes(ctx context.Context, m exact.Model, maxPairs int) ([][]int, error) {
	codes := make([][]int, maxPairs+1)
	for n := range codes {
		codes[n] = make([]int, maxPairs+1)
		for j := range codes[n] {
			codes[n][j] = -1
		}
	}
	err := exact.Table(ctx, field.Rat{}, m, maxPairs, func(c *exact.TableCell[*big.Rat]) error {
		if c.State.F == c.State.S {
			codes[c.State.N][c.State.J] = c.Code
		}
		return nil
	})
	return codes, err
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
