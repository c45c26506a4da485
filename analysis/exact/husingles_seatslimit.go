package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Singletons under a shared handover-uniform memory at three to eight seats under a turn limit
// (docs/models.md §4.4, "Singletons under a handover-uniform memory", §4.7 and §4.18). The cells
// and turns are those of the model without the limit (husingles_seats.go), each cell gaining the
// turns left t beside the pass streak l = 0 .. p-1 (one level under pass rule never). Every turn
// uses a turn left: a turn that takes a pair keeps the move; one that hands it over gives the next
// seat the state it leaves, the next seat first taking the pair the turn left known whole, if any,
// in a turn of its own, taken only when one is left; a pass at streak l < p-1 hands the same state
// to the next seat at streak l+1 (it forgets nothing), and at l = p-1 ends the game in a
// stalemate, every seat taking n/p pairs, whatever the turns left. With t = 0 the pairs left count
// for nobody. Every step reads a layer of fewer turns left, so the model is a backward induction
// from t = 1 up with no system to solve (as the two-seat layers, husingles_limit.go): every seat
// for itself makes the first choice, in the order of rules.Choices, that gives it the most pairs,
// the others playing the same optimum afterwards (the limit model's rule, limitpassseats.go); a
// fixed policy per seat plays its choice, optimal the optimum of every seat for itself, and
// best-response at one seat its best choice against the others.

// husSeatsLimitVal is one cell's values with t turns left: self[l] every seat's expected pairs in
// order from the mover at streak l, every seat for itself (selfCh[l] the mover's choice), and
// seats[l][m] every seat's (seat 0 first) with seat m to move at streak l, each seat playing its
// policy (reply[l] the choice of the seat that plays best-response).
type husSeatsLimitVal[T any] struct {
	self   [][]T
	selfCh []rules.Choice
	seats  [][][]T
	reply  []rules.Choice
}

// husSeatsLimit solves the model under a turn limit over the cells of a husSolver at three or more
// seats: layers[t%3] holds the cells' values with t turns left (the last three layers).
type husSeatsLimit[T any] struct {
	s                   *husSolver[T]
	p, levels, limit    int
	pol                 []rules.Policy
	reply               int // the seat that plays best-response, -1: none
	needSelf, needMulti bool
	zeros               []T
	layers              [3][]husSeatsLimitVal[T]
	// seat0[t-1][i][l] is seat 0's choice in cell i with t turns left at streak l: its reply where
	// it plays best-response, every seat's own optimum otherwise.
	seat0 [][][]rules.Choice
	// kept, when keep is set, holds every layer: kept[t-1] the cells' values with t turns left.
	keep bool
	kept [][]husSeatsLimitVal[T]
}

// newHUSSeatsLimit builds the cells of every state with at most maxPairs pairs and solves them
// with every number of turns left up to the model's limit.
func newHUSSeatsLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*husSeatsLimit[T], error) {
	l, err := prepareHUSSeatsLimit(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	if err := l.run(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// prepareHUSSeatsLimit builds the cells of every state with at most maxPairs pairs, unsolved.
func prepareHUSSeatsLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*husSeatsLimit[T], error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("singletons %d with %s: no turn limit to solve layers for", m.Singletons, m.Memory)
	}
	s, err := newHUSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	l := &husSeatsLimit[T]{s: s, p: mu.Players, levels: s.seatLevels(), limit: m.Variant.TurnLimit,
		pol: mu.SeatPolicies(), reply: mu.replySeat(), needSelf: mu.playsOptimal(), needMulti: !isSelfish(mu)}
	l.zeros = make([]T, l.p)
	for i := range l.zeros {
		l.zeros[i] = s.zero
	}
	return l, nil
}

// at returns cell i's values with u turns left, nil with no turn or no pair left (every vector
// zero).
func (l *husSeatsLimit[T]) at(i, u int) *husSeatsLimitVal[T] {
	if u <= 0 || l.s.cells[i].st.N == 0 {
		return nil
	}
	return &l.layers[u%3][i]
}

// read returns get's vector of cell i with u turns left, zeros where nothing is left.
func (l *husSeatsLimit[T]) read(i, u int, get func(x *husSeatsLimitVal[T]) []T) []T {
	if x := l.at(i, u); x != nil {
		return get(x)
	}
	return l.zeros
}

// vector returns every seat's expected pairs after choice ch of seat mv in cell c with t turns
// left at streak l: own reads a successor's vector with mv to move, other with the next seat nx
// to move, afterPass the next seat's at streak l+1; rot turns a vector read from the next seat
// into the caller's numbering (nil: the same numbering), in which the seats taking pairs are mv
// and nx.
func (l *husSeatsLimit[T]) vector(c *husCell[T], t, lv int, ch rules.Choice, mv, nx int, own, other, afterPass func(x *husSeatsLimitVal[T]) []T, rot func([]T) []T) []T {
	s := l.s
	f := s.f
	if rot == nil {
		rot = func(v []T) []T { return v }
	}
	if ch == rules.Pass {
		if lv == l.p-1 {
			return s.stalemateVec(c.st.N) // husingles_seats.go
		}
		return append([]T(nil), rot(l.read(c.outs[ch][0].to, t-1, afterPass))...) // the same cell
	}
	out := append([]T(nil), l.zeros...)
	for k, o := range c.outs[ch] {
		pr := c.probs[ch][k]
		if o.keep {
			addScaled(f, out, pr, l.read(o.to, t-1, own))
			out[mv] = f.Add(out[mv], pr)
			continue
		}
		g := min(o.handed, t-1) // the pair known whole, taken in a turn of its own if one is left
		addScaled(f, out, pr, rot(l.read(o.to, t-1-g, other)))
		out[nx] = f.Add(out[nx], f.Mul(pr, f.FromInt(int64(g))))
	}
	return out
}

// fromMover turns a successor's vector in order from the next seat into the mover's order.
func (l *husSeatsLimit[T]) fromMover(v []T) []T {
	out := make([]T, l.p)
	for i := range out {
		out[i] = v[(i+l.p-1)%l.p]
	}
	return out
}

// selfVector returns every seat's pairs, in order from the mover, after choice ch in c with t
// turns left at streak lv, every seat for itself afterwards.
func (l *husSeatsLimit[T]) selfVector(c *husCell[T], t, lv int, ch rules.Choice) []T {
	own := func(x *husSeatsLimitVal[T]) []T { return x.self[0] }
	ap := func(x *husSeatsLimitVal[T]) []T { return x.self[lv+1] }
	return l.vector(c, t, lv, ch, 0, 1, own, own, ap, l.fromMover)
}

// seatsVector returns every seat's pairs (seat 0 first) after choice ch of seat mv in c with t
// turns left at streak lv, every seat playing its policy afterwards.
func (l *husSeatsLimit[T]) seatsVector(c *husCell[T], t, lv int, ch rules.Choice, mv int) []T {
	nx := (mv + 1) % l.p
	own := func(x *husSeatsLimitVal[T]) []T { return x.seats[0][mv] }
	other := func(x *husSeatsLimitVal[T]) []T { return x.seats[0][nx] }
	ap := func(x *husSeatsLimitVal[T]) []T { return x.seats[lv+1][nx] }
	return l.vector(c, t, lv, ch, mv, nx, own, other, ap, nil)
}

// bestOf returns the first legal choice, in the order of rules.Choices, whose vector gives seat
// who the most.
func (l *husSeatsLimit[T]) bestOf(legal *[rules.NumChoices]bool, v *[rules.NumChoices][]T, who int) rules.Choice {
	best, have := rules.Daring, false
	for _, ch := range rules.Choices() {
		if legal[ch] && (!have || l.s.f.Cmp(v[ch][who], v[best][who]) > 0) {
			best, have = ch, true
		}
	}
	return best
}

// cellAt computes cell c's values with t turns left at every streak.
func (l *husSeatsLimit[T]) cellAt(c *husCell[T], t int) (husSeatsLimitVal[T], error) {
	var x husSeatsLimitVal[T]
	if l.needSelf {
		x.self, x.selfCh = make([][]T, l.levels), make([]rules.Choice, l.levels)
		for lv := range l.levels {
			var v [rules.NumChoices][]T
			for _, ch := range rules.Choices() {
				if c.legal[ch] {
					v[ch] = l.selfVector(c, t, lv, ch)
				}
			}
			x.selfCh[lv] = l.bestOf(&c.legal, &v, 0)
			x.self[lv] = v[x.selfCh[lv]]
		}
	}
	if !l.needMulti {
		return x, nil
	}
	x.seats, x.reply = make([][][]T, l.levels), make([]rules.Choice, l.levels)
	for lv := range l.levels {
		x.seats[lv] = make([][]T, l.p)
		for mv := range l.p {
			var ch rules.Choice
			switch pol := l.pol[mv]; pol {
			case rules.PolicyOptimal:
				ch = x.selfCh[lv]
			case rules.PolicyBestResponse:
				var v [rules.NumChoices][]T
				for _, y := range rules.Choices() {
					if c.legal[y] {
						v[y] = l.seatsVector(c, t, lv, y, mv)
					}
				}
				x.reply[lv] = l.bestOf(&c.legal, &v, mv)
				x.seats[lv][mv] = v[x.reply[lv]]
				continue
			default:
				ch = pol.Decide(c.st)
				if !c.legal[ch] {
					return x, fmt.Errorf("%v: seat %d's policy %s makes %s, not legal there", c.st, mv, pol, ch)
				}
			}
			x.seats[lv][mv] = l.seatsVector(c, t, lv, ch, mv)
		}
	}
	return x, nil
}

// seatChoice returns the choice of seat m at streak lv in state st, whose values with some
// number of turns left are x: the optimum of every seat for itself, the best reply or the fixed
// policy's choice.
func (l *husSeatsLimit[T]) seatChoice(x *husSeatsLimitVal[T], st rules.State, lv, m int) rules.Choice {
	switch pol := l.pol[m]; {
	case l.needMulti && pol == rules.PolicyBestResponse:
		return x.reply[lv]
	case !l.needMulti || pol == rules.PolicyOptimal:
		return x.selfCh[lv]
	default:
		return pol.Decide(st)
	}
}

// run computes the layers from one turn left up to the limit, keeping seat 0's choices.
func (l *husSeatsLimit[T]) run(ctx context.Context) error {
	cells := l.s.cells
	for i := range l.layers {
		l.layers[i] = make([]husSeatsLimitVal[T], len(cells))
	}
	l.seat0 = make([][][]rules.Choice, l.limit)
	for t := 1; t <= l.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return err
		}
		layer := l.layers[t%3]
		l.seat0[t-1] = make([][]rules.Choice, len(cells))
		for i, c := range cells {
			if c.st.N == 0 {
				continue
			}
			x, err := l.cellAt(c, t)
			if err != nil {
				return fmt.Errorf("singletons with %s at %d seats, turn limit %d: %w", l.s.m.Memory, l.p, l.limit, err)
			}
			layer[i] = x
			if l.reply == 0 {
				l.seat0[t-1][i] = x.reply
			} else {
				l.seat0[t-1][i] = x.selfCh
			}
		}
		if l.keep {
			l.kept = append(l.kept, append([]husSeatsLimitVal[T](nil), layer...))
		}
	}
	return nil
}

// value returns every seat's expected pairs (seat 0 first) in cell i, seat 0 to move at streak 0
// with the limit's turns left.
func (l *husSeatsLimit[T]) value(i int) []T {
	x := l.at(i, l.limit)
	switch {
	case x == nil:
		return append([]T(nil), l.zeros...)
	case l.needMulti:
		return append([]T(nil), x.seats[0][0]...)
	}
	return append([]T(nil), x.self[0]...)
}

// husSeatsLimitStart checks st against m and returns the solved model and st's cell.
func husSeatsLimitStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*husSeatsLimit[T], int, error) {
	if err := husCheckState(m, st); err != nil {
		return nil, 0, err
	}
	l, err := newHUSSeatsLimit(ctx, f, m, mu, max(st.N, 1))
	if err != nil {
		return nil, 0, err
	}
	return l, l.s.at[st.Counts()], nil
}

// evaluateHUSinglesSeatsLimit is Evaluate at three or more seats under a turn limit.
func evaluateHUSinglesSeatsLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	l, i, err := husSeatsLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	v := l.value(i)
	return Result[T]{State: l.s.cells[i].st, Players: l.p, ExpectedPairs: v[0], PairsBySeat: v}, nil
}

// husSeatsLimitChoiceValues is ChoiceValues at three or more seats under a turn limit: each legal
// choice of seat 0 made once at streak 0 with the limit's turns left, the lineup played after.
func husSeatsLimitChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Choices[T], error) {
	l, i, err := husSeatsLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	c, t := l.s.cells[i], l.limit
	v := l.value(i)
	out := Choices[T]{State: c.st, Value: Result[T]{State: c.st, Players: l.p, ExpectedPairs: v[0], PairsBySeat: v}}
	out.PolicyChoice = l.seatChoice(l.at(i, t), c.st, 0, 0)
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		var vec []T
		if l.needMulti {
			vec = l.seatsVector(c, t, 0, ch, 0)
		} else {
			vec = l.selfVector(c, t, 0, ch)
		}
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Pairs: vec[0], PairsBySeat: vec})
	}
	markBestUnlimited(f, &out, l.p)
	return out, nil
}

// husSeatsLimitPolicyTable is the table of seat 0 (optimal: every seat's own optimum; or
// best-response to the others) at three or more seats under a turn limit, in every state of at
// most maxPairs pairs: a layer per number of turns left (rules.NewTurnChoiceTable), under a pass
// rule each holding the choice at every pass streak (rules.NewPassChoiceTable).
func husSeatsLimitPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	l, err := newHUSSeatsLimit(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	layers := make([]*rules.ChoiceTable, l.limit)
	for t := range l.limit {
		var tab *rules.ChoiceTable
		if l.levels > 1 {
			tab, err = rules.NewPassChoiceTable(maxPairs, m.Singletons, l.levels)
		} else {
			tab, err = rules.NewChoiceTable(maxPairs, m.Singletons)
		}
		if err != nil {
			return nil, err
		}
		for i, c := range l.s.cells {
			if c.st.N == 0 {
				continue
			}
			chs := l.seat0[t][i]
			if l.levels == 1 {
				tab.Set(c.st, false, chs[0])
				tab.Set(c.st, true, chs[0])
				continue
			}
			for lv, ch := range chs {
				tab.SetPasses(c.st, lv, ch)
			}
		}
		layers[t] = tab
	}
	return rules.NewTurnChoiceTable(layers)
}
