package report_test

import (
	"fmt"
	"os"

	"memsim/analysis/report"
)

func ExampleWriteCSV() {
	third := "2/3"
	fourThirds := "4/3"
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		Name:          "example",
		Games:         100,
		Rules:         report.Rules{Pairs: []int{2}, PlayersPerGame: 2, Pass: "never"},
		Players:       []report.Player{{Name: "opt", Policy: "optimal", Memory: "perfect"}},
		Matchups: []report.Matchup{{
			Pairs:      2,
			Players:    []string{"opt", "opt"},
			Games:      100,
			MeanPairs:  []float64{0.68, 1.32},
			StdDev:     []float64{0.49, 0.49},
			CI95:       [][2]float64{{0.584, 0.776}, {1.224, 1.416}},
			ExactPairs: []*string{&third, &fourThirds},
			Wins:       []int64{30, 61},
			Draws:      []int64{9, 9},
			Losses:     []int64{61, 30},
			MeanTurns:  3.31,
			CI95Turns:  [2]float64{3.2, 3.42},
			// Every seat plays the optimal table of perfect shared memory, so the luck is taken out
			// against the model's own values, with coefficient 1 and no variance left.
			LuckAdjusted: &report.LuckAdjusted{
				Reference:   "optimal self-play",
				Coefficient: []float64{1, 1},
				MeanPairs:   []float64{2.0 / 3, 4.0 / 3},
				CI95:        [][2]float64{{2.0 / 3, 2.0 / 3}, {4.0 / 3, 4.0 / 3}},
			},
		}},
	}
	// The verdicts: the luck-adjusted intervals judge the exact values, and hold them.
	run.Judge()
	if err := report.WriteCSV(os.Stdout, run); err != nil {
		fmt.Println(err)
	}
	// Output:
	// run,seed,pairs,matchup,seat,player,games,mean_pairs,sd_pairs,ci95_low,ci95_high,exact_pairs,exact_pairs_float,wins,draws,losses,mean_turns,stopped_early,adjusted_pairs,adjusted_ci95_low,adjusted_ci95_high,adjusted_lead,variance_reduction,luck_coefficient,luck_reference,check_basis,outside_ci
	// example,0,2,opt vs opt,0,opt,100,0.68,0.49,0.584,0.776,2/3,0.6666666666666666,30,9,61,3.31,,0.6666666666666666,0.6666666666666666,0.6666666666666666,,,1,optimal self-play,adjusted,
	// example,0,2,opt vs opt,1,opt,100,1.32,0.49,1.224,1.416,4/3,1.3333333333333333,61,9,30,3.31,,1.3333333333333333,1.3333333333333333,1.3333333333333333,,,1,optimal self-play,adjusted,
}
