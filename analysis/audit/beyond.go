package audit

import (
	"context"
	"fmt"
	"io/fs"
	"math/big"
	"slices"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Beyond is what the full game changes in the sources' models, reported apart from the verdicts,
// which judge each claim in its source's own model (SourceChoices). The full game also allows
// known-first (flip a remembered card first, then an unknown one) and, where the rules permit,
// pass (docs/models.md §3.5).
type Beyond struct {
	// KnownFirst lists, per model, the states where known-first is strictly best: the only
	// optimal choice of the full game, both players optimal.
	KnownFirst []KnownFirstStates `json:"known_first"`
	// Tables says, per published table, how many of its cells change and how far the values move
	// when the full game replaces the source's model.
	Tables []TableShift `json:"tables"`
	// Win holds the findings of the win objective, when the caller computes them.
	Win *WinFindings `json:"win,omitempty"`
}

// KnownFirstStates are the states of one model, up to MaxPairs pairs, where known-first is the
// only optimal choice of the full game.
type KnownFirstStates struct {
	Model    string `json:"model"`
	MaxPairs int    `json:"max_pairs"`
	States   int    `json:"states"`
	// ByUnknown lists, for each number of unknown pairs j with such states, the numbers of pairs
	// n, as ranges ("9-100").
	ByUnknown []KnownFirstRow `json:"by_unknown"`
	// Gain is the largest advantage of known-first over the best other choice, in the mover's
	// expected pairs, and Where the state where it is reached.
	Gain  Number `json:"gain"`
	Where string `json:"where"`
}

// KnownFirstRow lists the n of the states (n, j) with one j where known-first is strictly best.
type KnownFirstRow struct {
	Unknown int    `json:"unknown"`
	Pairs   string `json:"pairs"`
}

// TableShift compares a published table's model with the full game on the table's cells.
type TableShift struct {
	ID    string `json:"id"`
	Cells int    `json:"cells"`
	// CodeChanges counts the cells whose code (daring against safe, optimal play afterwards)
	// differs between the source's model and the full game, and Changed names them.
	CodeChanges int      `json:"code_changes"`
	Changed     []string `json:"changed"`
	// ValueShift is the largest rise of a cell's optimal value, in the mover's expected pairs,
	// and Where the state where it is reached; Raised counts the cells whose value rises.
	ValueShift Number `json:"value_shift"`
	Where      string `json:"where"`
	Raised     int    `json:"raised"`
}

// Number is an exact value with its decimal approximation.
type Number struct {
	Exact string  `json:"exact"`
	Float float64 `json:"float"`
}

func number(r *big.Rat) Number {
	f, _ := r.Float64()
	return Number{Exact: r.RatString(), Float: f}
}

// WinFindings is what playing to win changes; see the tournament package's and the solver's
// win objective (docs/models.md §4.13).
type WinFindings struct {
	// Matches gives, per deal size and seat order, the exact win, draw and loss probabilities of
	// the win-optimal player against the pairs-optimal player.
	Matches []WinMatch `json:"matches"`
	// Differ gives, per deal size, the share of the states (n, j, lead) where the two policies
	// choose differently, among those where the game is undecided and the mover has a choice.
	Differ []WinDiffer `json:"differ"`
}

// WinMatch is the exact outcome of win-optimal against optimal from the start of a deal.
type WinMatch struct {
	Pairs int `json:"pairs"`
	// First says whether the win-optimal player moves first.
	First bool   `json:"first"`
	Win   Number `json:"win"`
	Draw  Number `json:"draw"`
	Loss  Number `json:"loss"`
}

// WinDiffer is how often the two policies choose differently at one deal size.
type WinDiffer struct {
	Pairs  int     `json:"pairs"`
	States int     `json:"states"`
	Differ int     `json:"differ"`
	Share  float64 `json:"share"`
}

// knownFirstMaxN is the largest deal the perfect-memory search for known-first goes to.
const knownFirstMaxN = 100

// AuditBeyond computes what the full game changes: where known-first is strictly best in the
// perfect-memory models (every pass rule, up to knownFirstMaxN pairs) and in the models of the
// published tables (over their sizes), and how each published table moves.
func AuditBeyond(ctx context.Context, claims fs.FS, winSizes []int) (*Beyond, error) {
	b := &Beyond{}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		m := exact.Model{Pass: pass}
		tab, err := tableOf(ctx, m, knownFirstMaxN)
		if err != nil {
			return nil, err
		}
		k := knownFirstStates(tab, m, knownFirstMaxN, 0)
		if err != nil {
			return nil, err
		}
		b.KnownFirst = append(b.KnownFirst, k)
	}
	win, err := AuditWin(ctx, winSizes)
	if err != nil {
		return nil, err
	}
	b.Win = win
	for _, tc := range tableClaims() {
		data, err := fs.ReadFile(claims, tc.file)
		if err != nil {
			return nil, fmt.Errorf("claim %s: %w", tc.id, err)
		}
		pub, err := ParseTable(data)
		if err != nil {
			return nil, fmt.Errorf("claim %s: %w", tc.id, err)
		}
		full := tc.model
		full.Choices = rules.FullChoices
		fullTab, err := tableOf(ctx, full, pub.MaxN)
		if err != nil {
			return nil, err
		}
		k := knownFirstStates(fullTab, full, pub.MaxN, tc.unseen)
		k.Model += " (" + tc.id + ")"
		b.KnownFirst = append(b.KnownFirst, k)
		shift, err := tableShift(ctx, tc.id, pub, tc.model, fullTab, tc.unseen)
		if err != nil {
			return nil, err
		}
		b.Tables = append(b.Tables, shift)
	}
	return b, nil
}

// modelName describes a model for the reports.
func modelName(m exact.Model) string {
	s := fmt.Sprintf("%s memory, pass %s", m.Memory, m.Pass)
	if m.Singletons > 0 {
		s += fmt.Sprintf(", %d singletons", m.Singletons)
	}
	return s
}

// knownFirstStates finds the states of model m (full game) with at most maxN pairs, and f unseen
// singletons, where known-first is the only optimal choice, in m's table tab (tableOf).
func knownFirstStates(tab map[rules.State]cellValues, m exact.Model, maxN, f int) KnownFirstStates {
	k := KnownFirstStates{Model: modelName(m), MaxPairs: maxN}
	byJ := map[int][]int{}
	gain := new(big.Rat)
	for st, c := range tab {
		kf := c.choice[rules.KnownFirst]
		if st.F != f || kf == nil {
			continue
		}
		var other *big.Rat
		for _, ch := range rules.Choices() {
			if ch != rules.KnownFirst && c.choice[ch] != nil && (other == nil || c.choice[ch].Cmp(other) > 0) {
				other = c.choice[ch]
			}
		}
		d := new(big.Rat).Sub(kf, other)
		if d.Sign() <= 0 {
			continue
		}
		k.States++
		byJ[st.J] = append(byJ[st.J], st.N)
		if d.Cmp(gain) > 0 || (d.Cmp(gain) == 0 && st.String() < k.Where) {
			gain, k.Where = d, st.String()
		}
	}
	k.Gain = number(gain)
	js := make([]int, 0, len(byJ))
	for j := range byJ {
		js = append(js, j)
	}
	slices.Sort(js)
	for _, j := range js {
		ns := byJ[j]
		slices.Sort(ns)
		k.ByUnknown = append(k.ByUnknown, KnownFirstRow{Unknown: j, Pairs: spans(ns)})
	}
	return k
}

// tableShift compares the source's model src with the full game (its table b, tableOf) on the
// cells of a published table.
func tableShift(ctx context.Context, id string, pub *Table, src exact.Model, b map[rules.State]cellValues, f int) (TableShift, error) {
	ts := TableShift{ID: id}
	a, err := tableOf(ctx, src, pub.MaxN)
	if err != nil {
		return ts, err
	}
	shift := new(big.Rat)
	for n := 1; n <= pub.MaxN; n++ {
		for k := range pub.Codes[n] {
			st := rules.State{N: n, J: pub.FirstJ[n] + k, S: src.Singletons, F: f}
			ca, okA := a[st]
			cb, okB := b[st]
			if !okA || !okB {
				continue
			}
			ts.Cells++
			if ca.code != cb.code {
				ts.CodeChanges++
				ts.Changed = append(ts.Changed, fmt.Sprintf("(%d,%d) %d to %d", n, st.J, ca.code, cb.code))
			}
			d := new(big.Rat).Sub(cb.value, ca.value)
			if d.Sign() > 0 {
				ts.Raised++
			}
			if d.Cmp(shift) > 0 {
				shift, ts.Where = d, st.String()
			}
		}
	}
	ts.ValueShift = number(shift)
	return ts, nil
}

// markdown renders the section "Beyond the sources" of audit.md.
func (b *Beyond) markdown() string {
	var s strings.Builder
	s.WriteString("\n## Beyond the sources: the full game\n\n")
	s.WriteString("The verdicts above judge each claim in its source's own model: Sjölund & Åstrand and Alfthan " +
		"let the mover choose between **daring** and **safe** only. memsim's full game also allows " +
		"**known-first** (flip a remembered card first, then an unknown one: when moving on is bad, it hands " +
		"the move over, often with a pair) and, where the pass rule permits, **pass**. This section says what " +
		"that changes; it is not a verdict on the sources.\n\n")
	s.WriteString("Where known-first is strictly best (the only optimal choice, both players optimal):\n\n")
	s.WriteString("| model | up to n | states | (j: n) | largest gain over the best other choice |\n|---|---:|---:|---|---|\n")
	for _, k := range b.KnownFirst {
		var rows []string
		for _, r := range k.ByUnknown {
			rows = append(rows, fmt.Sprintf("j = %d: %s", r.Unknown, r.Pairs))
		}
		where := "—"
		if k.States > 0 {
			where = fmt.Sprintf("%.4f pairs (%s) in %s", k.Gain.Float, k.Gain.Exact, k.Where)
		}
		fmt.Fprintf(&s, "| %s | %d | %d | %s | %s |\n", k.Model, k.MaxPairs, k.States, orDash(strings.Join(rows, "; ")), where)
	}
	s.WriteString("\nThe published tables in the full game (codes compare daring with safe, optimal play afterwards):\n\n")
	s.WriteString("| table | cells | codes that change | values that rise | largest rise of a value |\n|---|---:|---|---:|---|\n")
	for _, t := range b.Tables {
		changed := fmt.Sprint(t.CodeChanges)
		if t.CodeChanges > 0 {
			changed += ": " + strings.Join(t.Changed, "; ")
		}
		rise := "0"
		if t.Raised > 0 {
			rise = fmt.Sprintf("%.4f pairs (%s) in %s", t.ValueShift.Float, t.ValueShift.Exact, t.Where)
		}
		fmt.Fprintf(&s, "| %s | %d | %s | %d | %s |\n", t.ID, t.Cells, changed, t.Raised, rise)
	}
	if w := b.Win; w != nil {
		s.WriteString("\nPlaying to win: the policy that maximises P(win) + P(draw)/2 (`win-optimal`) against the one that " +
			"maximises expected pairs (`optimal`), perfect memory, pass never, full game, exact:\n\n")
		s.WriteString("| pairs | win-optimal moves | win | draw | loss | score (win + draw/2) |\n|---:|---|---|---|---|---|\n")
		for _, m := range w.Matches {
			first := "second"
			if m.First {
				first = "first"
			}
			fmt.Fprintf(&s, "| %d | %s | %.6f | %.6f | %.6f | %.6f |\n", m.Pairs, first, m.Win.Float, m.Draw.Float, m.Loss.Float, m.Win.Float+m.Draw.Float/2)
		}
		s.WriteString("\nHow often the two policies choose differently, among the states (n, j, lead) of a game of that size that are " +
			"undecided (|lead| <= n: in a decided state every choice is as good for winning) and have a choice to make " +
			"(an unknown pair and a remembered card):\n\n")
		s.WriteString("| pairs | states (n, j, lead) | choices differ | share |\n|---:|---:|---:|---:|\n")
		for _, d := range w.Differ {
			fmt.Fprintf(&s, "| %d | %d | %d | %.4f |\n", d.Pairs, d.States, d.Differ, d.Share)
		}
	}
	return s.String()
}

func orDash(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// WinSizes are the deal sizes of the win findings, unless Options say otherwise.
func WinSizes() []int { return []int{12, 26, 52} }

// AuditWin computes what playing to win changes against the pairs-optimal policy (perfect
// memory, pass never, the full game): the exact win, draw and loss probabilities of win-optimal
// against optimal in both seat orders, and how often the two policies choose differently among
// the states (n, j, lead) of a game of that size where the game is not decided (|lead| <= n) and
// the mover has a choice to make (rules.HasDecision), at each deal size of sizes.
func AuditWin(ctx context.Context, sizes []int) (*WinFindings, error) {
	wf := &WinFindings{}
	m := exact.Model{}
	for _, n := range sizes {
		st := rules.State{N: n, J: n}
		mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyOptimal}
		both, err := exact.WinDrawLoss(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			return nil, err
		}
		// [1] is optimal moving first: the win-optimal player's outcomes are its reverse.
		wf.Matches = append(wf.Matches,
			WinMatch{Pairs: n, First: true, Win: number(both[0].Win), Draw: number(both[0].Draw), Loss: number(both[0].Loss)},
			WinMatch{Pairs: n, First: false, Win: number(both[1].Loss), Draw: number(both[1].Draw), Loss: number(both[1].Win)})
		opt := map[rules.State]rules.Choice{}
		err = exact.Table(ctx, field.Float{}, m, n, func(c *exact.TableCell[float64]) error {
			opt[c.State] = c.Choice
			return nil
		})
		if err != nil {
			return nil, err
		}
		d := WinDiffer{Pairs: n}
		self := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		err = exact.WinTable(ctx, field.Float{}, m, self, n, func(c *exact.WinCell[float64]) error {
			st := c.State
			if st.Lead > st.N || st.Lead < -st.N || !rules.HasDecision(st) {
				return nil
			}
			d.States++
			if c.Choice != opt[st.Counts()] {
				d.Differ++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		d.Share = float64(d.Differ) / float64(d.States)
		wf.Differ = append(wf.Differ, d)
	}
	return wf, nil
}
