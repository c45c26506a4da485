package sim

import (
	"fmt"
	"math"

	"memsim/sim/rules"
)

// Luck-adjusted scores (docs/models.md §5.6). A reference value function V (a rules.LuckTable)
// gives, at every point of a game, each seat's expected final score Φ = its pairs so far plus V of
// the position. Φ starts at V(start) and ends at the score; the luck of a chance event is its
// change of Φ minus the change expected before it. The luck terms have mean zero, so the score
// minus the game's luck is an unbiased estimate of the expected score, with the luck's variance
// taken out.
//
// With the model's mode (luckModel), every seat follows a table and shares one memory of the
// table's model: the model's transitions are then the true conditional distribution of a turn,
// and the adjusted score is V(start) plus, for every choice made, its advantage (the expected
// change of Φ over the turn it begins), read from the table.

// luckMode says how a game's luck is taken out.
type luckMode uint8

const (
	luckNone  luckMode = iota // no luck table
	luckModel                 // per turn, from the model's transitions (every seat a table, one shared memory of the table's model)
	luckTurns                 // turn by turn: a table player's turn from its own memory's model, any other turn card by card from the public record
)

// checkLuck reports whether the setup's luck tables can adjust its games, and how.
func (s Setup) checkLuck() (luckMode, error) {
	t := s.Luck
	if t == nil {
		for _, p := range s.Players {
			if p.Luck != nil {
				return luckNone, fmt.Errorf("player %q has a luck table but the setup has none (a perfect-memory table for the turns no model describes)", p.Name)
			}
		}
		return luckNone, nil
	}
	check := func(t *rules.LuckTable, who string) error {
		switch {
		case t.Players() != len(s.Players):
			return fmt.Errorf("%sluck table for %d players, the game has %d", who, t.Players(), len(s.Players))
		case t.MaxPairs() < s.Pairs || t.Singletons() != s.Singletons:
			return fmt.Errorf("%sluck table covers %d pairs and %d singletons, the game has %d and %d", who, t.MaxPairs(), t.Singletons(), s.Pairs, s.Singletons)
		}
		return nil
	}
	if err := check(t, ""); err != nil {
		return luckNone, err
	}
	// One memory of the table's model, shared or held alike by every seat (private lru memories
	// of one capacity hold the same cards), every seat a table: the model's mode.
	model := t.Pass() == s.Pass
	for _, p := range s.Players {
		alike := p.Memory.Perfect() || p.Memory.Scope == rules.ScopeShared || p.Memory.Forget == rules.ForgetLRU
		if p.Table == nil || (p.Luck != nil && p.Luck != t) || !modelMemory(p.Memory, t.Memory()) || !alike {
			model = false
		}
	}
	if err := s.checkVariantLuck(model); err != nil {
		return luckNone, err
	}
	if model {
		return luckModel, nil
	}
	if !t.Memory().Perfect() {
		return luckNone, fmt.Errorf("luck table of the model with %s memory and pass rule %s: the setup's table adjusts games in which every seat follows a table and shares that memory under that rule; other games need a perfect-memory table", t.Memory(), t.Pass())
	}
	for i, p := range s.Players {
		if p.Luck == nil {
			continue
		}
		if err := check(p.Luck, fmt.Sprintf("player %q (seat %d): ", p.Name, i)); err != nil {
			return luckNone, err
		}
		if !modelMemory(p.Memory, p.Luck.Memory()) || p.Luck.Pass() != s.Pass || p.Table == nil {
			return luckNone, fmt.Errorf("player %q (seat %d): its luck table is of the model with %s memory and pass rule %s; a player's table must be of its own memory under the game's pass rule, and the player must follow a policy table", p.Name, i, p.Luck.Memory(), p.Luck.Pass())
		}
	}
	return luckTurns, nil
}

// modelMemory reports whether a player's memory m (of either scope) evolves as the shared memory
// of model t does: the same capacity and forgetting rule, with an exact model (perfect, lru,
// handover-uniform, or decay with the same q). Every memory sees every flip, so a private memory of
// that kind holds what the shared one would (for the forgetting rules that draw nothing).
func modelMemory(m, t rules.Memory) bool {
	if m.Perfect() || t.Perfect() {
		return m.Perfect() && t.Perfect()
	}
	return m.Capacity == t.Capacity && m.Forget == t.Forget && m.Decay == t.Decay &&
		(m.Forget == rules.ForgetLRU || m.Forget == rules.ForgetHandoverUniform || m.Forget == rules.ForgetDecay)
}

// newLuckStart returns every seat's value at the start of a game (seat 0 to move), or an error if
// the luck table has none.
func (s Setup) newLuckStart() ([]float64, error) {
	st := rules.State{N: s.Pairs, J: s.Pairs, S: s.Singletons, F: s.Singletons}
	vs := s.variantStart(st)
	if vs == nil {
		return nil, fmt.Errorf("luck table has no value for %v", st)
	}
	start := make([]float64, len(s.Players))
	for i := range start {
		if math.IsNaN(vs[i]) {
			return nil, fmt.Errorf("luck table has no value for %v", st)
		}
		start[i] = vs[i]
	}
	return start, nil
}

// adjustChoice adds to every seat's adjusted score its advantage of the choice c that seat made
// in st (after a pass by the previous seat or not).
func (g *Game) adjustChoice(seat int, m *memory, st rules.State, afterPass bool, c rules.Choice) error {
	adj := g.outcome.Adjusted
	as := g.luckAdvantages(m, st, afterPass, c)
	if as == nil {
		return g.moveError(seat, "the luck table has no advantage of %s in %v", c, st)
	}
	for r, a := range as {
		if math.IsNaN(a) {
			return g.moveError(seat, "the luck table has no advantage of %s in %v", c, st)
		}
		i := seat + r
		if i >= g.players {
			i -= g.players
		}
		adj[i] += a
	}
	return nil
}

// luckAt returns every seat's advantage of the choice seat makes in state s (after a pass or not)
// on a lean path.
func (sc *seatChoices) luckAt(seat int, s stateIndex, afterPass bool, players int) []float64 {
	i := int(s)
	if afterPass {
		i++
	}
	base := (i<<(sc.seatBits&7) + seat) * players
	return sc.luck[base : base+players : base+players]
}

// The turn-by-turn mode (luckTurns) adjusts any game: private and decaying memories, strategies, several
// seats. Its reference is the public record, every card turned face up at least once so far: V
// is a perfect-memory table read at the public count state, the mover credited with every pair
// both of whose cards have been seen (a perfect memory would take them). The chance events are
// the flips of cards nobody has seen, whose face is uniform over the faces not seen yet, whatever
// chose the position; the luck of such a flip is the change of Φ it brings minus the change
// expected over those faces. In the middle of a turn Φ is the value of completing the turn as the
// mover's choice says (daring: a card nobody has seen, safe: a seen one; a strategy: the better of
// the two for the mover). Nothing else is adjusted, so every luck term has mean zero exactly and
// the adjusted score is unbiased; how much variance it removes depends on how well the record and
// the perfect-memory values describe the players.

// startCardLuck sets the public record and the luck sums up for a new game.
func (g *Game) startCardLuck() {
	g.public = publicCounts{none: g.setup.Pairs, unseenSingles: g.setup.Singletons}
	g.modelTurn = false
	g.luckSum = seatValues{}
	clear(g.faceSeen)
}

// endCardLuck writes every seat's adjusted score: its score minus the luck of its game.
func (g *Game) endCardLuck() {
	o := &g.outcome
	for i := range g.players {
		o.Adjusted[i] = float64(o.Share[i])/float64(g.players) - g.luckSum[i]
	}
}

// publicCounts is the public record in counts: pairs on the table none, one or both of whose
// cards have been seen, and singletons not yet seen.
type publicCounts struct{ none, one, both, unseenSingles int }

// noTurnChoice marks a turn whose choice is not known in advance (a strategy's).
const noTurnChoice = rules.NumChoices

// seatValues is a value for every seat (at most rules.MaxPlayers).
type seatValues [rules.MaxPlayers]float64

// decision writes to out every seat's value (beyond its pairs so far) at the start of a turn of
// mover, with the record p: the mover is credited with the pairs seen whole, and V gives the rest.
func (g *Game) decision(mover int, p publicCounts, out *seatValues) {
	k := g.players
	base := ((p.none*g.pubWidth+p.one)*g.pubSingles + p.unseenSingles) * k
	v := g.pubValues[base : base+k : base+k]
	i := mover
	for r := range k {
		out[i] = v[r]
		if i++; i == k {
			i = 0
		}
	}
	out[mover] += float64(p.both)
}

// newPublicValues writes out, for the card mode, every seat's value of every public record
// (pairs none or one of whose cards were seen, singletons unseen) of a game, from the setup's
// perfect-memory table: decision's table, indexed without a search.
func (g *Game) newPublicValues() {
	n, s, k := g.setup.Pairs, g.setup.Singletons, g.players
	g.pubWidth, g.pubSingles = n+1, s+1
	g.pubValues = make([]float64, (n+1)*(n+1)*(s+1)*k)
	for none := 0; none <= n; none++ {
		for one := 0; none+one <= n; one++ {
			for f := 0; f <= s; f++ {
				v := g.setup.Luck.Values(rules.State{N: none + one, J: none, S: s, F: f}, false)
				copy(g.pubValues[((none*g.pubWidth+one)*g.pubSingles+f)*k:], v)
			}
		}
	}
}

// secondFlip writes to out every seat's expected value after the mover flips, as its second card,
// a card nobody has seen, the first card showing and the record being p (the first card's pair
// counted in it). matchable says the first card's partner is among the unseen cards (its pair
// counted in p.one); then the mover takes the pair with probability 1/unseen and moves again.
func (g *Game) secondFlip(mover int, p publicCounts, matchable bool, out *seatValues) {
	k := g.players
	next := mover + 1
	if next == k {
		next = 0
	}
	others := p.one
	if matchable {
		others--
	}
	unseen := 2*p.none + p.one + p.unseenSingles
	*out = seatValues{}
	var v seatValues
	add := func(weight int) {
		w := float64(weight) / float64(unseen)
		for i := range k {
			out[i] += w * v[i]
		}
	}
	if matchable {
		q := p
		q.one--
		g.decision(mover, q, &v)
		v[mover]++
		add(1)
	}
	if p.none > 0 {
		q := p
		q.none--
		q.one++
		g.decision(next, q, &v)
		add(2 * p.none)
	}
	if others > 0 {
		q := p
		q.one--
		q.both++
		g.decision(next, q, &v)
		add(others)
	}
	if p.unseenSingles > 0 {
		q := p
		q.unseenSingles--
		g.decision(next, q, &v)
		add(p.unseenSingles)
	}
}

// afterFirst writes to out every seat's value when the mover's first card is showing and the
// record is p (the card counted in it): a card whose partner has been seen is taken; otherwise the
// mover completes the turn with a second card, one nobody has seen (daring) or a seen one (safe,
// and after a singleton), as its choice says. matchable says the first card's partner is unseen.
func (g *Game) afterFirst(mover int, p publicCounts, single, matchable bool, choice rules.Choice, out *seatValues) {
	if !single && !matchable {
		g.decision(mover, p, out)
		return
	}
	k := g.players
	next := mover + 1
	if next == k {
		next = 0
	}
	seenOthers := p.one + 2*p.both + g.setup.Singletons - p.unseenSingles - 1
	unseen := 2*p.none + p.one + p.unseenSingles
	canSafe := seenOthers > 0
	safeFirst := canSafe && (single || choice == rules.Safe)
	if safeFirst || unseen == 0 {
		g.decision(next, p, out) // a seen card second: the turn passes
		return
	}
	g.secondFlip(mover, p, matchable && !single, out)
	if canSafe && choice == noTurnChoice {
		// A strategy's second card is not known: the better of the two for the mover.
		var safe seatValues
		g.decision(next, p, &safe)
		if safe[mover] > out[mover] {
			*out = safe
		}
	}
}

// cardLuck adds the luck of flipping pos, a card nobody has seen, to every seat's luck sum: the
// value after the flip minus its expectation over the faces not seen yet. It is called before
// the record counts pos as seen.
func (g *Game) cardLuck(pos int32) {
	p := g.public
	d := &g.deal
	mover := g.mover
	face := d.face[pos]
	unseen := 2*p.none + p.one + p.unseenSingles
	var got, mean, v seatValues
	k := g.players
	add := func(weight int) {
		w := float64(weight) / float64(unseen)
		for i := range k {
			mean[i] += w * v[i]
		}
	}
	single := face >= d.pairs
	partnerSeen := !single && g.faceSeen[face] > 0 // pos is unseen: a card of its face seen is its partner
	if first := g.luckFirst; first >= 0 {
		// The second card. The expectation is secondFlip's; the value of what came is the term of
		// its class.
		matchable := d.face[first] < d.pairs && g.faceSeen[d.face[first]] == 1
		g.secondFlip(mover, p, matchable, &mean)
		next := mover + 1
		if next == k {
			next = 0
		}
		q := p
		if !single && face == d.face[first] {
			q.one--
			g.decision(mover, q, &got)
			got[mover]++
		} else {
			q.see(single, partnerSeen)
			g.decision(next, q, &got)
		}
		g.addLuck(&got, &mean)
		return
	}
	// The first card: it is a new pair card, the partner of a card seen, or a singleton.
	for _, cl := range [3]struct {
		single, partnerSeen bool
		n                   int
	}{{false, false, 2 * p.none}, {false, true, p.one}, {true, false, p.unseenSingles}} {
		if cl.n == 0 {
			continue
		}
		q := p
		q.see(cl.single, cl.partnerSeen)
		g.afterFirst(mover, q, cl.single, !cl.single && !cl.partnerSeen, g.luckChoice, &v)
		add(cl.n)
		if cl.single == single && cl.partnerSeen == partnerSeen {
			got = v
		}
	}
	g.addLuck(&got, &mean)
}

// addLuck adds got - mean to every seat's luck sum.
func (g *Game) addLuck(got, mean *seatValues) {
	for i := range g.players {
		g.luckSum[i] += got[i] - mean[i]
	}
}

// see updates the public record for pos, turned face up for the first time.
func (p *publicCounts) see(single, partnerSeen bool) {
	switch {
	case single:
		p.unseenSingles--
	case partnerSeen:
		p.one--
		p.both++
	default:
		p.none--
		p.one++
	}
}

// beginModelTurn starts a turn whose luck is taken out from the mover's own model lt: every
// seat's expected score at the turn's end is its pairs now plus the value of st in lt plus the
// advantage of the choice c.
func (g *Game) beginModelTurn(seat int, lt *rules.LuckTable, st rules.State, afterPass bool, c rules.Choice) error {
	k := g.players
	for r := range k {
		v, okV := lt.Value(st, afterPass, r)
		a, okA := lt.Advantage(st, afterPass, c, r)
		if !okV || !okA {
			return g.moveError(seat, "its luck table has no value of %s in %v", c, st)
		}
		i := seat + r
		if i >= k {
			i -= k
		}
		g.turnQ[i] = float64(g.outcome.Pairs[i]) + v + a
	}
	g.modelTurn = true
	return nil
}

// endModelTurn ends a turn of mover adjusted from its own model: every seat's score as that model
// values the position now (next to move, after a pass or not; next -1 for a stalemate, which
// splits the table), minus its expectation, is the turn's luck. A pair the mover's memory holds
// both cards of goes to the next mover, as in the model.
func (g *Game) endModelTurn(mover, next int, afterPass bool) {
	g.modelTurn = false
	k := g.players
	var got seatValues
	o := &g.outcome
	if next < 0 {
		for i := range k {
			got[i] = float64(o.Pairs[i]) + float64(g.left)/float64(k)
		}
	} else {
		m := &g.mems[g.seatMem[mover]]
		st := m.state(g.left, g.setup.Singletons)
		st.N -= m.full
		vs := g.seatLuck[mover].Values(st, afterPass) // a state the memory holds: covered
		for r := range k {
			v := vs[r]
			i := next + r
			if i >= k {
				i -= k
			}
			got[i] = float64(o.Pairs[i]) + v
		}
		got[next] += float64(m.full)
	}
	for i := range k {
		g.luckSum[i] += got[i] - g.turnQ[i]
	}
}
