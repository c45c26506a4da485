package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// missingBotTournament seats a player whose command does not exist beside two built-in players:
// building it fails, so a command that refuses its flags before building any player, or that
// builds only the players it seats, says so without the player's error.
const missingBotTournament = `seed: 3
games: 30
rules: {pairs: [3, 4]}
players:
  - {name: greedy, policy: greedy-random}
  - {name: random, policy: random}
  - {name: bot, command: ["/no/such/memsim-bot"]}
`

// memsim replay and memsim run check the flags the configuration alone can check before they build
// any player, and memsim replay builds only the players of the game it replays.
func TestFlagsAreCheckedBeforeThePlayersAreBuilt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "bot", missingBotTournament)
	stopped := writeConfig(t, dir, "stopped", "paired: true\nstop: {sprt: {d: 0.5, alpha: 0.05, beta: 0.1}}\n"+
		strings.Replace(missingBotTournament, "  - {name: random, policy: random}\n", "", 1))
	tests := []struct {
		args         []string
		prefix, want string
	}{
		{[]string{"replay", "--config", cfg, "--game", "30"}, "memsim replay: --game 30: must be between 0 and 29 (the run's games - 1)", ""},
		{[]string{"replay", "--config", cfg, "--game", "0", "--pairs", "5"}, "memsim replay: --pairs 5: the run's deal sizes are [3 4]", ""},
		{[]string{"replay", "--config", cfg, "--game", "0", "--players", "x,y"}, "memsim replay: --players \"x,y\": not a seat order of the run at 3 pairs (allowed: greedy,random; greedy,bot; ", ""},
		{[]string{"replay", "--config", cfg, "--game", "0", "--players", "bot,greedy"}, "memsim replay: ", "/no/such/memsim-bot"},
		{[]string{"run", "--quiet", "--shard", "0/2", cfg}, "memsim run: --shard \"0/2\": must be i/N", ""},
		{[]string{"run", "--quiet", "--shard", "1/2", stopped}, "memsim run: --shard 1/2: ", "cannot be split into shards"},
		{[]string{"run", "--quiet", cfg}, "memsim run: ", "/no/such/memsim-bot"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, tt.args...)
		wantOneLineExit(t, strings.Join(tt.args[:len(tt.args)-1], " "), code, exitUsage, stderr, tt.prefix, tt.want)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote output: %v", err)
	}
	out, stderr, code := runArgs(t, "replay", "--config", cfg, "--game", "0", "--players", "random,greedy")
	if code != 0 || !strings.HasPrefix(out, "bot, game 0 (seed 3): 3 pairs, 0 singletons, pass never; seats: random, greedy\n") {
		t.Errorf("replay of a game without the player that cannot be built: exit %d, stderr %q, stdout %.200q", code, stderr, out)
	}
}
