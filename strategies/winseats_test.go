package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// winSeatPlayers builds the engine's players of the seats' policies at env, each win-optimal seat
// beside other policies given the table of its seating in model (as a tournament seats it).
func winSeatPlayers(t *testing.T, ctx context.Context, name string, env strategies.Env, model exact.Model, seats []rules.Policy) []sim.Player {
	t.Helper()
	mu := exact.SeatLineup(seats...)
	players := make([]sim.Player, len(seats))
	for s, p := range seats {
		b, err := strategies.Build(ctx, strategies.Spec{Name: p.String(), Policy: p.String()}, env)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		players[s] = b.Player
		if p == rules.PolicyWinOptimal && mu.SelfWinMixed() {
			// Beside other policies win-optimal plays the table of its seating.
			tab, err := env.Tables.SeatWinTable(ctx, model, exact.RotateSeats(mu, s), env.MaxPairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players[s].Table = tab
		}
	}
	return players
}

// seatTally holds every seat's wins, draws and score (in units of 1/seats pairs, a stalemate's
// share included: sim.Outcome.Share) over deals, and the games that ended in a stalemate.
type seatTally struct {
	wins, draws, share []int64
	deals              int64
	stalemates         int
}

// mostOf returns the largest of xs and how many of xs equal it: the seats that share the win.
func mostOf(xs []int) (most, count int) {
	most = -1
	for _, x := range xs {
		switch {
		case x > most:
			most, count = x, 1
		case x == most:
			count++
		}
	}
	return most, count
}

// tallyEveryDeal plays every deal of faces faces of copies cards with the engine at setup and
// tallies its outcomes: the seats with the highest score share the win (a stalemate adds the same
// part of the pairs left to every seat, so it does not change the ranking).
func tallyEveryDeal(t *testing.T, name string, setup sim.Setup, faces, copies int) seatTally {
	t.Helper()
	gm, err := sim.NewGame(setup)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p := len(setup.Players)
	r := seatTally{wins: make([]int64, p), draws: make([]int64, p), share: make([]int64, p)}
	everyDeal(faces, copies, func(deal []int) {
		if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(r.deals)}, deal, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := gm.Outcome()
		if out.Stalemate {
			r.stalemates++
		}
		most, top := mostOf(out.Share)
		for s, x := range out.Share {
			r.share[s] += int64(x)
			if x == most && top == 1 {
				r.wins[s]++
			} else if x == most {
				r.draws[s]++
			}
		}
		r.deals++
	})
	return r
}
