package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/sim/rules"
	"memsim/tournament"
)

// Under a fluctuating capacity parity and best-response to parity have exact values at two and
// three seats (every seating but the reply beside a policy it does not answer), the reply plays
// the table of the fluctuating model, and the engine's games agree with the solver: every check of
// the parity seatings passes, and the negative control (every seat given the next seat's
// distribution) is rejected at three seats.
func TestParityUnderFluctuationMatchesTheSolver(t *testing.T) {
	suite := `name: fluct-parity
seed: 5
games: ` + shortGames(2000, 1000) + `
rules: {pairs: [4]}
players:
  - {name: parity, policy: parity, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: reply, policy: best-response, opponent: parity, memory: {capacity: 3, forget: lru, fluctuation: 1}}
---
name: fluct-parity-three
seed: 6
games: ` + shortGames(2000, 1000) + `
rules: {pairs: [4], players_per_game: 3}
players:
  - {name: parity-a, policy: parity, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: parity-b, policy: parity, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: reply, policy: best-response, opponent: parity, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
`
	ctx := context.Background()
	cfgs, err := configs.ParseSuite("fluct-parity.yaml", []byte(suite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(ctx, cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range s.Tournaments {
		reply := tr.Players[len(tr.Players)-1]
		if !strings.Contains(reply.Table, "best response to parity table") || !strings.Contains(reply.Table, "fluctuation 1") {
			t.Errorf("%s: the reply plays %q, want the best response to parity table of the fluctuating memory", tr.Config.Name, reply.Table)
		}
		for _, m := range tr.Matches {
			for _, order := range m.Orders {
				seats := m.Seats(order)
				answered := true
				for _, id := range seats {
					if tr.Players[id].Exact.Policy != rules.PolicyParity && tr.Players[id].Exact.Policy != rules.PolicyBestResponse {
						answered = false
					}
				}
				_, mu, ok := tr.ExactModel(m.Setup.Pairs, seats)
				if want := answered || !hasReply(tr, seats); ok != want {
					t.Errorf("%s: seats %v: exact model %t (%v)", tr.Config.Name, seats, ok, mu)
				}
			}
		}
	}
	res, err := s.Validate(ctx, tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	parity := 0
	for _, c := range res.Checks {
		if c.Rejected {
			t.Errorf("%s rejected against the exact values: %s %.3g, p %.3g", c.Name, c.Test, c.Statistic, c.PValue)
		}
		if strings.Contains(c.Name, "parity vs") || strings.Contains(c.Name, "vs parity") {
			parity++
		}
	}
	if parity == 0 {
		t.Errorf("no check of a parity seating among %d", len(res.Checks))
	}
	wrong, err := s.ValidateWrongExpectation(ctx, tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	caught := 0
	for _, c := range wrong.Checks {
		if c.Rejected && strings.HasPrefix(c.Name, "fluct-parity-three/") {
			caught++
		}
	}
	if caught == 0 {
		t.Errorf("the negative control, every seat given the next seat's distribution, was not rejected at three seats")
	}
}

// hasReply reports whether a seating has the best reply at a seat.
func hasReply(tr *tournament.Tournament, seats []int) bool {
	for _, id := range seats {
		if tr.Players[id].Exact.Policy == rules.PolicyBestResponse {
			return true
		}
	}
	return false
}
