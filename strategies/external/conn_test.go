package external_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
	"memsim/strategies/external/protocol"
)

// TestConnSpeaksTheProtocolDirectly starts a process with Dial, sends several games' first-card
// requests in one write and checks every reply against its request.
func TestConnSpeaksTheProtocolDirectly(t *testing.T) {
	t.Parallel()
	p, _ := newTestPlayer(t, "client-daring", external.Command{})
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if info := conn.Info(); info.Name != "client-daring" || info.View != protocol.ViewEvents {
		t.Errorf("Info() = %+v, want client-daring with the events view", info)
	}
	if got := p.Processes(); !slices.Equal(got, []int{conn.Pid()}) {
		t.Errorf("Processes() = %v, want the connection's process %d", got, conn.Pid())
	}
	reqs := map[int64]*protocol.Move{}
	for g := range int64(3) {
		reqs[g] = &protocol.Move{Game: g, Card: 1, Legal: []int{0, 1, 2, 3}, DeadlineMS: 10000}
		ng := &protocol.NewGame{Game: g, Seed: g, Rules: protocol.Rules{Pairs: 2, Seats: 2, Pass: "never",
			Choices: []string{"daring", "safe", "known-first", "pass"}}}
		if err := conn.Write(ng); err != nil {
			t.Fatal(err)
		}
		if err := conn.Write(reqs[g]); err != nil {
			t.Fatal(err)
		}
	}
	if err := conn.Flush(); err != nil {
		t.Fatal(err)
	}
	for range reqs {
		m, line, err := conn.Read(10 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		f, ok := m.(*protocol.Flip)
		if !ok {
			t.Fatalf("line %d: a %s message, want a flip", line, m.Type())
		}
		if err := protocol.CheckReply(reqs[f.Game], m); err != nil {
			t.Errorf("line %d: %v", line, err)
		}
	}
	if running, err := conn.Running(); !running || conn.Err() != nil {
		t.Errorf("Running() = %v, %v, Err() = %v: want a running process", running, err, conn.Err())
	}
}

// TestConnReadNamesALateReply checks that a read with nothing to read fails after its timeout,
// naming it, and stops the process.
func TestConnReadNamesALateReply(t *testing.T) {
	t.Parallel()
	p, _ := newTestPlayer(t, "client-daring", external.Command{})
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _, err = conn.Read(20 * time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no line within 20ms") {
		t.Errorf("Read: %v, want no line within 20ms", err)
	}
	if conn.Err() == nil {
		t.Error("Err() = nil after a failed read, want the failure")
	}
}

// TestKillStartsNewProcesses checks that Kill stops every process of a player at once, and that
// the engine then starts a new one to play.
func TestKillStartsNewProcesses(t *testing.T) {
	t.Parallel()
	p, _ := newTestPlayer(t, "greedy", external.Command{})
	ext := sim.Player{Name: "ext", NewStrategy: p.Strategy}
	m := &sim.Match{Setup: sim.Setup{Pairs: 4, Pass: rules.PassNever, Players: []sim.Player{ext, strategyPlayer("greedy", strategies.GreedyRandom{}.Flip)}},
		Orders: [][]int{{0, 1}}, Deals: 2, Seed: 1}
	if _, err := m.Play(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	before := p.Processes()
	if len(before) != 1 {
		t.Fatalf("Processes() = %v after a match on one worker, want one", before)
	}
	if killed := p.Kill(); !slices.Equal(killed, before) {
		t.Errorf("Kill() = %v, want %v", killed, before)
	}
	if got := p.Processes(); len(got) != 0 {
		t.Errorf("Processes() = %v after Kill, want none", got)
	}
	if _, err := m.Play(context.Background(), 1, nil); err != nil {
		t.Fatalf("a match after Kill: %v", err)
	}
	after := p.Processes()
	if len(after) != 1 || after[0] == before[0] {
		t.Errorf("Processes() = %v after Kill and another match, want one new process (not %d)", after, before[0])
	}
}

// TestWriteToAnExitedPlayerNamesItsExit checks that a write that fails because the player has
// exited, whether it is a flush or a full buffer written out, reports the exit and its status
// rather than the broken pipe.
func TestWriteToAnExitedPlayerNamesItsExit(t *testing.T) {
	t.Parallel()
	p, _ := newTestPlayer(t, "crash-after-5", external.Command{})
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ng := &protocol.NewGame{Game: 0, Seed: 1, Rules: protocol.Rules{Pairs: 2, Seats: 2, Pass: "never",
		Choices: []string{"daring", "safe"}}}
	if err := conn.Write(ng); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if err := conn.Write(&protocol.Move{Game: 0, Card: 1, Legal: []int{0, 1, 2, 3}, DeadlineMS: 10000}); err != nil {
			t.Fatal(err)
		}
	}
	if err := conn.Flush(); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, _, err := conn.Read(10 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool { running, _ := conn.Running(); return !running })
	// Far more than a write buffer's worth, without a flush: the buffer is written out on its own.
	for range 1000 {
		if err = conn.Write(&protocol.Move{Game: 0, Card: 1, Legal: []int{0, 1, 2, 3}, DeadlineMS: 10000}); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "exited (exit status 139)") {
		t.Errorf("writing to a player that exited: %v, want an error saying it exited (exit status 139)", err)
	}
}
