package tournament_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// replayOneConfigs are small tournaments of every layout: unpaired and paired deals, a round
// robin and a gauntlet of three seats that mixes win-optimal with other policies (its seats'
// tables are solved for the seating), with and without luck adjustment.
var replayOneConfigs = map[string]string{
	"unpaired": replayConfig,
	"paired": `seed: 3
games: 12
paired: true
rules: {pairs: [3, 4]}
players:
  - {name: a, policy: optimal}
  - {name: b, policy: daring}
  - {name: c, policy: forgetful}
`,
	"three seats": `seed: 9
games: 6
format: gauntlet
luck_adjusted: false
rules: {pairs: [3], players_per_game: 3}
players:
  - {name: w, policy: win-optimal}
  - {name: o, policy: optimal}
  - {name: p, policy: parity}
`,
}

// replayOneParse parses src for NewReplay and New.
func replayOneParse(t *testing.T, src string) *configs.Tournament {
	t.Helper()
	cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// NewReplay's tournament replays every game of every seat order as New's does, move for move,
// with the same record, and builds no player the game does not seat.
func TestNewReplayReplaysAsNew(t *testing.T) {
	ctx := context.Background()
	for name, src := range replayOneConfigs {
		t.Run(name, func(t *testing.T) {
			cfg := replayOneParse(t, src)
			whole, err := tournament.New(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range whole.Matches {
				for _, order := range m.Orders {
					seats := m.Seats(order)
					names := whole.Names(seats)
					last := int64(cfg.Games) - 1
					one, err := tournament.NewReplay(ctx, cfg, last, m.Setup.Pairs, names)
					if err != nil {
						t.Fatalf("%v at %d pairs: %v", names, m.Setup.Pairs, err)
					}
					for id, b := range one.Players {
						if built := b.Policy != ""; built != slices.Contains(seats, id) {
							t.Errorf("%v at %d pairs: player %s built %v", names, m.Setup.Pairs, cfg.Players[id].Name, built)
						}
					}
					for _, g := range []int64{0, last} {
						want, err := whole.Replay(g, m.Setup.Pairs, names)
						if err != nil {
							t.Fatal(err)
						}
						got, err := one.Replay(g, m.Setup.Pairs, names)
						if err != nil {
							t.Fatal(err)
						}
						if !reflect.DeepEqual(got, want) {
							t.Errorf("%v at %d pairs, game %d: replayed %+v, New's tournament %+v", names, m.Setup.Pairs, g, got.Outcome, want.Outcome)
						}
						if !reflect.DeepEqual(one.GameRecord(got), whole.GameRecord(want)) {
							t.Errorf("%v at %d pairs, game %d: the records differ", names, m.Setup.Pairs, g)
						}
					}
				}
			}
		})
	}
}

// Without a seat order, NewReplay replays the first one at the deal size, as Replay does.
func TestNewReplayDefaultsToTheFirstSeatOrder(t *testing.T) {
	ctx := context.Background()
	for name, src := range replayOneConfigs {
		t.Run(name, func(t *testing.T) {
			cfg := replayOneParse(t, src)
			whole, err := tournament.New(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			n := cfg.Rules.Pairs[len(cfg.Rules.Pairs)-1]
			want, err := whole.Replay(1, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			one, err := tournament.NewReplay(ctx, cfg, 1, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := one.Replay(1, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replayed %v, New's tournament %v", got.Players, want.Players)
			}
		})
	}
}

// NewReplay refuses a game, deal size or seat order the tournament does not play with the error
// New's Replay gives, built from the configuration alone.
func TestNewReplayRefusesAsReplay(t *testing.T) {
	ctx := context.Background()
	cfg := replayOneParse(t, replayConfig)
	whole, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		game    int64
		pairs   int
		players []string
	}{
		{-1, 3, nil},
		{60, 99, []string{"x"}},
		{0, 4, nil},
		{0, 0, []string{"a", "b"}},
		{0, 5, []string{"a", "a"}},
		{59, 3, []string{""}},
		{0, 3, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.game, tt.pairs, tt.players), func(t *testing.T) {
			_, want := whole.Replay(tt.game, tt.pairs, tt.players)
			if want == nil {
				t.Fatal("New's tournament replays it")
			}
			one, err := tournament.NewReplay(ctx, cfg, tt.game, tt.pairs, tt.players)
			if one != nil || err == nil {
				t.Fatal("NewReplay built a tournament")
			}
			if reflect.TypeOf(err) != reflect.TypeOf(want) || !reflect.DeepEqual(err, want) {
				t.Errorf("error %T %v, want %T %v", err, err, want, want)
			}
		})
	}
}
