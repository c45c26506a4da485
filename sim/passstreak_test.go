package sim_test

import (
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// streakTable returns a table for three seats that passes after fewer than two passes in a row
// and plays daring after two, in every state.
func streakTable(t *testing.T, pairs int) *rules.ChoiceTable {
	t.Helper()
	tab, err := rules.NewPassChoiceTable(pairs, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			tab.SetPasses(st, 0, rules.Pass)
			tab.SetPasses(st, 1, rules.Pass)
			tab.SetPasses(st, 2, rules.Daring)
		}
	}
	return tab
}

// TestTablesReadThePassStreak plays three seats under pass rule always that pass unless two seats
// passed in a row before them: with the streak read from the table the third seat always plays,
// so no game ends in a stalemate and every pair is taken; a table that only knows whether the
// previous seat passed would pass there too and end every game at once.
func TestTablesReadThePassStreak(t *testing.T) {
	const pairs = 4
	tab := streakTable(t, pairs)
	players := make([]sim.Player, 3)
	for i := range players {
		players[i] = sim.Player{Name: "streak", Table: tab}
	}
	g, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: rules.PassAlways, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if err := g.Play(sim.GameID{Index: uint64(i), Seed: 7}, nil); err != nil {
			t.Fatal(err)
		}
		o := g.Outcome()
		taken := 0
		for _, p := range o.Pairs {
			taken += p
		}
		if o.Stalemate || taken != pairs {
			t.Fatalf("game %d: stalemate %v, %d of %d pairs taken", i, o.Stalemate, taken, pairs)
		}
	}
}

// streakStrategy passes unless two seats passed in a row before it, and records the streaks it
// was shown.
type streakStrategy struct{ seen *[]int }

func (s streakStrategy) Flip(v *sim.View) sim.Move {
	if v.Second {
		if p, ok := v.PartnerOf(v.First.Pos); ok {
			return sim.FlipAt(p)
		}
		return sim.FlipUnknown()
	}
	if a, _, ok := v.KnownPair(); ok {
		return sim.FlipAt(a)
	}
	*s.seen = append(*s.seen, v.Passes)
	if v.AfterPass != (v.Passes > 0) {
		return sim.Fail(errAfterPass)
	}
	if v.Passes < 2 {
		return sim.Pass()
	}
	return sim.FlipUnknown()
}

var errAfterPass = errString("AfterPass disagrees with Passes")

type errString string

func (e errString) Error() string { return string(e) }

// TestViewCountsThePasses plays three strategies that pass unless two seats passed in a row
// before them: the view's pass streak runs 0, 1, 2 and is never 3, and no game ends in a
// stalemate.
func TestViewCountsThePasses(t *testing.T) {
	const pairs = 4
	var seen []int
	players := make([]sim.Player, 3)
	for i := range players {
		players[i] = sim.Player{Name: "streak", NewStrategy: func() sim.Strategy { return streakStrategy{&seen} }}
	}
	g, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: rules.PassAlways, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(sim.GameID{Index: 0, Seed: 3}, nil); err != nil {
		t.Fatal(err)
	}
	if g.Outcome().Stalemate {
		t.Fatal("stalemate")
	}
	count := [4]int{}
	for _, k := range seen {
		if k > 2 {
			t.Fatalf("streak %d shown to a seat of three", k)
		}
		count[k]++
	}
	if count[0] == 0 || count[1] == 0 || count[2] == 0 {
		t.Errorf("streaks shown %v: want each of 0, 1, 2", count)
	}
}
