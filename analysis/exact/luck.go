package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// LuckTable writes out the reference value function of luck-adjusted estimates (docs/models.md
// §5.6) for model m and games of players seats (2 to rules.MaxPlayers), for every state with at
// most maxPairs pairs: every seat's expected pairs under optimal play by every seat (the
// two-player optimum, or with more seats the optimum of every seat for itself), and each legal choice's
// advantage, one step of the model's transitions with optimal play afterwards minus the value. It
// computes in float64. Under a rule variant (m.Variant) the states are the variant's model's:
// blind flips keep the count state, a turn limit adds the turns left (a layer per number), and
// more than two copies of a face use the state of faces of every game of at most maxPairs pairs.
//
// The table is exact for the engine's games of the same model (one shared memory of m's kind,
// every seat following a table): there the model's transitions are the true conditional
// distribution of a turn, so the luck of every turn has mean zero whatever the seats play.
func LuckTable(ctx context.Context, m Model, players, maxPairs int) (*rules.LuckTable, error) {
	if players < 2 {
		return nil, fmt.Errorf("luck table for %d players: solitaire's turns are not luck-adjusted (at least 2 players)", players)
	}
	if maxPairs < 1 {
		return nil, fmt.Errorf("luck table for %d pairs: must be at least 1", maxPairs)
	}
	if players > 2 && m.Pass != rules.PassNever {
		// The values of three or more seats under a pass rule depend on the pass streak, which
		// a luck table (a value without and after a pass) does not hold.
		return nil, fmt.Errorf("luck table for %d players under pass rule %s: luck is adjusted at three or more seats under pass rule never only", players, m.Pass)
	}
	if m.Variant.CopiesOf() != rules.DefaultCopies || m.Variant.TurnLimit > 0 {
		return variantLuckTable(ctx, m, players, maxPairs)
	}
	f := field.Float{}
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	reference := fmt.Sprintf("optimal play by every seat, %s memory, pass %s", m.Memory, m.Pass)
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return nil, err
	}
	w.needMulti = players > 2
	if m.Singletons > 0 {
		reference += fmt.Sprintf(", %d singletons", m.Singletons)
	}
	if !m.Choices.Full() {
		reference += ", choices {" + m.Choices.String() + "}"
	}
	if !m.Variant.Standard() {
		reference += ", " + m.Variant.String()
	}
	t, err := rules.NewVariantLuckTable(m.Variant, m.Memory, m.Pass, m.Singletons, players, maxPairs, reference)
	if err != nil {
		return nil, err
	}
	value, adv := make([]float64, players), make([]float64, players)
	err = w.run(ctx, maxPairs, func(st rules.State) error {
		n := float64(st.N)
		if st.N == 0 {
			clear(value)
			t.SetValue(st, false, value)
			t.SetValue(st, true, value)
			return nil
		}
		if players > 2 {
			// Pass rule never: a turn never follows a pass.
			c := w.at(st)
			copy(value, c.seats[0])
			t.SetValue(st, false, value)
			t.SetValue(st, true, value)
			for _, ch := range rules.Choices() {
				if !w.legal[ch] {
					continue
				}
				w.multiStep(st, ch, c, adv)
				for r := range adv {
					adv[r] -= value[r]
				}
				t.SetAdvantage(st, false, ch, adv)
				t.SetAdvantage(st, true, ch, adv)
			}
			return nil
		}
		// Two players, in leads: the mover's value is (n + lead)/2 pairs, the other seat's the
		// rest. After a pass the mover may pass again, which splits the table (lead 0).
		pairs := func(lead float64) []float64 {
			value[0] = (n + lead) / 2
			value[1] = n - value[0]
			return value
		}
		v0 := w.at(st).opt
		v1 := v0
		switch {
		case w.hasAfter:
			v1 = w.at(st).optAfterPass // decay under a pass rule: solved with the pass flag
		case w.legal[rules.Pass]:
			v1 = 0 - w.optDev[rules.Pass] // the reply to a pass, as optimal computed it
		}
		t.SetValue(st, false, pairs(v0))
		t.SetValue(st, true, pairs(v1))
		for _, ch := range rules.Choices() {
			if !w.legal[ch] {
				continue
			}
			for flag, v := range [2]float64{v0, v1} {
				q := w.optDev[ch]
				if ch == rules.Pass && flag == 1 {
					q = 0 // the stalemate rule: both seats passed, the table is split
				}
				adv[0] = (q - v) / 2
				adv[1] = -adv[0]
				t.SetAdvantage(st, flag == 1, ch, adv)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// multiStep writes to out every seat's expected pairs (offset from the mover) after the mover of
// st, with more than two seats, makes choice ch and every seat plays optimally afterwards; c is
// st's solved cell.
func (w *sweep[T]) multiStep(st rules.State, ch rules.Choice, c *cell[T], out []float64) {
	f := w.f
	p := w.mu.Players
	clear(out)
	for i, o := range w.outs[ch] {
		pr := f.Float64(w.probs[ch][i])
		mover, gain := 1, o.NextGain
		if o.Continue {
			mover, gain = 0, o.MoverGain
		}
		succ := w.at(o.Next).seats[mover]
		if selfLoop(o, st) {
			succ = c.seats[1]
		}
		for s := range p {
			v := f.Float64(succ[s])
			if s == mover {
				v += float64(gain)
			}
			out[s] += pr * v
		}
	}
}
