package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"memsim/analysis/report"
	"memsim/sim"
	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
	"memsim/tournament"
)

// The test binary doubles as a player process: run with the arguments "memsim-test-player KIND
// EVERY", it plays as runFaultyPlayer says.
const testPlayerArg = "memsim-test-player"

func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == testPlayerArg {
		os.Exit(runFaultyPlayer(os.Args[2], os.Args[3]))
	}
	os.Exit(m.Run())
}

// runFaultyPlayer plays as the Go client's Daring player, except that at its first move of every
// game whose seed is a multiple of every (0: none) it writes "fault KIND" on stderr and then, as
// kind says, exits (crash), says nothing (timeout) or flips a card that is not on the table (illegal).
// Its faults depend on the game alone, not on what the process played before.
func runFaultyPlayer(kind, every string) int {
	n, err := strconv.ParseInt(every, 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	p := &faultyPlayer{kind: kind, every: n, moved: map[int64]bool{}}
	info := client.Info{Name: "faulty", Version: "1", View: protocol.ViewEvents}
	if err := client.Run(os.Stdin, os.Stdout, info, func(map[string]any) (client.Player, error) { return p, nil }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type faultyPlayer struct {
	kind  string
	every int64
	moved map[int64]bool // the games it has moved in
}

func (p *faultyPlayer) Move(g *client.Game, req *protocol.Move) client.Reply {
	if !p.moved[g.ID] && p.every > 0 && g.Seed%p.every == 0 {
		fmt.Fprintf(os.Stderr, "fault %s\n", p.kind)
		switch p.kind {
		case "crash":
			os.Exit(3)
		case "illegal":
			fmt.Fprintf(os.Stdout, `{"type":"flip","game":%d,"pos":2999}`+"\n", g.ID)
			time.Sleep(time.Hour)
		case "timeout":
			time.Sleep(time.Hour)
		}
	}
	p.moved[g.ID] = true
	return client.Daring{}.Move(g, req)
}

// faultyConfig is a round robin of the faulty player (faults of kind, in the games whose seed is
// a multiple of every) against daring, with the given on_error, games in flight and games. Its
// time per move is 1s for timeouts, 5s otherwise.
//
// The player's command is the test binary under a name of its own in PATH: the games' streams,
// and so their seeds and which of them fault, depend on the command, which must not change from
// one build of the test to the next.
func faultyConfig(t *testing.T, kind string, every int, onError string, inFlight, games int) string {
	perMove := "5s"
	if kind == "timeout" {
		perMove = "1s"
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, faultyCommand)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return fmt.Sprintf(`name: faulty
seed: 5
games: %d
rules: {pairs: [4]}
players:
  - {name: ext, command: [%s, %s, %s, "%d"], on_error: %s, games_in_flight: %d, time_per_move: %s}
  - {name: daring, policy: daring}
`, games, faultyCommand, testPlayerArg, kind, every, onError, inFlight, perMove)
}

// faultyCommand is the name of the faulty player's program.
const faultyCommand = "memsim-faulty-test-player"

// logBuffer collects a player's stderr.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// playFaulty plays src on one worker with the player's stderr in a log, and returns the results,
// the tournament (closed) and the log once every process has stopped. With report, the run's
// report is written to it first.
func playFaulty(t *testing.T, src string, o tournament.Options, md io.Writer) (*tournament.MatchResults, *tournament.Tournament, string, error) {
	t.Helper()
	tr, err := parse(t, src)
	if err != nil {
		t.Fatal(err)
	}
	log := &logBuffer{}
	ctx := context.Background()
	if err := tr.StartPlayers(ctx, func(string) (io.Writer, string, error) { return log, "logs/ext.log", nil }); err != nil {
		t.Fatal(err)
	}
	o.Workers = 1
	res, playErr := tr.Play(ctx, o)
	if playErr == nil && md != nil {
		r, err := tr.Report(ctx, res)
		if err != nil {
			t.Fatal(err)
		}
		if err := report.WriteMarkdown(md, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	return res, tr, log.String(), playErr
}

// TestForfeitCountsThePlayersFaults plays a player process that crashes, answers late or flips a
// card that does not exist in some games, with on_error: forfeit: the run completes, the faults
// counted are those the player made (its log says each), every game's scores still add up to the
// pairs, and the report has them.
func TestForfeitCountsThePlayersFaults(t *testing.T) {
	cases := []struct {
		kind         string
		every, games int
	}{{"crash", 9, 120}, {"illegal", 9, 120}, {"timeout", 23, 40}}
	if testing.Short() {
		// The short form: half the games of the crashes and illegal flips (a fault still every 9).
		cases[0].games, cases[1].games = 60, 60
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			var md bytes.Buffer
			res, tr, log, err := playFaulty(t, faultyConfig(t, c.kind, c.every, "forfeit", 1, c.games), tournament.Options{}, &md)
			if err != nil {
				t.Fatal(err)
			}
			made := int64(strings.Count(log, "fault "+c.kind+"\n"))
			fs := tr.Faults(res)
			var want sim.FaultCounts
			switch c.kind {
			case "crash":
				want.Crash = made
			case "illegal":
				want.Illegal = made
			case "timeout":
				want.Timeout = made
			}
			if made == 0 || len(fs) != 1 || fs[0].Name != "ext" || fs[0].FaultCounts != want {
				t.Errorf("faults %+v, the player made %d (%s)", fs, made, c.kind)
			}
			for mi, mr := range res.Matches {
				for k, tl := range mr.Orders {
					var units int64
					for _, counts := range tl.Share {
						for s, n := range counts {
							units += int64(s) * n
						}
					}
					if want := tl.Games * int64(tl.Pairs*tl.Seats); units != want {
						t.Errorf("match %d, order %d: the scores add up to %d/%d pairs, want %d", mi, k, units, tl.Seats, want)
					}
				}
			}
			var row string
			switch c.kind {
			case "crash":
				row = fmt.Sprintf("| ext | %d | %d | 0 | 0 | %d |", 2*c.games, made, made)
			case "illegal":
				row = fmt.Sprintf("| ext | %d | 0 | 0 | %d | %d |", 2*c.games, made, made)
			case "timeout":
				row = fmt.Sprintf("| ext | %d | 0 | %d | 0 | %d |", 2*c.games, made, made)
			}
			if !strings.Contains(md.String(), "## Faults") || !strings.Contains(md.String(), row) {
				t.Errorf("the report's faults table should have the row %s:\n%s", row, md.String())
			}
		})
	}
}

// TestForfeitWithoutFaultsChangesNothing checks that a player process with on_error: forfeit that
// makes no fault gives the results of one with on_error: stop, bit for bit.
func TestForfeitWithoutFaultsChangesNothing(t *testing.T) {
	stop, _, _, err := playFaulty(t, faultyConfig(t, "none", 0, "stop", 1, 200), tournament.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	forfeit, _, _, err := playFaulty(t, faultyConfig(t, "none", 0, "forfeit", 1, 200), tournament.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stop.Matches, forfeit.Matches) {
		t.Error("on_error: forfeit without a fault changes the results")
	}
}

// TestForfeitPlaysSharedGamesAgain checks a process that plays two games at once (two workers'
// games: a match of two batches) and flips a card that does not exist in some: the game it did so
// in is forfeited, and the other game it was playing, stopped with it, is played again from its
// start on a new process, so that every game ends as it does when each has a process of its own.
func TestForfeitPlaysSharedGamesAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two runs of 2,048 games with a player process: make test-long runs it")
	}
	const games = 2 * sim.BatchSize
	// Deals of two pairs, for speed.
	config := func(inFlight int) string {
		return strings.Replace(faultyConfig(t, "illegal", 127, "forfeit", inFlight, games), "pairs: [4]", "pairs: [2]", 1)
	}
	shared, _, _, err := playFaulty(t, config(2), tournament.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	alone, _, _, err := playFaulty(t, config(1), tournament.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shared.Matches, alone.Matches) {
		t.Errorf("four games in flight give other results than one:\n%+v\n%+v", shared.Matches[0].Orders[0], alone.Matches[0].Orders[0])
	}
}

// TestForfeitCountsSurviveACheckpoint checks that a run resumed from a checkpoint taken after its
// first match keeps that match's fault counts and gives the results of a run played through, and
// that damaged counts in a checkpoint are refused.
func TestForfeitCountsSurviveACheckpoint(t *testing.T) {
	src := faultyConfig(t, "crash", 9, "forfeit", 1, 100)
	var saved []byte
	whole, _, _, err := playFaulty(t, src, tournament.Options{Checkpoint: func(c *tournament.Checkpoint) (err error) {
		if len(c.Done) == 1 && c.Current == nil {
			saved, err = json.Marshal(c)
		}
		return err
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := parse(t, src)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := tr.LoadCheckpoint(saved)
	if err != nil {
		t.Fatal(err)
	}
	if f := ck.Done[0].Orders[0].Faults; f == nil || f[0].Crash == 0 {
		t.Fatalf("the checkpoint's first match has faults %+v, want its crashes", f)
	}
	tr.Close()
	resumed, _, _, err := playFaulty(t, src, tournament.Options{Resume: ck}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed.Matches, whole.Matches) {
		t.Error("a resumed run gives other results than a run played through")
	}
	for _, tt := range []struct {
		name   string
		damage func(f []sim.FaultCounts)
		want   string
	}{
		{"negative", func(f []sim.FaultCounts) { f[0].Crash = -3 }, "finished match 1: seat order 0: seat 0: fault counts: count 0 is negative (-3)"},
		{"the built-in player's", func(f []sim.FaultCounts) { f[1].Timeout = 1 }, `finished match 1: seat order 0: seat 1: 1 games forfeited by player "daring", which does not forfeit`},
	} {
		tr, err := parse(t, src)
		if err != nil {
			t.Fatal(err)
		}
		ck, err := tr.LoadCheckpoint(saved)
		if err != nil {
			t.Fatal(err)
		}
		tt.damage(ck.Done[0].Orders[0].Faults)
		data, err := json.Marshal(ck) // with its hash recomputed
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.LoadCheckpoint(data); err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
		tr.Close()
	}
}

// TestForfeitsInARowStopTheRun checks that a player that forfeits every game stops the run after
// sim.MaxForfeitsInARow of them, with an error that names it and says so.
func TestForfeitsInARowStopTheRun(t *testing.T) {
	_, _, log, err := playFaulty(t, faultyConfig(t, "crash", 1, "forfeit", 1, 100), tournament.Options{}, nil)
	want := fmt.Sprintf("that is %d games in a row forfeited, so the match stops", sim.MaxForfeitsInARow)
	if err == nil || !strings.HasPrefix(err.Error(), `player "ext" (seat 0), game 9 `) || !strings.Contains(err.Error(), "exited (exit status 3)") || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want the run stopped at the 10th game forfeited, ending %q", err, want)
	}
	if n := strings.Count(log, "fault crash\n"); n != sim.MaxForfeitsInARow {
		t.Errorf("the player crashed %d times, want %d", n, sim.MaxForfeitsInARow)
	}
}
