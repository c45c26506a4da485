package sim_test

// A run's results depend on its seeds alone: not on the number of workers, not on what an engine
// played before. And Match derives each game's identity as documented, so that its tallies can be
// rebuilt game by game.

import (
	"context"
	"math"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// determinismMatch is a paired two-player match with forgetting on both sides, so that play draws
// random numbers: a parity table with a private lru memory against a greedy strategy with a
// private decay memory. With an even number of pairs, games can be drawn.
func determinismMatch(t *testing.T, deals int64) *sim.Match {
	const n, s = 4, 1
	return &sim.Match{
		Setup: sim.Setup{Pairs: n, Singletons: s, Pass: rules.PassNever, Players: []sim.Player{
			tablePlayer("parity", rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}, fixedTable(t, rules.PolicyParity, n, s)),
			strategyPlayer("greedy", rules.Memory{Forget: rules.ForgetDecay, Decay: 0.3, Scope: rules.ScopePrivate}, greedyRandom),
		}},
		Orders: [][]int{{0, 1}, {1, 0}},
		Deals:  deals,
		Seed:   42, DealStream: 1, PlayStream: 10,
	}
}

func playMatch(t *testing.T, m *sim.Match, workers int) *sim.Result {
	t.Helper()
	var done atomic.Int64
	res, err := m.Play(context.Background(), workers, &done)
	if err != nil {
		t.Fatalf("workers %d: %v", workers, err)
	}
	if want := m.Deals * int64(len(m.Orders)); done.Load() != want {
		t.Errorf("workers %d: done counts %d games, want %d", workers, done.Load(), want)
	}
	return res
}

func TestMatchWorkersDeterminism(t *testing.T) {
	deals := int64(2500) // not a multiple of sim.BatchSize: the last batch is short
	if deals%sim.BatchSize == 0 {
		t.Fatal("pick a deal count that is not a multiple of the batch size")
	}
	m := determinismMatch(t, deals)
	ref := playMatch(t, m, 1)
	for _, w := range []int{2, 3, 0} {
		if got := playMatch(t, m, w); !reflect.DeepEqual(got, ref) {
			t.Errorf("workers %d: result differs from one worker:\n%+v\n%+v", w, got.Orders[0], ref.Orders[0])
		}
	}
	// Shape of the result.
	if len(ref.Orders) != 2 || ref.Paired == nil || ref.Paired.Deals != deals {
		t.Fatalf("result has %d orders, paired %+v", len(ref.Orders), ref.Paired)
	}
	var sum int64
	for _, c := range ref.Paired.Sum {
		sum += c
	}
	if sum != deals || len(ref.Paired.Sum) != 4*m.Setup.Pairs+1 {
		t.Errorf("paired tally counts %d deals in %d cells", sum, len(ref.Paired.Sum))
	}
	for k, tl := range ref.Orders {
		if tl.Games != deals || tl.Seats != 2 || tl.Pairs != m.Setup.Pairs {
			t.Errorf("order %d: %d games, %d seats, %d pairs", k, tl.Games, tl.Seats, tl.Pairs)
		}
		for i := range 2 {
			var c int64
			for _, x := range tl.Share[i] {
				c += x
			}
			if c != deals || tl.Wins[i]+tl.Draws[i]+tl.Losses[i] != deals {
				t.Errorf("order %d seat %d: %d games in the histogram, %d+%d+%d results", k, i, c, tl.Wins[i], tl.Draws[i], tl.Losses[i])
			}
		}
		if tl.Draws[0] == 0 {
			t.Errorf("order %d: no drawn game in %d", k, deals)
		}
		if tl.Wins[0] != tl.Losses[1] || tl.Wins[1] != tl.Losses[0] || tl.Draws[0] != tl.Draws[1] {
			t.Errorf("order %d: two seats' wins, draws and losses do not mirror: %v %v %v", k, tl.Wins, tl.Draws, tl.Losses)
		}
	}
}

// TestMatchRebuiltGameByGame plays every game of a match on its own, from the GameID the Match
// documentation gives it (deal d from (Seed, DealStream, d), order k played from
// (Seed, PlayStream+k, d)), and rebuilds the tallies.
func TestMatchRebuiltGameByGame(t *testing.T) {
	m := determinismMatch(t, 1100)
	res := playMatch(t, m, 2)
	n, p := m.Setup.Pairs, 2
	paired := make([]int64, 4*n+1)
	pairSum := make([]int, m.Deals)
	for k, order := range m.Orders {
		setup := m.Setup
		setup.Players = []sim.Player{m.Setup.Players[order[0]], m.Setup.Players[order[1]]}
		g, err := sim.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		want := sim.NewTally(p, n)
		for d := range m.Deals {
			id := sim.GameID{Seed: m.Seed, DealStream: m.DealStream, PlayStream: m.PlayStream + uint64(k), Index: uint64(d)}
			if err := g.Play(id, nil); err != nil {
				t.Fatal(err)
			}
			o := g.Outcome()
			want.Games++
			best := slices.Max(o.Share)
			ties := 0
			for _, s := range o.Share {
				if s == best {
					ties++
				}
			}
			for i, s := range o.Share {
				want.Share[i][s]++
				switch {
				case s < best:
					want.Losses[i]++
				case ties > 1:
					want.Draws[i]++
				default:
					want.Wins[i]++
				}
			}
			want.TurnSum += int64(o.Turns)
			want.TurnSumSq += int64(o.Turns) * int64(o.Turns)
			if o.Stalemate {
				want.Stalemates++
			}
			seat := slices.Index(order, 0) // participant 0's seat
			pairSum[d] += o.Share[seat]
		}
		got := *res.Orders[k]
		got.Lucky, got.LuckySumSq = 0, 0 // not visible in an Outcome; checked in TestLuckyTally
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("order %d: match tally\n%+v\ngame by game\n%+v", k, &got, want)
		}
	}
	for _, s := range pairSum {
		paired[s]++
	}
	if !slices.Equal(res.Paired.Sum, paired) {
		t.Errorf("paired sums %v, game by game %v", res.Paired.Sum, paired)
	}
}

// TestLuckyTally checks Tally.Lucky, LuckySumSq, the turn sums and the counts of games by their
// length (Tally.Turns) of solitaire matches with
// perfect memory against the logs of their games: a lucky turn takes a pair of two cards never
// seen before, "by chance" (docs/models.md §1.6); taking the remembered partner of a new first card is
// not lucky. Both a policy table and a strategy are checked.
func TestLuckyTally(t *testing.T) {
	const n = 4
	for _, pl := range []sim.Player{
		tablePlayer("daring", perfect, fixedTable(t, rules.PolicyDaring, n, 0)),
		strategyPlayer("greedy", perfect, greedyRandom),
	} {
		t.Run(pl.Name, func(t *testing.T) {
			m := &sim.Match{
				Setup:  sim.Setup{Pairs: n, Players: []sim.Player{pl}},
				Orders: [][]int{{0}}, Deals: 1500, Seed: 9, DealStream: 3, PlayStream: 4,
			}
			res := playMatch(t, m, 2)
			if res.Paired != nil {
				t.Errorf("a one-player match has a paired tally")
			}
			g, err := sim.NewGame(m.Setup)
			if err != nil {
				t.Fatal(err)
			}
			lg := &sim.Log{}
			var lucky, luckySq, turns, turnsSq int64
			byLength := make([]int64, sim.TurnBins(2*n))
			for d := range m.Deals {
				if err := g.Play(sim.GameID{Seed: m.Seed, DealStream: m.DealStream, PlayStream: m.PlayStream, Index: uint64(d)}, lg); err != nil {
					t.Fatal(err)
				}
				f := checkLog(t, m.Setup, lg, g.Outcome(), true, []bool{pl.Table != nil})
				lucky += int64(f.lucky)
				luckySq += int64(f.lucky * f.lucky)
				turns += int64(len(lg.Turns))
				turnsSq += int64(len(lg.Turns) * len(lg.Turns))
				byLength[min(len(lg.Turns), len(byLength)-1)]++
			}
			tl := res.Orders[0]
			if tl.Lucky != lucky || tl.LuckySumSq != luckySq || tl.TurnSum != turns || tl.TurnSumSq != turnsSq {
				t.Errorf("tally lucky %d (sq %d), turns %d (sq %d); logs %d (%d), %d (%d)",
					tl.Lucky, tl.LuckySumSq, tl.TurnSum, tl.TurnSumSq, lucky, luckySq, turns, turnsSq)
			}
			if !slices.Equal(tl.Turns, byLength) {
				t.Errorf("tally's games by length %v, logs' %v", tl.Turns, byLength)
			}
			if tl.Share[0][n] != m.Deals || tl.Wins[0] != m.Deals {
				t.Errorf("solitaire: share histogram %v, wins %v", tl.Share[0], tl.Wins)
			}
		})
	}
}

// TestMatchReplay: Match.Replay plays deal d in order k as the match did.
func TestMatchReplay(t *testing.T) {
	m := determinismMatch(t, 50)
	for k := range m.Orders {
		setup := m.Setup
		setup.Players = []sim.Player{m.Setup.Players[m.Orders[k][0]], m.Setup.Players[m.Orders[k][1]]}
		g, err := sim.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		for d := range uint64(m.Deals) {
			var want, got sim.Log
			if err := g.Play(sim.GameID{Seed: m.Seed, DealStream: m.DealStream, PlayStream: m.PlayStream + uint64(k), Index: d}, &want); err != nil {
				t.Fatal(err)
			}
			o, err := m.Replay(k, d, &got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(&want, &got) || !reflect.DeepEqual(o, g.Outcome()) {
				t.Errorf("order %d deal %d: Replay differs from the game's own play", k, d)
			}
		}
	}
}

func TestReplaySameGameID(t *testing.T) {
	m := determinismMatch(t, 1)
	setup := m.Setup
	g1, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(20) {
		id := sim.GameID{Seed: 5, DealStream: 6, PlayStream: 7, Index: i}
		var first, again, fresh sim.Log
		if err := g1.Play(id, &first); err != nil {
			t.Fatal(err)
		}
		o1 := *g1.Outcome()
		o1.Pairs, o1.Share = slices.Clone(o1.Pairs), slices.Clone(o1.Share)
		// Other games in between, on the same engine.
		for j := range uint64(3) {
			if err := g1.Play(sim.GameID{Seed: 99, DealStream: j, PlayStream: j, Index: i + j}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := g1.Play(id, &again); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&first, &again) || !reflect.DeepEqual(&o1, g1.Outcome()) {
			t.Errorf("game %+v replayed on the same engine differs", id)
		}
		if err := g2.Play(id, &fresh); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&first, &fresh) || !reflect.DeepEqual(&o1, g2.Outcome()) {
			t.Errorf("game %+v replayed on a fresh engine differs", id)
		}
	}
}

// TestStreams checks what each part of a GameID drives: the deal stream the cards (the same in
// every play stream), the play stream the play, and PlayDeal ignores the deal stream.
func TestStreams(t *testing.T) {
	m := determinismMatch(t, 1)
	g, err := sim.NewGame(m.Setup)
	if err != nil {
		t.Fatal(err)
	}
	deal := func(id sim.GameID) (map[int]int, []sim.LoggedTurn) {
		lg := &sim.Log{}
		if err := g.Play(id, lg); err != nil {
			t.Fatal(err)
		}
		f := checkLog(t, m.Setup, lg, g.Outcome(), false, []bool{true, false})
		return f.deal, slices.Clone(lg.Turns)
	}
	playDiffers, dealDiffers := 0, 0
	for i := range uint64(30) {
		a, la := deal(sim.GameID{Seed: 1, DealStream: 2, PlayStream: 3, Index: i})
		b, lb := deal(sim.GameID{Seed: 1, DealStream: 2, PlayStream: 4, Index: i})
		c, _ := deal(sim.GameID{Seed: 1, DealStream: 5, PlayStream: 3, Index: i})
		for pos, f := range a {
			if fb, ok := b[pos]; ok && fb != f {
				t.Fatalf("game %d: card %d shows %d in one play stream and %d in another: the deal must not depend on the play stream", i, pos, f, fb)
			}
		}
		if !reflect.DeepEqual(la, lb) {
			playDiffers++
		}
		for pos, f := range a {
			if fc, ok := c[pos]; ok && fc != f {
				dealDiffers++
				break
			}
		}
	}
	if playDiffers < 20 || dealDiffers < 20 {
		t.Errorf("of 30 games, %d change with the play stream and %d with the deal stream", playDiffers, dealDiffers)
	}
	// PlayDeal does not use the deal stream.
	faces := []int{4, 0, 1, 2, 3, 0, 1, 2, 3}
	var l1, l2 sim.Log
	if err := g.PlayDeal(sim.GameID{Seed: 1, DealStream: 1, PlayStream: 3, Index: 8}, faces, &l1); err != nil {
		t.Fatal(err)
	}
	if err := g.PlayDeal(sim.GameID{Seed: 1, DealStream: 77, PlayStream: 3, Index: 8}, faces, &l2); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l1, l2) {
		t.Errorf("PlayDeal depends on the deal stream")
	}
}

func TestDifferentSeedsDiffer(t *testing.T) {
	m := determinismMatch(t, 600)
	ref := playMatch(t, m, 2)
	for _, change := range []func(m *sim.Match){
		func(m *sim.Match) { m.Seed++ },
		func(m *sim.Match) { m.DealStream++ },
		func(m *sim.Match) { m.PlayStream += 2 },
	} {
		m2 := *m
		change(&m2)
		if got := playMatch(t, &m2, 2); reflect.DeepEqual(got, ref) {
			t.Errorf("match %+v gives the same result as seed %d, deal stream %d, play stream %d", m2, m.Seed, m.DealStream, m.PlayStream)
		}
	}
}

// TestDealsAreUniform checks that Play deals every arrangement of the cards equally often: with 2
// pairs and a singleton there are 5!/(2!·2!) = 30 arrangements. A chi-square statistic with 29
// degrees of freedom has mean 29 and standard deviation √58 ≈ 7.6; the bound 100 is over 9
// standard deviations above the mean.
func TestDealsAreUniform(t *testing.T) {
	const n, s, games = 2, 1, 6000
	setup := sim.Setup{Pairs: n, Singletons: s, Players: []sim.Player{strategyPlayer("greedy", perfect, greedyRandom)}}
	g, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[[5]int]int{}
	lg := &sim.Log{}
	for i := range uint64(games) {
		if err := g.Play(sim.GameID{Seed: 31, DealStream: 4, PlayStream: 1, Index: i}, lg); err != nil {
			t.Fatal(err)
		}
		f := checkLog(t, setup, lg, g.Outcome(), true, []bool{false})
		var key [5]int
		for pos := range key {
			face, ok := f.deal[pos]
			if !ok {
				face = n // the singleton, never flipped
			}
			key[pos] = face
		}
		counts[key]++
	}
	if len(counts) != 30 {
		t.Fatalf("%d distinct arrangements dealt, want 30", len(counts))
	}
	exp := float64(games) / 30
	chi2 := 0.0
	for _, c := range counts {
		chi2 += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	if chi2 > 100 || math.IsNaN(chi2) {
		t.Errorf("chi-square %.1f over 30 arrangements: the deal is not uniform (%v)", chi2, counts)
	}
}
