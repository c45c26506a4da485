package record_test

import (
	"fmt"
	"os"
	"strings"

	"memsim/sim/record"
)

// A record of a game of two pairs, read and refereed: the turns and the scores are worked out
// from the flips.
func ExampleReader() {
	const games = `{"type":"game","format":"memsim-record/1","rules":{"pairs":2}}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":2,"face":1}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":3,"face":0}
{"type":"flip","pos":0,"face":0}
`
	all, err := record.NewReader(strings.NewReader(games), "games.jsonl").ReadAll()
	if err != nil {
		fmt.Println(err)
		return
	}
	g := all[0]
	for _, t := range g.Turns {
		fmt.Printf("seat %d, state %v: %s\n", t.Seat, t.Before.State(t.Seat), t.End)
	}
	fmt.Println("scores:", g.Result.Scores)
	// Output:
	// seat 0, state (n=2, j=2): miss
	// seat 1, state (n=2, j=0): pair
	// seat 1, state (n=1, j=0, d=1): pair
	// scores: [0 2]
}

// A game built in code is refereed when it is written.
func ExampleWriter() {
	g := &record.Game{Rules: record.Rules{Pairs: 1, Seats: 1}, Moves: []record.Move{record.Flip(1, 0), record.Flip(0, 0)}}
	w := record.NewWriter(os.Stdout)
	if err := w.Write(g); err != nil {
		fmt.Println(err)
	}
	w.Flush()
	// Output:
	// {"type":"game","format":"memsim-record/1","rules":{"pairs":1,"singletons":0,"seats":1,"pass":"never","choices":["daring","safe","known-first","pass"]}}
	// {"type":"flip","seat":0,"pos":1,"face":0}
	// {"type":"flip","seat":0,"pos":0,"face":0}
	// {"type":"end","scores":[1]}
}
