package review

import (
	"memsim/analysis/field"
	"memsim/sim/record"
)

// The luck of a game under a rule variant (docs/cli.md, memsim review), a turn at a time: a judged
// turn's chance events are the cards it turned that nobody had seen (under blind flips the pair
// of faces named together, one event), and their luck is the mover's value once the turn's cards
// are seen less the value of the option credited. The value once they are seen is the model's at
// the next decision (the turns between take the pairs known whole, as the model's players do), or
// the game's result when it is over: the mover's pairs so far, plus its expected pairs (taken
// within a turn limit) and win score from the position on, optimal play afterwards. Like the
// costs, the luck in pairs is half the change of the mover's lead, which is the change of its
// pairs where the seats' pairs add up to those on the table. For each seat, then, its value at the
// start, less its costs, plus its luck, less the other seat's luck and plus the other seat's
// costs, is its result: its lead, halved, and its win score.

// leadValue returns the lead of seat over the other seat, its lead so far plus the lead the
// decision d's position is worth under the optimum (d.Best), from seat's side.
func leadValue[T any](f field.Field[T], d *TurnDecision[T], seat int) T {
	v := f.Add(f.FromInt(int64(d.State.Lead)), d.Options[d.Best].Lead)
	if d.Seat != seat {
		return f.Sub(f.FromInt(0), v)
	}
	return v
}

// winValue returns seat's win score at decision d's position, both seats playing to win.
func winValue[T any](f field.Field[T], d *TurnDecision[T], seat int) T {
	w := d.Options[d.BestWin].Win
	if d.Seat != seat {
		return f.Sub(f.FromInt(1), w)
	}
	return w
}

// pairsValue returns seat's expected final pairs at decision d's position, its pairs so far
// included (taken, the table before the turn), under the optimum's choice.
func pairsValue[T any](f field.Field[T], d *TurnDecision[T], seat int, taken []int) T {
	o := d.Options[d.Best]
	v := o.Pairs
	if d.Seat != seat {
		v = f.Sub(o.Pairs, o.Lead)
	}
	return f.Add(f.FromInt(int64(taken[seat])), v)
}

// resultLead returns seat's lead over the other seat in the game's result, and its win score.
func resultLead[T any](f field.Field[T], g *record.Game, seat int) (lead, win T) {
	a, b := g.Result.Scores[seat], g.Result.Scores[1-seat]
	// Scores are whole or half pairs: exact in a fraction of halves.
	lead = f.FromFrac(int64(2*(a-b)), 2)
	switch {
	case a > b:
		win = f.FromInt(1)
	case a < b:
		win = f.FromInt(0)
	default:
		win = f.FromFrac(1, 2)
	}
	return lead, win
}

// addLuck sets the luck of every judged decision of the review, adds it to the seats' sums and
// writes seat 0's evaluation through the game.
func (vw *variantWalker[T]) addLuck() {
	f, r, g := vw.f, vw.r, vw.g
	ds := r.Decisions
	z := f.FromInt(0)
	half := f.FromFrac(1, 2)
	for k := range ds {
		d := &ds[k]
		d.LuckPairs, d.LuckWin = z, z
		if d.Chosen < 0 {
			continue
		}
		var lead, win T
		switch {
		case k+1 < len(ds):
			lead, win = leadValue(f, &ds[k+1], d.Seat), winValue(f, &ds[k+1], d.Seat)
		case g.Result.Over:
			lead, win = resultLead(f, g, d.Seat)
		default:
			continue // the turn's outcome is not valued yet: the game stops before the next decision
		}
		// The option credited: the optimum's value less what the choice cost.
		credited := f.Sub(d.Options[d.Best].Lead, f.Mul(f.FromInt(2), d.CostPairs))
		d.LuckPairs = f.Mul(half, f.Sub(f.Sub(lead, f.FromInt(int64(d.State.Lead))), credited))
		if r.Win {
			d.LuckWin = f.Sub(win, f.Sub(d.Options[d.BestWin].Win, d.CostWin))
		}
		s := &r.Seats[d.Seat]
		s.LuckPairs, s.LuckWin = f.Add(s.LuckPairs, d.LuckPairs), f.Add(s.LuckWin, d.LuckWin)
	}
	r.Through = r.Through[:0]
	for k := range ds {
		taken := g.Turns[ds[k].Turn].Before.Taken
		p := Point[T]{Pairs: pairsValue(f, &ds[k], 0, taken), Win: z}
		if r.Win {
			p.Win = winValue(f, &ds[k], 0)
		}
		r.Through = append(r.Through, p)
	}
	if g.Result.Over {
		_, win := resultLead(f, g, 0)
		p := Point[T]{Pairs: f.FromFrac(int64(2*g.Result.Scores[0]), 2), Win: z}
		if r.Win {
			p.Win = win
		}
		r.Through = append(r.Through, p)
	}
}

// Start returns seat 0's value at the start of the game, its expected pairs and win score under
// optimal play, and false when the game's first turn is not a decision (a game with no move).
func (r *VariantReview[T]) Start() (Point[T], bool) {
	if len(r.Decisions) == 0 || r.Decisions[0].Turn != 0 || len(r.Through) == 0 {
		return Point[T]{}, false
	}
	return r.Through[0], true
}
