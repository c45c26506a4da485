package sim

import (
	"testing"

	"memsim/sim/rules"
)

// passLayerTable returns a table under a fluctuating capacity with a layer for every capacity
// from lo to hi: the layer of capacity pass passes in every state, the others play daring.
func passLayerTable(t *testing.T, pairs, lo, hi, pass int) *rules.ChoiceTable {
	t.Helper()
	var layers []*rules.ChoiceTable
	for c := lo; c <= hi; c++ {
		l, err := rules.NewChoiceTable(pairs, 0)
		if err != nil {
			t.Fatal(err)
		}
		ch := rules.Daring
		if c == pass {
			ch = rules.Pass
		}
		for n := 0; n <= pairs; n++ {
			for j := 0; j <= n; j++ {
				l.Set(rules.State{N: n, J: j}, false, ch)
				l.Set(rules.State{N: n, J: j}, true, ch)
			}
		}
		layers = append(layers, l)
	}
	tab, err := rules.NewCapacityChoiceTable(lo, layers)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// A table under a fluctuating capacity is read in the layer of the capacity drawn for the turn.
// The reference draws every turn's capacity as docs/models.md §2.2 and §5.5 say: max(2, m + d),
// d uniform on -σ .. σ, from the generator of the game's seed, index and the stream derived from
// its play stream and the shared memory's place (the first). The table passes in the layer of one
// capacity and plays daring in the others, so every logged turn tells which layer was read: a
// turn that drew the passing capacity passes without a flip, or takes a pair whose two cards were
// flipped before (a pair known whole is taken before the table is read); any other turn does not
// pass.
func TestTableReadsTheLayerOfTheCapacityDrawn(t *testing.T) {
	const pairs, games = 7, 200
	for _, tc := range []struct {
		forget         rules.Forgetting
		base, sigma, p int // p: the capacity whose layer passes
	}{
		{rules.ForgetLRU, 3, 1, 3},
		{rules.ForgetLRU, 4, 2, 3},
		{rules.ForgetHandoverUniform, 3, 1, 3},
	} {
		mem := rules.Memory{Capacity: tc.base, Forget: tc.forget, Scope: rules.ScopeShared, Fluctuation: tc.sigma}
		tab := passLayerTable(t, pairs, max(2, tc.base-tc.sigma), tc.base+tc.sigma, tc.p)
		setup := Setup{Pairs: pairs, Pass: rules.PassAlways, Players: []Player{
			{Name: "a", Memory: mem, Table: tab}, {Name: "b", Memory: mem, Table: tab}}}
		g, err := NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		passes, others := 0, 0
		for i := range games {
			id := GameID{Seed: 5, DealStream: 2, PlayStream: 9, Index: uint64(i)}
			var lg Log
			if err := g.Play(id, &lg); err != nil {
				t.Fatal(err)
			}
			draws := seedRNG(id.Seed, fluctuationStream(id.PlayStream, 0), id.Index)
			seen := map[int]bool{}
			turn := 0
			for _, lt := range lg.Turns {
				var c int
				for turn < lt.Turn { // every turn draws, whether logged or not
					c = max(2, tc.base+draws.intn(2*tc.sigma+1)-tc.sigma)
					turn++
				}
				known := len(lt.Flips) == 2 && seen[lt.Flips[0].Pos] && seen[lt.Flips[1].Pos]
				switch {
				case c == tc.p && lt.End == "pass" && len(lt.Flips) == 0:
					passes++
				case c == tc.p && lt.End == "pair" && known:
				case c == tc.p:
					t.Fatalf("%s σ=%d game %d turn %d: capacity %d drawn, whose layer passes, but the turn ended %q after %d flips",
						mem, tc.sigma, i, lt.Turn, c, lt.End, len(lt.Flips))
				case lt.End == "pass":
					t.Fatalf("%s σ=%d game %d turn %d: capacity %d drawn, whose layer plays daring, but the turn passed",
						mem, tc.sigma, i, lt.Turn, c)
				default:
					others++
				}
				for _, f := range lt.Flips {
					seen[f.Pos] = true
				}
			}
		}
		if passes == 0 || others == 0 {
			t.Fatalf("%s σ=%d: %d passing turns, %d others: the layers were not both read", mem, tc.sigma, passes, others)
		}
	}
}
