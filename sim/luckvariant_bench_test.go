package sim

import (
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// variantBenchSetup is a game of 26 pairs under the variant v, seat 0 playing safe and seat 1
// daring from fixed tables, both with perfect memory.
func variantBenchSetup(tb testing.TB, v rules.Variant) Setup {
	tb.Helper()
	var players []Player
	for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
		t, err := rules.FixedChoiceTable(p, 26, 0)
		if err != nil {
			tb.Fatal(err)
		}
		players = append(players, Player{Name: p.String(), Table: t})
	}
	return Setup{Pairs: 26, Variant: v, Players: players}
}

var (
	benchRank  = rules.Variant{Copies: 4}
	benchLimit = rules.Variant{TurnLimit: 52}
	benchBlind = rules.Variant{Flips: rules.FlipsBlind}
)

// BenchmarkGameRank26 plays the 52-card deck matched by rank (copies 4), safe against daring;
// BenchmarkLuckRank26 the same with luck-adjusted scores from the copies model, read by the state
// of faces at every choice. Limit52 and Blind26 likewise, with a limit of 52 turns and with blind
// flips.
func BenchmarkGameRank26(b *testing.B) { benchGames(b, variantBenchSetup(b, benchRank)) }
func BenchmarkLuckRank26(b *testing.B) {
	benchGames(b, withLuck(b, variantBenchSetup(b, benchRank), exact.Model{Variant: benchRank}))
}
func BenchmarkGameLimit52(b *testing.B) { benchGames(b, variantBenchSetup(b, benchLimit)) }
func BenchmarkLuckLimit52(b *testing.B) {
	benchGames(b, withLuck(b, variantBenchSetup(b, benchLimit), exact.Model{Variant: benchLimit}))
}
func BenchmarkGameBlind26(b *testing.B) { benchGames(b, variantBenchSetup(b, benchBlind)) }
func BenchmarkLuckBlind26(b *testing.B) {
	benchGames(b, withLuck(b, variantBenchSetup(b, benchBlind), exact.Model{Variant: benchBlind}))
}
