package sim_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
)

// faulty is a strategy that plays as unknownFirst and observes its games: it counts every seat's
// pairs from the events, and fails as fail says, with a fault of kind kind, or with an error
// that another game stopped it (kind 0).
type faulty struct {
	kind sim.FaultKind
	// fail says whether to fail now, in the game with the given index and the pairs so far.
	fail func(v *sim.View, index uint64, pairs []int) bool
	// stop, when not nil, says whether to stop the game with the given index now, as the failure
	// of another game would.
	stop func(index uint64) bool

	index  uint64
	pairs  []int
	atFail []int // the pairs when it last failed
	faults int   // the faults it made
	ended  int   // the games it was told ended
}

func (f *faulty) BeginGame(info sim.GameInfo) error {
	f.index = info.ID.Index
	f.pairs = make([]int, info.Players)
	return nil
}

func (f *faulty) Observe(e sim.Event) {
	if e.Kind == sim.EventPair {
		f.pairs[e.Seat]++
	}
}

func (f *faulty) EndGame(*sim.Outcome) error { f.ended++; return nil }

func (f *faulty) Flip(v *sim.View) sim.Move {
	if f.stop != nil && f.stop(f.index) {
		return sim.Fail(fmt.Errorf("%w (its game 7): exited", sim.ErrStopped))
	}
	if f.fail != nil && f.fail(v, f.index, f.pairs) {
		f.atFail = append([]int(nil), f.pairs...)
		f.faults++
		return sim.Fail(&sim.Fault{Kind: f.kind, Err: errors.New("the player misbehaved")})
	}
	return unknownFirst(v)
}

// forfeiter returns a player that forfeits, whose strategy is s.
func forfeiter(name string, s sim.Strategy) sim.Player {
	return sim.Player{Name: name, NewStrategy: func() sim.Strategy { return s }, Forfeit: true}
}

// TestForfeitConcedesThePairsLeft plays games in which the first seat faults at a given turn: the
// seat keeps the pairs it took, the others share the rest equally (to the nearest 1/seats pair,
// the units left over going to the seats after it in turn order), every seat's score adds up to
// the pairs, and the game is won by whoever scores most, the offender included.
func TestForfeitConcedesThePairsLeft(t *testing.T) {
	for _, tt := range []struct {
		name         string
		pairs, seats int
		// fail: when seat 0 faults, given its pairs so far.
		fail func(v *sim.View, pairs []int) bool
	}{
		{"2 seats, first move", 6, 2, func(*sim.View, []int) bool { return true }},
		{"2 seats, after a pair", 6, 2, func(_ *sim.View, p []int) bool { return p[0]+p[1] >= 1 }},
		{"2 seats, leading", 6, 2, func(_ *sim.View, p []int) bool { return p[0] >= 4 }},
		{"3 seats, first move", 5, 3, func(*sim.View, []int) bool { return true }},
		{"3 seats, after two pairs", 5, 3, func(_ *sim.View, p []int) bool { return p[0]+p[1]+p[2] >= 2 }},
		{"4 seats, after a pair", 7, 4, func(_ *sim.View, p []int) bool { return p[0]+p[1]+p[2]+p[3] >= 1 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &faulty{kind: sim.FaultTimeout, fail: func(v *sim.View, _ uint64, p []int) bool { return !v.Second && tt.fail(v, p) }}
			players := []sim.Player{forfeiter("f", f)}
			for i := 1; i < tt.seats; i++ {
				players = append(players, strategyPlayer(fmt.Sprint("s", i), rules.Memory{}, greedyRandom))
			}
			g, err := sim.NewGame(sim.Setup{Pairs: tt.pairs, Players: players})
			if err != nil {
				t.Fatal(err)
			}
			forfeited := 0
			for d := range uint64(200) {
				f.atFail = nil
				if err := g.Play(sim.GameID{Seed: 5, DealStream: 1, PlayStream: 2, Index: d}, nil); err != nil {
					t.Fatal(err)
				}
				o := g.Outcome()
				sum := 0
				for _, s := range o.Share {
					sum += s
				}
				if sum != tt.pairs*tt.seats {
					t.Fatalf("game %d: shares %v add up to %d/%d pairs, not %d", d, o.Share, sum, tt.seats, tt.pairs)
				}
				if f.atFail == nil {
					if o.Fault != 0 {
						t.Fatalf("game %d: fault %v without a failure", d, o.Fault)
					}
					continue
				}
				forfeited++
				if o.Fault != sim.FaultTimeout || o.FaultSeat != 0 || !slices.Equal(o.Pairs, f.atFail) {
					t.Fatalf("game %d: fault %v of seat %d with pairs %v, want a timeout of seat 0 with pairs %v", d, o.Fault, o.FaultSeat, o.Pairs, f.atFail)
				}
				// In units of 1/seats pairs: seat 0 keeps its pairs; the pairs left, times seats,
				// are split among the others, the remainder one unit each from seat 1 on.
				left := tt.pairs
				for _, p := range f.atFail {
					left -= p
				}
				units, others := left*tt.seats, tt.seats-1
				for i, s := range o.Share {
					want := f.atFail[i] * tt.seats
					if i > 0 {
						want += units / others
						if i <= units%others {
							want++
						}
					}
					if s != want {
						t.Fatalf("game %d: seat %d scores %d/%d pairs, want %d/%d (pairs %v, %d left)", d, i, s, tt.seats, want, tt.seats, f.atFail, left)
					}
				}
			}
			if forfeited == 0 {
				t.Fatal("no game forfeited")
			}
			if f.ended != 200 {
				t.Errorf("the faulty seat was told %d games ended, want 200", f.ended)
			}
		})
	}
}

// TestForfeitWinsAndLossesFollowTheScores checks a match's tally of forfeited games: the faults
// are counted for the seat that made them, by kind, and a seat that took more than half the
// pairs before its fault still wins.
func TestForfeitWinsAndLossesFollowTheScores(t *testing.T) {
	const pairs = 6
	for _, kind := range []sim.FaultKind{sim.FaultCrash, sim.FaultTimeout, sim.FaultIllegal} {
		f := &faulty{kind: kind, fail: func(v *sim.View, _ uint64, p []int) bool { return !v.Second && p[0] > pairs/2 }}
		m := &sim.Match{Setup: sim.Setup{Pairs: pairs, Players: []sim.Player{forfeiter("f", f),
			strategyPlayer("g", rules.Memory{}, greedyRandom)}}, Orders: [][]int{{0, 1}}, Deals: 300, Seed: 3}
		res, err := m.Play(context.Background(), 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		tl := res.Orders[0]
		n := int64(f.faults)
		var want sim.FaultCounts
		switch kind {
		case sim.FaultCrash:
			want.Crash = n
		case sim.FaultTimeout:
			want.Timeout = n
		case sim.FaultIllegal:
			want.Illegal = n
		}
		if n == 0 || len(tl.Faults) != 2 || tl.Faults[0] != want || tl.Faults[1] != (sim.FaultCounts{}) {
			t.Errorf("%v: faults %+v, want %+v for seat 0 (the faults it made) and none for seat 1", kind, tl.Faults, want)
		}
		// Seat 0 won the games it forfeited, and those it scored more than half in otherwise.
		var over int64
		for k := pairs + 1; k < len(tl.Share[0]); k++ {
			over += tl.Share[0][k]
		}
		if tl.Wins[0] != over || over < n {
			t.Errorf("%v: seat 0 won %d games, scored more than half in %d, and forfeited %d leading", kind, tl.Wins[0], over, n)
		}
	}
}

// TestForfeitLuckStopsAtTheFault plays every deal of small games in which a seat forfeits in the
// middle of a turn, when its first card turns out to be of an even face with no partner seen (a
// stopping time that depends on the luck): averaged over the deals, each seat's luck is still exactly zero, the adjusted scores
// those of the luck terms up to the fault.
func TestForfeitLuckStopsAtTheFault(t *testing.T) {
	for _, c := range []struct{ pairs, seats int }{{4, 2}, {4, 3}} {
		t.Run(fmt.Sprintf("%d pairs, %d seats", c.pairs, c.seats), func(t *testing.T) {
			f := &faulty{kind: sim.FaultCrash, fail: func(v *sim.View, _ uint64, _ []int) bool {
				_, partner := v.PartnerOf(v.First.Pos)
				return v.Second && !partner && v.First.Face%2 == 0
			}}
			players := []sim.Player{forfeiter("f", f)}
			for i := 1; i < c.seats; i++ {
				players = append(players, strategyPlayer(fmt.Sprint("s", i), rules.Memory{}, unknownFirst))
			}
			lt := luckTable(t, exact.Model{}, c.seats, c.pairs)
			g, err := sim.NewGame(sim.Setup{Pairs: c.pairs, Luck: lt, Players: players})
			if err != nil {
				t.Fatal(err)
			}
			luck := make([]float64, c.seats)
			deals, forfeited := 0, 0
			allDeals(c.pairs, 0, func(faces []int) {
				if err := g.PlayDeal(sim.GameID{}, faces, nil); err != nil {
					t.Fatal(err)
				}
				o := g.Outcome()
				if o.Fault != 0 {
					forfeited++
				}
				for i := range luck {
					luck[i] += float64(o.Share[i])/float64(c.seats) - o.Adjusted[i]
				}
				deals++
			})
			if forfeited == 0 || forfeited == deals {
				t.Fatalf("%d of %d games forfeited: the test needs some of each", forfeited, deals)
			}
			for i, l := range luck {
				if math.Abs(l/float64(deals)) > 1e-9 {
					t.Errorf("seat %d: mean luck %.3g over %d deals (%d forfeited), want 0", i, l/float64(deals), deals, forfeited)
				}
			}
		})
	}
}

// TestForfeitStoppedGamesArePlayedAgain checks that a game stopped by another game's failure
// (ErrStopped) is played again from its start for a player that forfeits, with results equal to
// those of games never stopped, and that it stops the match for a player that does not.
func TestForfeitStoppedGamesArePlayedAgain(t *testing.T) {
	match := func(forfeit bool, stopped map[uint64]bool) *sim.Match {
		p := sim.Player{Name: "f", Forfeit: forfeit, NewStrategy: func() sim.Strategy {
			return &faulty{stop: once(stopped)}
		}}
		lt := luckTable(t, exact.Model{}, 2, 5)
		return &sim.Match{Setup: sim.Setup{Pairs: 5, Luck: lt, Players: []sim.Player{p, strategyPlayer("g", rules.Memory{}, greedyRandom)}},
			Orders: [][]int{{0, 1}, {1, 0}}, Deals: 3000, Seed: 9, DealStream: 1, PlayStream: 2}
	}
	stopped := map[uint64]bool{0: true, 5: true, 6: true, 1100: true, 2999: true}
	want, err := match(false, nil).Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := match(true, stopped).Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Orders, want.Orders) || !reflect.DeepEqual(got.Paired, want.Paired) || !reflect.DeepEqual(got.Convergence, want.Convergence) {
		t.Errorf("games stopped and played again give other tallies than games never stopped:\n%+v\n%+v", got.Orders[0], want.Orders[0])
	}
	if _, err := match(false, stopped).Play(context.Background(), 2, nil); !errors.Is(err, sim.ErrStopped) {
		t.Errorf("a stopped game of a player that does not forfeit: %v, want the match to stop with it", err)
	}
}

// TestForfeitNoFaultChangesNothing checks that a player that forfeits but never faults gives the
// tallies of one that does not, bit for bit.
func TestForfeitNoFaultChangesNothing(t *testing.T) {
	match := func(forfeit bool) *sim.Match {
		p := strategyPlayer("u", rules.Memory{}, unknownFirst)
		p.Forfeit = forfeit
		lt := luckTable(t, exact.Model{}, 2, 5)
		return &sim.Match{Setup: sim.Setup{Pairs: 5, Luck: lt, Players: []sim.Player{p, strategyPlayer("g", rules.Memory{}, greedyRandom)}},
			Orders: [][]int{{0, 1}, {1, 0}}, Deals: 2000, Seed: 4}
	}
	a, err := match(false).Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := match(true).Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("a player that forfeits, without a fault, changes the results")
	}
}

// TestForfeitsInARowStopTheMatch checks the bound on games forfeited one after the other, and on
// a game stopped again and again: past sim.MaxForfeitsInARow the match stops with an error that
// says so; a player that forfeits every other game plays on.
func TestForfeitsInARowStopTheMatch(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    func() *faulty
		want string // "" for a match that completes
	}{
		{"every game", func() *faulty {
			return &faulty{kind: sim.FaultIllegal, fail: func(*sim.View, uint64, []int) bool { return true }}
		}, fmt.Sprintf("the player misbehaved; that is %d games in a row forfeited, so the match stops", sim.MaxForfeitsInARow)},
		{"every other game", func() *faulty {
			return &faulty{kind: sim.FaultIllegal, fail: func(_ *sim.View, d uint64, _ []int) bool { return d%2 == 0 }}
		}, ""},
		{"stopped again and again", func() *faulty {
			return &faulty{stop: func(uint64) bool { return true }}
		}, fmt.Sprintf("stopped by the failure of another game (its game 7): exited; it was stopped %d times in a row, so the match stops", sim.MaxForfeitsInARow)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := sim.Player{Name: "f", Forfeit: true, NewStrategy: func() sim.Strategy { return tt.f() }}
			m := &sim.Match{Setup: sim.Setup{Pairs: 4, Players: []sim.Player{p, strategyPlayer("g", rules.Memory{}, greedyRandom)}},
				Orders: [][]int{{0, 1}}, Deals: 100, Seed: 1}
			_, err := m.Play(context.Background(), 1, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want the match to complete", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), `player "f" (seat 0), game `) || !strings.HasSuffix(err.Error(), tt.want)):
				t.Errorf("got %v, want an error naming the player and ending %q", err, tt.want)
			}
		})
	}
}

// once returns a stop function that stops each game of the list once, the first time it is
// played.
func once(games map[uint64]bool) func(uint64) bool {
	done := map[uint64]bool{}
	return func(d uint64) bool {
		if games[d] && !done[d] {
			done[d] = true
			return true
		}
		return false
	}
}

// TestForfeitNeedsAStrategy checks that a player that forfeits must have a strategy.
func TestForfeitNeedsAStrategy(t *testing.T) {
	p := tablePlayer("d", rules.Memory{}, fixedTable(t, rules.PolicyDaring, 4, 0))
	p.Forfeit = true
	err := sim.Setup{Pairs: 4, Players: []sim.Player{p, p}}.Validate()
	if want := `player "d" (seat 0): a player that forfeits has a strategy, not a policy table`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestCheckResultFaultCounts checks that a result's fault counts survive its JSON (a checkpoint's)
// and that damaged ones are refused with an error that says what is wrong.
func TestCheckResultFaultCounts(t *testing.T) {
	f := func() sim.Strategy {
		return &faulty{kind: sim.FaultCrash, fail: func(v *sim.View, d uint64, _ []int) bool { return d%3 == 0 }}
	}
	m := &sim.Match{Setup: sim.Setup{Pairs: 4, Players: []sim.Player{{Name: "f", NewStrategy: f, Forfeit: true},
		strategyPlayer("g", rules.Memory{}, greedyRandom)}}, Orders: [][]int{{0, 1}, {1, 0}}, Deals: 300, Seed: 1}
	res, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	decode := func() *sim.Result {
		var r sim.Result
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	r := decode()
	// Seat 0 of order 0 and seat 1 of order 1 play every game with an index divisible by 3 until
	// the fault.
	want := []sim.FaultCounts{{Crash: 100}, {}}
	if !reflect.DeepEqual(r.Orders[0].Faults, want) || !reflect.DeepEqual(r.Orders[1].Faults, []sim.FaultCounts{{}, {Crash: 100}}) {
		t.Fatalf("fault counts %+v and %+v after JSON, want %+v and its mirror", r.Orders[0].Faults, r.Orders[1].Faults, want)
	}
	if err := m.CheckResult(r); err != nil {
		t.Fatalf("a sound result: %v", err)
	}
	for _, tt := range []struct {
		name   string
		damage func(r *sim.Result)
		want   string
	}{
		{"negative", func(r *sim.Result) { r.Orders[0].Faults[0].Timeout = -1 }, "seat order 0: seat 0: fault counts: count 1 is negative (-1)"},
		{"one seat short", func(r *sim.Result) { r.Orders[1].Faults = r.Orders[1].Faults[:1] }, "seat order 1: 1 fault counts for 2 seats"},
		{"a player that does not forfeit", func(r *sim.Result) { r.Orders[0].Faults[1].Illegal = 2 }, `seat order 0: seat 1: 2 games forfeited by player "g", which does not forfeit`},
		{"more than the games", func(r *sim.Result) { r.Orders[0].Faults[0].Illegal = 201 }, "seat order 0: 301 games forfeited or more, in 300 games"},
	} {
		r := decode()
		tt.damage(r)
		if err := m.CheckResult(r); err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestForfeitCountsMergeAcrossShards checks that the fault counts of a match's shards add up to
// those of the whole match, as every other count does.
func TestForfeitCountsMergeAcrossShards(t *testing.T) {
	f := func() sim.Strategy {
		return &faulty{kind: sim.FaultTimeout, fail: func(v *sim.View, d uint64, _ []int) bool { return d%7 == 0 }}
	}
	m := &sim.Match{Setup: sim.Setup{Pairs: 4, Players: []sim.Player{{Name: "f", NewStrategy: f, Forfeit: true},
		strategyPlayer("g", rules.Memory{}, greedyRandom)}}, Orders: [][]int{{0, 1}, {1, 0}}, Deals: 3*sim.BatchSize + 100, Seed: 2}
	whole, err := m.Play(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var shards []*sim.Result
	for i := 1; i <= 3; i++ {
		sm := *m
		sm.Shard, sm.Shards = i, 3
		r, err := sm.Play(context.Background(), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, r)
	}
	merged, err := m.MergeShards(shards)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Orders[0].Faults[0].Timeout == 0 || !reflect.DeepEqual(merged.Orders, whole.Orders) {
		t.Errorf("merged shards' faults %+v, the whole match's %+v", merged.Orders[0].Faults, whole.Orders[0].Faults)
	}
}
