package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Singletons under a shared handover-uniform memory of capacity m (docs/models.md §4.4,
// "Singletons under a handover-uniform memory"). The count state (n, j, s, f) still describes the
// game: at the start of a turn the memory holds k = n - j half-known pairs' lone cards and s - f
// seen singletons, at most m cards in all. A hand-over forgets its excess uniformly among the
// cards remembered before the turn, which are of three kinds: a half-known pair's card (the pair
// becomes unknown), a seen singleton (it becomes unseen) and, when the turn left a pair known
// whole, that pair's old card (the pair is half-known again, through the card just seen, and
// nobody takes it); the number of each kind forgotten is multivariate hypergeometric.
//
// Singletons never leave the table, so the states of one number of pairs n refer to each other
// (a forgotten card leads to fewer known cards, a seen one to more) and to states of n - 1 (a pair
// taken, or handed to the next seat): each n is solved as one system of linear equations, the
// optimum by policy iteration (as decay's rows, §4.14).

// HUSinglesRationalLimit is the largest deal the handover-uniform singletons model solves in
// exact rationals for a table the engine plays (float64 beyond).
const HUSinglesRationalLimit = 30

// IsHUSingles reports whether m has singletons under a handover-uniform memory of a fixed
// capacity in the standard game: the model of husingles.go, which solves the expected values, each
// choice's values and the tables of optimal and best-response (under a turn limit too,
// husingles_limit.go), and of husinglesdist.go, the score distribution.
func IsHUSingles(m Model) bool {
	return m.Singletons > 0 && m.Memory.Forget == rules.ForgetHandoverUniform && m.Memory.Capacity > 0 &&
		m.Memory.Fluctuation == 0 && m.Variant.CopiesOf() == rules.DefaultCopies
}

// checkHUSinglesModel reports whether the model of singletons under a handover-uniform memory
// solves m, whatever the lineup: a shared memory of fixed capacity, every pass rule
// (husingles_pass.go), sequential flips with or without a turn limit (husingles_limit.go), blind
// flips without one (husingles_blind.go).
func checkHUSinglesModel(m Model) error {
	s := m.Singletons
	switch {
	case m.Memory.Scope != rules.ScopeShared:
		return fmt.Errorf("singletons %d: a private %s memory forgets at its own seat's turns, which no count state describes (only a shared one has an exact model)", s, m.Memory)
	case m.Variant.Flips == rules.FlipsBlind && m.Variant.TurnLimit > 0:
		return fmt.Errorf("turn limit %d: blind flips with singletons and %s memory have no exact model under a turn limit (use perfect memory, or the simulator)", m.Variant.TurnLimit, m.Memory)
	}
	if err := m.Memory.Validate(); err != nil {
		return err
	}
	return m.Choices.Validate()
}

// checkHUSingles reports whether the model of singletons under a handover-uniform memory solves
// mu in m: two players, optimal, safe, daring or parity, or seat 0's best-response to one of them;
// solitaire (husingles_solo.go); or three to eight seats (husingles_seats.go).
func checkHUSingles(m Model, mu Lineup) error {
	if err := checkHUSinglesModel(m); err != nil {
		return err
	}
	if err := checkHUSBlind(m, mu); err != nil {
		return err // husingles_blind.go
	}
	s := m.Singletons
	switch {
	case mu.Table != nil || mu.OpponentTable != nil:
		return fmt.Errorf("singletons %d with %s: a policy given as a table has no exact model", s, m.Memory)
	case mu.Players == 1 && !mu.PerSeat:
		return checkHUSinglesSolo(m, mu) // husingles_solo.go
	case mu.Players >= 3:
		return checkHUSinglesSeats(m, mu) // husingles_seats.go
	case mu.Players != 2 || mu.PerSeat:
		return fmt.Errorf("players %d: must be between 1 and %d (a policy per seat needs 3 or more)", mu.Players, rules.MaxPlayers)
	}
	for _, p := range []rules.Policy{mu.Policy, mu.Opponent} {
		switch p {
		case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity:
		case rules.PolicyBestResponse:
			if p == mu.Opponent {
				return fmt.Errorf("singletons %d with %s: best-response is seat 0's policy, answering optimal, safe, daring or parity", s, m.Memory)
			}
		default:
			return fmt.Errorf("policy %s with singletons %d and %s has no exact model (allowed: optimal, safe, daring, parity, best-response)", p, s, m.Memory)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return err
		}
	}
	if mu.Policy == rules.PolicyBestResponse {
		if err := mu.Policy.CheckReply(mu.Opponent, true, mu.Players); err != nil {
			return err
		}
	}
	return nil
}

// husOutcome is one outcome of a turn: with probability num/den the turn ends in cell to. keep
// says that the mover took a pair and moves again; otherwise the other seat moves, first taking
// the handed pairs (0 or 1) the turn left known whole. lucky says that the turn took a pair of
// two cards neither remembered when flipped (solitaire's lucky match).
type husOutcome struct {
	num, den int64
	next     rules.State
	to       int
	handed   int
	keep     bool
	lucky    bool
}

// husCell is one state with the outcomes of its legal choices and its values.
type husCell[T any] struct {
	st    rules.State
	legal [rules.NumChoices]bool
	outs  [rules.NumChoices][]husOutcome
	probs [rules.NumChoices][]T
	// after says that the other seat has just passed (husingles_pass.go); the stalemate cell
	// (no pairs, after) ends the game with lead 0.
	after bool

	leadVals[T]

	// solo is solitaire's expected turns and lucky matches from the cell, soloChoice the choice
	// (husingles_solo.go).
	solo       [2]T
	soloChoice rules.Choice

	// seats holds the values at three or more seats (husingles_seats.go).
	seats *husSeatVals[T]
}

// husSolver solves singletons under a handover-uniform memory over every state with at most
// maxPairs pairs.
type husSolver[T any] struct {
	ctx       context.Context
	f         field.Field[T]
	m         Model
	mu        Lineup
	cells     []*husCell[T]
	at        map[rules.State]int
	atPass    map[rules.State]int // the cells just after a pass (husingles_pass.go)
	rows      [][]int             // rows[n]: the cells of n pairs
	zero, one T
}

func newHUSSolver[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*husSolver[T], error) {
	if err := checkHUSingles(m, mu); err != nil {
		return nil, err
	}
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs %d: must be at least 1", maxPairs)
	}
	s := &husSolver[T]{ctx: ctx, f: f, m: m, mu: mu, at: map[rules.State]int{}, atPass: map[rules.State]int{}, rows: make([][]int, maxPairs+1),
		zero: f.FromInt(0), one: f.FromInt(1)}
	sn := m.Singletons
	for n := 0; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			for fu := 0; fu <= sn; fu++ {
				st := rules.State{N: n, J: j, S: sn, F: fu}
				if st.Known() > m.Memory.Capacity {
					continue
				}
				s.at[st] = len(s.cells)
				s.rows[n] = append(s.rows[n], len(s.cells))
				s.cells = append(s.cells, &husCell[T]{st: st})
			}
		}
	}
	s.addPassCells()
	for _, c := range s.cells {
		if c.st.N == 0 {
			continue
		}
		for _, ch := range rules.Choices() {
			if !m.Legal(c.st, ch) {
				continue
			}
			c.legal[ch] = true
			switch {
			case ch == rules.Pass && mu.Players >= 3:
				// Three or more seats count the pass streak in their rows (husingles_seats.go).
				c.outs[ch] = []husOutcome{{num: 1, den: 1, next: c.st, to: s.at[c.st]}}
			case ch == rules.Pass:
				c.outs[ch] = []husOutcome{s.passOutcome(c)} // husingles_pass.go
			case m.Variant.Flips == rules.FlipsBlind:
				c.outs[ch] = husBlindOutcomes(c.st, ch, m.Memory.Capacity) // husingles_blind.go
			default:
				c.outs[ch] = husOutcomes(c.st, ch, m.Memory.Capacity)
			}
			for i := range c.outs[ch] {
				o := &c.outs[ch][i]
				if ch != rules.Pass {
					to, ok := s.at[o.next]
					if !ok {
						return nil, fmt.Errorf("%v %s: outcome %v is not a state of the model", c.st, ch, o.next)
					}
					o.to = to
				}
				c.probs[ch] = append(c.probs[ch], f.FromFrac(o.num, o.den))
			}
		}
	}
	return s, nil
}

// husOutcomes returns the outcomes of the legal choice ch in st under a shared handover-uniform
// memory of the given capacity, as the engine plays it card by card (§5.2), the hand-over's
// forgetting included: daring, safe and known-first (a pass, husingles_pass.go, has one outcome).
func husOutcomes(st rules.State, ch rules.Choice, capacity int) []husOutcome {
	n, j, f := st.N, st.J, st.F
	k, ks := n-j, st.S-st.F
	h := k + ks
	u := int64(st.Unknown())
	var out []husOutcome
	add := func(num, den int64, next rules.State, keep bool, handed int) {
		if num == 0 {
			return
		}
		g := gcd64(num, den)
		out = append(out, husOutcome{num: num / g, den: den / g, next: next, keep: keep, handed: handed})
	}
	at := func(n, half, seen int) rules.State { return rules.State{N: n, J: n - half, S: st.S, F: st.S - seen} }
	// miss adds a turn that hands over with weight num/den: half half-known pairs and seen seen
	// singletons after the flips (the pair left known whole excluded), full such pairs (0 or 1),
	// of which k and ks half-known pairs and seen singletons were remembered before the turn.
	miss := func(num, den int64, half, seen, full int) {
		x := max(0, half+seen+2*full-capacity)
		husForget(num, den, n, half, seen, k-full, ks, full, x, add, at)
	}
	if ch == rules.KnownFirst {
		own := 0
		if k >= 1 {
			own = 1
			add(1, u, at(n-1, k-1, ks), true, 0)
		}
		miss(int64(k-own), u, k-1, ks, 1)
		miss(int64(2*j), u, k+1, ks, 0)
		miss(int64(f), u, k, ks+1, 0)
		return out
	}
	add(int64(k), u, at(n-1, k-1, ks), true, 0)
	if f > 0 {
		if h >= 1 {
			miss(int64(f), u, k, ks+1, 0)
		} else {
			miss(int64(f*(f-1)), u*(u-1), 0, 2, 0)
			miss(int64(f*2*j), u*(u-1), 1, 1, 0)
		}
	}
	if j == 0 {
		return out
	}
	pNew := int64(2 * j)
	if ch == rules.Safe {
		miss(pNew, u, k+1, ks, 0)
		return out
	}
	den := u * (u - 1)
	add(pNew, den, at(n-1, k, ks), true, 0)
	out[len(out)-1].lucky = true
	miss(pNew*int64(k), den, k, ks, 1)
	miss(pNew*int64(2*(j-1)), den, k+2, ks, 0)
	miss(pNew*int64(f), den, k+1, ks+1, 0)
	return out
}

// husForget adds the outcomes of forgetting x more cards, one at a time uniformly among the cards
// remembered before the turn: oldHalf half-known pairs' cards, oldSeen seen singletons and the
// old cards of the full pairs the turn left known whole (0 or 1; 2 under blind flips,
// husingles_blind.go). half and seen count the half-known pairs and seen singletons after the
// turn (the full pairs excluded).
func husForget(num, den int64, n, half, seen, oldHalf, oldSeen, full, x int,
	add func(num, den int64, next rules.State, keep bool, handed int), at func(n, half, seen int) rules.State) {
	if num == 0 {
		return
	}
	if x == 0 {
		add(num, den, at(n-full, half, seen), false, full)
		return
	}
	pool := int64(oldHalf + oldSeen + full)
	if full > 0 {
		// A full pair's old card: the pair is half-known again, through the card just seen.
		husForget(num*int64(full), den*pool, n, half+1, seen, oldHalf, oldSeen, full-1, x-1, add, at)
	}
	if oldHalf > 0 {
		husForget(num*int64(oldHalf), den*pool, n, half-1, seen, oldHalf-1, oldSeen, full, x-1, add, at)
	}
	if oldSeen > 0 {
		husForget(num*int64(oldSeen), den*pool, n, half, seen-1, oldHalf, oldSeen-1, full, x-1, add, at)
	}
}

// husChooser says how a role chooses: a fixed policy's choice, the optimum's (read off the solved
// self-play), or the largest lead (a maximiser).
type husChooser int

const (
	husFixed husChooser = iota
	husOptimal
	husMax
)

// solve computes the values, row by row: the optimum's self-play where a role reads it, then the
// lineup's two roles.
func (s *husSolver[T]) solve() error {
	if s.mu.Players == 1 {
		return s.solveSolo() // husingles_solo.go
	}
	if s.mu.Players >= 3 {
		return s.solveSeats() // husingles_seats.go
	}
	pol := [2]rules.Policy{s.mu.Policy, s.mu.Opponent}
	needOpt := false
	var kinds [2]husChooser
	for r, p := range pol {
		switch p {
		case rules.PolicyOptimal:
			kinds[r], needOpt = husOptimal, true
		case rules.PolicyBestResponse:
			kinds[r] = husMax
		}
	}
	for _, row := range s.rows {
		if needOpt {
			if err := s.solveRow(row, 1, [2]husChooser{husMax}, pol, true); err != nil {
				return err
			}
		}
		if err := s.solveRow(row, 2, kinds, pol, false); err != nil {
			return err
		}
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// choiceValue returns the lead of role r's mover making ch in c, every state it leads to solved.
func (s *husSolver[T]) choiceValue(c *husCell[T], r, roles int, ch rules.Choice, self bool) T {
	f := s.f
	sum := s.zero
	for i, o := range c.outs[ch] {
		x := leadAfter(f, &s.cells[o.to].leadVals, r, roles, self, o.keep, o.handed)
		sum = f.Add(sum, f.Mul(c.probs[ch][i], x))
	}
	return sum
}

// pick returns role r's fixed choice in c, or for a maximiser the choice policy iteration starts
// from.
func (s *husSolver[T]) pick(c *husCell[T], r int, kinds [2]husChooser, pol [2]rules.Policy) rules.Choice {
	switch kinds[r] {
	case husOptimal:
		return c.optChoice
	case husMax:
		return rules.Daring
	}
	return pol[r].Decide(c.st)
}

// solveRow solves the cells of one number of pairs, which refer to each other and to solved cells
// of fewer pairs: one system of linear equations, maximisers' choices by policy iteration.
func (s *husSolver[T]) solveRow(idx []int, roles int, kinds [2]husChooser, pol [2]rules.Policy, self bool) error {
	f := s.f
	if s.cells[idx[0]].st.N == 0 {
		for _, i := range idx {
			for r := range roles {
				s.cells[i].setLead(r, self, s.zero, rules.Daring)
			}
		}
		return nil
	}
	ch := make([]rules.Choice, len(idx)*roles)
	for k, i := range idx {
		for r := range roles {
			ch[k*roles+r] = s.pick(s.cells[i], r, kinds, pol)
		}
	}
	arcs := func(k int, x rules.Choice, visit func(p T, to int, keep bool, handed int)) {
		c := s.cells[idx[k]]
		for i, o := range c.outs[x] {
			visit(c.probs[x][i], o.to, o.keep, o.handed)
		}
	}
	x, err := solveLeadGroup(f, idx, roles, ch, func(r int) bool { return kinds[r] == husMax },
		func(k int, y rules.Choice) bool { return s.cells[idx[k]].legal[y] }, arcs,
		func(to, r int) T { return s.cells[to].lead(r, self) })
	if err != nil {
		return fmt.Errorf("singletons with %s: %w", s.m.Memory, err)
	}
	storeLeadGroup(f, idx, roles, self, x, ch, func(r int) bool { return kinds[r] == husMax },
		func(i int) *leadVals[T] { return &s.cells[i].leadVals },
		func(i int, y rules.Choice) bool { return s.cells[i].legal[y] },
		func(i, r int, y rules.Choice) T { return s.choiceValue(s.cells[i], r, roles, y, self) })
	return nil
}

// husCheckState checks st, a state of singletons under a handover-uniform memory, against m.
func husCheckState(m Model, st rules.State) error {
	if st.S != m.Singletons {
		return fmt.Errorf("state has %d singletons, the model %d", st.S, m.Singletons)
	}
	if err := st.Validate(m.Memory); err != nil {
		return err
	}
	if st.Lead != 0 {
		return fmt.Errorf("lead %d: singletons under %s are solved for the expected values, which do not read the lead", st.Lead, m.Memory)
	}
	return nil
}

// husStart checks st against m and returns the solver of every state up to st's pairs, solved.
func husStart[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (*husSolver[T], *husCell[T], error) {
	if err := husCheckState(m, st); err != nil {
		return nil, nil, err
	}
	s, err := newHUSSolver(ctx, f, m, mu, max(st.N, 1))
	if err != nil {
		return nil, nil, err
	}
	if err := s.solve(); err != nil {
		return nil, nil, err
	}
	return s, s.cells[s.at[st.Counts()]], nil
}

// evaluateHUSingles is Evaluate for singletons under a handover-uniform memory.
func evaluateHUSingles[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	if m.Variant.TurnLimit > 0 && mu.Players >= 3 {
		return evaluateHUSinglesSeatsLimit(ctx, f, m, mu, st) // husingles_seatslimit.go
	}
	if m.Variant.TurnLimit > 0 {
		return evaluateHUSinglesLimit(ctx, f, m, mu, st) // husingles_limit.go
	}
	s, c, err := husStart(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	if mu.Players == 1 {
		return s.soloResult(c), nil
	}
	if mu.Players >= 3 {
		return s.seatsResult(c), nil // husingles_seats.go
	}
	return husResult(f, c), nil
}

func husResult[T any](f field.Field[T], c *husCell[T]) Result[T] {
	n := f.FromInt(int64(c.st.N))
	res := Result[T]{State: c.st, Players: 2, ExpectedLead: c.val[0]}
	res.ExpectedPairs = pairsFromLead(f, n, res.ExpectedLead)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Sub(n, res.ExpectedPairs)}
	return res
}

// husChoiceValues is ChoiceValues for singletons under a handover-uniform memory.
func husChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Choices[T], error) {
	if m.Variant.TurnLimit > 0 && mu.Players >= 3 {
		return husSeatsLimitChoiceValues(ctx, f, m, mu, st) // husingles_seatslimit.go
	}
	if m.Variant.TurnLimit > 0 {
		return husLimitChoiceValues(ctx, f, m, mu, st) // husingles_limit.go
	}
	s, c, err := husStart(ctx, f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	if mu.Players == 1 {
		return s.soloChoices(c), nil // husingles_solo.go
	}
	if mu.Players >= 3 {
		return s.seatsChoices(c), nil // husingles_seats.go
	}
	n := f.FromInt(int64(st.N))
	out := Choices[T]{State: c.st, Value: husResult(f, c), PolicyChoice: c.ch[0]}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		cv := ChoiceValue[T]{Choice: ch, Lead: s.choiceValue(c, 0, 2, ch, false)}
		cv.Pairs = pairsFromLead(f, n, cv.Lead)
		cv.PairsBySeat = []T{cv.Pairs, f.Sub(n, cv.Pairs)}
		out.Values = append(out.Values, cv)
	}
	markBestUnlimited(f, &out, 2)
	return out, nil
}

// husPolicyTable is PolicyTable for singletons under a handover-uniform memory: seat 0's choices
// (optimal, or best-response to the other seat's policy) in every state of at most maxPairs pairs.
func husPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if p := mu.SeatPolicies()[0]; p.Fixed() {
		if err := checkHUSingles(m, mu); err != nil {
			return nil, err
		}
		return rules.FixedChoiceTable(p, maxPairs, m.Singletons)
	}
	if m.Variant.TurnLimit > 0 && mu.Players >= 3 {
		return husSeatsLimitPolicyTable(ctx, f, m, mu, maxPairs) // husingles_seatslimit.go
	}
	if m.Variant.TurnLimit > 0 {
		return husLimitPolicyTable(ctx, f, m, mu, maxPairs) // husingles_limit.go
	}
	s, err := newHUSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	if err := s.solve(); err != nil {
		return nil, err
	}
	if mu.Players >= 3 {
		return s.seatsTable(maxPairs) // husingles_seats.go
	}
	t, err := rules.NewChoiceTable(maxPairs, m.Singletons)
	if err != nil {
		return nil, err
	}
	for _, c := range s.cells {
		if c.st.N == 0 {
			continue
		}
		ch := c.ch[0]
		if mu.Players == 1 {
			ch = c.soloChoice
		}
		s.setHUSTable(t, c, ch) // husingles_pass.go
	}
	return t, nil
}

// estimateHUSingles is Estimate for singletons under a handover-uniform memory: the values and
// the tables, by rows of up to 2(m+1)(s+1) unknowns (both roles, at most m known cards; twice as
// many under a pass rule, just after a pass or not), each
// solved a few times over (policy iteration), in exact rationals with numbers that grow with n.
func estimateHUSingles[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	switch call {
	case CallEvaluate, CallPolicyTable:
	case CallDistribution:
	default:
		return Cost{}, fmt.Errorf("singletons %d with %s: the solver gives a matchup's values, each choice's values and the score distribution (two seats) and the engine's tables of optimal and best-response, not this computation", m.Singletons, m.Memory)
	}
	if err := checkHUSingles(m, mu); err != nil {
		return Cost{}, err
	}
	_, isFloat := any(f).(field.Float)
	var ops, most float64
	for n := 1; n <= pairs; n++ {
		row := 2 * float64(min(n, m.Memory.Capacity)+1) * float64(m.Singletons+1)
		switch p := float64(mu.Players); {
		case mu.Players >= 3 && isSelfish(mu) && m.Pass != rules.PassNever:
			row *= p * p * p / 2 // p unknowns per state and pass streak (husingles_seats.go)
		case mu.Players >= 3 && isSelfish(mu):
			row *= p / 2
		case mu.Players >= 3 && m.Pass != rules.PassNever:
			row *= p * p * p * p / 2 // and each seat to move
		case mu.Players >= 3:
			row *= p * p / 2
		case m.Pass != rules.PassNever:
			row *= 2 // the cells just after a pass (husingles_pass.go)
		}
		w := 8 * row * row // a sparse row, a few rounds of policy iteration
		// The unknowns of a row of every seat's distributions (husingles_seatsdist.go): every seat
		// to move at every streak, each a vector of p blocks of n+1 shares (p·n+1 under a pass rule).
		u, vec := float64(mu.Players)*float64(min(n, m.Memory.Capacity)+1)*float64(m.Singletons+1), float64(mu.Players*(n+1))
		if m.Pass != rules.PassNever {
			u, vec = u*float64(mu.Players), vec*float64(mu.Players)
		}
		switch {
		case call == CallDistribution && mu.Players >= 3:
			w += u * u * vec // one system, a right-hand side per seat's share
		case call == CallDistribution:
			w += 2 * row * row * float64(n+1) // the row's two systems, a right-hand side per lead (husinglesdist.go)
		}
		if t := m.Variant.TurnLimit; t > 0 {
			w = row * 16 * float64(t) // a layer per turn left, each cell's outcomes read once per role (husingles_limit.go)
			if call == CallDistribution && mu.Players >= 3 {
				// Every seat's distributions, a layer per turn left (husingles_seatslimitdist.go):
				// each unknown's vector, read once per outcome of its choice.
				w += 8 * u * vec * float64(t)
			}
		}
		if !isFloat {
			w *= husRatWeight * float64(n)
		}
		ops += w
		most = max(most, row*row)
		switch {
		case call == CallDistribution && mu.Players >= 3:
			most = max(most, row*row+u*u+2*u*vec)
		case call == CallDistribution:
			most = max(most, row*row+2*row*float64(n+1))
		}
	}
	bytes := baseBytes + most*8
	if !isFloat {
		bytes = baseBytes + gcHeadroom*most*(ratBytes+8*float64(pairs))
	}
	return Cost{Ops: ops, Bytes: bytes}, nil
}

// husRatWeight weighs an exact rational operation against a float64 one, per pair: measured
// (memsim solve --pairs 60 --singletons 2 --memory 3 --forget handover-uniform, 0.24 s on a
// loaded machine; --pairs 30 --singletons 3 --memory 8, 0.26 s).
const husRatWeight = 0.6
