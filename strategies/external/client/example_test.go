package client_test

import (
	"fmt"
	"os"
	"strings"

	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
)

// lowest flips the lowest position it may flip.
type lowest struct{}

func (lowest) Move(g *client.Game, req *protocol.Move) client.Reply {
	return client.Flip(req.Legal[0])
}

// memsimLines are what memsim writes to a player sitting at seat 1 of a game of two pairs: seat
// 0 turns two cards that do not match, and the player is asked for its first card.
const memsimLines = `{"type":"hello","protocol":"memsim-player/1"}
{"type":"options","values":{}}
{"type":"new_game","game":1,"seat":1,"seed":7,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]}}
{"type":"flip","game":1,"seat":0,"pos":0,"face":1}
{"type":"flip","game":1,"seat":0,"pos":2,"face":0}
{"type":"handover","game":1,"seat":1}
{"type":"move","game":1,"card":1,"legal":[0,1,2,3],"deadline_ms":50}
`

// A player needs only a Move method; Run does the rest. Here memsim's lines come from a string
// rather than from stdin.
func Example() {
	info := client.Info{Name: "lowest", Version: "1.0", View: protocol.ViewEvents}
	err := client.Run(strings.NewReader(memsimLines), os.Stdout, info, func(map[string]any) (client.Player, error) {
		return lowest{}, nil
	})
	if err != nil {
		fmt.Println("lowest:", err)
	}
	// Output:
	// {"type":"player","name":"lowest","version":"1.0","view":"events"}
	// {"type":"flip","game":1,"pos":0}
}

// Daring remembers what seat 0 turned up: its first card is one it has not seen.
func ExampleDaring() {
	info := client.Info{Name: "daring", Version: "1.0", View: protocol.ViewEvents}
	err := client.Run(strings.NewReader(memsimLines), os.Stdout, info, func(map[string]any) (client.Player, error) {
		return client.Daring{}, nil
	})
	fmt.Println(err)
	// Output:
	// {"type":"player","name":"daring","version":"1.0","view":"events"}
	// {"type":"flip","game":1,"pos":1}
	// <nil>
}

// An option declared in the handshake reaches the player with memsim's value or its default.
func ExampleRun_options() {
	lines := `{"type":"hello","protocol":"memsim-player/1"}
{"type":"options","values":{"depth":5}}
`
	info := client.Info{Name: "deep", Version: "1.0", View: protocol.ViewEvents, Options: []protocol.Option{
		{Name: "depth", Type: "int", Default: 3.0},
		{Name: "noise", Type: "float", Default: 0.1},
	}}
	err := client.Run(strings.NewReader(lines), os.Stdout, info, func(options map[string]any) (client.Player, error) {
		fmt.Printf("depth %d, noise %g\n", options["depth"].(int), options["noise"].(float64))
		return client.Random{}, nil
	})
	fmt.Println(err)
	// Output:
	// {"type":"player","name":"deep","version":"1.0","view":"events","options":[{"name":"depth","type":"int","default":3},{"name":"noise","type":"float","default":0.1}]}
	// depth 5, noise 0.1
	// <nil>
}
