package exact

import (
	"memsim/sim/rules"
)

// The win objective at three or more seats under a pass rule (two-known or always), perfect
// memory (docs/models.md §4.7, "Win objective", and §4.12). The state holds, besides the count
// state, the standings and (in a mixed lineup) the mover's seat, the pass streak k = 0 .. p-1:
// the number of seats that passed in a row just before this turn. A pass at k < p-1 hands the
// same count state to the next seat at k+1, the standings seen from it; a pass at k = p-1 ends
// the game in a stalemate, which gives each seat n/p of the n pairs left. As every seat gains the
// same share, the final totals rank as the standings do: the seats level with the most share the
// score. Every other choice flips a card nobody remembers, so it leads to another count state at
// streak 0, whose values the sweep keeps; a state's levels are solved from k = p-1 down to 0, the
// choices other than a pass once for all of them. The mover takes the first choice with the
// largest own score in the order daring, safe, known-first, pass.

// selfWinPassWork is the work of a sweep under a pass rule relative to pass rule never, measured
// (BenchmarkSelfWinPass: 1.3 to 2.3 times in float64 at three and four seats). Under lru and
// handover-uniform a pass rule costs more relative to never (2.7 times at lru(3)), but the
// estimate counts every count state, as with perfect memory, and so stays above the time
// measured: 40 pairs, 3 seats, two-known, float64, 1.9 s under lru(3) and 2.7 s under
// handover-uniform(20) against 3.0 s with perfect memory (memsim solve --pairs 40 --players 3
// --memory 3 --forget lru --pass two-known --policy win-optimal --value-only --float).
const selfWinPassWork = 1.8

// selfWinPass holds the levels of the count state being swept: for every streak k, mover's seat
// q and standings vi, its vectors and the mover's choice.
type selfWinPass[T any] struct {
	nvalid int
	// moves[((q*nvalid+vi)*NumChoices+ch)*nv*p ...] are the vectors of choice ch (not a pass)
	// made by seat q at standings vi, the same at every streak.
	moves []T
	// level[k][(q*nvalid+vi)*nv*p ...] are the vectors at streak k, choice[k][q*nvalid+vi] the
	// mover's choice there and passed[k][...] the vectors of a pass there (when legal).
	level, passed [][]T
	choice        [][]rules.Choice
	// rot[vi] is the place of standings vi seen from the next seat.
	rot []int
}

// size returns the entries of one standings' vectors.
func (w *selfWin[T]) size() int { return w.nv * w.p }

// allocPass makes the levels of a state with n pairs.
func (w *selfWin[T]) allocPass(n int) {
	s := w.pass
	k := len(w.valid[n])
	if s.nvalid == k && len(s.level) == w.p {
		return
	}
	s.nvalid = k
	z := w.size()
	s.moves = make([]T, w.nq*k*rules.NumChoices*z)
	s.level, s.passed, s.choice = make([][]T, w.p), make([][]T, w.p), make([][]rules.Choice, w.p)
	for l := range w.p {
		s.level[l], s.passed[l] = make([]T, w.nq*k*z), make([]T, w.nq*k*z)
		s.choice[l] = make([]rules.Choice, w.nq*k)
	}
	s.rot = make([]int, k)
	d := make([]int, w.p)
	for vi, v := range w.valid[n] {
		for t := range d {
			d[t] = v[(t+1)%w.p]
		}
		s.rot[vi] = int(w.place[n][rules.StandingsIndex(d, n)])
	}
}

// passMove returns the vectors of choice ch made by seat q at standings vi.
func (w *selfWin[T]) passMove(q, vi int, ch rules.Choice) []T {
	z := w.size()
	o := ((q*w.pass.nvalid+vi)*rules.NumChoices + int(ch)) * z
	return w.pass.moves[o : o+z]
}

// passLevel returns the vectors at streak k with seat q to move at standings vi.
func (w *selfWin[T]) passLevel(k, q, vi int) []T {
	z := w.size()
	o := (q*w.pass.nvalid + vi) * z
	return w.pass.level[k][o : o+z]
}

// passedLevel returns the vectors of a pass at streak k by seat q at standings vi.
func (w *selfWin[T]) passedLevel(k, q, vi int) []T {
	z := w.size()
	o := (q*w.pass.nvalid + vi) * z
	return w.pass.passed[k][o : o+z]
}

// stalemateVec writes into dst the vectors of a stalemate in a state with n pairs at standings d:
// n/p pairs to each seat, the seats level with the most sharing the score.
func (w *selfWin[T]) stalemateVec(n int, d []int, dst []T) {
	f, p := w.f, w.p
	top := 0
	for _, x := range d {
		if x == 0 {
			top++
		}
	}
	share := f.Div(f.FromInt(int64(n)), f.FromInt(int64(p)))
	for v := range w.nv {
		for s, x := range d {
			out := w.zero
			switch {
			case v == swPairs:
				out = share
			case x != 0:
			case v == swScore:
				out = w.shares[top]
			case v == swWin && top == 1, v == swDraw && top > 1:
				out = w.one
			}
			dst[v*p+s] = out
		}
	}
}

// statePass computes the count state st (its outcomes set) at every streak, mover's seat and
// standings, and keeps streak 0 in its cells.
func (w *selfWin[T]) statePass(st rules.State) {
	f, p := w.f, w.p
	s := w.pass
	w.allocPass(st.N)
	for q := range w.nq {
		w.seat(st, q)
		for vi := range w.valid[st.N] {
			for _, ch := range rules.Choices() {
				if w.legal[ch] && ch != rules.Pass {
					w.accumulate(st, vi, ch, w.passMove(q, vi, ch))
				}
			}
		}
	}
	for k := p - 1; k >= 0; k-- {
		for q := range w.nq {
			w.seat(st, q)
			follow := rules.Choice(rules.NumChoices)
			byStandings := w.follow != nil && w.follow.Standings() != nil
			if w.follow != nil && !byStandings {
				follow = w.followAt(st, k)
			}
			for vi, d := range w.valid[st.N] {
				if byStandings {
					// A standings table (the reply under limited memory) is read at the standings.
					follow = w.followedAtPass(st, vi, k) // selfishwinlimitedpass.go
				}
				pv := w.passedLevel(k, q, vi)
				if w.legal[rules.Pass] {
					if k == p-1 {
						w.stalemateVec(st.N, d, pv)
					} else {
						src := w.passLevel(k+1, (q+1)%w.nq, s.rot[vi])
						for v := range w.nv {
							for t := range p {
								pv[v*p+t] = src[v*p+(t+p-1)%p]
							}
						}
					}
				}
				var best []T
				bestCh := rules.Daring
				for _, ch := range rules.Choices() {
					if !w.legal[ch] || (follow != rules.NumChoices && ch != follow) {
						continue
					}
					vec := pv
					if ch != rules.Pass {
						vec = w.passMove(q, vi, ch)
					}
					if best == nil || f.Cmp(vec[0], best[0]) > 0 {
						best, bestCh = vec, ch
					}
				}
				copy(w.passLevel(k, q, vi), best)
				s.choice[k][q*s.nvalid+vi] = bestCh
			}
		}
	}
	for q := range w.nq {
		c := w.atSeat(st.N, st.J, st.F, q)
		w.alloc(c, st.N)
		for vi := range w.valid[st.N] {
			copy(c.vals[vi*w.nv*p:(vi+1)*w.nv*p], w.passLevel(0, q, vi))
			c.choice[vi] = s.choice[0][q*s.nvalid+vi]
		}
	}
}

// followAt returns the choice of the table the mover follows in st at streak k: a table of a
// pass rule reads the streak; a choice the table lacks or that is not legal falls to the first
// legal one.
func (w *selfWin[T]) followAt(st rules.State, k int) rules.Choice {
	if c, ok := w.follow.LookupPasses(st, k); ok && w.legal[c] {
		return c
	}
	for _, c := range rules.Choices() {
		if w.legal[c] {
			return c
		}
	}
	return rules.Daring
}

// passChoices returns, for the last state swept, seat q's vectors of every legal choice made at
// streak k and standings vi (nil for the others).
func (w *selfWin[T]) passChoices(k, q, vi int) [rules.NumChoices][]T {
	var out [rules.NumChoices][]T
	for _, ch := range rules.Choices() {
		switch {
		case !w.legal[ch]:
		case ch == rules.Pass:
			out[ch] = w.passedLevel(k, q, vi)
		default:
			out[ch] = w.passMove(q, vi, ch)
		}
	}
	return out
}

// evaluatePassChoices sets the legal choices of res and their values, seat 0 to move in st (the
// state's outcomes set) at streak 0 and standings vi.
func (w *selfWin[T]) evaluatePassChoices(st rules.State, vi int, res *SelfWinResult[T]) {
	if w.decayPass != nil {
		w.pass = w.decayPass[st.J] // the row of st keeps every state's levels
	} else {
		w.statePass(st)
	}
	res.Legal = w.legal
	for ch, v := range w.passChoices(0, 0, vi) {
		if v != nil {
			res.Choices[ch] = valuesOf(v, w.p)
		}
	}
}

// visitPass calls visit with the cell of the last state swept, st, at every streak, from 0 up,
// and every standings.
func (w *selfWin[T]) visitPass(st rules.State, sc *SelfWinCell[T], visit func(*SelfWinCell[T]) error) error {
	for k := range w.p {
		for vi, d := range w.valid[st.N] {
			sc.State, sc.Deficits, sc.Passes, sc.Legal = st, d, k, w.legal
			sc.Score, sc.Choice = w.passLevel(k, 0, vi)[:w.p], w.pass.choice[k][vi]
			sc.Best = sc.Best[:0]
			for ch, v := range w.passChoices(k, 0, vi) {
				if v == nil {
					continue
				}
				sc.ChoiceScore[ch] = v[0]
				if w.f.Cmp(v[0], sc.Score[0]) == 0 {
					sc.Best = append(sc.Best, rules.Choice(ch))
				}
			}
			if err := visit(sc); err != nil {
				return err
			}
		}
	}
	return nil
}

// setPassChoices writes into t seat 0's choices in the last state swept, st, at every streak and
// standings.
func (w *selfWin[T]) setPassChoices(t *rules.StandingsTable, st rules.State) {
	for k := range w.p {
		for vi, d := range w.valid[st.N] {
			t.SetPasses(st, d, k, w.pass.choice[k][vi])
		}
	}
}
