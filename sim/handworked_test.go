package sim_test

// Tiny deals played move by move. Every expectation below is worked out by hand from the rules
// of docs/models.md §1 (the game) and §2 (memory): who scores, who moves next, how many turns
// the game lasts, what each memory holds, and how a stalemate is shared.

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// wantTurn is one expected line of the log. flips lists the positions flipped; for turns
// played by a policy table, whose unknown cards the engine draws, flips is nil and ok judges the
// flips instead.
type wantTurn struct {
	seat  int
	flips []int
	ok    func(deal []int, f []sim.Card) error
	end   string
}

func turn(seat int, end string, flips ...int) wantTurn {
	return wantTurn{seat: seat, flips: append([]int{}, flips...), end: end}
}

func tableTurn(seat int, end string, ok func(deal []int, f []sim.Card) error) wantTurn {
	return wantTurn{seat: seat, ok: ok, end: end}
}

// flipsFrom accepts two flips whose positions lie in first and second.
func flipsFrom(first, second []int) func(deal []int, f []sim.Card) error {
	return func(deal []int, f []sim.Card) error {
		if len(f) != 2 || !slices.Contains(first, f[0].Pos) || !slices.Contains(second, f[1].Pos) {
			return fmt.Errorf("want a card of %v then one of %v", first, second)
		}
		return nil
	}
}

// samePair accepts two flips of the same pair face, both from within.
func samePair(within []int) func(deal []int, f []sim.Card) error {
	return func(deal []int, f []sim.Card) error {
		if len(f) != 2 || f[0].Face != f[1].Face || !slices.Contains(within, f[0].Pos) || !slices.Contains(within, f[1].Pos) {
			return fmt.Errorf("want the two cards of one pair among %v", within)
		}
		return nil
	}
}

// View checks.

func checkAll(checks ...func(t *testing.T, v *sim.View)) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		for _, c := range checks {
			c(t, v)
		}
	}
}

func wantState(n, j, s, f int) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		if want := (rules.State{N: n, J: j, S: s, F: f}); v.State != want {
			t.Errorf("seat %d sees state %v, want %v", v.Seat, v.State, want)
		}
	}
}

func wantAfterPass(b bool) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		if v.AfterPass != b {
			t.Errorf("seat %d: AfterPass %v, want %v", v.Seat, v.AfterPass, b)
		}
	}
}

// wantMemory checks the positions the viewer remembers (with their faces, from deal) and the
// ones it does not.
func wantMemory(deal []int, known, unknown []int) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		for _, pos := range known {
			if f, ok := v.Remembers(pos); !ok || f != deal[pos] {
				t.Errorf("seat %d: Remembers(%d) = %d, %v; want %d, true", v.Seat, pos, f, ok, deal[pos])
			}
		}
		for _, pos := range unknown {
			if _, ok := v.Remembers(pos); ok {
				t.Errorf("seat %d remembers card %d, which it should not", v.Seat, pos)
			}
		}
		if v.Remembered() != len(known) {
			t.Errorf("seat %d remembers %d cards, want %d (%v)", v.Seat, v.Remembered(), len(known), known)
		}
	}
}

// wantKnownPair checks KnownPair: a and b (in either order), or none when a < 0.
func wantKnownPair(a, b int) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		x, y, ok := v.KnownPair()
		switch {
		case a < 0 && ok:
			t.Errorf("seat %d: KnownPair = %d, %d; want none", v.Seat, x, y)
		case a >= 0 && (!ok || !(x == a && y == b || x == b && y == a)):
			t.Errorf("seat %d: KnownPair = %d, %d, %v; want %d, %d", v.Seat, x, y, ok, a, b)
		}
	}
}

func wantFirst(pos, face int) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		if !v.Second || v.First != (sim.Card{Pos: pos, Face: face}) {
			t.Errorf("seat %d: Second %v, First %+v; want the second flip after card %d (face %d)", v.Seat, v.Second, v.First, pos, face)
		}
	}
}

func wantFirstFlip() func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		if v.Second {
			t.Errorf("seat %d: Second is true on the first flip of a turn", v.Seat)
		}
	}
}

func wantPartner(pos, partner int) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		p, ok := v.PartnerOf(pos)
		switch {
		case partner < 0 && ok:
			t.Errorf("seat %d: PartnerOf(%d) = %d, want none", v.Seat, pos, p)
		case partner >= 0 && (!ok || p != partner):
			t.Errorf("seat %d: PartnerOf(%d) = %d, %v; want %d", v.Seat, pos, p, ok, partner)
		}
	}
}

func wantOffTable(pos ...int) func(t *testing.T, v *sim.View) {
	return func(t *testing.T, v *sim.View) {
		t.Helper()
		for _, p := range pos {
			if v.OnTable(p) {
				t.Errorf("card %d is still on the table", p)
			}
		}
	}
}

// handCase is one hand-worked game.
type handCase struct {
	name              string
	pairs, singletons int
	pass              rules.PassRule
	deal              []int
	players           func(t *testing.T, d *director) []sim.Player
	steps             []step
	turns             []wantTurn
	pairsBySeat       []int
	share             []int
	stalemate         bool
	left              int
	// knownFirst: a table plays known-first, so the log checks for daring, safe and parity
	// tables do not apply.
	knownFirst bool
}

// scriptedSeats returns p scripted players with memory mem.
func scriptedSeats(p int, mem rules.Memory) func(t *testing.T, d *director) []sim.Player {
	return func(t *testing.T, d *director) []sim.Player {
		var ps []sim.Player
		for i := range p {
			ps = append(ps, scripted(fmt.Sprintf("script%d", i), mem, d, i))
		}
		return ps
	}
}

func playHand(t *testing.T, c handCase) (*sim.Outcome, *sim.Log) {
	t.Helper()
	d := &director{t: t, steps: c.steps}
	players := c.players(t, d)
	setup := sim.Setup{Pairs: c.pairs, Singletons: c.singletons, Pass: c.pass, Players: players}
	g, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	lg := &sim.Log{}
	if err := g.PlayDeal(sim.GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: 3}, c.deal, lg); err != nil {
		t.Fatalf("PlayDeal: %v", err)
	}
	if d.next != len(d.steps) {
		t.Errorf("the game ended after %d of the script's %d steps", d.next, len(d.steps))
	}
	o := g.Outcome()
	for i, w := range c.turns {
		if i >= len(lg.Turns) {
			t.Errorf("log has %d turns, want %d", len(lg.Turns), len(c.turns))
			break
		}
		got := lg.Turns[i]
		if got.Turn != i+1 || got.Seat != w.seat || got.End != w.end {
			t.Errorf("turn %d: logged turn %d, seat %d, end %q; want seat %d, end %q", i+1, got.Turn, got.Seat, got.End, w.seat, w.end)
		}
		for _, f := range got.Flips {
			if f.Pos < 0 || f.Pos >= len(c.deal) || f.Face != c.deal[f.Pos] {
				t.Errorf("turn %d: logged flip %+v does not match the deal %v", i+1, f, c.deal)
			}
		}
		if w.ok != nil {
			if err := w.ok(c.deal, got.Flips); err != nil {
				t.Errorf("turn %d: flips %+v: %v", i+1, got.Flips, err)
			}
			continue
		}
		var pos []int
		for _, f := range got.Flips {
			pos = append(pos, f.Pos)
		}
		if !slices.Equal(pos, w.flips) {
			t.Errorf("turn %d: flips %v, want %v", i+1, pos, w.flips)
		}
	}
	if len(lg.Turns) != len(c.turns) || o.Turns != len(c.turns) {
		t.Errorf("log has %d turns, outcome %d; want %d", len(lg.Turns), o.Turns, len(c.turns))
	}
	if !slices.Equal(o.Pairs, c.pairsBySeat) || !slices.Equal(o.Share, c.share) || o.Stalemate != c.stalemate || o.Left != c.left {
		t.Errorf("outcome pairs %v share %v stalemate %v left %d; want pairs %v share %v stalemate %v left %d",
			o.Pairs, o.Share, o.Stalemate, o.Left, c.pairsBySeat, c.share, c.stalemate, c.left)
	}
	perfectAll := true
	tables := make([]bool, len(players))
	for i, p := range players {
		perfectAll = perfectAll && p.Memory.Perfect()
		tables[i] = p.Table != nil && !c.knownFirst
	}
	checkLog(t, setup, lg, o, perfectAll, tables)
	return o, lg
}

func TestHandWorkedScripted(t *testing.T) {
	lru2 := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	hu2 := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	decay1 := rules.Memory{Forget: rules.ForgetDecay, Decay: 1}
	d0101 := []int{0, 1, 0, 1}
	d012012 := []int{0, 1, 2, 0, 1, 2}

	cases := []handCase{
		{
			// One pair: the two cards are the pair; seat 0 takes it in turn 1 and the game ends.
			name: "one pair", pairs: 1, deal: []int{0, 0}, players: scriptedSeats(2, perfect),
			steps: []step{
				at(0, 0).with(checkAll(wantFirstFlip(), wantState(1, 1, 0, 0), wantAfterPass(false), wantMemory([]int{0, 0}, nil, []int{0, 1}))),
				at(0, 1).with(checkAll(wantFirst(0, 0), wantPartner(0, -1), wantMemory([]int{0, 0}, []int{0}, []int{1}))),
			},
			turns:       []wantTurn{turn(0, "pair", 0, 1)},
			pairsBySeat: []int{1, 0}, share: []int{2, 0},
		},
		{
			// Seat 0 misses (faces 0 and 1): both are known, seat 1 moves in (2, 0), takes a pair
			// with each unknown card and moves again after each.
			name: "miss, then the opponent clears", pairs: 2, deal: d0101, players: scriptedSeats(2, perfect),
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 2).with(checkAll(wantState(2, 0, 0, 0), wantKnownPair(-1, -1), wantMemory(d0101, []int{0, 1}, []int{2, 3}), wantAfterPass(false))),
				at(1, 0).with(checkAll(wantFirst(2, 0), wantPartner(2, 0))),
				at(1, 3).with(checkAll(wantState(1, 0, 0, 0), wantOffTable(0, 2), wantMemory(d0101, []int{1}, []int{0, 2, 3}))),
				at(1, 1).with(wantPartner(3, 1)),
			},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(1, "pair", 2, 0), turn(1, "pair", 3, 1)},
			pairsBySeat: []int{0, 2}, share: []int{0, 4},
		},
		{
			// Three seats: a lucky pair keeps seat 0 moving; its miss passes to seat 1, whose
			// miss passes to seat 2, which then knows both remaining pairs.
			name: "three seats", pairs: 3, deal: d012012, players: scriptedSeats(3, perfect),
			steps: []step{
				at(0, 0), at(0, 3),
				at(0, 1).with(wantState(2, 2, 0, 0)), at(0, 2),
				at(1, 4).with(wantState(2, 0, 0, 0)), at(1, 5),
				at(2, 1).with(checkAll(wantState(2, 0, 0, 0), wantMemory(d012012, []int{1, 2, 4, 5}, []int{0, 3}))), at(2, 4),
				at(2, 2).with(wantKnownPair(2, 5)), at(2, 5),
			},
			turns: []wantTurn{
				turn(0, "pair", 0, 3), turn(0, "miss", 1, 2), turn(1, "miss", 4, 5),
				turn(2, "pair", 1, 4), turn(2, "pair", 2, 5),
			},
			pairsBySeat: []int{1, 0, 2}, share: []int{3, 0, 6},
		},
		{
			// A singleton (face 1) at position 0: it never scores; a known singleton is a legal
			// first card when the second is unknown.
			name: "singleton", pairs: 1, singletons: 1, deal: []int{1, 0, 0}, players: scriptedSeats(2, perfect),
			steps: []step{
				at(0, 0).with(wantState(1, 1, 1, 1)), at(0, 1).with(wantFirst(0, 1)),
				at(1, 0).with(wantState(1, 0, 1, 0)), at(1, 2),
				at(0, 2).with(checkAll(wantState(1, 0, 1, 0), wantKnownPair(1, 2))), at(0, 1),
			},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(1, "miss", 0, 2), turn(0, "pair", 2, 1)},
			pairsBySeat: []int{1, 0}, share: []int{2, 0},
		},
		{
			// Solitaire: a miss gives the turn back to the only seat.
			name: "solitaire", pairs: 2, deal: []int{0, 1, 1, 0}, players: scriptedSeats(1, perfect),
			steps: []step{
				at(0, 0), at(0, 1),
				at(0, 2).with(checkAll(wantState(2, 0, 0, 0), wantAfterPass(false))), at(0, 1),
				at(0, 3), at(0, 0),
			},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(0, "pair", 2, 1), turn(0, "pair", 3, 0)},
			pairsBySeat: []int{2}, share: []int{2},
		},
		{
			// Two-known: after the miss seat 1 knows two cards and passes; seat 0 passes too.
			// Every seat passed in turn: stalemate, the two pairs are shared, one pair each
			// (2 units of 1/2).
			name: "stalemate under two-known", pairs: 2, pass: rules.PassTwoKnown, deal: d0101, players: scriptedSeats(2, perfect),
			steps: []step{
				at(0, 0), at(0, 1),
				passStep(1).with(checkAll(wantState(2, 0, 0, 0), wantAfterPass(false))),
				passStep(0).with(checkAll(wantState(2, 0, 0, 0), wantAfterPass(true))),
			},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(1, "pass"), turn(0, "pass")},
			pairsBySeat: []int{0, 0}, share: []int{2, 2}, stalemate: true, left: 2,
		},
		{
			// Pass always, three seats: seat 0 takes a pair and passes, then seats 1 and 2 pass.
			// Two pairs are left, credited 2/3 each: shares (in thirds) 3+2, 2, 2.
			name: "stalemate of three after a pair", pairs: 3, pass: rules.PassAlways, deal: []int{0, 0, 1, 2, 1, 2}, players: scriptedSeats(3, perfect),
			steps: []step{
				at(0, 0), at(0, 1),
				passStep(0).with(wantAfterPass(false)),
				passStep(1).with(wantAfterPass(true)),
				passStep(2).with(checkAll(wantAfterPass(true), wantState(2, 2, 0, 0))),
			},
			turns:       []wantTurn{turn(0, "pair", 0, 1), turn(0, "pass"), turn(1, "pass"), turn(2, "pass")},
			pairsBySeat: []int{1, 0, 0}, share: []int{5, 2, 2}, stalemate: true, left: 2,
		},
		{
			// A miss between two passes: the passes before it do not count towards a stalemate.
			name: "a miss breaks a run of passes", pairs: 2, pass: rules.PassAlways, deal: d0101, players: scriptedSeats(2, perfect),
			steps: []step{
				passStep(0).with(checkAll(wantState(2, 2, 0, 0), wantAfterPass(false))),
				at(1, 0).with(wantAfterPass(true)), at(1, 1),
				passStep(0).with(wantAfterPass(false)),
				passStep(1).with(wantAfterPass(true)),
			},
			turns:       []wantTurn{turn(0, "pass"), turn(1, "miss", 0, 1), turn(0, "pass"), turn(1, "pass")},
			pairsBySeat: []int{0, 0}, share: []int{2, 2}, stalemate: true, left: 2,
		},
		{
			// Flipping two remembered cards that are not a pair is a pass (two-known allows it
			// here): it counts towards the stalemate like a pass without flips.
			name: "two remembered cards are a pass", pairs: 2, pass: rules.PassTwoKnown, deal: d0101, players: scriptedSeats(2, perfect),
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 1), at(1, 0),
				passStep(0).with(wantAfterPass(true)),
			},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(1, "pass", 1, 0), turn(0, "pass")},
			pairsBySeat: []int{0, 0}, share: []int{2, 2}, stalemate: true, left: 2,
		},
		{
			// Solitaire under pass always: the only seat passes, which is every seat in turn.
			name: "solitaire pass", pairs: 1, pass: rules.PassAlways, deal: []int{0, 0}, players: scriptedSeats(1, perfect),
			steps:       []step{passStep(0)},
			turns:       []wantTurn{turn(0, "pass")},
			pairsBySeat: []int{0}, share: []int{1}, stalemate: true, left: 1,
		},
		{
			// lru, capacity 2. Seat 1 flips card 2: memory {0, 1, 2} exceeds 2, the least
			// recently seen card 0 is forgotten at once. Card 4 (face 1) is then recognised with
			// card 1: not stored, and the next player (seat 0) takes it first. Seat 0 then flips
			// 3 (face 0; card 0 was forgotten) and 0, which it recognises with 3.
			name: "lru recognition", pairs: 3, deal: d012012, players: scriptedSeats(2, lru2),
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 2).with(checkAll(wantState(3, 1, 0, 0), wantMemory(d012012, []int{0, 1}, []int{2, 3, 4, 5}))),
				at(1, 4).with(wantMemory(d012012, []int{1, 2}, []int{0, 3, 4, 5})),
				at(0, 1).with(checkAll(wantState(3, 1, 0, 0), wantKnownPair(1, 4), wantMemory(d012012, []int{1, 2, 4}, []int{0, 3, 5}))),
				at(0, 4),
				at(0, 3).with(checkAll(wantState(2, 1, 0, 0), wantMemory(d012012, []int{2}, []int{0, 3, 5}))),
				at(0, 0).with(checkAll(wantPartner(3, -1), wantMemory(d012012, []int{2, 3}, []int{0, 5}))),
				at(0, 5).with(wantState(1, 0, 0, 0)), at(0, 2),
			},
			turns: []wantTurn{
				turn(0, "miss", 0, 1), turn(1, "miss", 2, 4), turn(0, "pair", 1, 4),
				turn(0, "pair", 3, 0), turn(0, "pair", 5, 2),
			},
			pairsBySeat: []int{3, 0}, share: []int{6, 0},
		},
		{
			// lru, capacity 2: a remembered card flipped again becomes the most recent. Seat 1
			// flips 0 again, then the new card 2: the least recently seen is now 1, not 0.
			name: "lru refresh", pairs: 3, deal: d012012, players: scriptedSeats(2, lru2),
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 0), at(1, 2).with(wantMemory(d012012, []int{0, 1}, []int{2, 3, 4, 5})),
				at(0, 3).with(checkAll(wantState(3, 1, 0, 0), wantMemory(d012012, []int{0, 2}, []int{1, 3, 4, 5}))),
				at(0, 0).with(wantPartner(3, 0)),
				at(0, 4).with(checkAll(wantState(2, 1, 0, 0), wantMemory(d012012, []int{2}, []int{1, 4, 5}))), at(0, 1),
				at(0, 5), at(0, 2),
			},
			turns: []wantTurn{
				turn(0, "miss", 0, 1), turn(1, "miss", 0, 2), turn(0, "pair", 3, 0),
				turn(0, "pair", 4, 1), turn(0, "pair", 5, 2),
			},
			pairsBySeat: []int{3, 0}, share: []int{6, 0},
		},
		{
			// handover-uniform, capacity 2: nothing is forgotten during seat 1's turn (it holds
			// 0, 1, 2, 4 on its second flip); at the hand-over two cards must go, chosen among
			// those known before the turn, {0, 1}: both. The pair 1-4 completed by seat 1 is lost.
			name: "handover-uniform", pairs: 3, deal: d012012, players: scriptedSeats(2, hu2),
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 2).with(wantMemory(d012012, []int{0, 1}, []int{2, 3, 4, 5})),
				at(1, 4).with(wantMemory(d012012, []int{0, 1, 2}, []int{3, 4, 5})),
				at(0, 3).with(checkAll(wantState(3, 1, 0, 0), wantKnownPair(-1, -1), wantMemory(d012012, []int{2, 4}, []int{0, 1, 3, 5}))),
				at(0, 0),
				at(0, 5).with(wantState(2, 0, 0, 0)), at(0, 2),
				at(0, 1), at(0, 4),
			},
			turns: []wantTurn{
				turn(0, "miss", 0, 1), turn(1, "miss", 2, 4), turn(0, "pair", 3, 0),
				turn(0, "pair", 5, 2), turn(0, "pair", 1, 4),
			},
			pairsBySeat: []int{3, 0}, share: []int{6, 0},
		},
		{
			// Decay with q = 1: everything is forgotten at every hand-over, so flipping the same
			// two cards again is not a pass.
			name: "decay q=1", pairs: 2, deal: d0101, players: scriptedSeats(2, decay1),
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 0).with(checkAll(wantState(2, 2, 0, 0), wantMemory(d0101, nil, []int{0, 1, 2, 3}))), at(1, 1),
				at(0, 0).with(wantState(2, 2, 0, 0)), at(0, 2),
				at(0, 1).with(wantMemory(d0101, nil, []int{1, 3})), at(0, 3),
			},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(1, "miss", 0, 1), turn(0, "pair", 0, 2), turn(0, "pair", 1, 3)},
			pairsBySeat: []int{2, 0}, share: []int{4, 0},
		},
		{
			// Seat 0 has perfect memory, seat 1 a private lru memory of capacity 2: they see the
			// same flips and remember different cards. Seat 0 ignores the pair 0-3 it knows.
			name: "private memories", pairs: 3, deal: d012012,
			players: func(t *testing.T, d *director) []sim.Player {
				return []sim.Player{
					scripted("perfect", perfect, d, 0),
					scripted("lru2", rules.Memory{Capacity: 2, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}, d, 1),
				}
			},
			steps: []step{
				at(0, 0), at(0, 1),
				at(1, 2), at(1, 3).with(wantMemory(d012012, []int{1, 2}, []int{0, 3, 4, 5})),
				at(0, 4).with(checkAll(wantState(3, 0, 0, 0), wantKnownPair(0, 3), wantMemory(d012012, []int{0, 1, 2, 3}, []int{4, 5}))),
				at(0, 5),
				at(1, 0).with(checkAll(wantState(3, 1, 0, 0), wantKnownPair(-1, -1), wantMemory(d012012, []int{4, 5}, []int{0, 1, 2, 3}))),
				at(1, 3).with(wantMemory(d012012, []int{5, 0}, []int{1, 2, 3, 4})),
				at(1, 1).with(checkAll(wantState(2, 1, 0, 0), wantMemory(d012012, []int{5}, []int{1, 2, 4}))), at(1, 4),
				at(1, 2).with(wantState(1, 0, 0, 0)), at(1, 5),
			},
			turns: []wantTurn{
				turn(0, "miss", 0, 1), turn(1, "miss", 2, 3), turn(0, "miss", 4, 5),
				turn(1, "pair", 0, 3), turn(1, "pair", 1, 4), turn(1, "pair", 2, 5),
			},
			pairsBySeat: []int{0, 3}, share: []int{0, 6},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { playHand(t, c) })
	}
}

// TestHandWorkedTables plays policy tables on deals where every way the engine may draw its
// unknown cards leads to the same, hand-computed, outcome.
func TestHandWorkedTables(t *testing.T) {
	// knownFirst plays known-first wherever it is legal, daring elsewhere.
	knownFirst := customTable(t, 1, 1, func(st rules.State, _ bool) rules.Choice {
		if rules.Legal(st, rules.KnownFirst, rules.PassNever) {
			return rules.KnownFirst
		}
		return rules.Daring
	})
	passWhereLegal := customTable(t, 2, 0, func(st rules.State, _ bool) rules.Choice {
		if rules.Legal(st, rules.Pass, rules.PassTwoKnown) {
			return rules.Pass
		}
		return rules.Daring
	})
	daringAfterPass := customTable(t, 1, 0, func(_ rules.State, afterPass bool) rules.Choice {
		if afterPass {
			return rules.Daring
		}
		return rules.Pass
	})
	passAfterPass := customTable(t, 1, 0, func(_ rules.State, afterPass bool) rules.Choice {
		if afterPass {
			return rules.Pass
		}
		return rules.Daring
	})
	// scriptThenTable: seat 0 scripted, the others follow tables.
	scriptThen := func(tables ...*rules.ChoiceTable) func(t *testing.T, d *director) []sim.Player {
		return func(t *testing.T, d *director) []sim.Player {
			ps := []sim.Player{scripted("script", perfect, d, 0)}
			for i, tb := range tables {
				ps = append(ps, tablePlayer(fmt.Sprintf("table%d", i+1), perfect, tb))
			}
			return ps
		}
	}
	d0101 := []int{0, 1, 0, 1}
	// With singletons 1 and 2 (faces 1, 2) at 0 and 1 and the pair (face 0) at 2 and 3: once
	// seat 0 has shown both singletons, seat 1 is in (1, 1, 2, 0). Its first card is one of the
	// pair. Daring (and parity, j = 1 odd) flips the only other unknown card: its partner.
	// Safe flips a remembered singleton; seat 0 then knows one card of the pair and takes it.
	singles := []int{1, 2, 0, 0}
	takeOther := func(v *sim.View) sim.Move { return sim.FlipUnknown() }
	takePartner := func(v *sim.View) sim.Move {
		p, ok := v.PartnerOf(v.First.Pos)
		if !ok {
			return sim.FlipAt(-1)
		}
		return sim.FlipAt(p)
	}
	cases := []handCase{
		{
			name: "daring solitaire", pairs: 1, deal: []int{0, 0},
			players: func(t *testing.T, d *director) []sim.Player {
				return []sim.Player{tablePlayer("daring", perfect, fixedTable(t, rules.PolicyDaring, 1, 0))}
			},
			turns:       []wantTurn{tableTurn(0, "pair", samePair([]int{0, 1}))},
			pairsBySeat: []int{1}, share: []int{1},
		},
		{
			// After seat 0's miss every unknown card is the partner of a known one: the table
			// player takes a pair with each and moves again.
			name: "daring takes the known partners", pairs: 2, deal: d0101,
			players: scriptThen(fixedTable(t, rules.PolicyDaring, 2, 0)),
			steps:   []step{at(0, 0), at(0, 1)},
			turns: []wantTurn{
				turn(0, "miss", 0, 1),
				tableTurn(1, "pair", func(deal []int, f []sim.Card) error {
					if len(f) != 2 || !(f[0].Pos == 2 && f[1].Pos == 0 || f[0].Pos == 3 && f[1].Pos == 1) {
						return fmt.Errorf("want an unknown card (2 or 3), then its remembered partner")
					}
					return nil
				}),
				tableTurn(1, "pair", flipsFrom([]int{2, 3}, []int{0, 1})),
			},
			pairsBySeat: []int{0, 2}, share: []int{0, 4},
		},
		{
			name: "daring with singletons", pairs: 1, singletons: 2, deal: singles,
			players: scriptThen(fixedTable(t, rules.PolicyDaring, 1, 2)),
			steps:   []step{at(0, 0), at(0, 1)},
			turns: []wantTurn{
				turn(0, "miss", 0, 1),
				tableTurn(1, "pair", samePair([]int{2, 3})),
			},
			pairsBySeat: []int{0, 1}, share: []int{0, 2},
		},
		{
			name: "parity with singletons", pairs: 1, singletons: 2, deal: singles,
			players: scriptThen(fixedTable(t, rules.PolicyParity, 1, 2)),
			steps:   []step{at(0, 0), at(0, 1)},
			turns: []wantTurn{
				turn(0, "miss", 0, 1),
				tableTurn(1, "pair", samePair([]int{2, 3})),
			},
			pairsBySeat: []int{0, 1}, share: []int{0, 2},
		},
		{
			name: "safe with singletons", pairs: 1, singletons: 2, deal: singles,
			players: scriptThen(fixedTable(t, rules.PolicySafe, 1, 2)),
			steps: []step{
				at(0, 0), at(0, 1),
				dyn(0, takeOther).with(wantState(1, 0, 2, 0)), dyn(0, takePartner),
			},
			turns: []wantTurn{
				turn(0, "miss", 0, 1),
				tableTurn(1, "miss", flipsFrom([]int{2, 3}, []int{0, 1})),
				tableTurn(0, "pair", samePair([]int{2, 3})),
			},
			pairsBySeat: []int{1, 0}, share: []int{2, 0},
		},
		{
			// lru, capacity 3, three singletons (faces 1, 2, 3 at 0, 1, 2) and the pair at 3 and
			// 4. Seat 1 flips 2, then 0 again: from least to most recently seen, memory holds 1,
			// 2, 0. The safe table in seat 2 flips a new pair card x: memory {0, 1, 2, x} exceeds
			// 3 and 1 is forgotten; its second card is the least recently seen of the others: 2
			// (not 0, seen first but refreshed). Seat 0 then takes the pair.
			name: "safe flips the least recently seen card (lru)", pairs: 1, singletons: 3, deal: []int{1, 2, 3, 0, 0},
			players: func(t *testing.T, d *director) []sim.Player {
				lru3 := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}
				return []sim.Player{
					scripted("script0", lru3, d, 0), scripted("script1", lru3, d, 1),
					tablePlayer("safe", lru3, fixedTable(t, rules.PolicySafe, 1, 3)),
				}
			},
			steps: []step{
				at(0, 0), at(0, 1), at(1, 2), at(1, 0),
				dyn(0, func(v *sim.View) sim.Move {
					for _, pos := range []int{3, 4} {
						if _, ok := v.Remembers(pos); !ok {
							return sim.FlipAt(pos)
						}
					}
					return sim.FlipAt(-1)
				}).with(func(t *testing.T, v *sim.View) {
					_, k0 := v.Remembers(0)
					_, k1 := v.Remembers(1)
					_, k2 := v.Remembers(2)
					if !k0 || k1 || !k2 || v.Remembered() != 3 {
						t.Errorf("seat 0 remembers 0: %v, 1: %v, 2: %v, %d cards; want 0, 2 and the pair card seat 2 flipped", k0, k1, k2, v.Remembered())
					}
				}),
				dyn(0, takePartner),
			},
			turns: []wantTurn{
				turn(0, "miss", 0, 1), turn(1, "miss", 2, 0),
				tableTurn(2, "miss", flipsFrom([]int{3, 4}, []int{2})),
				tableTurn(0, "pair", samePair([]int{3, 4})),
			},
			pairsBySeat: []int{1, 0, 0}, share: []int{3, 0, 0},
		},
		{
			// Known-first in (1, 0, 1, 0): the remembered card of the half-known pair (1, not
			// the singleton 0), then the only unknown card, its partner.
			name: "known-first", pairs: 1, singletons: 1, deal: []int{1, 0, 0},
			players:     scriptThen(knownFirst),
			steps:       []step{at(0, 1), at(0, 0)},
			turns:       []wantTurn{turn(0, "miss", 1, 0), turn(1, "pair", 1, 2)},
			pairsBySeat: []int{0, 1}, share: []int{0, 2}, knownFirst: true,
		},
		{
			// Seats 0 and 1 (scripted) leave both pairs fully known; the table player in seat 2
			// takes a known pair first, whatever its table says, and then the other.
			name: "a known pair is taken first", pairs: 2, deal: d0101,
			players: func(t *testing.T, d *director) []sim.Player {
				return []sim.Player{
					scripted("script0", perfect, d, 0), scripted("script1", perfect, d, 1),
					tablePlayer("safe", perfect, fixedTable(t, rules.PolicySafe, 2, 0)),
				}
			},
			steps: []step{at(0, 0), at(0, 1), at(1, 2), at(1, 3)},
			turns: []wantTurn{
				turn(0, "miss", 0, 1), turn(1, "miss", 2, 3),
				tableTurn(2, "pair", samePair([]int{0, 1, 2, 3})),
				tableTurn(2, "pair", samePair([]int{0, 1, 2, 3})),
			},
			pairsBySeat: []int{0, 0, 2}, share: []int{0, 0, 6},
		},
		{
			// Two-known: the table passes where it may; seat 0 passes back: stalemate.
			name: "table pass, stalemate", pairs: 2, pass: rules.PassTwoKnown, deal: d0101,
			players:     scriptThen(passWhereLegal),
			steps:       []step{at(0, 0), at(0, 1), passStep(0).with(wantAfterPass(true))},
			turns:       []wantTurn{turn(0, "miss", 0, 1), turn(1, "pass"), turn(0, "pass")},
			pairsBySeat: []int{0, 0}, share: []int{2, 2}, stalemate: true, left: 2,
		},
		{
			// The table's entry after a pass is read after a pass: daring takes the only pair.
			name: "table after a pass: daring", pairs: 1, pass: rules.PassAlways, deal: []int{0, 0},
			players:     scriptThen(daringAfterPass),
			steps:       []step{passStep(0)},
			turns:       []wantTurn{turn(0, "pass"), tableTurn(1, "pair", samePair([]int{0, 1}))},
			pairsBySeat: []int{0, 1}, share: []int{0, 2},
		},
		{
			name: "table after a pass: pass", pairs: 1, pass: rules.PassAlways, deal: []int{0, 0},
			players:     scriptThen(passAfterPass),
			steps:       []step{passStep(0)},
			turns:       []wantTurn{turn(0, "pass"), turn(1, "pass")},
			pairsBySeat: []int{0, 0}, share: []int{1, 1}, stalemate: true, left: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { playHand(t, c) })
	}
}

// TestHandWorkedLogText checks the text form of a log against a hand-worked game.
func TestHandWorkedLogText(t *testing.T) {
	c := handCase{
		pairs: 2, pass: rules.PassAlways, deal: []int{0, 1, 0, 1},
		players: func(t *testing.T, d *director) []sim.Player {
			return []sim.Player{scripted("ann", perfect, d, 0), scripted("bob", perfect, d, 1)}
		},
		steps:       []step{passStep(0), at(1, 0), at(1, 2), at(1, 1), at(1, 3)},
		turns:       []wantTurn{turn(0, "pass"), turn(1, "pair", 0, 2), turn(1, "pair", 1, 3)},
		pairsBySeat: []int{0, 2}, share: []int{0, 4},
	}
	_, lg := playHand(t, c)
	var b bytes.Buffer
	n, err := lg.WriteTo(&b)
	if err != nil || n != int64(b.Len()) {
		t.Fatalf("WriteTo: %d, %v (wrote %d bytes)", n, err, b.Len())
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("log text has %d lines, want 3:\n%s", len(lines), b.String())
	}
	for i, want := range [][]string{{"ann", "passes"}, {"bob", "flips 0", "flips 2", "takes the pair"}, {"bob", "flips 1", "flips 3", "takes the pair"}} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q does not mention %q", i+1, lines[i], w)
			}
		}
	}
	if !reflect.DeepEqual(lg.Names, []string{"ann", "bob"}) {
		t.Errorf("log names %v", lg.Names)
	}
}
