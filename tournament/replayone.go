package tournament

import (
	"context"
	"slices"

	"memsim/configs"
)

// NewReplay builds what replaying one game of the tournament cfg describes needs, and nothing
// else: it checks the game, the deal size pairs and the seat order players (nil: the first at that
// deal size) from the configuration alone, refusing them as Replay does (a *GameError, a
// *DealSizeError or a *SeatOrderError) before any table is built, and then builds only the players
// of the match that plays that seat order and lays out that match alone. Its Replay of that game
// is New's, move for move, and so is the game's record (GameRecord); it is for nothing else: it
// holds one match, and the players of the others are left unbuilt (zero). Other errors are New's,
// for the configuration's size and stopping rule, every player's choice set, and the players it
// builds.
func NewReplay(ctx context.Context, cfg *configs.Tournament, game int64, pairs int, players []string) (*Tournament, error) {
	if err := checkSize(cfg); err != nil {
		return nil, err
	}
	if err := checkStop(cfg); err != nil {
		return nil, err
	}
	only, err := replayMatch(cfg, game, pairs, players)
	if err != nil {
		return nil, err
	}
	return build(ctx, cfg, only)
}

// replayMatch returns the match of cfg that plays game of the seat order players (nil: the first)
// at pairs pairs, found as Tournament.Replay finds it and refused with the same errors.
func replayMatch(cfg *configs.Tournament, game int64, pairs int, players []string) (*onlyMatch, error) {
	if games := int64(cfg.Games); game < 0 || game >= games {
		return nil, &GameError{Game: game, Games: games}
	}
	if !slices.Contains(cfg.Rules.Pairs, pairs) {
		return nil, &DealSizeError{Pairs: pairs, Sizes: slices.Clone(cfg.Rules.Pairs)}
	}
	var orders [][]string
	for _, group := range seatGroups(cfg) {
		for _, order := range group {
			names := make([]string, len(order))
			for i, id := range order {
				names[i] = cfg.Players[id].Name
			}
			orders = append(orders, names)
			if players == nil || slices.Equal(players, names) {
				return &onlyMatch{pairs: pairs, orders: group}, nil
			}
		}
	}
	return nil, &SeatOrderError{Pairs: pairs, Players: players, Orders: orders}
}
