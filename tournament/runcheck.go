package tournament

import (
	"fmt"
	"slices"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/strategies"
)

// CheckRunConfig reports whether the results r are a run of the configuration cfg: the same name,
// seed, games per matchup, rules (deal sizes, singletons, players per game and pass rule) and
// players (names and policies, in order). The error says what differs.
func CheckRunConfig(cfg *configs.Tournament, r *report.Run) error {
	switch {
	case r.Name != cfg.Name || r.Seed != cfg.Seed:
		return fmt.Errorf("name %q and seed %d, the configuration's %q and %d", r.Name, r.Seed, cfg.Name, cfg.Seed)
	case r.Games != cfg.Games:
		return fmt.Errorf("%d games per matchup, the configuration's %d", r.Games, cfg.Games)
	case !slices.Equal(r.Rules.Pairs, cfg.Rules.Pairs) || r.Rules.Singletons != cfg.Rules.Singletons ||
		r.Rules.PlayersPerGame != cfg.Rules.PlayersPerGame || r.Rules.Pass != cfg.Rules.Pass.String():
		return fmt.Errorf("other rules than the configuration's")
	case len(r.Players) != len(cfg.Players):
		return fmt.Errorf("%d players, the configuration %d", len(r.Players), len(cfg.Players))
	}
	for i, p := range r.Players {
		policy := cfg.Players[i].Policy
		if cfg.Players[i].External != nil {
			policy = strategies.ExternalPolicy // a player process
		}
		if p.Name != cfg.Players[i].Name || p.Policy != policy {
			return fmt.Errorf("player %d is %s (%s), the configuration's %s (%s)", i, p.Name, p.Policy, cfg.Players[i].Name, policy)
		}
	}
	return nil
}
