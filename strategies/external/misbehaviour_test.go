package external_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
)

// TestMisbehavingPlayers checks every way a player process can misbehave: each fails the game with
// one error naming the player, the game, the seed and what went wrong (the offending line where
// there is one), and leaves no process behind. A failure in a game is a *sim.Fault of the kind of
// what the process did; one in the handshake is none (it stops a run whatever on_error says).
func TestMisbehavingPlayers(t *testing.T) {
	quick := external.Command{TimePerMove: time.Second, Handshake: 2 * time.Second}
	const none sim.FaultKind = 0
	cases := []struct {
		mode string
		want []string
		kind sim.FaultKind
	}{
		{"garbage", []string{"line 1: ", "(the line: uciok)"}, none},
		{"partial", []string{"line 1: ends without a newline"}, none},
		{"huge", []string{"line 1: longer than 1048576 bytes"}, none},
		{"badutf8", []string{"line 1: ", "UTF-8"}, none},
		{"early", []string{"line 1: a flip message before its handshake (player)", `(the line: {"type":"flip","game":0,"pos":0})`}, none},
		{"exit-handshake", []string{"exited (exit status 3); its stderr is in logs/ext.log"}, none},
		{"silent-handshake", []string{"handshake: no answer to hello within 2s"}, none},
		{"silent", []string{"its game 0: no reply to the request for card 1 within 1s"}, sim.FaultTimeout},
		{"unknown-game", []string{"line 2: a reply for game 1000, which has no request in flight"}, sim.FaultIllegal},
		{"duplicate", []string{"line 3: a reply for game 0, which has no request in flight"}, sim.FaultIllegal},
		{"illegal", []string{"line 2: flip: field pos: 2999 is not a legal position of game 0's card 1"}, sim.FaultIllegal},
		{"close-stdout", []string{"closed its output while still running"}, sim.FaultCrash},
		{"crash-after-5", []string{"exited (exit status 139); its stderr is in logs/ext.log"}, sim.FaultCrash},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			ext, log := newTestPlayer(t, c.mode, quick)
			g, err := sim.NewGame(sim.Setup{Pairs: 8, Players: []sim.Player{
				{Name: "ext", NewStrategy: ext.Strategy}, tablePlayer(t, "daring", rules.PolicyDaring, 8)}})
			if err != nil {
				t.Fatal(err)
			}
			var playErr error
			for d := range uint64(20) {
				if playErr = g.Play(sim.GameID{Seed: 9, Index: d}, nil); playErr != nil {
					break
				}
			}
			g.Close()
			if playErr == nil {
				t.Fatal("20 games played without an error")
			}
			msg := playErr.Error()
			for _, w := range append([]string{`player "ext" (seat 0), game `, "(seed 9,"}, c.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\ndoes not say %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
			var kind sim.FaultKind
			if f := (*sim.Fault)(nil); errors.As(playErr, &f) {
				kind = f.Kind
			}
			if kind != c.kind {
				t.Errorf("fault kind %d (%v), want %d (%v)", kind, kind, c.kind, c.kind)
			}
			if err := ext.Close(); err != nil {
				t.Fatal(err)
			}
			checkGone(t, log.String())
		})
	}
}

// TestForfeitStartsANewProcess checks that a player that forfeits (sim.Player.Forfeit) plays its
// next game on a new process after its process crashed, so that the match completes, with one
// crash counted for each the player made, or, for a process playing several games at once, for
// each game it was playing.
func TestForfeitStartsANewProcess(t *testing.T) {
	for _, inFlight := range []int{1, 2} {
		ext, log := newTestPlayer(t, "crash-after-5", external.Command{GamesInFlight: inFlight})
		p := sim.Player{Name: "ext", NewStrategy: ext.Strategy, Forfeit: true}
		m := pairedMatch(p, tablePlayer(t, "daring", rules.PolicyDaring, 3), 3, 40)
		res, err := m.Play(t.Context(), inFlight, nil)
		if err != nil {
			t.Fatalf("%d in flight: %v", inFlight, err)
		}
		if err := ext.Close(); err != nil {
			t.Fatal(err)
		}
		crashes := int64(strings.Count(log.String(), "segmentation fault (pretend)"))
		var counted, other int64
		for k, tl := range res.Orders {
			for i, f := range tl.Faults {
				if m.Orders[k][i] == 0 {
					counted += f.Crash
					other += f.Timeout + f.Illegal
				} else {
					other += f.Forfeits()
				}
			}
		}
		if crashes < 2 || counted < crashes || counted > int64(inFlight)*crashes || (inFlight == 1 && counted != crashes) || other != 0 {
			t.Errorf("%d in flight: %d crashes counted (and %d other faults), the player crashed %d times", inFlight, counted, other, crashes)
		}
		checkGone(t, log.String())
	}
}

// checkGone checks that the processes whose pids a log names ("pid N", "sleeper N") have exited.
func checkGone(t *testing.T, log string) {
	t.Helper()
	for _, m := range regexp.MustCompile(`(?m)^(?:pid|sleeper) (\d+)$`).FindAllStringSubmatch(log, -1) {
		pid, _ := strconv.Atoi(m[1])
		// An orphaned grandchild is reaped by init in its own time: a zombie has exited.
		deadline := time.Now().Add(5 * time.Second)
		for !gone(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d is still running", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// gone reports whether process pid has exited (it does not exist, or is a zombie).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

// TestPlayerProcessesAreStopped checks that closing a player stops every process it started,
// those they started included, and that a player flooding its stderr keeps playing with its log
// cut at MaxLog.
func TestPlayerProcessesAreStopped(t *testing.T) {
	for _, mode := range []string{"spawn", "flood", "bye"} {
		t.Run(mode, func(t *testing.T) {
			ext, log := newTestPlayer(t, mode, external.Command{})
			m := pairedMatch(sim.Player{Name: "ext", NewStrategy: ext.Strategy}, tablePlayer(t, "daring", rules.PolicyDaring, 5), 5, 2)
			if _, err := m.Play(t.Context(), 2, nil); err != nil {
				t.Fatal(err)
			}
			if err := ext.Close(); err != nil {
				t.Fatal(err)
			}
			out := log.String()
			if mode == "spawn" && !strings.Contains(out, "sleeper ") {
				t.Fatalf("no grandchild started: %q", out)
			}
			if mode == "bye" && !strings.Contains(out, "goodbye from the player") {
				t.Fatalf("the player's last words are not in its log: %q", out)
			}
			if mode == "flood" {
				if len(out) < external.MaxLog || len(out) > external.MaxLog+1000 {
					t.Fatalf("log of %d bytes, want MaxLog (%d) and a note", len(out), external.MaxLog)
				}
				if !strings.Contains(out, "the rest is counted, not kept") {
					t.Fatal("the log does not say that it was cut")
				}
			}
			checkGone(t, out)
		})
	}
}

// TestCommandsAndOptionsAreChecked checks the refusals before anything is played: a program that
// does not exist or is not executable, and option values the player does not declare.
func TestCommandsAndOptionsAreChecked(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "player.py")
	if err := os.WriteFile(plain, []byte("print()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"no-such-player-program"}, `player "ext": command "no-such-player-program": executable file not found in $PATH`},
		{[]string{plain}, `player "ext": command "` + plain + `": permission denied`},
	} {
		_, err := external.New("ext", external.Command{Argv: c.argv})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %q", c.argv, err, c.want)
		}
	}
	ext, _ := newTestPlayer(t, "greedy", external.Command{Options: map[string]any{"nois": 0.5}})
	_, err := ext.Hello()
	if err == nil || !strings.Contains(err.Error(), `options: the player (test-greedy 1.0) field values.nois: test-greedy declares no option "nois"`) {
		t.Fatalf("got %v", err)
	}
	ext, _ = newTestPlayer(t, "greedy", external.Command{Options: map[string]any{"noise": 0.5}})
	info, err := ext.Hello()
	if err != nil || info.Name != "test-greedy" || info.View != "events" {
		t.Fatalf("got %+v, %v", info, err)
	}
}

// TestSharedProcessFailures checks a process that several engines share (games in flight): a
// reply for a game with no request in flight, a second reply, an illegal reply, silence and a
// crash fail every engine's game with the process's error, and nothing is left running.
func TestSharedProcessFailures(t *testing.T) {
	cases := []struct{ mode, want string }{
		{"unknown-game", "which has no request in flight"},
		{"duplicate", "which has no request in flight"},
		{"illegal", "2999 is not a legal position"},
		{"silent", "no reply to the request for card 1 within 1s"},
		{"crash-after-5", "exited (exit status 139)"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			ext, log := newTestPlayer(t, c.mode, external.Command{GamesInFlight: 3, TimePerMove: time.Second})
			errs := make([]error, 3)
			var wg sync.WaitGroup
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					g, err := sim.NewGame(sim.Setup{Pairs: 8, Players: []sim.Player{
						{Name: "ext", NewStrategy: ext.Strategy}, tablePlayer(t, "daring", rules.PolicyDaring, 8)}})
					if err != nil {
						errs[i] = err
						return
					}
					defer g.Close()
					for d := range uint64(20) {
						if errs[i] = g.Play(sim.GameID{Seed: 9, PlayStream: uint64(i), Index: d}, nil); errs[i] != nil {
							return
						}
					}
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err == nil || !strings.Contains(err.Error(), c.want) && !strings.Contains(err.Error(), "exited") && !strings.Contains(err.Error(), "stopped") {
					t.Errorf("engine %d: got %v, want an error saying %q", i, err, c.want)
				}
			}
			own := 0
			for _, err := range errs {
				if errors.Is(err, sim.ErrStopped) {
					if !regexp.MustCompile(`stopped by the failure of another game \(its game \d+\)`).MatchString(err.Error()) {
						t.Errorf("error %q does not name the game that failed", err)
					}
				} else if strings.Contains(err.Error(), c.want) {
					own++
				}
			}
			if own == 0 {
				t.Errorf("no engine's error is its own and says %q: %v", c.want, errs)
			}
			if err := ext.Close(); err != nil {
				t.Fatal(err)
			}
			// (How many processes started depends on when the first one broke: an engine does not
			// join a broken process. TestStateViewParityPlaysAsTheTable counts them.)
			checkGone(t, log.String())
		})
	}
}

// processes counts the processes a log says started.
func processes(log string) int {
	return len(regexp.MustCompile(`(?m)^pid \d+$`).FindAllString(log, -1))
}

// TestLateSecondReplyIsCaught checks that a second reply written after the first, while another
// seat plays, is refused with the line that carries it (line 4, after the handshake and two
// replies), not taken as the answer to the next request.
func TestLateSecondReplyIsCaught(t *testing.T) {
	ext, log := newTestPlayer(t, "late-duplicate", external.Command{})
	// The other seat waits, at its first move, until the player says it wrote the late reply.
	waited := false
	patient := strategyPlayer("patient", func(v *sim.View) sim.Move {
		if !waited {
			waited = true
			waitFor(t, func() bool { return strings.Contains(log.String(), "late reply sent") })
		}
		return strategies.GreedyRandom{}.Flip(v)
	})
	g, err := sim.NewGame(sim.Setup{Pairs: 8, Players: []sim.Player{{Name: "ext", NewStrategy: ext.Strategy}, patient}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var playErr error
	for d := range uint64(20) {
		if playErr = g.Play(sim.GameID{Seed: 9, Index: d}, nil); playErr != nil {
			break
		}
	}
	if !waited {
		t.Fatal("the player's first turn took a pair: the other seat never moved (choose another seed)")
	}
	if playErr == nil || !strings.Contains(playErr.Error(), "line 4: a reply for game 0, which has no request in flight") {
		t.Fatalf("got %v, want the late reply (line 4) refused", playErr)
	}
}

// waitFor waits until cond holds, failing the test after a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("waited a minute for a condition that did not come")
		}
	}
}

// TestKillEndsEveryWait checks that killing a player's processes ends a match waiting for their
// replies at once, not after the time per move.
func TestKillEndsEveryWait(t *testing.T) {
	for _, inFlight := range []int{1, 2} {
		ext, _ := newTestPlayer(t, "slow", external.Command{TimePerMove: time.Minute, GamesInFlight: inFlight})
		m := pairedMatch(sim.Player{Name: "ext", NewStrategy: ext.Strategy}, tablePlayer(t, "daring", rules.PolicyDaring, 8), 8, 100)
		done := make(chan error, 1)
		go func() {
			_, err := m.Play(t.Context(), 2*inFlight, nil)
			done <- err
		}()
		waitFor(t, func() bool { return len(ext.Processes()) > 0 })
		ext.Kill()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "the player process was stopped") {
				t.Fatalf("%d in flight: got %v, want the match stopped with its processes", inFlight, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%d in flight: the match still waits for its killed processes", inFlight)
		}
	}
}

// TestAbortReachesAHandshake checks that Abort kills a process still making its handshake, and
// that the player starts no other.
func TestAbortReachesAHandshake(t *testing.T) {
	ext, log := newTestPlayer(t, "silent-handshake", external.Command{Handshake: time.Minute})
	done := make(chan error, 1)
	go func() {
		_, err := ext.Hello()
		done <- err
	}()
	waitFor(t, func() bool { return processes(log.String()) == 1 })
	ext.Abort()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the handshake of an aborted process succeeded")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Abort did not end the handshake")
	}
	if _, err := ext.Hello(); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("after Abort: %v, want the player closed", err)
	}
	checkGone(t, log.String())
}
