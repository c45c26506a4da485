package client_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
)

// match plays games between the fake host and Run with player p over two pipes: inFlight games
// at a time, total games in all (or, with total 0, until moves decisions). It returns the host
// after the games; an error of the host's or of Run's fails the test.
func match(tb testing.TB, p client.Player, rules protocol.Rules, seed uint64, judge func(decision) error, inFlight, total, moves int) *host {
	tb.Helper()
	h, hostErr, runErr := play(p, rules, seed, judge, inFlight, total, moves)
	if hostErr != nil || runErr != nil {
		tb.Fatalf("host: %v; Run: %v", hostErr, runErr)
	}
	return h
}

// play is match returning the host's error and Run's.
func play(p client.Player, rules protocol.Rules, seed uint64, judge func(decision) error, inFlight, total, moves int) (h *host, hostErr, runErr error) {
	toPlayer, fromHost := io.Pipe()
	toHost, fromPlayer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		info := client.Info{Name: "test", Version: "1", View: protocol.ViewEvents}
		err := client.Run(toPlayer, fromPlayer, info, func(map[string]any) (client.Player, error) { return p, nil })
		toPlayer.CloseWithError(errors.New("Run returned"))
		fromPlayer.Close()
		done <- err
	}()
	h = newHost(toHost, fromHost, rules, seed)
	h.judge = judge
	_, hostErr = h.handshake(nil)
	if hostErr == nil {
		hostErr = h.run(inFlight, total, moves)
	}
	if hostErr == nil {
		fromHost.Close()
	} else {
		fromHost.CloseWithError(errors.New("the host stopped"))
	}
	for range h.replies {
	}
	runErr = <-done
	if hostErr != nil && runErr != nil && strings.HasSuffix(runErr.Error(), "the host stopped") {
		runErr = nil // Run stopped because the host did
	}
	return h, hostErr, runErr
}

// gameRules are the deals the players play against the fake host.
var gameRules = []protocol.Rules{
	{Pairs: 4, Singletons: 0, Seats: 2, Pass: "never", Choices: []string{"daring"}},
	{Pairs: 4, Singletons: 2, Seats: 2, Pass: "never", Choices: []string{"daring"}},
	{Pairs: 4, Singletons: 1, Seats: 2, Pass: "always", Choices: []string{"daring", "pass"}},
	{Pairs: 4, Singletons: 1, Seats: 1, Pass: "never", Choices: []string{"daring"}},
	{Pairs: 3, Singletons: 0, Seats: 3, Pass: "always", Choices: []string{"daring", "pass"}},
}

// checkScores checks that each game's scores share out its pairs.
func checkScores(t *testing.T, h *host, games int) {
	t.Helper()
	if len(h.scores) != games {
		t.Fatalf("%d games ended, want %d", len(h.scores), games)
	}
	for i, s := range h.scores {
		sum := 0.0
		for _, v := range s {
			sum += v
		}
		if math.Abs(sum-float64(h.rules.Pairs)) > 1e-9 {
			t.Errorf("game %d: scores %v add up to %v, want %d", i+1, s, sum, h.rules.Pairs)
		}
	}
}

// TestRandomPlaysWholeGames: Random plays legal moves to the end of every game, the same moves
// for the same seeds, and draws its first card uniformly.
func TestRandomPlaysWholeGames(t *testing.T) {
	for i, r := range gameRules {
		t.Run(fmt.Sprintf("%dp%ds%dseats-%s", r.Pairs, r.Singletons, r.Seats, r.Pass), func(t *testing.T) {
			const games = 100
			counts := make([]int, r.Cards())
			judge := func(d decision) error {
				if d.card == 1 && !slices.Contains(d.g.on, false) && !slices.Contains(d.g.known, true) {
					counts[d.pos]++
				}
				return nil
			}
			h := match(t, client.Random{}, r, 1, judge, 16, games, 0)
			checkScores(t, h, games)
			if i == 0 {
				again := match(t, client.Random{}, r, 1, nil, 16, games, 0)
				if !reflect.DeepEqual(h.scores, again.scores) {
					t.Errorf("the same seeds give other scores")
				}
			}
			want := float64(games) / float64(len(counts))
			for pos, n := range counts {
				// Far beyond 4 standard deviations of a uniform draw.
				if math.Abs(float64(n)-want) > 4*math.Sqrt(want) {
					t.Errorf("first card at %d in %d games of %d, want about %.0f: %v", pos, n, games, want, counts)
				}
			}
		})
	}
}

// daringMove checks a move against the daring choice with perfect memory (docs/models.md §3.2),
// from the host's record.
func daringMove(d decision) error {
	g := d.g
	legal := g.legal()
	isKnown := func(p int) bool { return g.known[p] && p != g.first }
	unknownLegal := slices.ContainsFunc(legal, func(p int) bool { return !isKnown(p) })
	if d.card == 1 {
		var pair []int
		for p := range g.deal {
			if isKnown(p) && g.deal[p] < g.rules.Pairs && g.partner(p) >= 0 {
				pair = append(pair, p)
			}
		}
		switch {
		case len(pair) > 0 && !slices.Contains(pair, d.pos):
			return fmt.Errorf("not a card of the known pairs at %v", pair)
		case len(pair) == 0 && unknownLegal && isKnown(d.pos):
			return errors.New("a known card, with no known pair and unknown cards left")
		}
		return nil
	}
	face := g.deal[g.first]
	if face < g.rules.Pairs {
		if q := g.partner(g.first); q >= 0 {
			if d.pos != q {
				return fmt.Errorf("not the first card's known partner at %d", q)
			}
			return nil
		}
	} else if slices.ContainsFunc(legal, isKnown) {
		if !isKnown(d.pos) {
			return errors.New("an unknown card after a singleton, with a known card to flip")
		}
		return nil
	}
	if unknownLegal && isKnown(d.pos) {
		return errors.New("a known card that is not the first card's partner")
	}
	return nil
}

// TestDaringPlaysWholeGames: Daring plays every move of every game as the daring choice with
// perfect memory does.
func TestDaringPlaysWholeGames(t *testing.T) {
	for _, r := range gameRules {
		t.Run(fmt.Sprintf("%dp%ds%dseats-%s", r.Pairs, r.Singletons, r.Seats, r.Pass), func(t *testing.T) {
			const games = 100
			h := match(t, client.Daring{}, r, 2, daringMove, 16, games, 0)
			checkScores(t, h, games)
		})
	}
}

// TestDaringJudgeTellsRandom: the daring judge refuses Random's play, so it can tell.
func TestDaringJudgeTellsRandom(t *testing.T) {
	_, err, _ := play(client.Random{}, gameRules[0], 3, daringMove, 16, 100, 0)
	if err == nil {
		t.Fatal("Random played 100 games as Daring does")
	}
}
