package sim_test

// Helpers shared by the black-box tests of the card-level engine: scripted and random
// strategies, policy tables written out by hand, a checker of game logs against the rules of
// docs/models.md §1 and §2, and small statistics.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// perfect is perfect memory (shared by definition: every perfect memory knows the same cards).
var perfect = rules.Memory{}

// ---------------------------------------------------------------------------------------------
// Scripted play.

// step is one answer of a script: the seat expected to ask, and the move (or a function of the
// view giving it). check, when set, inspects the view before the move is made.
type step struct {
	seat  int
	move  sim.Move
	fn    func(v *sim.View) sim.Move
	check func(t *testing.T, v *sim.View)
}

// at (flip a position), passStep and dyn (a move computed from the view) build script steps.
func at(seat, pos int) step  { return step{seat: seat, move: sim.FlipAt(pos)} }
func passStep(seat int) step { return step{seat: seat, move: sim.Pass()} }
func dyn(seat int, fn func(v *sim.View) sim.Move) step {
	return step{seat: seat, fn: fn}
}

// with attaches a view check to a step.
func (s step) with(check func(t *testing.T, v *sim.View)) step { s.check = check; return s }

// director answers every scripted seat's Flip calls from one script, in order, checking that
// the seat that asks is the one the script expects.
type director struct {
	t     *testing.T
	steps []step
	next  int
}

func (d *director) flip(seat int, v *sim.View) sim.Move {
	d.t.Helper()
	if v.Seat != seat {
		d.t.Errorf("step %d: view of seat %d given to the strategy of seat %d", d.next, v.Seat, seat)
	}
	if d.next >= len(d.steps) {
		d.t.Errorf("seat %d asked for a move after the script ended (step %d)", seat, d.next)
		return sim.FlipAt(-1) // refused by the engine: ends the game with an error
	}
	s := d.steps[d.next]
	d.next++
	if s.seat != seat {
		d.t.Errorf("step %d: seat %d moves, the script expects seat %d", d.next-1, seat, s.seat)
	}
	if s.check != nil {
		s.check(d.t, v)
	}
	if s.fn != nil {
		return s.fn(v)
	}
	return s.move
}

// seatScript is the Strategy of one scripted seat.
type seatScript struct {
	d    *director
	seat int
}

func (s *seatScript) Flip(v *sim.View) sim.Move { return s.d.flip(s.seat, v) }

// scripted returns a player of the given seat driven by d.
func scripted(name string, mem rules.Memory, d *director, seat int) sim.Player {
	return sim.Player{Name: name, Memory: mem, NewStrategy: func() sim.Strategy { return &seatScript{d: d, seat: seat} }}
}

// funcStrategy adapts a function to a Strategy.
type funcStrategy func(v *sim.View) sim.Move

func (f funcStrategy) Flip(v *sim.View) sim.Move { return f(v) }

func strategyPlayer(name string, mem rules.Memory, f func(v *sim.View) sim.Move) sim.Player {
	return sim.Player{Name: name, Memory: mem, NewStrategy: func() sim.Strategy { return funcStrategy(f) }}
}

// ---------------------------------------------------------------------------------------------
// Strategies for random games.

// randomStrategy flips cards the engine draws among the legal ones and, where the pass rule
// allows it, sometimes passes (first move) or flips a remembered card first, so that passes made
// of two remembered cards occur too. It keeps its own generator: use one engine per goroutine.
type randomStrategy struct{ r *rand.Rand }

func (s *randomStrategy) Flip(v *sim.View) sim.Move {
	if v.Second {
		if p, ok := v.PartnerOf(v.First.Pos); ok && s.r.IntN(2) == 0 {
			return sim.FlipAt(p)
		}
		return sim.FlipRandom()
	}
	canPass := v.PassRule.Allows(v.State)
	if canPass && s.r.IntN(4) == 0 {
		return sim.Pass()
	}
	unknown := 0
	for pos := range v.Cards() {
		if _, ok := v.Remembers(pos); v.OnTable(pos) && !ok {
			unknown++
		}
	}
	if unknown == 0 && !canPass {
		// Every card is remembered and passing is not allowed: the only legal turns take a
		// remembered pair. (A random first card could be a singleton, after which no second card
		// is legal: see TestFlipRandomDeadEnd.)
		a, _, _ := v.KnownPair()
		return sim.FlipAt(a)
	}
	if s.r.IntN(3) == 0 {
		// A remembered card first, if any (a pass, if the second is remembered too).
		for pos := range v.Cards() {
			if _, ok := v.Remembers(pos); ok && v.OnTable(pos) {
				return sim.FlipAt(pos)
			}
		}
	}
	return sim.FlipRandom()
}

// greedyRandom takes a pair it remembers, else flips a card it does not remember and takes its
// partner if it remembers it, else a random legal card. It is stateless and draws only from the
// engine, so it is safe for matches.
func greedyRandom(v *sim.View) sim.Move {
	if !v.Second {
		if a, _, ok := v.KnownPair(); ok {
			return sim.FlipAt(a)
		}
		return sim.FlipUnknown()
	}
	if p, ok := v.PartnerOf(v.First.Pos); ok {
		return sim.FlipAt(p)
	}
	return sim.FlipRandom()
}

// ---------------------------------------------------------------------------------------------
// Policy tables.

func fixedTable(tb testing.TB, p rules.Policy, pairs, singletons int) *rules.ChoiceTable {
	tb.Helper()
	t, err := rules.FixedChoiceTable(p, pairs, singletons)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// customTable writes out choose for every state with at most pairs pairs.
func customTable(tb testing.TB, pairs, singletons int, choose func(st rules.State, afterPass bool) rules.Choice) *rules.ChoiceTable {
	tb.Helper()
	t, err := rules.NewChoiceTable(pairs, singletons)
	if err != nil {
		tb.Fatal(err)
	}
	for n := 0; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= singletons; f++ {
				st := rules.State{N: n, J: j, S: singletons, F: f}
				for _, ap := range []bool{false, true} {
					t.Set(st, ap, choose(st, ap))
				}
			}
		}
	}
	return t
}

func tablePlayer(name string, mem rules.Memory, t *rules.ChoiceTable) sim.Player {
	return sim.Player{Name: name, Memory: mem, Table: t}
}

// ---------------------------------------------------------------------------------------------
// Log checking.

// logFacts is what checkLog learns from a log.
type logFacts struct {
	pairs  []int       // pairs collected per seat, counted from the log
	deal   map[int]int // face seen at every flipped position
	lucky  int         // pair turns whose two cards had never been flipped before (perfect memory)
	passes int
}

// checkLog checks one finished game's log and outcome against the rules (docs/models.md §1
// and §2) and returns what it learnt. perfect says that every player has perfect memory, so that
// "remembered" means "flipped before"; tables says which seats follow a daring, safe or parity
// table (whose first card, with perfect memory, is always one never seen, unless a pair is known).
func checkLog(t *testing.T, s sim.Setup, lg *sim.Log, o *sim.Outcome, perfect bool, tables []bool) logFacts {
	t.Helper()
	p := len(s.Players)
	n, cards := s.Pairs, 2*s.Pairs+s.Singletons
	facts := logFacts{pairs: make([]int, p), deal: map[int]int{}}
	fail := func(format string, args ...any) {
		t.Helper()
		var b []byte
		for _, tr := range lg.Turns {
			b = fmt.Appendf(b, "  %+v\n", tr)
		}
		t.Fatalf("%s\nsetup: %d pairs, %d singletons, pass %v, %d players\nlog:\n%s", fmt.Sprintf(format, args...), n, s.Singletons, s.Pass, p, b)
	}
	if lg.Pairs != n || lg.Singletons != s.Singletons || len(lg.Names) != p {
		fail("log header: %d pairs, %d singletons, %d names", lg.Pairs, lg.Singletons, len(lg.Names))
	}
	if len(lg.Turns) != o.Turns {
		fail("log has %d turns, outcome says %d", len(lg.Turns), o.Turns)
	}
	removed := make([]bool, cards)
	seen := make([]bool, cards)
	posOfFace := map[int][]int{}
	seat, run := 0, 0 // run: consecutive passes
	left := n
	for i, tr := range lg.Turns {
		if tr.Turn != i+1 {
			fail("turn %d is numbered %d", i+1, tr.Turn)
		}
		if tr.Seat != seat {
			fail("turn %d: seat %d moves, the rules say seat %d", tr.Turn, tr.Seat, seat)
		}
		if run == p {
			fail("turn %d played after every seat passed in turn", tr.Turn)
		}
		// A pair both of whose cards were seen before: a table player with perfect memory takes it.
		knownPair := false
		for f, ps := range posOfFace {
			if f < n && len(ps) == 2 && !removed[ps[0]] {
				knownPair = true
			}
		}
		for k, c := range tr.Flips {
			switch {
			case c.Pos < 0 || c.Pos >= cards:
				fail("turn %d flips position %d of %d", tr.Turn, c.Pos, cards)
			case removed[c.Pos]:
				fail("turn %d flips card %d, which was taken", tr.Turn, c.Pos)
			case k > 0 && slices.ContainsFunc(tr.Flips[:k], func(d sim.Card) bool { return d.Pos == c.Pos }):
				fail("turn %d flips card %d twice", tr.Turn, c.Pos)
			case c.Face < 0 || c.Face >= n+s.Singletons:
				fail("turn %d: card %d shows face %d", tr.Turn, c.Pos, c.Face)
			}
			if f, ok := facts.deal[c.Pos]; ok && f != c.Face {
				fail("turn %d: card %d shows face %d, earlier %d", tr.Turn, c.Pos, c.Face, f)
			}
			if _, ok := facts.deal[c.Pos]; !ok {
				facts.deal[c.Pos] = c.Face
				posOfFace[c.Face] = append(posOfFace[c.Face], c.Pos)
				if most := map[bool]int{true: 2, false: 1}[c.Face < n]; len(posOfFace[c.Face]) > most {
					fail("face %d lies at positions %v", c.Face, posOfFace[c.Face])
				}
			}
		}
		newCards := 0
		for _, c := range tr.Flips {
			if !seen[c.Pos] {
				newCards++
			}
		}
		if perfect && tables[tr.Seat] && len(tr.Flips) == 2 {
			a, b := tr.Flips[0], tr.Flips[1]
			if knownPair && (a.Face != b.Face || newCards > 0) {
				fail("turn %d: table player in seat %d remembers a pair but flips %v", tr.Turn, tr.Seat, tr.Flips)
			}
			if !knownPair && seen[a.Pos] {
				fail("turn %d: table player in seat %d (daring, safe or parity) flips remembered card %d first", tr.Turn, tr.Seat, a.Pos)
			}
			// A first card whose partner was seen before is followed by that partner.
			if a.Face < n && !seen[a.Pos] {
				for _, q := range posOfFace[a.Face] {
					if q != a.Pos && seen[q] && b.Pos != q {
						fail("turn %d: table player flips %v and not the remembered partner %d", tr.Turn, tr.Flips, q)
					}
				}
			}
		}
		switch tr.End {
		case "pair":
			if len(tr.Flips) != 2 || tr.Flips[0].Face != tr.Flips[1].Face || tr.Flips[0].Face >= n {
				fail("turn %d ends with a pair but flips %v", tr.Turn, tr.Flips)
			}
			if newCards == 2 {
				facts.lucky++
			}
			removed[tr.Flips[0].Pos], removed[tr.Flips[1].Pos] = true, true
			facts.pairs[tr.Seat]++
			left--
			run = 0
		case "miss":
			if len(tr.Flips) != 2 || (tr.Flips[0].Face == tr.Flips[1].Face) {
				fail("turn %d ends with a miss but flips %v", tr.Turn, tr.Flips)
			}
			if perfect && newCards == 0 {
				fail("turn %d: a miss on two remembered cards %v is a pass", tr.Turn, tr.Flips)
			}
			run = 0
			seat = (seat + 1) % p
		case "pass":
			if s.Pass == rules.PassNever {
				fail("turn %d is a pass under pass rule never", tr.Turn)
			}
			switch len(tr.Flips) {
			case 0:
			case 2:
				if tr.Flips[0].Face == tr.Flips[1].Face {
					fail("turn %d: a pass flips the pair %v", tr.Turn, tr.Flips)
				}
				if perfect && newCards > 0 {
					fail("turn %d: a pass flips a card not seen before: %v", tr.Turn, tr.Flips)
				}
			default:
				fail("turn %d: a pass flips %d cards", tr.Turn, len(tr.Flips))
			}
			facts.passes++
			run++
			seat = (seat + 1) % p
		default:
			fail("turn %d ends with %q", tr.Turn, tr.End)
		}
		for _, c := range tr.Flips {
			seen[c.Pos] = true
		}
		if left == 0 && i != len(lg.Turns)-1 {
			fail("turn %d takes the last pair but the game goes on", tr.Turn)
		}
	}
	// Conservation.
	sum := 0
	for i := range p {
		if o.Pairs[i] != facts.pairs[i] {
			fail("seat %d: outcome says %d pairs, the log %d", i, o.Pairs[i], facts.pairs[i])
		}
		sum += o.Pairs[i]
	}
	if o.Stalemate {
		if run != p {
			fail("stalemate after %d consecutive passes of %d seats", run, p)
		}
		if o.Left != n-sum || o.Left < 1 {
			fail("stalemate leaves %d pairs; %d of %d were taken", o.Left, sum, n)
		}
	} else {
		if sum != n || o.Left != 0 || left != 0 {
			fail("no stalemate, but %d of %d pairs taken, %d left", sum, n, o.Left)
		}
	}
	shares := 0
	for i := range p {
		if o.Share[i] != o.Pairs[i]*p+o.Left {
			fail("seat %d: share %d, pairs %d, left %d, %d players", i, o.Share[i], o.Pairs[i], o.Left, p)
		}
		shares += o.Share[i]
	}
	if shares != n*p {
		fail("shares add up to %d/%d pairs, the deal has %d", shares, p, n)
	}
	if !o.Stalemate {
		// Every pair card was flipped before it was taken: the log shows where every pair lies.
		for f := range n {
			if len(posOfFace[f]) != 2 {
				fail("face %d seen at %v", f, posOfFace[f])
			}
		}
	}
	return facts
}

// ---------------------------------------------------------------------------------------------
// Deals and statistics.

// allDeals calls visit with every distinct arrangement of the multiset of faces of a deal of
// pairs pairs and singletons singletons (pair faces twice, singleton faces once). Every
// arrangement is equally likely under a uniform shuffle.
func allDeals(pairs, singletons int, visit func(faces []int)) {
	count := make([]int, pairs+singletons)
	for f := range count {
		count[f] = 1
		if f < pairs {
			count[f] = 2
		}
	}
	faces := make([]int, 2*pairs+singletons)
	var rec func(pos int)
	rec = func(pos int) {
		if pos == len(faces) {
			visit(faces)
			return
		}
		for f := range count {
			if count[f] > 0 {
				count[f]--
				faces[pos] = f
				rec(pos + 1)
				count[f]++
			}
		}
	}
	rec(0)
}

// meanSE returns the mean of seat's score in pairs, and its standard error, from a tally's
// histogram (score k/Seats with count Share[seat][k]).
func meanSE(t *sim.Tally, seat int) (mean, se float64) {
	g := float64(t.Games)
	p := float64(t.Seats)
	for k, c := range t.Share[seat] {
		mean += float64(k) / p * float64(c)
	}
	mean /= g
	var ss float64
	for k, c := range t.Share[seat] {
		d := float64(k)/p - mean
		ss += d * d * float64(c)
	}
	return mean, math.Sqrt(ss / (g - 1) / g)
}

// momentSE returns the mean and standard error of a per-game quantity from its sum and sum of
// squares over games games.
func momentSE(sum, sumSq, games int64) (mean, se float64) {
	g := float64(games)
	mean = float64(sum) / g
	v := (float64(sumSq) - g*mean*mean) / (g - 1)
	return mean, math.Sqrt(math.Max(v, 0) / g)
}
