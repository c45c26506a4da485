package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// replayConfig is a small round robin of three players on two deal sizes, with unpaired deals so
// that every ordered pair of players is a seat order of its own.
const replayConfig = `name: replay
seed: 11
games: 60
rules: {pairs: [3, 5]}
players:
  - {name: a, policy: optimal}
  - {name: b, policy: parity}
  - {name: c, policy: random}
`

// Replaying every game of every seat order adds up to the tallies Play keeps of them: the games,
// each seat's total score and the total of the games' lengths.
func TestReplaySumsToTheTallies(t *testing.T) {
	tr, err := parse(t, replayConfig)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(context.Background(), tournament.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range tr.Matches {
		for k, order := range m.Orders {
			names := tr.Names(m.Seats(order))
			tally := res.Matches[i].Orders[k]
			if tally.Games != 60 {
				t.Fatalf("%v at %d pairs: %d games played, want 60", names, m.Setup.Pairs, tally.Games)
			}
			score := make([]int64, len(names))
			var turns int64
			for g := range tally.Games {
				r, err := tr.Replay(g, m.Setup.Pairs, names)
				if err != nil {
					t.Fatal(err)
				}
				if r.Pairs != m.Setup.Pairs || r.Game != g || !reflect.DeepEqual(r.Players, names) {
					t.Fatalf("replay of game %d of %v at %d pairs describes game %d of %v at %d pairs", g, names, m.Setup.Pairs, r.Game, r.Players, r.Pairs)
				}
				for s, sh := range r.Outcome.Share {
					score[s] += int64(sh)
				}
				turns += int64(r.Outcome.Turns)
			}
			for s := range names {
				var want int64
				for sh, count := range tally.Share[s] {
					want += int64(sh) * count
				}
				if score[s] != want {
					t.Errorf("%v at %d pairs, seat %d: replays score %d, the tally %d (in 1/%d pairs)", names, m.Setup.Pairs, s, score[s], want, len(names))
				}
			}
			if turns != tally.TurnSum {
				t.Errorf("%v at %d pairs: replays last %d turns, the tally %d", names, m.Setup.Pairs, turns, tally.TurnSum)
			}
		}
	}
}

// A replayed game's log holds every turn of it, and every pair taken once.
func TestReplayLogIsTheGame(t *testing.T) {
	tr, err := parse(t, replayConfig)
	if err != nil {
		t.Fatal(err)
	}
	for g := range int64(20) {
		r, err := tr.Replay(g, 5, []string{"c", "a"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Log.Turns) != r.Outcome.Turns {
			t.Errorf("game %d: %d turns logged, %d played", g, len(r.Log.Turns), r.Outcome.Turns)
		}
		pairs := make([]int, len(r.Players))
		for _, turn := range r.Log.Turns {
			if turn.End == "pair" {
				pairs[turn.Seat]++
			}
		}
		if !reflect.DeepEqual(pairs, r.Outcome.Pairs) {
			t.Errorf("game %d: the log takes %v pairs by seat, the outcome %v", g, pairs, r.Outcome.Pairs)
		}
		if !reflect.DeepEqual(r.Log.Names, []string{"c", "a"}) {
			t.Errorf("game %d: log names %v", g, r.Log.Names)
		}
	}
}

// Without a seat order, Replay plays the first one the tournament plays at the deal size.
func TestReplayDefaultsToTheFirstSeatOrder(t *testing.T) {
	tr, err := parse(t, replayConfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 5} {
		first, err := tr.Replay(7, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		named, err := tr.Replay(7, n, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first.Players, []string{"a", "b"}) || !reflect.DeepEqual(first.Log, named.Log) {
			t.Errorf("%d pairs: the default seat order is %v, want a, b with the same game", n, first.Players)
		}
	}
}

// A game, deal size or seat order the tournament does not play is refused with an error that
// says which there are.
func TestReplayRefusesWhatTheTournamentDoesNotPlay(t *testing.T) {
	tr, err := parse(t, replayConfig)
	if err != nil {
		t.Fatal(err)
	}
	// Every ordered pair of distinct players, in the order of the first player, then the second.
	var orders [][]string
	for _, x := range []string{"a", "b", "c"} {
		for _, y := range []string{"a", "b", "c"} {
			if x != y {
				orders = append(orders, []string{x, y})
			}
		}
	}
	tests := []struct {
		game    int64
		pairs   int
		players []string
		want    error
	}{
		{-1, 3, nil, &tournament.GameError{Game: -1, Games: 60}},
		{60, 3, nil, &tournament.GameError{Game: 60, Games: 60}},
		{0, 4, nil, &tournament.DealSizeError{Pairs: 4, Sizes: []int{3, 5}}},
		{0, 0, []string{"a", "b"}, &tournament.DealSizeError{Pairs: 0, Sizes: []int{3, 5}}},
		{0, 5, []string{"a", "a"}, &tournament.SeatOrderError{Pairs: 5, Players: []string{"a", "a"}, Orders: orders}},
		{59, 3, []string{""}, &tournament.SeatOrderError{Pairs: 3, Players: []string{""}, Orders: orders}},
		{0, 3, []string{"a", "b", "c"}, &tournament.SeatOrderError{Pairs: 3, Players: []string{"a", "b", "c"}, Orders: orders}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.game, tt.pairs, tt.players), func(t *testing.T) {
			r, err := tr.Replay(tt.game, tt.pairs, tt.players)
			if r != nil || err == nil {
				t.Fatalf("replayed %+v", r)
			}
			target := reflect.New(reflect.TypeOf(tt.want)) // a pointer to a pointer of the error's type
			if !errors.As(err, target.Interface()) {
				t.Fatalf("error %T %v, want a %T", err, err, tt.want)
			}
			if got := target.Elem().Interface(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("error %+v, want %+v", got, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
		})
	}
}

// A program replays one game of a tournament to see how it went, move by move.
func ExampleTournament_Replay() {
	src := []byte(`name: example
seed: 7
games: 100
rules: {pairs: 3}
players:
  - {name: optimal, policy: optimal}
  - {name: daring, policy: daring}
`)
	cfg, err := configs.Parse("example.yaml", src, tournament.ConfigOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := tr.Replay(42, 3, []string{"daring", "optimal"})
	if err != nil {
		fmt.Println(err)
		return
	}
	r.Log.WriteTo(os.Stdout)
	fmt.Printf("%v take %v pairs in %d turns\n", r.Players, r.Outcome.Pairs, r.Outcome.Turns)
	_, err = tr.Replay(100, 3, nil)
	fmt.Println(err)
	// Output:
	// turn   1  seat 0 daring        flips 5 (P0),  flips 4 (P2)  -> no pair
	// turn   2  seat 1 optimal       flips 3 (P1),  flips 2 (P0)  -> no pair
	// turn   3  seat 0 daring        flips 5 (P0),  flips 2 (P0)  -> takes the pair
	// turn   4  seat 0 daring        flips 1 (P2),  flips 4 (P2)  -> takes the pair
	// turn   5  seat 0 daring        flips 0 (P1),  flips 3 (P1)  -> takes the pair
	// [daring optimal] take [3 0] pairs in 5 turns
	// game 100: must be between 0 and 99 (the tournament's games - 1)
}
