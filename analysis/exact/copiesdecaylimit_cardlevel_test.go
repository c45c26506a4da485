package exact

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cdLimitRef is the card-level reference of the decay copies model under a turn limit and a pass
// rule: a card-level state is the cards on the table (each remembered or not), the role to move,
// whether the other seat has just passed and the turns left. Every turn uses one: a turn is
// played card by card with each card's forgetting at the hand-over enumerated (cdRef.turn, a
// pair known whole taken by the mover in a turn of its own), a pass forgets each remembered card
// with probability q (cdPassRef.passTurn), and a pass just after a pass is a stalemate, the pairs
// left shared equally. With no turn left the pairs left count for nobody. The recursion runs on
// the turns left, so it needs no value iteration.
type cdLimitRef struct {
	cdPassRef
	chooseAt func(role int, counts []int, after bool, t int) rules.Choice
	memo     map[string][2]float64
}

// value returns the mover's lead and the pairs both seats take by the limit, with t turns left;
// with first >= 0 the mover makes that choice now.
func (r *cdLimitRef) value(tab cmTable, after bool, t, first int) [2]float64 {
	if t == 0 || len(tab.cards) == 0 {
		return [2]float64{}
	}
	tab.cards = append([]cmCard(nil), tab.cards...)
	slices.SortFunc(tab.cards, func(a, b cmCard) int {
		if a.face != b.face {
			return a.face - b.face
		}
		if a.rem == b.rem {
			return 0
		}
		if a.rem {
			return 1
		}
		return -1
	})
	k := fmt.Sprintf("%s/%d/%d", passKey(tab, after), t, first)
	if x, ok := r.memo[k]; ok {
		return x
	}
	c := rules.Choice(first)
	if first < 0 && !knownWhole(tab) {
		c = r.chooseAt(tab.role, tab.counts(r.copies), after, t)
	}
	var x [2]float64
	switch {
	case c == rules.Pass && !knownWhole(tab):
		if !(&cmPassRef{pass: r.pass}).passLegal(tab) {
			panic(fmt.Sprintf("a pass where it is not legal: %v", tab))
		}
		if after {
			x = [2]float64{0, float64(len(tab.cards) / 2)}
			break
		}
		for _, e := range r.passTurn(tab) {
			y := r.value(tableOfKey(e.to), true, t-1, -1)
			x[0] -= e.p * y[0]
			x[1] += e.p * y[1]
		}
	default:
		for _, e := range r.turn(tab, c) {
			y := r.value(tableOfKey(e.to), false, t-1, -1)
			if e.keep {
				x[0] += e.p * (e.gain + y[0])
				x[1] += e.p * (e.gain + y[1])
				continue
			}
			x[0] -= e.p * y[0]
			x[1] += e.p * y[1]
		}
	}
	r.memo[k] = x
	return x
}

// cdLimitCard returns seat 0's expected lead and pairs averaged over the start tables (no pass
// just made, t turns left), the game played card by card under a shared decay(q) memory of the
// given capacity (0: none).
func cdLimitCard(tables []cmTable, copies, capacity int, q float64, pass rules.PassRule, t int, choose func(role int, counts []int, after bool, t int) rules.Choice, first int) (lead, pairs float64) {
	r := &cdLimitRef{cdPassRef: cdPassRef{cdRef: cdRef{q: q, capacity: capacity, copies: copies}, pass: pass}, chooseAt: choose, memo: map[string][2]float64{}}
	for _, tab := range tables {
		x := r.value(tab, false, t, first)
		lead += x[0]
		pairs += (x[0] + x[1]) / 2
	}
	return lead / float64(len(tables)), pairs / float64(len(tables))
}

// TestCopiesDecayLimitMatchesCardPlay checks the turn-limited decay copies model against card
// play over every deal, each card's forgetting enumerated and the turns left counted card by card
// (a pair left known whole taken in a turn of its own, a pass using a turn): seat 0's lead and
// pairs from the start, and every choice's lead and pairs from the start and from states with
// remembered cards, for fixed policies, the optimum and best responses, under every pass rule;
// and that no choice there, the optimum played afterwards, is worth more in card play than the
// optimum's own.
func TestCopiesDecayLimitMatchesCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity, limit int
		q                              float64
	}
	decks := []deck{{2, 4, 0, 5, 0.25}}
	states := 1
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal},
	}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2, 7, 0.5}, deck{3, 4, 3, 6, 0.1}, deck{2, 6, 2, 6, 0.25})
		lineups = append(lineups,
			Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
			Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
		states = 4
	}
	ctx := context.Background()
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, d := range decks {
			for _, mu := range lineups {
				name := fmt.Sprintf("pass %s, %d faces of %d, decay(%g) capacity %d, turn limit %d, %s", pass, d.faces, d.copies, d.q, d.capacity, d.limit, lineupName(mu))
				m := decayCopies(d.q, d.capacity, d.copies)
				m.Pass, m.Variant.TurnLimit = pass, d.limit
				st, err := StartCopiesState(d.faces*d.copies/2, d.copies)
				if err != nil {
					t.Fatal(err)
				}
				l, err := newCMLimit(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				choose := cmLimitChooserOf(t, l, [2]rules.Policy{mu.Policy, mu.Opponent})
				res := l.result(st)
				lead, pairs := cdLimitCard(cmDeals(d.faces, d.copies), d.copies, d.capacity, d.q, pass, d.limit, choose, -1)
				if math.Abs(res.ExpectedLead-lead) > 1e-9 || math.Abs(res.ExpectedPairs-pairs) > 1e-9 {
					t.Errorf("%s: lead %.12f, pairs %.12f; card play %.12f, %.12f", name, res.ExpectedLead, res.ExpectedPairs, lead, pairs)
				}
				selfPlay := mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal
				checked := 0
				for i, c := range l.s.cells {
					if c.stalemate || c.after() || c.pairs == 0 || c.h == 0 && i > 0 || checked == states {
						continue
					}
					checked++
					cst := c.v.state()
					// From a state with remembered cards, with a few turns left: the limit binds.
					m2, tables := m, []cmTable{cmTableOf(c.v)}
					if i > 0 {
						m2.Variant.TurnLimit = min(d.limit, 3)
					}
					cs, err := CopiesChoiceValues(ctx, field.Float{}, m2, mu, cst)
					if err != nil {
						t.Fatal(err)
					}
					l2, err := newCMLimit(ctx, field.Float{}, m2, mu, cst)
					if err != nil {
						t.Fatal(err)
					}
					choose2 := cmLimitChooserOf(t, l2, [2]rules.Policy{mu.Policy, mu.Opponent})
					own, _ := cdLimitCard(tables, d.copies, d.capacity, d.q, pass, m2.Variant.TurnLimit, choose2, -1)
					for _, cv := range cs.Values {
						lead, pairs := cdLimitCard(tables, d.copies, d.capacity, d.q, pass, m2.Variant.TurnLimit, choose2, int(cv.Choice))
						if math.Abs(cv.Lead-lead) > 1e-9 || math.Abs(cv.Pairs-pairs) > 1e-9 {
							t.Errorf("%s, from %v with %d turns left: %s first: lead %.12f, pairs %.12f; card play %.12f, %.12f", name, cst, m2.Variant.TurnLimit, cv.Choice, cv.Lead, cv.Pairs, lead, pairs)
						}
						if selfPlay && lead > own+1e-9 {
							t.Errorf("%s, from %v: %s first is worth %.12f in card play, more than optimal's %.12f", name, cst, cv.Choice, lead, own)
						}
					}
				}
			}
		}
	}
}
