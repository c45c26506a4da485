package external_test

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"sync"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
)

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == playerArg {
		os.Exit(runTestPlayer(os.Args[2]))
	}
	os.Exit(m.Run())
}

// syncBuffer is a log the processes' stderr goes to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newTestPlayer returns the test player of the given mode with its log, closed when the test ends.
func newTestPlayer(t *testing.T, mode string, c external.Command) (*external.Player, *syncBuffer) {
	t.Helper()
	c.Argv = testCommand(mode)
	p, err := external.New("ext", c)
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	p.SetLog(log, "logs/ext.log")
	t.Cleanup(func() { p.Close() })
	return p, log
}

type funcStrategy func(v *sim.View) sim.Move

func (f funcStrategy) Flip(v *sim.View) sim.Move { return f(v) }

func strategyPlayer(name string, f func(v *sim.View) sim.Move) sim.Player {
	return sim.Player{Name: name, NewStrategy: func() sim.Strategy { return funcStrategy(f) }}
}

func tablePlayer(t *testing.T, name string, p rules.Policy, pairs int) sim.Player {
	t.Helper()
	tb, err := rules.FixedChoiceTable(p, pairs, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Player{Name: name, Table: tb}
}

// pairedMatch returns a paired match of a and b at the given deal size.
func pairedMatch(a, b sim.Player, pairs int, deals int64) *sim.Match {
	return &sim.Match{Setup: sim.Setup{Pairs: pairs, Players: []sim.Player{a, b}},
		Orders: [][]int{{0, 1}, {1, 0}}, Deals: deals, Seed: 11, DealStream: 3, PlayStream: 5}
}

// TestStateViewParityPlaysAsTheTable checks that a process answering the parity policy's choices
// over the state view plays every game exactly as memsim's own parity table does: the same
// tallies, bit for bit, on the same deals.
func TestStateViewParityPlaysAsTheTable(t *testing.T) {
	pairs := 6
	if testing.Short() {
		pairs = 4
	}
	opponent := strategyPlayer("greedy", strategies.GreedyRandom{}.Flip)
	// With several games in flight per process, the workers' engines share one: two batches of
	// deals make two workers play at once.
	for _, c := range []struct {
		inFlight, workers int
		deals             int64
		processes         int // the seats (an engine per seat order of each worker that plays) / inFlight
	}{{1, 2, 300, 2}, {4, 8, sim.BatchSize + 100, 1}} {
		want, err := pairedMatch(tablePlayer(t, "parity", rules.PolicyParity, pairs), opponent, pairs, c.deals).Play(t.Context(), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		ext, log := newTestPlayer(t, "parity", external.Command{GamesInFlight: c.inFlight})
		got, err := pairedMatch(sim.Player{Name: "parity", NewStrategy: ext.Strategy}, opponent, pairs, c.deals).Play(t.Context(), c.workers, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := range want.Orders {
			if !reflect.DeepEqual(got.Orders[k], want.Orders[k]) {
				t.Errorf("%d games in flight, seat order %d: the process's tally\n%+v\ndiffers from the table's\n%+v", c.inFlight, k, got.Orders[k], want.Orders[k])
			}
		}
		if !reflect.DeepEqual(got.Paired, want.Paired) {
			t.Errorf("%d games in flight: paired tallies differ", c.inFlight)
		}
		if n, want := processes(log.String()), c.processes; n != want {
			t.Errorf("%d games in flight: %d processes started, want %d", c.inFlight, n, want)
		}
	}
}

// TestEventsPlayerIsDeterministic checks that a process's games depend on the games alone, not on
// the process's history: two processes playing the same deals in opposite orders play every game
// alike, and the seeds make the games vary.
func TestEventsPlayerIsDeterministic(t *testing.T) {
	const pairs, deals = 6, 40
	var logs [2][deals]sim.Log
	for k := range 2 {
		ext, _ := newTestPlayer(t, "greedy", external.Command{})
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Players: []sim.Player{
			{Name: "greedy-process", NewStrategy: ext.Strategy}, tablePlayer(t, "daring", rules.PolicyDaring, pairs)}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range deals {
			d := i
			if k == 1 {
				d = deals - 1 - i
			}
			if err := g.Play(sim.GameID{Seed: 5, DealStream: 1, PlayStream: 2, Index: uint64(d)}, &logs[k][d]); err != nil {
				t.Fatal(err)
			}
		}
		g.Close()
	}
	distinct := map[string]bool{}
	for d := range deals {
		if !reflect.DeepEqual(logs[0][d].Turns, logs[1][d].Turns) {
			t.Fatalf("deal %d: the two processes played it differently:\n%+v\n%+v", d, logs[0][d].Turns, logs[1][d].Turns)
		}
		distinct[fmt.Sprint(logs[0][d].Turns)] = true
	}
	if len(distinct) < deals/2 {
		t.Fatalf("%d distinct games in %d deals", len(distinct), deals)
	}
}
