package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/tournament"
)

// A tournament under copies of a face in which a seat plays to win draws its figures, with no map
// of the choices to win (drawn over the count state of two copies), under either flip rule.
func TestCopiesWinTournamentDrawsItsFigures(t *testing.T) {
	for _, flips := range []string{"sequential", "blind"} {
		src := `name: copies-win
seed: 1
games: 4
rules: {pairs: [4], copies: 4, flips: ` + flips + `}
players:
  - {name: win, policy: win-optimal}
  - {name: safe, policy: safe}
`
		tr, err := newTournament(src)
		if err != nil {
			t.Fatalf("%s flips: %v", flips, err)
		}
		ctx := context.Background()
		res, err := tr.Play(ctx, tournament.Options{Workers: 1})
		if err != nil {
			t.Fatalf("%s flips: %v", flips, err)
		}
		run, err := tr.Report(ctx, res)
		if err != nil {
			t.Fatalf("%s flips: %v", flips, err)
		}
		figs, err := tr.Figures(ctx, run)
		if err != nil {
			t.Fatalf("%s flips: %v", flips, err)
		}
		for _, f := range figs {
			if strings.HasPrefix(f.Name, "win-strategy") {
				t.Errorf("%s flips: a figure %s", flips, f.Name)
			}
		}
	}
}
