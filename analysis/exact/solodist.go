package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds solitaire's distribution of the number of turns (SolitaireTurns) and its
// strategy table (SolitaireTable), docs/models.md §4.8 and §4.9.

// TurnsDistribution is the distribution of the number of turns one player needs to clear the
// table from State. Under a memory that forgets the number of turns has no bound, so the
// distribution is given up to MaxTurns: Prob[t] is the exact probability of exactly t turns, t = 0
// .. MaxTurns, and Tail the probability of more than MaxTurns (1 minus the sum of Prob). Under a
// memory that never forgets a game of n pairs and s singletons takes at most 3n + s turns (every
// turn turns up an unseen card or takes a pair both of whose cards are known), so Tail is 0 once
// MaxTurns reaches that. Under a turn limit a game ends when the table is cleared or the limit
// is reached, so it takes at most the limit's turns; Stopped is the probability that the limit
// ends it with pairs still on the table (counted in Prob at the limit), 0 without a limit.
type TurnsDistribution[T any] struct {
	State    rules.State
	MaxTurns int
	Prob     []T
	Tail     T
	Stopped  T
}

// DefaultMaxTurns is the number of turns up to which memsim gives solitaire's distribution of
// the number of turns from a state of n pairs and s singletons unless told otherwise: 4(n + s),
// more than the 3n + s turns a memory that never forgets can take.
func DefaultMaxTurns(n, s int) int { return 4 * (n + s) }

// CheckSolitaireTurns reports whether model m has solitaire's table (SolitaireTable), and so its
// distribution of the number of turns (SolitaireTurns): an error names what is not built.
// CheckSolitaireTurnsOf checks the distribution alone, which more models have.
func CheckSolitaireTurns(m Model) error {
	return checkSoloTurns(m, "distribution of the number of turns and table are", false)
}

// checkSoloTurns refuses the models whose solitaire has no turns distribution (limit true: a turn
// limit allowed with two copies of a face) or table (limit false) here.
func checkSoloTurns(m Model, what string, limit bool) error {
	switch {
	case m.Memory.Fluctuation > 0:
		return fmt.Errorf("memory %s: solitaire's %s built for memories of fixed capacity (perfect, lru, handover-uniform) and decay forgetting, not a fluctuating capacity", m.Memory, what)
	case m.Variant.TurnLimit > 0 && (!limit || m.Variant.CopiesOf() != rules.DefaultCopies):
		return fmt.Errorf("turn limit %d: solitaire's %s built without a turn limit", m.Variant.TurnLimit, what)
	case m.Variant.CopiesOf() != rules.DefaultCopies:
		return fmt.Errorf("copies %d: solitaire's %s built for two copies of a face", m.Variant.CopiesOf(), what)
	}
	return nil
}

// SolitaireTurns returns the exact distribution of the number of turns one player playing policy
// p (optimal: the choice that minimises the expected turns) needs to clear the table from st in
// model m, up to maxTurns turns (see TurnsDistribution). Every turn costs one, and a turn that
// leaves a pair fully known costs the next turn too, as in the expected turns. A turn that comes
// back to its own state (a card forgotten) is a geometric number of turns: the distribution of
// a state is computed in order of the number of turns, each turn at least one, so no equation is
// solved. It covers perfect memory, singletons and a shared memory of fixed capacity under lru
// or handover-uniform forgetting, with sequential or blind flips; the other models are refused.
func SolitaireTurns[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, st rules.State, maxTurns int) (TurnsDistribution[T], error) {
	var d TurnsDistribution[T]
	if err := CheckSolitaireTurnsOf(m); err != nil {
		return d, err
	}
	if maxTurns < 0 {
		return d, fmt.Errorf("max turns %d: must be at least 0", maxTurns)
	}
	if IsHUSingles(m) {
		return husSolitaireTurns(ctx, f, m, p, st, maxTurns) // husingles_solodist.go
	}
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		return solitaireTurnsCopies(ctx, f, m, p, st, maxTurns) // copiessolo.go
	}
	if m.Variant.TurnLimit > 0 {
		return solitaireTurnsLimit(ctx, f, m, p, st, maxTurns) // solodistlimit.go
	}
	mu := Lineup{Players: 1, Policy: p, Opponent: p}
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return d, fmt.Errorf("solitaire's turns distribution: %w", err)
	}
	w.needOpt, w.needSolo = false, true
	// rows[n%3] holds the distributions of the states with n pairs: a turn removes at most two
	// pairs (blind flips), so three rows are enough. A row is computed once all its states have
	// been visited (under decay forgetting a state leads to states of its own row), in order of
	// the number of turns: every turn costs at least one, so the probabilities of t turns need
	// only those of fewer turns.
	var rows [3]map[rules.State][]T
	var pending []soloRowState[T]
	row := -1
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		err := soloRow(f, pending, &rows, maxTurns)
		pending = pending[:0]
		return err
	}
	err = w.run(ctx, st.N, func(s rules.State) error {
		if s.N != row {
			if err := flush(); err != nil {
				return err
			}
			row, rows[s.N%3] = s.N, map[rules.State][]T{}
		}
		vec := w.zeros(maxTurns + 1)
		rows[s.N%3][s] = vec
		if s.N == 0 {
			vec[0] = w.one
			return nil
		}
		ch := w.soloChoice
		if p != rules.PolicyOptimal {
			ch = w.choice(0, s, false)
		}
		pending = append(pending, soloRowState[T]{st: s, vec: vec,
			outs: append([]Outcome(nil), w.outs[ch]...), probs: append([]T(nil), w.probs[ch]...)})
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return d, err
	}
	vec, ok := rows[st.N%3][st]
	if !ok {
		return d, fmt.Errorf("solitaire's turns distribution: state %v is not a state of memory %s", st, m.Memory)
	}
	d.State, d.MaxTurns, d.Prob = st, maxTurns, vec
	d.Tail, d.Stopped = w.one, f.FromInt(0)
	for _, x := range vec {
		d.Tail = f.Sub(d.Tail, x)
	}
	return d, nil
}

// soloRowState is one state of a row of SolitaireTurns, waiting for the row's distributions: the
// outcomes of its choice and its distribution, to be filled.
type soloRowState[T any] struct {
	st    rules.State
	outs  []Outcome
	probs []T
	vec   []T
}

// soloRow fills the distributions of the states of one row (every state with as many pairs), the
// rows before it done: P(s, t) is the sum over the outcomes of the choice in s of their
// probability times P(next, t - c), c = 1 + the turns the outcome leaves to the next turn, in
// order of t. An outcome that stays in the row (a card forgotten) reads a probability of fewer
// turns, already computed.
func soloRow[T any](f field.Field[T], row []soloRowState[T], rows *[3]map[rules.State][]T, maxTurns int) error {
	next := make([][][]T, len(row))
	for k, e := range row {
		next[k] = make([][]T, len(e.outs))
		for i, o := range e.outs {
			v, ok := rows[o.Next.N%3][o.Next]
			if !ok {
				return fmt.Errorf("solitaire's turns distribution: state %v leads to %v, not yet computed", e.st, o.Next)
			}
			next[k][i] = v
		}
	}
	for t := 1; t <= maxTurns; t++ {
		for k, e := range row {
			for i, o := range e.outs {
				if c := 1 + o.NextGain; t >= c {
					e.vec[t] = f.Add(e.vec[t], f.Mul(e.probs[i], next[k][i][t-c]))
				}
			}
		}
	}
	return nil
}

// SolitaireCell is one state of solitaire's strategy table (SolitaireTable).
type SolitaireCell[T any] struct {
	State rules.State
	// Turns and Lucky are the expected turns and lucky matches with optimal play.
	Turns, Lucky T
	// Best lists the choices of fewest expected turns, in the order daring, safe, known-first;
	// Choice, the first of them, is the choice of optimal (and of the engine's solitaire player).
	Best   []rules.Choice
	Choice rules.Choice
	// Legal says which choices are open; ChoiceTurns and ChoiceLucky give each legal choice's
	// expected turns and lucky matches, the choice made here and optimal play afterwards.
	Legal       [rules.NumChoices]bool
	ChoiceTurns [rules.NumChoices]T
	ChoiceLucky [rules.NumChoices]T
}

// SolitaireTable computes solitaire's optimal strategy table of model m (the choice that
// minimises the expected number of turns, docs/models.md §4.8) for every state with at most
// maxPairs pairs and at least one pair, calling visit for each in order of n, then j, then f. The
// cell passed to visit is reused: copy what must outlive the call. Its choices are those of
// PolicyTable for one optimal player. It covers the models SolitaireTurns does, decay forgetting
// included, but not a turn limit or copies of a face.
func SolitaireTable[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int, visit func(*SolitaireCell[T]) error) error {
	if err := checkSoloTurns(m, "table is", false); err != nil {
		return err
	}
	if maxPairs < 1 {
		return fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if IsHUSingles(m) {
		return husSolitaireTable(ctx, f, m, maxPairs, visit) // husingles_table.go
	}
	mu := Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return fmt.Errorf("solitaire's table: %w", err)
	}
	w.needOpt, w.needSolo = false, true
	var sc SolitaireCell[T]
	return w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		c := w.at(st)
		sc.State, sc.Turns, sc.Lucky, sc.Choice = st, c.solo[0], c.solo[1], w.soloChoice
		sc.Best = sc.Best[:0]
		decay := m.isDecay()
		for _, ch := range rules.Choices() {
			sc.Legal[ch] = w.legal[ch] && ch != rules.Pass
			if !sc.Legal[ch] {
				continue
			}
			if decay {
				// The row's equations give the states' values; each choice's is one turn of
				// it, then the row's values (a one-step deviation from the solved row).
				sc.ChoiceTurns[ch], sc.ChoiceLucky[ch] = w.soloChoiceValue(st, ch)
			} else {
				sc.ChoiceTurns[ch], sc.ChoiceLucky[ch] = w.soloDev[ch][0], w.soloDev[ch][1]
			}
			if f.Cmp(sc.ChoiceTurns[ch], sc.Turns) == 0 {
				sc.Best = append(sc.Best, ch)
			}
		}
		if decay && len(sc.Best) > 0 {
			// Policy iteration keeps a choice unless another is strictly better: the table
			// names the first best, as without decay.
			sc.Choice = sc.Best[0]
		}
		return visit(&sc)
	})
}
