package play

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"memsim/sim/record"
	"memsim/sim/rules"
)

// TestSeatsCoachJudgesAThreeSeatGameByHand follows the coach through a game of two pairs at three
// seats, deal 0 1 0 1, pass rule never. At the start the only choice is daring, worth 2/3 of a
// pair (two new cards match a third of the time, and then take both pairs). Once cards 0 and 1
// are seen the next seat takes both pairs with a new card first (daring and safe: 2), while a
// seen card first finds its partner half the time (known-first: 1); known-first, 0 then 3, is
// then judged to cost 1 pair. Under a rule variant the coach has no values.
func TestSeatsCoachJudgesAThreeSeatGameByHand(t *testing.T) {
	ctx := context.Background()
	r := record.Rules{Pairs: 2, Seats: 3, Pass: rules.PassNever}
	c, err := NewSeatsCoach(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	tb := NewTable(2, 0, []Seat{{Name: "you", Person: true}, {Name: "b"}, {Name: "c"}})
	next, last, err := c.Values(tb)
	if err != nil || next == nil || last != nil || len(next.Options) != 1 || next.Options[0].Pairs.Cmp(big.NewRat(2, 3)) != 0 {
		t.Fatalf("the start: next %+v, last %v, %v; want daring alone, worth 2/3", next, last, err)
	}
	tb.Moves = append(tb.Moves, record.Flip(0, 0), record.Flip(1, 1))
	next, _, err = c.Values(tb)
	if err != nil || next == nil || next.Seat != 1 {
		t.Fatalf("turn 2: next %+v, %v", next, err)
	}
	want := map[rules.Choice]*big.Rat{rules.Daring: big.NewRat(2, 1), rules.Safe: big.NewRat(2, 1), rules.KnownFirst: big.NewRat(1, 1)}
	for _, o := range next.Options {
		if w := want[o.Choice]; w == nil || o.Pairs.Cmp(w) != 0 {
			t.Errorf("turn 2: %v is worth %v, want %v", o.Choice, o.Pairs, w)
		}
	}
	if line := SeatsOptionsLine(next); !strings.Contains(line, "daring 2.0000 (best); safe 2.0000 (best); known-first 1.0000") {
		t.Errorf("options line %q", line)
	}
	tb.Moves = append(tb.Moves, record.Flip(0, 0), record.Flip(3, 1))
	_, last, err = c.Values(tb)
	if err != nil || last == nil || last.Cost.Cmp(big.NewRat(1, 1)) != 0 {
		t.Fatalf("turn 2 judged: %+v, %v; want a cost of 1 pair", last, err)
	}
	if line := SeatsLastLine(last); line != "your last turn (turn 2: known-first) cost 1.0000 pairs; best: daring or safe" {
		t.Errorf("last line %q", line)
	}
	if _, err := NewSeatsCoach(ctx, record.Rules{Pairs: 2, Seats: 3, Variant: rules.Variant{TurnLimit: 4}}); err == nil {
		t.Error("a coach of three seats under a turn limit: no error, want no values")
	}
}
