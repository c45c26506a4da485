package tournament

import "memsim/sim"

// Interim is a match under way, as its tallies so far describe it.
type Interim struct {
	// Means gives each participant's mean pairs per game over the seat orders it has played, in
	// the order of Match.IDs (0 for a participant without a game yet).
	Means []float64
	// Games is the number of games played, over all seat orders.
	Games int64
}

// Interim returns the match's interim results from r, its tallies so far (the current match of
// a Checkpoint, say), or false when r is nil or holds no deal yet.
func (m *Match) Interim(r *sim.Result) (Interim, bool) {
	if r == nil || r.Deals == 0 || len(r.Orders) != len(m.Orders) {
		return Interim{}, false
	}
	sum := make([]float64, len(m.IDs))
	games := make([]int64, len(m.IDs))
	for k, order := range m.Orders {
		tally := r.Orders[k]
		for seat, part := range order {
			for share, c := range tally.Share[seat] {
				sum[part] += float64(share) * float64(c) / float64(tally.Seats)
			}
			games[part] += tally.Games
		}
	}
	res := Interim{Means: make([]float64, len(m.IDs))}
	for part := range m.IDs {
		res.Means[part] = sum[part] / float64(max(games[part], 1))
	}
	for _, tally := range r.Orders {
		res.Games += tally.Games
	}
	return res, true
}
